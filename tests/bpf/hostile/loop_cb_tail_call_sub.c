// SPDX-License-Identifier: GPL-2.0
/* A bpf_loop() callback calls a subprogram that tail-calls. */
#include "hostile.h"

PROG_ARRAY(jmp, 1);

static __attribute__((noinline)) int tail(struct xdp_md *xdp)
{
	bpf_tail_call(xdp, &jmp, 0);
	return 0;
}

static int step(__u64 i, void *data)
{
	return tail(*(struct xdp_md **)data) ? 1 : 0;
}

SEC("xdp")
int loop_cb_tail_call_sub(struct xdp_md *ctx)
{
	bpf_loop(5, step, &ctx, 0);
	return XDP_PASS;
}
