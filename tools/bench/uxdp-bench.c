// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench: benchmark driver. `uxdp-bench MODE [options]`; each mode
 * prints a table and, with --json FILE, writes its figures as JSON.
 * Benchmarks are not tests: they assert nothing about time.
 *
 * Modes: skb (memory core: skb alloc one-by-one vs bulk, skb_linearize vs
 * memcpy), hist (cost of recording a latency sample), capture (a program
 * over a capture: prog run vs the kernel's test run per packet, by the
 * uxdp-bench-capture helper next to this binary), fwd (IPv4 and IPv6
 * forwarding, 1 and 2 workers).
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/*
 * `uxdp-bench capture [--json] [--rounds R] [OBJ PROG CAPTURE]`: the helper
 * is its own executable (libbpf's headers clash with the internal ones);
 * without arguments it runs xdp_proto_stats over a capture it asks for.
 */
static int bench_capture_main(int argc, char **argv)
{
	char self[PATH_MAX], helper[PATH_MAX + 32], cli[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *args[16];
	int k = 0;

	if (n <= 0)
		return 1;
	self[n] = 0;
	snprintf(helper, sizeof(helper), "%s/uxdp-bench-capture", dirname(self));
	snprintf(cli, sizeof(cli), "%s/../uxdp/uxdp", self);
	args[k++] = helper;
	for (int i = 1; i < argc && k < 12; i++)
		args[k++] = argv[i];
	if (argc - 1 == 0 || argv[argc - 1][0] == '-') {
		fprintf(stderr, "usage: uxdp-bench capture [--json] [--rounds R] OBJ PROG CAPTURE\n"
			"  e.g. tests/testbench/gen_pcap.py --count 100000 --no-runt /tmp/100k.pcap;\n"
			"  uxdp-bench capture %s/xdp_proto_stats.o xdp_proto_stats_prog /tmp/100k.pcap\n",
			UXDP_PROGS_DIR);
		return 2;
	}
	args[k++] = cli;
	args[k] = NULL;
	execv(helper, args);
	fprintf(stderr, "Error: %s: cannot run it (built without libpcap?)\n", helper);
	return 1;
}

static const struct bench_mode bench_modes[] = {
	{ "skb", "sk_buff alloc+free one-by-one vs bulk; skb_linearize vs memcpy", bench_skb_main },
	{ "veth", "veth-bulk: Mpps at veth1 for xdp_batch 0/8/16 x PASS/DROP (and the kernel's)", bench_veth_main },
	{ "hist", "latency histogram: ns per hist_record()", bench_hist_main },
	{ "generic", "generic XDP hook p50/p90/p99: linearize=1/0, xdp.frags at 1500 B and 64 KiB; copy vs memcpy", bench_generic_main },
	{ "capture", "prog run over a capture: pkt/s of uxdp and of the kernel's test run per packet", bench_capture_main },
	{ "fwd", "IPv4 and IPv6 forwarding pkt/s through the stack, 1 and 2 workers", bench_fwd_main },
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

void bench_shuffle(int *order, int n, unsigned int *seed)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = rand_r(seed) % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

void bench_summary(const double *v, int n, double *med, double *min, double *max)
{
	double tmp[BENCH_MAX_SAMPLES];

	if (n > BENCH_MAX_SAMPLES)
		n = BENCH_MAX_SAMPLES;
	*min = *max = v[0];
	for (int i = 0; i < n; i++) {
		tmp[i] = v[i];
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
	}
	*med = bench_median(tmp, n);
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
