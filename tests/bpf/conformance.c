// SPDX-License-Identifier: GPL-2.0
/*
 * Runner for eBPF .data test files (ubpf / bpf_conformance format): each
 * file is assembled (tests/bpf/asm.c) or taken from `-- raw`, loaded with
 * bpf_prog_load() and run by the interpreter; the outcome must be what the
 * file says.
 *
 *   -- asm      program text                 -- raw     bytes or 64-bit words
 *   -- mem      hex bytes r1 points to (r2 = their length)
 *   -- result   expected r0 (64-bit for raw programs, the verdict for xdp)
 *   -- error    the program must be refused; with --strict the text must
 *               appear in the assembler message or the checker log
 *   -- abort    (uxdp) the run must abort with this reason string
 *   -- options  (uxdp) words: "xdp" runs the program as BPF_PROG_TYPE_XDP
 *               with -- mem as the packet (256 bytes of headroom, ifindex
 *               1, queue 0); "devmap" sets expected_attach_type
 *               BPF_XDP_DEVMAP
 *   -- c, -- no register offset: ignored (documentation in the suite)
 *
 * --bench N (raw programs): also time N runs and print ns/run.
 *
 * Modes: default (positive files), --negative (every file must be refused
 * by the assembler or the checker, see negative_exceptions), --strict
 * (uxdp's own files: error texts must match).
 *
 * Raw programs are BPF_PROG_TYPE_UNSPEC (see bpf_check()): r1 = memory,
 * r2 = its length, helper 5 is the suite's stand-in (returns 0; the kernel
 * plugin's helper 5 is bpf_ktime_get_ns, whose value no case uses).
 *
 * Kernel: none (test tool)
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

#include "asm.h"

#define MAX_INSNS	65536

/*
 * Positive cases of the suite that the Linux verifier refuses at load
 * time, so uxdp must refuse them too: the runner checks that the load
 * fails with the kernel's reason.
 */
static const struct {
	const char *file;
	const char *log;	/* must appear in the checker log */
	const char *why;
} positive_exceptions[] = {
	{ "callx.data", "BPF_CALL uses reserved fields",
	  "the kernel has no indirect calls (callx): check_jmp/BPF_CALL rejects BPF_X" },
	{ "lsh32-imm-high.data", "invalid shift", "kernel check_alu_op: invalid shift 60 (>= 32)" },
	{ "lsh64-imm-high.data", "invalid shift", "kernel check_alu_op: constant shift >= 64" },
	{ "rsh32-imm-high.data", "invalid shift", "kernel check_alu_op: constant shift >= 32" },
	{ "rsh64-imm-high.data", "invalid shift", "kernel check_alu_op: constant shift >= 64" },
	{ "arsh32-imm-high.data", "invalid shift", "kernel check_alu_op: constant shift >= 32" },
	{ "arsh64-imm-high.data", "invalid shift", "kernel check_alu_op: constant shift >= 64" },
	{ "lsh32-imm-neg.data", "invalid shift", "kernel check_alu_op: negative constant shift" },
	{ "lsh64-imm-neg.data", "invalid shift", "kernel check_alu_op: negative constant shift" },
	{ "rsh32-imm-neg.data", "invalid shift", "kernel check_alu_op: negative constant shift" },
	{ "rsh64-imm-neg.data", "invalid shift", "kernel check_alu_op: negative constant shift" },
	{ "arsh32-imm-neg.data", "invalid shift", "kernel check_alu_op: negative constant shift" },
	{ "arsh64-imm-neg.data", "invalid shift", "kernel check_alu_op: negative constant shift" },
};

/*
 * Negative cases that load (the kernel accepts them) and are negative for
 * another reason.
 */
static const struct {
	const char *file;
	const char *why;
} negative_mismatch[] = {
	{ "incorrect_return_value_high_bits.data",
	  "loads and runs; its expected result is deliberately wrong in the high bits, "
	  "the runner must see the mismatch" },
};

struct data_file {
	char *asm_text;
	char *raw;
	char *mem;
	char *result;
	char *error;
	char *abort;
	char *options;
	bool unknown_section;
	bool has_error;
	bool has_result;
};

static u64 conformance_helper5(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return 0;
}

