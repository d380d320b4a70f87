// SPDX-License-Identifier: GPL-2.0
/* Map value accessed past its 8 bytes at an offset taken from the packet. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} vals SEC(".maps");

SEC("xdp")
int oob_map(struct xdp_md *ctx)
{
	unsigned char *p = (void *)(long)ctx->data;
	unsigned char *end = (void *)(long)ctx->data_end;
	__u32 key = 0;
	unsigned char *v;

	if (p + 1 > end)
		return XDP_PASS;
	v = bpf_map_lookup_elem(&vals, &key);
	if (!v)
		return XDP_PASS;
	return v[p[0]] ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
