// SPDX-License-Identifier: GPL-2.0
/* A call of a kfunc neither the kernel nor uxdp has: the loader names it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int bpf_uxdp_not_a_kfunc(const struct xdp_md *ctx, __u64 *out) __ksym;

SEC("xdp")
int kfunc_prog(struct xdp_md *ctx)
{
	__u64 v = 0;

	return bpf_uxdp_not_a_kfunc(ctx, &v) ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
