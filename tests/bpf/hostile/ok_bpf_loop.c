// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): bpf_loop() with a callback counting 100 iterations
 * into a stack variable passed as its context. */
#include "hostile.h"

static int step(__u32 i, void *data)
{
	*(__u64 *)data += i;
	return 0;
}

SEC("xdp")
int ok_bpf_loop(struct xdp_md *ctx)
{
	__u64 sum = 0;

	bpf_loop(100, step, &sum, 0);
	return sum == 4950 ? XDP_TX : XDP_DROP;
}
