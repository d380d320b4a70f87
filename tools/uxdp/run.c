// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands that drive and report:
 *
 *   run [DURATION | count N]  [workers N] [label TEXT] [measure DEV]
 *   stats [dev NAME] [maps] [drops] [trace] [records]
 *
 * DURATION is 5s, 500ms, 2m or a number of seconds; without a duration or
 * a count the run lasts until every generator is done (a gen `count`, a
 * pcap capture read to its end). `run` zeroes the
 * device counters, runs the datapath and prints per-device counters, rates
 * and XDP verdicts; `stats` prints them again for one device with its
 * driver counters (ethtool -S), the map rates (the first u64 of each value
 * of every array/hash map, summed over CPUs, per second: `proto 17: N
 * pkt/s` for xdp1's rxcnt) with every element the run created, deleted or
 * changed (map_diff.c), the drop reasons in words, the run's bpf_printk
 * lines (printed live during the run too) and its perf event / ringbuf
 * records (run_trace.c).
 * With -j nothing is printed until the end: one JSON document holds the
 * last run's fields at the top level (duration_s, devices, ...) and every
 * run in "runs" (Documentation/index.rst, tools/uxdp/script.h). A script with several labelled runs ends
 * with a summary table of the measured device's rate per label, each
 * difference from the first with a 95 % interval from the rates of 100 ms
 * slices of both runs (the first slice, start-up, left out) and marked
 * "within noise" when that interval holds zero. For the
 * soak test each run's JSON also holds the process's resident set at its
 * start and end (rss_kb, VmRSS), the skbs freed per drop reason during the
 * run (skb_drops; the stack's drops are counted only there) and each
 * device's driver counters (driver_stats, ethtool -S names).
 *
 * Kernel: none (xdp-bench and ip -s link show are the models)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uxdp.h>
#include <uxdp_bpf.h>
#include <uxdp_link.h>

#include "main.h"
#include "map_diff.h"
#include "run_trace.h"
#include "script.h"
#include "stats.h"

#define RUN_MAX			64
#define MAP_SNAP_MAX		4096
#define DRIVER_STATS_MAX	256
#define SKB_DROPS_MAX		128
#define RUN_SLICES		64	/* per run; a longer run merges slices pairwise */
#define RUN_SLICE_NS		100000000ULL

struct map_snap {
	uint32_t map_id;
	uint64_t key;		/* first 8 key bytes */
	uint32_t key_size;
	uint64_t before;
	uint64_t after;
	bool by_proto;		/* xdp1's rxcnt: 256 slots keyed by IP protocol */
};

static struct map_snap snaps[MAP_SNAP_MAX];
static unsigned int nr_snaps;

static struct {
	char *json;		/* "key":value,... of the run (no braces) */
	char label[64];
	char measure[16];
	double duration_s;
	double measure_pps;
	bool lat;		/* `latency`: generic XDP hook, prog, copy p50/p90/p99 ns */
	uint64_t lat_ns[3][3];
	double slice_pps[RUN_SLICES];	/* the measured device's rate per slice */
	unsigned int nr_slices;
} runs[RUN_MAX];

/* The measured device's rx_packets sampled by progress_cb() into slices. */
static struct {
	int ifindex;		/* 0: no `measure` */
	unsigned int seen;	/* slices completed, the first (start-up) included */
	uint64_t width, t_ns, pkts;
	double *pps;
	unsigned int *n;
} slicer;

static void slicer_tick(uint64_t elapsed_ns)
{
	struct uxdp_link_info li = { .sz = sizeof(li) };

	if (slicer.ifindex <= 0 || elapsed_ns - slicer.t_ns < slicer.width ||
	    uxdp_link_get_info(slicer.ifindex, &li))
		return;
	if (slicer.seen++) {
		if (*slicer.n == RUN_SLICES) {
			/* equal widths: a merged slice's rate is the mean of the two */
			for (unsigned int k = 0; k < RUN_SLICES / 2; k++)
				slicer.pps[k] = (slicer.pps[2 * k] + slicer.pps[2 * k + 1]) / 2;
			*slicer.n = RUN_SLICES / 2;
			slicer.width *= 2;
		}
		slicer.pps[(*slicer.n)++] = (li.rx_packets - slicer.pkts) * 1e9 /
					    (elapsed_ns - slicer.t_ns);
	}
	slicer.t_ns = elapsed_ns;
	slicer.pkts = li.rx_packets;
}
static unsigned int nr_runs;
static double last_duration_s;
static char *top_json;		/* fields added before the first run */

/* ---- JSON helpers --------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

void run_append_json(const char *fmt_key, const char *body)
{
	char **slot = nr_runs ? &runs[nr_runs - 1].json : &top_json;
	char *n;

	if (asprintf(&n, "%s%s\"%s\":%s", *slot ? *slot : "", *slot ? "," : "", fmt_key,
		     body) < 0)
		return;
	free(*slot);
	*slot = n;
}

/* ---- map snapshots -------------------------------------------------------- */

static uint64_t map_value_u64(uint32_t id, const struct uxdp_bpf_map_desc *m, const void *key)
{
	unsigned char val[64 * 1024];
	uint64_t sum = 0, v;
	unsigned int stride = (m->value_size + 7) & ~7u;

	if (m->value_size_sys > sizeof(val) || uxdp_bpf_map_lookup_elem(id, key, val))
		return 0;
	for (unsigned int c = 0; c < m->nr_cpus; c++) {
		v = 0;
		memcpy(&v, val + (m->nr_cpus > 1 ? c * stride : 0),
		       m->value_size < 8 ? m->value_size : 8);
		sum += v;
	}
	return sum;
}

static bool map_is_counter(const struct uxdp_bpf_map_desc *m)
{
	return (m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY ||
		m->type == BPF_MAP_TYPE_HASH || m->type == BPF_MAP_TYPE_PERCPU_HASH ||
		m->type == BPF_MAP_TYPE_LRU_HASH || m->type == BPF_MAP_TYPE_LRU_PERCPU_HASH) &&
	       m->value_size >= 8 && m->key_size <= 8 && !strchr(m->name, '.');
}

/* Record every counter-like map's first u64 per key; @after selects the slot. */
static void maps_snapshot(bool after)
{
	const char *oname;

	if (!after)
		nr_snaps = 0;
	for (unsigned int o = 0; o < script_object_cnt(); o++) {
		struct uxdp_bpf_object *obj = script_object_at(o, &oname);

		for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++) {
			struct uxdp_bpf_map_desc m;
			uint64_t key = 0, next = 0;
			void *prev = NULL;

			if (uxdp_bpf_object_map(obj, k, &m) || !map_is_counter(&m))
				continue;
			while (!uxdp_bpf_map_get_next_key(m.id, prev, &next)) {
				uint64_t v = map_value_u64(m.id, &m, &next);

				key = next;
				prev = &key;
				if (after) {
					for (unsigned int s = 0; s < nr_snaps; s++)
						if (snaps[s].map_id == m.id && snaps[s].key == key)
							snaps[s].after = v;
				} else if (nr_snaps < MAP_SNAP_MAX) {
					snaps[nr_snaps++] = (struct map_snap){ m.id, key, m.key_size, v, v,
									     !strcmp(m.name, "rxcnt") && m.max_entries == 256 };
				}
				next = 0;
			}
		}
	}
}

/* ---- process and stack figures -------------------------------------------- */

/* VmRSS of this process in KiB (0 where /proc is not readable). */
static uint64_t rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	unsigned long long kb = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* skb_drops: the non-zero per-reason deltas since @before. */
static void print_skb_drops(FILE *j, const uint64_t *before)
{
	const char *names[SKB_DROPS_MAX];
	uint64_t now[SKB_DROPS_MAX];
	int n = uxdp_skb_drops_get(names, now, SKB_DROPS_MAX);
	bool first = true;

	fprintf(j, ",\"skb_drops\":{");
	for (int r = 0; r < n && r < SKB_DROPS_MAX; r++) {
		if (now[r] == before[r])
			continue;
		fprintf(j, "%s\"%s\":%" PRIu64, first ? "" : ",", names[r], now[r] - before[r]);
		first = false;
	}
	fprintf(j, "}");
}

/* ---- output --------------------------------------------------------------- */

static void print_driver_stats(FILE *j, int ifindex)
{
	char names[DRIVER_STATS_MAX][48];
	uint64_t vals[DRIVER_STATS_MAX];
	int n = uxdp_link_get_driver_stats(ifindex, names, vals, DRIVER_STATS_MAX);

	if (n <= 0)
		return;
	fprintf(j, ",\"driver_stats\":{");
	for (int k = 0; k < n && k < DRIVER_STATS_MAX; k++)
		fprintf(j, "%s\"%s\":%" PRIu64, k ? "," : "", names[k], vals[k]);
	fprintf(j, "}");
}

static void print_devices(FILE *j, int only, double secs)
{
	bool first = true;

	if (!json_output && !quiet)
		printf("  %-8s %12s %10s %12s %10s %9s %9s | %9s %9s %9s %9s %9s\n", "dev",
		       "rx_packets", "rx_Mpps", "tx_packets", "tx_Mpps", "rx_drop", "tx_drop",
		       "aborted", "drop", "pass", "tx", "redirect");
	fprintf(j, "{");
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) };

		if ((only && i != only) || uxdp_link_get_info(i, &li))
			continue;
		if (!json_output && !quiet)
			printf("  %-8s %12" PRIu64 " %10.3f %12" PRIu64 " %10.3f %9" PRIu64 " %9" PRIu64
			       " | %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n",
			       li.name, li.rx_packets, secs > 0 ? li.rx_packets / secs / 1e6 : 0,
			       li.tx_packets, secs > 0 ? li.tx_packets / secs / 1e6 : 0, li.rx_dropped,
			       li.tx_dropped, li.xdp_aborted, li.xdp_drop, li.xdp_pass, li.xdp_tx,
			       li.xdp_redirect);
		fprintf(j, "%s", first ? "" : ",");
		first = false;
		json_str(j, li.name);
		fprintf(j, ":{\"ifindex\":%d,\"kind\":\"%s\",\"rx_packets\":%" PRIu64
			   ",\"rx_bytes\":%" PRIu64 ",\"tx_packets\":%" PRIu64 ",\"tx_bytes\":%" PRIu64
			   ",\"rx_dropped\":%" PRIu64 ",\"tx_dropped\":%" PRIu64
			   ",\"rx_nohandler\":%" PRIu64 ",\"rx_otherhost_dropped\":%" PRIu64
			   ",\"rx_pps\":%.0f,\"tx_pps\":%.0f"
			   ",\"xdp\":{\"aborted\":%" PRIu64 ",\"drop\":%" PRIu64 ",\"pass\":%" PRIu64
			   ",\"tx\":%" PRIu64 ",\"redirect\":%" PRIu64 ",\"invalid\":%" PRIu64 "}"
			   ",\"devmap_xmit\":{\"sent\":%" PRIu64 ",\"drops\":%" PRIu64 "}"
			   ",\"drops_total\":%" PRIu64,
			li.ifindex, li.kind, li.rx_packets, li.rx_bytes, li.tx_packets, li.tx_bytes,
			li.rx_dropped, li.tx_dropped, li.rx_nohandler, li.rx_otherhost_dropped,
			secs > 0 ? li.rx_packets / secs : 0, secs > 0 ? li.tx_packets / secs : 0,
			li.xdp_aborted, li.xdp_drop, li.xdp_pass, li.xdp_tx, li.xdp_redirect,
			li.xdp_invalid, li.devmap_xmit_sent, li.devmap_xmit_drops, li.drops_total);
		print_driver_stats(j, i);
		fprintf(j, "}");
	}
	fprintf(j, "}");
}

