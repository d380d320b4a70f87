// SPDX-License-Identifier: GPL-2.0
/*
 * gen: a packet generator that behaves like a NIC driver. Each rx queue has
 * a page pool and a NAPI instance; its poll writes up to 64 frames into
 * page-pool pages (256 bytes of headroom, 4 KiB frames, multi-buffer with
 * `frags N`) and runs them through native XDP exactly as a driver's rx
 * loop does (ixgbe in the published veth-bulk setup): PASS builds an skb around the
 * page (napi_build_skb) for the stack, TX leaves on gen's own wire
 * (counted as transmitted), REDIRECT goes to xdp_do_redirect() and the
 * poll ends with xdp_do_flush(). Without a program every frame is PASS.
 *
 * `frags N hsplit H` lays frames out as a NIC with header split or GRO
 * hands them over: H bytes of headers linear, the payload in N page frags
 * (up to 64 KiB in 17 frags); without a native program they reach the stack
 * (and generic XDP) as non-linear skbs. ndo_start_xmit (generic XDP_TX,
 * redirect of skbs) counts the skb as transmitted on gen's wire.
 *
 * Frames come from up to 1024 prebuilt flow templates (UDP/IPv4,
 * UDP/IPv6 or TCP/IPv4; source/destination address and port ranges),
 * checksums correct, sent round robin. `count N` stops after N frames in
 * total, `rate PPS` paces each queue to its share.
 *
 * Robustness traffic (tests/soak): `size MIN-MAX` draws each frame's size
 * uniformly (length fields and checksums rewritten; the payload is zeros),
 * `malformed PCT` makes PCT % of the frames (IPv4 only) one of five kinds
 * the datapath must drop and count: a runt shorter than an Ethernet
 * header (RUNT), an IPv4 header cut short (TRUNC), a bad version or IHL
 * (HDR), a bad header checksum (CSUM), tot_len beyond the frame (TOTLEN).
 * Runts and cut headers are single-buffer frames even with `frags N`;
 * runts are dropped before XDP (RX_RUNT), as virtio_net drops a short
 * packet, and are not counted as received.
 * The draws come from a per-queue xorshift stream seeded by `seed N`, so
 * a run is reproducible; ethtool stats count the kinds per device.
 *
 * Kernel: drivers/net/ethernet/intel/ixgbe/ixgbe_main.c ixgbe_clean_rx_irq()
 *	   and ixgbe_run_xdp() (the shape), net/core/pktgen.c (the idea)
 * Differs: no wire, no descriptors; the destination MAC is gen's own
 *	    unless `dst_mac` says otherwise, so PASS'ed frames are PACKET_HOST.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/page_pool/helpers.h>
#include <net/rtnetlink.h>
#include <net/xdp.h>
#include <net/xdp_rx.h>

#define GEN_HEADROOM		256
#define GEN_MAX_FLOWS		1024
#define GEN_MAX_QUEUES		64
#define NET_IP_ALIGN_BUILD	2
#define GEN_POOL_SIZE		2048
#define GEN_MAX_SIZE		65535	/* with frags N (9000 without) */
#define GEN_PPM			1000000

enum gen_proto { GEN_UDP, GEN_UDP6, GEN_TCP };

/* `malformed PCT` kinds; the drop each should end in is in the header. */
enum gen_bad { GEN_BAD_RUNT, GEN_BAD_TRUNC, GEN_BAD_HDR, GEN_BAD_CSUM, GEN_BAD_TOTLEN,
	       GEN_BAD_NR };
static const char *const gen_bad_names[GEN_BAD_NR] = {
	"malformed_runt", "malformed_trunc", "malformed_hdr", "malformed_csum",
	"malformed_totlen",
};

struct gen_queue {
	struct napi_struct napi;
	struct net_device *dev;
	struct page_pool *pool;
	struct xdp_rxq_info xdp_rxq;
	unsigned int next_flow;
	u64 generated;
	u64 start_ns;
	u64 rnd;			/* xorshift state (size MIN-MAX, malformed) */
	u64 bad[GEN_BAD_NR];		/* malformed frames made, by kind */
} __aligned(SMP_CACHE_BYTES);

struct gen_priv {
	enum gen_proto proto;
	unsigned int size;		/* frame bytes, Ethernet header included (max of a range) */
	unsigned int size_min;		/* `size MIN-MAX`: == size when fixed */
	u32 malformed_ppm;		/* `malformed PCT` in parts per million */
	u64 seed;
	unsigned int frags;		/* extra 4 KiB buffers per frame */
	unsigned int hsplit;		/* header split: linear bytes with frags (0: even split) */
	u64 count;			/* this run's count; 0: unlimited */
	u64 cfg_count;			/* `count N` of the link */
	u64 rate;			/* pps, 0: as fast as possible */
	u64 reserved;			/* frames claimed so far (atomic) */
	u8 dst_mac[ETH_ALEN];
	bool dst_mac_set;
	u8 src_mac[ETH_ALEN];
	u8 *templates;			/* nr_flows × size */
	u32 *flow_hash;			/* nr_flows: the RSS hash of each flow */
	unsigned int nr_flows;
	struct gen_queue *q;
	unsigned int nr_queues;
	/* flow parameters */
	struct in6_addr src_lo, src_hi, dst_lo, dst_hi;
	bool v6;
	bool src_set, dst_set, src_v6, dst_v6;	/* `src`, `dst` given; their family */
	u16 sport_lo, sport_hi, dport_lo, dport_hi;
};

static u64 gen_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static u32 csum_add_buf(u32 sum, const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len > 1) {
		sum += (p[0] << 8) | p[1];
		p += 2;
		len -= 2;
	}
	if (len)
		sum += p[0] << 8;
	return sum;
}

