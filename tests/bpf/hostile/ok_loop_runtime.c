// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): bpf_loop()'s run-time errors, and a callback chosen
 * per path. flags 1 is -EINVAL (the helper runs it: the call is not
 * inlined), more than 1 << 23 loops -E2BIG (the inline loop's check, a
 * 32-bit move: the upper half is 0, as in the kernel), then the packet's
 * length picks the callback (not inlined either). The result has a bit
 * per check and the sum in bits 4 and up: 139 on a 64-byte packet. */
#include "hostile.h"

static int nop(__u64 i, void *data)
{
	return 0;
}

static int add1(__u64 i, void *data)
{
	*(__u64 *)data += 1;
	return 0;
}

static int add2(__u64 i, void *data)
{
	*(__u64 *)data += 2;
	return 0;
}

SEC("xdp")
int ok_loop_runtime(struct xdp_md *ctx)
{
	__u64 v = 0;
	long e1, e2, r;

	e1 = bpf_loop(3, nop, NULL, 1);
	e2 = bpf_loop((1 << 23) + 1, nop, NULL, 0);
	r = bpf_loop(4, ctx->data_end - ctx->data > 32 ? add2 : add1, &v, 0);
	return (e1 == -22) | ((__u32)e2 == (__u32)-7) << 1 | (e2 == -7) << 2 | (r == 4) << 3 |
	       v << 4;
}
