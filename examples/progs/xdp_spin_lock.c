// SPDX-License-Identifier: GPL-2.0
/*
 * Counters updated under a bpf_spin_lock: one ARRAY value with packets,
 * bytes and the last length seen, and a HASH value per IP protocol; every
 * field of a value changes in the same critical section, so a reader
 * taking the lock (BPF_F_LOCK) never sees them disagree. The lock words
 * read back as zero, as the kernel's map lookups return them.
 */
#include "parse.h"

struct totals {
	struct bpf_spin_lock lock;
	__u32 last_len;
	__u64 packets;
	__u64 bytes;
};

struct proto_count {
	__u64 packets;
	struct bpf_spin_lock lock;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct totals);
	__uint(max_entries, 1);
} totals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct proto_count);
	__uint(max_entries, 16);
} by_proto SEC(".maps");

SEC("xdp")
int xdp_spin_lock(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct proto_count *pc, init = { 0 };
	__u32 len = data_end - data, key = 0;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct totals *t;

	t = bpf_map_lookup_elem(&totals, &key);
	if (!t)
		return XDP_ABORTED;
	bpf_spin_lock(&t->lock);
	t->packets++;
	t->bytes += len;
	t->last_len = len;
	bpf_spin_unlock(&t->lock);

	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = nh.pos;
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	key = iph->protocol;
	pc = bpf_map_lookup_elem(&by_proto, &key);
	if (!pc) {
		bpf_map_update_elem(&by_proto, &key, &init, BPF_NOEXIST);
		pc = bpf_map_lookup_elem(&by_proto, &key);
		if (!pc)
			return XDP_ABORTED;
	}
	bpf_spin_lock(&pc->lock);
	pc->packets++;
	bpf_spin_unlock(&pc->lock);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
