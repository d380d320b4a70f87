// SPDX-License-Identifier: GPL-2.0
/*
 * XDP helpers of net/core/filter.c called directly, on xdp_buffs laid out
 * as BPF_PROG_TEST_RUN lays them out (4096-byte frame, 256 bytes of
 * headroom, skb_shared_info in the last 320 bytes, frags of 4 KiB), every
 * success and error path with exact return codes and resulting geometry.
 * filter_oracle_test.c checks the same against the running kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_ether.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/xdp.h>

#include "uxdp_test.h"

#define FRAME_SZ	4096
#define HEADROOM	256
#define SHINFO_SZ	320
#define FRAME_END	(FRAME_SZ - SHINFO_SZ)	/* xdp_data_hard_end offset */

struct tbuf {
	u8 *frame;
	struct xdp_buff xdp;
	struct xdp_rxq_info rxq;
	u8 *frag_mem[MAX_SKB_FRAGS];
};

static struct tbuf tb;

/* Linear packet of @len bytes (pattern i & 0xff), metadata supported. */
static struct xdp_buff *tb_init(u32 headroom, u32 len)
{
	u32 i;

	memset(&tb, 0, sizeof(tb));
	tb.frame = aligned_alloc(FRAME_SZ, FRAME_SZ);
	ck_assert_ptr_nonnull(tb.frame);
	memset(tb.frame, 0, FRAME_SZ);
	for (i = 0; i < len; i++)
		tb.frame[headroom + i] = i & 0xff;
	tb.rxq.frag_size = FRAME_SZ;
	tb.xdp.rxq = &tb.rxq;
	tb.xdp.frame_sz = FRAME_SZ;
	tb.xdp.data_hard_start = tb.frame;
	tb.xdp.data = tb.frame + headroom;
	tb.xdp.data_end = tb.frame + headroom + len;
	tb.xdp.data_meta = tb.xdp.data;
	return &tb.xdp;
}

static struct skb_shared_info *tb_sinfo(void)
{
	return (struct skb_shared_info *)(tb.frame + FRAME_END);
}

/*
 * Append a frag of @len bytes continuing the pattern from packet offset
 * @pkt_off. Frag memory is not from the page allocator: tests that make
 * the helper release frags avoid calling free on these.
 */
static void tb_add_frag(u32 len, u32 pkt_off)
{
	struct skb_shared_info *sinfo = tb_sinfo();
	skb_frag_t *frag = &sinfo->frags[sinfo->nr_frags];
	u8 *mem = aligned_alloc(FRAME_SZ, FRAME_SZ);
	u32 i;

	ck_assert_ptr_nonnull(mem);
	memset(mem, 0xEE, FRAME_SZ);
	for (i = 0; i < len; i++)
		mem[i] = (pkt_off + i) & 0xff;
	tb.frag_mem[sinfo->nr_frags] = mem;
	frag->page = virt_to_page(mem);
	frag->offset = 0;
	frag->len = len;
	sinfo->nr_frags++;
	sinfo->xdp_frags_size += len;
	tb.xdp.flags |= XDP_FLAGS_HAS_FRAGS;
}

static u64 call(const struct bpf_func_proto *p, u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	return p->func(r1, r2, r3, r4, r5);
}

#define X(xdp)	((u64)(uintptr_t)(xdp))

static long adjust(const struct bpf_func_proto *p, struct xdp_buff *xdp, int off)
{
	return (long)call(p, X(xdp), (u64)(s64)off, 0, 0, 0);
}

/* ---- adjust_head -------------------------------------------------------- */

START_TEST(test_adjust_head_limits)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);
	u8 *data0 = xdp->data;

	/* 256 - sizeof(struct xdp_frame) = 216 bytes usable headroom. */
	ck_assert_int_eq(sizeof(struct xdp_frame), 40);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, -217), -EINVAL);
	ck_assert_ptr_eq(xdp->data, data0);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, -216), 0);
	ck_assert_ptr_eq(xdp->data, tb.frame + 40);
	ck_assert_ptr_eq(xdp->data_meta, xdp->data);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, 216), 0);
	/* At least ETH_HLEN bytes must remain. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, 64 - 13), -EINVAL);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, 64 - 14), 0);
	ck_assert_ptr_eq(xdp->data, data0 + 50);
	ck_assert_int_eq((u8 *)xdp->data_end - (u8 *)xdp->data, ETH_HLEN);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, 1), -EINVAL);
}
END_TEST

START_TEST(test_adjust_head_moves_meta)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);
	u8 *meta;

	xdp->data_meta = (u8 *)xdp->data - 8;
	memcpy(xdp->data_meta, "METADATA", 8);
	/* Metadata counts against the headroom: 216 - 8. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, -209), -EINVAL);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, -20), 0);
	meta = xdp->data_meta;
	ck_assert_ptr_eq(meta, (u8 *)xdp->data - 8);
	ck_assert_ptr_eq(xdp->data, tb.frame + HEADROOM - 20);
	ck_assert_mem_eq(meta, "METADATA", 8);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, -188), 0);
	ck_assert_ptr_eq(xdp->data_meta, tb.frame + 40);
	ck_assert_mem_eq(xdp->data_meta, "METADATA", 8);
	/* Pulling moves it forward again. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, 30), 0);
	ck_assert_mem_eq(xdp->data_meta, "METADATA", 8);
	ck_assert_ptr_eq((u8 *)xdp->data - 8, xdp->data_meta);
}
END_TEST

START_TEST(test_adjust_head_meta_unsupported)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);

	xdp->data_meta = (u8 *)xdp->data + 1;	/* xdp_prepare_buff(..., false) */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_head_proto, xdp, -216), 0);
	ck_assert_ptr_eq(xdp->data_meta, (u8 *)xdp->data + 1);
}
END_TEST

