// SPDX-License-Identifier: GPL-2.0
/* Takes the locks of two values at once. */
#include "spin_lock.h"

SEC("xdp")
int spin_lock_double(struct xdp_md *ctx)
{
	struct locked *a = locked_get(0), *b = locked_get(1);

	if (!a || !b)
		return XDP_PASS;
	bpf_spin_lock(&a->lock);
	bpf_spin_lock(&b->lock);
	a->cnt = b->cnt;
	bpf_spin_unlock(&b->lock);
	bpf_spin_unlock(&a->lock);
	return XDP_PASS;
}
