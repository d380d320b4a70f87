// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE relocations of every kind over the odd corners of BTF: a flat local
 * view of struct iphdr whose saddr/daddr sit in an anonymous union of the
 * kernel's (__struct_group), array elements inside a union inside a struct
 * (in6_addr), bitfields (offset, size, shifts), signedness, typedefs,
 * flavoured names (foo___v1), local and target type ids (clang 14 has no
 * bpf_core_type_matches()),
 * enumerators by name. odd_vals[] (.bss) keeps each resolved value: the kernel
 * differential suite compares them with what libbpf resolved.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
/* only the members read: CO-RE finds them by name, the rest is padding */
struct iphdr___flat {
	__u8 ihl:4, version:4;
	__u8 not_read[3];
	__be16 tot_len;
	__u8 not_read_either[6];
	__be32 saddr;
	__be32 daddr;
};

struct in6_addr___v1 {
	union {
		__u8 u6_addr8[16];
		__be16 u6_addr16[8];
		__be32 u6_addr32[4];
	} in6_u;
};

struct ipv6hdr___v1 {
	__u8 priority:4, version:4;
	__u8 flow_lbl[3];
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	struct in6_addr___v1 saddr;
	struct in6_addr___v1 daddr;
};

struct net_device___v1 {
	int ifindex;
};

struct ethhdr___m {
	unsigned char h_dest[6];
	unsigned char h_source[6];
	__be16 h_proto;
};

struct ethhdr___nomatch {
	unsigned char h_dest[6];
	unsigned long long h_proto;
};
#pragma clang attribute pop

enum xdp_action___v1 { XDP_TX___v1 = 3, XDP_NO_SUCH___v1 = 99 };

typedef __u32 __be32___v1;

/* what each relocation resolved to, in .bss (the suite compares it) */
__u64 odd_vals[24];

#define put(k, v) (odd_vals[k] = (v))

SEC("xdp")
int core_odd_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr___flat *ip = data + 14;
	struct ipv6hdr___v1 *ip6 = data + 14;
	struct net_device___v1 *dev = 0;

	put(0, bpf_core_field_offset(ip->saddr));
	put(1, bpf_core_field_offset(ip->daddr));
	put(2, bpf_core_field_offset(ip6->daddr.in6_u.u6_addr32[3]));
	put(3, bpf_core_field_size(ip6->saddr));
	put(4, bpf_core_field_size(ip6->saddr.in6_u.u6_addr16[1]));
	put(5, __builtin_preserve_field_info(ip->version, BPF_FIELD_LSHIFT_U64));
	put(6, __builtin_preserve_field_info(ip->version, BPF_FIELD_RSHIFT_U64));
	put(7, __builtin_preserve_field_info(ip->ihl, BPF_FIELD_LSHIFT_U64));
	put(8, __builtin_preserve_field_info(ip6->priority, BPF_FIELD_BYTE_SIZE));
	put(9, __builtin_preserve_field_info(dev->ifindex, BPF_FIELD_SIGNED));
	put(10, __builtin_preserve_field_info(ip->tot_len, BPF_FIELD_SIGNED));
	put(11, bpf_core_type_exists(struct ethhdr___m));
	put(12, bpf_core_field_exists(((struct ethhdr___nomatch *)0)->h_proto));
	put(13, bpf_core_type_exists(struct ethhdr___nomatch));
	put(14, bpf_core_type_size(__be32___v1));
	put(15, bpf_core_enum_value(enum xdp_action___v1, XDP_TX___v1));
	put(16, bpf_core_enum_value_exists(enum xdp_action___v1, XDP_NO_SUCH___v1));
	put(17, bpf_core_type_id_kernel(struct ethhdr___m));
	put(18, bpf_core_type_id_local(struct ethhdr___m) != 0);
	put(19, bpf_core_field_exists(ip6->flow_lbl));

	if ((void *)(ip6 + 1) > data_end)
		return XDP_PASS;
	put(20, ip6->daddr.in6_u.u6_addr32[3]);
	put(21, BPF_CORE_READ_BITFIELD(ip6, version));
	put(22, ip->daddr);
	put(23, BPF_CORE_READ_BITFIELD(ip, ihl));
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