/* ---- adjust_tail -------------------------------------------------------- */

START_TEST(test_adjust_tail_linear)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);
	int room = FRAME_END - (HEADROOM + 64);	/* 3456 */
	u8 zero[256] = { 0 };

	memset(tb.frame + HEADROOM + 64, 0xAA, room);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, room + 1), -EINVAL);
	ck_assert_ptr_eq(xdp->data_end, tb.frame + HEADROOM + 64);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 200), 0);
	ck_assert_ptr_eq(xdp->data_end, tb.frame + HEADROOM + 264);
	ck_assert_mem_eq(tb.frame + HEADROOM + 64, zero, 200);
	ck_assert_int_eq(tb.frame[HEADROOM + 264], 0xAA);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, room - 200), 0);
	ck_assert_ptr_eq(xdp->data_end, tb.frame + FRAME_END);
	/* 3520 bytes is the largest linear packet of a 4 KiB frame. */
	ck_assert_int_eq((u8 *)xdp->data_end - (u8 *)xdp->data, 3520);

	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -(3520 - 13)), -EINVAL);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -(3520 - 14)), 0);
	ck_assert_int_eq((u8 *)xdp->data_end - (u8 *)xdp->data, ETH_HLEN);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 0), 0);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -1), -EINVAL);
}
END_TEST

START_TEST(test_adjust_tail_frags_grow)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 3520);
	struct skb_shared_info *sinfo = tb_sinfo();
	u8 zero[100] = { 0 };

	tb_add_frag(4096, 3520);
	tb_add_frag(1000, 3520 + 4096);
	ck_assert_int_eq(call(&bpf_xdp_get_buff_len_proto, X(xdp), 0, 0, 0, 0), 3520 + 5096);

	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 100), 0);
	ck_assert_int_eq(sinfo->frags[1].len, 1100);
	ck_assert_int_eq(sinfo->xdp_frags_size, 5196);
	ck_assert_mem_eq(tb.frag_mem[1] + 1000, zero, 100);
	ck_assert_ptr_eq(xdp->data_end, tb.frame + HEADROOM + 3520);
	/* Only the last frag's slack: 4096 - 1100 = 2996. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 2997), -EINVAL);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 2996), 0);
	ck_assert_int_eq(sinfo->frags[1].len, 4096);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 1), -EINVAL);
	/* An offset into the page counts against the slack too. */
	sinfo->frags[1].offset = 100;
	sinfo->frags[1].len = 3000;
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 997), -EINVAL);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 996), 0);
	/* The driver did not say how big frags are: cannot grow. */
	tb.rxq.frag_size = 0;
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 1), -EOPNOTSUPP);
	tb.rxq.frag_size = FRAME_SZ + 1;
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, 1), -EOPNOTSUPP);
}
END_TEST

START_TEST(test_adjust_tail_frags_shrink_partial)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 3520);
	struct skb_shared_info *sinfo = tb_sinfo();

	tb_add_frag(4096, 3520);
	tb_add_frag(1000, 3520 + 4096);
	/* Never below ETH_HLEN bytes in total. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -(3520 + 5096 - 13)), -EINVAL);
	ck_assert_int_eq(sinfo->nr_frags, 2);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -999), 0);
	ck_assert_int_eq(sinfo->nr_frags, 2);
	ck_assert_int_eq(sinfo->frags[1].len, 1);
	ck_assert_int_eq(sinfo->xdp_frags_size, 4097);
	ck_assert_int_eq(call(&bpf_xdp_get_buff_len_proto, X(xdp), 0, 0, 0, 0), 3520 + 4097);
	ck_assert(xdp->flags & XDP_FLAGS_HAS_FRAGS);
}
END_TEST

/* Frags released by the helper must come from the page allocator. */
static void tb_add_page_frag(u32 len, u32 pkt_off)
{
	struct skb_shared_info *sinfo = tb_sinfo();
	skb_frag_t *frag = &sinfo->frags[sinfo->nr_frags];
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	u8 *mem;
	u32 i;

	ck_assert_ptr_nonnull(page);
	mem = page_address(page);
	for (i = 0; i < len; i++)
		mem[i] = (pkt_off + i) & 0xff;
	frag->page = page;
	frag->offset = 0;
	frag->len = len;
	sinfo->nr_frags++;
	sinfo->xdp_frags_size += len;
	tb.xdp.flags |= XDP_FLAGS_HAS_FRAGS;
}

