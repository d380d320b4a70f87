// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics for the lab (uxdp ab): order statistics, the paired ratio
 * bootstrap and the verdict sentence. What is estimated and why is at the
 * top of stats.h; Documentation/lab.md explains it for users.
 * Pure functions of their inputs and a seed: no global state, no printing.
 *
 * Kernel: none (lib/ plumbing)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

void stats_prng_seed(struct stats_prng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t stats_prng_next(struct stats_prng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned int stats_prng_below(struct stats_prng *r, unsigned int n)
{
	return (unsigned int)(((stats_prng_next(r) >> 32) * (uint64_t)n) >> 32);
}

double stats_prng_normal(struct stats_prng *r)
{
	double u1 = ((stats_prng_next(r) >> 11) + 1) * 0x1.0p-53;	/* (0, 1] */
	double u2 = (stats_prng_next(r) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* @s sorted */
static double quantile_sorted(const double *s, unsigned int n, double p)
{
	double h, f;
	unsigned int i;

	if (!n)
		return NAN;
	if (p <= 0)
		return s[0];
	if (p >= 1)
		return s[n - 1];
	h = p * (n - 1);
	i = (unsigned int)h;
	f = h - i;
	return i + 1 < n ? s[i] + f * (s[i + 1] - s[i]) : s[i];
}

double stats_quantile(const double *x, unsigned int n, double p)
{
	double *s, q;

	if (!n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	q = quantile_sorted(s, n, p);
	free(s);
	return q;
}

double stats_median(const double *x, unsigned int n)
{
	return stats_quantile(x, n, 0.5);
}

int stats_summarize(const double *x, unsigned int n, struct stats_summary *sum)
{
	double *s, acc = 0, var = 0;

	if (!n)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	sum->n = n;
	sum->min = s[0];
	sum->max = s[n - 1];
	sum->q1 = quantile_sorted(s, n, 0.25);
	sum->median = quantile_sorted(s, n, 0.5);
	sum->q3 = quantile_sorted(s, n, 0.75);
	for (unsigned int i = 0; i < n; i++)
		acc += s[i];
	sum->mean = acc / n;
	for (unsigned int i = 0; i < n; i++)
		var += (s[i] - sum->mean) * (s[i] - sum->mean);
	sum->sd = n > 1 ? sqrt(var / (n - 1)) : 0;
	/* MAD: reuse the buffer for absolute deviations */
	for (unsigned int i = 0; i < n; i++)
		s[i] = fabs(s[i] - sum->median);
	qsort(s, n, sizeof(*s), cmp_double);
	sum->rsd = sum->median ? 1.4826 * quantile_sorted(s, n, 0.5) / fabs(sum->median) : 0;
	free(s);
	return 0;
}

/* Student t quantile, Cornish-Fisher expansion in 1/nu (good to 1e-4 for nu >= 3). */
static double t_quantile(double z, double nu)
{
	double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;

	if (nu < 1)
		nu = 1;
	return z + (z3 + z) / (4 * nu) + (5 * z5 + 16 * z3 + 3 * z) / (96 * nu * nu) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * nu * nu * nu);
}

/*
 * Lower percentile for a 95 % interval of a mean of n values, expanded for
 * small n (Hesterberg, "What teachers should know about the bootstrap",
 * 2015, §5.3): alpha'/2 = Phi(-sqrt(n/(n-1)) * t_{n-1,0.975}).
 */
static double expanded_alpha_half(unsigned int n)
{
	const double z975 = 1.959963984540054;
	double t = t_quantile(z975, n - 1);

	return 0.5 * erfc(sqrt((double)n / (n - 1)) * t / M_SQRT2);
}

/* Percentile bootstrap of the mean of @d; fills ci->lo/hi. */
static int bootstrap_mean(const double *d, unsigned int n, unsigned int resamples,
			  uint64_t seed, struct stats_ci *ci)
{
	struct stats_prng r;
	double *means, a;

	if (resamples < 100)
		resamples = 100;
	means = malloc(resamples * sizeof(*means));
	if (!means)
		return -ENOMEM;
	stats_prng_seed(&r, seed);
	for (unsigned int k = 0; k < resamples; k++) {
		double acc = 0;

		for (unsigned int i = 0; i < n; i++)
			acc += d[stats_prng_below(&r, n)];
		means[k] = acc / n;
	}
	qsort(means, resamples, sizeof(*means), cmp_double);
	a = expanded_alpha_half(n);
	ci->lo = quantile_sorted(means, resamples, a);
	ci->hi = quantile_sorted(means, resamples, 1 - a);
	free(means);
	return 0;
}

int stats_ratio_ci(const double *a, const double *b, unsigned int n,
		   unsigned int resamples, uint64_t seed, struct stats_ci *ci)
{
	double *d, acc = 0;
	int err;

	if (n < 2)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0)) {
			free(d);
			return -EINVAL;
		}
		d[i] = log(b[i] / a[i]);
		acc += d[i];
	}
	ci->n = n;
	ci->units = n;
	ci->est = expm1(acc / n);
	ci->sd = 0;
	for (unsigned int i = 0; i < n; i++)
		ci->sd += (d[i] - acc / n) * (d[i] - acc / n);
	ci->sd = sqrt(ci->sd / (n - 1));
	err = bootstrap_mean(d, n, resamples, seed, ci);
	free(d);
	if (err)
		return err;
	ci->lo = expm1(ci->lo);
	ci->hi = expm1(ci->hi);
	return 0;
}

/* Mean of @s[0..n) sorted, less floor(@trim * n) values at each end. */
static double trimmed_mean_sorted(const double *s, unsigned int n, double trim)
{
	unsigned int k = (unsigned int)(trim * n), m = n - 2 * k;
	double acc = 0;

	if (!m)
		return quantile_sorted(s, n, 0.5);
	for (unsigned int i = k; i < n - k; i++)
		acc += s[i];
	return acc / m;
}

static double trimmed_mean(double *tmp, const double *d, unsigned int n, double trim)
{
	if (trim <= 0) {
		double acc = 0;

		for (unsigned int i = 0; i < n; i++)
			acc += d[i];
		return acc / n;
	}
	memcpy(tmp, d, n * sizeof(*d));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return trimmed_mean_sorted(tmp, n, trim);
}

double stats_paired_est(const double *a, const double *b, unsigned int n, double trim)
{
	double *d, m;

	if (!n || !(trim >= 0 && trim < 0.5))
		return NAN;
	d = malloc(2 * n * sizeof(*d));
	if (!d)
		return NAN;
	for (unsigned int i = 0; i < n; i++) {
		if (!(a[i] > 0) || !(b[i] > 0)) {
			free(d);
			return NAN;
		}
		d[i] = log(b[i] / a[i]);
	}
	m = trimmed_mean(d + n, d, n, trim);
	free(d);
	return expm1(m);
}

/*
 * Below this many clusters the percentile bootstrap falls short of its
 * level even with the expansion (89 % at 4 blocks, 92 % at 6 in the A/A
 * simulation of stats_test.c), so the interval is widened to at least a
 * Student t interval, m +- t_{k-1,0.975} * se, with se the delete-a-cluster
 * jackknife's standard error of the estimate itself: it holds its level
 * with few clusters, where the bootstrap's spread is too small.
 */
#define STATS_T_CLUSTERS	12

/* The @k leave-one-cluster-out estimates @e of an estimate @m: widen ci to m +- t se. */
static void cluster_t_widen(const double *e, unsigned int k, double m, struct stats_ci *ci)
{
	double mean = 0, ss = 0, half;

	for (unsigned int u = 0; u < k; u++)
		mean += e[u];
	mean /= k;
	for (unsigned int u = 0; u < k; u++)
		ss += (e[u] - mean) * (e[u] - mean);
	half = t_quantile(1.959963984540054, k - 1) * sqrt(ss * (k - 1) / k);
	ci->lo = fmin(ci->lo, expm1(m - half));
	ci->hi = fmax(ci->hi, expm1(m + half));
}

int stats_paired_ci(const double *a, const double *b, const unsigned int *cluster,
		    unsigned int n, double trim, unsigned int resamples, uint64_t seed,
		    struct stats_ci *ci)
{
	unsigned int *start = NULL, *len = NULL, units = 0, cap;
	double *d, *pool = NULL, *tmp = NULL, *est = NULL, m, a2;
	struct stats_prng r;
	int err = -ENOMEM;

	if (n < 2 || !(trim >= 0 && trim < 0.5))
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (!(a[i] > 0) || !(b[i] > 0))
			return -EINVAL;
	/* clusters: runs of equal labels, each one resampling unit */
	if (cluster)
		for (unsigned int i = 0; i < n; i++)
			units += !i || cluster[i] != cluster[i - 1];
	if (units < 2)
		cluster = NULL;
	if (!cluster)
		units = n;
	if (resamples < 100)
		resamples = 100;
	d = malloc(n * sizeof(*d));
	start = malloc(units * sizeof(*start));
	len = malloc(units * sizeof(*len));
	est = malloc(resamples * sizeof(*est));
	/* a resample of clusters can hold more values than n: up to units x largest */
	cap = n;
	if (!d || !start || !len || !est)
		goto out;
	for (unsigned int i = 0, u = 0; i < n; i++) {
		d[i] = log(b[i] / a[i]);
		if (!cluster) {
			start[i] = i;
			len[i] = 1;
		} else if (!i || cluster[i] != cluster[i - 1]) {
			start[u] = i;
			len[u++] = 1;
		} else {
			len[u - 1]++;
		}
	}
	if (cluster) {
		unsigned int big = 0;

		for (unsigned int u = 0; u < units; u++)
			big = len[u] > big ? len[u] : big;
		cap = units * big;
	}
	pool = malloc(cap * sizeof(*pool));
	tmp = malloc(cap * sizeof(*tmp));
	if (!pool || !tmp)
		goto out;
	m = trimmed_mean(tmp, d, n, trim);
	ci->n = n;
	ci->units = units;
	ci->est = expm1(m);
	ci->sd = 0;
	for (unsigned int i = 0; i < n; i++)
		ci->sd += (d[i] - m) * (d[i] - m);
	ci->sd = sqrt(ci->sd / (n - 1));
	stats_prng_seed(&r, seed);
	for (unsigned int k = 0; k < resamples; k++) {
		unsigned int np = 0;

		for (unsigned int j = 0; j < units; j++) {
			unsigned int u = stats_prng_below(&r, units);

			memcpy(pool + np, d + start[u], len[u] * sizeof(*d));
			np += len[u];
		}
		est[k] = trimmed_mean(tmp, pool, np, trim);
	}
	qsort(est, resamples, sizeof(*est), cmp_double);
	a2 = expanded_alpha_half(units);
	ci->lo = expm1(quantile_sorted(est, resamples, a2));
	ci->hi = expm1(quantile_sorted(est, resamples, 1 - a2));
	if (cluster && units < STATS_T_CLUSTERS) {
		/* est is free again and holds at least 100 >= units values */
		for (unsigned int u = 0; u < units; u++) {
			unsigned int np = 0;

			for (unsigned int v = 0; v < units; v++) {
				if (v == u)
					continue;
				memcpy(pool + np, d + start[v], len[v] * sizeof(*d));
				np += len[v];
			}
			est[u] = trimmed_mean(tmp, pool, np, trim);
		}
		cluster_t_widen(est, units, m, ci);
	}
	err = 0;
out:
	free(d);
	free(tmp);
	free(pool);
	free(start);
	free(len);
	free(est);
	return err;
}

static double mean_of(const double *x, unsigned int n)
{
	double acc = 0;

	for (unsigned int i = 0; i < n; i++)
		acc += x[i];
	return acc / n;
}

int stats_unpaired_ci(const double *a, unsigned int na, const double *b, unsigned int nb,
		      unsigned int resamples, uint64_t seed, struct stats_ci *ci)
{
	double ma, mb, *est, q;
	struct stats_prng r;

	if (na < 2 || nb < 2)
		return -EINVAL;
	ma = mean_of(a, na);
	mb = mean_of(b, nb);
	if (!(ma > 0) || !(mb > 0))
		return -EINVAL;
	if (resamples < 100)
		resamples = 100;
	est = malloc(resamples * sizeof(*est));
	if (!est)
		return -ENOMEM;
	stats_prng_seed(&r, seed);
	for (unsigned int k = 0; k < resamples; k++) {
		double sa = 0, sb = 0;

		for (unsigned int i = 0; i < na; i++)
			sa += a[stats_prng_below(&r, na)];
		for (unsigned int i = 0; i < nb; i++)
			sb += b[stats_prng_below(&r, nb)];
		est[k] = sa > 0 && sb > 0 ? log((sb / nb) / (sa / na)) : 0;
	}
	qsort(est, resamples, sizeof(*est), cmp_double);
	q = expanded_alpha_half(na < nb ? na : nb);
	ci->n = na < nb ? na : nb;
	ci->units = ci->n;
	ci->est = mb / ma - 1;
	ci->sd = 0;
	ci->lo = expm1(quantile_sorted(est, resamples, q));
	ci->hi = expm1(quantile_sorted(est, resamples, 1 - q));
	free(est);
	return 0;
}

int stats_mean_ci(const double *x, unsigned int n, unsigned int resamples,
		  uint64_t seed, struct stats_ci *ci)
{
	double acc = 0;

	if (n < 2)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		acc += x[i];
	ci->n = n;
	ci->units = n;
	ci->est = acc / n;
	return bootstrap_mean(x, n, resamples, seed, ci);
}

/* "+1.1" / "−0.8" (U+2212 MINUS SIGN) with one decimal */
static int fmt_signed(char *buf, size_t len, double pct)
{
	if (pct < 0)
		return snprintf(buf, len, "\u2212%.1f", -pct);
	return snprintf(buf, len, "+%.1f", pct);
}

int stats_fmt_range(char *buf, size_t len, double lo_pct, double hi_pct)
{
	char lo[32], hi[32];

	fmt_signed(lo, sizeof(lo), lo_pct);
	fmt_signed(hi, sizeof(hi), hi_pct);
	return snprintf(buf, len, "%s to %s", lo, hi);
}

void stats_ci_time(const struct stats_ci *ci, bool higher_better, struct stats_ci *t)
{
	*t = *ci;
	if (!higher_better)
		return;
	/* a rate r: time per packet 1 / r, so the interval's ends swap */
	t->est = 1 / (1 + ci->est) - 1;
	t->lo = 1 / (1 + ci->hi) - 1;
	t->hi = 1 / (1 + ci->lo) - 1;
}

int stats_verdict(char *buf, size_t len, const char *name, const struct stats_ci *ci,
		  bool higher_better)
{
	char range[80], est[32];
	struct stats_ci t;
	double factor;

	stats_ci_time(ci, higher_better, &t);
	stats_fmt_range(range, sizeof(range), t.lo * 100, t.hi * 100);
	if (!stats_ci_significant(&t))
		return snprintf(buf, len, "no difference detectable at this precision: time %s %% (95 %% CI)",
				range);
	fmt_signed(est, sizeof(est), t.est * 100);
	factor = t.est < 0 ? 1 / (1 + t.est) : 1 + t.est;
	if (factor >= 2)
		return snprintf(buf, len, "%s is %.1f\u00d7 %s: time %s %% (95 %% CI %s %%)", name,
				factor, t.est < 0 ? "faster" : "slower", est, range);
	return snprintf(buf, len, "%s is %s: time %s %% (95 %% CI %s %%)", name,
			t.est < 0 ? "faster" : "slower", est, range);
}
