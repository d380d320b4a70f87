// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel differential test: every example program runs over a set of
 * normal and malformed packets twice, once in this machine's kernel
 * (libbpf bpf_object__load + bpf_prog_test_run_opts) and once in uxdp
 * (uxdp_bpf_object_open + uxdp_bpf_prog_test_run). The return code,
 * verdict, output size and bytes, and after every packet the contents of
 * every map must be identical. Maps named nd_* hold values that differ
 * between runs (clocks, random numbers, routes of the host) and are not
 * compared; RINGBUF records are drained and compared in order after each
 * run; PERF_EVENT_ARRAY slots hold no perf events (output returns -ENOENT
 * on both sides);
 * PROG_ARRAY and *_OF_MAPS hold fds in the kernel and ids in uxdp, so only
 * their keys are compared.
 *
 * Usage: kernel_diff PROGS_DIR OBJECT.o   (exit 77 where the kernel cannot
 * load BPF programs: no root/CAP_BPF, no BPF syscall).
 *
 * The process pins itself to CPU 0 so per-CPU values land in the same slot
 * in the kernel and in uxdp (worker 0).
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/in.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <uxdp_bpf.h>

#define SKIP		77
#define OUT_MAX		(128 << 10)

/* ---- packets ------------------------------------------------------------ */

struct pkt {
	const char *name;
	unsigned char *data;
	unsigned int len;
};

static struct pkt pkts[64];
static unsigned int nr_pkts;

