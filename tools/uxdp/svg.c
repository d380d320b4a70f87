// SPDX-License-Identifier: GPL-2.0
/*
 * SVG writer for lab plots (svg.h): axes with "nice" ticks
 * (1, 2, 5 x 10^k steps), a colour per series, XML-escaped labels.
 *
 * Kernel: none (lib/ plumbing)
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define W		720
#define H		420
#define ML		80	/* margins: left, right, top, bottom */
#define MR		170
#define MT		40
#define MB		60

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static double nice_step(double span)
{
	double raw = span / 6, mag = pow(10, floor(log10(raw))), r = raw / mag;

	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

struct axis {
	double lo, hi, step;
};

static void axis_fit(struct axis *a, double lo, double hi)
{
	if (!(hi > lo)) {
		double pad = fabs(lo) * 0.01 + 1e-9;

		lo -= pad;
		hi += pad;
	}
	a->step = nice_step(hi - lo);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
}

static double map_y(const struct axis *a, double v)
{
	return MT + (H - MT - MB) * (1 - (v - a->lo) / (a->hi - a->lo));
}

static double map_x(const struct axis *a, double v)
{
	return ML + (W - ML - MR) * (v - a->lo) / (a->hi - a->lo);
}

static void header(FILE *f, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		   "<text x=\"%d\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">",
		W, H, W, H, (W - MR + ML) / 2);
	xml_text(f, title);
	fputs("</text>\n", f);
}

static void y_axis(FILE *f, const struct axis *a, const char *unit)
{
	fprintf(f, "<g stroke=\"#ccc\">\n");
	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", ML, W - MR,
			map_y(a, v), map_y(a, v));
	fprintf(f, "</g>\n<g text-anchor=\"end\">\n");
	for (double v = a->lo; v <= a->hi + a->step / 2; v += a->step)
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%g</text>\n", ML - 6, map_y(a, v) + 4,
			fabs(v) < a->step / 1e6 ? 0 : v);
	fprintf(f, "</g>\n<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\">",
		(H - MB + MT) / 2);
	xml_text(f, unit);
	fputs("</text>\n", f);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, ML, MT,
		H - MB);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, W - MR,
		H - MB, H - MB);
}

static void legend(FILE *f, const struct svg_series *s, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		int y = MT + 10 + 20 * i;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n"
			   "<text x=\"%d\" y=\"%d\">", W - MR + 14, y - 10,
			colours[i % 8], W - MR + 32, y);
		xml_text(f, s[i].name);
		fputs("</text>\n", f);
	}
}

static int finish(FILE *f)
{
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* Columns of dots with an error bar each; @zero: the axis holds 0, drawn dashed. */
static int plot_columns(FILE *f, const char *title, const char *unit,
			const struct svg_series *s, unsigned int nr, bool zero, const char *foot)
{
	double lo = zero ? 0 : INFINITY, hi = zero ? 0 : -INFINITY, colw;
	struct axis a;

	if (!nr)
		return -EINVAL;
	for (unsigned int i = 0; i < nr; i++) {
		for (unsigned int k = 0; k < s[i].n; k++) {
			lo = fmin(lo, s[i].v[k]);
			hi = fmax(hi, s[i].v[k]);
		}
		/* fmin/fmax ignore a NAN bound */
		lo = fmin(lo, fmin(s[i].lo, s[i].est));
		hi = fmax(hi, fmax(s[i].hi, s[i].est));
	}
	axis_fit(&a, lo, hi);
	header(f, title);
	y_axis(f, &a, unit);
	if (zero)
		fprintf(f, "<line class=\"zero\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
			   "stroke=\"black\" stroke-dasharray=\"6 4\"/>\n", ML, W - MR, map_y(&a, 0),
			map_y(&a, 0));
	colw = (double)(W - ML - MR) / nr;
	for (unsigned int i = 0; i < nr; i++) {
		double cx = ML + colw * (i + 0.5);
		const char *c = colours[i % 8];
		bool ci = isfinite(s[i].lo) && isfinite(s[i].hi);

		/* units: dots spread over the column in order */
		for (unsigned int k = 0; k < s[i].n; k++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\" "
				   "fill-opacity=\"0.35\"/>\n",
				cx - colw * 0.3 + colw * 0.2 * (s[i].n > 1 ? (double)k / (s[i].n - 1) : 0.5),
				map_y(&a, s[i].v[k]), c);
		/* CI whisker and estimate */
		fprintf(f, "<g stroke=\"%s\" stroke-width=\"2\">\n", c);
		if (ci)
			fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n"
				   "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n"
				   "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n",
				cx + colw * 0.15, cx + colw * 0.15, map_y(&a, s[i].lo), map_y(&a, s[i].hi),
				cx + colw * 0.08, cx + colw * 0.22, map_y(&a, s[i].lo), map_y(&a, s[i].lo),
				cx + colw * 0.08, cx + colw * 0.22, map_y(&a, s[i].hi), map_y(&a, s[i].hi));
		fprintf(f, "<line class=\"est\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
			   "stroke-width=\"4\"/>\n</g>\n",
			cx + colw * 0.03, cx + colw * 0.27, map_y(&a, s[i].est), map_y(&a, s[i].est));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", cx, H - MB + 18);
		xml_text(f, s[i].name);
		if (ci)
			fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">"
				   "%.4g [%.4g, %.4g]</text>\n", cx, H - MB + 34, s[i].est, s[i].lo, s[i].hi);
		else
			fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">"
				   "%.4g [not enough data]</text>\n", cx, H - MB + 34, s[i].est);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#555\">", ML, H - 8);
	xml_text(f, foot);
	fputs("</text>\n", f);
	legend(f, s, nr);
	return finish(f);
}

