// SPDX-License-Identifier: GPL-2.0
/*
 * RX metadata of a device-bound program (load it bound to its device:
 * libbpf's bpf_program__set_ifindex() with BPF_F_XDP_DEV_BOUND_ONLY,
 * uxdp's open option prog_ifindex): the frame's rx timestamp, hash and
 * VLAN tag, each kfunc's return code and value kept in `meta`, then
 * XDP_PASS. On a pcap device the timestamp is the capture's; on gen the
 * hash is the flow's RSS (Toeplitz) hash.
 */
#include "parse.h"
#include "bpf_kfuncs.h"

enum {
	META_TS_RC,
	META_TS,
	META_HASH_RC,
	META_VLAN_RC,
	META_COUNT,
	META_HASH,
	META_HASH_TYPE,
	META_MAX,
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, META_MAX);
} meta SEC(".maps");

static __always_inline void meta_set(__u32 key, __s64 val)
{
	bpf_map_update_elem(&meta, &key, &val, BPF_ANY);
}

SEC("xdp")
int xdp_rx_meta(struct xdp_md *ctx)
{
	__u32 hash = 0, type = 0, key = META_COUNT;
	__be16 proto = 0;
	__u16 tci = 0;
	__u64 ts = 0;
	__s64 *cnt;

	meta_set(META_TS_RC, bpf_xdp_metadata_rx_timestamp(ctx, &ts));
	meta_set(META_TS, ts);
	meta_set(META_HASH_RC, bpf_xdp_metadata_rx_hash(ctx, &hash, (void *)&type));
	meta_set(META_HASH, hash);
	meta_set(META_HASH_TYPE, type);
	meta_set(META_VLAN_RC, bpf_xdp_metadata_rx_vlan_tag(ctx, &proto, &tci));
	cnt = bpf_map_lookup_elem(&meta, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
