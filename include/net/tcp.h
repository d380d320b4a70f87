/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SYN cookies for the XDP helpers (bpf_tcp_raw_gen/check_syncookie_*):
 * the kernel's encoding, with uxdp's own per-process secrets.
 * Kernel: include/net/tcp.h
 */
#ifndef _UXDP_NET_TCP_H
#define _UXDP_NET_TCP_H

#include <linux/siphash.h>
#include <linux/types.h>

struct iphdr;
struct ipv6hdr;
struct tcphdr;

#define TCP_MSS_DEFAULT		536U	/* IPv4 (RFC1122, RFC2581) */
#define TCPOPT_NOP		1
#define TCPOPT_EOL		0
#define TCPOPT_MSS		2
#define TCPOLEN_MSS		4
#define MAX_SYNCOOKIE_AGE	2	/* minutes a cookie stays valid (1 more counts) */
#define COOKIEBITS		24	/* the upper bits hold the minute count */
#define COOKIEMASK		(((u32)1 << COOKIEBITS) - 1)

/* The MSS option of @th (doff already checked against the bytes there), or 0. */
u16 tcp_parse_mss_option(const struct tcphdr *th, u16 user_mss);

/* Minutes since an arbitrary start (jiffies / (60 * HZ) in the kernel). */
u32 tcp_cookie_time(void);

/*
 * The cookie for a SYN: *@mssp rounded down to the nearest entry of the
 * family's MSS table (which the cookie encodes). The check returns the
 * MSS the cookie of an ACK (ack_seq - 1) encodes, 0 if it is not one of
 * ours from the last two minutes.
 */
u32 __cookie_v4_init_sequence(const struct iphdr *iph, const struct tcphdr *th, u16 *mssp);
int __cookie_v4_check(const struct iphdr *iph, const struct tcphdr *th);
u32 __cookie_v6_init_sequence(const struct ipv6hdr *iph, const struct tcphdr *th, u16 *mssp);
int __cookie_v6_check(const struct ipv6hdr *iph, const struct tcphdr *th);

/*
 * The cookie arithmetic both families share (net/ipv4/syncookies.c):
 * HASH0 + sseq + (count << 24) + ((HASH1(count) + data) & COOKIEMASK),
 * @hash(@tuple, count, c) being the family's keyed hash (c: key 0 or 1).
 * The check returns data, or (u32)-1 for a cookie older than
 * MAX_SYNCOOKIE_AGE minutes. Kernel: secure_tcp_syn_cookie(),
 * check_tcp_syn_cookie() (one copy per family there).
 */
/* The per-process siphash key @c (0 or 1) of the SYN cookies. */
const siphash_key_t *syncookie_key(int c);
typedef u32 (*syncookie_hash_t)(const void *tuple, u32 count, int c);
u32 secure_tcp_syn_cookie(syncookie_hash_t hash, const void *tuple, u32 sseq, u32 data);
u32 check_tcp_syn_cookie(syncookie_hash_t hash, const void *tuple, u32 cookie, u32 sseq);
/* The family-independent part of __cookie_v4/v6_init_sequence() and _check(). */
u32 __cookie_init_sequence(const u16 *msstab, int n, syncookie_hash_t hash, const void *tuple,
			   const struct tcphdr *th, u16 *mssp);
int __cookie_check(const u16 *msstab, int n, syncookie_hash_t hash, const void *tuple,
		   const struct tcphdr *th);

#endif
