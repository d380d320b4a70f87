// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp prog run OBJ ... data_in CAPTURE`: BPF_PROG_TEST_RUN over each
 * packet of a classic pcap or pcapng file (read with libpcap), in order,
 * on one object whose maps persist from packet to packet. Each packet gets
 * a row: index, length in and out, verdict, redirect target, bytes the
 * program changed, then the bpf_printk lines (tracelog.c) and the perf
 * event / ringbuf records it produced (BTF-decoded with `record_type`).
 * With -j each packet is one JSON line, then a summary line.
 *
 * Output frames go to `data_out FILE`: classic pcap with nanosecond
 * timestamps, or pcapng when FILE ends in ".pcapng", where each packet
 * carries its verdict as a packet comment (opt_comment), as xdpdump
 * records the action of its fexit captures. `data_out_verdict PREFIX`
 * writes one classic pcap per verdict (PREFIX.pass.pcap, ...).
 *
 * A capture that is truncated or corrupt stops the loop with the file,
 * the record index and libpcap's reason; the rows already printed and
 * the frames already written stay.
 *
 * Steady state allocates nothing per packet: buffers are sized once, the
 * trace pipe is drained through a static buffer, records are printed from
 * the consume callback.
 *
 * Kernel: tools/bpf/bpftool/prog.c do_run() (one packet);
 *	   xdp-tools xdpdump (pcapng with per-packet comments)
 * Differs: no kernel takes a capture; this loops in the tool.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifdef CONFIG_UXDP_PCAP
/* pcap/bpf.h (classic BPF) clashes with linux/bpf.h */
#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <pcap/dlt.h>
#include <pcap/pcap.h>
#endif
#include <bpf/btf.h>

#include "btf_dump.h"
#include "json_writer.h"
#include "main.h"
#include "prog_pcap.h"
#include "tracelog.h"

#define CAPTURE_DATA_OUT	(128U << 10)
#define CAPTURE_MAX_RECMAPS	16
#define CAPTURE_SNAPLEN		262144
#define MAP_TYPE_PERF_EVENT_ARRAY 4
#define MAP_TYPE_RINGBUF	27

static const char *const verdict_names[] = {
	"XDP_ABORTED", "XDP_DROP", "XDP_PASS", "XDP_TX", "XDP_REDIRECT",
};
static const char *const verdict_keys[] = { "aborted", "drop", "pass", "tx", "redirect" };

const char *prog_verdict_str(uint32_t retval)
{
	return retval < 5 ? verdict_names[retval] : NULL;
}

bool prog_capture_is(const char *path)
{
	unsigned char m[4];
	struct stat st;
	uint32_t v;
	FILE *f;
	size_t n;

	/* Peek at regular files only: a pipe's first bytes would be lost. */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode) ||
	    !(f = fopen(path, "rb")))
		return false;
	n = fread(m, 1, sizeof(m), f);
	fclose(f);
	if (n != sizeof(m))
		return false;
	v = (uint32_t)m[0] | m[1] << 8 | m[2] << 16 | (uint32_t)m[3] << 24;
	return v == 0xa1b2c3d4 || v == 0xd4c3b2a1 || v == 0xa1b23c4d || v == 0x4d3cb2a1 ||
	       v == 0x0a0d0d0a;
}

/* ---- writers: classic pcap (ns) and pcapng ------------------------------ */

struct cap_writer {
	FILE *f;
	bool ng;
	const char *path;
};

static void put32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);	/* host order: readers take the byte-order magic */
}

static void put16(FILE *f, uint16_t v)
{
	fwrite(&v, 2, 1, f);
}

static int cap_writer_open(struct cap_writer *w, const char *path, bool ng)
{
	w->f = fopen(path, "wb");
	w->ng = ng;
	w->path = path;
	if (!w->f) {
		p_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!ng) {
		put32(w->f, 0xa1b23c4d);	/* nanosecond timestamps */
		put16(w->f, 2);
		put16(w->f, 4);
		put32(w->f, 0);
		put32(w->f, 0);
		put32(w->f, CAPTURE_SNAPLEN);
		put32(w->f, 1);			/* LINKTYPE_ETHERNET */
		return 0;
	}
	/* Section Header Block */
	put32(w->f, 0x0a0d0d0a);
	put32(w->f, 28);
	put32(w->f, 0x1a2b3c4d);
	put16(w->f, 1);
	put16(w->f, 0);
	put32(w->f, 0xffffffff);
	put32(w->f, 0xffffffff);		/* section length unknown */
	put32(w->f, 28);
	/* Interface Description Block, if_tsresol 9 (ns) */
	put32(w->f, 1);
	put32(w->f, 32);
	put16(w->f, 1);				/* LINKTYPE_ETHERNET */
	put16(w->f, 0);
	put32(w->f, CAPTURE_SNAPLEN);
	put16(w->f, 9);				/* if_tsresol */
	put16(w->f, 1);
	put32(w->f, 9);				/* value 9, 3 bytes of padding */
	put32(w->f, 0);				/* opt_endofopt */
	put32(w->f, 32);
	return 0;
}

