// SPDX-License-Identifier: GPL-2.0
/*
 * insn_count: how many instructions uxdp's checker walks for each XDP
 * program of the given objects, next to the kernel's count for the same
 * program (bpf_prog_info.verified_insns, the "processed N insns" of the
 * verifier log). Both walk the same paths and prune at the same kind of
 * points with the same precision rules, so the counts should be close;
 * they are not equal because the checkpoints are not taken at exactly the
 * same instructions and the kernel's liveness is finer.
 *
 *   insn_count [--max-ratio R] [--slack N] OBJ...
 *
 * Prints one row per program: kernel insns, uxdp insns, their ratio, the
 * uxdp load time in ms. Fails (exit 1) when a program loads in one and not
 * the other, when uxdp reaches the 1,000,000-insn limit, or when uxdp walks
 * more than R times (default 2) the kernel's count plus N instructions
 * (default 64: small programs differ by a checkpoint or two). Exits 77
 * without the rights to load programs in the kernel.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <uxdp_bpf.h>

#define SKIP		77
#define INSN_LIMIT	1000000

static double opt_ratio = 2.0;
static long opt_slack = 64;
static unsigned int nr_progs, nr_bad;
static double sum_ratio;

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* The kernel's verified_insns for program @name of @path alone, or -errno. */
static long kernel_count(const char *path, const char *name)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	struct bpf_program *p, *me = NULL;
	long ret;

	if (!obj)
		return -errno;
	bpf_object__for_each_program(p, obj) {
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), name));
		if (!strcmp(bpf_program__name(p), name))
			me = p;
	}
	ret = bpf_object__load(obj);
	if (!ret) {
		memset(&info, 0, sizeof(info));
		ret = bpf_obj_get_info_by_fd(bpf_program__fd(me), &info, &len);
		if (!ret)
			ret = info.verified_insns;
	}
	bpf_object__close(obj);
	return ret;
}

/* uxdp's count for program @name of @path alone, or -errno; @ms: the CPU time of the load. */
static long uxdp_count(const char *path, const char *name, double *ms)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	struct uxdp_bpf_prog_desc d;
	struct uxdp_bpf_object *obj;
	struct timespec a, b;
	unsigned int i;
	long ret = -ENOENT;

	opts.xdp_prog = name;
	opts.xdp_only = true;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	obj = uxdp_bpf_object_open(path, &opts);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	*ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
	if (!obj)
		return -errno;
	for (i = 0; i < uxdp_bpf_object_prog_cnt(obj); i++)
		if (!uxdp_bpf_object_prog(obj, i, &d) && d.loaded && !strcmp(d.name, name))
			ret = d.verified_insns;
	uxdp_bpf_object_close(obj);
	return ret;
}

static void do_prog(const char *path, const char *name)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	long k = kernel_count(path, name), u;
	const char *why = NULL;
	double ms = 0;

	if (k == -EPERM) {
		/* the probe loaded: a policy of this kernel build, not a verdict */
		printf("%-28s %-22s skipped: the kernel's build forbids it (EPERM)\n", base, name);
		return;
	}
	u = uxdp_count(path, name, &ms);
	if ((k < 0) != (u < 0))
		why = k < 0 ? "the kernel refuses it, uxdp loads it" : "uxdp refuses it";
	else if (k < 0)
		why = NULL;	/* both refuse: the verdict tests judge that */
	else if (u >= INSN_LIMIT)
		why = "uxdp reached the instruction limit";
	else if (u > opt_ratio * k + opt_slack)
		why = "uxdp walks too much more than the kernel";
	if (k >= 0 && u >= 0) {
		nr_progs++;
		sum_ratio += k ? (double)u / k : 1.0;
	}
	printf("%-28s %-22s %9ld %9ld %7.2f %9.1f%s%s\n", base, name, k, u,
	       k > 0 && u >= 0 ? (double)u / k : 0.0, ms, why ? "  FAIL: " : "", why ? why : "");
	if (why)
		nr_bad++;
}

static void do_object(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;

	if (!obj) {
		printf("%s: libbpf cannot open it (%s)\n", path, strerror(errno));
		nr_bad++;
		return;
	}
	bpf_object__for_each_program(p, obj)
		if (bpf_program__type(p) == BPF_PROG_TYPE_XDP)
			do_prog(path, bpf_program__name(p));
	bpf_object__close(obj);
}

/* Can this process load the simplest XDP program in the kernel at all? */
static int kernel_probe(void)
{
	const struct bpf_insn ret_pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr = {
		.prog_type = BPF_PROG_TYPE_XDP,
		.insns = (__u64)(unsigned long)ret_pass,
		.insn_cnt = 2,
		.license = (__u64)(unsigned long)"GPL",
	};
	/* the raw syscall: libuxdp's own bpf_prog_load() shadows libbpf's here */
	int fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, err;

	libbpf_set_print(quiet);
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--max-ratio") && i + 1 < argc)
			opt_ratio = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--slack") && i + 1 < argc)
			opt_slack = strtol(argv[++i], NULL, 10);
		else
			break;
	}
	if (i >= argc || opt_ratio <= 0 || opt_slack < 0) {
		fprintf(stderr, "usage: insn_count [--max-ratio R] [--slack N] OBJ...\n");
		return 2;
	}
	err = kernel_probe();
	if (err) {
		printf("SKIP: the kernel refuses to load an XDP program here (%s): this test needs root or CAP_BPF\n",
		       strerror(-err));
		return SKIP;
	}
	printf("%-28s %-22s %9s %9s %7s %9s\n", "object", "program", "kernel", "uxdp", "ratio",
	       "uxdp_cpu_ms");
	for (; i < argc; i++)
		do_object(argv[i]);
	printf("%u programs, mean ratio uxdp/kernel %.2f, %u out of tolerance (%.1fx + %ld)\n",
	       nr_progs, nr_progs ? sum_ratio / nr_progs : 0.0, nr_bad, opt_ratio, opt_slack);
	return nr_bad ? 1 : 0;
}
