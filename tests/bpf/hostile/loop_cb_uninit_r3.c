// SPDX-License-Identifier: GPL-2.0
/* A bpf_loop() callback reads R3: a callback gets only R1 (the index) and
 * R2 (the context). */
#include "hostile.h"

static int step(__u64 i, void *data)
{
	__u64 r3;

	asm volatile("%0 = r3" : "=r"(r3));
	*(__u64 *)data = r3;
	return 0;
}

SEC("xdp")
int loop_cb_uninit_r3(struct xdp_md *ctx)
{
	__u64 v = 0;

	bpf_loop(4, step, &v, 0);
	return v ? XDP_PASS : XDP_DROP;
}
