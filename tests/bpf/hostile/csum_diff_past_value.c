// SPDX-License-Identifier: GPL-2.0
/* bpf_csum_diff() over 1 MiB + 4 bytes of a 1 MiB map value. */
#include "hostile.h"

ARRAY_1MIB(big);

SEC("xdp")
int csum_diff_past_value(struct xdp_md *ctx)
{
	__u32 key = 0;
	void *v = bpf_map_lookup_elem(&big, &key);

	if (!v)
		return XDP_ABORTED;
	return bpf_csum_diff(v, (1 << 20) + 4, 0, 0, 0) ? XDP_TX : XDP_PASS;
}
