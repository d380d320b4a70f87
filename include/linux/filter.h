/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program lifecycle and run entry points (kernel/bpf/core.c section) and the
 * XDP redirect state shared by helpers and devmap (net/core/filter.c
 * section). The classic-BPF UAPI (struct sock_filter) comes from the system
 * header pulled in below.
 *
 * Kernel: include/linux/filter.h
 */
#ifndef _UXDP_LINUX_FILTER_H
#define _UXDP_LINUX_FILTER_H

#include_next <linux/filter.h>

#include <limits.h>

#include <linux/bpf.h>

/* ---- kernel/bpf/core.c, kernel/bpf/verifier.c --------------------------- */

/* ---- net/core/filter.c -------------------------------------------------- */

/*
 * Where bpf_redirect()/bpf_redirect_map() leave their decision for
 * xdp_do_redirect(). One per worker (the kernel keeps it per CPU before
 * 6.11, on the NAPI poll's stack since); consumed by xdp_do_redirect().
 */
struct bpf_redirect_info {
	u64 tgt_index;
	void *tgt_value;
	struct bpf_map *map;
	u32 flags;
	u32 map_id;		/* INT_MAX with map_type UNSPEC: redirect by ifindex */
	enum bpf_map_type map_type;
	int nh_family;
	u32 kern_flags;
};

extern __thread struct bpf_redirect_info bpf_redirect_info;

static __always_inline struct bpf_redirect_info *bpf_net_ctx_get_ri(void)
{
	return &bpf_redirect_info;
}

/*
 * The body of every map type's map_redirect: look @index up; on a miss
 * without BPF_F_BROADCAST the low two flag bits are the verdict; flags
 * outside those bits and @flag_mask abort. The last call wins.
 */
static __always_inline long
__bpf_xdp_redirect_map(struct bpf_map *map, u64 index, u64 flags, const u64 flag_mask,
		       void *(*lookup_elem)(struct bpf_map *map, u32 key))
{
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();
	const u64 verdict_mask = XDP_ABORTED | XDP_DROP | XDP_PASS | XDP_TX;

	if (unlikely(flags & ~(verdict_mask | flag_mask)))
		return XDP_ABORTED;

	ri->tgt_value = lookup_elem(map, (u32)index);
	if (unlikely(!ri->tgt_value) && !(flags & BPF_F_BROADCAST)) {
		ri->map_id = INT_MAX;
		ri->map_type = BPF_MAP_TYPE_UNSPEC;
		return flags & verdict_mask;
	}
	ri->tgt_index = index;
	ri->map_id = map->id;
	ri->map_type = map->map_type;
	if (flags & BPF_F_BROADCAST) {
		ri->map = map;
		ri->flags = (u32)flags;
	} else {
		ri->map = NULL;
		ri->flags = 0;
	}
	return XDP_REDIRECT;
}

#endif