static u16 csum_fold16(u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((u16)~sum);
}

/* Add @n to a 128-bit address (network order); IPv4 uses the last 4 bytes. */
static void addr_add(struct in6_addr *a, u32 n)
{
	for (int i = 15; i >= 0 && n; i--) {
		u32 v = a->s6_addr[i] + (n & 0xff);

		a->s6_addr[i] = (u8)v;
		n = (n >> 8) + (v >> 8);
	}
}

static u64 addr_span(const struct in6_addr *lo, const struct in6_addr *hi)
{
	u64 l = 0, h = 0;

	for (int i = 8; i < 16; i++) {
		l = (l << 8) | lo->s6_addr[i];
		h = (h << 8) | hi->s6_addr[i];
	}
	return h >= l ? h - l + 1 : 1;
}

static void gen_build_one(struct gen_priv *priv, struct net_device *dev, u8 *pkt,
			  const struct in6_addr *src, const struct in6_addr *dst,
			  u16 sport, u16 dport)
{
	unsigned int size = priv->size, l3len = size - ETH_HLEN, l4len;
	struct ethhdr *eth = (struct ethhdr *)pkt;
	u8 *l4;
	u32 sum;

	memset(pkt, 0, size);
	memcpy(eth->h_dest, priv->dst_mac_set ? priv->dst_mac : dev->dev_addr, ETH_ALEN);
	memcpy(eth->h_source, priv->src_mac, ETH_ALEN);
	if (priv->proto == GEN_UDP6) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(pkt + ETH_HLEN);

		eth->h_proto = htons(ETH_P_IPV6);
		ip6->version = 6;
		ip6->payload_len = htons(l3len - sizeof(*ip6));
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = 64;
		ip6->saddr = *src;
		ip6->daddr = *dst;
		l4 = (u8 *)(ip6 + 1);
		l4len = l3len - sizeof(*ip6);
		sum = csum_add_buf(0, &ip6->saddr, 32);
		sum += IPPROTO_UDP + l4len;
	} else {
		struct iphdr *ip = (struct iphdr *)(pkt + ETH_HLEN);
		u8 proto = priv->proto == GEN_TCP ? IPPROTO_TCP : IPPROTO_UDP;

		eth->h_proto = htons(ETH_P_IP);
		ip->version = 4;
		ip->ihl = 5;
		ip->tot_len = htons(l3len);
		ip->ttl = 64;
		ip->protocol = proto;
		memcpy(&ip->saddr, &src->s6_addr[12], 4);
		memcpy(&ip->daddr, &dst->s6_addr[12], 4);
		ip->check = csum_fold16(csum_add_buf(0, ip, sizeof(*ip)));
		l4 = (u8 *)(ip + 1);
		l4len = l3len - sizeof(*ip);
		sum = csum_add_buf(0, &ip->saddr, 8);
		sum += proto + l4len;
	}
	if (priv->proto == GEN_TCP) {
		struct tcphdr *th = (struct tcphdr *)l4;

		th->source = htons(sport);
		th->dest = htons(dport);
		th->doff = 5;
		th->ack = 1;
		th->window = htons(65535);
		th->check = csum_fold16(csum_add_buf(sum, l4, l4len));
	} else {
		struct udphdr *uh = (struct udphdr *)l4;

		uh->source = htons(sport);
		uh->dest = htons(dport);
		uh->len = htons(l4len);
		/* IPv4 UDP may leave the checksum 0; IPv6 may not. */
		if (priv->proto == GEN_UDP6) {
			uh->check = csum_fold16(csum_add_buf(sum, l4, l4len));
			if (!uh->check)
				uh->check = 0xffff;
		}
	}
}

/*
 * The RSS hash a NIC reports (Toeplitz over the addresses and ports, in
 * network order) with the well-known default key of the Microsoft RSS
 * specification: the same hash on every run, where a kernel driver's key
 * is random per boot (netdev_rss_key_fill()).
 */
static const u8 gen_rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb,
	0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30,
	0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static u32 gen_toeplitz(const u8 *in, unsigned int len)
{
	u32 hash = 0, key = (u32)gen_rss_key[0] << 24 | gen_rss_key[1] << 16 |
			    gen_rss_key[2] << 8 | gen_rss_key[3];

	for (unsigned int i = 0; i < len; i++) {
		u8 next = i + 4 < sizeof(gen_rss_key) ? gen_rss_key[i + 4] : 0;

		for (int b = 7; b >= 0; b--) {
			if (in[i] & (1u << b))
				hash ^= key;
			key = key << 1 | (next >> b & 1);
		}
	}
	return hash;
}

/* A template's hash: addresses, then source and destination port. */
static u32 gen_flow_hash(const struct gen_priv *priv, const u8 *frame)
{
	const u8 *l3 = frame + ETH_HLEN;
	u8 in[36];

	if (priv->proto == GEN_UDP6) {
		memcpy(in, l3 + 8, 32);			/* saddr, daddr */
		memcpy(in + 32, l3 + 40, 4);		/* sport, dport */
		return gen_toeplitz(in, 36);
	}
	memcpy(in, l3 + 12, 8);
	memcpy(in + 8, l3 + (l3[0] & 0xf) * 4, 4);
	return gen_toeplitz(in, 12);
}

