/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the bpf_spin_lock programs: an ARRAY and a HASH of locked values. */
#ifndef SPIN_LOCK_H
#define SPIN_LOCK_H
#include "hostile.h"

struct locked {
	__u64 cnt;
	struct bpf_spin_lock lock;
	__u32 other;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct locked);
	__uint(max_entries, 2);
} locks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct locked);
	__uint(max_entries, 2);
} hlocks SEC(".maps");

static __always_inline struct locked *locked_get(__u32 key)
{
	return bpf_map_lookup_elem(&locks, &key);
}
#endif
