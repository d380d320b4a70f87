// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel as the oracle for the XDP helpers: filter_oracle.bpf.c
 * calls one helper with arguments taken from a map; BPF_PROG_TEST_RUN runs
 * it in the kernel, and the same helper of net/core/filter.c is called on a
 * buffer laid out as test_run lays it out (4096-byte frames, 256 bytes of
 * headroom, at most 3520 linear bytes, the rest in 4 KiB frags). Return
 * value, output packet and the helper's output must be identical.
 *
 * Exit 77 (skip) when the kernel refuses to load or run BPF programs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_ether.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/xdp.h>

#include "filter_oracle.h"
#include "uxdp_test.h"

enum { OP_HEAD, OP_TAIL, OP_META, OP_CSUM, OP_LOAD, OP_LEN, OP_MTU, OP_FIB, OP_STORE, OP_SNPRINTF };

struct args {
	u32 op;
	s32 a;
	u32 b;
	u32 seed;
	u32 fs;
	u32 ts;
	u8 from[256];
	u8 to[256];
	u8 out[256];
	u32 res;
	u32 pad;
};

#define MAX_PKT		(3520 + 4 * 4096)

struct result {
	u32 retval;
	u32 size_out;
	u8 out[MAX_PKT + 512];
	struct args args;
};

static void kernel_run(const struct args *in, const u8 *pkt, u32 len, struct result *r)
{
	ck_assert_int_eq(oracle_run(in, &r->args, pkt, len, r->out, sizeof(r->out), &r->size_out,
				    &r->retval), 0);
}

/* The loopback device test_run's rxq belongs to. */
static struct net_device lo = { .name = "lo", .ifindex = 1, .mtu = 65536,
				.hard_header_len = ETH_HLEN };

/* %s and %pI4 may read the args' to[] and nothing else. */
static const u8 *snprintf_to;

static size_t to_limit(const void *ptr)
{
	const u8 *p = ptr;

	return p >= snprintf_to && p < snprintf_to + 256 ? (size_t)(snprintf_to + 256 - p) : 0;
}

