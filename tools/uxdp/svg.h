/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SVG plots for lab reports (uxdp ab --report): self-contained files a
 * browser shows, no gnuplot needed. Two kinds:
 *  - svg_plot_ci(): one column per variant, its rounds as dots, the
 *    estimate as a bar mark with the 95 % CI as an error bar; the value axis
 *    spans the data (it does not start at zero: the differences of interest
 *    are a few percent, and the axis labels say where it starts);
 *  - svg_plot_ratio(): the same for paired ratios against a base variant,
 *    with the line of no difference;
 *  - svg_plot_cdf(): empirical CDFs, one step line per series (the
 *    distribution of per-round values), and svg_plot_quantiles() for a CDF
 *    known at a few quantiles (latency p50, p90, p99, ...).
 * Text is XML-escaped; output is well-formed XML (tests run xmllint).
 *
 * Header of plain C (no kernel types): the uxdp tool includes it.
 *
 * Kernel: none (lib/ plumbing)
 */
#ifndef _UXDP_LIB_SVG_H
#define _UXDP_LIB_SVG_H

#include <stdio.h>

struct svg_series {
	const char *name;
	const double *v;	/* values (rounds, or latency samples) */
	unsigned int n;
	double est, lo, hi;	/* svg_plot_ci: estimate and its CI */
};

/* Return: 0, -EINVAL (no series), -EIO (write error on @f). */
int svg_plot_ci(FILE *f, const char *title, const char *unit,
		const struct svg_series *s, unsigned int nr);
/*
 * svg_plot_ratio() - paired comparisons against @base: per series its
 * units (s[i].v: per block, in %) as dots and the estimate with its CI
 * as an error bar, on an axis that always holds 0 (drawn dashed: no
 * difference). A CI of NAN is drawn as "not enough data", the estimate
 * alone.
 */
int svg_plot_ratio(FILE *f, const char *title, const char *unit, const char *base,
		   const struct svg_series *s, unsigned int nr);
int svg_plot_cdf(FILE *f, const char *title, const char *unit,
		 const struct svg_series *s, unsigned int nr);
/*
 * svg_plot_quantiles() - a CDF known only at some quantiles: s[i].v holds
 * s[i].n values, the quantiles at @probs (ascending), drawn as a line with
 * a marker per point. For latency histograms reported as p50/p90/p99...
 */
int svg_plot_quantiles(FILE *f, const char *title, const char *unit,
		       const struct svg_series *s, unsigned int nr, const double *probs);

#endif
