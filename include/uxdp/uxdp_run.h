/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp runs: drive the datapath with worker threads (one per CPU id) for a
 * duration or until every generator is done, and sample the generic XDP
 * hook's latency. int functions return 0 or -errno.
 *
 * Kernel: none (the run loop stands for softirq time on N CPUs)
 */
#ifndef _UXDP_UXDP_RUN_H
#define _UXDP_UXDP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uxdp.h"

/* Latency of the generic XDP hook, ns (`run ... latency`). */
enum uxdp_latency_kind {
	UXDP_LAT_XDPGENERIC_HOOK,	/* the whole hook (copy + program + fix-ups + verdict) */
	UXDP_LAT_XDPGENERIC_PROG,	/* the program's own run */
	UXDP_LAT_XDPGENERIC_COPY,	/* the copy/linearise block, when it ran */
};
struct uxdp_latency {
	size_t sz;		/* sizeof(struct uxdp_latency) */
	uint64_t count;
	uint64_t min, p50, p90, p99, p999, max;
	double mean;
};
/** uxdp_xdpgeneric_latency() - sample the hook from now on (@on) and zero the histograms. */
UXDP_API int uxdp_xdpgeneric_latency(bool on);
/** uxdp_xdpgeneric_latency_get() - percentiles since the last uxdp_xdpgeneric_latency(). */
UXDP_API int uxdp_xdpgeneric_latency_get(enum uxdp_latency_kind kind, struct uxdp_latency *out);

struct uxdp_run_opts {
	size_t sz;			/* sizeof(struct uxdp_run_opts) */
	unsigned int workers;		/* 0 = 1 */
	uint64_t duration_ns;		/* run for this long, or */
	uint64_t count;			/* each generator sends this many (0: its own count) */
	/* Called about every 20 ms from the calling thread; false stops the run. */
	bool (*progress)(void *ctx, uint64_t elapsed_ns);
	void *progress_ctx;
	/* Neither duration nor counts: run until @progress returns false. */
	bool until_stopped;
};

/**
 * uxdp_run() - drive every device until the duration is over, or until
 * all generators reached their count and every queue is drained
 * @elapsed_ns: receives the wall time of the run
 *
 * Return: 0, -EINVAL (no generator can finish: neither duration nor counts,
 * and not @until_stopped with a @progress),
 * -EAGAIN (thread creation).
 */
UXDP_API int uxdp_run(const struct uxdp_run_opts *opts, uint64_t *elapsed_ns);

#endif
