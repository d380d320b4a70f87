// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands that drive and report:
 *
 *   run [DURATION | count N] [workers N] [label TEXT] [measure DEV]
 *       [interval DURATION] [latency]
 *   stats [dev NAME] [maps] [drops] [trace] [records]
 *
 * DURATION is 5s, 500ms, 2m or a number of seconds; without a duration or
 * a count the run lasts until every generator is done (a gen `count`, a
 * pcap capture read to its end), and with no generator count either until
 * SIGINT or SIGTERM, which end any run cleanly (the summary is printed,
 * the script stops after it). `interval` prints per-device rates once per
 * interval as xdp-bench does. `run` zeroes the device counters, runs the
 * datapath and prints per-device counters, rates, XDP verdicts and every
 * drop (the reasons in words, the stack's skb drops); `stats` prints them again for one device with its
 * driver counters (ethtool -S), the map rates (the first u64 of each value
 * of every array/hash map, summed over CPUs, per second: `proto 17: N
 * pkt/s` for xdp1's rxcnt) with every element the run created, deleted or
 * changed (map_diff.c), the drop reasons in words, the run's bpf_printk
 * lines (printed live during the run too) and its perf event / ringbuf
 * records (run_trace.c).
 * With -j nothing is printed until the end: one JSON document holds the
 * last run's fields at the top level (duration_s, devices, ...), every
 * run in "runs" and the script's error if any (Documentation/output.rst,
 * schema/run.json). The JSON is built with json_writer.c. A script with
 * several labelled runs ends with a summary table of the measured device's
 * rate per label, each difference from the first with a 95 % interval from
 * the rates of 100 ms slices of both runs (the first slice, start-up, left
 * out) and marked "within noise" when that interval holds zero. For the
 * soak test each run's JSON also holds the process's resident set at its
 * start and end (rss_kb, VmRSS), the skbs freed per drop reason during the
 * run (skb_drops; the stack's drops are counted only there) and each
 * device's driver counters (driver_stats, ethtool -S names).
 *
 * Kernel: none (xdp-bench and ip -s link show are the models)
 */
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uxdp.h>
#include <uxdp_bpf.h>
#include <uxdp_link.h>

#include "json_writer.h"
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

/* ---- the -j document ------------------------------------------------------ */

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

int run_append_writer(const char *key, struct json_writer *w)
{
	char *body = jsonw_close(w);

	if (!body)
		return 1;
	run_append_json(key, body);
	free(body);
	return 0;
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

/* The stack's drops (kfree_skb_reason()) during the last run, per reason. */
static struct {
	const char *name;
	uint64_t count;
} skb_drops[SKB_DROPS_MAX];
static int nr_skb_drops;

static void skb_drops_collect(const uint64_t *before)
{
	const char *names[SKB_DROPS_MAX];
	uint64_t now[SKB_DROPS_MAX];
	int n = uxdp_skb_drops_get(names, now, SKB_DROPS_MAX);

	nr_skb_drops = 0;
	for (int r = 0; r < n && r < SKB_DROPS_MAX; r++)
		if (now[r] != before[r])
			skb_drops[nr_skb_drops++] = (typeof(skb_drops[0])){ names[r], now[r] - before[r] };
}

/* SKB_CONSUMED counts consume_skb(): normal completion, not a loss. */
static bool skb_drop_is_loss(int r)
{
	return strcmp(skb_drops[r].name, "CONSUMED");
}

/*
 * The skb drops: the non-zero per-reason counts; in text one line for each
 * that is a loss. Returns whether there was a loss.
 */
static bool skb_drops_print(struct json_writer *w, bool text)
{
	bool any = false;

	jsonw_start_object(w);
	for (int r = 0; r < nr_skb_drops; r++) {
		jsonw_uint_field(w, skb_drops[r].name, skb_drops[r].count);
		if (!skb_drop_is_loss(r))
			continue;
		any = true;
		if (text)
			printf("  stack: %" PRIu64 " skbs freed [SKB_DROP_REASON_%s]\n",
			       skb_drops[r].count, skb_drops[r].name);
	}
	jsonw_end_object(w);
	return any;
}

/* ---- output --------------------------------------------------------------- */

/*
 * The driver's counters of @ifindex (ethtool -S) as an object, as member
 * @name if not NULL (left out then when the driver has none); in text one
 * line each.
 */
static void driver_stats_print(struct json_writer *w, const char *name, int ifindex, bool text)
{
	char names[DRIVER_STATS_MAX][48];
	uint64_t vals[DRIVER_STATS_MAX];
	int n = uxdp_link_get_driver_stats(ifindex, names, vals, DRIVER_STATS_MAX);

	if (n <= 0 && name)
		return;
	if (name)
		jsonw_name(w, name);
	jsonw_start_object(w);
	for (int k = 0; k < n && k < DRIVER_STATS_MAX; k++) {
		jsonw_uint_field(w, names[k], vals[k]);
		if (text)
			printf("    %s: %" PRIu64 "\n", names[k], vals[k]);
	}
	jsonw_end_object(w);
}

#define LI_U64(name, field) { name, offsetof(struct uxdp_link_info, field) }
static const struct li_field {
	const char *name;
	size_t off;
} li_counters[] = {
	LI_U64("rx_packets", rx_packets), LI_U64("rx_bytes", rx_bytes),
	LI_U64("tx_packets", tx_packets), LI_U64("tx_bytes", tx_bytes),
	LI_U64("rx_dropped", rx_dropped), LI_U64("tx_dropped", tx_dropped),
	LI_U64("rx_nohandler", rx_nohandler),
	LI_U64("rx_otherhost_dropped", rx_otherhost_dropped),
	{ NULL },
}, li_xdp[] = {
	LI_U64("aborted", xdp_aborted), LI_U64("drop", xdp_drop), LI_U64("pass", xdp_pass),
	LI_U64("tx", xdp_tx), LI_U64("redirect", xdp_redirect), LI_U64("invalid", xdp_invalid),
	{ NULL },
};

static void li_fields(struct json_writer *w, const struct uxdp_link_info *li,
		      const struct li_field *f)
{
	for (; f->name; f++)
		jsonw_uint_field(w, f->name, *(const uint64_t *)((const char *)li + f->off));
}

static void device_json(struct json_writer *w, const struct uxdp_link_info *li, double secs)
{
	jsonw_name(w, li->name);
	jsonw_start_object(w);
	jsonw_int_field(w, "ifindex", li->ifindex);
	jsonw_string_field(w, "kind", li->kind);
	li_fields(w, li, li_counters);
	jsonw_float_field(w, "rx_pps", "%.0f", secs > 0 ? li->rx_packets / secs : 0);
	jsonw_float_field(w, "tx_pps", "%.0f", secs > 0 ? li->tx_packets / secs : 0);
	jsonw_name(w, "xdp");
	jsonw_start_object(w);
	li_fields(w, li, li_xdp);
	jsonw_end_object(w);
	jsonw_name(w, "devmap_xmit");
	jsonw_start_object(w);
	jsonw_uint_field(w, "sent", li->devmap_xmit_sent);
	jsonw_uint_field(w, "drops", li->devmap_xmit_drops);
	jsonw_end_object(w);
	jsonw_uint_field(w, "drops_total", li->drops_total);
	driver_stats_print(w, "driver_stats", li->ifindex, false);
	jsonw_end_object(w);
}

/*
 * Every device's drop reasons as an object of arrays; in text one line per
 * reason. Returns whether there was any.
 */
static bool drops_print(struct json_writer *w, int only, bool text)
{
	struct uxdp_link_drop d[64];
	bool any = false;

	jsonw_start_object(w);
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) };
		int n;

		if ((only && i != only) || uxdp_link_get_info(i, &li))
			continue;
		n = uxdp_link_get_drops(i, d, 64);
		if (n <= 0)
			continue;
		jsonw_name(w, li.name);
		jsonw_start_array(w);
		for (int k = 0; k < n && k < 64; k++) {
			any = true;
			if (text)
				printf("  %s: %" PRIu64 " %s [%s]\n", li.name, d[k].count, d[k].text,
				       d[k].name);
			jsonw_start_object(w);
			jsonw_string_field(w, "reason", d[k].name);
			jsonw_uint_field(w, "count", d[k].count);
			jsonw_string_field(w, "text", d[k].text);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
	}
	jsonw_end_object(w);
	return any;
}

/*
 * The device table: counters, rates, XDP verdicts and every drop (the
 * drops column is drops_total: every reason, including those counted in
 * neither rx_drop nor tx_drop); in text the reasons follow the table.
 */
static void devices_print(struct json_writer *w, int only, double secs)
{
	bool text = !json_output && !quiet;
	struct json_writer sink;

	if (text)
		printf("  %-8s %12s %10s %12s %10s %9s %9s %9s | %9s %9s %9s %9s %9s\n", "dev",
		       "rx_packets", "rx_Mpps", "tx_packets", "tx_Mpps", "rx_drop", "tx_drop",
		       "drops", "aborted", "drop", "pass", "tx", "redirect");
	jsonw_start_object(w);
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) };

		if ((only && i != only) || uxdp_link_get_info(i, &li))
			continue;
		if (text)
			printf("  %-8s %12" PRIu64 " %10.3f %12" PRIu64 " %10.3f %9" PRIu64 " %9" PRIu64
			       " %9" PRIu64 " | %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
			       " %9" PRIu64 "\n",
			       li.name, li.rx_packets, secs > 0 ? li.rx_packets / secs / 1e6 : 0,
			       li.tx_packets, secs > 0 ? li.tx_packets / secs / 1e6 : 0, li.rx_dropped,
			       li.tx_dropped, li.drops_total, li.xdp_aborted, li.xdp_drop, li.xdp_pass,
			       li.xdp_tx, li.xdp_redirect);
		device_json(w, &li, secs);
	}
	jsonw_end_object(w);
	if (!text)
		return;
	/* the reasons in words; their JSON is `stats drops` */
	if (!jsonw_open(&sink)) {
		drops_print(&sink, only, true);
		free(jsonw_close(&sink));
	}
}