START_TEST(test_adjust_tail_frags_shrink_release)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 3520);
	struct skb_shared_info *sinfo = tb_sinfo();

	tb_add_page_frag(4096, 3520);
	tb_add_page_frag(1000, 3520 + 4096);
	/* Drops the last frag whole and 10 bytes of the first. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -1010), 0);
	ck_assert_int_eq(sinfo->nr_frags, 1);
	ck_assert_int_eq(sinfo->frags[0].len, 4086);
	ck_assert_int_eq(sinfo->xdp_frags_size, 4086);
	/* All frags and 100 linear bytes: the buffer becomes linear. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_tail_proto, xdp, -4186), 0);
	ck_assert_int_eq(sinfo->nr_frags, 0);
	ck_assert_int_eq(sinfo->xdp_frags_size, 0);
	ck_assert(!(xdp->flags & XDP_FLAGS_HAS_FRAGS));
	ck_assert_int_eq((u8 *)xdp->data_end - (u8 *)xdp->data, 3420);
	ck_assert_int_eq(call(&bpf_xdp_get_buff_len_proto, X(xdp), 0, 0, 0, 0), 3420);
}
END_TEST

/* ---- adjust_meta -------------------------------------------------------- */

START_TEST(test_adjust_meta)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);

	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -4), 0);
	ck_assert_ptr_eq(xdp->data_meta, (u8 *)xdp->data - 4);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -3), -EACCES);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, 8), -EINVAL);	/* past data */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, 4), 0);
	ck_assert_ptr_eq(xdp->data_meta, xdp->data);
	/* Down to the end of the xdp_frame: 216 bytes, a multiple of 4. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -217), -EINVAL);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -216), 0);
	ck_assert_ptr_eq(xdp->data_meta, tb.frame + 40);
	ck_assert_ptr_eq(xdp->data, tb.frame + HEADROOM);
}
END_TEST

START_TEST(test_adjust_meta_max_len)
{
	struct xdp_buff *xdp = tb_init(1024, 64);

	/* meta_len is a u8: 252 is the largest multiple of 4. */
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -256), -EACCES);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -252), 0);
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -4), -EACCES);
}
END_TEST

START_TEST(test_adjust_meta_unsupported)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);

	xdp->data_meta = (u8 *)xdp->data + 1;
	ck_assert_int_eq(adjust(&bpf_xdp_adjust_meta_proto, xdp, -4), -ENOTSUPP);
	ck_assert_int_eq(ENOTSUPP, 524);
}
END_TEST

/* ---- load/store bytes --------------------------------------------------- */

static long load(struct xdp_buff *xdp, u32 off, void *buf, u32 len)
{
	return (long)call(&bpf_xdp_load_bytes_proto, X(xdp), off, (u64)(uintptr_t)buf, len, 0);
}

static long store(struct xdp_buff *xdp, u32 off, const void *buf, u32 len)
{
	return (long)call(&bpf_xdp_store_bytes_proto, X(xdp), off, (u64)(uintptr_t)buf, len, 0);
}

START_TEST(test_load_store_linear)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 100);
	u8 buf[128], want[128];
	int i;

	for (i = 0; i < 20; i++)
		want[i] = 80 + i;
	ck_assert_int_eq(load(xdp, 80, buf, 20), 0);
	ck_assert_mem_eq(buf, want, 20);
	ck_assert_int_eq(load(xdp, 81, buf, 20), -EINVAL);
	ck_assert_int_eq(load(xdp, 0x10000, buf, 1), -EFAULT);
	ck_assert_int_eq(load(xdp, 0, buf, 0x10000), -EFAULT);
	ck_assert_int_eq(load(xdp, 0xffffffffu, buf, 2), -EFAULT);
	ck_assert_int_eq(store(xdp, 96, "WXYZ", 4), 0);
	ck_assert_mem_eq((u8 *)xdp->data + 96, "WXYZ", 4);
	ck_assert_int_eq(store(xdp, 97, "WXYZ", 4), -EINVAL);
}
END_TEST