static void print_drops(FILE *j, int only)
{
	struct uxdp_link_drop d[64];
	bool first = true, any = false;

	fprintf(j, "{");
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) };
		int n;

		if ((only && i != only) || uxdp_link_get_info(i, &li))
			continue;
		n = uxdp_link_get_drops(i, d, 64);
		if (n <= 0)
			continue;
		fprintf(j, "%s", first ? "" : ",");
		first = false;
		json_str(j, li.name);
		fprintf(j, ":[");
		for (int k = 0; k < n && k < 64; k++) {
			any = true;
			if (!json_output)
				printf("  %s: %" PRIu64 " %s [%s]\n", li.name, d[k].count, d[k].text,
				       d[k].name);
			fprintf(j, "%s{\"reason\":\"%s\",\"count\":%" PRIu64 ",\"text\":", k ? "," : "",
				d[k].name, d[k].count);
			json_str(j, d[k].text);
			fprintf(j, "}");
		}
		fprintf(j, "]");
	}
	fprintf(j, "}");
	if (!any && !json_output)
		printf("  no drops\n");
}

static void print_maps(FILE *j, double secs)
{
	bool first = true;

	fprintf(j, "[");
	for (unsigned int s = 0; s < nr_snaps; s++) {
		char name[64] = "?";
		double rate = secs > 0 ? (snaps[s].after - snaps[s].before) / secs : 0;
		const char *oname;

		if (snaps[s].after == snaps[s].before)
			continue;
		for (unsigned int o = 0; o < script_object_cnt(); o++) {
			struct uxdp_bpf_object *obj = script_object_at(o, &oname);

			for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++) {
				struct uxdp_bpf_map_desc m;

				if (!uxdp_bpf_object_map(obj, k, &m) && m.id == snaps[s].map_id)
					snprintf(name, sizeof(name), "%s", m.name);
			}
		}
		if (!json_output) {
			if (snaps[s].by_proto)
				printf("  proto %" PRIu64 ": %.0f pkt/s\n", snaps[s].key, rate);
			else
				printf("  %s key %" PRIu64 ": %.0f /s (%" PRIu64 " in the run)\n", name,
				       snaps[s].key, rate, snaps[s].after - snaps[s].before);
		}
		fprintf(j, "%s{\"map\":", first ? "" : ",");
		json_str(j, name);
		fprintf(j, ",\"key\":%" PRIu64 ",\"count\":%" PRIu64 ",\"rate\":%.0f}", snaps[s].key,
			snaps[s].after - snaps[s].before, rate);
		first = false;
	}
	fprintf(j, "]");
}

