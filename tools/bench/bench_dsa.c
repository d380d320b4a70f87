// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench dsa: the dsa-cb experiment (Documentation/architecture.rst) as a
 * benchmark. gen -(xdp_redirect_map)-> sw0p3 -> sja1105 tag -> conduit eth2
 * -> swp3 -> IPv4 forward -> swp2 (dsa_user_xmit) -> eth2 -> sw0p2 -> v0
 * => v1 (xdp1 counter), one worker, 64-byte UDP. The four cells are
 * cb_clear {full, tagger} x tx_ts_classify {always, requested}; each
 * round runs every cell once in a fresh order (interleaved) and keeps the
 * pkt/s at v1; the table gives median, min, max and the spread
 * ((max - min) / median), and the ratio of each median to the published
 * baseline cell (full, always = the 5.12 kernel).
 *
 * `--cell NAME --count N` runs one cell for exactly N frames and nothing
 * else (deterministic), for `valgrind --tool=callgrind`: instructions per
 * packet = (Ir(2N) - Ir(N)) / N removes the setup.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_link.h>

#include "bench.h"

#ifndef UXDP_PROGS_DIR
#define UXDP_PROGS_DIR "."
#endif

#define MAX_ROUNDS	64

static const struct {
	const char *name, *cb, *ts;
} cells[] = {
	{ "full-always", "full", "always" },
	{ "full-requested", "full", "requested" },
	{ "tagger-always", "tagger", "always" },
	{ "tagger-requested", "tagger", "requested" },
};
#define NCELLS	4

static struct uxdp_bpf_object *redir, *xdp1;

static int setup(void)
{
	char *sw_args[] = { "ports", "4", "tag", "sja1105", "conduit", "eth2", "mac", "00:1f:7b:63:01:d4" };
	char *gen_args[] = { "size", "64", "proto", "udp", "src", "198.18.0.2", "dst", "198.19.0.2",
			     "src_mac", "00:1f:7b:63:01:d4", "dst_mac", "00:04:9f:06:00:09" };
	char *veth_args[] = { "peer", "name", "v1" };
	char err[512] = "";
	__u32 key = 0, ifindex;

	if (uxdp_link_add("sw0", "dsa-switch", 8, sw_args, err, sizeof(err)) < 0 ||
	    uxdp_link_add("g0", "gen", 12, gen_args, err, sizeof(err)) < 0 ||
	    uxdp_link_add("v0", "veth", 3, veth_args, err, sizeof(err)) < 0)
		goto fail;
	redir = uxdp_bpf_object_open(UXDP_PROGS_DIR "/xdp_redirect_map.o", NULL);
	xdp1 = uxdp_bpf_object_open(UXDP_PROGS_DIR "/xdp1.o", NULL);
	if (!redir || !xdp1) {
		snprintf(err, sizeof(err), "cannot open the programs in %s", UXDP_PROGS_DIR);
		goto fail;
	}
	ifindex = uxdp_link_ifindex("sw0p3");
	if (uxdp_bpf_map_update_elem(uxdp_bpf_object_find_map(redir, "tx_port"), &key, &ifindex, 0))
		goto fail;
	if (uxdp_link_set_xdp("g0", uxdp_bpf_object_find_prog(redir, "xdp_redirect_map_prog", NULL),
			      err, sizeof(err)) ||
	    uxdp_link_set_xdp("v1", uxdp_bpf_object_find_prog(xdp1, NULL, NULL), err, sizeof(err)) ||
	    uxdp_link_set("sw0p2", "peer", "v0", err, sizeof(err)) ||
	    uxdp_ip_addr_add("swp3", "198.18.0.1/24", err, sizeof(err)) ||
	    uxdp_ip_addr_add("swp2", "198.19.0.1/24", err, sizeof(err)) ||
	    uxdp_ip_neigh_add("198.18.0.2", "00:04:9f:06:00:09", "swp3", err, sizeof(err)) ||
	    uxdp_ip_neigh_add("198.19.0.2", "00:04:9f:06:00:0a", "swp2", err, sizeof(err)) ||
	    uxdp_sysctl_set("net.ipv4.ip_forward", "1", err, sizeof(err)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "Error: setup: %s\n", err);
	return -1;
}

static void set_cell(int c)
{
	char err[128];

	uxdp_link_set("swp2", "cb_clear", cells[c].cb, err, sizeof(err));
	uxdp_link_set("swp2", "tx_ts_classify", cells[c].ts, err, sizeof(err));
}

/* pkt/s at v1 (xdp1's view: every frame it saw), or -1. */
static double run_cell(int c, double secs, uint64_t count)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1, .count = count,
				   .duration_ns = count ? 0 : (uint64_t)(secs * 1e9) };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	uint64_t ns;

	set_cell(c);
	uxdp_link_stats_reset();
	if (uxdp_run(&o, &ns))
		return -1;
	uxdp_link_get_info(uxdp_link_ifindex("v1"), &li);
	return li.rx_packets / (ns / 1e9);
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: uxdp-bench dsa [--rounds N] [--secs S] [--json FILE]\n"
		   "       uxdp-bench dsa --cell full-always|full-requested|tagger-always|tagger-requested --count N\n");
}