static int gen_build_templates(struct gen_priv *priv, struct net_device *dev)
{
	u64 ns = addr_span(&priv->src_lo, &priv->src_hi);
	u64 nd = addr_span(&priv->dst_lo, &priv->dst_hi);
	u64 nsp = priv->sport_hi - priv->sport_lo + 1;
	u64 ndp = priv->dport_hi - priv->dport_lo + 1;
	u64 total = ns * nd * nsp * ndp;
	unsigned int n = total > GEN_MAX_FLOWS ? GEN_MAX_FLOWS : (unsigned int)total;
	static u8 scratch[GEN_MAX_SIZE + 8] __aligned(8);

	priv->templates = malloc((size_t)n * priv->size);
	priv->flow_hash = malloc((size_t)n * sizeof(*priv->flow_hash));
	if (!priv->templates || !priv->flow_hash) {
		free(priv->templates);
		free(priv->flow_hash);
		priv->templates = NULL;
		priv->flow_hash = NULL;
		return -ENOMEM;
	}
	priv->nr_flows = n;
	/* Enumerate dport fastest, then sport, dst, src. */
	for (unsigned int i = 0; i < n; i++) {
		u64 k = i;
		struct in6_addr s = priv->src_lo, d = priv->dst_lo;
		u16 dp = priv->dport_lo + k % ndp, sp;

		k /= ndp;
		sp = priv->sport_lo + k % nsp;
		k /= nsp;
		addr_add(&d, k % nd);
		k /= nd;
		addr_add(&s, k % ns);
		/* Built at offset 2 of an aligned buffer: IP header 4-aligned. */
		gen_build_one(priv, dev, scratch + NET_IP_ALIGN_BUILD, &s, &d, sp, dp);
		memcpy(priv->templates + (size_t)i * priv->size, scratch + NET_IP_ALIGN_BUILD,
		       priv->size);
		priv->flow_hash[i] = gen_flow_hash(priv, priv->templates + (size_t)i * priv->size);
	}
	return 0;
}

/* ---- rx path ------------------------------------------------------------ */