static const struct bpf_func_proto conformance_helper5_proto = {
	.func = conformance_helper5,
	.name = "bpf_ktime_get_ns",
	.ret_type = RET_INTEGER,
};

static const struct bpf_func_proto *raw_func_proto(enum bpf_func_id id)
{
	return id == 5 ? &conformance_helper5_proto : NULL;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static void append(char **dst, const char *line)
{
	size_t a = *dst ? strlen(*dst) : 0, b = strlen(line);
	char *p = realloc(*dst, a + b + 2);

	if (!p)
		abort();
	memcpy(p + a, line, b);
	p[a + b] = '\n';
	p[a + b + 1] = '\0';
	*dst = p;
}

static void parse_data(char *text, struct data_file *df)
{
	char **cur = NULL, *line, *save = NULL;
	char *ignored = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "-- ", 3)) {
			const char *s = line + 3;

			if (!strcmp(s, "asm")) {
				cur = &df->asm_text;
				append(cur, "");
			} else if (!strcmp(s, "raw")) {
				cur = &df->raw;
				append(cur, "");
			} else if (!strcmp(s, "mem")) {
				cur = &df->mem;
				append(cur, "");
			} else if (!strcmp(s, "result")) {
				cur = &df->result;
				df->has_result = true;
			} else if (!strcmp(s, "error")) {
				cur = &df->error;
				df->has_error = true;
			} else if (!strcmp(s, "abort")) {
				cur = &df->abort;
			} else if (!strcmp(s, "options")) {
				cur = &df->options;
			} else if (!strcmp(s, "c") || !strcmp(s, "no register offset")) {
				cur = &ignored;
			} else {
				df->unknown_section = true;
				cur = &ignored;
			}
			continue;
		}
		if (cur)
			append(cur, line);
	}
	free(ignored);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Hex bytes ("aa bb"), or 64-bit words ("0x5566778800000018") for -- raw. */
static int parse_hex(const char *text, u8 *out, size_t max, size_t *len)
{
	char *copy = strdup(text), *tok, *save = NULL;

	*len = 0;
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *hash = strchr(tok, '#');

		if (hash == tok)
			break;
		if (!strncmp(tok, "0x", 2) && strlen(tok) > 4) {
			u64 v = strtoull(tok, NULL, 16);

			if (*len + 8 > max)
				goto err;
			memcpy(out + *len, &v, 8);
			*len += 8;
			continue;
		}
		if (*len + 1 > max)
			goto err;
		out[(*len)++] = (u8)strtoul(tok, NULL, 16);
	}
	free(copy);
	return 0;
err:
	free(copy);
	return -E2BIG;
}

