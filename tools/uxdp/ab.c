// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp ab`: the lab's A/B driver (Documentation/lab.md).
 *
 *   uxdp ab A.uxdp B.uxdp ... [OPTIONS]
 *   uxdp ab SCRIPT --vary "dev veth1 xdp_batch 0,8,16" [OPTIONS]
 *
 * A variant is a script (plus, with --vary, one `link set` it runs after
 * the script's setup). Each variant lives in its own forked process which
 * sets up its topology: every line before the script's first `run` (link,
 * map, addr, route, neigh, sysctl; stats and snmp are skipped); that `run`
 * line gives the measured device (`measure DEV`) and the workers, the rest
 * of the script is not used. The parent then asks the children for one
 * round each, in turn (A B, B A, A B, ...: the order alternates so that
 * being first in a round favours no variant; an idle child sleeps in
 * read()). Every --respawn rounds the children are replaced by fresh ones
 * (a generation; forked in alternating order), each starting with --warmup
 * rounds that are thrown away. A round is `uxdp_run()` for --time seconds
 * (20 ms for throughput); its values are the measured device's rx_packets
 * per CPU-second of the worker threads (mpps_cpu: the process's CPU time
 * less the control thread's) and per wall-clock second (mpps). Separate
 * processes keep same-named devices of two scripts apart and keep set-up
 * cost (ELF loading, verification) out of the rounds; generations turn
 * what is fixed for one process (memory layout, physical pages, fork
 * order) into noise the CI sees.
 *
 * --metric insns runs each variant twice under valgrind's callgrind with
 * `run count` N0 and N0 + N generator frames (this binary re-executed as
 * `uxdp ab --count N SCRIPT [--set KNOB]`) and reports
 * (Ir(big) - Ir(small)) / (packets(big) - packets(small)) at the measured
 * device: set-up cost cancels, the figure is deterministic.
 *
 * Statistics (stats.c): per variant the median, quartiles and a robust
 * spread; against the first variant the 25 % trimmed mean of the paired
 * log ratios with a 95 % bootstrap CI that resamples blocks of two
 * generations (stats_paired_ci), and a verdict in time. No interval is
 * printed from fewer units than the A/A calibration supports
 * (STATS_MIN_BLOCKS blocks, STATS_MIN_PAIRS pairs without generations):
 * "not enough data: run longer". --precision P% stops once every CI's
 * half-width is below P, checked from that minimum on.
 *
 * Kernel: none (the lab around the datapath; the question comes from the
 * veth bulking thread, Documentation/experiments.md)
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uxdp_bpf.h>
#include <uxdp_link.h>

#include "main.h"
#include "script.h"
/*
 * Plain-C lib headers (no kernel types), by relative path: every build of
 * the tool's sources (tools/uxdp, tests/fuzz) finds them without reaching
 * include/ as a whole.
 */
#include "stats.h"
#include "svg.h"

#define AB_MAX_VARIANTS		8
#define AB_MAX_ROUNDS		5000
/* a CI, and so a --precision stop, needs calibrated numbers of units (stats.h) */
#define AB_MIN_ROUNDS		STATS_MIN_PAIRS
#define AB_MIN_GENERATIONS	(2 * STATS_MIN_BLOCKS)
#define AB_ROUND_TRIES		20	/* runs of a round that saw no packet, at most */
#define AB_MAX(a, b)		((a) > (b) ? (a) : (b))
#define AB_INSNS_BASE		2000	/* frames of the baseline callgrind run */

enum ab_metric { AB_MPPS, AB_P50, AB_P99, AB_INSNS, AB_MPPS_CPU };

static const char *const metric_names[] = { "mpps", "p50", "p99", "insns", "mpps_cpu" };

struct ab_variant {
	char name[64];
	const char *script;
	char knob[256];		/* "dev veth1 xdp_batch 8" or "" */
	pid_t pid;
	FILE *to, *from;
	double *v;		/* one value per round: pps, pps per CPU-second, or ns */
	double *alt;		/* throughput metrics: the other one (wall <-> CPU) */
	double *lat;		/* AB_LAT_Q quantiles per round (latency metrics) */
	unsigned int n;
	double warm;
	struct stats_summary sum;
	struct stats_ci mean_ci;
	struct stats_ci ratio;	/* vs variant 0; unset for 0 */
	struct stats_ci time;	/* the same as a change of time (per packet, or latency) */
	bool enough;		/* ratio rests on enough units to print its CI */
	double *blk_est;	/* per block (or round): paired estimate vs variant 0 */
	unsigned int nr_blk;
	struct stats_ci alt_ratio;	/* the same for ->alt */
	double cpu_share;	/* worker CPU time / (workers x wall time), median over rounds */
	double *share;
	char verdict[256];
	/* insns */
	double insns_pp;
	uint64_t ir[2], pkts[2];
};

static struct ab_variant variants[AB_MAX_VARIANTS];
static unsigned int nr_variants;

/* ---- the child: one variant's topology ---------------------------------- */

struct ab_spec {
	char measure[16];
	unsigned int workers;
	bool latency;		/* sample the generic XDP hook's latency */
};

/* Latency quantiles per round (generic XDP hook, ns): min p50 p90 p99 p999 */
#define AB_LAT_Q	5
static const double lat_probs[AB_LAT_Q] = { 0, 0.5, 0.9, 0.99, 0.999 };

struct ab_sample {
	double pps;
	double pps_cpu;		/* packets per second of the workers' CPU time */
	double share;		/* worker CPU time / (workers x wall time) */
	uint64_t pkts;
	double lat[AB_LAT_Q];
	uint64_t lat_count;
};

static enum ab_metric metric;
/* values are kept in pps or ns; shown in Mpps or ns */
static bool metric_tput(enum ab_metric m)
{
	return m == AB_MPPS || m == AB_MPPS_CPU;
}

#define SCALE	(metric_tput(metric) ? 1e6 : 1.0)
#define UNIT	(metric == AB_MPPS ? "Mpps" : metric == AB_MPPS_CPU ? "Mpps/CPU-s" : "ns")

static int tokenize(char *line, char **argv, int max)
{
	int argc = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			return argc;
		if (argc == max)
			return -E2BIG;
		if (*p == '"') {
			argv[argc++] = ++p;
			while (*p && *p != '"')
				p++;
			if (*p != '"')
				return -EINVAL;
			*p++ = 0;
			continue;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = 0;
	}
}

static int call_table(const struct script_cmd *c, int argc, char **argv, const char *what)
{
	for (; c->name; c++)
		if (!strcmp(c->name, argv[0]))
			return c->handler(argc - 1, argv + 1);
	fprintf(stderr, "uxdp ab: unknown command '%s %s'\n", what, argv[0]);
	return EXIT_USAGE;
}

/* Parse the first `run` line's options we use. */
static int parse_run_line(int argc, char **argv, struct ab_spec *spec)
{
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "latency"))
			spec->latency = true;
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "measure"))
			snprintf(spec->measure, sizeof(spec->measure), "%s", argv[i + 1]);
		else if (!strcmp(argv[i], "workers"))
			spec->workers = strtoul(argv[i + 1], NULL, 0);
	}
	return 0;
}

