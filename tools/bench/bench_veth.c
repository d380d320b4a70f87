// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench veth: the veth-bulk experiment (Documentation/architecture.rst) as a
 * benchmark. gen ─(xdp_redirect_map, devmap[0] = veth0)─► veth0 ⇒ veth1
 * (xdp_rxq_info, XDP_PASS or XDP_DROP), one worker, 64-byte UDP frames.
 * For each round, every (action, xdp_batch) cell runs once, cells in a
 * fresh order each round (interleaved), and the Mpps at veth1 (its
 * rx_packets over the run's wall time) is kept; the table gives the median
 * with min and max. With --kernel PROG the same pipeline in the kernel
 * (a veth pair in a network namespace, frames injected with
 * BPF_PROG_TEST_RUN live frames) is measured by that helper program in
 * the same rounds, and the table adds it and the ratio.
 *
 * A second table isolates veth1: frames made directly in page-pool pages
 * are handed to veth0's ndo_xdp_xmit in bulks of 16 (as the devmap does)
 * and veth1 is polled on the calling thread, so only one program runs per
 * frame and the skb allocation is a larger share of the cost.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netdevice.h>
#include <linux/smp.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_link.h>

#include "bench.h"

#ifndef UXDP_PROGS_DIR
#define UXDP_PROGS_DIR "."
#endif

#define MAX_ROUNDS	64

static const unsigned int batches[] = { 0, 8, 16 };
static const char *const actions[] = { "PASS", "DROP" };

static int setup(struct uxdp_bpf_object **redir, struct uxdp_bpf_object **rxq,
		 struct uxdp_bpf_object **pass, int *config_map)
{
	char *gen_args[] = { "size", "64", "proto", "udp" };
	char *veth_args[] = { "peer", "name", "veth1" };
	char err[512] = "";
	__u32 key = 0, ifindex;
	int id;

	if (uxdp_link_add("eth0", "gen", 4, gen_args, err, sizeof(err)) < 0 ||
	    uxdp_link_add("veth0", "veth", 3, veth_args, err, sizeof(err)) < 0)
		goto fail;
	*redir = uxdp_bpf_object_open(UXDP_PROGS_DIR "/xdp_redirect_map.o", NULL);
	*rxq = uxdp_bpf_object_open(UXDP_PROGS_DIR "/xdp_rxq_info.o", NULL);
	*pass = uxdp_bpf_object_open(UXDP_PROGS_DIR "/xdp_pass.o", NULL);
	if (!*redir || !*rxq || !*pass) {
		snprintf(err, sizeof(err), "cannot open the programs in %s", UXDP_PROGS_DIR);
		goto fail;
	}
	ifindex = uxdp_link_ifindex("veth0");
	if (uxdp_bpf_map_update_elem(uxdp_bpf_object_find_map(*redir, "tx_port"), &key, &ifindex, 0))
		goto fail;
	id = uxdp_bpf_object_find_prog(*redir, "xdp_redirect_map_prog", NULL);
	if (uxdp_link_set_xdp("eth0", id, err, sizeof(err)) ||
	    uxdp_link_set_xdp("veth0", uxdp_bpf_object_find_prog(*pass, NULL, NULL), err, sizeof(err)) ||
	    uxdp_link_set_xdp("veth1", uxdp_bpf_object_find_prog(*rxq, NULL, NULL), err, sizeof(err)))
		goto fail;
	*config_map = uxdp_bpf_object_find_map(*rxq, "config_map");
	return 0;
fail:
	fprintf(stderr, "Error: setup: %s\n", err);
	return -1;
}

/* xdp_rxq_info's config: {action, ifindex 0, options USE_ACTION}. */
static void set_action(int config_map, const char *action)
{
	__u32 cfg[3] = { !strcmp(action, "DROP") ? 1 : 2, 0, 4 }, key = 0;

	uxdp_bpf_map_update_elem(config_map, &key, cfg, 0);
}

static double run_uxdp(double secs)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1, .duration_ns = secs * 1e9 };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	uint64_t ns;

	uxdp_link_stats_reset();
	if (uxdp_run(&o, &ns))
		return 0;
	uxdp_link_get_info(uxdp_link_ifindex("veth1"), &li);
	return li.rx_packets / (ns / 1e9) / 1e6;
}

