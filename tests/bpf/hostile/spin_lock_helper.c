// SPDX-License-Identifier: GPL-2.0
/* Calls a helper while holding the lock. */
#include "spin_lock.h"

SEC("xdp")
int spin_lock_helper(struct xdp_md *ctx)
{
	struct locked *v = locked_get(0);

	if (!v)
		return XDP_PASS;
	bpf_spin_lock(&v->lock);
	v->cnt = bpf_ktime_get_ns();
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}