int svg_plot_ci(FILE *f, const char *title, const char *unit,
		const struct svg_series *s, unsigned int nr)
{
	return plot_columns(f, title, unit, s, nr, false, "dots: rounds; bar: mean with 95 % CI");
}

int svg_plot_ratio(FILE *f, const char *title, const char *unit, const char *base,
		   const struct svg_series *s, unsigned int nr)
{
	char foot[160];

	snprintf(foot, sizeof(foot), "vs %s; dots: blocks; bar: estimate with 95 %% CI; "
		 "dashed: no difference", base ? base : "the first");
	return plot_columns(f, title, unit, s, nr, true, foot);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Axes of a CDF plot over the values of @s; fills @x. */
static void cdf_frame(FILE *f, const char *title, const char *unit,
		      const struct svg_series *s, unsigned int nr, struct axis *xa,
		      const struct axis *y)
{
	double lo = INFINITY, hi = -INFINITY;
	struct axis x;

	for (unsigned int i = 0; i < nr; i++)
		for (unsigned int k = 0; k < s[i].n; k++) {
			lo = fmin(lo, s[i].v[k]);
			hi = fmax(hi, s[i].v[k]);
		}
	if (lo > hi)
		lo = hi = 0;
	axis_fit(&x, lo, hi);
	*xa = x;
	header(f, title);
	y_axis(f, y, "fraction \u2264 x");
	fprintf(f, "<g text-anchor=\"middle\">\n");
	for (double v = x.lo; v <= x.hi + x.step / 2; v += x.step)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">%g</text>\n", map_x(&x, v), H - MB + 18,
			fabs(v) < x.step / 1e6 ? 0 : v);
	fprintf(f, "</g>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (W - MR + ML) / 2,
		H - MB + 40);
	xml_text(f, unit);
	fputs("</text>\n", f);
}

int svg_plot_quantiles(FILE *f, const char *title, const char *unit,
		       const struct svg_series *s, unsigned int nr, const double *probs)
{
	struct axis x, y = { 0, 1, 0.2 };

	if (!nr)
		return -EINVAL;
	cdf_frame(f, title, unit, s, nr, &x, &y);
	for (unsigned int i = 0; i < nr; i++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			colours[i % 8]);
		for (unsigned int k = 0; k < s[i].n; k++)
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", map_x(&x, s[i].v[k]),
				map_y(&y, probs[k]));
		fputs("\"/>\n", f);
		for (unsigned int k = 0; k < s[i].n; k++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				map_x(&x, s[i].v[k]), map_y(&y, probs[k]), colours[i % 8]);
	}
	legend(f, s, nr);
	return finish(f);
}

int svg_plot_cdf(FILE *f, const char *title, const char *unit,
		 const struct svg_series *s, unsigned int nr)
{
	struct axis x, y = { 0, 1, 0.2 };

	if (!nr)
		return -EINVAL;
	cdf_frame(f, title, unit, s, nr, &x, &y);
	for (unsigned int i = 0; i < nr; i++) {
		double *v, px, py;

		if (!s[i].n)
			continue;
		v = malloc(s[i].n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, s[i].v, s[i].n * sizeof(*v));
		qsort(v, s[i].n, sizeof(*v), cmp_double);
		px = map_x(&x, v[0]);
		py = map_y(&y, 0);
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%.1f,%.1f",
			colours[i % 8], px, py);
		for (unsigned int k = 0; k < s[i].n; k++) {
			px = map_x(&x, v[k]);
			fprintf(f, " %.1f,%.1f", px, py);
			py = map_y(&y, (double)(k + 1) / s[i].n);
			fprintf(f, " %.1f,%.1f", px, py);
		}
		fputs("\"/>\n", f);
		free(v);
	}
	legend(f, s, nr);
	return finish(f);
}
