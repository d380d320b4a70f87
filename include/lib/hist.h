/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histogram, log-linear (HdrHistogram-style): values below 64 get
 * a bucket each; every power-of-two range [2^k, 2^(k+1)) above that is split
 * into 64 equal sub-buckets. A bucket's width is at most 1/64 of its lower
 * bound, and percentiles report the bucket midpoint, so the relative error
 * of any reported value is at most 1/128 (0.8 %), well inside 2 %.
 * Recording is a count-leading-zeros, a shift and an increment; one
 * histogram per worker, merged for reporting. Not thread-safe by itself.
 *
 * Kernel: none (lib/ plumbing; cf. HdrHistogram, bpftrace hist())
 */
#ifndef _UXDP_LIB_HIST_H
#define _UXDP_LIB_HIST_H

#include <linux/compiler.h>
#include <linux/types.h>

#define HIST_SUB_BITS		6
#define HIST_SUB_BUCKETS	(1U << HIST_SUB_BITS)
/* 64 exact buckets + 58 ranges (2^6 .. 2^63) of 64 sub-buckets */
#define HIST_BUCKETS		(HIST_SUB_BUCKETS + (64 - HIST_SUB_BITS) * HIST_SUB_BUCKETS)

struct hist {
	u64 count;
	u64 sum;
	u64 min;
	u64 max;
	u64 buckets[HIST_BUCKETS];
};

static __always_inline unsigned int hist_bucket(u64 v)
{
	unsigned int k;

	if (v < HIST_SUB_BUCKETS)
		return (unsigned int)v;
	k = 63 - __builtin_clzll(v);	/* 2^k <= v < 2^(k+1), k >= 6 */
	return HIST_SUB_BUCKETS * (k - HIST_SUB_BITS + 1) +
	       (unsigned int)((v >> (k - HIST_SUB_BITS)) & (HIST_SUB_BUCKETS - 1));
}

/* Record one value (e.g. nanoseconds). */
static __always_inline void hist_record(struct hist *h, u64 v)
{
	h->buckets[hist_bucket(v)]++;
	h->count++;
	h->sum += v;
	if (unlikely(v < h->min))
		h->min = v;
	if (unlikely(v > h->max))
		h->max = v;
}

void hist_init(struct hist *h);
/* Add every sample of @src to @dst. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Lowest and highest value that fall in bucket @b. */
u64 hist_bucket_low(unsigned int b);
u64 hist_bucket_high(unsigned int b);
/*
 * Value at percentile @p (0 < p <= 100, e.g. 99.9): the midpoint of the
 * bucket holding the ceil(p/100 * count)-th smallest sample, clamped to
 * [min, max]. 0 for an empty histogram.
 */
u64 hist_percentile(const struct hist *h, double p);
/* Arithmetic mean; 0 for an empty histogram. */
double hist_mean(const struct hist *h);

#endif
