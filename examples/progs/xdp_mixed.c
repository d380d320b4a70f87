// SPDX-License-Identifier: GPL-2.0
/*
 * A mixed object: an XDP program beside a tc classifier and a BTF
 * tracepoint, all three sharing the map seen_cnt. Loaders that want the
 * XDP program turn autoload off for the others (libbpf); uxdp loads the
 * XDP program only, still creates the shared map, and lists the other two
 * as not loaded (`uxdp prog show`). The tc program's CO-RE record against
 * a type of no BTF is never resolved: its program is not loaded.
 *
 * seen_cnt[0]: frames XDP saw, [1]: IPv4 among them; the tc and tracepoint
 * programs count into [2] and [3].
 */
#include "parse.h"
#include <bpf/bpf_core_read.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} seen_cnt SEC(".maps");

struct uxdp_tc_only_type {
	int field;
} __attribute__((preserve_access_index));

static __always_inline void count(__u32 k)
{
	__u64 *c = bpf_map_lookup_elem(&seen_cnt, &k);

	if (c)
		__sync_fetch_and_add(c, 1);
}

SEC("xdp")
int xdp_mixed_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;

	count(0);
	if (parse_ethhdr(&nh, data_end, &eth) == bpf_htons(ETH_P_IP)) {
		count(1);
		return XDP_PASS;
	}
	return XDP_DROP;
}

SEC("tc")
int tc_mixed_prog(struct __sk_buff *skb)
{
	struct uxdp_tc_only_type *t = (void *)(long)skb->data;

	count(2);
	if ((void *)(t + 1) > (void *)(long)skb->data_end)
		return 0;
	return BPF_CORE_READ(t, field) ? 1 : 0;
}

SEC("tp_btf/xdp_exception")
int tp_mixed_prog(void *ctx)
{
	count(3);
	return 0;
}

char _license[] SEC("license") = "GPL";
