// SPDX-License-Identifier: GPL-2.0
/* A __kconfig extern libbpf fills in itself (uname's release). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;

SEC("xdp")
int kconfig_prog(struct xdp_md *ctx)
{
	return LINUX_KERNEL_VERSION > 1 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