/* Generic XDP hook latency (`run ... latency`): text table and latency_ns. */
static void print_latency(FILE *j)
{
	static const char *const names[] = { "hook", "prog", "copy" };
	static const char *const texts[] = {
		"generic XDP hook (total)", "program run (own)", "copy/linearise (when done)",
	};

	fprintf(j, ",\"latency_ns\":{");
	for (int k = UXDP_LAT_XDPGENERIC_HOOK; k <= UXDP_LAT_XDPGENERIC_COPY; k++) {
		struct uxdp_latency l = { .sz = sizeof(l) };

		uxdp_xdpgeneric_latency_get((enum uxdp_latency_kind)k, &l);
		if (nr_runs < RUN_MAX) {
			runs[nr_runs].lat = true;
			runs[nr_runs].lat_ns[k][0] = l.p50;
			runs[nr_runs].lat_ns[k][1] = l.p90;
			runs[nr_runs].lat_ns[k][2] = l.p99;
		}
		if (k == UXDP_LAT_XDPGENERIC_HOOK) {
			/* top level: the hook's own percentiles */
			fprintf(j, "\"p50\":%" PRIu64 ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64
				",\"p999\":%" PRIu64 ",\"count\":%" PRIu64 ",", l.p50, l.p90,
				l.p99, l.p999, l.count);
		}
		fprintf(j, "%s\"%s\":{\"p50\":%" PRIu64 ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64
			",\"p999\":%" PRIu64 ",\"count\":%" PRIu64 ",\"mean\":%.1f}",
			k == UXDP_LAT_XDPGENERIC_HOOK ? "" : ",", names[k], l.p50, l.p90, l.p99,
			l.p999, l.count, l.mean);
		if (!json_output && !quiet && l.count)
			printf("  latency %-28s p50 %6" PRIu64 " ns  p90 %6" PRIu64 " ns  p99 %6" PRIu64
			       " ns  p999 %6" PRIu64 " ns  (%" PRIu64 " samples)\n", texts[k], l.p50,
			       l.p90, l.p99, l.p999, l.count);
	}
	fprintf(j, "}");
	uxdp_xdpgeneric_latency(false);
}

