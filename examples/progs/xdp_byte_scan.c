// SPDX-License-Identifier: GPL-2.0
/*
 * Loop reference with an early exit: scan the first 256 bytes of the frame
 * for the first byte equal to the one at offset 0 of the payload's key
 * (byte 42, after Ethernet + IPv4 + UDP headers) and count the bytes looked
 * at; the offset found (or 0xffff) goes to an ARRAY. Kept as a real loop
 * (no unrolling), each iteration proves its byte against data_end, so the
 * cost of a verified loop with a variable packet offset shows.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} scan_result SEC(".maps");

SEC("xdp")
int xdp_byte_scan_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = (void *)(long)ctx->data;
	__u32 key = 0, found = 0xffff, i;
	__u64 *res;
	__u8 want;

	if ((void *)(p + 43) > data_end)
		return XDP_PASS;
	want = p[42];
#pragma clang loop unroll(disable)
	for (i = 43; i < 256; i++) {
		if ((void *)(p + i + 1) > data_end)
			break;
		if (p[i] == want) {
			found = i;
			break;
		}
	}
	res = bpf_map_lookup_elem(&scan_result, &key);
	if (res)
		*res = found;
	key = 1;
	res = bpf_map_lookup_elem(&scan_result, &key);
	if (res)
		*res += i - 43;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