/* Claim up to @want frames of the total count. */
static unsigned int gen_claim(struct gen_priv *priv, unsigned int want)
{
	u64 cur, next;

	if (!priv->count)
		return want;
	cur = __atomic_load_n(&priv->reserved, __ATOMIC_RELAXED);
	do {
		if (cur >= priv->count)
			return 0;
		next = cur + want > priv->count ? priv->count : cur + want;
	} while (!__atomic_compare_exchange_n(&priv->reserved, &cur, next, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return next - cur;
}

static bool gen_active(struct net_device *dev)
{
	struct gen_priv *priv = netdev_priv(dev);

	if (!(dev->flags & IFF_UP) || netdev_run_stopping())
		return false;
	return !priv->count || __atomic_load_n(&priv->reserved, __ATOMIC_RELAXED) < priv->count;
}

static u32 gen_random(struct gen_queue *q)
{
	q->rnd ^= q->rnd << 13;
	q->rnd ^= q->rnd >> 7;
	q->rnd ^= q->rnd << 17;
	return (u32)(q->rnd >> 32);
}

/* `size MIN-MAX` and `malformed PCT`: this frame's size and kind (-1: good). */
static unsigned int gen_draw(struct gen_priv *priv, struct gen_queue *q, int *bad)
{
	unsigned int size = priv->size;

	*bad = -1;
	if (priv->size_min != priv->size)
		size = priv->size_min + gen_random(q) % (priv->size - priv->size_min + 1);
	if (priv->malformed_ppm && gen_random(q) % GEN_PPM < priv->malformed_ppm) {
		*bad = gen_random(q) % GEN_BAD_NR;
		if (*bad == GEN_BAD_RUNT)
			size = 1 + gen_random(q) % (ETH_HLEN - 1);
		else if (*bad == GEN_BAD_TRUNC)
			size = ETH_HLEN + 1 + gen_random(q) % (sizeof(struct iphdr) - 1);
	}
	return size;
}

/*
 * Rewrite the length fields and checksums of a frame cut from a template
 * to @size bytes (the payload is zeros, so only the headers count), then
 * damage it as @bad says.
 */
static void gen_shape(struct gen_priv *priv, struct gen_queue *q, u8 *pkt, unsigned int size,
		      int bad)
{
	unsigned int l3len = size - ETH_HLEN, l4len;
	struct iphdr *ip = (struct iphdr *)(pkt + ETH_HLEN);
	u8 *l4;
	u32 sum;

	if (bad == GEN_BAD_RUNT || bad == GEN_BAD_TRUNC)
		return;	/* no (whole) IPv4 header to rewrite */
	if (size != priv->size) {
		if (priv->proto == GEN_UDP6) {
			struct ipv6hdr *ip6 = (struct ipv6hdr *)(pkt + ETH_HLEN);
			struct udphdr *uh = (struct udphdr *)(ip6 + 1);

			l4len = l3len - sizeof(*ip6);
			ip6->payload_len = htons(l4len);
			uh->len = htons(l4len);
			uh->check = 0;
			sum = csum_add_buf(0, &ip6->saddr, 32) + IPPROTO_UDP + l4len;
			uh->check = csum_fold16(csum_add_buf(sum, uh, sizeof(*uh)));
			if (!uh->check)
				uh->check = 0xffff;
			return;
		}
		l4len = l3len - sizeof(*ip);
		l4 = (u8 *)(ip + 1);
		ip->tot_len = htons(l3len);
		if (priv->proto == GEN_TCP) {
			struct tcphdr *th = (struct tcphdr *)l4;

			th->check = 0;
			sum = csum_add_buf(0, &ip->saddr, 8) + IPPROTO_TCP + l4len;
			th->check = csum_fold16(csum_add_buf(sum, th, sizeof(*th)));
		} else {
			((struct udphdr *)l4)->len = htons(l4len);
		}
	}
	switch (bad) {
	case GEN_BAD_HDR:
		if (gen_random(q) & 1)
			ip->ihl = gen_random(q) % 5;
		else
			ip->version = 5 + gen_random(q) % 11;	/* 5..15: not 4 */
		break;
	case GEN_BAD_TOTLEN:
		ip->tot_len = htons(l3len + 1 + gen_random(q) % 64);
		break;
	}
	if (size != priv->size || bad >= 0) {
		ip->check = 0;
		ip->check = csum_fold16(csum_add_buf(0, ip, sizeof(*ip)));
	}
	/* Off by 0x0101 in one's complement: never a valid checksum. */
	if (bad == GEN_BAD_CSUM)
		ip->check ^= htons(0x0101);
}

/*
 * The template into the frame: 32 to 128 bytes (minimum-size frames, the
 * common case) as two fixed-size copies that may overlap, inlined, instead
 * of a call of memcpy() for a length it has to dispatch on every frame.
 */
static inline void gen_copy(u8 *dst, const u8 *src, unsigned int n)
{
	if (n >= 32 && n <= 64) {
		memcpy(dst, src, 32);
		memcpy(dst + n - 32, src + n - 32, 32);
	} else if (n > 64 && n <= 128) {
		memcpy(dst, src, 64);
		memcpy(dst + n - 64, src + n - 64, 64);
	} else {
		memcpy(dst, src, n);
	}
}

/* A fresh pool page with @linear bytes of @tmpl, as @xdp; false: pool empty. */
static __always_inline bool gen_fill_linear(struct gen_queue *q, struct xdp_buff *xdp,
					    const u8 *tmpl, unsigned int linear)
{
	struct page *page = page_pool_dev_alloc_pages(q->pool);
	u8 *va;

	if (unlikely(!page))
		return false;
	va = page_address(page);
	gen_copy(va + GEN_HEADROOM, tmpl, linear);
	xdp_init_buff(xdp, PAGE_SIZE, &q->xdp_rxq);
	xdp_prepare_buff(xdp, va, GEN_HEADROOM, linear, true);
	return true;
}

static __always_inline void gen_next_flow(const struct gen_priv *priv, struct gen_queue *q)
{
	if (++q->next_flow == priv->nr_flows)
		q->next_flow = 0;
}

/*
 * Any frame that is not a plain copy of its template (a size range,
 * malformed frames, frags): out of line, so that the plain path stays short.
 */
static noinline bool gen_fill_shaped(struct gen_priv *priv, struct gen_queue *q,
				     struct xdp_buff *xdp, unsigned int *len, int *bad_kind)
{
	const u8 *tmpl = priv->templates + (size_t)q->next_flow * priv->size;
	unsigned int size = priv->size, nfrags = priv->frags, linear, per_frag = 0;
	int bad = -1;

	if (priv->size_min != priv->size || priv->malformed_ppm) {
		size = gen_draw(priv, q, &bad);
		if (size < priv->size_min)
			nfrags = 0;	/* a runt or a cut header: one buffer */
	}
	*len = linear = size;
	if (nfrags && priv->hsplit) {
		/* Header split (a NIC's or GRO's layout): headers linear, payload in frags. */
		linear = priv->hsplit;
		per_frag = (size - linear) / nfrags;
	} else if (nfrags) {
		per_frag = (size - ETH_HLEN - 40) / (nfrags + 1);
		if (!per_frag)
			per_frag = 1;
		linear = size - per_frag * nfrags;
	}
	if (!gen_fill_linear(q, xdp, tmpl, linear))
		return false;
	if (size != priv->size || bad >= 0)
		gen_shape(priv, q, xdp->data, size, bad);
	if (nfrags) {
		struct skb_shared_info *sinfo = (struct skb_shared_info *)__xdp_buff_hard_end(xdp);
		unsigned int off = linear;

		sinfo->nr_frags = 0;
		sinfo->xdp_frags_size = 0;
		for (unsigned int i = 0; i < nfrags; i++) {
			struct page *fp = page_pool_dev_alloc_pages(q->pool);
			/* the last frag takes the remainder of a header split */
			unsigned int flen = i + 1 == nfrags ? size - off : per_frag;

			if (unlikely(!fp)) {
				xdp_buff_set_frags_flag(xdp);
				xdp_return_buff(xdp);
				return false;
			}
			memcpy(page_address(fp), tmpl + off, flen);
			skb_frag_fill_page_desc(&sinfo->frags[i], fp, 0, flen);
			sinfo->nr_frags++;
			sinfo->xdp_frags_size += flen;
			off += flen;
		}
		sinfo->xdp_frags_truesize = nfrags * PAGE_SIZE;
		xdp_buff_set_frags_flag(xdp);
	}
	*bad_kind = bad;
	if (bad >= 0)
		q->bad[bad]++;	/* made: it reaches the program */
	gen_next_flow(priv, q);
	return true;
}

/*
 * Fill one frame of @*len bytes; returns false when the pool is empty
 * (nothing held). @plain: every frame is its template as it is (one
 * size, none malformed, no frags), decided once per poll.
 */
static __always_inline bool gen_fill(struct gen_priv *priv, struct gen_queue *q, bool plain,
				     struct xdp_buff *xdp, unsigned int *len, int *bad_kind)
{
	unsigned int size = priv->size;

	if (unlikely(!plain))
		return gen_fill_shaped(priv, q, xdp, len, bad_kind);
	if (!gen_fill_linear(q, xdp, priv->templates + (size_t)q->next_flow * size, size))
		return false;
	*len = size;
	*bad_kind = -1;
	gen_next_flow(priv, q);
	return true;
}

/*
 * RX metadata for device-bound programs, as a NIC's descriptor gives it:
 * the flow's RSS hash (L4 over IPv4 or IPv6 TCP/UDP) and a timestamp of
 * the poll (CLOCK_REALTIME, one per poll as a NIC batches its interrupt).
 * The ops answer only for the frame this worker's program runs on; any
 * other buffer (generic XDP on gen) gets -ENODATA, and so does a
 * malformed frame's hash.
 */
struct gen_rx_meta {
	const struct xdp_buff *xdp;
	u32 hash;
	u32 rss_type;
	u64 tstamp;
};

static __thread struct gen_rx_meta gen_rx_cur;

static int gen_xmo_rx_timestamp(const struct xdp_buff *xdp, u64 *timestamp)
{
	if (gen_rx_cur.xdp != xdp)
		return -ENODATA;
	*timestamp = gen_rx_cur.tstamp;
	return 0;
}

static int gen_xmo_rx_hash(const struct xdp_buff *xdp, u32 *hash, u32 *rss_type)
{
	if (gen_rx_cur.xdp != xdp || gen_rx_cur.rss_type == XDP_RSS_TYPE_NONE)
		return -ENODATA;
	*hash = gen_rx_cur.hash;
	*rss_type = gen_rx_cur.rss_type;
	return 0;
}

static const struct xdp_metadata_ops gen_xdp_metadata_ops = {
	.xmo_rx_timestamp = gen_xmo_rx_timestamp,
	.xmo_rx_hash = gen_xmo_rx_hash,
};

static u32 gen_rss_type(const struct gen_priv *priv)
{
	switch (priv->proto) {
	case GEN_TCP:
		return XDP_RSS_TYPE_L4_IPV4_TCP;
	case GEN_UDP6:
		return XDP_RSS_TYPE_L4_IPV6_UDP;
	default:
		return XDP_RSS_TYPE_L4_IPV4_UDP;
	}
}

static int gen_poll(struct napi_struct *napi, int budget)
{
	struct gen_queue *q = container_of(napi, struct gen_queue, napi);
	struct net_device *dev = q->dev;
	struct gen_priv *priv = netdev_priv(dev);
	struct bpf_prog *prog = dev->xdp_prog;
	/* a device-bound program reads RX metadata (gen_rx_cur) */
	bool rx_meta = prog && prog->aux->dev_bound_ifindex;
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);
	unsigned int want = budget, got, i;
	bool plain = priv->size_min == priv->size && !priv->malformed_ppm && !priv->frags;
	bool redirected = false;

	if (!gen_active(dev)) {
		napi_complete_done(napi, 0);
		return 0;
	}
	if (priv->rate) {
		u64 rate_q = priv->rate / priv->nr_queues ? priv->rate / priv->nr_queues : 1;
		u64 allowed = (gen_now_ns() - q->start_ns) * rate_q / 1000000000ULL;

		want = allowed > q->generated ? allowed - q->generated : 0;
		if (want > (unsigned int)budget)
			want = budget;
		if (!want)
			return budget;	/* stay scheduled: paced, not idle */
	}
	got = gen_claim(priv, want);
	if (unlikely(rx_meta)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		gen_rx_cur.tstamp = (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	}
	for (i = 0; i < got; i++) {
		unsigned int len, flow = q->next_flow;
		struct xdp_buff xdp;
		int bad;
		u32 act;

		if (unlikely(!gen_fill(priv, q, plain, &xdp, &len, &bad))) {
			/* Pool empty: give the claim back and poll again. */
			netdev_drop(dev, NETDEV_DROP_PAGE_ALLOC, 1);
			if (priv->count)
				__atomic_fetch_sub(&priv->reserved, got - i, __ATOMIC_RELAXED);
			break;
		}
		q->generated++;
		if (unlikely(len < ETH_HLEN)) {
			/*
			 * A runt (malformed): dropped before XDP and not
			 * counted as received, as virtio_net's receive_buf()
			 * drops a short packet (rx_length_errors); eth_type_trans()
			 * must never see fewer than ETH_HLEN bytes.
			 */
			netdev_drop(dev, NETDEV_DROP_RX_RUNT, 1);
			xdp_return_buff(&xdp);
			continue;
		}
		st->rx_packets++;
		st->rx_bytes += len;
		if (unlikely(rx_meta)) {
			gen_rx_cur.xdp = &xdp;
			gen_rx_cur.hash = priv->flow_hash[flow];
			gen_rx_cur.rss_type = bad < 0 ? gen_rss_type(priv) : XDP_RSS_TYPE_NONE;
		}
		act = prog ? netdev_xdp_count_verdict(dev, bpf_prog_run(prog, &xdp)) : XDP_PASS;
		if (unlikely(rx_meta))
			gen_rx_cur.xdp = NULL;
		if (act == XDP_TX) {
			/* Out on gen's wire. */
			st->tx_packets++;
			st->tx_bytes += xdp_get_buff_len(&xdp);
			xdp_return_buff(&xdp);
			continue;
		}
		redirected |= xdp_rx_verdict(dev, &xdp, prog, act);
	}
	if (redirected)
		xdp_do_flush();
	if (gen_active(dev) || i < got)
		return budget;
	napi_complete_done(napi, i);
	return i < (unsigned int)budget ? (int)i : budget - 1;
}

/* ---- device ------------------------------------------------------------- */

static int gen_open(struct net_device *dev)
{
	struct gen_priv *priv = netdev_priv(dev);
	u64 now = gen_now_ns();

	for (unsigned int i = 0; i < priv->nr_queues; i++) {
		priv->q[i].start_ns = now;
		priv->q[i].generated = 0;
		napi_enable(&priv->q[i].napi);
	}
	return 0;
}

static int gen_stop(struct net_device *dev)
{
	struct gen_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		napi_disable(&priv->q[i].napi);
	return 0;
}

/* Out on gen's wire (generic XDP_TX, redirect to gen): counted, freed. */
static netdev_tx_t gen_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct netdev_pcpu_stats *st = dev_pcpu_stats(dev);

	st->tx_packets++;
	st->tx_bytes += skb->len;
	consume_skb(skb);
	return NETDEV_TX_OK;
}

static int gen_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	struct gen_priv *priv = netdev_priv(dev);

	if (bpf->command != XDP_SETUP_PROG)
		return -EINVAL;
	if (bpf->prog && priv->frags && !bpf->prog->aux->xdp_has_frags) {
		if (bpf->extack)
			snprintf(bpf->extack, bpf->extack_len,
				 "%s: frames have %u frags: the program must be SEC(\"xdp.frags\")",
				 dev->name, priv->frags);
		return -EOPNOTSUPP;
	}
	return 0;
}

