// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench fwd: IPv4 and IPv6 forwarding through the stack, 1 and 2
 * workers, in one run (examples/ip-forward.uxdp as a benchmark).
 *
 *   g4 (gen, 64 B UDP 198.18.0.2 -> 198.19.0.2, two queues)
 *   g6 (gen, 78 B UDP6 2001:2::2 -> 2001:2:0:1::2, two queues)
 *     -> ip_rcv / ipv6_rcv -> ip_forward / ip6_forward -> neighbour
 *        output on v0 (two queues: each of gen's keeps its own ring) ==> v1
 *        (xdp1: per-protocol counts, XDP_DROP)
 *
 * The frames are the same size at the IP layer's end (the IPv6 header is
 * 20 bytes longer, so is the frame), one flow each, neighbours permanent.
 * A cell is a family x a worker count; only that family's generator is
 * up. Each round runs every cell once in a fresh order (interleaved, so
 * machine load drifts hit all alike) and keeps the pkt/s at v1. The table
 * gives median, min, max, spread ((max - min) / median), the ratio to
 * "ipv4 1 worker" and the IPv6 / IPv4 ratio at the same worker count.
 * Every cell also checks its datagrams were forwarded (Ip.ForwDatagrams
 * or Ip6.OutForwDatagrams against v1's count) so a figure is never the
 * rate of something else (a route lost, frames dropped before v0).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_ip.h>
#include <uxdp/uxdp_link.h>

#include "bench.h"

#ifndef UXDP_PROGS_DIR
#define UXDP_PROGS_DIR "."
#endif

#define MAX_ROUNDS	64
#define NCELLS		4
#define SNMP_MAX	256

static const struct {
	const char *name, *gen, *other, *forw;
	unsigned int workers;
} cells[NCELLS] = {
	{ "ipv4 1 worker", "g4", "g6", "Ip.ForwDatagrams", 1 },
	{ "ipv4 2 workers", "g4", "g6", "Ip.ForwDatagrams", 2 },
	{ "ipv6 1 worker", "g6", "g4", "Ip6.OutForwDatagrams", 1 },
	{ "ipv6 2 workers", "g6", "g4", "Ip6.OutForwDatagrams", 2 },
};

static struct uxdp_bpf_object *xdp1;

static int setup(void)
{
	char *g4_args[] = { "size", "64", "proto", "udp", "src", "198.18.0.2", "dst", "198.19.0.2",
			    "queues", "2" };
	char *g6_args[] = { "size", "78", "proto", "udp6", "src", "2001:2::2", "dst",
			    "2001:2:0:1::2", "queues", "2" };
	char *veth_args[] = { "queues", "2", "peer", "name", "v1" };
	char err[512] = "";

	if (uxdp_link_add("g4", "gen", 10, g4_args, err, sizeof(err)) < 0 ||
	    uxdp_link_add("g6", "gen", 10, g6_args, err, sizeof(err)) < 0 ||
	    uxdp_link_add("v0", "veth", 5, veth_args, err, sizeof(err)) < 0)
		goto fail;
	xdp1 = uxdp_bpf_object_open(UXDP_PROGS_DIR "/xdp1.o", NULL);
	if (!xdp1) {
		snprintf(err, sizeof(err), "cannot open %s/xdp1.o", UXDP_PROGS_DIR);
		goto fail;
	}
	if (uxdp_link_set_xdp("v1", uxdp_bpf_object_find_prog(xdp1, NULL, NULL), err, sizeof(err)) ||
	    uxdp_ip_addr_add("g4", "198.18.0.1/24", err, sizeof(err)) ||
	    uxdp_ip_addr_add("g6", "2001:2::1/64", err, sizeof(err)) ||
	    uxdp_ip_addr_add("v0", "198.19.0.1/24", err, sizeof(err)) ||
	    uxdp_ip_addr_add("v0", "2001:2:0:1::1/64", err, sizeof(err)) ||
	    uxdp_ip_neigh_add("198.19.0.2", "02:00:00:00:00:02", "v0", err, sizeof(err)) ||
	    uxdp_ip_neigh_add("2001:2:0:1::2", "02:00:00:00:00:02", "v0", err, sizeof(err)) ||
	    uxdp_sysctl_set("net.ipv4.ip_forward", "1", err, sizeof(err)) ||
	    uxdp_sysctl_set("net.ipv6.conf.all.forwarding", "1", err, sizeof(err)))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "Error: setup: %s\n", err);
	return -1;
}

/* The SNMP counter @name now, or 0 if it does not exist. */
static uint64_t snmp_get(const char *name)
{
	static char names[SNMP_MAX][48];
	static uint64_t values[SNMP_MAX];
	int n = uxdp_ip_snmp_get(names, values, SNMP_MAX);

	for (int i = 0; i < n && i < SNMP_MAX; i++)
		if (!strcmp(names[i], name))
			return values[i];
	return 0;
}

