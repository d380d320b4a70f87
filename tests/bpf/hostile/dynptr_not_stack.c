// SPDX-License-Identifier: GPL-2.0
/* Passes a map value where a stack dynptr is required. */
#include "hostile.h"
#include "bpf_kfuncs.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct bpf_dynptr);
	__uint(max_entries, 1);
} dptrs SEC(".maps");

SEC("xdp")
int dynptr_not_stack(struct xdp_md *ctx)
{
	struct bpf_dynptr *p;
	__u32 key = 0;

	p = bpf_map_lookup_elem(&dptrs, &key);
	if (!p)
		return XDP_DROP;
	bpf_dynptr_from_xdp(ctx, 0, p);
	return XDP_PASS;
}
