// SPDX-License-Identifier: GPL-2.0
/* Takes one value's lock and releases another's. */
#include "spin_lock.h"

SEC("xdp")
int spin_unlock_other(struct xdp_md *ctx)
{
	struct locked *a = locked_get(0), *b = locked_get(1);

	if (!a || !b)
		return XDP_PASS;
	bpf_spin_lock(&a->lock);
	a->cnt++;
	bpf_spin_unlock(&b->lock);
	return XDP_PASS;
}