/* Set up a variant's topology in this process: the script up to its first run. */
static int ab_setup(const char *script, const char *knob, struct ab_spec *spec)
{
	char *line = NULL, *argv[SCRIPT_MAX_ARGS], *dup;
	size_t cap = 0;
	int ret = 0, argc;
	unsigned int lineno = 0;
	FILE *f;

	f = fopen(script, "r");
	if (!f) {
		fprintf(stderr, "uxdp ab: %s: %s\n", script, strerror(errno));
		return EXIT_USAGE;
	}
	dup = strdup(script);
	script_dir = dup ? dirname(dup) : ".";
	spec->workers = 1;
	while (!ret && getline(&line, &cap, f) >= 0) {
		lineno++;
		argc = tokenize(line, argv, SCRIPT_MAX_ARGS);
		if (argc < 0) {
			fprintf(stderr, "uxdp ab: %s:%u: bad line\n", script, lineno);
			ret = EXIT_USAGE;
		} else if (!argc || !strcmp(argv[0], "stats")) {
			continue;
		} else if (!strcmp(argv[0], "run")) {
			parse_run_line(argc - 1, argv + 1, spec);
			break;
		} else if (!strcmp(argv[0], "snmp") || !strcmp(argv[0], "ntable")) {
			continue;	/* reports, like stats */
		} else {
			ret = script_dispatch(argc, argv);
		}
		if (ret)
			fprintf(stderr, "uxdp ab: %s:%u: set-up line failed\n", script, lineno);
	}
	free(line);
	fclose(f);
	if (!ret && *knob) {
		char buf[256], *kv[SCRIPT_MAX_ARGS + 1];
		int kc;

		snprintf(buf, sizeof(buf), "%s", knob);
		kv[0] = "set";
		kc = tokenize(buf, kv + 1, SCRIPT_MAX_ARGS);
		ret = kc < 1 ? EXIT_USAGE : call_table(iplink_cmds, kc + 1, kv, "link");
		if (ret)
			fprintf(stderr, "uxdp ab: 'link set %s' failed\n", knob);
	}
	if (!ret && (!spec->measure[0] || uxdp_link_ifindex(spec->measure) < 0)) {
		fprintf(stderr, "uxdp ab: %s: its first 'run' line must name a device with 'measure DEV'\n",
			script);
		ret = EXIT_USAGE;
	}
	return ret;
}

static void ab_teardown(void)
{
	uxdp_link_del_all();
	script_objects_close();
}

static uint64_t cpu_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One round: run @opts, the measured device's rate and packet count. */
static int ab_round(const struct ab_spec *spec, uint64_t duration_ns, uint64_t count,
		    struct ab_sample *smp)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = spec->workers,
				   .duration_ns = duration_ns, .count = count };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	uint64_t ns = 0, proc0, proc1, self0, self1, cpu;
	int ret;

	uxdp_link_stats_reset();
	if (spec->latency && uxdp_xdpgeneric_latency(true))
		return -ENOMEM;
	/*
	 * The workers' CPU time: the process's (which keeps that of joined
	 * threads) less this control thread's, which sleeps while they run.
	 */
	proc0 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	self0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	ret = uxdp_run(&o, &ns);
	self1 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	proc1 = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	cpu = (proc1 - proc0) - (self1 - self0);
	if (!ret && spec->latency) {
		struct uxdp_latency l = { .sz = sizeof(l) };

		ret = uxdp_xdpgeneric_latency_get(UXDP_LAT_XDPGENERIC_HOOK, &l);
		smp->lat[0] = l.min;
		smp->lat[1] = l.p50;
		smp->lat[2] = l.p90;
		smp->lat[3] = l.p99;
		smp->lat[4] = l.p999;
		smp->lat_count = l.count;
	}
	if (spec->latency)
		uxdp_xdpgeneric_latency(false);
	if (ret)
		return ret;
	ret = uxdp_link_get_info(uxdp_link_ifindex(spec->measure), &li);
	if (ret)
		return ret;
	smp->pkts = li.rx_packets;
	smp->pps = ns ? li.rx_packets / (ns / 1e9) : 0;
	smp->pps_cpu = cpu ? li.rx_packets / (cpu / 1e9) : 0;
	smp->share = ns ? cpu / ((double)ns * (spec->workers ? spec->workers : 1)) : 0;
	return 0;
}

/*
 * The child's loop:
 * "run\n" -> "PPS PPS_CPU SHARE PACKETS LATCOUNT MIN P50 P90 P99 P999\n"
 * (or "error ...\n"), EOF -> exit.
 */
static void __attribute__((noreturn)) ab_child(struct ab_variant *v, int in, int out,
						double secs)
{
	struct ab_spec spec = { 0 };
	FILE *rd = fdopen(in, "r"), *wr = fdopen(out, "w");
	char cmd[32];
	int ret;

	json_output = false;
	quiet = true;
	ret = ab_setup(v->script, v->knob, &spec);
	if (metric == AB_P50 || metric == AB_P99)
		spec.latency = true;
	fprintf(wr, ret ? "error setup\n" : "ready\n");
	fflush(wr);
	while (!ret && fgets(cmd, sizeof(cmd), rd)) {
		struct ab_sample smp = { 0 };
		int err, tries = 0;

		/*
		 * On a loaded machine a short round may end before the workers
		 * were scheduled at all: run it again (bounded) rather than
		 * report a round with no packets.
		 */
		do
			err = ab_round(&spec, (uint64_t)(secs * 1e9), 0, &smp);
		while (!err && !(smp.pkts && smp.pps_cpu > 0) && ++tries < AB_ROUND_TRIES);

		if (err)
			fprintf(wr, "error %s\n", strerror(-err));
		else
			fprintf(wr, "%.3f %.3f %.4f %" PRIu64 " %" PRIu64 " %.0f %.0f %.0f %.0f %.0f\n",
				smp.pps, smp.pps_cpu, smp.share, smp.pkts, smp.lat_count, smp.lat[0], smp.lat[1], smp.lat[2],
				smp.lat[3], smp.lat[4]);
		fflush(wr);
	}
	ab_teardown();
	_exit(ret ? EXIT_USAGE : 0);
}

static int ab_spawn(struct ab_variant *v, double secs)
{
	int down[2], up[2];
	char line[128];

	if (pipe(down) || pipe(up))
		return -errno;
	fflush(NULL);
	v->pid = fork();
	if (v->pid < 0)
		return -errno;
	if (!v->pid) {
		/* earlier children's pipes are closed by their FILEs' owner: drop ours */
		for (unsigned int i = 0; i < nr_variants; i++) {
			if (variants[i].to)
				close(fileno(variants[i].to));
			if (variants[i].from)
				close(fileno(variants[i].from));
		}
		close(down[1]);
		close(up[0]);
		ab_child(v, down[0], up[1], secs);
	}
	close(down[0]);
	close(up[1]);
	v->to = fdopen(down[1], "w");
	v->from = fdopen(up[0], "r");
	if (!v->to || !v->from)
		return -ENOMEM;
	if (!fgets(line, sizeof(line), v->from) || strncmp(line, "ready", 5))
		return -EINVAL;
	return 0;
}

