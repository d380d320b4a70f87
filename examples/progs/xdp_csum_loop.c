// SPDX-License-Identifier: GPL-2.0
/*
 * Compute-heavy reference: a 64-iteration one's-complement sum over the
 * first 128 bytes of the frame (fewer if the frame is shorter), kept as a
 * real loop (no unrolling) so the cost per executed instruction shows.
 * The folded sum goes to an ARRAY and, for TCP-less frames of at least 64
 * bytes, into bytes 60..61 of the packet.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} csum_result SEC(".maps");

SEC("xdp")
int xdp_csum_loop_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u16 *p = data;
	__u64 *res;
	__u32 sum = 0, key = 0;
	int i, words = 0;

#pragma clang loop unroll(disable)
	for (i = 0; i < 64; i++) {
		if ((void *)(p + i + 1) > data_end)
			break;
		sum += p[i];
		words++;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);

	res = bpf_map_lookup_elem(&csum_result, &key);
	if (res)
		*res = ~sum & 0xffff;
	key = 1;
	res = bpf_map_lookup_elem(&csum_result, &key);
	if (res)
		*res += words;

	if (data + 62 <= data_end)
		*(__u16 *)(data + 60) = ~sum;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
