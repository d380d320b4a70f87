// SPDX-License-Identifier: GPL-2.0
/* Recursion through a callback: the callback calls a subprogram that
 * passes the same callback to bpf_loop() again. */
#include "hostile.h"

static int step(__u64 i, void *data);

static __attribute__((noinline)) int again(void *data)
{
	return bpf_loop(2, step, data, 0);
}

static int step(__u64 i, void *data)
{
	*(__u64 *)data += again(data);
	return 0;
}

SEC("xdp")
int loop_cb_recursion(struct xdp_md *ctx)
{
	__u64 v = 0;

	bpf_loop(2, step, &v, 0);
	return v ? XDP_PASS : XDP_DROP;
}