/*
 * One round of @v: its metric value in *@val; for throughput the other
 * throughput metric in *@alt and the workers' CPU share in *@share; its
 * latency quantiles in @lat if non-NULL.
 */
static int ab_ask(struct ab_variant *v, double *val, double *alt, double *share, double *lat)
{
	struct ab_sample smp = { 0 };
	char line[256];

	if (fputs("run\n", v->to) < 0 || fflush(v->to))
		return -EIO;
	if (!fgets(line, sizeof(line), v->from))
		return -EIO;
	if (sscanf(line, "%lf %lf %lf %" SCNu64 " %" SCNu64 " %lf %lf %lf %lf %lf", &smp.pps,
		   &smp.pps_cpu, &smp.share, &smp.pkts, &smp.lat_count, &smp.lat[0], &smp.lat[1],
		   &smp.lat[2], &smp.lat[3], &smp.lat[4]) != 10) {
		fprintf(stderr, "uxdp ab: %s: %s", v->name, line);
		return -EIO;
	}
	if (!smp.pkts) {
		fprintf(stderr, "uxdp ab: %s: nothing reached the measured device\n", v->name);
		return -EIO;
	}
	if (share)
		*share = smp.share;
	if (metric_tput(metric)) {
		if (!(smp.pps_cpu > 0)) {
			fprintf(stderr, "uxdp ab: %s: no worker CPU time measured\n", v->name);
			return -EIO;
		}
		*val = metric == AB_MPPS ? smp.pps : smp.pps_cpu;
		if (alt)
			*alt = metric == AB_MPPS ? smp.pps_cpu : smp.pps;
		return 0;
	}
	if (!smp.lat_count) {
		fprintf(stderr, "uxdp ab: %s: no latency samples: p50/p99 are the generic XDP hook's "
			"(link set dev DEV xdpgeneric obj F)\n", v->name);
		return -EIO;
	}
	*val = metric == AB_P50 ? smp.lat[1] : smp.lat[3];
	if (lat)
		memcpy(lat, smp.lat, sizeof(smp.lat));
	return 0;
}

static void ab_reap(void)
{
	for (unsigned int i = 0; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];

		if (v->to)
			fclose(v->to);
		if (v->from)
			fclose(v->from);
		v->to = v->from = NULL;
		if (v->pid > 0)
			waitpid(v->pid, NULL, 0);
		v->pid = 0;
	}
}

/* ---- insns: callgrind ------------------------------------------------------ */

/* `uxdp ab --count N SCRIPT [--set KNOB]`: one counted run, prints "packets P" */
static int ab_count_run(const char *script, const char *knob, uint64_t count)
{
	struct ab_spec spec = { 0 };
	struct ab_sample smp = { 0 };
	int ret;

	ret = ab_setup(script, knob ? knob : "", &spec);
	if (!ret) {
		spec.workers = 1;
		spec.latency = false;
		ret = ab_round(&spec, 0, count, &smp) ? 1 : 0;
	}
	if (!ret)
		printf("packets %" PRIu64 "\n", smp.pkts);
	ab_teardown();
	return ret;
}

static int callgrind_once(struct ab_variant *v, uint64_t count, uint64_t *ir, uint64_t *pkts)
{
	char self[PATH_MAX], out[] = "/tmp/uxdp-ab-callgrind-XXXXXX", cmd[PATH_MAX * 3], line[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *p, *f;
	int fd, ret = -EIO;

	if (n <= 0)
		return -errno;
	self[n] = 0;
	fd = mkstemp(out);
	if (fd < 0)
		return -errno;
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "valgrind -q --tool=callgrind --callgrind-out-file='%s' '%s' ab --count %" PRIu64
		 " '%s'%s%s%s", out, self, count, v->script, *v->knob ? " --set '" : "", v->knob,
		 *v->knob ? "'" : "");
	p = popen(cmd, "r");
	if (!p)
		goto out;
	*pkts = 0;
	while (fgets(line, sizeof(line), p))
		sscanf(line, "packets %" SCNu64, pkts);
	if (pclose(p) != 0 || !*pkts)
		goto out;
	f = fopen(out, "r");
	if (!f)
		goto out;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "summary: %" SCNu64, ir) == 1 || sscanf(line, "totals: %" SCNu64, ir) == 1)
			ret = 0;
	fclose(f);
out:
	unlink(out);
	return ret;
}

static int ab_insns(uint64_t count)
{
	if (system("valgrind --version >/dev/null 2>&1")) {
		p_err("--metric insns needs valgrind (scripts/deps.sh installs it)");
		return 1;
	}
	for (unsigned int i = 0; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];

		if (!json_output && !quiet)
			fprintf(stderr, "  callgrind: %s ...\n", v->name);
		if (callgrind_once(v, AB_INSNS_BASE, &v->ir[0], &v->pkts[0]) ||
		    callgrind_once(v, AB_INSNS_BASE + count, &v->ir[1], &v->pkts[1]) ||
		    v->pkts[1] <= v->pkts[0]) {
			p_err("%s: the callgrind runs failed (run 'uxdp ab --count %d %s' to see why)",
			      v->name, AB_INSNS_BASE, v->script);
			return 1;
		}
		v->insns_pp = (double)(v->ir[1] - v->ir[0]) / (v->pkts[1] - v->pkts[0]);
		if (i) {
			double d = v->insns_pp - variants[0].insns_pp;

			snprintf(v->verdict, sizeof(v->verdict),
				 fabs(d) < 0.05 ? "%s runs the same instructions per packet" :
				 "%s runs %.1f %s instructions per packet (%+.1f %%)", v->name, fabs(d),
				 d > 0 ? "more" : "fewer", d / variants[0].insns_pp * 100);
		}
	}
	return 0;
}

/* ---- output -------------------------------------------------------------- */

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

struct ab_run {
	enum ab_metric metric;
	double secs, precision, elapsed, t0;
	unsigned int rounds, max_rounds;
	unsigned int respawn;		/* rounds per generation of processes; 0: one */
	unsigned int warmup;		/* warm-up rounds per variant and generation */
	unsigned int generations;
	unsigned int *gen;		/* per round: its generation */
	unsigned int *blk;		/* per round: its block, two generations (gen / 2) */
	double trim;			/* of the paired log ratios, each end */
	double max_time;		/* stop after this many seconds (0: no limit) */
	bool stopped_early;
	uint64_t count;
	const char *vary;
};

static unsigned int ab_used(const struct ab_run *r, unsigned int n);
static unsigned int ab_blocks(const struct ab_run *r, unsigned int n);
static unsigned int ab_units(const struct ab_run *r, unsigned int n);

/* A CI bound, or null when there are too few units to print one. */
static void json_bound(FILE *f, const char *key, double v, bool enough)
{
	if (enough)
		fprintf(f, ",\"%s\":%.6f", key, v);
	else
		fprintf(f, ",\"%s\":null", key);
}