static bool has_word(const char *text, const char *word)
{
	const char *p = text;
	size_t n = strlen(word);

	while (p && (p = strstr(p, word))) {
		if ((p == text || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

enum outcome {
	OUT_REFUSED_ASM,
	OUT_REFUSED_CHECK,
	OUT_RAN,
	OUT_ABORTED,
	OUT_INTERNAL,
};

static long bench_runs;

struct run_result {
	enum outcome out;
	char msg[8192];
	u64 r0;
	enum bpf_abort_reason reason;
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void run_file(const char *path, struct data_file *df, struct run_result *res)
{
	static struct bpf_insn insns[MAX_INSNS];
	static u8 rawbuf[MAX_INSNS * 8];
	struct bpf_prog *prog;
	size_t rawlen = 0, memlen = 0;
	u8 *mem = NULL;
	bool xdp = df->options && has_word(df->options, "xdp");
	int n, err;

	memset(res, 0, sizeof(*res));
	if (df->unknown_section || (!df->asm_text && !df->raw)) {
		res->out = OUT_REFUSED_ASM;
		snprintf(res->msg, sizeof(res->msg), "no program (empty or unknown section)");
		return;
	}
	if (df->asm_text) {
		n = bpf_asm(df->asm_text, insns, MAX_INSNS, res->msg, sizeof(res->msg));
		if (n < 0) {
			res->out = OUT_REFUSED_ASM;
			return;
		}
		if (df->raw) {
			if (parse_hex(df->raw, rawbuf, sizeof(rawbuf), &rawlen) ||
			    rawlen != (size_t)n * 8 || memcmp(rawbuf, insns, rawlen)) {
				res->out = OUT_INTERNAL;
				snprintf(res->msg, sizeof(res->msg), "-- asm and -- raw differ");
				return;
			}
		}
	} else {
		if (parse_hex(df->raw, rawbuf, sizeof(rawbuf), &rawlen) || rawlen % 8) {
			res->out = OUT_REFUSED_ASM;
			snprintf(res->msg, sizeof(res->msg), "bad -- raw section");
			return;
		}
		memcpy(insns, rawbuf, rawlen);
		n = (int)(rawlen / 8);
	}
	if (n == 0) {
		res->out = OUT_REFUSED_ASM;
		snprintf(res->msg, sizeof(res->msg), "empty program");
		return;
	}

	prog = bpf_prog_alloc((u32)n);
	if (IS_ERR(prog)) {
		res->out = OUT_INTERNAL;
		return;
	}
	memcpy(prog->insnsi, insns, (size_t)n * sizeof(insns[0]));
	prog->type = xdp ? BPF_PROG_TYPE_XDP : BPF_PROG_TYPE_UNSPEC;
	if (df->options && has_word(df->options, "devmap"))
		prog->expected_attach_type = BPF_XDP_DEVMAP;
	if (!xdp)
		prog->aux->func_proto = raw_func_proto;
	err = bpf_prog_load(&prog, res->msg, sizeof(res->msg));
	if (err) {
		res->out = OUT_REFUSED_CHECK;
		bpf_prog_put(prog);
		return;
	}

	if (df->mem) {
		u8 tmp[65536];

		if (parse_hex(df->mem, tmp, sizeof(tmp), &memlen)) {
			res->out = OUT_INTERNAL;
			bpf_prog_put(prog);
			return;
		}
		/* exactly sized, so ASan sees any escape of the run-time checks */
		mem = malloc(memlen + (xdp ? XDP_PACKET_HEADROOM : 0) + 1);
		memcpy(mem + (xdp ? XDP_PACKET_HEADROOM : 0), tmp, memlen);
	}
	if (xdp) {
		struct net_device dev = { .ifindex = 1 };
		struct xdp_rxq_info rxq = { .dev = &dev, .queue_index = 0 };
		struct xdp_buff xdp_buf = { 0 };
		u8 *hard = mem ? mem : malloc(XDP_PACKET_HEADROOM + 1);

		xdp_buf.data_hard_start = hard;
		xdp_buf.data = hard + XDP_PACKET_HEADROOM;
		xdp_buf.data_meta = xdp_buf.data;
		xdp_buf.data_end = (u8 *)xdp_buf.data + memlen;
		xdp_buf.rxq = &rxq;
		xdp_buf.frame_sz = XDP_PACKET_HEADROOM + memlen;
		res->r0 = bpf_prog_run(prog, &xdp_buf);
		mem = hard;
		for (n = 0; n < __BPF_ABORT_MAX; n++)
			if (prog->aux->abort_cnt[n])
				res->reason = n;
	} else {
		res->r0 = bpf_prog_run_raw(prog, mem, memlen, &res->reason);
		if (bench_runs > 0) {
			struct timespec t0, t1;
			double ns;
			long k;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			for (k = 0; k < bench_runs; k++)
				bpf_prog_run_raw(prog, mem, memlen, &res->reason);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ns = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
			printf("# bench %s: %ld runs, %.1f ns/run\n", base_name(path), bench_runs,
			       ns / bench_runs);
		}
	}
	res->out = res->reason != BPF_ABORT_NONE ? OUT_ABORTED : OUT_RAN;
	free(mem);
	bpf_prog_put(prog);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool negative, strict;
static int nr_run, nr_fail, nr_exc;

static void check_file(const char *path)
{
	struct data_file df = { 0 };
	struct run_result *res;
	const char *name = base_name(path);
	char *text = read_file(path), why[512] = "";
	bool ok = false;
	size_t k;

	if (!text) {
		printf("not ok %d %s: cannot read\n", ++nr_run, path);
		nr_fail++;
		return;
	}
	res = calloc(1, sizeof(*res));
	parse_data(text, &df);
	run_file(path, &df, res);

	if (negative) {
		ok = res->out == OUT_REFUSED_ASM || res->out == OUT_REFUSED_CHECK;
		for (k = 0; k < sizeof(negative_mismatch) / sizeof(negative_mismatch[0]); k++) {
			if (strcmp(name, negative_mismatch[k].file))
				continue;
			ok = res->out == OUT_RAN && df.result &&
			     strtoull(trim(df.result), NULL, 0) != res->r0;
			snprintf(why, sizeof(why), "exception: %s", negative_mismatch[k].why);
			nr_exc++;
		}
		if (!ok && !why[0])
			snprintf(why, sizeof(why), "was not refused (r0=0x%llx)",
				 (unsigned long long)res->r0);
	} else {
		for (k = 0; k < sizeof(positive_exceptions) / sizeof(positive_exceptions[0]); k++) {
			if (strcmp(name, positive_exceptions[k].file))
				continue;
			ok = res->out == OUT_REFUSED_CHECK && strstr(res->msg, positive_exceptions[k].log);
			snprintf(why, sizeof(why), "exception (refused as the kernel does): %s",
				 positive_exceptions[k].why);
			nr_exc++;
			goto report;
		}
		if (df.has_error) {
			char *want = df.error ? trim(df.error) : (char *)"";

			ok = res->out == OUT_REFUSED_ASM || res->out == OUT_REFUSED_CHECK;
			if (ok && strict && *want && !strstr(res->msg, want)) {
				ok = false;
				snprintf(why, sizeof(why), "refused with '%s', want '%s'",
					 trim(res->msg), want);
			} else if (!ok) {
				snprintf(why, sizeof(why), "was not refused");
			}
		} else if (df.abort) {
			char *want = trim(df.abort);

			ok = res->out == OUT_ABORTED && !strcmp(bpf_abort_reason_str(res->reason), want);
			if (!ok)
				snprintf(why, sizeof(why), "outcome %d reason '%s', want abort '%s' (%s)",
					 res->out, bpf_abort_reason_str(res->reason), want,
					 trim(res->msg));
		} else {
			u64 want = df.result ? strtoull(trim(df.result), NULL, 0) : 0;

			ok = res->out == OUT_RAN && res->r0 == want;
			if (!ok && res->out == OUT_RAN)
				snprintf(why, sizeof(why), "r0=0x%llx want 0x%llx",
					 (unsigned long long)res->r0, (unsigned long long)want);
			else if (!ok)
				snprintf(why, sizeof(why), "outcome %d: %s%s", res->out, trim(res->msg),
					 res->out == OUT_ABORTED ? bpf_abort_reason_str(res->reason) : "");
		}
	}
report:
	nr_run++;
	if (!ok)
		nr_fail++;
	printf("%s %d %s%s%s\n", ok ? "ok" : "not ok", nr_run, name, why[0] ? " # " : "", why);
	free(df.asm_text);
	free(df.raw);
	free(df.mem);
	free(df.result);
	free(df.error);
	free(df.abort);
	free(df.options);
	free(res);
	free(text);
}

static void check_path(const char *path)
{
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d = opendir(path);

	if (!d) {
		check_file(path);
		return;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 5 && !strcmp(de->d_name + l - 5, ".data")) {
			names = realloc(names, (n + 1) * sizeof(*names));
			if (asprintf(&names[n], "%s/%s", path, de->d_name) < 0)
				abort();
			n++;
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		check_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	int i, paths = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--negative")) {
			negative = true;
		} else if (!strcmp(argv[i], "--strict")) {
			strict = true;
		} else if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
			bench_runs = atol(argv[++i]);
		} else {
			if (access(argv[i], R_OK)) {
				/* a TAP skip: meson reports SKIP only with exit 0 */
				printf("1..0 # SKIP %s not found\n", argv[i]);
				return 0;
			}
			check_path(argv[i]);
			paths++;
		}
	}
	if (!paths) {
		fprintf(stderr, "usage: %s [--negative] [--strict] FILE|DIR...\n", argv[0]);
		return 2;
	}
	printf("1..%d\n# %d run, %d failed, %d listed exceptions\n", nr_run, nr_run, nr_fail,
	       nr_exc);
	return nr_fail ? 1 : 0;
}