static bool gen_ndo_gen_active(struct net_device *dev)
{
	return gen_active(dev);
}

static void gen_uninit(struct net_device *dev)
{
	struct gen_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++) {
		netif_napi_del(&priv->q[i].napi);
		xdp_rxq_info_unreg(&priv->q[i].xdp_rxq);
		page_pool_destroy(priv->q[i].pool);
	}
	free(priv->q);
	priv->q = NULL;
	priv->nr_queues = 0;
	free(priv->templates);
	priv->templates = NULL;
	free(priv->flow_hash);
	priv->flow_hash = NULL;
}

static int gen_get_ethtool_stats(struct net_device *dev, char (*names)[48], u64 *values, int max)
{
	struct gen_priv *priv = netdev_priv(dev);
	int n = 0;

	for (int k = 0; k < GEN_BAD_NR; k++, n++) {
		u64 v = 0;

		for (unsigned int i = 0; i < priv->nr_queues; i++)
			v += READ_ONCE(priv->q[i].bad[k]);
		if (n < max) {
			snprintf(names[n], 48, "%s", gen_bad_names[k]);
			values[n] = v;
		}
	}
	return n;
}

static void gen_stats_reset(struct net_device *dev)
{
	struct gen_priv *priv = netdev_priv(dev);

	for (unsigned int i = 0; i < priv->nr_queues; i++)
		memset(priv->q[i].bad, 0, sizeof(priv->q[i].bad));
}