static void write_json(FILE *f, const struct ab_run *r)
{
	fprintf(f, "{\"metric\":\"%s\",\"trim\":%g,\"unit\":\"%s\",", metric_names[r->metric], r->trim,
		r->metric == AB_INSNS ? "insns/packet" : UNIT);
	if (r->metric == AB_INSNS)
		fprintf(f, "\"count\":%" PRIu64 ",", r->count);
	else
		fprintf(f, "\"time_s\":%g,\"rounds\":%u,\"max_rounds\":%u,\"warmup_rounds\":%u,"
			   "\"precision\":%g,\"stopped_early\":%s,\"confidence\":0.95,"
			   "\"resamples\":%d,\"seed\":%llu,",
			r->secs, r->rounds, r->max_rounds, r->warmup, r->precision,
			r->stopped_early ? "true" : "false", STATS_RESAMPLES,
			(unsigned long long)STATS_SEED);
	if (r->metric != AB_INSNS) {
		fprintf(f, "\"respawn\":%u,\"generations\":%u,\"analysed_rounds\":%u,"
			"\"blocks\":%u,\"units\":%u,\"min_units\":%u,\"generation\":[", r->respawn,
			r->generations, ab_used(r, r->rounds), ab_blocks(r, r->rounds),
			ab_units(r, ab_used(r, r->rounds)),
			r->respawn ? STATS_MIN_BLOCKS : STATS_MIN_PAIRS);
		for (unsigned int k = 0; k < r->rounds; k++)
			fprintf(f, "%s%u", k ? "," : "", r->gen[k]);
		fputs("],", f);
	}
	fprintf(f, "\"elapsed_s\":%.1f,\"vary\":", r->elapsed);
	if (r->vary)
		json_str(f, r->vary);
	else
		fputs("null", f);
	fputs(",\"variants\":[", f);
	for (unsigned int i = 0; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		json_str(f, v->name);
		fputs(",\"script\":", f);
		json_str(f, v->script);
		fputs(",\"set\":", f);
		json_str(f, v->knob);
		if (r->metric == AB_INSNS) {
			fprintf(f, ",\"insns_per_packet\":%.3f,\"ir\":[%" PRIu64 ",%" PRIu64
				   "],\"packets\":[%" PRIu64 ",%" PRIu64 "]",
				v->insns_pp, v->ir[0], v->ir[1], v->pkts[0], v->pkts[1]);
		} else {
			fprintf(f, ",\"warmup\":%.6f,\"values\":[", v->warm / SCALE);
			for (unsigned int k = 0; k < v->n; k++)
				fprintf(f, "%s%.6f", k ? "," : "", v->v[k] / SCALE);
			fprintf(f, "],\"median\":%.6f,\"q1\":%.6f,\"q3\":%.6f,\"min\":%.6f,"
				   "\"max\":%.6f,\"mean\":%.6f,\"sd\":%.6f,\"rsd\":%.6f,"
				   "\"mean_ci\":[%.6f,%.6f]",
				v->sum.median / SCALE, v->sum.q1 / SCALE, v->sum.q3 / SCALE, v->sum.min / SCALE,
				v->sum.max / SCALE, v->sum.mean / SCALE, v->sum.sd / SCALE, v->sum.rsd,
				v->mean_ci.lo / SCALE, v->mean_ci.hi / SCALE);
		}
		if (metric_tput(r->metric)) {
			fprintf(f, ",\"%s\":[", r->metric == AB_MPPS ? "mpps_cpu" : "mpps");
			for (unsigned int k = 0; k < v->n; k++)
				fprintf(f, "%s%.6f", k ? "," : "", v->alt[k] / SCALE);
			fputs("],\"cpu_share\":[", f);
			for (unsigned int k = 0; k < v->n; k++)
				fprintf(f, "%s%.4f", k ? "," : "", v->share[k]);
			fputs("]", f);
		}
		if (i && metric_tput(r->metric)) {
			fprintf(f, ",\"%s_ratio\":{\"est\":%.6f", r->metric == AB_MPPS ? "mpps_cpu" : "mpps",
				v->alt_ratio.est);
			json_bound(f, "lo", v->alt_ratio.lo, v->enough);
			json_bound(f, "hi", v->alt_ratio.hi, v->enough);
			fprintf(f, ",\"significant\":%s,\"sd_log\":%.6f}",
				v->enough && stats_ci_significant(&v->alt_ratio) ? "true" : "false",
				v->alt_ratio.sd);
		}
		if (i && r->metric != AB_INSNS) {
			fprintf(f, ",\"ratio\":{\"est\":%.6f", v->ratio.est);
			json_bound(f, "lo", v->ratio.lo, v->enough);
			json_bound(f, "hi", v->ratio.hi, v->enough);
			fprintf(f, ",\"significant\":%s,\"enough_data\":%s,\"units\":%u,"
				   "\"sd_log\":%.6f,\"rounds_for_0.5pct\":%u}",
				v->enough && stats_ci_significant(&v->ratio) ? "true" : "false",
				v->enough ? "true" : "false", ab_units(r, v->sum.n), v->ratio.sd,
				stats_rounds_for(v->ratio.sd, 0.005));
			fprintf(f, ",\"time\":{\"est\":%.6f", v->time.est);
			json_bound(f, "lo", v->time.lo, v->enough);
			json_bound(f, "hi", v->time.hi, v->enough);
			fprintf(f, ",\"speedup\":%.4f},\"block_estimates\":[", 1 / (1 + v->time.est));
			for (unsigned int k = 0; k < v->nr_blk; k++)
				fprintf(f, "%s%.6f", k ? "," : "", v->blk_est[k]);
			fputs("]", f);
		}
		if (i) {
			fputs(",\"verdict\":", f);
			json_str(f, v->verdict);
		}
		fputs("}", f);
	}
	fputs("]}\n", f);
}

/*
 * What the statistics rest on, in the words summary.md and the table use;
 * the same numbers as data.json's rounds, analysed_rounds and blocks.
 */
static const char *ab_counts(const struct ab_run *r)
{
	static char buf[256];
	unsigned int nu = ab_used(r, r->rounds), nb = ab_blocks(r, r->rounds);

	if (!r->respawn)
		snprintf(buf, sizeof(buf), "analysed: %u of %u rounds per variant, resampled as "
			 "single pairs (one process per variant)", nu, r->rounds);
	else if (nb)
		snprintf(buf, sizeof(buf), "analysed: %u of %u rounds per variant, %u whole block%s "
			 "of two generations (%u generation%s run)", nu, r->rounds, nb,
			 nb == 1 ? "" : "s", r->generations, r->generations == 1 ? "" : "s");
	else
		snprintf(buf, sizeof(buf), "analysed: %u of %u rounds per variant, no whole block "
			 "of two generations (%u generation%s run)", nu, r->rounds, r->generations,
			 r->generations == 1 ? "" : "s");
	return buf;
}

