// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): a hash map lookup, NULL-checked, then an update and
 * a second, checked lookup that finds it. */
#include "hostile.h"

HASH_U64(vals, 4);

SEC("xdp")
int ok_map_null(struct xdp_md *ctx)
{
	__u32 key = 3;
	__u64 one = 1, *v = bpf_map_lookup_elem(&vals, &key);

	if (v)
		return XDP_ABORTED;
	bpf_map_update_elem(&vals, &key, &one, BPF_ANY);
	v = bpf_map_lookup_elem(&vals, &key);
	if (!v)
		return XDP_ABORTED;
	return *v == 1 ? XDP_TX : XDP_DROP;
}
