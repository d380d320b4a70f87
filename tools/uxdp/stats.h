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
 * same data always give the same interval.
 *
 * Header of plain C (no kernel types): the uxdp tool includes it.
 *
 * Kernel: none (lib/ plumbing)
 */
#ifndef _UXDP_LIB_STATS_H
#define _UXDP_LIB_STATS_H

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
	double est;
	double lo, hi;
	double sd;		/* stats_ratio_ci: sd of the per-round ln(B/A) */
};

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
 * stats_verdict() - plain words for @ci of variant @name against the first
 * @more, @less: the words for a positive and a negative difference
 * ("faster"/"slower" for throughput, "slower"/"faster" for latency,
 * "more instructions"/"fewer instructions"). Writes e.g.
 * "B is 3.1 % faster (95 % CI 2.4–3.8 %)" or
 * "no difference detectable at this precision (CI −0.8–+1.1 %)".
 * Return: the length snprintf would have written.
 */
int stats_verdict(char *buf, size_t len, const char *name, const struct stats_ci *ci,
		  const char *more, const char *less);

#endif
