// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): count under the lock of a HASH value, in a static
 * subprogram called with the lock held. */
#include "spin_lock.h"

static __noinline int bump(struct locked *v)
{
	v->cnt++;
	return 0;
}

SEC("xdp")
int ok_spin_lock(struct xdp_md *ctx)
{
	struct locked init = { 0 }, *v;
	__u32 key = 1;

	bpf_map_update_elem(&hlocks, &key, &init, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&hlocks, &key);
	if (!v)
		return XDP_ABORTED;
	bpf_spin_lock(&v->lock);
	bump(v);
	bpf_spin_unlock(&v->lock);
	return XDP_PASS;
}
