// SPDX-License-Identifier: GPL-2.0
/* Takes the value's lock and returns without releasing it. */
#include "spin_lock.h"

SEC("xdp")
int spin_lock_exit(struct xdp_md *ctx)
{
	struct locked *v = locked_get(0);

	if (!v)
		return XDP_PASS;
	bpf_spin_lock(&v->lock);
	v->cnt++;
	return XDP_PASS;
}
