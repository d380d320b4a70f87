// SPDX-License-Identifier: GPL-2.0
/*
 * __kconfig externs (libbpf's .kconfig map): the kernel's version, a
 * bool, a tristate, an integer and a string from the kernel's config,
 * and a __weak option no kernel has (0). The verifier sees the values as
 * constants of a frozen read-only map, so the branch on CONFIG_BPF_JIT
 * is decided at load. Every value goes to the `cfg` ARRAY.
 * (enum libbpf_tristate comes from <bpf/bpf_helpers.h>.)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <stdbool.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern bool CONFIG_BPF_JIT __kconfig __weak;
extern enum libbpf_tristate CONFIG_VETH __kconfig __weak;
extern int CONFIG_HZ __kconfig __weak;
extern char CONFIG_DEFAULT_HOSTNAME[8] __kconfig __weak;
extern bool CONFIG_UXDP_NO_SUCH_OPTION __kconfig __weak;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} cfg SEC(".maps");

static __always_inline void put(__u32 key, __u64 val)
{
	bpf_map_update_elem(&cfg, &key, &val, BPF_ANY);
}

SEC("xdp")
int xdp_kconfig(struct xdp_md *ctx)
{
	__u64 host = 0;

	put(0, LINUX_KERNEL_VERSION);
	put(1, CONFIG_BPF_JIT);
	put(2, CONFIG_VETH);
	put(3, CONFIG_HZ);
	__builtin_memcpy(&host, CONFIG_DEFAULT_HOSTNAME, sizeof(host));
	put(4, host);
	put(5, CONFIG_UXDP_NO_SUCH_OPTION);
	return CONFIG_BPF_JIT ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
