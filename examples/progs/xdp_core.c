// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE in vmlinux.h style: no UAPI headers, the types declared here with
 * preserve_access_index (as bpftool's vmlinux.h does), every field read
 * relocated by the loader against the target BTF (the running kernel's, or
 * uxdp's built-in one):
 *
 * - struct xdp_md fields (ctx offsets relocated, then rewritten by the
 *   checker as usual), Ethernet/IPv4/UDP header fields, the IPv4 ihl and
 *   version bitfields with BPF_CORE_READ_BITFIELD (byte offset, size,
 *   lshift, rshift, signedness);
 * - bpf_core_field_exists/size, bpf_core_type_exists/size, local and
 *   target type ids, enum value existence and value;
 * - a flavoured type (iphdr___local) matched by its essential name, and
 *   a field and a type that no target has: their reads stay behind
 *   existence checks, so the poisoned instructions are never reached.
 *
 * core_vals[] holds what the relocations resolved to, for the kernel
 * differential suite to compare; the verdict drops UDP to port 9, passes
 * the rest, aborts frames too short for the headers.
 */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u16 __sum16;
typedef __u32 __wsum;

enum bpf_map_type { BPF_MAP_TYPE_ARRAY = 2 };
enum xdp_action { XDP_ABORTED = 0, XDP_DROP, XDP_PASS, XDP_TX, XDP_REDIRECT };

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
struct xdp_md {
	__u32 data;
	__u32 data_end;
	__u32 data_meta;
	__u32 ingress_ifindex;
	__u32 rx_queue_index;
	__u32 egress_ifindex;
};

struct ethhdr {
	unsigned char h_dest[6];
	unsigned char h_source[6];
	__be16 h_proto;
};

/* a local flavour of struct iphdr: the loader matches it to "iphdr" */
struct iphdr___local {
	__u8 ihl:4, version:4;
	__u8 tos;
	__be16 tot_len;
	__be16 id;
	__be16 frag_off;
	__u8 ttl;
	__u8 protocol;
	__sum16 check;
	__be32 saddr;
	__be32 daddr;
	__u32 no_such_field;	/* in no target BTF */
};

struct udphdr {
	__be16 source;
	__be16 dest;
	__be16 len;
	__sum16 check;
};

struct ipv6hdr {
	__u8 priority:4, version:4;
};

struct uxdp_no_such_type {
	int x;
};
#pragma clang attribute pop

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define CORE_VALS 16

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, CORE_VALS);
} core_vals SEC(".maps");

static __always_inline void put(__u32 k, __u64 v)
{
	__u64 *slot = bpf_map_lookup_elem(&core_vals, &k);

	if (slot)
		*slot = v;
}

SEC("xdp")
int xdp_core_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr___local *ip = data + sizeof(*eth);
	struct udphdr *udp;
	__u64 ihl, ver;

	put(0, bpf_core_field_exists(ctx->egress_ifindex));
	put(1, bpf_core_type_exists(struct ipv6hdr));
	put(2, bpf_core_type_exists(struct uxdp_no_such_type));
	put(3, bpf_core_field_exists(ip->no_such_field));
	put(4, bpf_core_field_size(ip->daddr));
	put(5, bpf_core_type_size(struct ethhdr));
	put(6, bpf_core_enum_value_exists(enum xdp_action, XDP_REDIRECT));
	put(7, bpf_core_enum_value(enum xdp_action, XDP_PASS));
	put(8, bpf_core_field_offset(ip->daddr));
	put(9, bpf_core_type_id_local(struct udphdr) != 0);
	put(10, bpf_core_type_id_kernel(struct udphdr) != 0);
	put(11, ctx->ingress_ifindex);
	if (bpf_core_type_exists(struct uxdp_no_such_type)) {
		struct uxdp_no_such_type *t = data;

		if ((void *)(t + 1) > data_end)
			return XDP_ABORTED;
		return t->x;	/* poisoned, dead code */
	}

	if ((void *)(eth + 1) > data_end)
		return XDP_ABORTED;
	if (eth->h_proto != __builtin_bswap16(0x0800))
		return XDP_PASS;
	if ((void *)(ip + 1) > data_end)
		return XDP_ABORTED;
	if (bpf_core_field_exists(ip->no_such_field))
		return ip->no_such_field;	/* poisoned, dead code */
	ihl = BPF_CORE_READ_BITFIELD(ip, ihl);
	ver = BPF_CORE_READ_BITFIELD(ip, version);
	put(12, ihl);
	put(13, ver);
	put(14, ip->ttl);
	if (ver != 4 || ihl != 5 || ip->protocol != 17)
		return XDP_PASS;
	udp = (void *)ip + 20;
	if ((void *)(udp + 1) > data_end)
		return XDP_ABORTED;
	put(15, __builtin_bswap16(udp->dest));
	return udp->dest == __builtin_bswap16(9) ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
