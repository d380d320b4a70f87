// SPDX-License-Identifier: GPL-2.0
/* A bpf_loop() callback returns 2: only 0 (go on) and 1 (stop) are allowed. */
#include "hostile.h"

static int step(__u64 i, void *data)
{
	return 2;
}

SEC("xdp")
int loop_cb_ret2(struct xdp_md *ctx)
{
	bpf_loop(4, step, NULL, 0);
	return XDP_PASS;
}