static void uxdp_run(const struct args *in, const u8 *pkt, u32 len, struct result *r)
{
	struct page *head = alloc_pages(GFP_KERNEL, 0);
	struct xdp_rxq_info rxq = { .dev = &lo, .frag_size = 4096 };
	struct skb_shared_info *sinfo;
	u32 lin = len < 3520 ? len : 3520, off, i;
	struct args *a = &r->args;
	struct xdp_buff xdp = { 0 };
	u8 *frame;
	u64 ret = 0;

	ck_assert_ptr_nonnull(head);
	frame = page_address(head);
	memset(frame, 0, 4096);
	memcpy(frame + 256, pkt, lin);
	xdp.rxq = &rxq;
	xdp.frame_sz = 4096;
	xdp.data_hard_start = frame;
	xdp.data = frame + 256;
	xdp.data_end = frame + 256 + lin;
	xdp.data_meta = xdp.data;
	sinfo = xdp_get_shared_info_from_buff(&xdp);
	for (off = lin; off < len; off += 4096) {
		struct page *page = alloc_pages(GFP_KERNEL, 0);
		u32 n = len - off < 4096 ? len - off : 4096;

		ck_assert_ptr_nonnull(page);
		memcpy(page_address(page), pkt + off, n);
		skb_frag_fill_page_desc(&sinfo->frags[sinfo->nr_frags++], page, 0, n);
		sinfo->xdp_frags_size += n;
		xdp.flags |= XDP_FLAGS_HAS_FRAGS;
	}

	*a = *in;
#define X	((u64)(uintptr_t)&xdp)
	switch (a->op) {
	case OP_HEAD:
		ret = bpf_xdp_adjust_head_proto.func(X, (u64)(s64)a->a, 0, 0, 0);
		break;
	case OP_TAIL:
		ret = bpf_xdp_adjust_tail_proto.func(X, (u64)(s64)a->a, 0, 0, 0);
		break;
	case OP_META:
		ret = bpf_xdp_adjust_meta_proto.func(X, (u64)(s64)a->a, 0, 0, 0);
		break;
	case OP_CSUM:
		ret = bpf_csum_diff_proto.func((uintptr_t)a->from, a->fs, (uintptr_t)a->to, a->ts,
					       a->seed);
		break;
	case OP_LOAD:
		ret = bpf_xdp_load_bytes_proto.func(X, (u64)(s64)a->a, (uintptr_t)a->out, a->b, 0);
		break;
	case OP_STORE:
		ret = bpf_xdp_store_bytes_proto.func(X, (u64)(s64)a->a, (uintptr_t)a->from, a->b, 0);
		break;
	case OP_LEN:
		ret = bpf_xdp_get_buff_len_proto.func(X, 0, 0, 0, 0);
		break;
	case OP_MTU:
		a->res = a->b;
		ret = bpf_xdp_check_mtu_proto.func(X, (u64)(s64)a->a, (uintptr_t)&a->res,
						   (u64)(s64)(s32)a->seed, a->fs);
		break;
	case OP_SNPRINTF: {
		static const char *const fmts[] = {
			"%d|%i|%u|%x|%X|%ld",
			"%lld|%llu|%llx|%lx|%lu|%li",
			"[%5d|%-5d|%05d|%+d|% d|%08x|%-08x|%+u]",
			"%c%c%c|%%|%3c|%-3c|",
			"%s|%10s|%-10s|%s.",
			"%pI4 %pi4 %pI6 %pi6 %pI4.",
			"%px|%18px|%pks|%pus",
			"%d %d %d %d %d %d %d %d %d %d %d %d",
			"%pI6c|%pI4abc|x%pi4y",
			"%-+6d|%+06d|% 06d|%0-6d|%- 6i|%07u|%-7x|%+5X|%1d|%3lld|%-9lx|%c",
		};
		u64 args[12];
		int k;

		memcpy(args, a->from, sizeof(args));
		for (k = 0; k < 12; k++)
			if (a->ts & (1U << k))
				args[k] = (uintptr_t)a->to + (args[k] & 0xff);
		snprintf_to = a->to;
		bpf_probe_read_limit = to_limit;
		ret = bpf_snprintf_proto.func((uintptr_t)a->out, a->fs & 0xff,
					      (uintptr_t)fmts[a->b], (uintptr_t)args, sizeof(args));
		bpf_probe_read_limit = NULL;
		break;
	}
	case OP_FIB: {
		struct bpf_fib_lookup fib = { .family = (u8)a->a };

		ret = bpf_xdp_fib_lookup_proto.func(X, (uintptr_t)&fib, a->b >= 64 ? 64 : 8,
						    a->seed, 0);
		break;
	}
	}
#undef X
	r->retval = (u32)ret;

	/* bpf_test_finish(): from data_meta, then the frags. */
	r->size_out = (u8 *)xdp.data_end - (u8 *)xdp.data_meta;
	memcpy(r->out, xdp.data_meta, r->size_out);
	if (xdp.flags & XDP_FLAGS_HAS_FRAGS) {
		for (i = 0; i < sinfo->nr_frags; i++) {
			memcpy(r->out + r->size_out, skb_frag_address(&sinfo->frags[i]),
			       skb_frag_size(&sinfo->frags[i]));
			r->size_out += skb_frag_size(&sinfo->frags[i]);
		}
	}
	for (i = 0; i < sinfo->nr_frags; i++)
		put_page(skb_frag_page(&sinfo->frags[i]));
	put_page(head);
}

static struct result kr, ur;
static u8 pkt[MAX_PKT];

static void compare(const struct args *a, u32 len, const char *what)
{
	kernel_run(a, pkt, len, &kr);
	uxdp_run(a, pkt, len, &ur);
	ck_assert_msg(kr.retval == ur.retval,
		      "%s len %u a %d b %u: retval kernel %d uxdp %d (out: kernel '%.40s' uxdp '%.40s')",
		      what, len, a->a, a->b, (int)kr.retval, (int)ur.retval, kr.args.out, ur.args.out);
	ck_assert_msg(kr.size_out == ur.size_out, "%s len %u a %d: size_out kernel %u uxdp %u",
		      what, len, a->a, kr.size_out, ur.size_out);
	ck_assert_msg(!memcmp(kr.out, ur.out, kr.size_out), "%s len %u a %d: packet differs",
		      what, len, a->a);
	ck_assert_msg(!memcmp(kr.args.out, ur.args.out, sizeof(kr.args.out)),
		      "%s len %u a %d: loaded bytes differ", what, len, a->a);
	ck_assert_msg(kr.args.res == ur.args.res, "%s len %u a %d: res kernel %u uxdp %u",
		      what, len, a->a, kr.args.res, ur.args.res);
}

static void fill_pkt(void)
{
	u32 i;

	for (i = 0; i < MAX_PKT; i++)
		pkt[i] = (i * 7 + (i >> 8)) & 0xff;
}

static const u32 lens[] = { 14, 64, 1500, 3520, 3521, 5000, 3520 + 4096, 3520 + 4096 * 2 + 17 };