START_TEST(test_load_store_frags)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 3520);
	u8 buf[256], want[256];
	u32 total = 3520 + 4096 + 1000;
	int i;

	tb_add_frag(4096, 3520);
	tb_add_frag(1000, 3520 + 4096);
	for (i = 0; i < 256; i++)
		want[i] = (3400 + i) & 0xff;
	/* Across linear part and first frag. */
	ck_assert_int_eq(load(xdp, 3400, buf, 256), 0);
	ck_assert_mem_eq(buf, want, 256);
	/* Across the two frags. */
	for (i = 0; i < 256; i++)
		want[i] = (3520 + 4000 + i) & 0xff;
	ck_assert_int_eq(load(xdp, 3520 + 4000, buf, 256), 0);
	ck_assert_mem_eq(buf, want, 256);
	/* The very last bytes; one past is -EINVAL. */
	ck_assert_int_eq(load(xdp, total - 4, buf, 4), 0);
	ck_assert_int_eq(buf[3], (total - 1) & 0xff);
	ck_assert_int_eq(load(xdp, total - 3, buf, 4), -EINVAL);

	memset(want, 0x5A, sizeof(want));
	ck_assert_int_eq(store(xdp, 3520 + 4096 - 100, want, 200), 0);
	ck_assert_mem_eq(tb.frag_mem[0] + 3996, want, 100);
	ck_assert_mem_eq(tb.frag_mem[1], want, 100);
	ck_assert_int_eq(tb.frag_mem[1][100], (3520 + 4096 + 100) & 0xff);
	ck_assert_int_eq(load(xdp, 3520 + 4096 - 100, buf, 200), 0);
	ck_assert_mem_eq(buf, want, 200);
	ck_assert_int_eq(store(xdp, total - 1, want, 2), -EINVAL);
}
END_TEST

/*
 * The buffer may be the packet itself: overlapping copies move the bytes
 * as memmove() does (memcpy() over an overlap is undefined), in the linear
 * part and across a frag boundary.
 */
START_TEST(test_load_store_overlap)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 3520);
	u8 *d = xdp->data, want[64];
	int i;

	tb_add_frag(4096, 3520);
	for (i = 0; i < 16; i++)
		want[i] = 2 + i;
	ck_assert_int_eq(store(xdp, 0, d + 2, 16), 0);		/* dst below src */
	ck_assert_mem_eq(d, want, 16);
	for (i = 0; i < 16; i++)
		want[i] = (100 + i) & 0xff;
	ck_assert_int_eq(load(xdp, 100, d + 104, 16), 0);	/* dst above src */
	ck_assert_mem_eq(d + 104, want, 16);
	for (i = 0; i < 16; i++)
		want[i] = d[200 + i];
	ck_assert_int_eq(store(xdp, 200, d + 200, 16), 0);	/* the same bytes */
	ck_assert_mem_eq(d + 200, want, 16);
	/*
	 * Across the linear part and the frag with the buffer in the linear
	 * part: piece by piece in order, as the kernel copies, so the frag
	 * gets buffer bytes the first piece already overwrote.
	 */
	for (i = 0; i < 64; i++)
		want[i] = d[3480 + i];
	ck_assert_int_eq(store(xdp, 3500, d + 3480, 40), 0);
	ck_assert_mem_eq(d + 3500, want, 20);
	ck_assert_mem_eq(tb.frag_mem[0], want, 20);
}
END_TEST

/* ---- redirect ----------------------------------------------------------- */

START_TEST(test_redirect)
{
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();

	ck_assert_int_eq(call(&bpf_xdp_redirect_proto, 7, 1, 0, 0, 0), XDP_ABORTED);
	ck_assert_int_eq(ri->map_id, 0);
	ck_assert_int_eq(call(&bpf_xdp_redirect_proto, 7, 0, 0, 0, 0), XDP_REDIRECT);
	ck_assert_int_eq(ri->tgt_index, 7);
	ck_assert_int_eq(ri->map_id, INT_MAX);
	ck_assert_int_eq(ri->map_type, BPF_MAP_TYPE_UNSPEC);
}
END_TEST

static u64 seen_key, seen_flags;

static long fake_map_redirect(struct bpf_map *map, u64 key, u64 flags)
{
	seen_key = key;
	seen_flags = flags;
	return flags & 3;
}

START_TEST(test_redirect_map)
{
	struct bpf_map_ops ops = { .map_redirect = fake_map_redirect };
	struct bpf_map_ops no_ops = { 0 };
	struct bpf_map map = { .ops = &ops };
	struct bpf_map other = { .ops = &no_ops };

	ck_assert_int_eq(call(&bpf_xdp_redirect_map_proto, (uintptr_t)&map, 0x100000005ULL,
			      XDP_PASS, 0, 0), XDP_PASS);
	ck_assert_uint_eq(seen_key, 0x100000005ULL);
	ck_assert_uint_eq(seen_flags, XDP_PASS);
	ck_assert_int_eq(call(&bpf_xdp_redirect_map_proto, (uintptr_t)&other, 1, XDP_PASS, 0, 0),
			 XDP_ABORTED);
}
END_TEST

/* ---- csum_diff ---------------------------------------------------------- */

static u32 csum_diff(const void *from, u32 fs, const void *to, u32 ts, u32 seed)
{
	return call(&bpf_csum_diff_proto, (uintptr_t)from, fs, (uintptr_t)to, ts, seed);
}

