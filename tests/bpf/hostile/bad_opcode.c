// SPDX-License-Identifier: GPL-2.0
/* An instruction with an undefined opcode (0xff), emitted as raw bytes. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int bad_opcode(struct xdp_md *ctx)
{
	asm volatile(".quad 0x00000000000000ff");
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
