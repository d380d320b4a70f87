// SPDX-License-Identifier: GPL-2.0
/* A bpf_loop() callback writes past the caller's 8-byte context on the
 * caller's stack: above its frame pointer. */
#include "hostile.h"

static int step(__u64 i, void *data)
{
	((volatile __u64 *)data)[8] = i;
	return 0;
}

SEC("xdp")
int loop_cb_stack_oob(struct xdp_md *ctx)
{
	__u64 v = 0;

	bpf_loop(4, step, &v, 0);
	return v ? XDP_PASS : XDP_DROP;
}
