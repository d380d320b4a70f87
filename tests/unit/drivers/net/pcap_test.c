// SPDX-License-Identifier: GPL-2.0
/*
 * pcap: `in` reads classic pcap and pcapng (written here byte by byte) with
 * nanosecond timestamps and hands every frame to the stack with its
 * record's timestamp; `out` writes what the stack, ndo_xdp_xmit and native
 * XDP_TX send, stamped with the capture's timestamps or the virtual clock;
 * in -> XDP_TX -> out reproduces the input (bytes and timestamps), also
 * for multi-buffer frames and with `loop`; each run replays the file;
 * malformed records are dropped and counted by reason, a cut-off file ends
 * the pass; bad files, link types and arguments give errors naming them.
 */
#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <arpa/inet.h>
#include <pcap/dlt.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_test_util.h"
#include "uxdp_test.h"

#define MAX_SEEN	16
#define T0		1700000000123456789ULL	/* ns */

static u8 *seen[MAX_SEEN];
static unsigned int seen_len[MAX_SEEN], nr_seen;
static u64 seen_ts[MAX_SEEN];
static char dir[] = "/tmp/uxdp-pcap-test.XXXXXX";

static int capture(struct sk_buff *skb, struct net_device *dev)
{
	if (nr_seen < MAX_SEEN) {
		seen_len[nr_seen] = skb->len + ETH_HLEN;
		seen[nr_seen] = malloc(seen_len[nr_seen]);
		ck_assert_int_eq(skb_copy_bits(skb, -ETH_HLEN, seen[nr_seen], seen_len[nr_seen]), 0);
		seen_ts[nr_seen] = skb_shinfo(skb)->hwtstamps.hwtstamp;
		nr_seen++;
	}
	consume_skb(skb);
	return NET_RX_SUCCESS;
}

static struct packet_type ip_pt = { .func = capture };

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ip_pt.type = htons(ETH_P_IP);
	dev_add_pack(&ip_pt);
	nr_seen = 0;
}

