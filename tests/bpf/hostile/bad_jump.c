// SPDX-License-Identifier: GPL-2.0
/* A jump far past the end of the program (goto +1000, raw bytes). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int bad_jump(struct xdp_md *ctx)
{
	asm volatile(".quad 0x0000000003e80005");
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
