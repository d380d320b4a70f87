// SPDX-License-Identifier: GPL-2.0
/* Passes a lock pointer of variable offset (an element of a lock array). */
#include "spin_lock.h"

SEC("xdp")
int spin_lock_var_off(struct xdp_md *ctx)
{
	__u32 key = 0, i = ctx->rx_queue_index & 1;
	struct locked *v = bpf_map_lookup_elem(&hlocks, &key);

	if (!v)
		return XDP_PASS;
	bpf_spin_lock((struct bpf_spin_lock *)((char *)&v->lock + i * 8));
	v->cnt++;
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}
