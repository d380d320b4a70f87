// SPDX-License-Identifier: GPL-2.0
/* Stores the packet pointer into a map value (an address leak). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} leak SEC(".maps");

SEC("xdp")
int ptr_leak_map(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&leak, &key);

	if (v)
		*v = (__u64)(long)ctx->data;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