static void maps_print(struct json_writer *w, double secs)
{
	jsonw_start_array(w);
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
		jsonw_start_object(w);
		jsonw_string_field(w, "map", name);
		jsonw_uint_field(w, "key", snaps[s].key);
		jsonw_uint_field(w, "count", snaps[s].after - snaps[s].before);
		jsonw_float_field(w, "rate", "%.0f", rate);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void latency_fields(struct json_writer *w, const struct uxdp_latency *l)
{
	jsonw_uint_field(w, "p50", l->p50);
	jsonw_uint_field(w, "p90", l->p90);
	jsonw_uint_field(w, "p99", l->p99);
	jsonw_uint_field(w, "p999", l->p999);
	jsonw_uint_field(w, "count", l->count);
}

/* Generic XDP hook latency (`run ... latency`): text table and latency_ns. */
static void latency_print(struct json_writer *w)
{
	static const char *const names[] = { "hook", "prog", "copy" };
	static const char *const texts[] = {
		"generic XDP hook (total)", "program run (own)", "copy/linearise (when done)",
	};

	jsonw_name(w, "latency_ns");
	jsonw_start_object(w);
	for (int k = UXDP_LAT_XDPGENERIC_HOOK; k <= UXDP_LAT_XDPGENERIC_COPY; k++) {
		struct uxdp_latency l = { .sz = sizeof(l) };

		uxdp_xdpgeneric_latency_get((enum uxdp_latency_kind)k, &l);
		if (nr_runs < RUN_MAX) {
			runs[nr_runs].lat = true;
			runs[nr_runs].lat_ns[k][0] = l.p50;
			runs[nr_runs].lat_ns[k][1] = l.p90;
			runs[nr_runs].lat_ns[k][2] = l.p99;
		}
		if (k == UXDP_LAT_XDPGENERIC_HOOK)
			latency_fields(w, &l);	/* top level: the hook's own percentiles */
		jsonw_name(w, names[k]);
		jsonw_start_object(w);
		latency_fields(w, &l);
		jsonw_float_field(w, "mean", "%.1f", l.mean);
		jsonw_end_object(w);
		if (!json_output && !quiet && l.count)
			printf("  latency %-28s p50 %6" PRIu64 " ns  p90 %6" PRIu64 " ns  p99 %6" PRIu64
			       " ns  p999 %6" PRIu64 " ns  (%" PRIu64 " samples)\n", texts[k], l.p50,
			       l.p90, l.p99, l.p999, l.count);
	}
	jsonw_end_object(w);
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

/* SIGINT/SIGTERM: the run in progress ends and the script stops after it. */
static volatile sig_atomic_t run_signal;
static bool run_signal_stopped_run;	/* the signal came while a run ran */

static void run_on_signal(int sig)
{
	run_signal = sig;
}

void run_signals_install(void)
{
	/*
	 * no SA_RESTART: a read of the script's next line returns EINTR;
	 * SA_RESETHAND: a second signal kills uxdp (a teardown that hangs)
	 */
	struct sigaction sa = { .sa_handler = run_on_signal, .sa_flags = SA_RESETHAND };

	run_signal = 0;
	run_signal_stopped_run = false;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int run_stop_signal(void)
{
	return run_signal;
}

bool run_stopped_a_run(void)
{
	return run_signal_stopped_run;
}

static const char *run_signal_name(void)
{
	return run_signal == SIGINT ? "SIGINT" : "SIGTERM";
}

#define RUN_IVL_DEVS	64

/* The live side of a run: progress line, `interval` rates, signals. */
struct run_progress {
	uint64_t total_ns;	/* the duration, 0 if none */
	uint64_t interval_ns;	/* `interval`: per-interval rates, 0 if none */
	uint64_t last_line_ns;
	uint64_t last_ivl_ns;
	bool line;		/* a progress line: stdout is a terminal */
	bool line_shown;
	unsigned int nr_ivl;
	struct json_writer *ivl;	/* "intervals" */
	struct {
		int ifindex;
		uint64_t rx, tx, drops, redirect;
	} prev[RUN_IVL_DEVS];
};

/* Per-device rates since the last interval, as xdp-bench prints them. */
static void progress_interval(struct run_progress *p, uint64_t elapsed_ns)
{
	double secs = (elapsed_ns - p->last_ivl_ns) / 1e9;
	bool text = !json_output && !quiet;
	unsigned int d = 0;

	if (p->line_shown) {
		printf("\r%40s\r", "");
		p->line_shown = false;
	}
	if (text)
		printf("  %.3f s: period %.3f s\n", elapsed_ns / 1e9, secs);
	jsonw_start_object(p->ivl);
	jsonw_float_field(p->ivl, "t_s", "%.3f", elapsed_ns / 1e9);
	jsonw_float_field(p->ivl, "period_s", "%.3f", secs);
	jsonw_name(p->ivl, "devices");
	jsonw_start_object(p->ivl);
	for (int i = uxdp_link_next(0); i && d < RUN_IVL_DEVS; i = uxdp_link_next(i), d++) {
		struct uxdp_link_info li = { .sz = sizeof(li) };
		double rx, tx, drops, redir;

		if (uxdp_link_get_info(i, &li))
			continue;
		if (p->prev[d].ifindex != i)
			p->prev[d] = (typeof(p->prev[0])){ .ifindex = i };
		rx = (li.rx_packets - p->prev[d].rx) / secs;
		tx = (li.tx_packets - p->prev[d].tx) / secs;
		drops = (li.drops_total - p->prev[d].drops) / secs;
		redir = (li.xdp_redirect - p->prev[d].redirect) / secs;
		p->prev[d].rx = li.rx_packets;
		p->prev[d].tx = li.tx_packets;
		p->prev[d].drops = li.drops_total;
		p->prev[d].redirect = li.xdp_redirect;
		if (text)
			printf("    %-8s rx %14.0f pkt/s  tx %14.0f pkt/s  drop %12.0f pkt/s"
			       "  redirect %12.0f pkt/s\n", li.name, rx, tx, drops, redir);
		jsonw_name(p->ivl, li.name);
		jsonw_start_object(p->ivl);
		jsonw_float_field(p->ivl, "rx_pps", "%.0f", rx);
		jsonw_float_field(p->ivl, "tx_pps", "%.0f", tx);
		jsonw_float_field(p->ivl, "drop_pps", "%.0f", drops);
		jsonw_float_field(p->ivl, "redirect_pps", "%.0f", redir);
		jsonw_end_object(p->ivl);
	}
	jsonw_end_object(p->ivl);
	jsonw_end_object(p->ivl);
	fflush(stdout);
	p->last_ivl_ns = elapsed_ns;
	p->nr_ivl++;
}

/* Called by uxdp_run() on this thread while the workers run; false stops it. */
static bool progress_cb(void *ctx, uint64_t elapsed_ns)
{
	struct run_progress *p = ctx;

	slicer_tick(elapsed_ns);
	run_trace_poll();	/* bpf_printk lines, live */
	if (run_signal)
		return false;
	if (p->interval_ns && elapsed_ns - p->last_ivl_ns >= p->interval_ns)
		progress_interval(p, elapsed_ns);
	/* a line on long runs only: from the first second on, twice a second */
	if (!p->line || elapsed_ns < 1000000000ULL ||
	    elapsed_ns - p->last_line_ns < 500000000ULL)
		return true;
	p->last_line_ns = elapsed_ns;
	p->line_shown = true;
	if (p->total_ns)
		printf("\r  running: %.1f / %.1f s ", elapsed_ns / 1e9, p->total_ns / 1e9);
	else
		printf("\r  running: %.1f s (Ctrl-C ends the run) ", elapsed_ns / 1e9);
	fflush(stdout);
	return true;
}

#define RUN_USAGE "run [DURATION | count N] [workers N] [label TEXT] [measure DEV] [interval DURATION] [latency]"

static int cmd_run(int argc, char **argv)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1 };
	const char *label = NULL, *measure = NULL, *drop_names[SKB_DROPS_MAX];
	uint64_t drops_before[SKB_DROPS_MAX], rss_start, rss_end;
	struct json_writer w, ivl = { 0 };
	struct run_progress *p;
	bool latency = false;
	char *ivl_json = NULL;
	uint64_t ns = 0;
	double secs;
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
		   !strcmp(argv[0], "measure") || !strcmp(argv[0], "latency") ||
		   !strcmp(argv[0], "interval")) {
		i = 0;	/* until the generators are done, or a signal */
	} else {
		script_err("usage: " RUN_USAGE);
		return EXIT_USAGE;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return 1;
	p->total_ns = o.duration_ns;
	for (; i < argc; i += 2) {
		if (!strcmp(argv[i], "latency")) {
			/* a flag: sample the generic XDP hook */
			latency = true;
			i--;
			continue;
		}
		if (i + 1 >= argc) {
			script_err("'%s' needs a value", argv[i]);
			goto usage;
		}
		if (!strcmp(argv[i], "workers")) {
			char *end;
			long n = strtol(argv[i + 1], &end, 0);

			if (*end || n < 1 || n > uxdp_bpf_num_possible_cpus()) {
				script_err("'%s' is not a valid number of workers (1..%d)", argv[i + 1],
					   uxdp_bpf_num_possible_cpus());
				goto usage;
			}
			o.workers = n;
		} else if (!strcmp(argv[i], "label")) {
			label = argv[i + 1];
		} else if (!strcmp(argv[i], "measure")) {
			measure = argv[i + 1];
			if (uxdp_link_ifindex(measure) < 0) {
				script_err("device '%s' does not exist", measure);
				goto usage;
			}
		} else if (!strcmp(argv[i], "interval")) {
			if (parse_duration(argv[i + 1], &p->interval_ns) ||
			    p->interval_ns < 10000000ULL) {
				script_err("interval '%s' is not a duration of 10ms or more (1s, 500ms)",
					   argv[i + 1]);
				goto usage;
			}
		} else {
			script_err("unknown run argument '%s'", argv[i]);
			goto usage;
		}
	}
	if (nr_runs == RUN_MAX) {
		script_err("too many runs (max %d)", RUN_MAX);
		goto usage;
	}
	if (p->interval_ns && jsonw_open(&ivl)) {
		free(p);
		return 1;
	}
	p->ivl = &ivl;
	if (p->interval_ns)
		jsonw_start_array(&ivl);
	p->line = !json_output && !quiet && isatty(STDOUT_FILENO);
	o.progress = progress_cb;
	o.progress_ctx = p;
	/* no duration and no generator count: until SIGINT or SIGTERM */
	o.until_stopped = true;
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
		ret = -ENOMEM;
		goto out;
	}
	ret = uxdp_run(&o, &ns);
	run_signal_stopped_run = run_signal;
	if (p->line_shown)
		printf("\r%50s\r", "");
	slicer.ifindex = 0;
	if (ret) {
		script_err("run failed: %s", strerror(-ret));
		goto out;
	}
	rss_end = rss_kb();
	maps_snapshot(true);
	map_diff_end();
	skb_drops_collect(drops_before);
	secs = ns / 1e9;
	last_duration_s = secs;

	if (!json_output && !quiet)
		printf("run %u%s%s%s: %.3f s, %u worker%s%s%s\n", nr_runs + 1, label ? " (" : "",
		       label ? label : "", label ? ")" : "", secs, o.workers, o.workers > 1 ? "s" : "",
		       run_signal ? ", stopped by " : "", run_signal ? run_signal_name() : "");
	if (jsonw_open(&w)) {
		ret = -ENOMEM;
		goto out;
	}
	/* the run's members, without braces: the document adds to them */
	jsonw_float_field(&w, "duration_s", "%.6f", secs);
	jsonw_uint_field(&w, "workers", o.workers);
	if (label)
		jsonw_string_field(&w, "label", label);
	if (run_signal)
		jsonw_string_field(&w, "stopped_by", run_signal_name());
	jsonw_name(&w, "rss_kb");
	jsonw_start_object(&w);
	jsonw_uint_field(&w, "start", rss_start);
	jsonw_uint_field(&w, "end", rss_end);
	jsonw_end_object(&w);
	jsonw_name(&w, "devices");
	devices_print(&w, 0, secs);
	/* the stack's drops, in text after the devices' */
	jsonw_name(&w, "skb_drops");
	skb_drops_print(&w, !json_output && !quiet);
	if (p->interval_ns) {
		jsonw_end_array(&ivl);
		ivl_json = jsonw_close(&ivl);
		jsonw_name(&w, "intervals");
		jsonw_raw(&w, ivl_json);
	}
	fflush(w.f);
	run_trace_end(w.f);
	if (latency)
		latency_print(&w);
	runs[nr_runs].json = jsonw_close(&w);
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
out:
	if (ivl.f)
		free(jsonw_close(&ivl));
	free(ivl_json);
	free(p);
	return ret ? 1 : 0;
usage:
	free(p);
	return EXIT_USAGE;
}

