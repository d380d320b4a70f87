// SPDX-License-Identifier: GPL-2.0
/*
 * Tail calls through a PROG_ARRAY: the entry program classifies the frame
 * and jumps to the IPv4 or IPv6 handler; an empty slot falls through. A
 * self-loop program exercises the 33-call limit.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 4);
} jmp_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} hits SEC(".maps");

static __always_inline void hit(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&hits, &slot);

	if (v)
		(*v)++;
}

SEC("xdp")
int xdp_tail_ipv4(struct xdp_md *ctx)
{
	hit(0);
	return XDP_DROP;
}

SEC("xdp")
int xdp_tail_ipv6(struct xdp_md *ctx)
{
	hit(1);
	return XDP_TX;
}

SEC("xdp")
int xdp_tail_loop(struct xdp_md *ctx)
{
	hit(3);
	bpf_tail_call(ctx, &jmp_table, 3);
	return XDP_PASS;
}

SEC("xdp")
int xdp_tail_entry(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct hdr_cursor nh = { .pos = (void *)(long)ctx->data };
	struct ethhdr *eth;
	int proto;

	proto = parse_ethhdr(&nh, data_end, &eth);
	if (proto == bpf_htons(ETH_P_IP))
		bpf_tail_call(ctx, &jmp_table, 0);
	else if (proto == bpf_htons(ETH_P_IPV6))
		bpf_tail_call(ctx, &jmp_table, 1);
	else if (proto == bpf_htons(ETH_P_ARP))
		bpf_tail_call(ctx, &jmp_table, 3);
	/* Slot 2 stays empty, unknown protocols land here too. */
	bpf_tail_call(ctx, &jmp_table, 2);
	hit(2);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