START_TEST(test_csum_diff)
{
	static const u8 one[4] = { 1, 0, 0, 0 };
	static const u8 ff[4] = { 0xff, 0xff, 0xff, 0xff };
	/* RFC 1071's example words 0001 f203 f4f5 f6f7, summed little-endian. */
	static const u8 rfc[8] = { 0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7 };

	ck_assert_uint_eq(csum_diff(NULL, 0, one, 4, 0), 1);
	ck_assert_uint_eq(csum_diff(NULL, 0, ff, 4, 0), 0xffff);
	ck_assert_uint_eq(csum_diff(NULL, 0, NULL, 0, 0x12345678), 0x1234 + 0x5678);
	/* 0x0100 + 0x03f2 + 0xf5f4 + 0xf7f6 = 0x1f2dc -> 0xf2dd */
	ck_assert_uint_eq(csum_diff(NULL, 0, rfc, 8, 0), 0xf2dd);
	/* Odd sizes are fine: the trailing byte is the low byte. */
	ck_assert_uint_eq(csum_diff(NULL, 0, rfc, 3, 0), 0x0100 + 0x00f2);
	/* Diffing equal data gives negative zero. */
	ck_assert_uint_eq(csum_diff(rfc, 8, rfc, 8, 0), 0xffff);
	/* Pull only: ~csum(from, ~seed). */
	ck_assert_uint_eq(csum_diff(one, 4, NULL, 0, 0), 0xfffe);
	/* 1 -> 2 in the first word: +1 */
	ck_assert_uint_eq(csum_diff(one, 4, (const u8[4]){ 2, 0, 0, 0 }, 4, 0), 1);
}
END_TEST

/* ---- fib_lookup, check_mtu ---------------------------------------------- */

static int fib_hook_calls;

static int fake_fib(struct xdp_buff *xdp, struct bpf_fib_lookup *params, u32 flags)
{
	fib_hook_calls++;
	params->ifindex = 42;
	return BPF_FIB_LKUP_RET_SUCCESS;
}

START_TEST(test_fib_lookup)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);
	struct bpf_fib_lookup p = { .family = AF_INET };
	const struct bpf_func_proto *fl = &bpf_xdp_fib_lookup_proto;

	ck_assert_int_eq(sizeof(p), 64);
	ck_assert_int_eq((long)call(fl, X(xdp), (uintptr_t)&p, 63, 0, 0), -EINVAL);
	ck_assert_int_eq((long)call(fl, X(xdp), (uintptr_t)&p, 64, 1U << 6, 0), -EINVAL);
	ck_assert_int_eq((long)call(fl, X(xdp), (uintptr_t)&p, 64, 0x3f, 0),
			 BPF_FIB_LKUP_RET_NOT_FWDED);
	p.family = AF_INET6;
	ck_assert_int_eq((long)call(fl, X(xdp), (uintptr_t)&p, 64, 0, 0),
			 BPF_FIB_LKUP_RET_NOT_FWDED);
	p.family = 0;
	ck_assert_int_eq((long)call(fl, X(xdp), (uintptr_t)&p, 64, 0, 0), -EAFNOSUPPORT);

	bpf_fib_lookup_hook = fake_fib;
	p.family = AF_INET;
	ck_assert_int_eq((long)call(fl, X(xdp), (uintptr_t)&p, 64, 0, 0), 0);
	ck_assert_int_eq(fib_hook_calls, 1);
	ck_assert_int_eq(p.ifindex, 42);
	bpf_fib_lookup_hook = NULL;
}
END_TEST

static struct net_device mtu_dev = { .ifindex = 3, .mtu = 1500, .hard_header_len = ETH_HLEN };

static struct net_device *fake_dev_get(int ifindex)
{
	return ifindex == 3 ? &mtu_dev : NULL;
}

static long check_mtu(struct xdp_buff *xdp, u32 ifindex, u32 *mtu_len, s32 diff, u64 flags)
{
	return (long)call(&bpf_xdp_check_mtu_proto, X(xdp), ifindex, (uintptr_t)mtu_len,
			  (u64)(s64)diff, flags);
}

