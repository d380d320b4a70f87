// SPDX-License-Identifier: GPL-2.0
/* bpf_csum_diff() over a whole 1 MiB map value. The verifier caps the size
 * at the value's (checked at load); since Linux 6.13 the helper has no
 * 512-byte scratch limit and sums all of it, folded to 16 bits: the
 * zeroed value gives 0, XDP_PASS; the old -EINVAL would give XDP_TX. */
#include "hostile.h"

ARRAY_1MIB(big);

SEC("xdp")
int csum_diff_1mib(struct xdp_md *ctx)
{
	__u32 key = 0;
	void *v = bpf_map_lookup_elem(&big, &key);
	long r;

	if (!v)
		return XDP_ABORTED;
	r = bpf_csum_diff(v, 1 << 20, 0, 0, 0);
	if (r == -22)
		return XDP_TX;
	return r == 0 ? XDP_PASS : XDP_DROP;
}
