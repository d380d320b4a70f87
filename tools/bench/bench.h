/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp-bench modes and the helpers they share (timing, medians, JSON).
 */
#ifndef _UXDP_BENCH_H
#define _UXDP_BENCH_H

#include <stdint.h>
#include <stdio.h>

struct bench_mode {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);	/* argv[0] is the mode name */
};

int bench_skb_main(int argc, char **argv);
int bench_veth_main(int argc, char **argv);
int bench_hist_main(int argc, char **argv);
int bench_generic_main(int argc, char **argv);
int bench_dsa_main(int argc, char **argv);
int bench_fwd_main(int argc, char **argv);

uint64_t bench_now_ns(void);
/* Median of @n doubles (sorts @v in place). */
double bench_median(double *v, int n);
/* @order = 0..@n-1 in a random order drawn from @seed (interleaved rounds). */
void bench_shuffle(int *order, int n, unsigned int *seed);
#define BENCH_MAX_SAMPLES	256
/* Median, min and max of the first @n (at most BENCH_MAX_SAMPLES) of @v (unchanged). */
void bench_summary(const double *v, int n, double *med, double *min, double *max);

#endif
