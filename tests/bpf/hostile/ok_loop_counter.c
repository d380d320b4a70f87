// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): bpf_loop() of 100 iterations whose callback counts
 * in its context and stops at 50; the count is tested in a branch, so the
 * kernel walks every iteration up to the bound (no widening). */
#include "hostile.h"

struct loop_ctx {
	__u64 n;
	__u64 sum;
};

static int step(__u64 i, void *data)
{
	struct loop_ctx *c = data;

	c->n++;
	c->sum += i;
	return c->n >= 50;
}

SEC("xdp")
int ok_loop_counter(struct xdp_md *ctx)
{
	struct loop_ctx c = {};
	long r = bpf_loop(100, step, &c, 0);

	return r == 50 && c.sum == 1225 ? XDP_TX : XDP_DROP;
}