static void print_text(FILE *f, const struct ab_run *r, bool md)
{
	const char *bar = md ? "|" : "";

	if (r->metric == AB_INSNS) {
		fprintf(f, md ? "| variant | insns/packet | Ir (base) | Ir (base + N) | packets |\n"
				"|---|---:|---:|---:|---:|\n" :
				"%-24s %14s\n", "variant", "insns/packet");
		for (unsigned int i = 0; i < nr_variants; i++) {
			struct ab_variant *v = &variants[i];

			if (md)
				fprintf(f, "| %s | %.2f | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n",
					v->name, v->insns_pp, v->ir[0], v->ir[1], v->pkts[1] - v->pkts[0]);
			else
				fprintf(f, "%-24s %14.2f\n", v->name, v->insns_pp);
		}
	} else {
		if (md)
			fprintf(f, "| variant | rounds | median %s | IQR | spread (rsd) | mean [95 %% CI] | time vs first [95 %% CI] |\n"
				   "|---|---:|---:|---:|---:|---:|---:|\n", metric == AB_MPPS ? "Mpps" : metric == AB_MPPS_CPU ? "Mpps/CPU-s" :
				   metric == AB_P50 ? "p50 ns" : "p99 ns");
		else
			fprintf(f, "%-24s %6s %10s %17s %7s  %s\n", "variant", "rounds", "median",
				metric_tput(metric) ? "IQR (M)" : "IQR (ns)", "rsd",
				"time vs first [95% CI]");
		for (unsigned int i = 0; i < nr_variants; i++) {
			struct ab_variant *v = &variants[i];
			char vs[96] = "-";

			if (i && v->enough)
				snprintf(vs, sizeof(vs), "%+.2f %% [%+.2f, %+.2f]", v->time.est * 100,
					 v->time.lo * 100, v->time.hi * 100);
			else if (i)
				snprintf(vs, sizeof(vs), "%+.2f %% [not enough data]", v->time.est * 100);
			if (md)
				fprintf(f, "| %s | %u | %.3f | %.3f–%.3f | %.2f %% | %.3f [%.3f, %.3f] | %s |\n",
					v->name, v->sum.n, v->sum.median / SCALE, v->sum.q1 / SCALE,
					v->sum.q3 / SCALE, v->sum.rsd * 100, v->mean_ci.est / SCALE,
					v->mean_ci.lo / SCALE, v->mean_ci.hi / SCALE, vs);
			else
				fprintf(f, "%-24s %6u %10.3f %8.3f-%-8.3f %6.2f%%  %s\n", v->name, v->sum.n,
					v->sum.median / SCALE, v->sum.q1 / SCALE, v->sum.q3 / SCALE,
					v->sum.rsd * 100, vs);
		}
	}
	(void)bar;
	if (r->metric != AB_INSNS)
		fprintf(f, "%s%s\n", md ? "\n" : "", ab_counts(r));
	for (unsigned int i = 1; i < nr_variants; i++)
		fprintf(f, "%s%s\n", md ? "\n**Verdict:** " : "verdict: ", variants[i].verdict);
	if (r->metric == AB_INSNS)
		return;
	for (unsigned int i = 1; i < nr_variants; i++) {
		struct stats_ci a;

		/* the other rate, in time as well: per packet of the workers' CPU, or of the wall */
		stats_ci_time(&variants[i].alt_ratio, true, &a);
		if (metric_tput(r->metric) && a.n && variants[i].enough)
			fprintf(f, "%s%s per %s: time %+.2f %% [%+.2f, %+.2f], round-to-round sd %.2f %%\n",
				md ? "\n" : "", variants[i].name,
				r->metric == AB_MPPS ? "CPU-second of the workers" : "wall-clock second",
				a.est * 100, a.lo * 100, a.hi * 100, variants[i].alt_ratio.sd * 100);
		fprintf(f, "%s%s: round-to-round sd of the ratio %.2f %%\n", md ? "\n" : "",
			variants[i].name, variants[i].ratio.sd * 100);
	}
}

/* ratio.svg: per variant against the first, the time change per block and overall with its CI */
static int ab_plot_ratio(FILE *f, const struct ab_run *r)
{
	static double pct[AB_MAX_VARIANTS][AB_MAX_ROUNDS];
	struct svg_series s[AB_MAX_VARIANTS];
	unsigned int nr = 0;

	for (unsigned int i = 1; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];

		/* per block, as a time change in % like the verdict */
		for (unsigned int k = 0; k < v->nr_blk; k++) {
			struct stats_ci b = { .est = v->blk_est[k], .lo = v->blk_est[k],
					      .hi = v->blk_est[k] }, t;

			stats_ci_time(&b, metric_tput(r->metric), &t);
			pct[nr][k] = t.est * 100;
		}
		s[nr] = (struct svg_series){ .name = v->name, .v = pct[nr], .n = v->nr_blk,
					     .est = v->time.est * 100,
					     .lo = v->enough ? v->time.lo * 100 : NAN,
					     .hi = v->enough ? v->time.hi * 100 : NAN };
		nr++;
	}
	return svg_plot_ratio(f, r->respawn ?
			      "Time vs the first variant: paired ratio per block, 95 % CI" :
			      "Time vs the first variant: paired ratio per round, 95 % CI",
			      "time vs first, %", variants[0].name, s, nr);
}