/* ---- commands ------------------------------------------------------------- */

static int parse_duration(const char *s, uint64_t *ns)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0)
		return -EINVAL;
	if (!*end || !strcmp(end, "s"))
		*ns = v * 1e9;
	else if (!strcmp(end, "ms"))
		*ns = v * 1e6;
	else if (!strcmp(end, "m"))
		*ns = v * 60e9;
	else
		return -EINVAL;
	return *ns ? 0 : -EINVAL;
}

/* Called by uxdp_run() on this thread while the workers run. */
static bool progress_cb(void *ctx, uint64_t elapsed_ns)
{
	static uint64_t last;
	const uint64_t *total = ctx;

	slicer_tick(elapsed_ns);
	run_trace_poll();	/* bpf_printk lines, live */
	if (!total)
		return true;
	if (elapsed_ns - last < 500000000ULL && elapsed_ns > last)
		return true;
	last = elapsed_ns;
	if (*total)
		fprintf(stderr, "\r  running: %.1f / %.1f s ", elapsed_ns / 1e9, *total / 1e9);
	else
		fprintf(stderr, "\r  running: %.1f s ", elapsed_ns / 1e9);
	return true;
}

static int cmd_run(int argc, char **argv)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1 };
	const char *label = NULL, *measure = NULL, *drop_names[SKB_DROPS_MAX];
	uint64_t drops_before[SKB_DROPS_MAX], rss_start, rss_end;
	bool latency = false;
	char *buf = NULL;
	size_t len = 0;
	uint64_t ns = 0;
	double secs;
	FILE *j;
	int i = 0, ret;

	if (argc >= 2 && !strcmp(argv[0], "count")) {
		char *end;

		o.count = strtoull(argv[1], &end, 0);
		if (!*argv[1] || *end || !o.count) {
			script_err("'%s' is not a valid count", argv[1]);
			return EXIT_USAGE;
		}
		i = 2;
	} else if (argc >= 1 && !parse_duration(argv[0], &o.duration_ns)) {
		i = 1;
	} else if (!argc || !strcmp(argv[0], "workers") || !strcmp(argv[0], "label") ||
		   !strcmp(argv[0], "measure") || !strcmp(argv[0], "latency")) {
		i = 0;	/* until the generators are done */
	} else {
		script_err("usage: run [DURATION | count N] [workers N] [label TEXT] [measure DEV] [latency]");
		return EXIT_USAGE;
	}
	for (; i < argc; i += 2) {
		if (!strcmp(argv[i], "latency")) {
			/* a flag: sample the generic XDP hook */
			latency = true;
			i--;
			continue;
		}
		if (i + 1 >= argc) {
			script_err("'%s' needs a value", argv[i]);
			return EXIT_USAGE;
		}
		if (!strcmp(argv[i], "workers")) {
			char *end;
			long w = strtol(argv[i + 1], &end, 0);

			if (*end || w < 1 || w > uxdp_bpf_num_possible_cpus()) {
				script_err("'%s' is not a valid number of workers (1..%d)", argv[i + 1],
					   uxdp_bpf_num_possible_cpus());
				return EXIT_USAGE;
			}
			o.workers = w;
		} else if (!strcmp(argv[i], "label")) {
			label = argv[i + 1];
		} else if (!strcmp(argv[i], "measure")) {
			measure = argv[i + 1];
			if (uxdp_link_ifindex(measure) < 0) {
				script_err("device '%s' does not exist", measure);
				return EXIT_USAGE;
			}
		} else {
			script_err("unknown run argument '%s'", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (nr_runs == RUN_MAX) {
		script_err("too many runs (max %d)", RUN_MAX);
		return EXIT_USAGE;
	}
	o.progress = progress_cb;
	if (!json_output && isatty(STDERR_FILENO)) {
		static uint64_t total;

		total = o.duration_ns;
		o.progress_ctx = &total;
	}
	map_diff_begin();
	run_trace_begin();
	uxdp_link_stats_reset();
	runs[nr_runs].nr_slices = 0;
	slicer = (typeof(slicer)){ .ifindex = measure ? uxdp_link_ifindex(measure) : 0,
				   .width = RUN_SLICE_NS, .pps = runs[nr_runs].slice_pps,
				   .n = &runs[nr_runs].nr_slices };
	maps_snapshot(false);
	memset(drops_before, 0, sizeof(drops_before));
	uxdp_skb_drops_get(drop_names, drops_before, SKB_DROPS_MAX);
	rss_start = rss_kb();
	if (latency && uxdp_xdpgeneric_latency(true)) {
		script_err("latency: out of memory");
		return 1;
	}
	ret = uxdp_run(&o, &ns);
	slicer.ifindex = 0;

	if (o.progress_ctx)
		fprintf(stderr, "\r%40s\r", "");
	if (ret == -EINVAL) {
		script_err("nothing would stop this run: give a duration, or a count to a generator");
		return EXIT_USAGE;
	}
	if (ret) {
		script_err("run failed: %s", strerror(-ret));
		return 1;
	}
	rss_end = rss_kb();
	maps_snapshot(true);
	map_diff_end();
	secs = ns / 1e9;
	last_duration_s = secs;

	if (!json_output && !quiet)
		printf("run %u%s%s%s: %.3f s, %u worker%s\n", nr_runs + 1, label ? " (" : "",
		       label ? label : "", label ? ")" : "", secs, o.workers, o.workers > 1 ? "s" : "");
	j = open_memstream(&buf, &len);
	if (!j)
		return 1;
	fprintf(j, "\"duration_s\":%.6f,\"workers\":%u", secs, o.workers);
	if (label) {
		fprintf(j, ",\"label\":");
		json_str(j, label);
	}
	fprintf(j, ",\"rss_kb\":{\"start\":%" PRIu64 ",\"end\":%" PRIu64 "}", rss_start, rss_end);
	print_skb_drops(j, drops_before);
	fprintf(j, ",\"devices\":");
	print_devices(j, 0, secs);
	run_trace_end(j);
	if (latency)
		print_latency(j);
	fclose(j);
	runs[nr_runs].json = buf;
	runs[nr_runs].duration_s = secs;
	snprintf(runs[nr_runs].label, sizeof(runs[nr_runs].label), "%s",
		 label ? label : "");
	if (measure) {
		struct uxdp_link_info li = { .sz = sizeof(li) };

		uxdp_link_get_info(uxdp_link_ifindex(measure), &li);
		snprintf(runs[nr_runs].measure, sizeof(runs[nr_runs].measure), "%s", measure);
		runs[nr_runs].measure_pps = secs > 0 ? li.rx_packets / secs : 0;
	}
	nr_runs++;
	if (measure) {
		char num[64];

		snprintf(num, sizeof(num), "%.0f", runs[nr_runs - 1].measure_pps);
		run_append_json("measure_pps", num);
	}
	return 0;
}

static int cmd_stats(int argc, char **argv)
{
	bool maps = false, drops = false, trace = false, records = false;
	char *buf = NULL;
	size_t len = 0;
	int only = 0;
	FILE *j;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "dev") && i + 1 < argc) {
			only = uxdp_link_ifindex(argv[++i]);
			if (only < 0) {
				script_err("device '%s' does not exist", argv[i]);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "maps")) {
			maps = true;
		} else if (!strcmp(argv[i], "drops")) {
			drops = true;
		} else if (!strcmp(argv[i], "trace")) {
			trace = true;
		} else if (!strcmp(argv[i], "records")) {
			records = true;
		} else {
			script_err("usage: stats [dev NAME] [maps] [drops] [trace] [records]");
			return EXIT_USAGE;
		}
	}
	if (!nr_runs && !json_output)
		printf("stats (no run yet):\n");
	if (trace || records)
		run_trace_stats(trace, records);
	if (!maps && !drops && !trace && !records) {
		j = open_memstream(&buf, &len);
		print_devices(j, only, last_duration_s);
		fclose(j);
		run_append_json("stats_devices", buf);
		free(buf);
		if (only) {
			char names[DRIVER_STATS_MAX][48];
			uint64_t vals[DRIVER_STATS_MAX];
			int n = uxdp_link_get_driver_stats(only, names, vals, DRIVER_STATS_MAX);

			j = open_memstream(&buf, &len);
			fprintf(j, "{");
			for (int k = 0; k < n && k < DRIVER_STATS_MAX; k++) {
				if (!json_output)
					printf("    %s: %" PRIu64 "\n", names[k], vals[k]);
				fprintf(j, "%s\"%s\":%" PRIu64, k ? "," : "", names[k], vals[k]);
			}
			fprintf(j, "}");
			fclose(j);
			run_append_json("driver_stats", buf);
			free(buf);
		}
	}
	if (maps) {
		if (!json_output)
			printf("maps:\n");
		j = open_memstream(&buf, &len);
		print_maps(j, last_duration_s);
		fclose(j);
		run_append_json("maps", buf);
		free(buf);
		map_diff_print();
	}
	if (drops) {
		if (!json_output)
			printf("drops:\n");
		j = open_memstream(&buf, &len);
		print_drops(j, only);
		fclose(j);
		run_append_json("drops", buf);
		free(buf);
	}
	return 0;
}

