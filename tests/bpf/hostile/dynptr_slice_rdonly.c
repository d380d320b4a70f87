// SPDX-License-Identifier: GPL-2.0
/* Writes through a read-only slice (bpf_dynptr_slice, not _rdwr). */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_slice_rdonly(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u8 buf[4], *p;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	p = bpf_dynptr_slice(&ptr, 0, buf, sizeof(buf));
	if (!p)
		return XDP_DROP;
	*(volatile __u8 *)p = 1;
	return XDP_PASS;
}
