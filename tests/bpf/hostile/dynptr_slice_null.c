// SPDX-License-Identifier: GPL-2.0
/* Uses a slice without checking it for NULL. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_slice_null(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u8 *p;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	p = bpf_dynptr_slice(&ptr, 0, NULL, 4);
	return *(volatile __u8 *)p ? XDP_PASS : XDP_DROP;
}
