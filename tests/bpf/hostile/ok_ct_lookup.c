// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): a lookup whose entry, if any, is read and released. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int ok_ct_lookup(struct xdp_md *ctx)
{
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = 17 };
	struct bpf_sock_tuple tup = { 0 };
	unsigned long status;
	struct nf_conn *ct;

	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	if (!ct)
		return opts.error == -2 ? XDP_PASS : XDP_ABORTED;
	status = ct->status;
	bpf_ct_release(ct);
	return status ? XDP_DROP : XDP_TX;
}