static void teardown(void)
{
	char why[256], cmd[128];

	dev_remove_pack(&ip_pt);
	uxdp_link_del_all();
	for (unsigned int i = 0; i < nr_seen; i++)
		free(seen[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

static const char *path(const char *name)
{
	static char buf[4][256];
	static int n;
	char *p = buf[n++ % 4];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

/* Frame @i: @len bytes, Ethernet + IPv4 header, pattern after. */
static void frame(u8 *p, unsigned int len, int i)
{
	memset(p, 0, len);
	memcpy(p, (u8[]){ 2, 0, 0, 0, 0, 0xb }, 6);
	memcpy(p + 6, (u8[]){ 2, 0, 0, 0, 0, 0xa }, 6);
	p[12] = 0x08;
	p[14] = 0x45;
	for (unsigned int k = 34; k < len; k++)
		p[k] = (u8)(k * 7 + i);
}

static const unsigned int lens[] = { 60, 1514, 98, 9000 };

/* A classic pcap (nanosecond) of frames of @lens[0..n), T0 + i ms. */
static void write_pcap(const char *file, unsigned int n, int linktype)
{
	pcap_t *pd = pcap_open_dead_with_tstamp_precision(linktype, 65535,
							  PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d = pcap_dump_open(pd, file);
	static u8 buf[9000];

	ck_assert_ptr_nonnull(d);
	for (unsigned int i = 0; i < n; i++) {
		u64 ts = T0 + i * 1000000ULL;
		struct pcap_pkthdr h = { .caplen = lens[i], .len = lens[i] };

		h.ts.tv_sec = ts / 1000000000ULL;
		h.ts.tv_usec = ts % 1000000000ULL;
		frame(buf, lens[i], i);
		pcap_dump((u_char *)d, &h, buf);
	}
	pcap_dump_close(d);
	pcap_close(pd);
}

static void put32(FILE *f, u32 v)
{
	fwrite(&v, 4, 1, f);
}

/* The same frames as pcapng: SHB, IDB (if_tsresol 9), one EPB per frame. */
static void write_pcapng(const char *file, unsigned int n)
{
	FILE *f = fopen(file, "wb");
	static u8 buf[9000];

	ck_assert_ptr_nonnull(f);
	put32(f, 0x0a0d0d0a);
	put32(f, 28);
	put32(f, 0x1a2b3c4d);
	put32(f, 0x00000001);	/* version 1.0 */
	put32(f, 0xffffffff);	/* section length unknown */
	put32(f, 0xffffffff);
	put32(f, 28);
	put32(f, 1);		/* IDB */
	put32(f, 32);
	put32(f, DLT_EN10MB);	/* link type, reserved */
	put32(f, 65535);
	put32(f, 9 | 1 << 16);	/* if_tsresol, 1 byte */
	put32(f, 9);		/* 10^-9 */
	put32(f, 0);		/* opt_endofopt */
	put32(f, 32);
	for (unsigned int i = 0; i < n; i++) {
		u64 ts = T0 + i * 1000000ULL;
		u32 pad = (4 - lens[i] % 4) % 4, blen = 32 + lens[i] + pad;

		frame(buf, lens[i], i);
		put32(f, 6);	/* EPB */
		put32(f, blen);
		put32(f, 0);
		put32(f, ts >> 32);
		put32(f, (u32)ts);
		put32(f, lens[i]);
		put32(f, lens[i]);
		fwrite(buf, 1, lens[i], f);
		fwrite("\0\0\0", 1, pad, f);
		put32(f, blen);
	}
	fclose(f);
}

static void link_add(const char *name, int argc, char **argv)
{
	char err[256] = "";

	ck_assert_msg(uxdp_link_add(name, "pcap", argc, argv, err, sizeof(err)) > 0, "%s", err);
}

static int link_add_err(char *err, size_t len, int argc, char **argv)
{
	*err = 0;
	return uxdp_link_add("bad0", "pcap", argc, argv, err, len);
}

/* One run: rewind (run_count @count) and poll until the capture is consumed. */
static void run(const char *name, u64 count)
{
	struct net_device *dev = test_dev(name);
	char err[256], c[32];

	snprintf(c, sizeof(c), "%llu", (unsigned long long)count);
	ck_assert_int_eq(dev->netdev_ops->ndo_set_param(dev, "run_count", c, err, sizeof(err)), 1);
	dev_napi_schedule_all(dev);
	test_napi_drain();
	ck_assert(!dev->netdev_ops->ndo_gen_active(dev));
	for (struct net_device *d = dev_get_next(NULL); d; d = dev_get_next(d))
		if (d->netdev_ops->ndo_run_end)
			d->netdev_ops->ndo_run_end(d);
}

/* @n frames seen, the file's @per frames over and over. */
static void check_seen(unsigned int n, unsigned int per)
{
	static u8 buf[9000];

	ck_assert_uint_eq(nr_seen, n);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = i % per;

		frame(buf, lens[k], k);
		ck_assert_uint_eq(seen_len[i], lens[k]);
		ck_assert_msg(!memcmp(seen[i], buf, lens[k]), "frame %u differs", i);
		ck_assert_uint_eq(seen_ts[i], T0 + k * 1000000ULL);
	}
}

/* Read @file back: record count, and each record against frame(k) and T0 + k ms. */
static unsigned int check_file(const char *file, unsigned int n, const unsigned int *order,
			       const u64 *want_ts)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(file, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	struct pcap_pkthdr *h;
	const u_char *data;
	static u8 buf[9000];
	unsigned int i = 0;

	ck_assert_msg(p, "%s", errbuf);
	ck_assert_int_eq(pcap_datalink(p), DLT_EN10MB);
	ck_assert_int_eq(pcap_get_tstamp_precision(p), PCAP_TSTAMP_PRECISION_NANO);
	while (pcap_next_ex(p, &h, &data) == 1) {
		unsigned int k = order ? order[i] : i % 4;
		u64 ts = (u64)h->ts.tv_sec * 1000000000ULL + h->ts.tv_usec;

		ck_assert_uint_lt(i, n);
		frame(buf, lens[k], k);
		ck_assert_uint_eq(h->caplen, lens[k]);
		ck_assert_uint_eq(h->len, lens[k]);
		ck_assert_msg(!memcmp(data, buf, lens[k]), "record %u differs", i + 1);
		ck_assert_uint_eq(ts, want_ts ? want_ts[i] : T0 + k * 1000000ULL);
		i++;
	}
	pcap_close(p);
	ck_assert_uint_eq(i, n);
	return i;
}

START_TEST(read_classic_and_pcapng)
{
	char *a1[] = { "in", (char *)path("a.pcap") };
	char *a2[] = { "in", (char *)path("a.pcapng") };

	write_pcap(path("a.pcap"), 3, DLT_EN10MB);
	write_pcapng(path("a.pcapng"), 3);
	link_add("cap0", 2, a1);
	run("cap0", 0);
	check_seen(3, 3);
	ck_assert_uint_eq(test_info("cap0").rx_packets, 3);
	ck_assert_uint_eq(test_info("cap0").rx_bytes, 60 + 1514 + 98);
	for (unsigned int i = 0; i < nr_seen; i++)
		free(seen[i]);
	nr_seen = 0;
	link_add("cap1", 2, a2);
	run("cap1", 0);
	check_seen(3, 3);
}
END_TEST

START_TEST(each_run_replays_and_count)
{
	char *a[] = { "in", (char *)path("a.pcap"), "loop", "2" };

	write_pcap(path("a.pcap"), 3, DLT_EN10MB);
	link_add("cap0", 4, a);
	run("cap0", 0);
	check_seen(6, 3);
	run("cap0", 4);		/* `run count 4`: from the first record again */
	ck_assert_uint_eq(nr_seen, 10);
	ck_assert_uint_eq(seen_len[6], 60);
	ck_assert_uint_eq(seen_len[9], 60);
	ck_assert_uint_eq(test_info("cap0").rx_packets, 10);
}
END_TEST

START_TEST(out_skbs_and_frames)
{
	char *a[] = { "out", (char *)path("o.pcap") };
	static const unsigned int order[] = { 0, 1, 2, 2 };
	static const u64 want[] = { T0, 7000, 8000, 9000 };
	struct page_pool *pool = test_pool();
	struct xdp_frame *frames[2];
	struct net_device *dev;
	struct sk_buff *skb;
	u8 *p;

	link_add("out0", 2, a);
	dev = test_dev("out0");
	ck_assert(dev->xdp_features & NETDEV_XDP_ACT_NDO_XMIT);
	/* 1: linear skb with a capture timestamp */
	skb = netdev_alloc_skb(dev, 60);
	frame(skb_put(skb, 60), 60, 0);
	skb_shinfo(skb)->hwtstamps.hwtstamp = T0;
	skb->dev = dev;
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	/* 2: non-linear skb, no timestamp: skb->tstamp 7000 */
	skb = netdev_alloc_skb(dev, 200);
	p = malloc(1514);
	frame(p, 1514, 1);
	skb_put_data(skb, p, 100);
	{
		struct page *pg = alloc_pages(GFP_ATOMIC, 0);

		memcpy(page_address(pg), p + 100, 1414);
		skb_add_rx_frag(skb, 0, pg, 0, 1414, PAGE_SIZE);
	}
	free(p);
	skb->tstamp = 7000;
	skb->dev = dev;
	ck_assert_int_eq(dev_queue_xmit(skb), 0);
	/* 3, 4: frames of a foreign pool: the virtual clock, 1 us after the last */
	frames[0] = test_frame(pool, NULL, 98);
	frame(frames[0]->data, 98, 2);
	frames[1] = test_frame(pool, NULL, 98);
	frame(frames[1]->data, 98, 2);
	ck_assert_int_eq(dev->netdev_ops->ndo_xdp_xmit(dev, 2, frames, XDP_XMIT_FLUSH), 2);
	ck_assert_uint_eq(test_info("out0").tx_packets, 4);
	ck_assert_int_eq(uxdp_link_del("out0"), 0);	/* closes the file */
	check_file(path("o.pcap"), 4, order, want);
	page_pool_destroy(pool);
}
END_TEST

START_TEST(in_xdp_tx_out_reproduces_input)
{
	char *a[] = { "in", (char *)path("a.pcap"), "out", (char *)path("o.pcap") };
	char *b[] = { "in", (char *)path("a.pcap"), "out", (char *)path("o2.pcap"), "loop", "2" };
	struct test_prog p = test_prog_load("xdp_action", XDP_TX);
	struct test_prog pf = test_prog_load("xdp_action_frags", XDP_TX);
	char err[256] = "";

	write_pcap(path("a.pcap"), 4, DLT_EN10MB);
	link_add("cap0", 4, a);
	/* a 9000-byte frame needs a multi-buffer program */
	ck_assert_int_eq(uxdp_link_set_xdp("cap0", p.prog_id, err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_msg(strstr(err, "9000") && strstr(err, "xdp.frags"), "%s", err);
	ck_assert_int_eq(uxdp_link_set_xdp("cap0", pf.prog_id, err, sizeof(err)), 0);
	run("cap0", 0);
	ck_assert_uint_eq(test_info("cap0").xdp_tx, 4);
	ck_assert_uint_eq(test_info("cap0").tx_packets, 4);
	ck_assert_uint_eq(nr_seen, 0);
	check_file(path("o.pcap"), 4, NULL, NULL);	/* flushed at the end of the run */
	link_add("cap1", 6, b);
	ck_assert_int_eq(uxdp_link_set_xdp("cap1", pf.prog_id, err, sizeof(err)), 0);
	run("cap1", 0);
	ck_assert_uint_eq(test_info("cap1").tx_packets, 8);
	uxdp_link_del_all();
	check_file(path("o.pcap"), 4, NULL, NULL);
	check_file(path("o2.pcap"), 8, NULL, NULL);
	uxdp_bpf_object_close(p.obj);
	uxdp_bpf_object_close(pf.obj);
}
END_TEST

START_TEST(redirect_keeps_capture_timestamps)
{
	char *a[] = { "in", (char *)path("a.pcap") };
	char *o[] = { "out", (char *)path("o.pcap") };
	struct test_prog p = test_prog_load("xdp_redirect_dev", XDP_PASS);
	char err[256] = "";

	write_pcap(path("a.pcap"), 3, DLT_EN10MB);
	link_add("cap0", 2, a);
	link_add("out0", 2, o);
	test_prog_cfg(&p, 1, uxdp_link_ifindex("out0"));
	ck_assert_int_eq(uxdp_link_set_xdp("cap0", p.prog_id, err, sizeof(err)), 0);
	/* an `out`-only device has no receive path */
	ck_assert_int_eq(uxdp_link_set_xdp("out0", p.prog_id, err, sizeof(err)), -EOPNOTSUPP);
	run("cap0", 0);
	ck_assert_uint_eq(test_info("cap0").xdp_redirect, 3);
	ck_assert_uint_eq(test_info("out0").tx_packets, 3);
	check_file(path("o.pcap"), 3, NULL, NULL);
	uxdp_link_del_all();
	uxdp_bpf_object_close(p.obj);
}
END_TEST

/*
 * A device-bound program reads each frame's capture timestamp through
 * bpf_xdp_metadata_rx_timestamp(); the pcap device knows no hash or VLAN
 * tag (-EOPNOTSUPP). Unbound, the program is refused at load.
 */
START_TEST(rx_metadata_timestamp)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	char *a[] = { "in", (char *)path("a.pcap") };
	struct uxdp_bpf_object *obj;
	char err[256] = "", log[4096];
	__s64 v[5] = { 0 };
	int id, mid;

	opts.log_buf = log;
	opts.log_size = sizeof(log);
	ck_assert_ptr_null(uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_rx_meta.o", &opts));
	ck_assert_msg(strstr(log, "metadata kfuncs require device-bound program"), "%s", log);

	write_pcap(path("a.pcap"), 3, DLT_EN10MB);
	link_add("cap0", 2, a);
	opts.prog_ifindex = uxdp_link_ifindex("cap0");
	obj = uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_rx_meta.o", &opts);
	ck_assert_msg(obj, "%s", log);
	id = uxdp_bpf_object_find_prog(obj, "xdp_rx_meta", NULL);
	mid = uxdp_bpf_object_find_map(obj, "meta");
	ck_assert_int_eq(uxdp_link_set_xdp("cap0", id, err, sizeof(err)), 0);
	run("cap0", 0);
	for (__u32 k = 0; k < 5; k++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(mid, &k, &v[k]), 0);
	ck_assert_int_eq(v[4], 3);			/* frames seen */
	ck_assert_int_eq(v[0], 0);			/* the last one's timestamp ... */
	ck_assert_uint_eq((u64)v[1], T0 + 2 * 1000000ULL);
	ck_assert_int_eq(v[2], -EOPNOTSUPP);		/* hash */
	ck_assert_int_eq(v[3], -EOPNOTSUPP);		/* VLAN tag */
	uxdp_link_del_all();
	uxdp_bpf_object_close(obj);
}
END_TEST

/* Classic pcap by hand: usec magic, records as given, optionally cut short. */
static void write_raw(const char *file, int linktype, const u32 (*rec)[2], int n, int cut)
{
	FILE *f = fopen(file, "wb");
	static u8 buf[2000];

	ck_assert_ptr_nonnull(f);
	put32(f, 0xa1b2c3d4);
	put32(f, 2 | 4 << 16);
	put32(f, 0);
	put32(f, 0);
	put32(f, 65535);
	put32(f, linktype);
	for (int i = 0; i < n; i++) {
		put32(f, 1700000000 + i);
		put32(f, 0);
		put32(f, rec[i][0]);	/* caplen */
		put32(f, rec[i][1]);	/* len */
		frame(buf, rec[i][0] < 60 ? 60 : rec[i][0], 0);
		fwrite(buf, 1, i == n - 1 && cut ? rec[i][0] / 2 : rec[i][0], f);
	}
	fclose(f);
}

START_TEST(malformed_records_dropped_and_counted)
{
	static const u32 rec[][2] = {
		{ 60, 60 },	/* 1 good */
		{ 40, 98 },	/* 2 truncated by the snaplen */
		{ 10, 10 },	/* 3 runt */
		{ 64, 60 },	/* 4 longer than on the wire */
		{ 98, 98 },	/* 5 good */
		{ 60, 60 },	/* 6 cut by the end of the file */
	};
	char *a[] = { "in", (char *)path("m.pcap"), "loop", "3" };

	write_raw(path("m.pcap"), DLT_EN10MB, rec, 6, 1);
	link_add("cap0", 4, a);
	run("cap0", 0);
	ck_assert_uint_eq(nr_seen, 6);
	ck_assert_uint_eq(test_info("cap0").rx_packets, 6);
	ck_assert_uint_eq(test_drop("cap0", NETDEV_DROP_RX_TRUNCATED), 3);
	ck_assert_uint_eq(test_drop("cap0", NETDEV_DROP_RX_RUNT), 3);
	/* caplen > len three times, the cut record once per pass */
	ck_assert_uint_eq(test_drop("cap0", NETDEV_DROP_RX_BAD_RECORD), 6);
	ck_assert_uint_eq(test_info("cap0").rx_dropped, 9);
}
END_TEST

START_TEST(errors_name_the_input)
{
	char err[256], *a[2] = { "in", NULL };
	static const u32 rec[][2] = { { 60, 60 } };
	FILE *f;

	a[1] = (char *)path("missing.pcap");
	ck_assert_int_eq(link_add_err(err, sizeof(err), 2, a), -EINVAL);
	ck_assert_msg(strstr(err, "missing.pcap"), "%s", err);

	a[1] = (char *)path("garbage.pcap");
	f = fopen(a[1], "w");
	fputs("this is not a capture file, not at all\n", f);
	fclose(f);
	ck_assert_int_eq(link_add_err(err, sizeof(err), 2, a), -EINVAL);
	ck_assert_msg(strstr(err, "garbage.pcap"), "%s", err);

	a[1] = (char *)path("raw.pcap");
	write_raw(a[1], DLT_RAW, rec, 1, 0);
	ck_assert_int_eq(link_add_err(err, sizeof(err), 2, a), -EINVAL);
	ck_assert_msg(strstr(err, "raw.pcap") && strstr(err, "link type") && strstr(err, "RAW"),
		      "%s", err);

	{
		char *b[] = { "in" };
		char *c[] = { "loop", "x" };
		char *d[] = { "out", (char *)path("o.pcap"), "linktype", "NOSUCHTYPE" };
		char *e[] = { "out", (char *)path("nodir/o.pcap") };
		char *g[] = { "sideways", "1" };

		ck_assert_int_eq(link_add_err(err, sizeof(err), 1, b), -EINVAL);
		ck_assert_msg(strstr(err, "needs a value"), "%s", err);
		ck_assert_int_eq(link_add_err(err, sizeof(err), 2, c), -EINVAL);
		ck_assert_int_eq(link_add_err(err, sizeof(err), 4, d), -EINVAL);
		ck_assert_msg(strstr(err, "NOSUCHTYPE"), "%s", err);
		ck_assert_int_eq(link_add_err(err, sizeof(err), 2, e), -EINVAL);
		ck_assert_msg(strstr(err, "nodir/o.pcap"), "%s", err);
		ck_assert_int_eq(link_add_err(err, sizeof(err), 2, g), -EINVAL);
		ck_assert_int_eq(link_add_err(err, sizeof(err), 0, NULL), -EINVAL);
	}
	ck_assert_ptr_null(dev_get_by_name("bad0"));
}
END_TEST

START_TEST(out_linktype_label)
{
	char *a[] = { "out", (char *)path("o.pcap"), "linktype", "DSA_TAG_EDSA" };
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;

	link_add("out0", 4, a);
	uxdp_link_del_all();
	p = pcap_open_offline(path("o.pcap"), errbuf);
	ck_assert_msg(p, "%s", errbuf);
	ck_assert_int_eq(pcap_datalink(p), 285);
	pcap_close(p);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("pcap");
	TCase *tc = tcase_create("pcap");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, read_classic_and_pcapng);
	tcase_add_test(tc, each_run_replays_and_count);
	tcase_add_test(tc, out_skbs_and_frames);
	tcase_add_test(tc, in_xdp_tx_out_reproduces_input);
	tcase_add_test(tc, redirect_keeps_capture_timestamps);
	tcase_add_test(tc, rx_metadata_timestamp);
	tcase_add_test(tc, malformed_records_dropped_and_counted);
	tcase_add_test(tc, errors_name_the_input);
	tcase_add_test(tc, out_linktype_label);
	suite_add_tcase(s, tc);
	return s;
}
