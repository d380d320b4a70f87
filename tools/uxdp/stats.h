/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for A/B runs (the lab, Documentation/lab.md): the median and
 * spread of one variant's rounds, and a 95 % confidence interval for the
 * relative difference between two variants measured in interleaved rounds.
 *
 * The effect is the ratio of geometric means, paired by round: round i of
 * A and round i of B ran next to each other, so d_i = ln(B_i / A_i) cancels
 * slow drift of the machine; the estimate is exp(mean d) - 1. Its CI is a
 * percentile bootstrap of mean d with Hesterberg's small-sample expansion
 * (the percentiles are taken at Phi(-sqrt(n/(n-1)) t_{n-1,0.975}) instead
 * of 2.5 %, which fixes the plain percentile interval's under-coverage at
 * 10..30 rounds). The PRNG is splitmix64 with a caller-given seed, so the
 * same data always give the same interval. With few clusters (below 12)
 * stats_paired_ci() widens it to at least a t interval on the jackknife
 * standard error, which holds its level where the bootstrap cannot.
 *
 * Header of plain C (no kernel types): the uxdp tool includes it.
 *
 * Kernel: none (lib/ plumbing)
 */
#ifndef _UXDP_LIB_STATS_H
#define _UXDP_LIB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_RESAMPLES		2000
#define STATS_SEED		0x75786470ULL	/* "uxdp" */

struct stats_summary {
	unsigned int n;
	double median;
	double min, max;
	double q1, q3;		/* quartiles (linear interpolation) */
	double mean, sd;
	double rsd;		/* 1.4826 * MAD / median: robust relative spread */
};

/* A confidence interval of a relative difference, in fractions (0.031 = +3.1 %). */
struct stats_ci {
	unsigned int n;
	unsigned int units;	/* what the bootstrap resampled: pairs, or clusters */
	double est;
	double lo, hi;
	double sd;		/* stats_ratio_ci: sd of the per-round ln(B/A) */
};

/*
 * Fewest resampled units a printed 95 % interval may rest on. The
 * percentile bootstrap over k units covers far less than 95 % at small k
 * even with the expansion below: A/A rounds simulated as the lab measures
 * them (tests/unit/tools/uxdp/stats_test.c) gave 53 % coverage at two
 * blocks of generations, 89 % at four, 92 % at six and 94-95 % from eight
 * on; an A/A run of this machine, cut into k blocks, agreed
 * (Documentation/lab.md, "How few blocks"). The t widening of
 * stats_paired_ci() brings 4 to 12 blocks to 95-98 %; 6 stays the minimum
 * for the width of an interval on fewer degrees of freedom. Single pairs:
 * 94 % at ten.
 */
#define STATS_MIN_BLOCKS	6
#define STATS_MIN_PAIRS		10

/* Rounds a paired comparison with per-round sd @sd needs for a CI half-width @hw. */
static inline unsigned int stats_rounds_for(double sd, double hw)
{
	double n = hw > 0 ? (2 * sd / hw) * (2 * sd / hw) : 0;

	return n < 5 ? 5 : n > 1e6 ? 1000000 : (unsigned int)n + 1;
}

/* splitmix64: tiny, seedable, good enough to draw bootstrap indices */
struct stats_prng {
	uint64_t state;
};

void stats_prng_seed(struct stats_prng *r, uint64_t seed);
uint64_t stats_prng_next(struct stats_prng *r);
/* uniform in [0, n) */
unsigned int stats_prng_below(struct stats_prng *r, unsigned int n);
/* standard normal (Box-Muller), for synthetic data in tests */
double stats_prng_normal(struct stats_prng *r);

/* Quantile @p in [0, 1] of @x (n values; sorts a copy). NAN if n == 0. */
double stats_quantile(const double *x, unsigned int n, double p);
double stats_median(const double *x, unsigned int n);
/* -EINVAL if n == 0, -ENOMEM. */
int stats_summarize(const double *x, unsigned int n, struct stats_summary *s);

/*
 * stats_ratio_ci() - B relative to A, 95 % CI (see the top of this file)
 * @a, @b: n values each, round i of both measured next to each other; > 0
 * Return: 0, -EINVAL (n < 2 or a value <= 0), -ENOMEM.
 */