/* Build one member's JSON with @fn and add it to the document as @key. */
static void stats_append(const char *key, void (*fn)(struct json_writer *w, int only), int only)
{
	struct json_writer w;

	if (jsonw_open(&w))
		return;
	fn(&w, only);
	run_append_writer(key, &w);
}

static void stats_devices(struct json_writer *w, int only)
{
	devices_print(w, only, last_duration_s);
}

static void stats_driver(struct json_writer *w, int only)
{
	driver_stats_print(w, NULL, only, !json_output);
}

static void stats_maps(struct json_writer *w, int only)
{
	maps_print(w, last_duration_s);
}

/* Every drop: the devices' reasons, then the stack's (its skbs freed). */
static void stats_drops(struct json_writer *w, int only)
{
	bool any = drops_print(w, only, !json_output);

	if (!only && !json_output) {
		struct json_writer sink;

		if (!jsonw_open(&sink)) {
			any |= skb_drops_print(&sink, true);
			free(jsonw_close(&sink));
		}
	}
	if (!any && !json_output)
		printf("  no drops\n");
}

static void stats_skb_drops(struct json_writer *w, int only)
{
	skb_drops_print(w, false);
}

static int cmd_stats(int argc, char **argv)
{
	bool maps = false, drops = false, trace = false, records = false;
	int only = 0;

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
		stats_append("stats_devices", stats_devices, only);
		if (only)
			stats_append("driver_stats", stats_driver, only);
	}
	if (maps) {
		if (!json_output)
			printf("maps:\n");
		stats_append("maps", stats_maps, 0);
		map_diff_print();
	}
	if (drops) {
		if (!json_output)
			printf("drops:\n");
		stats_append("drops", stats_drops, only);
		if (!only)
			stats_append("stats_skb_drops", stats_skb_drops, 0);
	}
	return 0;
}