static int gen_set_param(struct net_device *dev, const char *key, const char *value,
			 char *err, size_t errlen)
{
	struct gen_priv *priv = netdev_priv(dev);
	char *end;
	u64 v;

	if (strcmp(key, "count") && strcmp(key, "rate") && strcmp(key, "run_count"))
		return -ENOENT;
	v = strtoull(value, &end, 0);
	if (!*value || *end) {
		snprintf(err, errlen, "'%s' is not a valid %s", value, key);
		return -EINVAL;
	}
	if (!strcmp(key, "run_count")) {
		/* uxdp_run(): a new run starts; @v overrides the link's count. */
		u64 now = gen_now_ns();

		priv->count = v ? v : priv->cfg_count;
		priv->reserved = 0;
		for (unsigned int i = 0; i < priv->nr_queues; i++) {
			priv->q[i].generated = 0;
			priv->q[i].start_ns = now;
		}
		return priv->count ? 1 : 0;
	} else if (!strcmp(key, "count")) {
		priv->count = priv->cfg_count = v;
		priv->reserved = 0;
	} else {
		priv->rate = v;
	}
	return 0;
}

static const struct net_device_ops gen_netdev_ops = {
	.ndo_uninit = gen_uninit,
	.ndo_open = gen_open,
	.ndo_stop = gen_stop,
	.ndo_bpf = gen_bpf,
	.ndo_start_xmit = gen_xmit,
	.ndo_gen_active = gen_ndo_gen_active,
	.ndo_set_param = gen_set_param,
	.ndo_get_ethtool_stats = gen_get_ethtool_stats,
	.ndo_stats_reset = gen_stats_reset,
};

static void gen_setup(struct net_device *dev)
{
	dev->netdev_ops = &gen_netdev_ops;
	dev->xdp_metadata_ops = &gen_xdp_metadata_ops;
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT | NETDEV_XDP_ACT_RX_SG;
}

static int parse_range_addr(const char *s, struct in6_addr *lo, struct in6_addr *hi, bool *v6)
{
	char buf[128], *dash;
	bool is6 = strchr(s, ':') != NULL;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = 0;
	memset(lo, 0, sizeof(*lo));
	memset(hi, 0, sizeof(*hi));
	if (is6) {
		if (inet_pton(AF_INET6, buf, lo) != 1 || (dash && inet_pton(AF_INET6, dash, hi) != 1))
			return -EINVAL;
	} else {
		if (inet_pton(AF_INET, buf, &lo->s6_addr[12]) != 1 ||
		    (dash && inet_pton(AF_INET, dash, &hi->s6_addr[12]) != 1))
			return -EINVAL;
	}
	if (!dash)
		*hi = *lo;
	if (addr_span(lo, hi) == 1 && memcmp(lo, hi, sizeof(*lo)) > 0)
		return -EINVAL;
	*v6 = is6;
	return 0;
}

static int parse_range_port(const char *s, u16 *lo, u16 *hi)
{
	unsigned long a, b;
	char *end;

	a = strtoul(s, &end, 10);
	if (end == s || a > 65535)
		return -EINVAL;
	b = a;
	if (*end == '-') {
		const char *t = end + 1;

		b = strtoul(t, &end, 10);
		if (end == t || b > 65535 || b < a)
			return -EINVAL;
	}
	if (*end)
		return -EINVAL;
	*lo = a;
	*hi = b;
	return 0;
}

