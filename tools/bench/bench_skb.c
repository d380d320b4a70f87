// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp-bench skb`: the memory core's two benchmarks.
 *
 * 1. ns per skb alloc+free, one by one vs bulk of 8, 16, 64 (the veth
 *    change of 5.12): one by one is kmem_cache_alloc() + skb_clear_to_tail()
 *    (memset up to ->tail) per skb, as xdp_build_skb_from_frame(); bulk is one
 *    xdp_alloc_skb_bulk(__GFP_ZERO) per batch. Both then build the skb
 *    around a page (build_skb_around()) and free it (consume_skb()), and
 *    the same is reported for the bare struct (alloc + free only).
 * 2. skb_linearize() of 1500 B and 64 KiB held in 1/2/4/17 page frags
 *    (empty head), in bytes/ns, next to a plain memcpy of the same bytes
 *    from the same pages measured in the same run.
 *
 * Variants run interleaved, round after round (start rotated each round);
 * each figure is the median over rounds, and ratios are taken between
 * medians of the same run. Timing: CLOCK_MONOTONIC around batches.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/xdp.h>

#include "bench.h"

#define MAX_ROUNDS	101
#define ALLOC_PER_RUN	(1 << 16)
#define MAX_BATCH	64

static const int alloc_batches[] = { 1, 8, 16, 64 };	/* 1 = one by one */
#define N_ALLOC		((int)(sizeof(alloc_batches) / sizeof(alloc_batches[0])))

static struct page *bufs[MAX_BATCH];
static volatile unsigned long sink;

/* ns per skb for one run of ALLOC_PER_RUN skbs in batches of @batch. */
static double run_alloc(int batch, bool build)
{
	void *skbs[MAX_BATCH];
	uint64_t t0, t1;

	t0 = bench_now_ns();
	for (int done = 0; done < ALLOC_PER_RUN; done += batch) {
		if (batch == 1) {
			skbs[0] = kmem_cache_alloc(skbuff_cache, GFP_ATOMIC);
			if (!skbs[0])
				abort();
			skb_clear_to_tail(skbs[0]);
		} else if (xdp_alloc_skb_bulk(skbs, batch, GFP_ATOMIC | __GFP_ZERO)) {
			abort();
		}
		if (build) {
			for (int i = 0; i < batch; i++) {
				struct sk_buff *skb = skbs[i];

				get_page(bufs[i]);
				build_skb_around(skb, page_address(bufs[i]), PAGE_SIZE);
				skb_reserve(skb, XDP_PACKET_HEADROOM);
				__skb_put(skb, 60);
				sink += skb->len;
				consume_skb(skb);
			}
		} else {
			for (int i = 0; i < batch; i++)
				sink += ((struct sk_buff *)skbs[i])->len;
			if (batch == 1)
				kmem_cache_free(skbuff_cache, skbs[0]);
			else
				kmem_cache_free_bulk(skbuff_cache, batch, skbs);
		}
	}
	t1 = bench_now_ns();
	return (double)(t1 - t0) / ALLOC_PER_RUN;
}

struct lin_case {
	unsigned int bytes;
	int frags;
	double lin_bpns;	/* medians */
	double cpy_bpns;
	struct page *pages[MAX_SKB_FRAGS];
	unsigned int len[MAX_SKB_FRAGS];
};

static const unsigned int lin_bytes[] = { 1500, 65536 };
static const int lin_frags[] = { 1, 2, 4, 17 };
#define N_LIN	8
#define LIN_K	32	/* skbs per timed batch */

static void lin_case_init(struct lin_case *c, unsigned int bytes, int frags)
{
	c->bytes = bytes;
	c->frags = frags;
	for (int i = 0; i < frags; i++) {
		c->len[i] = bytes / frags + (i == frags - 1 ? bytes % frags : 0);
		c->pages[i] = alloc_pages(GFP_KERNEL, get_order(c->len[i]));
		if (!c->pages[i])
			abort();
		for (unsigned int b = 0; b < c->len[i]; b++)
			((unsigned char *)page_address(c->pages[i]))[b] = (unsigned char)(b * 31 + i);
	}
}

