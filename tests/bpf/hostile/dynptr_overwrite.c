// SPDX-License-Identifier: GPL-2.0
/* Stores over a dynptr's second slot, then uses the dynptr: it is gone. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_overwrite(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	((volatile __u64 *)&ptr)[1] = 0;
	return bpf_dynptr_size(&ptr) ? XDP_PASS : XDP_DROP;
}