/* veth1 alone: frames into veth0's ndo_xdp_xmit, 16 at a time, veth1 polled here. */
static double run_veth1_only(double secs)
{
	struct page_pool_params pp = { .order = 0, .pool_size = 4096 };
	struct net_device *veth0 = dev_get_by_name("veth0");
	struct net_device *veth1 = dev_get_by_name("veth1");
	struct xdp_rxq_info rxq = { .mem.type = MEM_TYPE_PAGE_POOL };
	/* this thread's pool: frames veth1 frees here recycle without the ring lock */
	struct page_pool *pool = page_pool_create_percpu(&pp, smp_processor_id());
	struct uxdp_link_info li = { .sz = sizeof(li) };
	unsigned char tmpl[64] = { 0 };
	uint64_t t0, t1;

	if (IS_ERR(pool))
		return 0;
	memcpy(tmpl, veth1->dev_addr, 6);
	tmpl[6] = 2;
	tmpl[12] = 0x08;
	tmpl[14] = 0x45;
	uxdp_link_stats_reset();
	t0 = bench_now_ns();
	do {
		for (int burst = 0; burst < 4; burst++) {
			struct xdp_frame *fr[16];
			int n = 0, sent;

			for (; n < 16; n++) {
				struct page *page = page_pool_dev_alloc_pages(pool);
				struct xdp_buff xdp;

				if (!page)
					break;
				memcpy((char *)page_address(page) + 256, tmpl, 64);
				xdp_init_buff(&xdp, PAGE_SIZE, &rxq);
				xdp_prepare_buff(&xdp, page_address(page), 256, 64, true);
				fr[n] = xdp_convert_buff_to_frame(&xdp);
			}
			sent = veth0->netdev_ops->ndo_xdp_xmit(veth0, n, fr, burst == 3 ? XDP_XMIT_FLUSH : 0);
			for (int i = sent < 0 ? 0 : sent; i < n; i++)
				xdp_return_frame(fr[i]);
		}
		while (net_rx_pending())
			net_rx_action();
		t1 = bench_now_ns();
	} while (t1 - t0 < secs * 1e9);
	uxdp_link_get_info(uxdp_link_ifindex("veth1"), &li);
	page_pool_destroy(pool);
	return li.rx_packets / ((t1 - t0) / 1e9) / 1e6;
}

/* The kernel helper prints "Mpps N" for one run of ACTION. */
static double run_kernel(const char *helper, const char *action, double secs)
{
	char cmd[1024], line[256];
	double mpps = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s %s %.2f", helper, UXDP_PROGS_DIR, action, secs);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "Mpps %lf", &mpps) == 1)
			break;
	pclose(p);
	return mpps;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: uxdp-bench veth [--rounds N] [--secs S] [--kernel HELPER] [--json FILE]\n"
		   "  --rounds N      interleaved rounds (default 5)\n"
		   "  --secs S        seconds per run (default 1)\n"
		   "  --kernel HELPER the kernel pipeline helper (uxdp-bench-veth-kernel), run as root\n"
		   "  --json FILE     also write the figures as JSON\n");
}

struct cell {
	double v[MAX_ROUNDS];
	int n;
};

static void stats3(struct cell *c, double *med, double *min, double *max)
{
	double tmp[MAX_ROUNDS];

	memcpy(tmp, c->v, sizeof(double) * c->n);
	*med = c->n ? bench_median(tmp, c->n) : 0;
	*min = c->n ? tmp[0] : 0;
	*max = c->n ? tmp[c->n - 1] : 0;
}

/* One action x xdp_batch table: median, min, max and the change vs batch 0. */
static void print_table(struct cell c[2][3], FILE *jf)
{
	for (int a = 0; a < 2; a++) {
		double base = 0;

		for (int b = 0; b < 3; b++) {
			double med, min, max;

			stats3(&c[a][b], &med, &min, &max);
			if (!b)
				base = med;
			printf("%-6s %-10u %10.3f %10.3f %10.3f %+9.1f%%\n", actions[a], batches[b], med, min,
			       max, base ? (med / base - 1) * 100 : 0);
			if (jf)
				fprintf(jf, "%s{\"action\":\"%s\",\"xdp_batch\":%u,\"mpps_median\":%.4f,"
					    "\"mpps_min\":%.4f,\"mpps_max\":%.4f}", a || b ? "," : "",
					actions[a], batches[b], med, min, max);
		}
	}
}

