// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_loop() reference: the IPv4 header checksum summed by a callback, one
 * 16-bit word per iteration, the number of words from the header's IHL
 * (20 to 60 bytes). The loop's state is a struct on the caller's stack
 * holding the packet pointers, so every word the callback reads is proven
 * against data_end inside the callback; it stops the loop (returns 1) at
 * the end of the packet. Frames whose header sums to 0xffff pass and the
 * others drop; the per-verdict counts and the words summed go to an ARRAY,
 * the last header's sum to slot 3.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} csum_stats SEC(".maps");

struct csum_ctx {
	__u8 *iph;
	void *data_end;
	__u32 sum;
	__u32 words;
};

static long csum_word(__u64 i, void *data)
{
	struct csum_ctx *c = data;
	__u8 *w;

	/* the verifier knows nothing of i: bound it before the pointer math */
	if (i >= 30)
		return 1;
	w = c->iph + 2 * i;
	if ((void *)(w + 2) > c->data_end)
		return 1;
	c->sum += w[0] << 8 | w[1];
	c->words++;
	return 0;
}

static __always_inline void stat_add(__u32 key, __u64 v)
{
	__u64 *s = bpf_map_lookup_elem(&csum_stats, &key);

	if (s)
		*s += v;
}

SEC("xdp")
int xdp_loop_csum_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct hdr_cursor nh = { .pos = (void *)(long)ctx->data };
	struct csum_ctx c = { .data_end = data_end };
	struct ethhdr *eth;
	struct iphdr *iph;
	__u32 key = 3;
	__u64 *last;
	int ok;

	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = nh.pos;
	if ((void *)(iph + 1) > data_end || iph->ihl < 5)
		return XDP_PASS;
	c.iph = (__u8 *)iph;
	bpf_loop(iph->ihl * 2, csum_word, &c, 0);
	c.sum = (c.sum & 0xffff) + (c.sum >> 16);
	c.sum = (c.sum & 0xffff) + (c.sum >> 16);
	ok = c.sum == 0xffff && c.words == iph->ihl * 2u;
	stat_add(ok ? 0 : 1, 1);
	stat_add(2, c.words);
	last = bpf_map_lookup_elem(&csum_stats, &key);
	if (last)
		*last = c.sum;
	return ok ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
