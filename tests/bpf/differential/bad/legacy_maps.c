// SPDX-License-Identifier: GPL-2.0
/*
 * Legacy `maps` section maps (struct bpf_map_def), as pre-BTF samples
 * declare them, next to a BTF-less global. libbpf >= 1.0 refuses these
 * objects; uxdp reads the definitions itself. Counts EtherTypes.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def_legacy {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def_legacy ethertypes SEC("maps") = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u16),
	.value_size = sizeof(__u64),
	.max_entries = 8,
};

struct bpf_map_def_legacy totals SEC("maps") = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 1,
};

__u64 seen;	/* .bss */

SEC("xdp")
int xdp_legacy_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)(long)ctx->data;
	__u64 one = 1, *v;
	__u32 zero = 0;
	__u16 proto;

	seen++;
	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	proto = eth->h_proto;
	v = bpf_map_lookup_elem(&ethertypes, &proto);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&ethertypes, &proto, &one, BPF_ANY);
	v = bpf_map_lookup_elem(&totals, &zero);
	if (v)
		*v += 1;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