int bench_veth_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "secs", required_argument, NULL, 's' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct uxdp_bpf_object *redir = NULL, *rxq = NULL, *pass = NULL;
	struct cell u[2][3] = {}, k[2] = {}, v1[2][3] = {};
	const char *json = NULL, *kernel = NULL;
	int rounds = 5, config_map, opt;
	double secs = 1;
	FILE *jf;

	while ((opt = getopt_long(argc, argv, "r:s:k:j:h", opts, NULL)) >= 0) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 's':
			secs = atof(optarg);
			break;
		case 'k':
			kernel = optarg;
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
	if (rounds < 1 || rounds > MAX_ROUNDS || secs <= 0) {
		usage(stderr);
		return 2;
	}
	uxdp_set_print(NULL);
	if (setup(&redir, &rxq, &pass, &config_map))
		return 1;
	printf("veth-bulk: gen -(xdp_redirect_map)-> veth0 => veth1 (xdp_rxq_info), 64 B UDP, 1 worker, "
	       "%d interleaved rounds of %.1f s%s\n", rounds, secs, kernel ? ", kernel alongside" : "");
	srand(1);
	for (int r = 0; r < rounds; r++) {
		int order[16], n = 0;

		for (int i = 0; i < 12; i++)
			order[n++] = i;
		if (kernel) {
			order[n++] = 12;
			order[n++] = 13;
		}
		for (int i = n - 1; i > 0; i--) {
			int j = rand() % (i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (int i = 0; i < n; i++) {
			int c = order[i];

			if (c >= 12) {
				double m = run_kernel(kernel, actions[c - 12], secs);

				k[c - 12].v[k[c - 12].n++] = m;
				continue;
			}
			char err[128], b[8];
			int a = (c % 6) / 3, bi = c % 3;

			snprintf(b, sizeof(b), "%u", batches[bi]);
			uxdp_link_set("veth1", "xdp_batch", b, err, sizeof(err));
			set_action(config_map, actions[a]);
			if (c < 6)
				u[a][bi].v[u[a][bi].n++] = run_uxdp(secs);
			else
				v1[a][bi].v[v1[a][bi].n++] = run_veth1_only(secs);
		}
		fprintf(stderr, "\r  round %d/%d", r + 1, rounds);
	}
	fprintf(stderr, "\r%20s\r", "");

	printf("\n%-6s %-10s %10s %10s %10s %10s\n", "action", "xdp_batch", "Mpps(med)", "min", "max",
	       "vs batch 0");
	jf = json ? fopen(json, "w") : NULL;
	if (jf)
		fprintf(jf, "{\"mode\":\"veth\",\"rounds\":%d,\"secs\":%.2f,\"uxdp\":[", rounds, secs);
	print_table(u, jf);
	if (jf)
		fprintf(jf, "],\"veth1_only\":[");
	printf("\nveth1 alone (frames handed to veth0's ndo_xdp_xmit 16 at a time, one program per frame):\n");
	print_table(v1, jf);
	if (jf)
		fprintf(jf, "]");
	if (kernel) {
		printf("\nkernel (this machine, veth pair in a netns, live-frame test_run, VETH_XDP_BATCH 16):\n");
		if (jf)
			fprintf(jf, ",\"kernel\":[");
		for (int a = 0; a < 2; a++) {
			double med, min, max, umed, umin, umax;

			stats3(&k[a], &med, &min, &max);
			stats3(&u[a][2], &umed, &umin, &umax);
			printf("%-6s %-10s %10.3f %10.3f %10.3f   uxdp/kernel %.2fx\n", actions[a], "16", med,
			       min, max, med ? umed / med : 0);
			if (jf)
				fprintf(jf, "%s{\"action\":\"%s\",\"mpps_median\":%.4f,\"mpps_min\":%.4f,"
					    "\"mpps_max\":%.4f,\"uxdp_over_kernel\":%.3f}", a ? "," : "",
					actions[a], med, min, max, med ? umed / med : 0);
		}
		if (jf)
			fprintf(jf, "]");
	}
	if (jf) {
		fprintf(jf, "}\n");
		fclose(jf);
	}
	uxdp_link_del_all();
	uxdp_bpf_object_close(redir);
	uxdp_bpf_object_close(rxq);
	uxdp_bpf_object_close(pass);
	return 0;
}
