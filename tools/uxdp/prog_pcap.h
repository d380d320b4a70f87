/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `prog run ... data_in CAPTURE`: a program over every packet of a pcap or
 * pcapng file (prog_pcap.c), maps kept across packets, one result per
 * packet. Written so a library can drive the loop with its own printer.
 */
#ifndef _UXDP_TOOLS_PROG_PCAP_H
#define _UXDP_TOOLS_PROG_PCAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <uxdp_bpf.h>

struct prog_capture_opts {
	struct uxdp_bpf_object *obj;
	uint32_t prog_id;
	const char *data_in;		/* pcap or pcapng file */
	const char *data_out;		/* every output frame; *.pcapng: with verdict comments */
	const char *data_out_verdict;	/* PREFIX: PREFIX.pass.pcap, PREFIX.drop.pcap, ... */
	const char *record_type;	/* BTF type that decodes perf/ringbuf records */
	const void *ctx_in;		/* struct xdp_md for every packet, or NULL */
	uint32_t ctx_size_in;
	uint32_t repeat;
	uint32_t data_size_out;		/* 0: 128 KiB */
};

/* One packet's run (what the table row and the JSON line show). */
struct prog_pkt_result {
	uint64_t index;			/* record of the capture, from 0 */
	uint64_t ts_ns;			/* capture timestamp */
	uint32_t len_in;
	uint32_t len_out;
	uint32_t retval;		/* the verdict */
	int err;			/* test run refused the packet (-EINVAL: under 14 bytes) */
	uint32_t bytes_changed;		/* bytes of data_out that differ from data_in, plus the length change */
	uint32_t duration;		/* ns, average over repeat */
	struct uxdp_bpf_redirect redirect;
	unsigned int nr_trace;		/* bpf_printk lines */
	unsigned int nr_records;	/* perf event / ringbuf records */
};

struct prog_capture_summary {
	uint64_t packets;		/* run (refused ones included) */
	uint64_t verdicts[5];		/* XDP_ABORTED .. XDP_REDIRECT */
	uint64_t other;			/* retvals beyond XDP_REDIRECT */
	uint64_t refused;
	uint64_t trace_lines;
	uint64_t records;
	uint64_t elapsed_ns;		/* wall time of the loop */
};

/* Does @path start like a pcap or pcapng file? (raw frames do not). */
bool prog_capture_is(const char *path);

/**
 * prog_capture_run() - run @o->prog_id over every packet of @o->data_in
 *
 * Prints one row per packet (text) or one JSON line (-j), with the
 * packet's bpf_printk lines and records, then a summary in @sum. A
 * truncated or corrupt capture stops the loop with "FILE: record N:
 * reason"; what ran is printed and written out first.
 * Return: 0, EXIT_USAGE for bad input, 1 for a runtime failure.
 */
int prog_capture_run(const struct prog_capture_opts *o, struct prog_capture_summary *sum);

/* The summary line: verdict counts, refused packets, printk lines, records. */
void prog_capture_print_summary(const struct prog_capture_summary *sum);

struct btf;
/*
 * One perf event / ringbuf record of map @m: "record MAP cpu N (S bytes):
 * hex" and, with @type_id, the value typed from @btf; with @json an object
 * {"map","cpu","size","data"[,"value"]}.
 */
void prog_record_print(FILE *f, const struct uxdp_bpf_map_desc *m, int cpu, const void *data,
		       uint32_t size, const struct btf *btf, uint32_t type_id, bool json);
/* Make every slot of a PERF_EVENT_ARRAY take records (no-op for others). */
void prog_records_open(const struct uxdp_bpf_map_desc *m);

/* "XDP_PASS", ... ; NULL beyond XDP_REDIRECT */
const char *prog_verdict_str(uint32_t retval);

#endif
