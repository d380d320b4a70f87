// SPDX-License-Identifier: GPL-2.0
/* Releases an allocated, never inserted entry with bpf_ct_release(). */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int ct_release_init(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = 17 };
	struct bpf_sock_tuple tup = { 0 };
	struct nf_conn___init *ct;

	ct = bpf_xdp_ct_alloc(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return XDP_PASS;
	bpf_ct_release((struct nf_conn *)ct);
	return XDP_DROP;
}