static void cap_writer_put(struct cap_writer *w, uint64_t ts_ns, const void *data, uint32_t len,
			   const char *comment)
{
	static const unsigned char pad[4];

	if (!w->f)
		return;
	if (!w->ng) {
		put32(w->f, (uint32_t)(ts_ns / 1000000000ULL));
		put32(w->f, (uint32_t)(ts_ns % 1000000000ULL));
		put32(w->f, len);
		put32(w->f, len);
		fwrite(data, 1, len, w->f);
		return;
	}
	uint32_t dpad = (4 - len % 4) % 4, clen = (uint32_t)strlen(comment);
	uint32_t cpad = (4 - clen % 4) % 4;
	uint32_t total = 28 + len + dpad + 4 + clen + cpad + 4 + 4;

	put32(w->f, 6);				/* Enhanced Packet Block */
	put32(w->f, total);
	put32(w->f, 0);
	put32(w->f, (uint32_t)(ts_ns >> 32));
	put32(w->f, (uint32_t)ts_ns);
	put32(w->f, len);
	put32(w->f, len);
	fwrite(data, 1, len, w->f);
	fwrite(pad, 1, dpad, w->f);
	put16(w->f, 1);				/* opt_comment */
	put16(w->f, (uint16_t)clen);
	fwrite(comment, 1, clen, w->f);
	fwrite(pad, 1, cpad, w->f);
	put32(w->f, 0);				/* opt_endofopt */
	put32(w->f, total);
}

static int cap_writer_close(struct cap_writer *w)
{
	int err = 0;

	if (!w->f)
		return 0;
	if (ferror(w->f) | fclose(w->f)) {
		p_err("%s: write failed", w->path);
		err = -EIO;
	}
	w->f = NULL;
	return err;
}

/* ---- the loop ----------------------------------------------------------- */

struct rec_map {
	struct uxdp_bpf_map_desc m;
};

struct capture {
	const struct prog_capture_opts *o;
	const struct btf *btf;
	uint32_t record_type_id;
	struct rec_map recmaps[CAPTURE_MAX_RECMAPS];
	unsigned int nr_recmaps;
	const struct rec_map *cur_map;	/* the consume callback's map */
	/* -j: the packet's row, one document a line, straight to stdout (no allocation) */
	struct json_writer jw;
	struct prog_pkt_result *r;
	char verdict_path[5][1024];
	struct cap_writer out, per_verdict[5];
};

static void trace_line(void *ctx, const char *msg, size_t len)
{
	struct capture *c = ctx;

	if (json_output) {
		tracelog_print(jsonw_value_stream(&c->jw), msg, len, c->r->ts_ns, true);
	} else {
		fputs("      ", stdout);
		tracelog_print(stdout, msg, len, c->r->ts_ns, false);
	}
	c->r->nr_trace++;
}

void prog_record_print(FILE *f, const struct uxdp_bpf_map_desc *m, int cpu, const void *data,
		       uint32_t size, const struct btf *btf, uint32_t type_id, bool json)
{
	bool perf = m->type == MAP_TYPE_PERF_EVENT_ARRAY;

	if (json) {
		fprintf(f, "{\"map\":");
		json_escape(f, m->name, strlen(m->name));
		if (perf)
			fprintf(f, ",\"cpu\":%d", cpu);
		fprintf(f, ",\"size\":%u,\"data\":", size);
		btf_dump_hex(f, data, size, true);
		if (type_id) {
			fprintf(f, ",\"value\":");
			btf_dump_value(f, btf, type_id, data, size);
		}
		fprintf(f, "}");
		return;
	}
	fprintf(f, "      record %s", m->name);
	if (perf)
		fprintf(f, " cpu %d", cpu);
	fprintf(f, " (%u bytes):", size);
	for (uint32_t i = 0; i < size; i++)
		fprintf(f, " %02x", ((const unsigned char *)data)[i]);
	if (type_id) {
		fprintf(f, "\n        ");
		btf_dump_value(f, btf, type_id, data, size);
	}
	fprintf(f, "\n");
}

