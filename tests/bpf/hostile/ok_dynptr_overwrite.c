// SPDX-License-Identifier: GPL-2.0
/*
 * A store over one slot of a dynptr ends all of it: the other slot is
 * then plain uninitialised stack, which a privileged program may read.
 */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int ok_dynptr_overwrite(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u64 v;

	bpf_dynptr_from_xdp(ctx, 0, &ptr);
	((volatile __u64 *)&ptr)[1] = 0;
	v = ((volatile __u64 *)&ptr)[0];
	return v == 1 ? XDP_TX : XDP_PASS;
}
