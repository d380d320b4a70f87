// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_strtol() on fixed strings (bases 0, 8, 10 and 16, C prefixes, a
 * sign, spaces, a cut length, 64-bit and signed overflow, bad flags) and on the first 16
 * bytes after the packet's Ethernet header in base 16; every return code
 * and value goes into an ARRAY, so the kernel differential suite compares
 * the parser with the kernel's.
 */
#include "parse.h"

#define NR_CASES	15

struct strtol_res {
	__s64 ret;
	__s64 val;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct strtol_res);
	__uint(max_entries, NR_CASES + 1);
} strtol_res SEC(".maps");

static const char cases[NR_CASES][24] = {
	"12345", "  -0x1f", "0777", "0x", "ff", "-9223372036854775808", "18446744073709551617",
	"9223372036854775808", "123456789012345678901234", "+5", "10", "077", "0xg", " ", "42abc",
};
static const __u32 lens[NR_CASES] = { 5, 7, 4, 2, 2, 20, 20, 19, 24, 2, 2, 3, 3, 1, 5 };
static const __u64 flags[NR_CASES] = { 0, 0, 0, 0, 16, 10, 10, 10, 0, 10, 0x20, 10, 16, 0, 8 };

static __always_inline void record(__u32 k, long ret, __s64 val)
{
	struct strtol_res *r = bpf_map_lookup_elem(&strtol_res, &k);

	if (r) {
		r->ret = ret;
		r->val = val;
	}
}

SEC("xdp")
int xdp_strtol(struct xdp_md *ctx)
{
	char buf[16] = {};
	long v = -1;
	long ret;
	__u32 i;

#pragma unroll
	for (i = 0; i < NR_CASES; i++) {
		v = -1;
		ret = bpf_strtol(cases[i], lens[i], flags[i], &v);
		record(i, ret, v);
	}
	v = -1;
	ret = -1;
	if (!bpf_xdp_load_bytes(ctx, sizeof(struct ethhdr), buf, sizeof(buf)))
		ret = bpf_strtol(buf, sizeof(buf), 16, &v);
	record(NR_CASES, ret, v);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