int bench_dsa_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "secs", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' },
		{ "cell", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	double v[NCELLS][MAX_ROUNDS], secs = 1.0;
	const char *json = NULL, *cell = NULL;
	unsigned long long count = 0;
	int rounds = 5, ch, order[NCELLS];
	unsigned int seed = 1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 's':
			secs = atof(optarg);
			break;
		case 'j':
			json = optarg;
			break;
		case 'c':
			cell = optarg;
			break;
		case 'n':
			count = strtoull(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || secs <= 0 || (cell && !count)) {
		usage(stderr);
		return 2;
	}
	if (setup())
		goto fail;
	if (cell) {
		for (int c = 0; c < NCELLS; c++) {
			if (strcmp(cells[c].name, cell))
				continue;
			printf("%s: %llu frames, %.0f pkt/s\n", cell, count, run_cell(c, 0, count));
			uxdp_link_del_all();
			uxdp_ip_reset();
			return 0;
		}
		usage(stderr);
		goto fail;
	}
	printf("dsa-cb: gen -> sw0p3 -> sja1105 -> eth2 -> swp3 -> IPv4 forward -> swp2 -> eth2 -> sw0p2 "
	       "-> v0 => v1 (xdp1), 64 B UDP, 1 worker, %d interleaved rounds of %.1f s\n", rounds, secs);
	for (int r = 0; r < rounds; r++) {
		bench_shuffle(order, NCELLS, &seed);
		for (int k = 0; k < NCELLS; k++)
			v[order[k]][r] = run_cell(order[k], secs, 0);
	}
	{
		double med[NCELLS], mn[NCELLS], mx[NCELLS];
		FILE *jf = json ? fopen(json, "w") : NULL;

		printf("%-18s %12s %12s %12s %8s %10s\n", "cb / classify", "median pkt/s", "min", "max",
		       "spread", "vs 5.12");
		for (int c = 0; c < NCELLS; c++)
			bench_summary(v[c], rounds, &med[c], &mn[c], &mx[c]);
		for (int c = 0; c < NCELLS; c++)
			printf("%-18s %12.0f %12.0f %12.0f %7.1f%% %+9.1f%%\n", cells[c].name, med[c], mn[c],
			       mx[c], med[c] ? 100 * (mx[c] - mn[c]) / med[c] : 0,
			       med[0] ? 100 * (med[c] / med[0] - 1) : 0);
		if (jf) {
			fprintf(jf, "{\"mode\":\"dsa\",\"rounds\":%d,\"secs\":%.2f,\"cells\":[", rounds, secs);
			for (int c = 0; c < NCELLS; c++) {
				fprintf(jf, "%s{\"cell\":\"%s\",\"median_pps\":%.0f,\"min_pps\":%.0f,"
					"\"max_pps\":%.0f,\"pps\":[", c ? "," : "", cells[c].name, med[c],
					mn[c], mx[c]);
				for (int r = 0; r < rounds; r++)
					fprintf(jf, "%s%.0f", r ? "," : "", v[c][r]);
				fprintf(jf, "]}");
			}
			fprintf(jf, "]}\n");
			fclose(jf);
		}
	}
	uxdp_link_del_all();
	uxdp_ip_reset();
	return 0;
fail:
	uxdp_link_del_all();
	uxdp_ip_reset();
	return 1;
}
