// SPDX-License-Identifier: GPL-2.0
/* Asks for a slice of a size known only at run time. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_slice_var_size(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u8 buf[8], *p;
	__u32 n;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	n = (bpf_dynptr_size(&ptr) & 7) + 1;
	p = bpf_dynptr_slice(&ptr, 0, buf, n);
	return p ? XDP_PASS : XDP_DROP;
}