void prog_records_open(const struct uxdp_bpf_map_desc *m)
{
	/*
	 * A slot takes records once something opened it (in the kernel, a
	 * perf event fd): open every slot, so that what the program outputs
	 * shows up.
	 */
	for (uint32_t k = 0; m->type == MAP_TYPE_PERF_EVENT_ARRAY && k < m->max_entries; k++)
		uxdp_bpf_map_update_elem(m->id, &k, &k, 0);
}

static int record_line(void *ctx, int cpu, void *data, __u32 size)
{
	struct capture *c = ctx;

	prog_record_print(json_output ? jsonw_value_stream(&c->jw) : stdout, &c->cur_map->m, cpu,
			  data, size, c->btf, c->record_type_id, json_output);
	c->r->nr_records++;
	return 0;
}

static void drain_records(struct capture *c)
{
	for (unsigned int i = 0; i < c->nr_recmaps; i++) {
		c->cur_map = &c->recmaps[i];
		if (c->recmaps[i].m.type == MAP_TYPE_PERF_EVENT_ARRAY)
			uxdp_bpf_perf_event_consume(c->recmaps[i].m.id, record_line, c);
		else
			uxdp_bpf_ringbuf_consume(c->recmaps[i].m.id, record_line, c);
	}
}

static void print_row(struct capture *c, const struct prog_pkt_result *r)
{
	const char *v = prog_verdict_str(r->retval);
	char redir[96] = "-";

	if (r->redirect.valid && r->redirect.map_id)
		snprintf(redir, sizeof(redir), "map %u key %u", r->redirect.map_id, r->redirect.key);
	else if (r->redirect.valid)
		snprintf(redir, sizeof(redir), "ifindex %u", r->redirect.ifindex);
	if (json_output) {
		struct json_writer *w = &c->jw;

		jsonw_init(w, stdout);
		jsonw_start_object(w);
		jsonw_uint_field(w, "index", r->index);
		jsonw_uint_field(w, "len_in", r->len_in);
		jsonw_uint_field(w, "len_out", r->len_out);
		if (r->err) {
			jsonw_string_field(w, "error", strerror(-r->err));
		} else {
			jsonw_uint_field(w, "retval", r->retval);
			jsonw_string_field(w, "verdict", v ? v : "unknown");
			jsonw_uint_field(w, "bytes_changed", r->bytes_changed);
			jsonw_uint_field(w, "duration", r->duration);
		}
		if (r->redirect.valid) {
			jsonw_name(w, "redirect");
			jsonw_start_object(w);
			if (r->redirect.map_id) {
				jsonw_uint_field(w, "map_id", r->redirect.map_id);
				jsonw_uint_field(w, "key", r->redirect.key);
				jsonw_uint_field(w, "flags", r->redirect.flags);
			} else {
				jsonw_uint_field(w, "ifindex", r->redirect.ifindex);
			}
			jsonw_end_object(w);
		}
		jsonw_name(w, "trace");
		jsonw_start_array(w);
		return;
	}
	if (r->err) {
		printf("%6" PRIu64 " %7u %7s  refused: %s\n", r->index, r->len_in, "-",
		       strerror(-r->err));
		return;
	}
	printf("%6" PRIu64 " %7u %7u  %-12s %-18s %7u\n", r->index, r->len_in, r->len_out,
	       v ? v : "unknown", redir, r->bytes_changed);
}

static uint32_t bytes_changed(const unsigned char *a, uint32_t la, const unsigned char *b,
			      uint32_t lb)
{
	uint32_t n = la < lb ? la : lb, d = la > lb ? la - lb : lb - la;

	for (uint32_t i = 0; i < n; i++)
		d += a[i] != b[i];
	return d;
}

