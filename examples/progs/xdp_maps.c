// SPDX-License-Identifier: GPL-2.0
/*
 * One program touching every map type XDP programs use: HASH, PERCPU_HASH,
 * LRU_HASH, LRU_PERCPU_HASH (update flags and their error codes),
 * LPM_TRIE (longest prefix), ARRAY_OF_MAPS and HASH_OF_MAPS (inner lookups),
 * RINGBUF (reserve/submit/discard/output) and PERF_EVENT_ARRAY. Return
 * codes go to the `rc` ARRAY, so the kernel comparison covers them.
 */
#include "parse.h"

#define DEF_HASH(name, type_)				\
struct {						\
	__uint(type, type_);				\
	__type(key, __u32);				\
	__type(value, __u64);				\
	__uint(max_entries, 16);			\
} name SEC(".maps")

DEF_HASH(h_hash, BPF_MAP_TYPE_HASH);
DEF_HASH(h_percpu, BPF_MAP_TYPE_PERCPU_HASH);
DEF_HASH(h_lru, BPF_MAP_TYPE_LRU_HASH);
DEF_HASH(h_lru_percpu, BPF_MAP_TYPE_LRU_PERCPU_HASH);

struct lpm_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_key);
	__type(value, __u32);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} routes SEC(".maps");

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} inner0 SEC(".maps"), inner1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__type(key, __u32);
	__uint(max_entries, 2);
	__array(values, struct inner);
} outer_arr SEC(".maps") = {
	.values = { &inner0, &inner1 },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__type(key, __u32);
	__uint(max_entries, 2);
	__array(values, struct inner);
} outer_hash SEC(".maps") = {
	.values = { [1] = &inner1 },
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} perf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, 16);
} rc SEC(".maps");

static __always_inline void record(__u32 slot, long ret)
{
	__s64 *v = bpf_map_lookup_elem(&rc, &slot);

	if (v)
		*v = ret;
}

static __always_inline void bump(void *map, __u32 key, __u32 slot)
{
	__u64 one = 1, *v;

	v = bpf_map_lookup_elem(map, &key);
	if (v) {
		(*v)++;
		return;
	}
	record(slot, bpf_map_update_elem(map, &key, &one, BPF_NOEXIST));
}

SEC("xdp")
int xdp_maps_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 len = data_end - data;
	struct lpm_key lk = {};
	__u64 val = len, *pv;
	__u32 key = len & 7, *route;
	void *inner;
	__u8 *rec;

	bump(&h_hash, key, 0);
	bump(&h_percpu, key, 1);
	bump(&h_lru, key, 2);
	bump(&h_lru_percpu, key, 3);

	/* Update flag semantics: EXIST on a missing key, NOEXIST on a present one. */
	key = 100;
	record(4, bpf_map_update_elem(&h_hash, &key, &val, BPF_EXIST));
	key = len & 7;
	record(5, bpf_map_update_elem(&h_hash, &key, &val, BPF_NOEXIST));
	record(6, bpf_map_update_elem(&h_hash, &key, &val, 42));
	key = 200;
	record(7, bpf_map_delete_elem(&h_hash, &key));

	if (data + 34 <= data_end) {
		lk.prefixlen = 32;
		__builtin_memcpy(lk.addr, data + 30, 4);	/* IPv4 daddr */
		route = bpf_map_lookup_elem(&routes, &lk);
		record(8, route ? *route : -1);
	}

	key = 0;
	inner = bpf_map_lookup_elem(&outer_arr, &key);
	if (inner) {
		key = len & 3;
		pv = bpf_map_lookup_elem(inner, &key);
		if (pv)
			*pv += len;
	}
	key = 1;
	inner = bpf_map_lookup_elem(&outer_hash, &key);
	if (inner) {
		key = 0;
		pv = bpf_map_lookup_elem(inner, &key);
		if (pv)
			*pv += 1;
	}
	key = 0;
	record(9, bpf_map_lookup_elem(&outer_hash, &key) != 0);

	rec = bpf_ringbuf_reserve(&events, 16, 0);
	if (rec) {
		__builtin_memset(rec, 0, 16);
		rec[0] = len;
		if (len & 1)
			bpf_ringbuf_discard(rec, 0);
		else
			bpf_ringbuf_submit(rec, 0);
	}
	record(10, bpf_ringbuf_output(&events, &val, sizeof(val), 0));
	record(11, bpf_perf_event_output(ctx, &perf, BPF_F_CURRENT_CPU, &val, sizeof(val)));
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
