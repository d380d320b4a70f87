// SPDX-License-Identifier: GPL-2.0
/*
 * QUEUE and STACK maps from a program: every packet pushes its length into
 * a 4-slot queue (refused with -E2BIG when full) and length and a packet
 * count into a 3-slot stack (BPF_EXIST: the oldest value is replaced), pops
 * the queue on odd lengths and peeks it on even ones, pops and peeks the
 * stack, and records each return code and value in an ARRAY, so the kernel
 * differential suite compares the maps' semantics packet by packet.
 */
#include "parse.h"

struct qs_log {
	__s64 push_q, push_st, get_q, q_val, pop_st, pop_val, peek_st, peek_val, push_bad;
	__u64 packets;
};

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 4);
	__type(value, __u32);
} lens SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(max_entries, 3);
	__type(value, __u64);
} recent SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct qs_log);
	__uint(max_entries, 1);
} qs_log SEC(".maps");

SEC("xdp")
int xdp_queue_stack(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data, k = 0, q = 0;
	struct qs_log *log = bpf_map_lookup_elem(&qs_log, &k);
	__u64 st = 0;

	if (!log)
		return XDP_ABORTED;
	log->packets++;
	st = ((__u64)len << 32) | log->packets;
	log->push_q = bpf_map_push_elem(&lens, &len, 0);
	log->push_st = bpf_map_push_elem(&recent, &st, BPF_EXIST);
	if (len & 1)
		log->get_q = bpf_map_pop_elem(&lens, &q);
	else
		log->get_q = bpf_map_peek_elem(&lens, &q);
	log->q_val = q;
	if (log->packets & 1) {
		log->pop_st = bpf_map_pop_elem(&recent, &st);
		log->pop_val = st;
	}
	log->peek_st = bpf_map_peek_elem(&recent, &st);
	log->peek_val = st;
	log->push_bad = bpf_map_push_elem(&lens, &len, BPF_NOEXIST);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
