// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench: benchmark driver. `uxdp-bench MODE [options]`; each mode
 * prints a table and, with --json FILE, writes its figures as JSON.
 * Benchmarks are not tests: they assert nothing about time.
 *
 * Modes: skb (memory core: skb alloc one-by-one vs bulk, skb_linearize vs
 * memcpy), hist (cost of recording a latency sample).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

static const struct bench_mode bench_modes[] = {
	{ "skb", "sk_buff alloc+free one-by-one vs bulk; skb_linearize vs memcpy", bench_skb_main },
	{ "veth", "veth-bulk: Mpps at veth1 for xdp_batch 0/8/16 x PASS/DROP (and the kernel's)", bench_veth_main },
	{ "hist", "latency histogram: ns per hist_record()", bench_hist_main },
	{ "generic", "generic XDP hook p50/p90/p99: linearize=1/0, xdp.frags at 1500 B and 64 KiB; copy vs memcpy", bench_generic_main },
	{ "dsa", "dsa-cb: pkt/s through DSA + IPv4 forwarding for cb_clear full/tagger x tx_ts_classify always/requested", bench_dsa_main },
};

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_median(double *v, int n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: uxdp-bench MODE [OPTIONS]\n\nModes:\n");
	for (size_t i = 0; i < sizeof(bench_modes) / sizeof(bench_modes[0]); i++)
		fprintf(f, "  %-8s %s\n", bench_modes[i].name, bench_modes[i].summary);
	fprintf(f, "\nRun `uxdp-bench MODE --help` for the options of a mode.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(bench_modes) / sizeof(bench_modes[0]); i++)
		if (!strcmp(argv[1], bench_modes[i].name))
			return bench_modes[i].main(argc - 1, argv + 1);
	fprintf(stderr, "Error: '%s' is not a benchmark mode\n", argv[1]);
	usage(stderr);
	return 2;
}
