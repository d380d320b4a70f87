// SPDX-License-Identifier: GPL-2.0
/*
 * SYN cookies (net/ipv4/syncookies.c, net/ipv6/syncookies.c) and the
 * XDP helpers over them (net/core/filter.c): the ACK answering a cookie
 * checks and yields the MSS the cookie encodes, rounded down to the
 * family's table; a wrong cookie, another flow or another client
 * sequence number fails (-EACCES from the helper; a change of only the
 * low bits moves the MSS index, as in the kernel); a length that is not
 * the header's is -EINVAL; the MSS option parser stops at EOL, skips NOPs
 * and refuses partial options.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <net/tcp.h>

#include "uxdp_test.h"

struct syn {
	struct tcphdr th;
	unsigned char opt[8];
};

static struct iphdr v4(void)
{
	struct iphdr iph = { .version = 4, .ihl = 5, .ttl = 64, .protocol = IPPROTO_TCP };

	iph.saddr = htonl(0xc6120001);	/* 198.18.0.1 */
	iph.daddr = htonl(0xc6120002);
	return iph;
}

static struct ipv6hdr v6(void)
{
	struct ipv6hdr h = { .version = 6, .nexthdr = IPPROTO_TCP, .hop_limit = 64 };

	inet_pton(AF_INET6, "2001:2::1", &h.saddr);
	inet_pton(AF_INET6, "2001:2::2", &h.daddr);
	return h;
}

/* A SYN with an MSS option of @mss (0: no option). */
static void syn(struct syn *s, u16 mss)
{
	memset(s, 0, sizeof(*s));
	s->th.source = htons(40000);
	s->th.dest = htons(443);
	s->th.seq = htonl(0x12345678);
	s->th.syn = 1;
	s->th.doff = 5;
	if (mss) {
		s->opt[0] = TCPOPT_MSS;
		s->opt[1] = TCPOLEN_MSS;
		s->opt[2] = mss >> 8;
		s->opt[3] = mss & 0xff;
		s->th.doff = 6;
	}
}

static void ack(struct syn *s, u32 cookie)
{
	s->th.seq = htonl(ntohl(s->th.seq) + 1);
	s->th.ack_seq = htonl(cookie + 1);
	s->th.syn = 0;
	s->th.ack = 1;
}

START_TEST(test_v4_roundtrip)
{
	static const struct { u16 in, out; } cases[] = {
		{ 1460, 1460 }, { 1459, 1440 }, { 1400, 1300 }, { 1300, 1300 },
		{ 1000, 536 }, { 100, 536 }, { 9000, 1460 },
	};
	struct iphdr iph = v4();
	struct syn s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u16 mss = cases[i].in;
		u32 cookie;

		syn(&s, mss);
		cookie = __cookie_v4_init_sequence(&iph, &s.th, &mss);
		ck_assert_uint_eq(mss, cases[i].out);
		ack(&s, cookie);
		ck_assert_int_eq(__cookie_v4_check(&iph, &s.th), cases[i].out);
		/* a cookie of another minute count; a change of its low bits
		 * only moves the MSS index, which the kernel accepts as
		 * long as it stays in the table */
		s.th.ack_seq = htonl((cookie ^ 0x80000000u) + 1);
		ck_assert_int_eq(__cookie_v4_check(&iph, &s.th), 0);
		s.th.ack_seq = htonl(cookie + 1 + 4);	/* MSS index past the table */
		ck_assert_int_eq(__cookie_v4_check(&iph, &s.th), 0);
		s.th.ack_seq = htonl(cookie + 1);
		s.th.seq = htonl(ntohl(s.th.seq) + 4);	/* another client ISN */
		ck_assert_int_eq(__cookie_v4_check(&iph, &s.th), 0);
		s.th.seq = htonl(ntohl(s.th.seq) - 4);
		s.th.source = htons(40001);		/* another flow */
		ck_assert_int_eq(__cookie_v4_check(&iph, &s.th), 0);
	}
}
END_TEST

