// SPDX-License-Identifier: GPL-2.0
/* Loads a dynptr's bytes as a scalar (its data pointer). */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_stack_read(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	return ((volatile __u64 *)&ptr)[0] ? XDP_PASS : XDP_DROP;
}
