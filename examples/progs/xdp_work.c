// SPDX-License-Identifier: GPL-2.0
/*
 * XDP_PASS after a configurable amount of arithmetic: the lab's calibration
 * program (Documentation/lab.md). work_map[0] = N (0..8) runs N of eight
 * guarded ALU steps (the empty asm keeps clang from turning them into
 * selects; it compiles them into a ladder that leaves at the first guard
 * that fails), so two variants that differ only in that map value run the
 * same code at the same addresses and differ by a few instructions per
 * packet per step (`uxdp ab
 * --metric insns` counts them: with the x86-64 JIT N = 4 adds 14.0
 * instructions per packet to examples/lab-work0.uxdp's path of 1174, +1.2 %;
 * with the interpreter N = 1 added 10.9 to 1404).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} work_map SEC(".maps");

SEC("xdp")
int xdp_work_prog(struct xdp_md *ctx)
{
	__u32 key = 0, *n, v, acc = ctx->rx_queue_index;

	n = bpf_map_lookup_elem(&work_map, &key);
	if (!n)
		return XDP_ABORTED;
	v = *n;
	if (v > 0) {
		asm volatile("" : "+r"(acc));
		acc += 0x11;
	}
	if (v > 1) {
		asm volatile("" : "+r"(acc));
		acc ^= 0x22;
	}
	if (v > 2) {
		asm volatile("" : "+r"(acc));
		acc += 0x33;
	}
	if (v > 3) {
		asm volatile("" : "+r"(acc));
		acc ^= 0x44;
	}
	if (v > 4) {
		asm volatile("" : "+r"(acc));
		acc += 0x55;
	}
	if (v > 5) {
		asm volatile("" : "+r"(acc));
		acc ^= 0x66;
	}
	if (v > 6) {
		asm volatile("" : "+r"(acc));
		acc += 0x77;
	}
	if (v > 7) {
		asm volatile("" : "+r"(acc));
		acc ^= 0x88;
	}
	/* keeps acc live; never true for the lab's values */
	return acc == 0xdeadbeef ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
