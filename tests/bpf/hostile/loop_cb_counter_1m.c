// SPDX-License-Identifier: GPL-2.0
/* bpf_loop() of 1 << 20 iterations whose callback counts in its context
 * and tests the count: the count is precise, so the verifier walks the
 * callback once per iteration and runs out of instructions. */
#include "hostile.h"

static int step(__u64 i, void *data)
{
	return ++*(__u64 *)data >= 1000;
}

SEC("xdp")
int loop_cb_counter_1m(struct xdp_md *ctx)
{
	__u64 n = 0;

	bpf_loop(1 << 20, step, &n, 0);
	return n == 1000 ? XDP_TX : XDP_DROP;
}