static int parse_mac(const char *s, u8 *mac)
{
	unsigned int m[6];
	char c;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &c) != 6)
		return -EINVAL;
	for (int i = 0; i < 6; i++) {
		if (m[i] > 255)
			return -EINVAL;
		mac[i] = m[i];
	}
	return 0;
}

/* `malformed PCT`: a percentage 0..100 with up to 4 decimals, in ppm. */
static int parse_pct_ppm(const char *s, u32 *ppm)
{
	unsigned long whole, frac = 0, scale = 10000;
	const char *p;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	whole = strtoul(s, &end, 10);
	if (*end == '.') {
		for (p = end + 1; *p >= '0' && *p <= '9' && scale > 1; p++) {
			scale /= 10;
			frac += (unsigned long)(*p - '0') * scale;
		}
		if (p == end + 1)
			return -EINVAL;
		end = (char *)p;
	}
	if (*end || whole > 100 || (whole == 100 && frac))
		return -EINVAL;
	*ppm = whole * 10000 + frac;
	return 0;
}

static int gen_arg_size(void *base, const char *v)
{
	struct gen_priv *priv = base;
	unsigned long long lo, hi;
	char *end;

	lo = hi = strtoull(v, &end, 0);
	if (*v && *end == '-' && end[1]) {
		/* size MIN-MAX */
		hi = strtoull(end + 1, &end, 0);
		if (hi < lo)
			return -EINVAL;
	}
	if (!*v || *v == '-' || *end || hi > GEN_MAX_SIZE)
		return -EINVAL;
	priv->size_min = lo == hi ? 0 : lo;
	priv->size = hi;
	return 0;
}

static int gen_arg_src(void *base, const char *v)
{
	struct gen_priv *priv = base;

	priv->src_set = true;
	return parse_range_addr(v, &priv->src_lo, &priv->src_hi, &priv->src_v6);
}

static int gen_arg_dst(void *base, const char *v)
{
	struct gen_priv *priv = base;

	priv->dst_set = true;
	return parse_range_addr(v, &priv->dst_lo, &priv->dst_hi, &priv->dst_v6);
}

static int gen_arg_sport(void *base, const char *v)
{
	struct gen_priv *priv = base;

	return parse_range_port(v, &priv->sport_lo, &priv->sport_hi);
}

static int gen_arg_dport(void *base, const char *v)
{
	struct gen_priv *priv = base;

	return parse_range_port(v, &priv->dport_lo, &priv->dport_hi);
}

static int gen_arg_dst_mac(void *base, const char *v)
{
	struct gen_priv *priv = base;

	priv->dst_mac_set = true;
	return parse_mac(v, priv->dst_mac);
}

static int gen_arg_src_mac(void *base, const char *v)
{
	struct gen_priv *priv = base;

	return parse_mac(v, priv->src_mac);
}

static int gen_arg_malformed(void *base, const char *v)
{
	struct gen_priv *priv = base;

	return parse_pct_ppm(v, &priv->malformed_ppm);
}

static const char *const *gen_protos(void)
{
	static const char *const protos[] = { "udp", "udp6", "tcp", NULL };	/* enum gen_proto */

	return protos;
}

static const struct rtnl_link_arg gen_link_args[] = {
	RTNL_ARG_F("size", gen_arg_size, "N|MIN-MAX", "size N or size range MIN-MAX (max 65535)", "64-128"),
	RTNL_ARG_C(struct gen_priv, "proto", proto, gen_protos),
	RTNL_ARG_F("src", gen_arg_src, "A[-B]", "address or range", "198.18.0.1-198.18.0.9"),
	RTNL_ARG_F("dst", gen_arg_dst, "A[-B]", "address or range", "198.19.0.1"),
	RTNL_ARG_F("sport", gen_arg_sport, "P[-Q]", "port range", "9-10"),
	RTNL_ARG_F("dport", gen_arg_dport, "P[-Q]", "port range", "9"),
	RTNL_ARG_U(struct gen_priv, "frags", frags, 0, MAX_SKB_FRAGS, "N"),
	RTNL_ARG_U(struct gen_priv, "hsplit", hsplit, 0,
		   SKB_WITH_OVERHEAD(PAGE_SIZE - GEN_HEADROOM), "H"),
	RTNL_ARG_U(struct gen_priv, "count", cfg_count, 0, UINT64_MAX, "N"),
	RTNL_ARG_U(struct gen_priv, "rate", rate, 0, UINT64_MAX, "PPS"),
	RTNL_ARG_U(struct gen_priv, "queues", nr_queues, 1, GEN_MAX_QUEUES, "N"),
	RTNL_ARG_F("dst_mac", gen_arg_dst_mac, "MAC", "MAC address", "02:00:00:00:00:02"),
	RTNL_ARG_F("src_mac", gen_arg_src_mac, "MAC", "MAC address", "02:00:00:00:00:01"),
	RTNL_ARG_F("malformed", gen_arg_malformed, "PCT", "percentage (0..100)", "0.5"),
	RTNL_ARG_U(struct gen_priv, "seed", seed, 0, UINT64_MAX, "N"),
	{ NULL }
};