/* The script's error, kept for the -j document (the first one). */
static struct {
	unsigned int line;
	char message[1024];
	bool set;
} run_error;

void run_set_error(unsigned int line, const char *msg)
{
	if (run_error.set)
		return;
	run_error.set = true;
	run_error.line = line;
	snprintf(run_error.message, sizeof(run_error.message), "%s", msg);
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
	nr_skb_drops = 0;
	last_duration_s = 0;
	run_error.set = false;
}

static void run_document_print(void)
{
	struct json_writer w;

	if (jsonw_open(&w))
		return;
	jsonw_start_object(&w);
	if (top_json)
		jsonw_members(&w, top_json);
	if (nr_runs)
		jsonw_members(&w, runs[nr_runs - 1].json);
	jsonw_name(&w, "runs");
	jsonw_start_array(&w);
	for (unsigned int i = 0; i < nr_runs; i++) {
		jsonw_start_object(&w);
		jsonw_members(&w, runs[i].json);
		jsonw_end_object(&w);
	}
	jsonw_end_array(&w);
	if (run_signal)
		jsonw_string_field(&w, "interrupted", run_signal_name());
	if (run_error.set) {
		jsonw_name(&w, "error");
		jsonw_start_object(&w);
		jsonw_uint_field(&w, "line", run_error.line);
		jsonw_string_field(&w, "message", run_error.message);
		jsonw_end_object(&w);
	}
	jsonw_end_object(&w);
	json_doc_print(jsonw_close(&w));
}

void run_output_end(void)
{
	unsigned int measured = 0;

	for (unsigned int i = 0; i < nr_runs; i++)
		measured += runs[i].measure[0] != 0;
	if (json_output) {
		run_document_print();
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
	if (!json_output && !quiet) {
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
	{ "run", cmd_run, RUN_USAGE },
	{ "stats", cmd_stats, "stats [dev NAME] [maps] [drops] [trace] [records]" },
	{ 0 }
};
