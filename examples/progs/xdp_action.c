// SPDX-License-Identifier: GPL-2.0
/*
 * Configurable verdicts for engine tests and scripts: xdp_action returns
 * the action in cfg[0] (XDP_PASS when unset, any value, invalid ones
 * included); xdp_redirect_dev redirects to the ifindex in cfg[1] with
 * bpf_redirect(); xdp_action_frags is xdp_action for multi-buffer frames.
 * Every program counts its runs in cnt[0] (per CPU).
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 2);
} cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} cnt SEC(".maps");

static __always_inline __u32 cfg_get(__u32 key, __u32 dflt)
{
	__u32 *v = bpf_map_lookup_elem(&cfg, &key);

	return v && *v ? *v : dflt;
}

static __always_inline void count(void)
{
	__u32 key = 0;
	__u64 *c = bpf_map_lookup_elem(&cnt, &key);

	if (c)
		*c += 1;
}

SEC("xdp")
int xdp_action(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u32 *v = bpf_map_lookup_elem(&cfg, &key);

	count();
	return v ? *v : XDP_PASS;
}

SEC("xdp")
int xdp_redirect_dev(struct xdp_md *ctx)
{
	count();
	return bpf_redirect(cfg_get(1, 0), 0);
}

SEC("xdp.frags")
int xdp_action_frags(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u32 *v = bpf_map_lookup_elem(&cfg, &key);

	count();
	return v ? *v : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
