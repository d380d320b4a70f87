/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The `rc` ARRAY the example programs store their results in (one __s64
 * per slot), compared with the kernel's by the differential suite.
 */
#ifndef _UXDP_EXAMPLES_RC_MAP_H
#define _UXDP_EXAMPLES_RC_MAP_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define RC_MAP(nr)							\
struct {								\
	__uint(type, BPF_MAP_TYPE_ARRAY);				\
	__type(key, __u32);						\
	__type(value, __s64);						\
	__uint(max_entries, nr);					\
} rc SEC(".maps");							\
									\
static __always_inline void set_rc(__u32 key, __s64 val)		\
{									\
	bpf_map_update_elem(&rc, &key, &val, BPF_ANY);			\
}

#endif
