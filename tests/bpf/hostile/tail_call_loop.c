// SPDX-License-Identifier: GPL-2.0
/* Tail-calls slot 0 of its PROG_ARRAY, which holds itself: a tail-call loop. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} jmp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} count SEC(".maps");

SEC("xdp")
int tail_loop(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *c = bpf_map_lookup_elem(&count, &key);

	if (c)
		__sync_fetch_and_add(c, 1);
	bpf_tail_call(ctx, &jmp, 0);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