static void run_one(struct capture *c, struct prog_pkt_result *r, const unsigned char *pkt,
		    unsigned char *out, uint32_t out_size, struct prog_capture_summary *sum)
{
	struct uxdp_bpf_test_run_opts t = { .sz = sizeof(t) };
	const struct prog_capture_opts *o = c->o;
	char comment[128];
	int err;

	t.data_in = pkt;
	t.data_size_in = r->len_in;
	t.data_out = out;
	t.data_size_out = out_size;
	t.ctx_in = o->ctx_in;
	t.ctx_size_in = o->ctx_size_in;
	t.repeat = o->repeat;
	err = uxdp_bpf_prog_test_run(o->prog_id, &t);
	r->err = err == -ENOSPC ? 0 : err;
	r->retval = t.retval;
	r->duration = t.duration;
	r->redirect = t.redirect;
	r->len_out = err ? 0 : t.data_size_out < out_size ? t.data_size_out : out_size;
	r->bytes_changed = err ? 0 : bytes_changed(pkt, r->len_in, out, r->len_out);
	c->r = r;
	print_row(c, r);
	tracelog_drain(trace_line, c);
	if (json_output) {
		jsonw_end_array(&c->jw);
		jsonw_name(&c->jw, "records");
		jsonw_start_array(&c->jw);
	}
	drain_records(c);
	if (json_output) {
		jsonw_end_array(&c->jw);
		jsonw_uint_field(&c->jw, "printk", r->nr_trace);
		jsonw_uint_field(&c->jw, "nr_records", r->nr_records);
		jsonw_end_object(&c->jw);
		putchar('\n');
	}
	sum->packets++;
	sum->trace_lines += r->nr_trace;
	sum->records += r->nr_records;
	if (r->err) {
		sum->refused++;
		return;
	}
	if (r->retval < 5)
		sum->verdicts[r->retval]++;
	else
		sum->other++;
	if (c->out.ng) {
		const char *v = prog_verdict_str(r->retval);

		if (r->redirect.valid && r->redirect.map_id)
			snprintf(comment, sizeof(comment), "xdp verdict %s map %u key %u", v,
				 r->redirect.map_id, r->redirect.key);
		else if (r->redirect.valid)
			snprintf(comment, sizeof(comment), "xdp verdict %s ifindex %u", v,
				 r->redirect.ifindex);
		else
			snprintf(comment, sizeof(comment), "xdp verdict %s",
				 v ? v : "unknown");
	} else {
		comment[0] = 0;
	}
	cap_writer_put(&c->out, r->ts_ns, out, r->len_out, comment);
	if (o->data_out_verdict && r->retval < 5) {
		struct cap_writer *w = &c->per_verdict[r->retval];

		/* Opened at a verdict's first packet: once per verdict, not per packet. */
		if (!w->f) {
			snprintf(c->verdict_path[r->retval], sizeof(c->verdict_path[0]), "%s.%s.pcap",
				 o->data_out_verdict, verdict_keys[r->retval]);
			cap_writer_open(w, c->verdict_path[r->retval], false);
		}
		cap_writer_put(w, r->ts_ns, out, r->len_out, "");
	}
}

static int capture_setup(struct capture *c, const struct prog_capture_opts *o)
{
	c->o = o;
	c->btf = uxdp_bpf_object_btf(o->obj);
	for (unsigned int i = 0; i < uxdp_bpf_object_map_cnt(o->obj); i++) {
		struct uxdp_bpf_map_desc m;

		if (uxdp_bpf_object_map(o->obj, i, &m) ||
		    (m.type != MAP_TYPE_PERF_EVENT_ARRAY && m.type != MAP_TYPE_RINGBUF) ||
		    c->nr_recmaps == CAPTURE_MAX_RECMAPS)
			continue;
		c->recmaps[c->nr_recmaps++].m = m;
		prog_records_open(&m);
	}
	if (o->record_type) {
		int id = c->btf ? btf__find_by_name(c->btf, o->record_type) : -ENOENT;

		if (id <= 0) {
			p_err("record_type '%s': no such type in the object's BTF", o->record_type);
			return EXIT_USAGE;
		}
		c->record_type_id = id;
	}
	if (o->data_out && cap_writer_open(&c->out, o->data_out, strlen(o->data_out) > 7 &&
					   !strcmp(o->data_out + strlen(o->data_out) - 7, ".pcapng")))
		return 1;
	return 0;
}

static int capture_finish(struct capture *c, int ret)
{
	int err = cap_writer_close(&c->out);

	for (int v = 0; v < 5; v++)
		err = cap_writer_close(&c->per_verdict[v]) ?: err;
	return ret ? ret : err ? 1 : 0;
}

