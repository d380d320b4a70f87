// SPDX-License-Identifier: GPL-2.0
/*
 * What the instruction budget costs: each program of an object runs with
 * the budget on (vi->needs_budget, what today's checker asks for on a
 * loop) and off (what a verifier that bounds the loop leaves: no budget,
 * as the kernel), alternating in the same process, on the JIT and on the
 * interpreter. Prints the median ns per run of each and on/off.
 *
 *   bpf-budget-ab [--repeat N] [--rounds R] OBJ [PROG]
 *
 * The packet is 128 bytes of 0x5a behind an Ethernet header. Benchmark,
 * not a test: meson test -C BUILD --benchmark budget-ab -v
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <uxdp/uxdp_bpf.h>

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Median over @rounds of the average ns of @repeat runs, per mode. */
static int measure(u32 id, bool jit, u32 repeat, u32 rounds, u32 med[2])
{
	struct bpf_prog *prog = bpf_prog_get(id);
	struct bpf_verifier_info *vi = prog->aux->verifier_info;
	bool saved = vi->needs_budget;
	u8 pkt[128], out[256];
	u32 *ns[2], r, m;
	int err = 0;

	memset(pkt, 0x5a, sizeof(pkt));
	ns[0] = calloc(rounds, sizeof(u32));
	ns[1] = calloc(rounds, sizeof(u32));
	bpf_jit_enable = jit;
	for (r = 0; r < rounds && !err; r++) {
		for (m = 0; m < 2 && !err; m++) {
			struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };

			vi->needs_budget = m == 0;
			err = bpf_prog_select_runtime(prog);
			if (err || prog->jited != jit) {
				err = err ?: -1;
				break;
			}
			o.data_in = pkt;
			o.data_size_in = sizeof(pkt);
			o.data_out = out;
			o.data_size_out = sizeof(out);
			o.repeat = repeat;
			err = uxdp_bpf_prog_test_run(id, &o);
			ns[m][r] = o.duration;
		}
	}
	for (m = 0; m < 2; m++) {
		qsort(ns[m], rounds, sizeof(u32), cmp_u32);
		med[m] = ns[m][rounds / 2];
		free(ns[m]);
	}
	vi->needs_budget = saved;
	return err ?: bpf_prog_select_runtime(prog);
}

int main(int argc, char **argv)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	u32 repeat = 1000000, rounds = 5, i, med[2][2];
	struct uxdp_bpf_object *obj;
	const char *want = NULL;
	static char log[16384];
	int a = 1;

	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--repeat"))
			repeat = (u32)atol(argv[a + 1]);
		else if (!strcmp(argv[a], "--rounds"))
			rounds = (u32)atol(argv[a + 1]);
		else
			break;
	}
	if (a >= argc || !repeat || !rounds) {
		fprintf(stderr, "usage: bpf-budget-ab [--repeat N] [--rounds R] OBJ [PROG]\n");
		return 2;
	}
	if (a + 1 < argc)
		want = argv[a + 1];
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	obj = uxdp_bpf_object_open(argv[a], &opts);
	if (!obj) {
		fprintf(stderr, "%s: %s\n", argv[a], log);
		return 1;
	}
	printf("%-24s %9s %9s %7s %9s %9s %7s\n", "program", "jit on", "jit off", "on/off",
	       "interp on", "interp off", "on/off");
	for (i = 0; i < uxdp_bpf_object_prog_cnt(obj); i++) {
		struct uxdp_bpf_prog_desc p;

		if (uxdp_bpf_object_prog(obj, i, &p) || (want && strcmp(want, p.name)))
			continue;
		if (measure(p.id, true, repeat, rounds, med[0]) ||
		    measure(p.id, false, repeat, rounds, med[1])) {
			fprintf(stderr, "%s: run failed\n", p.name);
			uxdp_bpf_object_close(obj);
			return 1;
		}
		printf("%-24s %9u %9u %7.2f %9u %9u %7.2f\n", p.name, med[0][0], med[0][1],
		       med[0][1] ? (double)med[0][0] / med[0][1] : 0, med[1][0], med[1][1],
		       med[1][1] ? (double)med[1][0] / med[1][1] : 0);
	}
	uxdp_bpf_object_close(obj);
	return 0;
}