START_TEST(test_v6_roundtrip)
{
	static const struct { u16 in, out; } cases[] = {
		{ 9000, 8940 }, { 8940, 8940 }, { 1460, 1440 }, { 1430, 1420 }, { 1300, 1220 },
		{ 500, 1220 },
	};
	struct ipv6hdr h = v6();
	struct syn s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u16 mss = cases[i].in;
		u32 cookie;

		syn(&s, mss);
		cookie = __cookie_v6_init_sequence(&h, &s.th, &mss);
		ck_assert_uint_eq(mss, cases[i].out);
		ack(&s, cookie);
		ck_assert_int_eq(__cookie_v6_check(&h, &s.th), cases[i].out);
		h.saddr.s6_addr[15] ^= 1;
		ck_assert_int_eq(__cookie_v6_check(&h, &s.th), 0);
		h.saddr.s6_addr[15] ^= 1;
	}
}
END_TEST

START_TEST(test_helpers)
{
	const struct bpf_func_proto *gen4 = xdp_func_proto(BPF_FUNC_tcp_raw_gen_syncookie_ipv4);
	const struct bpf_func_proto *chk4 = xdp_func_proto(BPF_FUNC_tcp_raw_check_syncookie_ipv4);
	const struct bpf_func_proto *gen6 = xdp_func_proto(BPF_FUNC_tcp_raw_gen_syncookie_ipv6);
	const struct bpf_func_proto *chk6 = xdp_func_proto(BPF_FUNC_tcp_raw_check_syncookie_ipv6);
	struct iphdr iph = v4();
	struct ipv6hdr h = v6();
	struct syn s;
	u64 r;

	ck_assert(gen4 && chk4 && gen6 && chk6);
	syn(&s, 1460);
	r = gen4->func((uintptr_t)&iph, (uintptr_t)&s.th, 24, 0, 0);
	ck_assert_uint_eq(r >> 32, 1460);
	ck_assert_int_eq((s64)gen4->func((uintptr_t)&iph, (uintptr_t)&s.th, 20, 0, 0), -EINVAL);
	ck_assert_int_eq((s64)gen4->func((uintptr_t)&iph, (uintptr_t)&s.th, 19, 0, 0), -EINVAL);
	ack(&s, (u32)r);
	ck_assert_int_eq((s64)chk4->func((uintptr_t)&iph, (uintptr_t)&s.th, 0, 0, 0), 0);
	s.th.ack_seq = htonl(((u32)r ^ 0x80000000u) + 1);
	ck_assert_int_eq((s64)chk4->func((uintptr_t)&iph, (uintptr_t)&s.th, 0, 0, 0), -EACCES);

	syn(&s, 0);		/* no option: the IPv6 clamp, 1280 - 60 */
	r = gen6->func((uintptr_t)&h, (uintptr_t)&s.th, 20, 0, 0);
	ck_assert_uint_eq(r >> 32, 1220);
	ack(&s, (u32)r);
	ck_assert_int_eq((s64)chk6->func((uintptr_t)&h, (uintptr_t)&s.th, 0, 0, 0), 0);
	syn(&s, 0);		/* and IPv4's default, 536 */
	ck_assert_uint_eq(gen4->func((uintptr_t)&iph, (uintptr_t)&s.th, 20, 0, 0) >> 32, 536);
}
END_TEST

START_TEST(test_parse_mss_option)
{
	struct syn s;

	syn(&s, 0);
	s.th.doff = 7;
	memcpy(s.opt, "\x01\x01\x02\x04\x05\xb4\x00\x00", 8);	/* NOP NOP MSS 1460 */
	ck_assert_uint_eq(tcp_parse_mss_option(&s.th, 0), 1460);
	ck_assert_uint_eq(tcp_parse_mss_option(&s.th, 1000), 1000);	/* user clamp */
	memcpy(s.opt, "\x00\x01\x02\x04\x05\xb4\x00\x00", 8);	/* EOL first */
	ck_assert_uint_eq(tcp_parse_mss_option(&s.th, 0), 0);
	memcpy(s.opt, "\x08\x0a\x02\x04\x05\xb4\x00\x00", 8);	/* a partial option */
	ck_assert_uint_eq(tcp_parse_mss_option(&s.th, 0), 0);
	memcpy(s.opt, "\x02\x03\x05\xb4\x00\x00\x00\x00", 8);	/* MSS of the wrong size */
	ck_assert_uint_eq(tcp_parse_mss_option(&s.th, 0), 0);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/ipv4/syncookies");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_v4_roundtrip);
	tcase_add_test(tc, test_v6_roundtrip);
	tcase_add_test(tc, test_helpers);
	tcase_add_test(tc, test_parse_mss_option);
	suite_add_tcase(s, tc);
	return s;
}