static void lin_case_fini(struct lin_case *c)
{
	for (int i = 0; i < c->frags; i++)
		__free_pages(c->pages[i], compound_order(c->pages[i]));
}

/* Bytes per ns of skb_linearize() over batches totalling ~@target bytes. */
static double run_linearize(struct lin_case *c, size_t target)
{
	struct sk_buff *skbs[LIN_K];
	uint64_t elapsed = 0, bytes = 0;

	while (bytes < target) {
		for (int k = 0; k < LIN_K; k++) {
			struct sk_buff *skb = alloc_skb(0, GFP_ATOMIC);

			if (!skb)
				abort();
			for (int i = 0; i < c->frags; i++) {
				get_page(c->pages[i]);
				skb_add_rx_frag(skb, i, c->pages[i], 0, c->len[i], PAGE_SIZE);
			}
			skbs[k] = skb;
		}
		uint64_t t0 = bench_now_ns();

		for (int k = 0; k < LIN_K; k++)
			if (skb_linearize(skbs[k]))
				abort();
		elapsed += bench_now_ns() - t0;
		for (int k = 0; k < LIN_K; k++) {
			sink += skbs[k]->data[c->bytes - 1];
			consume_skb(skbs[k]);
		}
		bytes += (uint64_t)LIN_K * c->bytes;
	}
	return (double)bytes / (double)elapsed;
}

static unsigned char *cpy_dst[LIN_K];

static double run_memcpy(struct lin_case *c, size_t target)
{
	uint64_t elapsed = 0, bytes = 0;

	while (bytes < target) {
		uint64_t t0 = bench_now_ns();

		for (int k = 0; k < LIN_K; k++) {
			unsigned char *d = cpy_dst[k];

			for (int i = 0; i < c->frags; i++) {
				memcpy(d, page_address(c->pages[i]), c->len[i]);
				d += c->len[i];
			}
		}
		elapsed += bench_now_ns() - t0;
		for (int k = 0; k < LIN_K; k++)
			sink += cpy_dst[k][c->bytes - 1];
		bytes += (uint64_t)LIN_K * c->bytes;
	}
	return (double)bytes / (double)elapsed;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: uxdp-bench skb [--json FILE] [--rounds N]\n"
		   "  --json FILE   also write the figures as JSON to FILE\n"
		   "  --rounds N    interleaved rounds per figure (median), 1..%d, default 11\n",
		MAX_ROUNDS);
}