/* pkt/s at v1 for cell @c, or -1 (run failed, or v1 saw no forwarded datagram). */
static double run_cell(int c, double secs)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = cells[c].workers,
				   .duration_ns = (uint64_t)(secs * 1e9) };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	uint64_t ns, forw;
	char err[256] = "";

	if (uxdp_link_set(cells[c].other, "down", NULL, err, sizeof(err)) ||
	    uxdp_link_set(cells[c].gen, "up", NULL, err, sizeof(err))) {
		fprintf(stderr, "Error: %s: %s\n", cells[c].name, err);
		return -1;
	}
	uxdp_link_stats_reset();
	forw = snmp_get(cells[c].forw);
	if (uxdp_run(&o, &ns)) {
		fprintf(stderr, "Error: %s: the run failed\n", cells[c].name);
		return -1;
	}
	forw = snmp_get(cells[c].forw) - forw;
	uxdp_link_get_info(uxdp_link_ifindex("v1"), &li);
	/* Frames still in v0's ring at the end are forwarded but not yet at v1. */
	if (!li.rx_packets || li.rx_packets > forw) {
		fprintf(stderr, "Error: %s: v1 received %llu, %s %llu\n", cells[c].name,
			(unsigned long long)li.rx_packets, cells[c].forw, (unsigned long long)forw);
		return -1;
	}
	return li.rx_packets / (ns / 1e9);
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: uxdp-bench fwd [--rounds N] [--secs S] [--json FILE]\n");
}

static void report(double v[NCELLS][MAX_ROUNDS], int rounds, double secs, const char *json)
{
	double med[NCELLS], mn[NCELLS], mx[NCELLS];
	FILE *jf = NULL;

	for (int c = 0; c < NCELLS; c++)
		bench_summary(v[c], rounds, &med[c], &mn[c], &mx[c]);
	printf("%-16s %12s %12s %12s %8s %10s %10s\n", "family / workers", "median pkt/s", "min",
	       "max", "spread", "vs ipv4 1w", "v6 / v4");
	for (int c = 0; c < NCELLS; c++) {
		/* cells[c ^ 2] is the other family at the same worker count. */
		double v4 = c < 2 ? med[c] : med[c ^ 2];

		printf("%-16s %12.0f %12.0f %12.0f %7.1f%% %+9.1f%% ", cells[c].name, med[c], mn[c],
		       mx[c], med[c] ? 100 * (mx[c] - mn[c]) / med[c] : 0,
		       med[0] ? 100 * (med[c] / med[0] - 1) : 0);
		if (c < 2)
			printf("%10s\n", "");
		else
			printf("%10.3f\n", v4 ? med[c] / v4 : 0);
	}
	if (json && !(jf = fopen(json, "w"))) {
		fprintf(stderr, "Error: %s: cannot write it\n", json);
		return;
	}
	if (!jf)
		return;
	fprintf(jf, "{\"mode\":\"fwd\",\"rounds\":%d,\"secs\":%.2f,\"cells\":[", rounds, secs);
	for (int c = 0; c < NCELLS; c++) {
		fprintf(jf, "%s{\"cell\":\"%s\",\"family\":\"%s\",\"workers\":%u,\"median_pps\":%.0f,"
			"\"min_pps\":%.0f,\"max_pps\":%.0f,\"vs_ipv4_1w\":%.4f,\"pps\":[",
			c ? "," : "", cells[c].name, c < 2 ? "ipv4" : "ipv6", cells[c].workers,
			med[c], mn[c], mx[c], med[0] ? med[c] / med[0] : 0);
		for (int r = 0; r < rounds; r++)
			fprintf(jf, "%s%.0f", r ? "," : "", v[c][r]);
		fprintf(jf, "]}");
	}
	fprintf(jf, "],\"ipv6_vs_ipv4\":{\"1\":%.4f,\"2\":%.4f}}\n", med[0] ? med[2] / med[0] : 0,
		med[1] ? med[3] / med[1] : 0);
	fclose(jf);
}

int bench_fwd_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "secs", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	double v[NCELLS][MAX_ROUNDS], secs = 1.0;
	int rounds = 5, ch, order[NCELLS], ret = 1;
	const char *json = NULL;
	unsigned int seed = 1;
	char *end;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			rounds = strtol(optarg, &end, 10);
			if (*end || rounds < 1 || rounds > MAX_ROUNDS) {
				fprintf(stderr, "Error: --rounds '%s': want 1..%d\n", optarg, MAX_ROUNDS);
				return 2;
			}
			break;
		case 's':
			secs = strtod(optarg, &end);
			if (*end || !(secs > 0 && secs <= 600)) {
				fprintf(stderr, "Error: --secs '%s': want a number of seconds in (0, 600]\n",
					optarg);
				return 2;
			}
			break;
		case 'j':
			json = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "Error: '%s': unexpected argument\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (setup())
		goto out;
	printf("fwd: gen -> ip_forward / ip6_forward -> v0 => v1 (xdp1), 64 B UDP / 78 B UDP6, "
	       "%d interleaved rounds of %.1f s\n", rounds, secs);
	for (int r = 0; r < rounds; r++) {
		bench_shuffle(order, NCELLS, &seed);
		for (int k = 0; k < NCELLS; k++) {
			v[order[k]][r] = run_cell(order[k], secs);
			if (v[order[k]][r] < 0)
				goto out;
		}
	}
	report(v, rounds, secs, json);
	ret = 0;
out:
	uxdp_link_del_all();
	uxdp_ip_reset();
	return ret;
}