static int write_report(const char *dir, const struct ab_run *r)
{
	const char *main_svg = metric_tput(r->metric) ? "throughput.svg" : "latency.svg";
	static double qv[AB_MAX_VARIANTS][AB_LAT_Q];
	struct svg_series s[AB_MAX_VARIANTS];
	char path[PATH_MAX];
	FILE *f;
	int ret = 0;

	/* mkdir -p */
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; ; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0755) && errno != EEXIST) {
			p_err("%s: %s", path, strerror(errno));
			return 1;
		}
		*p = c;
		if (!c)
			break;
	}
	snprintf(path, sizeof(path), "%s/data.json", dir);
	f = fopen(path, "w");
	if (!f)
		goto err;
	write_json(f, r);
	if (fclose(f))
		goto err;
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	f = fopen(path, "w");
	if (!f)
		goto err;
	fprintf(f, "# uxdp ab: %s\n\n", metric_names[r->metric]);
	for (unsigned int i = 0; i < nr_variants; i++)
		fprintf(f, "- **%s**: `%s`%s%s%s\n", variants[i].name, variants[i].script,
			*variants[i].knob ? " with `link set " : "", variants[i].knob,
			*variants[i].knob ? "`" : "");
	if (r->metric == AB_INSNS)
		fprintf(f, "\nInstructions per packet under callgrind: (Ir of a run of %d + %" PRIu64
			   " frames − Ir of a run of %d) / packet difference at the measured device.\n\n",
			AB_INSNS_BASE, r->count, AB_INSNS_BASE);
	else
		fprintf(f, "\n%u rounds of %g s per variant, interleaved, in %u generation%s of processes "
			   "(%u warm-up rounds each, thrown away)%s; %.0f s in all. Metric: %s. "
			   "CI: paired log ratios, %g %% trimmed at each end, percentile bootstrap "
			   "over %s (%d resamples, fixed seed), 95 %%, printed from %u %s on.\n\n",
			r->rounds, r->secs, r->generations, r->generations == 1 ? "" : "s", r->warmup,
			r->stopped_early ? " (stopped early: precision reached)" : "",
			r->elapsed, r->metric == AB_MPPS_CPU ?
			"packets per CPU-second of the worker threads" : r->metric == AB_MPPS ?
			"packets per wall-clock second" : "generic XDP hook latency",
			r->trim * 100, r->respawn ?
			"blocks of two generations (one spawned in each order)" : "single pairs",
			STATS_RESAMPLES, r->respawn ? STATS_MIN_BLOCKS : STATS_MIN_PAIRS,
			r->respawn ? "blocks" : "pairs");
	print_text(f, r, true);
	if (r->metric != AB_INSNS)
		fprintf(f, "\n![%s](%s)\n\n![paired ratio](ratio.svg)\n\n![rounds](rounds-cdf.svg)\n%s",
			main_svg, main_svg,
			metric_tput(r->metric) ? "" : "\n![latency CDF](latency-cdf.svg)\n");
	if (fclose(f))
		goto err;
	if (r->metric == AB_INSNS)
		return 0;
	for (unsigned int i = 0; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];

		for (unsigned int k = 0; k < v->n; k++)
			v->v[k] /= SCALE;
		s[i] = (struct svg_series){ v->name, v->v, v->n, v->mean_ci.est / SCALE,
					    v->mean_ci.lo / SCALE, v->mean_ci.hi / SCALE };
	}
	snprintf(path, sizeof(path), "%s/%s", dir, main_svg);
	f = fopen(path, "w");
	if (!f)
		goto err;
	if (metric_tput(r->metric))
		ret = svg_plot_ci(f, r->metric == AB_MPPS ?
				  "Throughput per variant (95 % CI of the mean)" :
				  "Throughput per CPU-second of the workers (95 % CI of the mean)",
				  UNIT, s, nr_variants);
	else
		ret = svg_plot_ci(f, r->metric == AB_P50 ?
				  "Generic XDP hook p50 latency per variant (95 % CI of the mean)" :
				  "Generic XDP hook p99 latency per variant (95 % CI of the mean)",
				  "ns", s, nr_variants);
	if (fclose(f) || ret)
		goto err;
	snprintf(path, sizeof(path), "%s/ratio.svg", dir);
	f = fopen(path, "w");
	if (!f)
		goto err;
	ret = ab_plot_ratio(f, r);
	if (fclose(f) || ret)
		goto err;
	snprintf(path, sizeof(path), "%s/rounds-cdf.svg", dir);
	f = fopen(path, "w");
	if (!f)
		goto err;
	ret = svg_plot_cdf(f, "Distribution of the rounds",
			   r->metric == AB_MPPS ? "Mpps per round" :
			   r->metric == AB_MPPS_CPU ? "Mpps/CPU-s per round" : "ns per round", s, nr_variants);
	if (fclose(f) || ret)
		goto err;
	for (unsigned int i = 0; i < nr_variants; i++)
		for (unsigned int k = 0; k < variants[i].n; k++)
			variants[i].v[k] *= SCALE;
	if (metric_tput(r->metric))
		return 0;
	/* latency CDF: per quantile, its median over the rounds */
	for (unsigned int i = 0; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];
		double col[AB_MAX_ROUNDS];

		for (unsigned int q = 0; q < AB_LAT_Q; q++) {
			for (unsigned int k = 0; k < v->n; k++)
				col[k] = v->lat[k * AB_LAT_Q + q];
			qv[i][q] = stats_median(col, v->n);
		}
		s[i] = (struct svg_series){ .name = v->name, .v = qv[i], .n = AB_LAT_Q };
	}
	snprintf(path, sizeof(path), "%s/latency-cdf.svg", dir);
	f = fopen(path, "w");
	if (!f)
		goto err;
	ret = svg_plot_quantiles(f, "Generic XDP hook latency (median over rounds of min, p50, p90, p99, p99.9)",
				 "ns", s, nr_variants, lat_probs);
	if (fclose(f) || ret)
		goto err;
	return 0;
err:
	p_err("%s: %s", path, strerror(errno ? errno : EIO));
	return 1;
}

/* ---- the driver ------------------------------------------------------------ */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Rounds the ratio uses out of @n: with generations, whole blocks of two
 * (one spawned A first, one B first: the order the processes were forked in
 * was worth up to 5 % in one A/B run, alternating generation by generation)
 * once there are two; the rounds of an unfinished block are left out.
 */
static unsigned int ab_used(const struct ab_run *r, unsigned int n)
{
	unsigned int blk = 2 * r->respawn;

	if (!r->respawn || n < blk)
		return n;
	return n / blk * blk;
}

/* Whole blocks of two generations in @n rounds (0 without generations). */
static unsigned int ab_blocks(const struct ab_run *r, unsigned int n)
{
	return r->respawn ? n / (2 * r->respawn) : 0;
}

/* Units the ratio's bootstrap resamples: blocks, or single pairs. */
static unsigned int ab_units(const struct ab_run *r, unsigned int n)
{
	return r->respawn ? ab_blocks(r, n) : n;
}

static bool ab_enough(const struct ab_run *r, unsigned int n)
{
	return ab_units(r, n) >= (r->respawn ? STATS_MIN_BLOCKS : STATS_MIN_PAIRS);
}

/* The paired estimate of @v per block (per round without generations), for the plot. */
static void ab_block_estimates(const struct ab_run *r, struct ab_variant *v, unsigned int nu)
{
	unsigned int len = r->respawn && ab_blocks(r, nu) ? 2 * r->respawn : 1;

	v->nr_blk = 0;
	for (unsigned int k = 0; k + len <= nu; k += len)
		v->blk_est[v->nr_blk++] = stats_paired_est(variants[0].v + k, v->v + k, len,
							   len > 1 ? r->trim : 0);
}

/*
 * Ratios against variant 0; true if every CI is tighter than @precision.
 * @final: the report's analysis; the checks during the run (!@final) use
 * fewer resamples and skip the secondary metric, to keep the rounds going.
 */
static bool ab_analyse(const struct ab_run *r, double precision, bool final)
{
	const unsigned int *blk = r->respawn ? r->blk : NULL;
	unsigned int resamples = final ? STATS_RESAMPLES : STATS_RESAMPLES / 4;
	unsigned int nu = ab_used(r, variants[0].n);
	bool tight = true, enough = ab_enough(r, nu);

	/* every figure, per variant and paired, from the same nu rounds */
	for (unsigned int i = 0; i < nr_variants; i++) {
		struct ab_variant *v = &variants[i];

		stats_summarize(v->v, nu, &v->sum);
		if (final && stats_mean_ci(v->v, nu, STATS_RESAMPLES, STATS_SEED, &v->mean_ci))
			v->mean_ci = (struct stats_ci){ .n = nu, .est = v->sum.mean, .lo = v->sum.mean,
							.hi = v->sum.mean };
		if (!i)
			continue;
		v->enough = false;
		if (stats_paired_ci(variants[0].v, v->v, blk, nu, r->trim, resamples,
				    STATS_SEED, &v->ratio)) {
			snprintf(v->verdict, sizeof(v->verdict),
				 "no ratio: a round of %s or %s measured 0%s", variants[0].name, v->name,
				 metric_tput(metric) ? "" : " ns (below the TSC sampling's resolution)");
			tight = false;
			continue;
		}
		stats_ci_time(&v->ratio, metric_tput(metric), &v->time);
		v->enough = enough;
		if (final)
			ab_block_estimates(r, v, nu);
		if (enough)
			stats_verdict(v->verdict, sizeof(v->verdict), v->name, &v->ratio,
				      metric_tput(metric));
		else if (r->respawn)
			snprintf(v->verdict, sizeof(v->verdict),
				 "not enough data: run longer (%u whole block%s of two generations; "
				 "a 95 %% CI needs %u)", ab_blocks(r, nu), ab_blocks(r, nu) == 1 ? "" : "s",
				 STATS_MIN_BLOCKS);
		else
			snprintf(v->verdict, sizeof(v->verdict),
				 "not enough data: run longer (%u pairs of rounds; a 95 %% CI needs %u)",
				 nu, STATS_MIN_PAIRS);
		tight &= enough && stats_ci_halfwidth(&v->ratio) < precision;
		if (final && metric_tput(metric) &&
		    stats_paired_ci(variants[0].alt, v->alt, blk, nu, r->trim, STATS_RESAMPLES,
				    STATS_SEED, &v->alt_ratio))
			v->alt_ratio = (struct stats_ci){ 0 };
	}
	return tight;
}

