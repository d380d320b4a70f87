// SPDX-License-Identifier: GPL-2.0
/* The dynptr rules kept: slice checked, rebuilt over a live one, clone. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int ok_dynptr(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr, c;
	__u8 buf[2], *p;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	bpf_dynptr_from_xdp(ctx, 0, &ptr);	/* over an unreferenced dynptr */
	bpf_dynptr_clone(&ptr, &c);
	bpf_dynptr_adjust(&c, 1, 3);
	p = bpf_dynptr_slice(&c, 0, buf, sizeof(buf));
	if (!p)
		return XDP_DROP;
	return p[0] == 0xff ? XDP_PASS : XDP_TX;
}
