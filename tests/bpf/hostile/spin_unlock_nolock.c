// SPDX-License-Identifier: GPL-2.0
/* Releases a lock it never took. */
#include "spin_lock.h"

SEC("xdp")
int spin_unlock_nolock(struct xdp_md *ctx)
{
	struct locked *v = locked_get(0);

	if (!v)
		return XDP_PASS;
	v->cnt++;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}