/*
 * A generation: a fresh process per variant (spawned in alternating order)
 * and its warm-up rounds, thrown away.
 */
static int ab_generation(struct ab_run *r)
{
	unsigned int g = r->generations++;
	int ret;

	ab_reap();
	for (unsigned int j = 0; j < nr_variants; j++) {
		struct ab_variant *v = &variants[g & 1 ? nr_variants - 1 - j : j];

		ret = ab_spawn(v, r->secs);
		if (ret) {
			p_err("%s: set-up failed (see above)", v->name);
			return 1;
		}
	}
	for (unsigned int w = 0; w < r->warmup; w++)
		for (unsigned int i = 0; i < nr_variants; i++)
			if (ab_ask(&variants[i], &variants[i].warm, NULL, NULL, NULL))
				return 1;
	return 0;
}

/*
 * Is a --precision check due after this round? With generations, at the end
 * of each from the AB_MIN_GENERATIONS-th on: the CI resamples generations,
 * and a bootstrap over a handful of them is far too narrow (an A/A run
 * stopped after 3 generations with "B is 0.4 % faster (95 % CI 0.2-0.6 %)").
 * Without, after every round from the tenth, then every 5 % of the rounds
 * so far (a bootstrap costs resamples x rounds).
 */
static bool ab_check_due(const struct ab_run *r)
{
	unsigned int n = r->rounds + 1;

	if (r->respawn)
		return n % (2 * r->respawn) == 0 && n / r->respawn >= AB_MIN_GENERATIONS;
	return n >= AB_MIN_ROUNDS && (n < 100 || n % (n / 20) == 0);
}

static int ab_rounds(struct ab_run *r)
{
	for (r->rounds = 0; r->rounds < r->max_rounds; r->rounds++) {
		if ((!r->rounds || (r->respawn && r->rounds % r->respawn == 0)) && ab_generation(r))
			return 1;
		r->gen[r->rounds] = r->generations - 1;
		r->blk[r->rounds] = (r->generations - 1) / 2;
		/* A B, then B A: a "first in the round" effect hits every variant alike */
		for (unsigned int j = 0; j < nr_variants; j++) {
			unsigned int i = r->rounds & 1 ? nr_variants - 1 - j : j;
			struct ab_variant *v = &variants[i];

			if (ab_ask(v, &v->v[v->n], &v->alt[v->n], &v->share[v->n],
				   v->lat + v->n * AB_LAT_Q))
				return 1;
			v->n++;
		}
		if (!json_output && !quiet && (r->secs >= 0.2 || (r->rounds + 1) % 50 == 0))
			fprintf(stderr, "\r  round %u/%u", r->rounds + 1, r->max_rounds);
		if (r->precision > 0 && ab_check_due(r) && ab_analyse(r, r->precision, false)) {
			r->rounds++;
			r->stopped_early = true;
			break;
		}
		if (r->max_time > 0 && now_s() - r->t0 >= r->max_time) {
			r->rounds++;
			break;
		}
	}
	if (!json_output && !quiet)
		fprintf(stderr, "\r%30s\r", "");
	if (r->rounds < 2) {
		p_err("need at least 2 rounds");
		return EXIT_USAGE;
	}
	ab_analyse(r, r->precision, true);
	return 0;
}

/* "dev veth1 xdp_batch 0,8,16": one variant per value */
static int parse_vary(const char *script, const char *vary)
{
	char buf[256], *last, *val, *save = NULL, *knob_name;

	snprintf(buf, sizeof(buf), "%s", vary);
	last = strrchr(buf, ' ');
	if (!last || !strchr(last, ',')) {
		p_err("--vary wants \"dev DEV KNOB V1,V2,...\" (a 'link set' with comma-separated values)");
		return EXIT_USAGE;
	}
	*last++ = 0;
	knob_name = strrchr(buf, ' ');
	knob_name = knob_name ? knob_name + 1 : buf;
	for (val = strtok_r(last, ",", &save); val; val = strtok_r(NULL, ",", &save)) {
		struct ab_variant *v;

		if (nr_variants == AB_MAX_VARIANTS) {
			p_err("at most %d variants", AB_MAX_VARIANTS);
			return EXIT_USAGE;
		}
		v = &variants[nr_variants++];
		v->script = script;
		if ((size_t)snprintf(v->knob, sizeof(v->knob), "%.120s %.60s", buf, val) >= sizeof(v->knob) ||
		    (size_t)snprintf(v->name, sizeof(v->name), "%.30s %.30s", knob_name, val) >= sizeof(v->name)) {
			p_err("--vary: too long");
			return EXIT_USAGE;
		}
	}
	return nr_variants >= 2 ? 0 : EXIT_USAGE;
}

static void name_scripts(void)
{
	for (unsigned int i = 0; i < nr_variants; i++) {
		char buf[PATH_MAX], *b, *dot;

		snprintf(buf, sizeof(buf), "%s", variants[i].script);
		b = basename(buf);
		dot = strrchr(b, '.');
		if (dot && !strcmp(dot, ".uxdp"))
			*dot = 0;
		snprintf(variants[i].name, sizeof(variants[i].name), "%s", b);
	}
	for (unsigned int i = 0; i < nr_variants; i++)
		for (unsigned int k = i + 1; k < nr_variants; k++)
			if (!strcmp(variants[i].name, variants[k].name))
				for (unsigned int j = 0; j < nr_variants; j++)
					snprintf(variants[j].name, sizeof(variants[j].name), "%c", 'A' + j);
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: uxdp ab A.uxdp B.uxdp ... [OPTIONS]\n"
		"       uxdp ab SCRIPT --vary \"dev DEV KNOB V1,V2,...\" [OPTIONS]\n"
		"  --metric M       mpps_cpu (default: packets per CPU-second of the workers) | mpps\n"
		"                   (per wall-clock second) | insns | p50 | p99 (generic XDP hook latency)\n"
		"  --rounds N       rounds per variant at most (default 1000; latency 20)\n"
		"  --time S         seconds per round (default 0.02; latency 1)\n"
		"  --precision P%%   stop once every CI half-width is below P (default: run all rounds)\n"
		"  --max-time S     stop after S seconds in all\n"
		"  --respawn N      fresh processes every N rounds (default: every 1 s of rounds;\n"
		"                   latency: never); the CI resamples these generations\n"
		"  --warmup N       rounds thrown away per process (default: 0.1 s of rounds, >= 1)\n"
		"  --trim P%%        paired ratios cut at each end before averaging (default 25%%)\n"
		"  --count N        frames per callgrind run for --metric insns (default 100000)\n"
		"  --report DIR     write summary.md, data.json and SVG plots\n");
}

