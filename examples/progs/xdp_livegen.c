// SPDX-License-Identifier: GPL-2.0
/*
 * The frame source of uxdp-bench-livegen (BPF_PROG_TEST_RUN in live-frame
 * mode): writes the frame's first LIVEGEN_HDR bytes (Ethernet, IPv4, UDP
 * headers) from livegen_cfg, then redirects the frame to the ifindex there.
 *
 * The rewrite is needed: a live frame's page comes back for the next run
 * with whatever the stack wrote into it downstream (a forwarding router
 * rewrites the MAC addresses and decrements the TTL in place), and the
 * kernel initialises the page's data only once.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define LIVEGEN_HDR	42	/* Ethernet 14 + IPv4 20 + UDP 8 */

struct livegen_cfg {
	__u8 hdr[LIVEGEN_HDR];
	__u16 pad;
	__u32 ifindex;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct livegen_cfg);
	__uint(max_entries, 1);
} livegen_cfg SEC(".maps");

SEC("xdp")
int xdp_livegen(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct livegen_cfg *cfg;
	__u32 key = 0;

	cfg = bpf_map_lookup_elem(&livegen_cfg, &key);
	if (!cfg || data + LIVEGEN_HDR > data_end)
		return XDP_ABORTED;
	__builtin_memcpy(data, cfg->hdr, LIVEGEN_HDR);
	return bpf_redirect(cfg->ifindex, 0);
}

char _license[] SEC("license") = "GPL";