int bench_skb_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static double alloc_ns[2][N_ALLOC][MAX_ROUNDS];
	static double lin_r[N_LIN][MAX_ROUNDS], cpy_r[N_LIN][MAX_ROUNDS];
	static struct lin_case cases[N_LIN];
	double alloc_med[2][N_ALLOC];
	const char *json = NULL;
	int rounds = 11, opt;
	char *end;

	while ((opt = getopt_long(argc, argv, "j:r:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = optarg;
			break;
		case 'r':
			rounds = (int)strtol(optarg, &end, 10);
			if (*end || rounds < 1 || rounds > MAX_ROUNDS) {
				fprintf(stderr, "Error: '%s' is not a valid round count\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	for (int i = 0; i < MAX_BATCH; i++)
		bufs[i] = alloc_page(GFP_KERNEL);
	for (int k = 0; k < LIN_K; k++)
		cpy_dst[k] = malloc(65536);
	for (int b = 0; b < 2; b++)
		for (int f = 0; f < 4; f++)
			lin_case_init(&cases[b * 4 + f], lin_bytes[b], lin_frags[f]);

	/* warm-up: fill magazines and free lists */
	for (int v = 0; v < N_ALLOC; v++) {
		run_alloc(alloc_batches[v], true);
		run_alloc(alloc_batches[v], false);
	}
	for (int r = 0; r < rounds; r++) {
		for (int j = 0; j < 2 * N_ALLOC; j++) {
			int v = (j + r) % (2 * N_ALLOC);
			int build = v < N_ALLOC;

			alloc_ns[build][v % N_ALLOC][r] = run_alloc(alloc_batches[v % N_ALLOC], build);
		}
	}
	for (int b = 0; b < 2; b++)
		for (int v = 0; v < N_ALLOC; v++)
			alloc_med[b][v] = bench_median(alloc_ns[b][v], rounds);

	for (int c = 0; c < N_LIN; c++) {
		run_linearize(&cases[c], 1 << 20);
		run_memcpy(&cases[c], 1 << 20);
	}
	for (int r = 0; r < rounds; r++) {
		for (int j = 0; j < 2 * N_LIN; j++) {
			int v = (j + r) % (2 * N_LIN);
			struct lin_case *c = &cases[v / 2];

			if (v % 2)
				cpy_r[v / 2][r] = run_memcpy(c, 8 << 20);
			else
				lin_r[v / 2][r] = run_linearize(c, 8 << 20);
		}
	}
	for (int c = 0; c < N_LIN; c++) {
		cases[c].lin_bpns = bench_median(lin_r[c], rounds);
		cases[c].cpy_bpns = bench_median(cpy_r[c], rounds);
	}

	printf("uxdp-bench skb: %d interleaved rounds, medians; %d skbs per alloc run\n\n",
	       rounds, ALLOC_PER_RUN);
	for (int b = 1; b >= 0; b--) {
		printf("%s\n", b ? "skb alloc + build_skb_around + consume_skb" :
				   "struct sk_buff alloc + free only");
		printf("  %-11s %5s %9s %14s\n", "mode", "batch", "ns/skb", "one-by-one/x");
		for (int v = 0; v < N_ALLOC; v++)
			printf("  %-11s %5d %9.2f %13.2fx\n",
			       alloc_batches[v] == 1 ? "one-by-one" : "bulk",
			       alloc_batches[v], alloc_med[b][v], alloc_med[b][0] / alloc_med[b][v]);
		printf("\n");
	}
	printf("skb_linearize (head empty, payload in page frags) vs memcpy of the same bytes\n");
	printf("  %6s %5s %15s %12s %17s\n", "bytes", "frags", "linearize B/ns", "memcpy B/ns",
	       "linearize/memcpy");
	for (int c = 0; c < N_LIN; c++)
		printf("  %6u %5d %15.2f %12.2f %16.2fx\n", cases[c].bytes, cases[c].frags,
		       cases[c].lin_bpns, cases[c].cpy_bpns, cases[c].lin_bpns / cases[c].cpy_bpns);

	if (json) {
		FILE *f = fopen(json, "w");

		if (!f) {
			perror(json);
			return 1;
		}
		fprintf(f, "{\n  \"bench\": \"skb\",\n  \"rounds\": %d,\n  \"skbs_per_run\": %d,\n",
			rounds, ALLOC_PER_RUN);
		for (int b = 1; b >= 0; b--) {
			fprintf(f, "  \"%s\": [\n", b ? "skb_alloc_free" : "struct_alloc_free");
			for (int v = 0; v < N_ALLOC; v++)
				fprintf(f, "    {\"mode\": \"%s\", \"batch\": %d, \"ns_per_skb\": %.3f, "
					   "\"speedup_vs_one_by_one\": %.4f}%s\n",
					alloc_batches[v] == 1 ? "one_by_one" : "bulk", alloc_batches[v],
					alloc_med[b][v], alloc_med[b][0] / alloc_med[b][v],
					v + 1 < N_ALLOC ? "," : "");
			fprintf(f, "  ],\n");
		}
		fprintf(f, "  \"linearize\": [\n");
		for (int c = 0; c < N_LIN; c++)
			fprintf(f, "    {\"bytes\": %u, \"frags\": %d, \"linearize_bytes_per_ns\": %.4f, "
				   "\"memcpy_bytes_per_ns\": %.4f, \"linearize_over_memcpy\": %.4f}%s\n",
				cases[c].bytes, cases[c].frags, cases[c].lin_bpns, cases[c].cpy_bpns,
				cases[c].lin_bpns / cases[c].cpy_bpns, c + 1 < N_LIN ? "," : "");
		fprintf(f, "  ]\n}\n");
		fclose(f);
	}

	for (int c = 0; c < N_LIN; c++)
		lin_case_fini(&cases[c]);
	for (int k = 0; k < LIN_K; k++)
		free(cpy_dst[k]);
	for (int i = 0; i < MAX_BATCH; i++)
		__free_page(bufs[i]);
	return 0;
}
