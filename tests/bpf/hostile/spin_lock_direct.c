// SPDX-License-Identifier: GPL-2.0
/* Reads the lock word with a plain load. */
#include "spin_lock.h"

SEC("xdp")
int spin_lock_direct(struct xdp_md *ctx)
{
	struct locked *v = locked_get(0);

	if (!v)
		return XDP_PASS;
	return *(volatile __u32 *)&v->lock ? XDP_DROP : XDP_PASS;
}
