// SPDX-License-Identifier: GPL-2.0
/* bpf_loop() with a callback that calls bpf_loop() on itself. */
#include "hostile.h"

static int step(__u32 i, void *data);

static int step(__u32 i, void *data)
{
	bpf_loop(1 << 20, step, data, 0);
	return 0;
}

SEC("xdp")
int loop_callback_forever(struct xdp_md *ctx)
{
	__u64 n = 0;

	bpf_loop(1 << 20, step, &n, 0);
	return XDP_PASS;
}