START_TEST(test_check_mtu)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);
	struct net_device rxdev = { .ifindex = 1, .mtu = 1500, .hard_header_len = ETH_HLEN };
	u32 mtu;

	/* No device at all (prog run without one): -ENODEV, *mtu_len untouched. */
	mtu = 77;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 0, 0), -ENODEV);
	ck_assert_uint_eq(mtu, 77);

	tb.rxq.dev = &rxdev;
	mtu = 0;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 0, 0), BPF_MTU_CHK_RET_SUCCESS);
	ck_assert_uint_eq(mtu, 1500);
	/* 64 + 1450 = 1514 = 1500 + 14: still fits; one more does not. */
	mtu = 0;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 1450, 0), BPF_MTU_CHK_RET_SUCCESS);
	mtu = 0;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 1451, 0), BPF_MTU_CHK_RET_FRAG_NEEDED);
	ck_assert_uint_eq(mtu, 1500);
	/* *mtu_len as input is an L3 length. */
	mtu = 1500;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 0, 0), BPF_MTU_CHK_RET_SUCCESS);
	mtu = 1501;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 0, 0), BPF_MTU_CHK_RET_FRAG_NEEDED);
	mtu = 1501;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, -1, 0), BPF_MTU_CHK_RET_SUCCESS);
	/* Flags: even BPF_MTU_CHK_SEGS is refused by the XDP flavour. */
	mtu = 5;
	ck_assert_int_eq(check_mtu(xdp, 0, &mtu, 0, BPF_MTU_CHK_SEGS), -EINVAL);
	ck_assert_uint_eq(mtu, 5);
	/* Other devices by ifindex. */
	mtu = 0;
	ck_assert_int_eq(check_mtu(xdp, 3, &mtu, 0, 0), -ENODEV);
	bpf_dev_get_by_index_hook = fake_dev_get;
	mtu_dev.mtu = 9000;
	ck_assert_int_eq(check_mtu(xdp, 3, &mtu, 0, 0), BPF_MTU_CHK_RET_SUCCESS);
	ck_assert_uint_eq(mtu, 9000);
	ck_assert_int_eq(check_mtu(xdp, 4, &mtu, 0, 0), -ENODEV);
	bpf_dev_get_by_index_hook = NULL;
}
END_TEST

START_TEST(test_event_output_checks)
{
	struct xdp_buff *xdp = tb_init(HEADROOM, 64);
	const struct bpf_func_proto *p = &bpf_xdp_event_output_proto;
	struct bpf_map map = { 0 };
	u64 meta = 0;

	ck_assert_int_eq((long)call(p, X(xdp), (uintptr_t)&map, 1ULL << 60, (uintptr_t)&meta, 8),
			 -EINVAL);
	ck_assert_int_eq((long)call(p, X(xdp), (uintptr_t)&map, (65ULL << 32) | BPF_F_CURRENT_CPU,
				    (uintptr_t)&meta, 8), -EFAULT);
}
END_TEST

struct perf_rec {
	int n;
	u32 size;
	u8 data[4096];
};

static int perf_cb(void *ctx, int cpu, void *data, u32 size)
{
	struct perf_rec *r = ctx;

	r->n++;
	r->size = size;
	memcpy(r->data, data, size < sizeof(r->data) ? size : sizeof(r->data));
	return 0;
}

START_TEST(test_event_output_record)
{
	union bpf_attr attr = {
		.map_type = BPF_MAP_TYPE_PERF_EVENT_ARRAY,
		.key_size = 4,
		.value_size = 4,
		.max_entries = 2,
	};
	const struct bpf_func_proto *p = &bpf_xdp_event_output_proto;
	struct xdp_buff *xdp = tb_init(HEADROOM, 3520);
	static struct perf_rec rec;
	u64 meta = 0x1122334455667788ULL;
	struct bpf_map *map;
	u32 k = 0, fd = 3, i;

	tb_add_frag(4096, 3520);
	map = bpf_map_new(&attr);
	ck_assert(!IS_ERR(map));
	ck_assert_int_eq(bpf_map_update_value(map, &k, &fd, 0), 0);
	/* Slot 1 is empty. */
	ck_assert_int_eq((long)call(p, X(xdp), (uintptr_t)map, 1, (uintptr_t)&meta, 8), -ENOENT);
	ck_assert_int_eq((long)call(p, X(xdp), (uintptr_t)map, 5, (uintptr_t)&meta, 8), -E2BIG);
	/* 8 bytes of meta, then 3600 packet bytes: across the linear part and a frag. */
	ck_assert_int_eq((long)call(p, X(xdp), (uintptr_t)map, 3600ULL << 32, (uintptr_t)&meta, 8),
			 0);
	ck_assert_int_eq(perf_event_array_consume(map, perf_cb, &rec), 1);
	ck_assert_int_eq(rec.n, 1);
	ck_assert_uint_eq(rec.size, 3608);
	ck_assert_mem_eq(rec.data, &meta, 8);
	for (i = 0; i < 3600; i++)
		ck_assert_uint_eq(rec.data[8 + i], i & 0xff);
	bpf_map_put_with_uref(map);
}
END_TEST

/* ---- the table ---------------------------------------------------------- */

