// SPDX-License-Identifier: GPL-2.0
/*
 * What the programs of a script said during a run: bpf_printk lines,
 * printed live while the run goes on (text mode) as `bpftool prog
 * tracelog` would, and perf event / ringbuf records, printed when the run
 * ends; both kept for `stats trace` / `stats records` and `expect trace`,
 * and in the run's JSON as "trace" and "records". Records are hex, and
 * typed from BTF after `map record_type MAP TYPE`; a record map's slots
 * are opened at each run (as a perf reader would).
 *
 * Kernel: tools/bpf/bpftool/tracelog.c, libbpf perf_buffer/ring_buffer
 * Differs: one buffer for the whole process; lines beyond the trace
 *	    buffer's 64 KiB between two polls are lost (counted).
 */
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include <uxdp_bpf.h>

#include "main.h"
#include "prog_pcap.h"
#include "run_trace.h"
#include "script.h"
#include "tracelog.h"

#define RUN_TRACE_MAX	(4U << 20)	/* kept for stats trace; beyond: counted */

static struct {
	FILE *msgs;		/* messages, '\n' after each */
	char *msgs_buf;
	size_t msgs_len;
	FILE *text;		/* the tracelog lines */
	char *text_buf;
	size_t text_len;
	FILE *lines;		/* JSON strings of the tracelog lines, ',' between */
	char *lines_buf;
	size_t lines_len;
	FILE *recs;		/* text and JSON of the records */
	char *recs_buf;
	size_t recs_len;
	FILE *recs_json;
	char *recs_json_buf;
	size_t recs_json_len;
	unsigned int nr_lines, nr_recs;
	unsigned long long lost;
	bool live;
} rt;

static void rt_close(FILE **f)
{
	if (*f)
		fclose(*f);
	*f = NULL;
}

static void rt_free(void)
{
	rt_close(&rt.msgs);
	rt_close(&rt.text);
	rt_close(&rt.lines);
	rt_close(&rt.recs);
	rt_close(&rt.recs_json);
	free(rt.msgs_buf);
	free(rt.text_buf);
	free(rt.lines_buf);
	free(rt.recs_buf);
	free(rt.recs_json_buf);
	memset(&rt, 0, sizeof(rt));
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void trace_line(void *ctx, const char *msg, size_t len)
{
	uint64_t ts = now_ns();

	if (rt.live && !json_output)
		tracelog_print(stdout, msg, len, ts, false);
	if (rt.msgs_len + len > RUN_TRACE_MAX) {
		rt.lost++;
		return;
	}
	fprintf(rt.msgs, "%.*s\n", (int)len, msg);
	tracelog_print(rt.text, msg, len, ts, false);
	if (rt.nr_lines++)
		fputc(',', rt.lines);
	tracelog_print(rt.lines, msg, len, ts, true);
	fflush(rt.msgs);
}

void run_trace_begin(void)
{
	const char *oname;

	rt_free();
	rt.msgs = open_memstream(&rt.msgs_buf, &rt.msgs_len);
	rt.lines = open_memstream(&rt.lines_buf, &rt.lines_len);
	rt.text = open_memstream(&rt.text_buf, &rt.text_len);
	rt.recs = open_memstream(&rt.recs_buf, &rt.recs_len);
	rt.recs_json = open_memstream(&rt.recs_json_buf, &rt.recs_json_len);
	if (!rt.msgs || !rt.text || !rt.lines || !rt.recs || !rt.recs_json) {
		rt_free();
		return;
	}
	rt.live = true;
	/* Lines printed before the run (a previous one's tail) are not this run's. */
	for (char junk[4096]; uxdp_bpf_trace_pipe_read(junk, sizeof(junk));)
		;
	for (unsigned int o = 0; o < script_object_cnt(); o++) {
		struct uxdp_bpf_object *obj = script_object_at(o, &oname);

		for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++) {
			struct uxdp_bpf_map_desc m;

			if (!uxdp_bpf_object_map(obj, k, &m))
				prog_records_open(&m);
		}
	}
}

void run_trace_poll(void)
{
	if (rt.msgs)
		tracelog_drain(trace_line, NULL);
}

struct rec_ctx {
	const struct uxdp_bpf_map_desc *m;
};

static int record(void *ctx, int cpu, void *data, __u32 size)
{
	struct rec_ctx *rc = ctx;
	const struct btf *btf = NULL;
	uint32_t type_id = script_record_type(rc->m->id, &btf);

	prog_record_print(rt.recs, rc->m, cpu, data, size, btf, type_id, false);
	if (rt.nr_recs++)
		fputc(',', rt.recs_json);
	prog_record_print(rt.recs_json, rc->m, cpu, data, size, btf, type_id, true);
	return 0;
}

void run_trace_end(FILE *j)
{
	const char *oname;

	if (!rt.msgs)
		return;
	run_trace_poll();
	rt.live = false;
	for (unsigned int o = 0; o < script_object_cnt(); o++) {
		struct uxdp_bpf_object *obj = script_object_at(o, &oname);

		for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++) {
			struct uxdp_bpf_map_desc m;
			struct rec_ctx rc = { &m };

			if (uxdp_bpf_object_map(obj, k, &m))
				continue;
			if (m.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
				uxdp_bpf_perf_event_consume(m.id, record, &rc);
			else if (m.type == BPF_MAP_TYPE_RINGBUF)
				uxdp_bpf_ringbuf_consume(m.id, record, &rc);
		}
	}
	fflush(rt.msgs);
	fflush(rt.lines);
	fflush(rt.recs);
	fflush(rt.recs_json);
	if (!json_output && !quiet && rt.nr_recs)
		printf("%u record%s:\n%s", rt.nr_recs, rt.nr_recs == 1 ? "" : "s", rt.recs_buf);
	fprintf(j, ",\"trace\":[%s],\"records\":[%s]", rt.lines_buf ?: "",
		rt.recs_json_buf ?: "");
	if (rt.lost)
		fprintf(j, ",\"trace_lost\":%llu", rt.lost);
}

const char *run_trace_lines(void)
{
	if (rt.msgs)
		fflush(rt.msgs);
	return rt.msgs_buf ? rt.msgs_buf : "";
}

void run_trace_stats(bool trace, bool records)
{
	char *body = NULL;

	if (trace) {
		if (rt.lines)
			fflush(rt.lines), fflush(rt.text);
		if (!json_output)
			printf("trace (%u line%s):\n%s", rt.nr_lines, rt.nr_lines == 1 ? "" : "s",
			       rt.text_buf ?: "");
		if (asprintf(&body, "[%s]", rt.lines_buf ?: "") >= 0)
			run_append_json("stats_trace", body);
		free(body);
	}
	if (records) {
		if (rt.recs)
			fflush(rt.recs), fflush(rt.recs_json);
		if (!json_output)
			printf("records (%u):\n%s", rt.nr_recs, rt.recs_buf ?: "");
		body = NULL;
		if (asprintf(&body, "[%s]", rt.recs_json_buf ?: "") >= 0)
			run_append_json("stats_records", body);
		free(body);
	}
}

void run_trace_free(void)
{
	rt_free();
}