int do_ab(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "time", required_argument, NULL, 't' },
		{ "metric", required_argument, NULL, 'm' },
		{ "precision", required_argument, NULL, 'P' },
		{ "report", required_argument, NULL, 'R' },
		{ "vary", required_argument, NULL, 'v' },
		{ "count", required_argument, NULL, 'c' },
		{ "respawn", required_argument, NULL, 'N' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "trim", required_argument, NULL, 'T' },
		{ "max-time", required_argument, NULL, 'M' },
		{ "set", required_argument, NULL, 's' },	/* with --count: one callgrind run */
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct ab_run r = { .metric = AB_MPPS_CPU, .count = 100000, .trim = 0.25, .respawn = UINT_MAX,
			    .warmup = UINT_MAX };
	const char *report = NULL, *set = NULL;
	bool counted = false;
	double t0 = now_s();
	int opt, ret;
	char *end;

	optind = 0;
	argc++;
	argv--;		/* getopt_long wants argv[0] */
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (opt) {
		case 'r':
			r.max_rounds = strtoul(optarg, &end, 0);
			if (*end || r.max_rounds < 2 || r.max_rounds > AB_MAX_ROUNDS) {
				p_err("--rounds: 2..%d", AB_MAX_ROUNDS);
				return EXIT_USAGE;
			}
			break;
		case 't':
			r.secs = strtod(optarg, &end);
			if ((*end && strcmp(end, "s")) || !(r.secs >= 0.01 && r.secs <= 3600)) {
				p_err("--time: seconds, 0.01..3600");
				return EXIT_USAGE;
			}
			break;
		case 'm':
			for (r.metric = 0; r.metric <= AB_MPPS_CPU; r.metric++)
				if (!strcmp(optarg, metric_names[r.metric]))
					break;
			if (r.metric > AB_MPPS_CPU) {
				p_err("--metric: mpps_cpu, mpps, p50, p99 or insns");
				return EXIT_USAGE;
			}
			break;
		case 'P':
			r.precision = strtod(optarg, &end) / 100;
			if ((*end && strcmp(end, "%")) || !(r.precision > 0 && r.precision < 1)) {
				p_err("--precision: a percentage, e.g. 0.5%%");
				return EXIT_USAGE;
			}
			break;
		case 'R':
			report = optarg;
			break;
		case 'v':
			r.vary = optarg;
			break;
		case 'c':
			r.count = strtoull(optarg, &end, 0);
			counted = true;
			if (*end || !r.count) {
				p_err("--count: a number of frames");
				return EXIT_USAGE;
			}
			break;
		case 's':
			set = optarg;
			break;
		case 'N':
			r.respawn = strtoul(optarg, &end, 0);
			if (*end || r.respawn > AB_MAX_ROUNDS) {
				p_err("--respawn: rounds per process, 0..%d (0: never)", AB_MAX_ROUNDS);
				return EXIT_USAGE;
			}
			break;
		case 'T':
			r.trim = strtod(optarg, &end) / 100;
			if ((*end && strcmp(end, "%")) || !(r.trim >= 0 && r.trim < 0.5)) {
				p_err("--trim: a percentage of the paired ratios cut at each end, 0..49%%");
				return EXIT_USAGE;
			}
			break;
		case 'M':
			r.max_time = strtod(optarg, &end);
			if ((*end && strcmp(end, "s")) || !(r.max_time > 0)) {
				p_err("--max-time: seconds");
				return EXIT_USAGE;
			}
			break;
		case 'W':
			r.warmup = strtoul(optarg, &end, 0);
			if (*end || r.warmup > 100) {
				p_err("--warmup: rounds, 0..100");
				return EXIT_USAGE;
			}
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (counted && r.metric != AB_INSNS) {
		/* the callgrind child: one counted run of one script */
		if (argc != 1) {
			p_err("--count without --metric insns runs one script");
			return EXIT_USAGE;
		}
		return ab_count_run(argv[0], set, r.count);
	}
	metric = r.metric;
	/* defaults: short rounds for throughput (lab.md: why), long for latency */
	if (!r.secs)
		r.secs = metric_tput(metric) ? 0.02 : 1;
	if (!r.max_rounds)
		r.max_rounds = metric_tput(metric) ? 1000 : 20;
	if (r.respawn == UINT_MAX)
		r.respawn = metric_tput(metric) ? AB_MAX(5, (unsigned int)ceil(1 / r.secs - 1e-9)) : 0;
	if (r.warmup == UINT_MAX)
		r.warmup = AB_MAX(1, (unsigned int)ceil(0.1 / r.secs - 1e-9));
	r.t0 = t0;
	nr_variants = 0;
	if (r.vary) {
		if (argc != 1) {
			p_err("--vary takes one script");
			return EXIT_USAGE;
		}
		ret = parse_vary(argv[0], r.vary);
		if (ret)
			return ret;
	} else {
		if (argc < 2 || argc > AB_MAX_VARIANTS) {
			usage();
			return EXIT_USAGE;
		}
		for (int i = 0; i < argc; i++)
			variants[nr_variants++].script = argv[i];
		name_scripts();
	}
	for (unsigned int i = 0; i < nr_variants; i++) {
		if (access(variants[i].script, R_OK)) {
			p_err("%s: %s", variants[i].script, strerror(errno));
			return EXIT_USAGE;
		}
		variants[i].v = calloc(r.max_rounds, sizeof(double));
		variants[i].alt = calloc(r.max_rounds, sizeof(double));
		variants[i].share = calloc(r.max_rounds, sizeof(double));
		variants[i].lat = calloc((size_t)r.max_rounds * AB_LAT_Q, sizeof(double));
		variants[i].blk_est = calloc(r.max_rounds, sizeof(double));
		if (!variants[i].v || !variants[i].alt || !variants[i].share || !variants[i].lat ||
		    !variants[i].blk_est)
			return 1;
	}
	r.gen = calloc(r.max_rounds, sizeof(*r.gen));
	r.blk = calloc(r.max_rounds, sizeof(*r.blk));
	if (!r.gen || !r.blk) {
		free(r.gen);
		free(r.blk);
		return 1;
	}
	if (r.metric == AB_INSNS) {
		ret = ab_insns(r.count);
	} else {
		signal(SIGPIPE, SIG_IGN);
		ret = ab_rounds(&r);
		ab_reap();
	}
	r.elapsed = now_s() - t0;
	if (!ret) {
		if (json_output)
			write_json(stdout, &r);
		else
			print_text(stdout, &r, false);
		if (report)
			ret = write_report(report, &r);
	}
	for (unsigned int i = 0; i < nr_variants; i++) {
		free(variants[i].v);
		free(variants[i].alt);
		free(variants[i].share);
		free(variants[i].lat);
		free(variants[i].blk_est);
		variants[i] = (struct ab_variant){ 0 };
	}
	free(r.gen);
	free(r.blk);
	return ret;
}
