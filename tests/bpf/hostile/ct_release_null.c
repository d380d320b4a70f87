// SPDX-License-Identifier: GPL-2.0
/* Releases a lookup's result without checking it for NULL. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int ct_release_null(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = 17 };
	struct bpf_sock_tuple tup = { 0 };
	struct nf_conn *ct;

	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	bpf_ct_release(ct);
	return XDP_PASS;
}
