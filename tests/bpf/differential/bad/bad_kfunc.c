// SPDX-License-Identifier: GPL-2.0
/* A kfunc call: uxdp implements no kfuncs, the loader names it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx, __u64 *timestamp) __ksym;

SEC("xdp")
int kfunc_prog(struct xdp_md *ctx)
{
	__u64 ts = 0;

	return bpf_xdp_metadata_rx_timestamp(ctx, &ts) ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
