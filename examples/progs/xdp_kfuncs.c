// SPDX-License-Identifier: GPL-2.0
/*
 * Kfuncs of an XDP program without a device binding (the RX metadata ones
 * need one): a conntrack lookup of the packet's IPv4 TCP/UDP tuple (an
 * empty table: NULL with opts.error -ENOENT; a found entry would be
 * released), one with a bad options size (-EINVAL), and a __weak kfunc
 * nobody implements, skipped through bpf_ksym_exists(). Every result goes
 * to the `rc` ARRAY, so the kernel comparison covers them.
 */
#include "parse.h"
#include "rc_map.h"
#include "bpf_kfuncs.h"

extern int bpf_uxdp_no_such_kfunc(struct xdp_md *ctx) __ksym __weak;

enum {
	RC_CT,
	RC_CT_ERROR,
	RC_CT_ERROR_BAD_SZ,
	RC_WEAK,
	RC_MAX,
};

RC_MAP(RC_MAX)

SEC("xdp")
int xdp_kfuncs(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_ct_opts opts = { .netns_id = -1, .l4proto = IPPROTO_UDP };
	struct hdr_cursor nh = { .pos = data };
	struct bpf_sock_tuple tup = { 0 };
	struct ethhdr *eth;
	struct iphdr *iph;
	struct nf_conn *ct;

	if (bpf_ksym_exists(bpf_uxdp_no_such_kfunc))
		set_rc(RC_WEAK, bpf_uxdp_no_such_kfunc(ctx));
	else
		set_rc(RC_WEAK, -1);

	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = nh.pos;
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	tup.ipv4.saddr = iph->saddr;
	tup.ipv4.daddr = iph->daddr;
	tup.ipv4.sport = bpf_htons(1234);
	tup.ipv4.dport = bpf_htons(4321);
	opts.l4proto = iph->protocol;

	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts));
	set_rc(RC_CT, ct ? 1 : 0);
	set_rc(RC_CT_ERROR, opts.error);
	if (ct)
		bpf_ct_release(ct);
	opts.error = 0;
	ct = bpf_xdp_ct_lookup(ctx, &tup, sizeof(tup.ipv4), &opts, sizeof(opts) - 4);
	set_rc(RC_CT_ERROR_BAD_SZ, opts.error);
	if (ct)
		bpf_ct_release(ct);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
