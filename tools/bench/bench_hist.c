// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp-bench hist`: cost of hist_record() (lib/hist.c) per sample, for
 * values spread over many magnitudes, median of interleaved rounds, next
 * to an empty loop that generates the same values.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <lib/hist.h>

#include "bench.h"

#define HIST_PER_RUN	(1 << 22)
#define HIST_MAX_ROUNDS	101

static volatile u64 hist_sink;

static u64 next_value(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (*s & 0xffff) << (*s >> 60);	/* 0 .. ~2^31 ns */
}

static double run_record(struct hist *h, bool record)
{
	u64 s = 0x9e3779b97f4a7c15ULL, acc = 0;
	uint64_t t0 = bench_now_ns();

	for (int i = 0; i < HIST_PER_RUN; i++) {
		u64 v = next_value(&s);

		if (record)
			hist_record(h, v);
		else
			acc += v;
	}
	hist_sink += acc;
	return (double)(bench_now_ns() - t0) / HIST_PER_RUN;
}

int bench_hist_main(int argc, char **argv)
{
	static double rec[HIST_MAX_ROUNDS], base[HIST_MAX_ROUNDS];
	struct hist *h = malloc(sizeof(*h));
	int rounds = 11;
	double mrec, mbase;

	if (argc == 3 && !strcmp(argv[1], "--rounds")) {
		rounds = atoi(argv[2]);
	} else if (argc != 1) {
		fprintf(stderr, "Usage: uxdp-bench hist [--rounds N]\n");
		free(h);
		return 2;
	}
	if (!h || rounds < 1 || rounds > HIST_MAX_ROUNDS) {
		free(h);
		return 2;
	}
	hist_init(h);
	run_record(h, true);
	for (int r = 0; r < rounds; r++) {
		if (r % 2) {
			rec[r] = run_record(h, true);
			base[r] = run_record(h, false);
		} else {
			base[r] = run_record(h, false);
			rec[r] = run_record(h, true);
		}
	}
	mrec = bench_median(rec, rounds);
	mbase = bench_median(base, rounds);
	printf("hist_record: %.2f ns/sample (loop with value generation %.2f, generation alone %.2f); "
	       "%d rounds of %d samples; p50 %llu p99 %llu p999 %llu ns\n",
	       mrec - mbase, mrec, mbase, rounds, HIST_PER_RUN,
	       (unsigned long long)hist_percentile(h, 50), (unsigned long long)hist_percentile(h, 99),
	       (unsigned long long)hist_percentile(h, 99.9));
	free(h);
	return 0;
}
