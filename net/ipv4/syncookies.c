// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 SYN cookies as the kernel computes them, for the XDP helpers
 * bpf_tcp_raw_gen_syncookie_ipv4() and bpf_tcp_raw_check_syncookie_ipv4()
 * (xdp-synproxy): the cookie is
 *   siphash(saddr, daddr, sport:dport, 0; key0) + seq + (count << 24)
 *   + ((siphash(saddr, daddr, sport:dport, count; key1) + mssind) & 2^24-1)
 * with count the minutes of a monotonic clock and mssind the index of
 * the MSS in msstab. A check subtracts the first hash and the client's
 * sequence number, accepts counts up to MAX_SYNCOOKIE_AGE - 1 minutes
 * old, and recovers mssind. Also the MSS option parser the helpers use.
 *
 * Kernel: net/ipv4/syncookies.c cookie_hash(), secure_tcp_syn_cookie(),
 *	   check_tcp_syn_cookie(), __cookie_v4_init_sequence(),
 *	   __cookie_v4_check(); net/ipv4/tcp_input.c tcp_parse_mss_option();
 *	   include/net/tcp.h tcp_cookie_time()
 * Differs: the two siphash keys are drawn from getrandom() once per
 *	    process (the kernel: once per boot), so a cookie is valid only
 *	    in the process that made it; minutes count CLOCK_MONOTONIC
 *	    (the kernel: jiffies).
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <linux/ip.h>
#include <linux/tcp.h>

#include <linux/compiler.h>
#include <linux/siphash.h>
#include <net/tcp.h>

static siphash_key_t syncookie_secret[2];
static pthread_once_t syncookie_once = PTHREAD_ONCE_INIT;

static void syncookie_secret_init(void)
{
	size_t got = 0;

	while (got < sizeof(syncookie_secret)) {
		ssize_t n = getrandom((char *)syncookie_secret + got,
				      sizeof(syncookie_secret) - got, 0);

		if (n <= 0)
			break;	/* keys stay as far as filled: still per process */
		got += (size_t)n;
	}
}

/* The ipv6 file's keys too: both families draw from one per-process pool. */
const siphash_key_t *syncookie_key(int c)
{
	pthread_once(&syncookie_once, syncookie_secret_init);
	return &syncookie_secret[c];
}

u32 tcp_cookie_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u32)(ts.tv_sec / 60);
}

u32 secure_tcp_syn_cookie(syncookie_hash_t hash, const void *tuple, u32 sseq, u32 data)
{
	u32 count = tcp_cookie_time();

	return hash(tuple, 0, 0) + sseq + (count << COOKIEBITS) +
	       ((hash(tuple, count, 1) + data) & COOKIEMASK);
}

u32 check_tcp_syn_cookie(syncookie_hash_t hash, const void *tuple, u32 cookie, u32 sseq)
{
	u32 diff, count = tcp_cookie_time();

	cookie -= hash(tuple, 0, 0) + sseq;
	/* now (count << 24) + (hash1 + data) % 2^24 */
	diff = (count - (cookie >> COOKIEBITS)) & ((u32)-1 >> COOKIEBITS);
	if (diff >= MAX_SYNCOOKIE_AGE)
		return (u32)-1;
	return (cookie - hash(tuple, count - diff, 1)) & COOKIEMASK;
}

/* MSS values by frequency (Alcock and Nelson, 2011), as the kernel's */
static const u16 msstab[] = { 536, 1300, 1440, 1460 };

struct v4_tuple {
	u32 saddr, daddr, ports;	/* as the kernel passes them: raw words */
};

static u32 cookie_hash(const void *tuple, u32 count, int c)
{
	const struct v4_tuple *t = tuple;

	return (u32)siphash_4u32(t->saddr, t->daddr, t->ports, count, syncookie_key(c));
}

static struct v4_tuple v4_tuple(const struct iphdr *iph, const struct tcphdr *th)
{
	struct v4_tuple t = {
		.saddr = iph->saddr,
		.daddr = iph->daddr,
		.ports = (u32)th->source << 16 | th->dest,
	};

	return t;
}

u32 __cookie_init_sequence(const u16 *msstab, int n, syncookie_hash_t hash, const void *tuple,
			   const struct tcphdr *th, u16 *mssp)
{
	const u16 mss = *mssp;
	int mssind;

	for (mssind = n - 1; mssind; mssind--)
		if (mss >= msstab[mssind])
			break;
	*mssp = msstab[mssind];
	return secure_tcp_syn_cookie(hash, tuple, ntohl(th->seq), mssind);
}

int __cookie_check(const u16 *msstab, int n, syncookie_hash_t hash, const void *tuple,
		   const struct tcphdr *th)
{
	u32 mssind = check_tcp_syn_cookie(hash, tuple, ntohl(th->ack_seq) - 1,
					  ntohl(th->seq) - 1);

	return mssind < (u32)n ? msstab[mssind] : 0;
}

u32 __cookie_v4_init_sequence(const struct iphdr *iph, const struct tcphdr *th, u16 *mssp)
{
	struct v4_tuple t = v4_tuple(iph, th);

	return __cookie_init_sequence(msstab, ARRAY_SIZE(msstab), cookie_hash, &t, th, mssp);
}

int __cookie_v4_check(const struct iphdr *iph, const struct tcphdr *th)
{
	struct v4_tuple t = v4_tuple(iph, th);

	return __cookie_check(msstab, ARRAY_SIZE(msstab), cookie_hash, &t, th);
}

u16 tcp_parse_mss_option(const struct tcphdr *th, u16 user_mss)
{
	const unsigned char *ptr = (const unsigned char *)(th + 1);
	int length = th->doff * 4 - (int)sizeof(struct tcphdr);
	u16 mss = 0;

	while (length > 0) {
		int opcode = *ptr++;
		int opsize;

		switch (opcode) {
		case TCPOPT_EOL:
			return mss;
		case TCPOPT_NOP:
			length--;
			continue;
		default:
			if (length < 2)
				return mss;
			opsize = *ptr++;
			if (opsize < 2 || opsize > length)
				return mss;	/* silly or partial options */
			if (opcode == TCPOPT_MSS && opsize == TCPOLEN_MSS) {
				u16 in_mss = (u16)(ptr[0] << 8 | ptr[1]);

				if (in_mss) {
					if (user_mss && user_mss < in_mss)
						in_mss = user_mss;
					mss = in_mss;
				}
			}
			ptr += opsize - 2;
			length -= opsize;
		}
	}
	return mss;
}
