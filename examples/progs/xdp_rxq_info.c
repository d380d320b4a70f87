// SPDX-License-Identifier: GPL-2.0
/*
 * xdp_rxq_info-style: count packets per RX queue and in total, check the
 * ingress ifindex against the configured one and apply the configured
 * action, optionally swapping MACs first (samples/bpf/xdp_rxq_info_kern.c).
 */
#include "parse.h"

enum cfg_options_flags {
	NO_TOUCH = 0x0U,
	READ_MEM = 0x1U,
	SWAP_MAC = 0x2U,
	USE_ACTION = 0x4U,
};

struct config {
	__u32 action;
	int ifindex;
	__u32 options;
};

struct datarec {
	__u64 processed;
	__u64 issue;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct config);
	__uint(max_entries, 1);
} config_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, 1);
} stats_global_map SEC(".maps");

#define MAX_RXQs 64

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, MAX_RXQs + 1);
} rx_queue_index_map SEC(".maps");

SEC("xdp")
int xdp_prognum0(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct datarec *rec, *rxq_rec;
	int ingress_ifindex;
	struct config *config;
	__u32 key = 0;

	config = bpf_map_lookup_elem(&config_map, &key);
	if (!config)
		return XDP_ABORTED;

	rec = bpf_map_lookup_elem(&stats_global_map, &key);
	if (!rec)
		return XDP_ABORTED;
	rec->processed++;

	ingress_ifindex = ctx->ingress_ifindex;
	if (config->ifindex && ingress_ifindex != config->ifindex) {
		rec->issue++;
		return XDP_ABORTED;
	}

	key = ctx->rx_queue_index;
	if (key >= MAX_RXQs) {
		key = MAX_RXQs;
		rxq_rec = bpf_map_lookup_elem(&rx_queue_index_map, &key);
		if (rxq_rec)
			rxq_rec->issue++;
	} else {
		rxq_rec = bpf_map_lookup_elem(&rx_queue_index_map, &key);
		if (!rxq_rec)
			return XDP_ABORTED;
		rxq_rec->processed++;
	}

	if (data + sizeof(struct ethhdr) > data_end)
		return XDP_DROP;

	if (config->options & READ_MEM) {
		volatile __u8 b = *(__u8 *)data;

		(void)b;
	}
	if (config->options & SWAP_MAC)
		swap_src_dst_mac(data);
	if (config->options & USE_ACTION)
		return config->action;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