START_TEST(test_oracle_adjust_head)
{
	struct args a = { .op = OP_HEAD };
	unsigned int i;
	int off;

	fill_pkt();
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		u32 lin = lens[i] < 3520 ? lens[i] : 3520;

		for (off = -220; off <= -210; off++) {
			a.a = off;
			compare(&a, lens[i], "adjust_head");
		}
		for (off = -2; off <= 2; off++) {
			a.a = off;
			compare(&a, lens[i], "adjust_head");
		}
		for (off = (int)lin - 16; off <= (int)lin - 12; off++) {
			a.a = off;
			compare(&a, lens[i], "adjust_head");
		}
	}
}
END_TEST

START_TEST(test_oracle_adjust_tail)
{
	struct args a = { .op = OP_TAIL };
	unsigned int i;
	int off, k;

	fill_pkt();
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		u32 len = lens[i], lin = len < 3520 ? len : 3520;
		int probes[] = { 0, 1, -1, 3520 - (int)lin - 1, 3520 - (int)lin, 3520 - (int)lin + 1,
				 -((int)len - 14), -((int)len - 13), -((int)len - 15), 100, -100,
				 -((int)len - (int)lin), -((int)len - (int)lin) - 1,
				 4096 - (int)((len - lin) % 4096), 4096 - (int)((len - lin) % 4096) + 1 };

		for (k = 0; k < (int)ARRAY_SIZE(probes); k++) {
			a.a = probes[k];
			compare(&a, len, "adjust_tail");
		}
		for (off = -5000; off <= 5000; off += 997) {
			a.a = off;
			compare(&a, len, "adjust_tail");
		}
	}
}
END_TEST

START_TEST(test_oracle_adjust_meta)
{
	struct args a = { .op = OP_META };
	int off;

	fill_pkt();
	for (off = -260; off <= 8; off++) {
		a.a = off;
		compare(&a, 64, "adjust_meta");
	}
}
END_TEST

START_TEST(test_oracle_csum_diff)
{
	struct args a = { .op = OP_CSUM };
	int it, j;

	srandom(1234);
	fill_pkt();
	for (it = 0; it < 400; it++) {
		for (j = 0; j < 256; j++) {
			a.from[j] = random();
			a.to[j] = random();
		}
		/* Mostly small sizes, odd ones too; every shape of the helper. */
		a.fs = it % 4 == 1 ? 0 : random() % (it < 300 ? 41 : 257);
		a.ts = it % 4 == 2 ? 0 : random() % (it < 300 ? 41 : 257);
		a.seed = it % 3 ? random() : 0;
		if (it % 17 == 0)
			a.seed = 0xffffffff;
		if (it % 19 == 0)
			memset(a.to, 0, sizeof(a.to));
		compare(&a, 64, "csum_diff");
	}
}
END_TEST

START_TEST(test_oracle_load_store_len)
{
	static const int offs[] = { 0, 1, 13, 3500, 3519, 3520, 3521, 7600, 7615, 7616,
				    7617, 11700, 65535, 65536, -1 };
	static const u32 lns[] = { 1, 2, 16, 20, 100, 256 };
	struct args a = { 0 };
	unsigned int i, j, k;

	fill_pkt();
	for (k = 0; k < ARRAY_SIZE(lens); k++) {
		a.op = OP_LEN;
		compare(&a, lens[k], "get_buff_len");
		for (i = 0; i < ARRAY_SIZE(offs); i++) {
			for (j = 0; j < ARRAY_SIZE(lns); j++) {
				a.a = offs[i];
				a.b = lns[j];
				a.op = OP_LOAD;
				memset(a.out, 0, sizeof(a.out));
				compare(&a, lens[k], "load_bytes");
				a.op = OP_STORE;
				memset(a.from, 0x40 + j, sizeof(a.from));
				compare(&a, lens[k], "store_bytes");
			}
		}
	}
}
END_TEST

