// SPDX-License-Identifier: GPL-2.0
/* Every XDP section libbpf 1.x knows, and one it does not (SEC("xdp/pass")). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define PROG(fn, sec) SEC(sec) int fn(struct xdp_md *ctx) { return XDP_PASS; }

PROG(s_xdp, "xdp")
PROG(s_frags, "xdp.frags")
PROG(s_devmap, "xdp/devmap")
PROG(s_cpumap, "xdp/cpumap")
PROG(s_frags_devmap, "xdp.frags/devmap")
PROG(s_frags_cpumap, "xdp.frags/cpumap")
PROG(s_custom, "xdp/pass")

char _license[] SEC("license") = "GPL";
