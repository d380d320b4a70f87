// SPDX-License-Identifier: GPL-2.0
/*
 * Log-linear latency histogram (layout and error bound in <lib/hist.h>).
 *
 * Kernel: none
 */
#include <math.h>
#include <string.h>

#include <lib/hist.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		dst->buckets[b] += src->buckets[b];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

u64 hist_bucket_low(unsigned int b)
{
	unsigned int k;

	if (b < HIST_SUB_BUCKETS)
		return b;
	k = b / HIST_SUB_BUCKETS + HIST_SUB_BITS - 1;
	return ((u64)HIST_SUB_BUCKETS + b % HIST_SUB_BUCKETS) << (k - HIST_SUB_BITS);
}

u64 hist_bucket_high(unsigned int b)
{
	unsigned int k;

	if (b < HIST_SUB_BUCKETS)
		return b;
	k = b / HIST_SUB_BUCKETS + HIST_SUB_BITS - 1;
	return hist_bucket_low(b) + ((u64)1 << (k - HIST_SUB_BITS)) - 1;
}

u64 hist_percentile(const struct hist *h, double p)
{
	u64 rank, seen = 0;

	if (!h->count)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	rank = (u64)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
		seen += h->buckets[b];
		if (seen >= rank) {
			u64 lo = hist_bucket_low(b), hi = hist_bucket_high(b);
			u64 mid = lo + (hi - lo) / 2;

			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}
