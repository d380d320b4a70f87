// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-buffer XDP (SEC("xdp.frags")): bpf_xdp_get_buff_len over linear
 * part and frags, bpf_xdp_load_bytes/store_bytes across the boundary, and
 * adjust_tail shrinking a fragmented frame. A plain SEC("xdp") program in
 * the same object shows what a non-frags program sees of a jumbo frame.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, 8);
} info SEC(".maps");

static __always_inline void put(__u32 slot, __s64 val)
{
	__s64 *v = bpf_map_lookup_elem(&info, &slot);

	if (v)
		*v = val;
}

SEC("xdp.frags")
int xdp_frags_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u8 buf[16] = {};
	__u64 len, sum = 0;
	long ret;
	int i;

	len = bpf_xdp_get_buff_len(ctx);
	put(0, len);
	put(1, data_end - data);

	if (len < 16)
		return XDP_DROP;
	ret = bpf_xdp_load_bytes(ctx, len - 16, buf, sizeof(buf));
	put(2, ret);
	for (i = 0; i < 16; i++)
		sum = sum * 31 + buf[i];
	put(3, sum);

	/* Mark the last byte and a byte straddling 3520 if present. */
	buf[0] = 0xee;
	put(4, bpf_xdp_store_bytes(ctx, len - 1, buf, 1));
	if (len > 3530)
		bpf_xdp_store_bytes(ctx, 3518, buf, 4);
	/* Out of range: -EINVAL. */
	put(5, bpf_xdp_load_bytes(ctx, len, buf, 1));
	if (len > 4000) {
		put(6, bpf_xdp_adjust_tail(ctx, -100));
		put(7, bpf_xdp_get_buff_len(ctx));
	}
	return XDP_PASS;
}

SEC("xdp")
int xdp_linear_prog(struct xdp_md *ctx)
{
	put(0, bpf_xdp_get_buff_len(ctx));
	put(1, ctx->data_end - ctx->data);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
