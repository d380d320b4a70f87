// SPDX-License-Identifier: GPL-2.0
/* Checks a lookup's result for NULL, then releases it only when a 32-bit
 * compare of the pointer says non-zero: the kernel predicts a pointer's
 * NULL test only for 64-bit jumps, so the path where the low half is 0
 * keeps the reference and leaks it. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int ct_leak_jmp32(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = 17 };
	struct bpf_sock_tuple tup = { 0 };
	struct nf_conn *ct;

	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_PASS;
	asm goto("r1 = %[ct]; if w1 == 0 goto %l[low_zero];" :: [ct] "r"(ct) : "r1" : low_zero);
	bpf_ct_release(ct);
	return XDP_DROP;
low_zero:
	return XDP_PASS;
}
