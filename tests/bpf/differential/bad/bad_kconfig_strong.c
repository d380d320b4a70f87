// SPDX-License-Identifier: GPL-2.0
/* A strong __kconfig extern no kernel config sets: the load must fail. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern unsigned int CONFIG_UXDP_NO_SUCH_OPTION __kconfig;

SEC("xdp")
int kconfig_strong_prog(struct xdp_md *ctx)
{
	return CONFIG_UXDP_NO_SUCH_OPTION ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
