// SPDX-License-Identifier: GPL-2.0
/*
 * Hash reference: MurmurHash3 (x86_32) over the first 64 bytes of the frame
 * (16 little-endian words, fewer if the frame is shorter), kept as a real
 * loop (no unrolling): 32-bit multiplies, rotates and xors, the shape of a
 * flow hash. The hash goes to an ARRAY, the words hashed are added to its
 * second slot. The steps are in murmur3.h, which tools/bench/bench_native.c
 * shares.
 */
#include "parse.h"
#include "murmur3.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} hash_result SEC(".maps");

SEC("xdp")
int xdp_hash_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u32 *p = (void *)(long)ctx->data;
	__u32 h = MURMUR3_SEED, key = 0;
	__u64 *res;
	int i;

#pragma clang loop unroll(disable)
	for (i = 0; i < 16; i++) {
		if ((void *)(p + i + 1) > data_end)
			break;
		h = murmur3_round(h, p[i]);
	}
	h = murmur3_fmix(h, i * 4);

	res = bpf_map_lookup_elem(&hash_result, &key);
	if (res)
		*res = h;
	key = 1;
	res = bpf_map_lookup_elem(&hash_result, &key);
	if (res)
		*res += i;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