/* `link add NAME type gen ARGS` (gen_link_args), then what spans arguments. */
static int gen_newlink(struct net_device *dev, int argc, char **argv, char *err, size_t errlen)
{
	struct gen_priv *priv = netdev_priv(dev);
	unsigned int min_size, i;
	int ret;

	priv->proto = GEN_UDP;
	priv->size = 64;
	priv->size_min = 0;
	priv->seed = 1;
	priv->nr_queues = 1;
	priv->sport_lo = priv->sport_hi = 9;
	priv->dport_lo = priv->dport_hi = 9;
	parse_mac("02:00:00:00:00:01", priv->src_mac);
	ret = rtnl_link_args_parse(&gen_link_ops, priv, argc, argv, err, errlen);
	if (ret)
		return ret;
	priv->count = priv->cfg_count;
	if (!priv->src_set)
		parse_range_addr(priv->proto == GEN_UDP6 ? "2001:db8::1" : "198.18.0.1",
				 &priv->src_lo, &priv->src_hi, &priv->src_v6);
	if (!priv->dst_set)
		parse_range_addr(priv->proto == GEN_UDP6 ? "2001:db8::2" : "198.19.0.1",
				 &priv->dst_lo, &priv->dst_hi, &priv->dst_v6);
	if (priv->src_v6 != priv->dst_v6 || priv->src_v6 != (priv->proto == GEN_UDP6)) {
		snprintf(err, errlen, "gen: addresses must be IPv6 exactly when proto is udp6");
		return -EINVAL;
	}
	min_size = ETH_HLEN + (priv->proto == GEN_UDP6 ? 40 + 8 :
			       priv->proto == GEN_TCP ? 20 + 20 : 20 + 8);
	if (!priv->size_min)
		priv->size_min = priv->size;
	if (priv->size_min < min_size) {
		snprintf(err, errlen, "gen: size %u is below the %u bytes of headers", priv->size_min,
			 min_size);
		return -EINVAL;
	}
	if (priv->malformed_ppm && priv->proto == GEN_UDP6) {
		snprintf(err, errlen, "gen: malformed frames are IPv4 (proto udp or tcp)");
		return -EINVAL;
	}
	if (!priv->frags && priv->size > SKB_WITH_OVERHEAD(PAGE_SIZE - GEN_HEADROOM)) {
		snprintf(err, errlen, "gen: size %u does not fit one 4 KiB frame (max %lu); use frags N",
			 priv->size, (unsigned long)SKB_WITH_OVERHEAD(PAGE_SIZE - GEN_HEADROOM));
		return -EINVAL;
	}
	if (!priv->frags && priv->size > 9000) {
		snprintf(err, errlen, "gen: size %u out of range (max 9000, %d with frags N)",
			 priv->size, GEN_MAX_SIZE);
		return -EINVAL;
	}
	if (priv->hsplit && (!priv->frags || priv->hsplit < min_size ||
			     priv->hsplit + priv->frags > priv->size_min ||
			     priv->size - priv->hsplit - (priv->size - priv->hsplit) / priv->frags *
			     (priv->frags - 1) > PAGE_SIZE)) {
		snprintf(err, errlen,
			 "gen: hsplit %u needs frags N, the headers (%u B) in it and at most 4096 B per frag",
			 priv->hsplit, min_size);
		return -EINVAL;
	}
	if (priv->frags && !priv->hsplit &&
	    (priv->size - ETH_HLEN - 40) / (priv->frags + 1) > PAGE_SIZE) {
		snprintf(err, errlen, "gen: size %u needs more frags (at most 4096 B per frag)",
			 priv->size);
		return -EINVAL;
	}
	if (priv->frags && priv->size_min < ETH_HLEN + 40 + priv->frags + 1) {
		snprintf(err, errlen, "gen: size %u too small for %u frags", priv->size_min,
			 priv->frags);
		return -EINVAL;
	}
	dev->mtu = priv->size > ETH_DATA_LEN + ETH_HLEN ? priv->size - ETH_HLEN : ETH_DATA_LEN;

	ret = register_netdevice(dev);
	if (ret) {
		snprintf(err, errlen, "cannot register '%s'", dev->name);
		return ret;
	}
	ret = gen_build_templates(priv, dev);
	if (ret)
		goto out_unregister;
	priv->q = aligned_alloc(SMP_CACHE_BYTES, priv->nr_queues * sizeof(*priv->q));
	if (!priv->q) {
		ret = -ENOMEM;
		goto out_unregister;
	}
	memset(priv->q, 0, priv->nr_queues * sizeof(*priv->q));
	for (i = 0; i < priv->nr_queues; i++) {
		struct page_pool_params pp = {
			.order = 0,
			.pool_size = GEN_POOL_SIZE,
			.netdev = dev,
			.napi = &priv->q[i].napi,
		};
		struct gen_queue *q = &priv->q[i];

		q->dev = dev;
		/* xorshift: any non-zero state; one stream per queue */
		q->rnd = (priv->seed + i + 1) * 0x9e3779b97f4a7c15ULL;
		if (!q->rnd)
			q->rnd = 1;
		q->pool = page_pool_create(&pp);
		if (IS_ERR(q->pool)) {
			ret = PTR_ERR(q->pool);
			q->pool = NULL;
			goto out_queues;
		}
		netif_napi_add(dev, &q->napi, gen_poll);
		xdp_rxq_info_reg(&q->xdp_rxq, dev, i, 0);
		xdp_rxq_info_reg_mem_model(&q->xdp_rxq, MEM_TYPE_PAGE_POOL, q->pool);
	}
	return 0;

out_queues:
	priv->nr_queues = i;
	gen_uninit(dev);
out_unregister:
	free(priv->templates);
	priv->templates = NULL;
	free(priv->flow_hash);
	priv->flow_hash = NULL;
	unregister_netdevice(dev);
	snprintf(err, errlen, "%s: out of memory", dev->name);
	return ret;
}

const struct rtnl_link_ops gen_link_ops = {
	.kind = "gen",
	.priv_size = sizeof(struct gen_priv),
	.args = gen_link_args,
	.setup = gen_setup,
	.newlink = gen_newlink,
};