int stats_ratio_ci(const double *a, const double *b, unsigned int n,
		   unsigned int resamples, uint64_t seed, struct stats_ci *ci);
/*
 * stats_paired_ci() - B relative to A from paired rounds, robust version
 * @a, @b: n values each, round i of both measured next to each other; > 0
 * @cluster: NULL, or per round a label; consecutive rounds with the same
 *	label (one generation of processes in `uxdp ab --respawn`) are
 *	resampled together, so what differs between processes (memory layout,
 *	physical pages) enters the interval
 * @trim: fraction of the d_i = ln(B_i / A_i) dropped at each end before
 *	averaging (0: the mean, as stats_ratio_ci(); 0.2: the 20 % trimmed
 *	mean, which ignores pairs where one round was disturbed and the other
 *	not)
 * The estimate is exp(trimmed mean d) - 1; the CI a percentile bootstrap of
 * it over pairs (or clusters) with the expansion for the number of units.
 * Return: 0, -EINVAL (n < 2, trim outside [0, 0.5) or a value <= 0), -ENOMEM.
 */
int stats_paired_ci(const double *a, const double *b, const unsigned int *cluster,
		    unsigned int n, double trim, unsigned int resamples, uint64_t seed,
		    struct stats_ci *ci);
/*
 * stats_unpaired_ci() - B relative to A from samples that were not paired
 * (the slices of two runs one after the other): mean(B) / mean(A) - 1 and
 * a percentile bootstrap of it resampling each side on its own, expanded
 * for the smaller side. Return: 0, -EINVAL (fewer than 2 values a side, a
 * mean <= 0), -ENOMEM.
 */
int stats_unpaired_ci(const double *a, unsigned int na, const double *b, unsigned int nb,
		      unsigned int resamples, uint64_t seed, struct stats_ci *ci);
/*
 * stats_mean_ci() - 95 % CI of the mean of @x (same bootstrap), in the
 * units of @x (est = mean). For per-variant error bars.
 */
int stats_mean_ci(const double *x, unsigned int n, unsigned int resamples,
		  uint64_t seed, struct stats_ci *ci);

/* Half the CI width, as a fraction: what --precision compares with. */
static inline double stats_ci_halfwidth(const struct stats_ci *ci)
{
	return (ci->hi - ci->lo) / 2;
}

/* Does the CI exclude zero? */
static inline int stats_ci_significant(const struct stats_ci *ci)
{
	return ci->lo > 0 || ci->hi < 0;
}

/*
 * The effect in time, from a CI of the relative difference of a metric:
 * time change t - 1 (t = B's time / A's time: per packet for a rate,
 * @higher_better, or the latency itself) with its CI; the speed factor is
 * 1 / t. For 551 -> 73 ns: time -86.7 %, 7.5x faster.
 */
void stats_ci_time(const struct stats_ci *ci, bool higher_better, struct stats_ci *time);

/*
 * stats_verdict() - plain words for @ci (of a rate if @higher_better, else
 * of a time such as a latency) of variant @name against the first, said
 * in time: "B is faster: time −1.2 % (95 % CI −1.6 to −0.8 %)", from a
 * factor of two on "B is 7.5× faster: time −86.7 % (95 % CI ...)", or
 * "no difference detectable at this precision: time −0.8 to +1.1 %
 * (95 % CI)". A percentage of a rate is never called faster: +650 % of
 * the rate is −86.7 % of the time.
 * Return: the length snprintf would have written.
 */
int stats_verdict(char *buf, size_t len, const char *name, const struct stats_ci *ci,
		  bool higher_better);
/* "−1.6 to −0.8", "−0.8 to +1.1": a signed range of percentages, one decimal */
int stats_fmt_range(char *buf, size_t len, double lo_pct, double hi_pct);

/*
 * stats_paired_est() - exp(trimmed mean of ln(B_i / A_i)) - 1 over @n pairs,
 * the point estimate of stats_paired_ci() (per block, for plots).
 * Return: the estimate, NAN if n == 0 or a value <= 0.
 */
double stats_paired_est(const double *a, const double *b, unsigned int n, double trim);

#endif