#ifdef CONFIG_UXDP_PCAP
int prog_capture_run(const struct prog_capture_opts *o, struct prog_capture_summary *sum)
{
	uint32_t out_size = o->data_size_out ? o->data_size_out : CAPTURE_DATA_OUT;
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct capture c = {};
	struct prog_pkt_result r;
	struct timespec t0, t1;
	struct pcap_pkthdr *h;
	const u_char *pkt;
	unsigned char *out;
	pcap_t *p;
	int ret, rc;

	memset(sum, 0, sizeof(*sum));
	p = pcap_open_offline_with_tstamp_precision(o->data_in, PCAP_TSTAMP_PRECISION_NANO,
						    errbuf);
	if (!p) {
		p_err("%s: %s", o->data_in, errbuf);
		return EXIT_USAGE;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		p_err("%s: link type %s: only Ethernet captures can be run", o->data_in,
		      pcap_datalink_val_to_name(pcap_datalink(p)) ?: "unknown");
		pcap_close(p);
		return EXIT_USAGE;
	}
	out = malloc(out_size);
	ret = out ? capture_setup(&c, o) : 1;
	if (ret)
		goto out;
	if (!json_output)
		printf("%6s %7s %7s  %-12s %-18s %7s\n", "index", "len_in", "len_out", "verdict",
		       "redirect", "changed");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		rc = pcap_next_ex(p, &h, &pkt);
		if (rc == PCAP_ERROR_BREAK)
			break;
		if (rc != 1) {
			/* What ran stays: rows are out, frames are written at close. */
			fflush(stdout);
			p_err("%s: record %" PRIu64 ": %s", o->data_in, sum->packets,
			      pcap_geterr(p));
			ret = EXIT_USAGE;
			break;
		}
		memset(&r, 0, sizeof(r));
		r.index = sum->packets;
		r.ts_ns = (uint64_t)h->ts.tv_sec * 1000000000ULL + (uint64_t)h->ts.tv_usec;
		r.len_in = h->caplen;
		run_one(&c, &r, pkt, out, out_size, sum);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sum->elapsed_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec -
			  t0.tv_nsec;
out:
	ret = capture_finish(&c, ret);
	free(out);
	pcap_close(p);
	return ret;
}
#else
int prog_capture_run(const struct prog_capture_opts *o, struct prog_capture_summary *sum)
{
	memset(sum, 0, sizeof(*sum));
	p_err("%s: a capture file, but uxdp was built without libpcap (-Dpcap)", o->data_in);
	return EXIT_USAGE;
}
#endif

void prog_capture_print_summary(const struct prog_capture_summary *s)
{
	double pps = s->elapsed_ns ? s->packets * 1e9 / s->elapsed_ns : 0;

	if (json_output) {
		struct json_writer w;

		if (jsonw_open(&w))
			return;
		jsonw_start_object(&w);
		jsonw_name(&w, "summary");
		jsonw_start_object(&w);
		jsonw_uint_field(&w, "packets", s->packets);
		jsonw_name(&w, "verdicts");
		jsonw_start_object(&w);
		for (int v = 0; v < 5; v++)
			jsonw_uint_field(&w, verdict_keys[v], s->verdicts[v]);
		jsonw_end_object(&w);
		jsonw_uint_field(&w, "other", s->other);
		jsonw_uint_field(&w, "refused", s->refused);
		jsonw_uint_field(&w, "printk", s->trace_lines);
		jsonw_uint_field(&w, "records", s->records);
		jsonw_uint_field(&w, "elapsed_ns", s->elapsed_ns);
		jsonw_float_field(&w, "pps", "%.0f", pps);
		jsonw_end_object(&w);
		jsonw_end_object(&w);
		json_doc_print(jsonw_close(&w));
		return;
	}
	printf("%" PRIu64 " packet%s:", s->packets, s->packets == 1 ? "" : "s");
	for (int v = 0; v < 5; v++)
		printf(" %s %" PRIu64, verdict_keys[v], s->verdicts[v]);
	if (s->other)
		printf(" other %" PRIu64, s->other);
	if (s->refused)
		printf(" refused %" PRIu64, s->refused);
	printf(", printk %" PRIu64 ", records %" PRIu64 "\n", s->trace_lines, s->records);
}