static unsigned char mac_dst[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
static unsigned char mac_src[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

static unsigned short csum16(const void *p, unsigned int len)
{
	const unsigned char *b = p;
	unsigned long sum = 0;
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (b[i] << 8) | b[i + 1];
	if (len & 1)
		sum += b[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

/*
 * A fresh buffer of @len bytes filled with a pattern; 128 bytes of slack
 * let the builders write whole headers that truncated packets then cut.
 */
static unsigned char *pkt_new(const char *name, unsigned int len)
{
	unsigned char *p = malloc(len + 128);
	unsigned int i;

	if (!p || nr_pkts == sizeof(pkts) / sizeof(pkts[0]))
		abort();
	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	pkts[nr_pkts].name = name;
	pkts[nr_pkts].data = p;
	pkts[nr_pkts].len = len;
	nr_pkts++;
	return p;
}

/* Ethernet header with @nvlan tags (outer 802.1ad when two); returns L3 offset. */
static unsigned int put_eth(unsigned char *p, int nvlan, unsigned short proto)
{
	unsigned int off = 12;

	memcpy(p, mac_dst, 6);
	memcpy(p + 6, mac_src, 6);
	if (nvlan == 2) {
		p[off] = 0x88, p[off + 1] = 0xa8, p[off + 2] = 0x00, p[off + 3] = 0x0a;
		off += 4;
	}
	if (nvlan >= 1) {
		p[off] = 0x81, p[off + 1] = 0x00, p[off + 2] = 0x00, p[off + 3] = 0x64;
		off += 4;
	}
	p[off] = proto >> 8;
	p[off + 1] = proto & 0xff;
	return off + 2;
}

static void put_ipv4(unsigned char *out, unsigned int total, unsigned char proto, int ihl,
		     unsigned short frag, unsigned int saddr_last)
{
	unsigned int hlen = ihl * 4 > 20 ? ihl * 4 : 20;
	union {
		struct iphdr ip;
		unsigned char b[60];
	} h;
	struct iphdr *ip = &h.ip;
	unsigned char *p = h.b;

	memset(&h, 0, sizeof(h));
	ip->version = 4;
	ip->ihl = ihl;
	ip->tot_len = htons(total);
	ip->id = htons(0x1234);
	ip->frag_off = htons(frag);
	ip->ttl = 64;
	ip->protocol = proto;
	ip->saddr = htonl(0x0a000000 | saddr_last);
	ip->daddr = htonl(0x0a000002);
	if (ihl > 5)
		p[20] = 1, p[21] = 1, p[22] = 1, p[23] = 0;	/* NOP NOP NOP EOL */
	ip->check = csum16(p, ihl >= 5 ? ihl * 4 : 20);
	memcpy(out, p, hlen);
}

static void put_l4(unsigned char *p, unsigned char proto)
{
	/* ports 1234 -> 80 (TCP) / 53 (UDP) */
	p[0] = 0x04, p[1] = 0xd2;
	p[2] = 0x00, p[3] = proto == IPPROTO_TCP ? 80 : 53;
}

static void ipv4_pkt(const char *name, unsigned int len, int nvlan, unsigned char proto,
		     int ihl, unsigned short frag, unsigned int saddr_last)
{
	unsigned char *p = pkt_new(name, len);
	unsigned int l3 = put_eth(p, nvlan, ETH_P_IP);

	if (len >= l3 + 20)
		put_ipv4(p + l3, len - l3, proto, ihl, frag, saddr_last);
	if (len >= l3 + (ihl < 5 ? 20 : ihl * 4) + 4)
		put_l4(p + l3 + (ihl < 5 ? 20 : ihl * 4), proto);
}

static void ipv6_pkt(const char *name, unsigned int len, const unsigned char *ext,
		     unsigned int ext_len, unsigned char first_nh, unsigned char proto)
{
	unsigned char *p = pkt_new(name, len);
	unsigned int l3 = put_eth(p, 0, ETH_P_IPV6);
	struct ipv6hdr h, *ip6 = &h;

	if (len < l3 + 40)
		return;
	memset(ip6, 0, 40);
	ip6->version = 6;
	ip6->payload_len = htons(len - l3 - 40);
	ip6->nexthdr = ext_len ? first_nh : proto;
	ip6->hop_limit = 64;
	ip6->saddr.s6_addr[0] = 0xfd, ip6->saddr.s6_addr[15] = 1;
	ip6->daddr.s6_addr[0] = 0xfd, ip6->daddr.s6_addr[15] = 2;
	memcpy(p + l3, ip6, 40);
	if (ext_len && len >= l3 + 40 + ext_len)
		memcpy(p + l3 + 40, ext, ext_len);
	if (len >= l3 + 40 + ext_len + 4)
		put_l4(p + l3 + 40 + ext_len, proto);
}

static void build_packets(void)
{
	/* hop-by-hop (8 bytes, next routing) + routing (8 bytes, next TCP) */
	static const unsigned char ext_hbh_rt[16] = {
		IPPROTO_ROUTING, 0, 1, 4, 0, 0, 0, 0,
		IPPROTO_TCP, 0, 0, 0, 0, 0, 0, 0,
	};
	static const unsigned char ext_frag[8] = { IPPROTO_UDP, 0, 0, 1, 0, 0, 0, 42 };
	unsigned char *p;

	pkt_new("runt-13", 13);
	p = pkt_new("eth-only-14", 14);
	put_eth(p, 0, ETH_P_IP);
	ipv4_pkt("ipv4-udp-60", 60, 0, IPPROTO_UDP, 5, 0, 1);
	ipv4_pkt("ipv4-tcp-60", 60, 0, IPPROTO_TCP, 5, 0, 1);
	ipv4_pkt("ipv4-icmp-64", 64, 0, IPPROTO_ICMP, 5, 0, 1);
	ipv4_pkt("ipv4-trunc-ip-24", 24, 0, IPPROTO_UDP, 5, 0, 1);
	ipv4_pkt("ipv4-trunc-l4-38", 38, 0, IPPROTO_TCP, 5, 0, 1);
	ipv4_pkt("ipv4-bad-ihl-4", 60, 0, IPPROTO_UDP, 4, 0, 1);
	ipv4_pkt("ipv4-options-ihl-6", 64, 0, IPPROTO_UDP, 6, 0, 1);
	ipv4_pkt("ipv4-options-trunc", 36, 0, IPPROTO_UDP, 6, 0, 1);
	ipv4_pkt("ipv4-frag-first", 60, 0, IPPROTO_UDP, 5, 0x2000, 1);
	ipv4_pkt("ipv4-frag-later", 60, 0, IPPROTO_UDP, 5, 0x0010, 1);
	ipv4_pkt("ipv4-blocked-src", 60, 0, IPPROTO_UDP, 5, 0, 66);
	ipv4_pkt("vlan-ipv4-udp", 64, 1, IPPROTO_UDP, 5, 0, 1);
	ipv4_pkt("qinq-ipv4-tcp", 68, 2, IPPROTO_TCP, 5, 0, 1);
	p = pkt_new("vlan-trunc-16", 16);
	put_eth(p, 1, ETH_P_IP);
	ipv6_pkt("ipv6-udp-70", 70, NULL, 0, 0, IPPROTO_UDP);
	ipv6_pkt("ipv6-ext-hbh-rt-tcp", 100, ext_hbh_rt, 16, IPPROTO_HOPOPTS, IPPROTO_TCP);
	ipv6_pkt("ipv6-frag", 80, ext_frag, 8, IPPROTO_FRAGMENT, IPPROTO_UDP);
	ipv6_pkt("ipv6-trunc-34", 34, NULL, 0, 0, IPPROTO_UDP);
	ipv6_pkt("ipv6-ext-trunc", 60, ext_hbh_rt, 16, IPPROTO_HOPOPTS, IPPROTO_TCP);
	p = pkt_new("arp-42", 42);
	put_eth(p, 0, ETH_P_ARP);
	ipv4_pkt("ipv4-udp-1500", 1500, 0, IPPROTO_UDP, 5, 0, 1);
	ipv4_pkt("ipv4-udp-3520", 3520, 0, IPPROTO_UDP, 5, 0, 1);
	ipv4_pkt("ipv4-udp-4000", 4000, 0, IPPROTO_UDP, 5, 0, 1);
	ipv4_pkt("ipv4-udp-jumbo-9000", 9000, 0, IPPROTO_UDP, 5, 0, 1);
}

/* ---- per-object setup ---------------------------------------------------- */

struct preload {
	const char *map;
	unsigned char key[16];
	unsigned int key_len;
	unsigned char value[16];
	unsigned int value_len;
	const char *prog;		/* PROG_ARRAY: program name as value */
};

#define SPEC_PROGS	8

struct spec {
	const char *obj;
	const char *progs[SPEC_PROGS];
	struct preload pre[6];
};

static const struct spec specs[] = {
	{ "xdp_pass.o", { "xdp_pass_prog" } },
	{ "xdp_drop.o", { "xdp_drop_prog" } },
	{ "xdp1.o", { "xdp_prog1" } },
	{ "xdp_redirect_map.o",
	  { "xdp_redirect_map_prog", "xdp_redirect_hash_prog", "xdp_broadcast_prog",
	    "xdp_redirect_ifindex_prog", "xdp_redirect_cpu_prog", "xdp_redirect_xsk_prog" },
	  /* cpu_map stays empty: uxdp's CPUMAP redirects miss until the
	   * multi-worker engine exists (kernel/bpf/cpumap.c), so only the
	   * empty-slot fallback is comparable; XSKMAP slots need AF_XDP sockets. */
	  { { "tx_port", { 0, 0, 0, 0 }, 4, { 1, 0, 0, 0 }, 4 } } },
	{ "xdp_rxq_info.o", { "xdp_prognum0" },
	  { { "config_map", { 0, 0, 0, 0 }, 4,
	      { 3, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0 }, 12 } } },
	{ "xdp_csum_loop.o", { "xdp_csum_loop_prog" } },
	{ "xdp_adjust.o", { "xdp_vlan_push", "xdp_vlan_pop", "xdp_tail", "xdp_meta" } },
	{ "xdp_tailcall.o", { "xdp_tail_entry", "xdp_tail_loop" },
	  { { "jmp_table", { 0, 0, 0, 0 }, 4, {}, 4, "xdp_tail_ipv4" },
	    { "jmp_table", { 1, 0, 0, 0 }, 4, {}, 4, "xdp_tail_ipv6" },
	    { "jmp_table", { 3, 0, 0, 0 }, 4, {}, 4, "xdp_tail_loop" } } },
	{ "xdp_frags.o", { "xdp_frags_prog", "xdp_linear_prog" } },
	{ "xdp_maps.o", { "xdp_maps_prog" },
	  { { "routes", { 32, 0, 0, 0, 10, 0, 0, 2 }, 8, { 7, 0, 0, 0 }, 4 } } },
	{ "xdp_helpers.o", { "xdp_helpers_prog" } },
	{ "xdp_globals.o", { "xdp_globals_prog" } },
	{ "xdp_parse_v3.o", { "xdp_parse_prog" },
	  { { "blocklist", { 32, 0, 0, 0, 10, 0, 0, 66 }, 8, { 1, 0, 0, 0 }, 4 } } },
	{ "xdp_parse_v2.o", { "xdp_parse_prog" },
	  { { "blocklist", { 32, 0, 0, 0, 10, 0, 0, 66 }, 8, { 1, 0, 0, 0 }, 4 } } },
};

/* ---- map comparison ------------------------------------------------------- */

struct entries {
	unsigned char *buf;		/* n * (key_size + value_size_sys) */
	unsigned int n;
};

static bool map_skipped(const char *name, unsigned int type)
{
	return !strncmp(name, "nd_", 3) || type == BPF_MAP_TYPE_RINGBUF ||
	       type == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
}

static bool map_holds_ids(unsigned int type)
{
	return type == BPF_MAP_TYPE_PROG_ARRAY || type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	       type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static int cmp_keyed(const void *a, const void *b, void *ks)
{
	return memcmp(a, b, *(unsigned int *)ks);
}

static void entries_sort(struct entries *e, unsigned int ks, unsigned int rec)
{
	if (e->n)
		qsort_r(e->buf, e->n, rec, cmp_keyed, &ks);
}

static int kernel_entries(int fd, unsigned int ks, unsigned int vs, struct entries *e)
{
	unsigned char key[64], next[64];
	unsigned int rec = ks + vs;
	bool have = false;

	e->n = 0;
	e->buf = NULL;
	while (!bpf_map_get_next_key(fd, have ? key : NULL, next) && e->n < 100000) {
		memcpy(key, next, ks);
		have = true;
		e->buf = realloc(e->buf, (size_t)(e->n + 1) * rec);
		memcpy(e->buf + (size_t)e->n * rec, key, ks);
		memset(e->buf + (size_t)e->n * rec + ks, 0, vs);
		if (vs && bpf_map_lookup_elem(fd, key, e->buf + (size_t)e->n * rec + ks))
			continue;
		e->n++;
	}
	entries_sort(e, ks, rec);
	return 0;
}

static int uxdp_entries(unsigned int id, unsigned int ks, unsigned int vs, struct entries *e)
{
	unsigned char key[64], next[64];
	unsigned int rec = ks + vs;
	bool have = false;

	e->n = 0;
	e->buf = NULL;
	while (!uxdp_bpf_map_get_next_key(id, have ? key : NULL, next) && e->n < 100000) {
		memcpy(key, next, ks);
		have = true;
		e->buf = realloc(e->buf, (size_t)(e->n + 1) * rec);
		memcpy(e->buf + (size_t)e->n * rec, key, ks);
		memset(e->buf + (size_t)e->n * rec + ks, 0, vs);
		if (vs && uxdp_bpf_map_lookup_elem(id, key, e->buf + (size_t)e->n * rec + ks))
			continue;
		e->n++;
	}
	entries_sort(e, ks, rec);
	return 0;
}

static void hexdump_diff(const char *what, const unsigned char *k, const unsigned char *u,
			 unsigned int len)
{
	unsigned int i, first = 0;

	for (i = 0; i < len; i++)
		if (k[i] != u[i]) {
			first = i;
			break;
		}
	fprintf(stderr, "    %s differ at byte %u (of %u):\n      kernel:", what, first, len);
	for (i = first; i < len && i < first + 24; i++)
		fprintf(stderr, " %02x", k[i]);
	fprintf(stderr, "\n      uxdp:  ");
	for (i = first; i < len && i < first + 24; i++)
		fprintf(stderr, " %02x", u[i]);
	fprintf(stderr, "\n");
}

struct records {
	unsigned char buf[16384];
	unsigned int used, n;
};

static int record_add(struct records *r, const void *data, unsigned int size)
{
	if (r->used + size + 4 > sizeof(r->buf))
		return 1;
	memcpy(r->buf + r->used, &size, 4);
	memcpy(r->buf + r->used + 4, data, size);
	r->used += size + 4;
	r->n++;
	return 0;
}

static int kernel_record(void *ctx, void *data, size_t size)
{
	return record_add(ctx, data, size);
}

static int uxdp_record(void *ctx, int cpu, void *data, __u32 size)
{
	return record_add(ctx, data, size);
}

/* RINGBUF: the records submitted since the last look, in order. */
static int compare_ringbuf(int kfd, unsigned int uid, const char *name, const char *ctxname)
{
	static struct records kr, ur;
	struct ring_buffer *rb;

	memset(&kr, 0, sizeof(kr));
	memset(&ur, 0, sizeof(ur));
	rb = ring_buffer__new(kfd, kernel_record, &kr, NULL);
	if (!rb) {
		fprintf(stderr, "  %s: ring_buffer__new(%s): %s\n", ctxname, name, strerror(errno));
		return 1;
	}
	ring_buffer__consume(rb);
	ring_buffer__free(rb);
	uxdp_bpf_ringbuf_consume(uid, uxdp_record, &ur);
	if (getenv("UXDP_TEST_VERBOSE"))
		fprintf(stderr, "  %s: ringbuf %s: %u/%u records\n", ctxname, name, kr.n, ur.n);
	if (kr.n != ur.n || kr.used != ur.used || memcmp(kr.buf, ur.buf, kr.used)) {
		fprintf(stderr, "  %s: ringbuf %s: kernel %u records (%u bytes), uxdp %u (%u bytes)\n",
			ctxname, name, kr.n, kr.used, ur.n, ur.used);
		if (kr.used == ur.used)
			hexdump_diff("records", kr.buf, ur.buf, kr.used);
		return 1;
	}
	return 0;
}

static int compare_maps(struct bpf_object *kobj, struct uxdp_bpf_object *uobj,
			const char *ctxname)
{
	int nr_cpus = libbpf_num_possible_cpus();
	struct bpf_map *m;
	int bad = 0;

	bpf_object__for_each_map(m, kobj) {
		const char *name = bpf_map__name(m);
		unsigned int type = bpf_map__type(m);
		unsigned int ks = bpf_map__key_size(m), vs = bpf_map__value_size(m), rec;
		bool percpu = type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
			      type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
		struct entries ke, ue;
		int uid;

		if (type == BPF_MAP_TYPE_RINGBUF && strncmp(name, "nd_", 3)) {
			uid = uxdp_bpf_object_find_map(uobj, name);
			bad += uid < 0 ? 1 : compare_ringbuf(bpf_map__fd(m), uid, name, ctxname);
			continue;
		}
		if (map_skipped(name, type))
			continue;
		uid = uxdp_bpf_object_find_map(uobj, name);
		if (uid < 0) {
			fprintf(stderr, "  %s: map %s missing in uxdp\n", ctxname, name);
			bad++;
			continue;
		}
		if (percpu)
			vs = ((vs + 7) & ~7U) * nr_cpus;
		if (map_holds_ids(type))
			vs = 0;
		rec = ks + vs;
		kernel_entries(bpf_map__fd(m), ks, vs, &ke);
		uxdp_entries(uid, ks, vs, &ue);
		if (ke.n != ue.n) {
			fprintf(stderr, "  %s: map %s: %u entries in the kernel, %u in uxdp\n", ctxname,
				name, ke.n, ue.n);
			bad++;
		} else if (ke.n && memcmp(ke.buf, ue.buf, (size_t)ke.n * rec)) {
			unsigned int i;

			for (i = 0; i < ke.n; i++)
				if (memcmp(ke.buf + (size_t)i * rec, ue.buf + (size_t)i * rec, rec))
					break;
			fprintf(stderr, "  %s: map %s: entry %u differs\n", ctxname, name, i);
			hexdump_diff("key+value", ke.buf + (size_t)i * rec, ue.buf + (size_t)i * rec,
				     rec);
			bad++;
		}
		free(ke.buf);
		free(ue.buf);
	}
	return bad;
}

struct run_case {
	const unsigned char *data;
	unsigned int len;
	unsigned int ctx[6];
	bool use_ctx;
	unsigned int repeat;
};

struct ctx_case {
	const char *name;
	unsigned int meta, extra;	/* bytes of metadata in front, bytes appended */
	unsigned int ctx_data, ctx_data_end, ctx_data_meta;
	int ctx_data_end_rel;		/* -1: data_end = input size */
	unsigned int ingress, rxq, egress;
	bool jumbo, no_ctx;
	unsigned int repeat;
};

static const struct ctx_case ctx_cases[] = {
	{ "ctx-plain", 0, 0, 0, 0, 0, -1 },
	{ "ctx-meta-8", 8, 0, 8, 0, 0, -1 },
	{ "ctx-meta-216", 216, 0, 216, 0, 0, -1 },
	{ "ctx-meta-220", 220, 0, 220, 0, 0, -1 },
	{ "ctx-meta-6", 6, 0, 6, 0, 0, -1 },
	{ "ctx-data-meta-set", 0, 0, 0, 0, 4, -1 },
	{ "ctx-linear-30", 0, 0, 0, 30, 0, 0 },
	{ "ctx-meta-8-linear-30", 8, 0, 8, 30, 0, 0 },
	{ "ctx-linear-0", 0, 0, 0, 0, 0, 0 },
	{ "ctx-data-end-past", 0, 0, 0, 61, 0, 0 },
	{ "ctx-ingress-lo", 0, 0, 0, 0, 0, -1, 1, 0, 0 },
	{ "ctx-rxq-without-ingress", 0, 0, 0, 0, 0, -1, 0, 1, 0 },
	{ "ctx-egress-set", 0, 0, 0, 0, 0, -1, 0, 0, 1 },
	{ "ctx-jumbo-linear-100", 0, 0, 0, 100, 0, 0, 0, 0, 0, true },
	{ "repeat-3", 0, 0, 0, 0, 0, -1, 0, 0, 0, false, true, 3 },
	{ "repeat-3-jumbo", 0, 0, 0, 0, 0, -1, 0, 0, 0, true, true, 3 },
};

static unsigned int udp60_idx, jumbo_idx;

static int run_both(struct bpf_object *kobj, struct bpf_program *kp,
		    struct uxdp_bpf_object *uobj, int upid, const struct spec *s,
		    unsigned int pi, const char *pname, const struct run_case *rc)
{
	static unsigned char kout[OUT_MAX], uout[OUT_MAX];
	LIBBPF_OPTS(bpf_test_run_opts, kopts);
	struct uxdp_bpf_test_run_opts uo = { .sz = sizeof(uo) };
	unsigned int kctx[6], uctx[6];
	char ctxname[256];
	int kerr, uerr, bad = 0;

	snprintf(ctxname, sizeof(ctxname), "%s/%s x %s", s->obj, s->progs[pi], pname);
	memset(kout, 0xaa, sizeof(kout));
	memset(uout, 0xaa, sizeof(uout));
	memset(kctx, 0xbb, sizeof(kctx));
	memset(uctx, 0xbb, sizeof(uctx));
	kopts.data_in = rc->data;
	kopts.data_size_in = rc->len;
	kopts.data_out = kout;
	kopts.data_size_out = sizeof(kout);
	kopts.repeat = rc->repeat;
	uo.data_in = rc->data;
	uo.data_size_in = rc->len;
	uo.data_out = uout;
	uo.data_size_out = sizeof(uout);
	uo.repeat = rc->repeat;
	if (rc->use_ctx) {
		kopts.ctx_in = rc->ctx;
		kopts.ctx_size_in = sizeof(rc->ctx);
		kopts.ctx_out = kctx;
		kopts.ctx_size_out = sizeof(kctx);
		uo.ctx_in = rc->ctx;
		uo.ctx_size_in = sizeof(rc->ctx);
		uo.ctx_out = uctx;
		uo.ctx_size_out = sizeof(uctx);
	}
	kerr = bpf_prog_test_run_opts(bpf_program__fd(kp), &kopts);
	if (kerr)
		kerr = -errno ? -errno : kerr;
	uerr = uxdp_bpf_prog_test_run(upid, &uo);

	if (kerr != uerr) {
		fprintf(stderr, "  %s: return code kernel %d, uxdp %d\n", ctxname, kerr, uerr);
		return 1;
	}
	if (kerr)
		return compare_maps(kobj, uobj, ctxname);
	if (kopts.retval != uo.retval) {
		fprintf(stderr, "  %s: verdict kernel %u, uxdp %u\n", ctxname, kopts.retval, uo.retval);
		bad++;
	}
	if (kopts.data_size_out != uo.data_size_out) {
		fprintf(stderr, "  %s: data_size_out kernel %u, uxdp %u\n", ctxname,
			kopts.data_size_out, uo.data_size_out);
		bad++;
	} else if (memcmp(kout, uout, kopts.data_size_out)) {
		fprintf(stderr, "  %s: output bytes differ\n", ctxname);
		hexdump_diff("data_out", kout, uout, kopts.data_size_out);
		bad++;
	}
	if (rc->use_ctx && (kopts.ctx_size_out != uo.ctx_size_out ||
			    memcmp(kctx, uctx, sizeof(kctx)))) {
		fprintf(stderr, "  %s: ctx_out differs\n", ctxname);
		hexdump_diff("ctx_out", (unsigned char *)kctx, (unsigned char *)uctx, sizeof(kctx));
		bad++;
	}
	return bad + compare_maps(kobj, uobj, ctxname);
}

/* ---- main ----------------------------------------------------------------- */

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("UXDP_TEST_VERBOSE"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/*
 * What a loader that wants the XDP programs does: programs of sections
 * libbpf does not know become XDP (bpf_program__set_type(), iproute2's
 * `sec`), programs of other types are not loaded (autoload off).
 */
static void xdp_only(struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		if (bpf_program__type(p) == BPF_PROG_TYPE_UNSPEC)
			bpf_program__set_type(p, BPF_PROG_TYPE_XDP);
		else if (bpf_program__type(p) != BPF_PROG_TYPE_XDP)
			bpf_program__set_autoload(p, false);
	}
}

static int apply_preloads(const struct spec *s, struct bpf_object *kobj,
			  struct uxdp_bpf_object *uobj)
{
	int nr_cpus = libbpf_num_possible_cpus();
	unsigned int i;

	for (i = 0; i < 6 && s->pre[i].map; i++) {
		const struct preload *p = &s->pre[i];
		struct bpf_map *km = bpf_object__find_map_by_name(kobj, p->map);
		int uid = uxdp_bpf_object_find_map(uobj, p->map);
		unsigned char kval[4096], uval[4096];
		unsigned int vs, c;
		int err;

		if (!km || uid < 0) {
			fprintf(stderr, "%s: preload map %s not found\n", s->obj, p->map);
			return -1;
		}
		memset(kval, 0, sizeof(kval));
		memset(uval, 0, sizeof(uval));
		if (p->prog) {
			struct bpf_program *kp = bpf_object__find_program_by_name(kobj, p->prog);
			int upid = uxdp_bpf_object_find_prog(uobj, p->prog, NULL);
			int fd = kp ? bpf_program__fd(kp) : -1;

			if (fd < 0 || upid < 0)
				return -1;
			memcpy(kval, &fd, 4);
			memcpy(uval, &upid, 4);
		} else {
			vs = bpf_map__value_size(km);
			if (bpf_map__type(km) == BPF_MAP_TYPE_PERCPU_ARRAY ||
			    bpf_map__type(km) == BPF_MAP_TYPE_PERCPU_HASH) {
				for (c = 0; c < (unsigned int)nr_cpus; c++) {
					memcpy(kval + c * ((vs + 7) & ~7U), p->value, p->value_len);
					memcpy(uval + c * ((vs + 7) & ~7U), p->value, p->value_len);
				}
			} else {
				memcpy(kval, p->value, p->value_len);
				memcpy(uval, p->value, p->value_len);
			}
		}
		err = bpf_map_update_elem(bpf_map__fd(km), p->key, kval, 0);
		if (err) {
			fprintf(stderr, "%s: kernel preload %s: %s\n", s->obj, p->map, strerror(-err));
			return -1;
		}
		err = uxdp_bpf_map_update_elem(uid, p->key, uval, 0);
		if (err) {
			fprintf(stderr, "%s: uxdp preload %s: %s\n", s->obj, p->map, strerror(-err));
			return -1;
		}
	}
	return 0;
}

static int run_spec(const char *dir, const struct spec *s)
{
	struct uxdp_bpf_object_open_opts uopts = { .sz = sizeof(uopts) };
	struct uxdp_bpf_object *uobj;
	struct bpf_object *kobj;
	char path[4096], log[16384] = "";
	unsigned int pi, k, runs = 0;
	int bad = 0, err;

	snprintf(path, sizeof(path), "%s/%s", dir, s->obj);
	kobj = bpf_object__open_file(path, NULL);
	if (!kobj) {
		fprintf(stderr, "%s: libbpf cannot open: %s\n", path, strerror(errno));
		return 1;
	}
	xdp_only(kobj);
	err = bpf_object__load(kobj);
	if (err) {
		if (geteuid())
			fprintf(stderr, "SKIP: the kernel cannot load %s (%s): BPF programs need root or CAP_BPF+CAP_NET_ADMIN\n",
				path, strerror(-err));
		else
			fprintf(stderr, "SKIP: the kernel refuses %s (%s) to root: this kernel's build forbids something it uses (its verdict test shows what)\n",
				path, strerror(-err));
		bpf_object__close(kobj);
		return SKIP;
	}
	uopts.log_buf = log;
	uopts.log_size = sizeof(log);
	uopts.xdp_any = true;	/* custom sections as XDP, as xdp_only() did */
	uobj = uxdp_bpf_object_open(path, &uopts);
	if (!uobj) {
		fprintf(stderr, "FAIL %s: uxdp cannot load it: %s\n", s->obj, log);
		bpf_object__close(kobj);
		return 1;
	}
	if (apply_preloads(s, kobj, uobj)) {
		bad++;
		goto out;
	}
	bad += compare_maps(kobj, uobj, "after load");

	for (pi = 0; pi < SPEC_PROGS && s->progs[pi]; pi++) {
		struct bpf_program *kp = bpf_object__find_program_by_name(kobj, s->progs[pi]);
		int upid = uxdp_bpf_object_find_prog(uobj, s->progs[pi], NULL);

		if (!kp || upid < 0) {
			fprintf(stderr, "FAIL %s: program %s not found\n", s->obj, s->progs[pi]);
			bad++;
			continue;
		}
		for (k = 0; k < nr_pkts; k++) {
			struct run_case rc = { .data = pkts[k].data, .len = pkts[k].len };

			bad += run_both(kobj, kp, uobj, upid, s, pi, pkts[k].name, &rc);
			runs++;
		}
		/* ctx_in rules (6.18: data_end = linear size), repeat */
		for (k = 0; k < sizeof(ctx_cases) / sizeof(ctx_cases[0]); k++) {
			const struct ctx_case *cc = &ctx_cases[k];
			unsigned char buf[9000 + 256];
			struct run_case rc = {};
			unsigned int base = cc->jumbo ? 9000 : 60;

			memset(buf, 0x5a, sizeof(buf));
			memcpy(buf + cc->meta, pkts[cc->jumbo ? jumbo_idx : udp60_idx].data, base);
			rc.data = buf;
			rc.len = base + cc->meta + cc->extra;
			memset(rc.ctx, 0, sizeof(rc.ctx));
			rc.ctx[0] = cc->ctx_data;
			rc.ctx[1] = cc->ctx_data_end_rel == -1 ? rc.len : cc->ctx_data_end;
			rc.ctx[2] = cc->ctx_data_meta;
			rc.ctx[3] = cc->ingress;
			rc.ctx[4] = cc->rxq;
			rc.ctx[5] = cc->egress;
			rc.use_ctx = !cc->no_ctx;
			rc.repeat = cc->repeat;
			bad += run_both(kobj, kp, uobj, upid, s, pi, cc->name, &rc);
			runs++;
		}
	}
out:
	printf("%s: %u runs, %d mismatches\n", s->obj, runs, bad);
	uxdp_bpf_object_close(uobj);
	bpf_object__close(kobj);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	cpu_set_t set;
	unsigned int i;
	int ret = 0, r, rr;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGS_DIR [OBJECT.o]...\n", argv[0]);
		return 2;
	}
	libbpf_set_print(libbpf_quiet);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	build_packets();
	for (i = 0; i < nr_pkts; i++) {
		if (!strcmp(pkts[i].name, "ipv4-udp-60"))
			udp60_idx = i;
		if (!strcmp(pkts[i].name, "ipv4-udp-jumbo-9000"))
			jumbo_idx = i;
	}
	/* Objects without a spec: every program, no preloads. */
	for (r = 2; r < argc; r++) {
		static struct spec dyn;
		char path[4096];
		struct bpf_object *o;
		struct bpf_program *p;
		unsigned int n = 0;

		for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
			if (!strcmp(argv[r], specs[i].obj))
				break;
		if (i < sizeof(specs) / sizeof(specs[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], argv[r]);
		o = bpf_object__open_file(path, NULL);
		if (!o) {
			fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
			return 1;
		}
		memset(&dyn, 0, sizeof(dyn));
		dyn.obj = argv[r];
		xdp_only(o);
		bpf_object__for_each_program(p, o)
			if (n < SPEC_PROGS && bpf_program__autoload(p))
				dyn.progs[n++] = strdup(bpf_program__name(p));
		bpf_object__close(o);
		printf("%s: no spec, running its %u programs without preloads\n", argv[r], n);
		rr = run_spec(argv[1], &dyn);
		for (i = 0; i < n; i++)
			free((char *)dyn.progs[i]);
		if (rr == SKIP)
			return SKIP;
		if (rr)
			ret = 1;
	}
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		int j, want = argc == 2;

		for (j = 2; j < argc; j++)
			if (!strcmp(argv[j], specs[i].obj))
				want = 1;
		if (!want)
			continue;
		r = run_spec(argv[1], &specs[i]);
		if (r == SKIP)
			return SKIP;
		if (r)
			ret = 1;
	}
	for (i = 0; i < nr_pkts; i++)
		free(pkts[i].data);
	return ret;
}