/*
 * Is the difference of @b from @a within the noise of the two runs? The
 * interval comes from their slices (stats_unpaired_ci()); it sees what
 * varied within each run, not a change that lasted longer than a run:
 * `uxdp ab` answers that.
 */
static const char *run_noise(const typeof(runs[0]) *a, const typeof(runs[0]) *b)
{
	static char buf[96];
	struct stats_ci ci;

	if (a->nr_slices < STATS_MIN_PAIRS || b->nr_slices < STATS_MIN_PAIRS)
		return "too short to tell (runs of 1.1 s and more can)";
	if (stats_unpaired_ci(a->slice_pps, a->nr_slices, b->slice_pps, b->nr_slices,
			      STATS_RESAMPLES, STATS_SEED, &ci))
		return "no interval (a slice without packets)";
	snprintf(buf, sizeof(buf), "[%+.1f, %+.1f]%s", ci.lo * 100, ci.hi * 100,
		 stats_ci_significant(&ci) ? "" : " within noise");
	return buf;
}

void run_output_begin(void)
{
	nr_runs = 0;
	last_duration_s = 0;
}

void run_output_end(bool print)
{
	unsigned int measured = 0;

	if (!print)
		goto out;
	for (unsigned int i = 0; i < nr_runs; i++)
		measured += runs[i].measure[0] != 0;
	if (json_output) {
		printf("{");
		if (top_json)
			printf("%s,", top_json);
		if (nr_runs)
			printf("%s,", runs[nr_runs - 1].json);
		printf("\"runs\":[");
		for (unsigned int i = 0; i < nr_runs; i++)
			printf("%s{%s}", i ? "," : "", runs[i].json);
		printf("]}\n");
	} else if (measured >= 2 && !quiet) {
		int first = -1;

		printf("\n%-28s %-8s %10s %8s  %s\n", "run", "measure", "Mpps", "vs first",
		       "[95 % CI of 100 ms slices]");
		for (unsigned int i = 0; i < nr_runs; i++) {
			if (!runs[i].measure[0])
				continue;
			if (first < 0) {
				first = i;
				printf("%-28s %-8s %10.3f %8s\n", runs[i].label[0] ? runs[i].label : "-",
				       runs[i].measure, runs[i].measure_pps / 1e6, "-");
				continue;
			}
			printf("%-28s %-8s %10.3f %+7.1f%%  %s\n",
			       runs[i].label[0] ? runs[i].label : "-", runs[i].measure,
			       runs[i].measure_pps / 1e6,
			       runs[first].measure_pps ?
			       (runs[i].measure_pps / runs[first].measure_pps - 1) * 100 : 0,
			       run_noise(&runs[first], &runs[i]));
		}
	}
	if (print && !json_output && !quiet) {
		unsigned int sampled = 0;

		for (unsigned int i = 0; i < nr_runs; i++)
			sampled += runs[i].lat;
		if (sampled >= 2) {
			printf("\n%-28s %21s %21s %21s\n", "run (generic XDP, ns)",
			       "hook p50/p90/p99", "prog p50/p90/p99", "copy p50/p90/p99");
			for (unsigned int i = 0; i < nr_runs; i++) {
				if (!runs[i].lat)
					continue;
				printf("%-28s", runs[i].label[0] ? runs[i].label : "-");
				for (int k = 0; k < 3; k++)
					printf(" %6" PRIu64 "/%6" PRIu64 "/%7" PRIu64, runs[i].lat_ns[k][0],
					       runs[i].lat_ns[k][1], runs[i].lat_ns[k][2]);
				printf("\n");
			}
		}
	}
out:
	run_trace_free();
	map_diff_free();
	free(top_json);
	top_json = NULL;
	for (unsigned int i = 0; i < nr_runs; i++) {
		runs[i].lat = false;
		free(runs[i].json);
		runs[i].json = NULL;
	}
	nr_runs = 0;
}

/*
 * UXDP_LEAK_CHECK=1: after a script (devices deleted, objects closed)
 * every slab object and page must be back; 1 and a message if not.
 */
int run_leak_check(void)
{
	const char *env = getenv("UXDP_LEAK_CHECK");
	char why[512];

	if (!env || !*env || !strcmp(env, "0") || !uxdp_mem_check(why, sizeof(why)))
		return 0;
	fprintf(stderr, "uxdp: datapath memory still in use after the script: %s\n", why);
	return 1;
}

const struct script_cmd run_cmds[] = {
	{ "run", cmd_run, "run [DURATION | count N] [workers N] [label TEXT] [measure DEV] [latency]" },
	{ "stats", cmd_stats, "stats [dev NAME] [maps] [drops] [trace] [records]" },
	{ 0 }
};