START_TEST(test_xdp_func_proto)
{
	static const struct {
		int id;
		const struct bpf_func_proto *p;
	} table[] = {
		{ BPF_FUNC_map_lookup_elem, &bpf_map_lookup_elem_proto },
		{ BPF_FUNC_map_update_elem, &bpf_map_update_elem_proto },
		{ BPF_FUNC_map_delete_elem, &bpf_map_delete_elem_proto },
		{ BPF_FUNC_ktime_get_ns, &bpf_ktime_get_ns_proto },
		{ BPF_FUNC_trace_printk, &bpf_trace_printk_proto },
		{ BPF_FUNC_get_prandom_u32, &bpf_get_prandom_u32_proto },
		{ BPF_FUNC_get_smp_processor_id, &bpf_get_smp_processor_id_proto },
		{ BPF_FUNC_tail_call, &bpf_tail_call_proto },
		{ BPF_FUNC_redirect, &bpf_xdp_redirect_proto },
		{ BPF_FUNC_perf_event_output, &bpf_xdp_event_output_proto },
		{ BPF_FUNC_csum_diff, &bpf_csum_diff_proto },
		{ BPF_FUNC_xdp_adjust_head, &bpf_xdp_adjust_head_proto },
		{ BPF_FUNC_redirect_map, &bpf_xdp_redirect_map_proto },
		{ BPF_FUNC_xdp_adjust_meta, &bpf_xdp_adjust_meta_proto },
		{ BPF_FUNC_xdp_adjust_tail, &bpf_xdp_adjust_tail_proto },
		{ BPF_FUNC_fib_lookup, &bpf_xdp_fib_lookup_proto },
		{ BPF_FUNC_ktime_get_boot_ns, &bpf_ktime_get_boot_ns_proto },
		{ BPF_FUNC_check_mtu, &bpf_xdp_check_mtu_proto },
		{ BPF_FUNC_ktime_get_coarse_ns, &bpf_ktime_get_coarse_ns_proto },
		{ BPF_FUNC_xdp_get_buff_len, &bpf_xdp_get_buff_len_proto },
		{ BPF_FUNC_xdp_load_bytes, &bpf_xdp_load_bytes_proto },
		{ BPF_FUNC_xdp_store_bytes, &bpf_xdp_store_bytes_proto },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		ck_assert_msg(xdp_func_proto(table[i].id) == table[i].p, "helper %d", table[i].id);
		ck_assert_msg(table[i].p->func, "helper %d has a body", table[i].id);
	}
	/* bpf_xdp_output is for tracing programs; skb helpers are not XDP's. */
	for (i = BPF_FUNC_ringbuf_output; i <= BPF_FUNC_ringbuf_query; i++)
		ck_assert_msg(xdp_func_proto(i) && xdp_func_proto(i)->func, "ringbuf helper %u", i);
	ck_assert_ptr_null(xdp_func_proto(BPF_FUNC_xdp_output));
	ck_assert_ptr_null(xdp_func_proto(BPF_FUNC_skb_load_bytes));
	ck_assert_ptr_eq(xdp_func_proto(BPF_FUNC_loop), &bpf_loop_proto);
	ck_assert_ptr_eq(xdp_func_proto(BPF_FUNC_spin_lock), &bpf_spin_lock_proto);
	ck_assert_ptr_eq(xdp_func_proto(BPF_FUNC_spin_unlock), &bpf_spin_unlock_proto);
	ck_assert_ptr_null(xdp_func_proto((enum bpf_func_id)100000));

	ck_assert(bpf_xdp_adjust_head_proto.changes_pkt_data);
	ck_assert(bpf_xdp_adjust_tail_proto.changes_pkt_data);
	ck_assert(bpf_xdp_adjust_meta_proto.changes_pkt_data);
	ck_assert(!bpf_xdp_load_bytes_proto.changes_pkt_data);
	ck_assert(bpf_xdp_fib_lookup_proto.gpl_only);
	ck_assert(bpf_xdp_check_mtu_proto.gpl_only);
	ck_assert(bpf_xdp_event_output_proto.gpl_only);
	ck_assert(!bpf_xdp_adjust_head_proto.gpl_only);
	ck_assert_int_eq(bpf_xdp_adjust_head_proto.arg_type[0], ARG_PTR_TO_CTX);
	ck_assert_int_eq(bpf_xdp_load_bytes_proto.arg_type[2], ARG_PTR_TO_UNINIT_MEM);
	ck_assert_int_eq(bpf_xdp_load_bytes_proto.arg_type[3], ARG_CONST_SIZE);
	ck_assert_int_eq(bpf_xdp_check_mtu_proto.arg_size[2], 4);
	ck_assert_int_eq(bpf_xdp_redirect_map_proto.arg_type[0], ARG_CONST_MAP_PTR);
	ck_assert_int_eq(bpf_map_lookup_elem_proto.ret_type, RET_PTR_TO_MAP_VALUE_OR_NULL);
	ck_assert_int_eq(bpf_tail_call_proto.ret_type, RET_VOID);
}
END_TEST

/*
 * Every helper memory argument as the kernel 6.18 spells it: what is only
 * read is MEM_RDONLY, what is written MEM_WRITE (MEM_UNINIT too when the
 * helper fills it whole), as net/core/filter.c, kernel/bpf/helpers.c,
 * kernel/bpf/ringbuf.c and kernel/trace/bpf_trace.c define them.
 */