START_TEST(test_oracle_check_mtu_fib)
{
	static const s32 diffs[] = { 0, 65536 + 14 - 64, 65536 + 14 - 63, -64, -1000 };
	struct args a = { .op = OP_MTU };
	unsigned int i;

	fill_pkt();
	for (i = 0; i < ARRAY_SIZE(diffs); i++) {
		a.a = 0;
		a.b = 0;
		a.seed = diffs[i];
		a.fs = 0;
		compare(&a, 64, "check_mtu");
		a.b = 65536;
		compare(&a, 64, "check_mtu mtu_len");
		a.b = 65537;
		compare(&a, 64, "check_mtu mtu_len");
	}
	a.seed = 0;
	a.fs = BPF_MTU_CHK_SEGS;	/* flags */
	compare(&a, 64, "check_mtu flags");
	a.fs = 0;
	a.a = 1;	/* lo by ifindex */
	compare(&a, 64, "check_mtu ifindex");
	a.a = 0x7ffffff0;	/* no such device */
	a.b = 1234;
	compare(&a, 64, "check_mtu no device");

	/* Argument checks only: uxdp has no FIB to look routes up in. */
	a.op = OP_FIB;
	a.a = AF_INET;
	a.b = 8;		/* plen < sizeof(struct bpf_fib_lookup) */
	a.seed = 0;
	compare(&a, 64, "fib_lookup plen");
	a.b = 64;
	a.seed = 1U << 6;	/* unknown flag */
	compare(&a, 64, "fib_lookup flags");
	a.seed = 0;
	a.a = 0;		/* no family */
	compare(&a, 64, "fib_lookup family");
	a.a = 99;
	a.seed = 1U << 5;	/* BPF_FIB_LOOKUP_MARK is known to 6.10+ */
	compare(&a, 64, "fib_lookup mark flag");
}
END_TEST

START_TEST(test_oracle_snprintf)
{
	static const char *const strs[] = { "", "a", "hello", "0123456789abcdef", "x y\tz" };
	struct args a = { .op = OP_SNPRINTF };
	u64 *v = (u64 *)a.from;
	int it, k;

	srandom(99);
	fill_pkt();
	for (it = 0; it < 600; it++) {
		a.b = it % 10;
		a.fs = it % 7 == 0 ? random() % 24 : 255;
		a.ts = 0;
		memset(a.out, 0xCC, sizeof(a.out));
		memset(a.to, 0, sizeof(a.to));
		for (k = 0; k < 12; k++) {
			switch (random() % 5) {
			case 0: v[k] = random() % 100; break;
			case 1: v[k] = (u64)(s64)-(random() % 100000); break;
			case 2: v[k] = ((u64)random() << 33) ^ random(); break;
			case 3: v[k] = 0xffffffffULL; break;
			default: v[k] = (u32)random(); break;
			}
		}
		/* Strings and addresses at fixed places of to[]. */
		strcpy((char *)a.to, strs[it % 5]);
		strcpy((char *)a.to + 32, strs[(it + 2) % 5]);
		for (k = 0; k < 16; k++)
			a.to[64 + k] = random() % 3 ? random() : 0;
		if (a.b == 4) {
			a.ts = 0xf;
			v[0] = 0; v[1] = 32; v[2] = 0; v[3] = 32;
		} else if (a.b == 5 || a.b == 8) {
			a.ts = 0x1f;
			for (k = 0; k < 5; k++)
				v[k] = 64;
		} else if (a.b == 6) {
			a.ts = 0xc;
			v[2] = 0;
			v[3] = 32;
		}
		compare(&a, 64, "snprintf");
		ck_assert_msg(!memcmp(kr.args.out, ur.args.out, sizeof(a.out)),
			      "snprintf fmt %u: kernel '%.*s' uxdp '%.*s'", a.b, 64, kr.args.out,
			      64, ur.args.out);
	}
}
END_TEST

static struct net_device *lo_by_index(int ifindex)
{
	return ifindex == 1 ? &lo : NULL;
}

static void setup(void)
{
	bpf_dev_get_by_index_hook = lo_by_index;
}

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/filter oracle");
	TCase *tc = tcase_create("kernel");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_oracle_adjust_head);
	tcase_add_test(tc, test_oracle_adjust_tail);
	tcase_add_test(tc, test_oracle_adjust_meta);
	tcase_add_test(tc, test_oracle_csum_diff);
	tcase_add_test(tc, test_oracle_load_store_len);
	tcase_add_test(tc, test_oracle_check_mtu_fib);
	tcase_add_test(tc, test_oracle_snprintf);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : FILTER_ORACLE_OBJ;
	struct args probe = { .op = OP_LEN };
	SRunner *sr;
	int err, failed;

	err = oracle_open(path, &probe, sizeof(probe));
	if (err == -ENOENT) {
		fprintf(stderr, "filter_oracle_test: cannot use %s\n", path);
		return 1;
	}
	if (err) {
		printf("SKIP: the kernel refused the oracle program or BPF_PROG_TEST_RUN (%s); "
		       "needs root/CAP_BPF\n", strerror(-err));
		return 77;
	}
	sr = srunner_create(uxdp_test_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	oracle_close();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
