// SPDX-License-Identifier: GPL-2.0
/* Uses a packet slice after bpf_xdp_adjust_head() moved the packet. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_slice_adjust_head(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u8 buf[4], *p;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	p = bpf_dynptr_slice_rdwr(&ptr, 0, buf, sizeof(buf));
	if (!p)
		return XDP_DROP;
	bpf_xdp_adjust_head(ctx, 0);
	return *(volatile __u8 *)p ? XDP_PASS : XDP_DROP;
}
