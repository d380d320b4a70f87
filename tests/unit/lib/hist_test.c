// SPDX-License-Identifier: GPL-2.0
/*
 * Latency histogram: bucket boundaries, the <= 2 % relative error of every
 * percentile against an exact sort (several distributions), merging
 * across "workers", and edge cases (empty, tiny values, huge values).
 */
#include <stdlib.h>
#include <string.h>

#include <lib/hist.h>
#include <linux/slab.h>

#include "uxdp_test.h"

static u64 rs = 88172645463325252ULL;

static u64 rnd64(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 exact_percentile(const u64 *sorted, size_t n, double p)
{
	size_t rank = (size_t)((p / 100.0) * (double)n + 0.999999999);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static struct hist h, h2;

static void leak_teardown(void)
{
	char why[512];

	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

START_TEST(test_bucket_bounds)
{
	for (int i = 0; i < 200000; i++) {
		u64 v = rnd64() >> (rnd64() % 64);
		unsigned int b = hist_bucket(v);

		ck_assert_uint_lt(b, HIST_BUCKETS);
		ck_assert_uint_le(hist_bucket_low(b), v);
		ck_assert_uint_ge(hist_bucket_high(b), v);
		/* width <= low / 64: the error bound */
		if (b >= HIST_SUB_BUCKETS)
			ck_assert_uint_le((hist_bucket_high(b) - hist_bucket_low(b) + 1) * 64,
					  hist_bucket_low(b));
	}
	for (u64 v = 0; v < 64; v++)
		ck_assert_uint_eq(hist_bucket(v), v);
	ck_assert_uint_eq(hist_bucket(64), 64);
	ck_assert_uint_eq(hist_bucket(65), 65);
	ck_assert_uint_eq(hist_bucket(128), 128);
	ck_assert_uint_eq(hist_bucket(UINT64_MAX), HIST_BUCKETS - 1);
	/* consecutive buckets tile the value space */
	for (unsigned int b = 0; b + 1 < HIST_BUCKETS; b++)
		ck_assert_uint_eq(hist_bucket_high(b) + 1, hist_bucket_low(b + 1));
}
END_TEST

static void check_distribution(u64 (*gen)(void), const char *name)
{
	enum { N = 100000 };
	static u64 v[N];
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };

	hist_init(&h);
	for (int i = 0; i < N; i++) {
		v[i] = gen();
		hist_record(&h, v[i]);
	}
	qsort(v, N, sizeof(v[0]), cmp_u64);
	ck_assert_uint_eq(h.count, N);
	ck_assert_uint_eq(h.min, v[0]);
	ck_assert_uint_eq(h.max, v[N - 1]);
	for (unsigned int i = 0; i < ARRAY_SIZE(ps); i++) {
		u64 exact = exact_percentile(v, N, ps[i]);
		u64 got = hist_percentile(&h, ps[i]);
		double err = exact ? ((double)got - (double)exact) / (double)exact : (double)got;

		if (err < 0)
			err = -err;
		ck_assert_msg(err <= 0.02, "%s p%g: exact %llu got %llu err %.4f", name, ps[i],
			      (unsigned long long)exact, (unsigned long long)got, err);
	}
}

static u64 gen_uniform(void) { return 100 + rnd64() % 100000; }
static u64 gen_log(void) { return 1 + (rnd64() >> (rnd64() % 50)); }
static u64 gen_tight(void) { return 5000 + rnd64() % 3; }
static u64 gen_bimodal(void) { return (rnd64() % 10) ? 80 + rnd64() % 10 : 2000000 + rnd64() % 1000; }

START_TEST(test_relative_error_bound)
{
	check_distribution(gen_uniform, "uniform");
	check_distribution(gen_log, "log");
	check_distribution(gen_tight, "tight");
	check_distribution(gen_bimodal, "bimodal");
}
END_TEST

START_TEST(test_merge)
{
	struct hist *w = calloc(4, sizeof(*w));

	hist_init(&h);
	for (int k = 0; k < 4; k++)
		hist_init(&w[k]);
	for (int i = 0; i < 40000; i++) {
		u64 v = gen_log();

		hist_record(&h, v);
		hist_record(&w[i % 4], v);
	}
	hist_init(&h2);
	for (int k = 0; k < 4; k++)
		hist_merge(&h2, &w[k]);
	ck_assert_uint_eq(h2.count, h.count);
	ck_assert_uint_eq(h2.sum, h.sum);
	ck_assert_uint_eq(h2.min, h.min);
	ck_assert_uint_eq(h2.max, h.max);
	ck_assert(!memcmp(h2.buckets, h.buckets, sizeof(h.buckets)));
	ck_assert_uint_eq(hist_percentile(&h2, 99.9), hist_percentile(&h, 99.9));
	free(w);
}
END_TEST

START_TEST(test_edges)
{
	hist_init(&h);
	ck_assert_uint_eq(hist_percentile(&h, 50), 0);
	ck_assert(hist_mean(&h) == 0.0);
	hist_record(&h, 7);
	ck_assert_uint_eq(hist_percentile(&h, 50), 7);
	ck_assert_uint_eq(hist_percentile(&h, 100), 7);
	hist_record(&h, 1000000007ULL);
	ck_assert_uint_eq(hist_percentile(&h, 100), 1000000007ULL);
	ck_assert_uint_eq(hist_percentile(&h, 50), 7);
	ck_assert(hist_mean(&h) == (1000000007.0 + 7) / 2);
	hist_record(&h, UINT64_MAX);
	ck_assert_uint_eq(hist_percentile(&h, 100), UINT64_MAX);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("lib/hist");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, leak_teardown);
	tcase_add_test(tc, test_bucket_bounds);
	tcase_add_test(tc, test_relative_error_bound);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_edges);
	suite_add_tcase(s, tc);
	return s;
}