START_TEST(test_proto_kernel_types)
{
	static const struct {
		const struct bpf_func_proto *proto;
		u32 arg;
		u32 type;
	} want[] = {
		{ &bpf_xdp_load_bytes_proto, 2, ARG_PTR_TO_MEM | MEM_UNINIT | MEM_WRITE },
		{ &bpf_xdp_store_bytes_proto, 2, ARG_PTR_TO_MEM | MEM_RDONLY },
		{ &bpf_csum_diff_proto, 0, ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY },
		{ &bpf_csum_diff_proto, 2, ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY },
		{ &bpf_xdp_fib_lookup_proto, 1, ARG_PTR_TO_MEM | MEM_WRITE },
		{ &bpf_xdp_check_mtu_proto, 2,
		  ARG_PTR_TO_MEM | MEM_FIXED_SIZE | MEM_WRITE | MEM_ALIGNED },
		{ &bpf_xdp_event_output_proto, 3, ARG_PTR_TO_MEM | MEM_RDONLY },
		{ &bpf_trace_printk_proto, 0, ARG_PTR_TO_MEM | MEM_RDONLY },
		{ &bpf_trace_vprintk_proto, 0, ARG_PTR_TO_MEM | MEM_RDONLY },
		{ &bpf_trace_vprintk_proto, 2, ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY },
		{ &bpf_snprintf_proto, 0, ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_WRITE },
		{ &bpf_snprintf_proto, 2, ARG_PTR_TO_CONST_STR },
		{ &bpf_snprintf_proto, 3, ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY },
		{ &bpf_ringbuf_output_proto, 1, ARG_PTR_TO_MEM | MEM_RDONLY },
		{ &bpf_ringbuf_submit_proto, 0, ARG_PTR_TO_RINGBUF_MEM | OBJ_RELEASE },
		{ &bpf_ringbuf_discard_proto, 0, ARG_PTR_TO_RINGBUF_MEM | OBJ_RELEASE },
		{ &bpf_map_lookup_elem_proto, 1, ARG_PTR_TO_MAP_KEY },
		{ &bpf_map_update_elem_proto, 2, ARG_PTR_TO_MAP_VALUE },
		{ &bpf_map_push_elem_proto, 1, ARG_PTR_TO_MAP_VALUE },
		{ &bpf_map_pop_elem_proto, 1, ARG_PTR_TO_MAP_VALUE | MEM_UNINIT | MEM_WRITE },
		{ &bpf_map_peek_elem_proto, 1, ARG_PTR_TO_MAP_VALUE | MEM_UNINIT | MEM_WRITE },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(want); i++)
		ck_assert_msg(want[i].proto->arg_type[want[i].arg] == want[i].type,
			      "%s arg %u: %#x, the kernel's is %#x", want[i].proto->name,
			      want[i].arg + 1, want[i].proto->arg_type[want[i].arg], want[i].type);
	ck_assert_int_eq(bpf_ringbuf_reserve_proto.ret_type,
			 PTR_MAYBE_NULL | MEM_RINGBUF | RET_PTR_TO_MEM);
	ck_assert_int_eq(bpf_map_lookup_elem_proto.ret_type, PTR_MAYBE_NULL | RET_PTR_TO_MAP_VALUE);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/filter");
	TCase *tc = tcase_create("xdp_helpers");

	tcase_add_test(tc, test_adjust_head_limits);
	tcase_add_test(tc, test_adjust_head_moves_meta);
	tcase_add_test(tc, test_adjust_head_meta_unsupported);
	tcase_add_test(tc, test_adjust_tail_linear);
	tcase_add_test(tc, test_adjust_tail_frags_grow);
	tcase_add_test(tc, test_adjust_tail_frags_shrink_partial);
	tcase_add_test(tc, test_adjust_tail_frags_shrink_release);
	tcase_add_test(tc, test_adjust_meta);
	tcase_add_test(tc, test_adjust_meta_max_len);
	tcase_add_test(tc, test_adjust_meta_unsupported);
	tcase_add_test(tc, test_load_store_linear);
	tcase_add_test(tc, test_load_store_frags);
	tcase_add_test(tc, test_load_store_overlap);
	tcase_add_test(tc, test_proto_kernel_types);
	tcase_add_test(tc, test_redirect);
	tcase_add_test(tc, test_redirect_map);
	tcase_add_test(tc, test_csum_diff);
	tcase_add_test(tc, test_fib_lookup);
	tcase_add_test(tc, test_check_mtu);
	tcase_add_test(tc, test_event_output_checks);
	tcase_add_test(tc, test_event_output_record);
	tcase_add_test(tc, test_xdp_func_proto);
	suite_add_tcase(s, tc);
	return s;
}
