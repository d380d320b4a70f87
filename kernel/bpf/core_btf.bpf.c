// SPDX-License-Identifier: GPL-2.0
/*
 * The types uxdp models, as BTF: the CO-RE target when the running kernel
 * has no /sys/kernel/btf/vmlinux (tools/lib/bpf/object.c). Built with
 * clang -g -target bpf; the .BTF section of the object is embedded in
 * libuxdp and written next to it as core_btf.btf (for `btf FILE`).
 *
 * UAPI layouts come from the system's headers; the kernel structs keep
 * the kernel's member names (CO-RE matches by name), only the members XDP
 * programs reach.
 *
 * Kernel: /sys/kernel/btf/vmlinux
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <linux/icmpv6.h>

/* include/uapi/linux/icmp.h (its header pulls in libc's) */
struct icmphdr {
	__u8 type;
	__u8 code;
	__sum16 checksum;
	union {
		struct {
			__be16 id;
			__be16 sequence;
		} echo;
		__be32 gateway;
		struct {
			__be16 __unused;
			__be16 mtu;
		} frag;
		__u8 reserved[4];
	} un;
};

/* include/linux/if_vlan.h */
struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

struct vlan_ethhdr {
	unsigned char h_dest[6];
	unsigned char h_source[6];
	__be16 h_vlan_proto;
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

/* include/net/xdp.h, include/linux/netdevice.h: what XDP reaches */
struct net_device {
	int ifindex;
	unsigned int mtu;
	unsigned int flags;
	char name[16];
};

struct xdp_rxq_info {
	struct net_device *dev;
	__u32 queue_index;
	__u32 reg_state;
	unsigned int napi_id;
	__u32 frag_size;
};

struct xdp_txq_info {
	struct net_device *dev;
};

struct xdp_buff {
	void *data;
	void *data_end;
	void *data_meta;
	void *data_hard_start;
	struct xdp_rxq_info *rxq;
	struct xdp_txq_info *txq;
	__u32 frame_sz;
	__u32 flags;
};

/*
 * Every type above reachable from one variable by value, so clang emits
 * them all (a struct reached only through a pointer is emitted as FWD).
 */
struct uxdp_core_types {
	struct xdp_md xdp_md;
	struct ethhdr ethhdr;
	struct iphdr iphdr;
	struct ipv6hdr ipv6hdr;
	struct tcphdr tcphdr;
	struct udphdr udphdr;
	struct icmphdr icmphdr;
	struct icmp6hdr icmp6hdr;
	struct vlan_hdr vlan_hdr;
	struct vlan_ethhdr vlan_ethhdr;
	struct xdp_buff xdp_buff;
	struct xdp_rxq_info xdp_rxq_info;
	struct xdp_txq_info xdp_txq_info;
	struct net_device net_device;
	struct bpf_devmap_val bpf_devmap_val;
	struct bpf_cpumap_val bpf_cpumap_val;
	struct bpf_fib_lookup bpf_fib_lookup;
	struct in6_addr in6_addr;
	enum xdp_action xdp_action;
	enum bpf_map_type bpf_map_type;
	enum bpf_func_id bpf_func_id;
	__u8 u8; __u16 u16; __u32 u32; __u64 u64;
	__s8 s8; __s16 s16; __s32 s32; __s64 s64;
	__be16 be16; __be32 be32; __be64 be64; __sum16 sum16; __wsum wsum;
};

struct uxdp_core_types uxdp_core_types;
