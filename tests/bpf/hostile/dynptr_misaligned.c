// SPDX-License-Identifier: GPL-2.0
/* Builds a dynptr at a stack address that is not 8-byte aligned. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_misaligned(struct xdp_md *ctx)
{
	__u8 space[24];

	bpf_dynptr_from_xdp(ctx, 0, (struct bpf_dynptr *)(space + 4));
	return XDP_PASS;
}
