// SPDX-License-Identifier: GPL-2.0
/* A tail call made in a bpf_loop() callback itself. */
#include "hostile.h"

PROG_ARRAY(jmp, 1);

static int step(__u64 i, void *data)
{
	bpf_tail_call(*(struct xdp_md **)data, &jmp, 0);
	return 0;
}

SEC("xdp")
int loop_cb_tail_call(struct xdp_md *ctx)
{
	bpf_loop(5, step, &ctx, 0);
	return XDP_PASS;
}
