// SPDX-License-Identifier: GPL-2.0
/* Reads one byte past a 4-byte slice. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_slice_oob(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u8 buf[4], *p;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	p = bpf_dynptr_slice(&ptr, 0, buf, sizeof(buf));
	if (!p)
		return XDP_DROP;
	return ((volatile __u8 *)p)[4] ? XDP_PASS : XDP_DROP;
}
