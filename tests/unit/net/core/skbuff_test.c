// SPDX-License-Identifier: GPL-2.0
/*
 * sk_buff operations against the kernel's semantics:
 * geometry after every kind of allocation, put/push/pull/trim and their
 * BUG conditions, clones vs shared skbs, copies, pskb_expand_head slack,
 * skb_cow alignment, __pskb_pull_tail slack, linearisation (with a
 * randomized property test), drop-reason accounting, bulk struct
 * allocation with injected failures. Every test ends with a leak check.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/dropreason.h>
#include <net/page_pool/helpers.h>

#include "uxdp_test.h"

#define SHINFO_SZ	SKB_DATA_ALIGN(sizeof(struct skb_shared_info))

static void leak_teardown(void)
{
	char why[512];

	uxdp_fault_clear();
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

static u32 rnd_state = 12345;

static u32 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static void fill(void *p, unsigned int len, u8 seed)
{
	for (unsigned int i = 0; i < len; i++)
		((u8 *)p)[i] = (u8)(seed + i * 7);
}

/* Append @len bytes in a fresh page at @off as frag @i, filled from @seed. */
static void add_page_frag(struct sk_buff *skb, int i, unsigned int off, unsigned int len, u8 seed)
{
	struct page *page = alloc_page(GFP_KERNEL);

	ck_assert_ptr_nonnull(page);
	fill((char *)page_address(page) + off, len, seed);
	skb_add_rx_frag(skb, i, page, off, len, PAGE_SIZE);
}

/* Head end offset the kernel's kmalloc_reserve() gives a request of @size. */
static unsigned int expected_end(unsigned int size)
{
	size_t obj = SKB_HEAD_ALIGN(size);

	return (obj <= 704 ? 704 : kmalloc_size_roundup(obj)) - 320;
}

/* An independent flat copy of the packet bytes (head, frags, frag_list). */
static unsigned int flatten(const struct sk_buff *skb, u8 *out)
{
	const struct skb_shared_info *sh = skb_shinfo(skb);
	unsigned int n = skb_headlen(skb);

	memcpy(out, skb->data, n);
	for (int i = 0; i < sh->nr_frags; i++) {
		memcpy(out + n, skb_frag_address(&sh->frags[i]), skb_frag_size(&sh->frags[i]));
		n += skb_frag_size(&sh->frags[i]);
	}
	for (const struct sk_buff *l = sh->frag_list; l; l = l->next)
		n += flatten(l, out + n);
	return n;
}

/* ---- allocation geometry ---- */

START_TEST(test_shinfo_layout)
{
	ck_assert_uint_eq(sizeof(struct skb_shared_info), 320);
	ck_assert_uint_eq(SHINFO_SZ, 320);
	ck_assert_uint_eq(offsetof(struct skb_shared_info, frags), 48);
	ck_assert_uint_eq(MAX_SKB_FRAGS, 17);
	ck_assert_uint_eq(SKB_TRUESIZE(0), 256 + 320);
	ck_assert_uint_eq(SKB_WITH_OVERHEAD(4096 - 256), 3520);
	ck_assert_uint_eq(NET_SKB_PAD, 64);
	ck_assert_uint_eq(sizeof(((struct sk_buff *)0)->cb), 48);
	ck_assert_uint_eq(offsetof(struct sk_buff, cb) % 8, 0);
}
END_TEST

START_TEST(test_alloc_skb_geometry)
{
	struct sk_buff *skb = alloc_skb(1000, GFP_KERNEL);

	ck_assert_ptr_nonnull(skb);
	ck_assert_ptr_eq(skb->data, skb->head);
	ck_assert_uint_eq(skb->tail, 0);
	ck_assert_uint_eq(skb_headroom(skb), 0);
	ck_assert_uint_eq(skb->len, 0);
	ck_assert_uint_eq(skb->data_len, 0);
	/* SKB_HEAD_ALIGN(1000) = 1344 -> kmalloc-2048; all slack is tailroom */
	ck_assert_uint_eq(skb_end_offset(skb), 2048 - 320);
	ck_assert_int_eq(skb_tailroom(skb), 2048 - 320);
	ck_assert_uint_eq(skb->truesize, SKB_TRUESIZE(2048 - 320));
	ck_assert_ptr_eq(skb_shinfo(skb), skb->head + 2048 - 320);
	ck_assert_int_eq(skb_users(skb), 1);
	ck_assert_int_eq(skb_dataref(skb), 1);
	ck_assert(!skb->cloned);
	ck_assert(!skb_cloned(skb));
	ck_assert(!skb_shared(skb));
	ck_assert_uint_eq(skb->mac_header, 0xffff);
	ck_assert_uint_eq(skb->transport_header, 0xffff);
	ck_assert(!skb_mac_header_was_set(skb));
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 0);
	ck_assert_ptr_null(skb_shinfo(skb)->frag_list);
	ck_assert(!skb->head_frag);
	kfree_skb(skb);

	/* small heads: the 704-byte small-head cache (x86-64, 6.18) */
	skb = alloc_skb(0, GFP_KERNEL);
	ck_assert_uint_eq(skb_end_offset(skb), 704 - 320);
	ck_assert_uint_eq(skb->truesize, 704 - 320 + 256 + 320);
	consume_skb(skb);
	/* large heads: whole pages */
	skb = alloc_skb(9000, GFP_KERNEL);
	ck_assert_uint_eq(skb_end_offset(skb), 16384 - 320);
	consume_skb(skb);
}
END_TEST

START_TEST(test_alloc_zeroes_cb)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	memset(skb->cb, 0xaa, sizeof(skb->cb));
	skb->mark = 7;
	skb->protocol = 0x1234;
	kfree_skb(skb);
	skb = alloc_skb(100, GFP_KERNEL);	/* same struct from the magazine */
	for (unsigned int i = 0; i < sizeof(skb->cb); i++)
		ck_assert_uint_eq((u8)skb->cb[i], 0);
	ck_assert_uint_eq(skb->mark, 0);
	ck_assert_uint_eq(skb->protocol, 0);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_netdev_alloc_skb)
{
	struct net_device dev = { .name = "test0" };
	struct sk_buff *skb = netdev_alloc_skb(&dev, 1500);

	ck_assert_ptr_nonnull(skb);
	ck_assert_uint_eq(skb_headroom(skb), NET_SKB_PAD);
	ck_assert_ptr_eq(skb->dev, &dev);
	ck_assert_int_ge(skb_tailroom(skb), 1500);
	kfree_skb(skb);
	skb = napi_alloc_skb(NULL, 60);
	ck_assert_uint_eq(skb_headroom(skb), NET_SKB_PAD + NET_IP_ALIGN);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_build_skb_on_page)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *data = page_address(page);
	struct sk_buff *skb = build_skb(data, PAGE_SIZE);

	ck_assert_ptr_nonnull(skb);
	ck_assert(skb->head_frag);
	ck_assert(skb_head_is_locked(skb) == false);
	ck_assert_ptr_eq(skb->head, data);
	ck_assert_uint_eq(skb_headroom(skb), 0);
	ck_assert_uint_eq(skb_end_offset(skb), PAGE_SIZE - 320);
	ck_assert_uint_eq(skb->truesize, SKB_TRUESIZE(PAGE_SIZE - 320));
	skb_reserve(skb, 256);
	skb_put(skb, 3520);
	ck_assert_int_eq(skb_tailroom(skb), 0);
	/* freeing the skb puts the page */
	consume_skb(skb);
	ck_assert_int_eq(nr_pages_in_use(), 0);
}
END_TEST

START_TEST(test_build_skb_around_kmalloc_head)
{
	void *data = kmalloc(2048, GFP_KERNEL);
	struct sk_buff *skb = kmem_cache_alloc(skbuff_cache, GFP_KERNEL);

	memset(skb, 0, offsetof(struct sk_buff, tail));
	ck_assert_ptr_eq(build_skb_around(skb, data, 0), skb);
	ck_assert(!skb->head_frag);
	ck_assert_uint_eq(skb_end_offset(skb), 2048 - 320);
	ck_assert_ptr_null(build_skb_around(NULL, data, 0));
	kfree_skb(skb);
}
END_TEST

/* ---- data area operations ---- */

START_TEST(test_reserve_put_push_pull)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL);
	u8 *p;

	skb_reserve(skb, 64);
	ck_assert_uint_eq(skb_headroom(skb), 64);
	ck_assert_uint_eq(skb->tail, 64);
	p = skb_put(skb, 100);
	ck_assert_ptr_eq(p, skb->head + 64);
	ck_assert_uint_eq(skb->len, 100);
	ck_assert_uint_eq(skb_headlen(skb), 100);
	fill(p, 100, 1);
	p = skb_push(skb, 14);
	ck_assert_ptr_eq(p, skb->head + 50);
	ck_assert_uint_eq(skb->len, 114);
	ck_assert_ptr_eq(skb_pull(skb, 14), skb->head + 64);
	ck_assert_uint_eq(skb->len, 100);
	/* pull beyond len: NULL and no change */
	ck_assert_ptr_null(skb_pull(skb, 101));
	ck_assert_uint_eq(skb->len, 100);
	ck_assert_ptr_eq(skb->data, skb->head + 64);
	/* pull all */
	ck_assert_ptr_nonnull(skb_pull(skb, 100));
	ck_assert_uint_eq(skb->len, 0);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_put_zero_data_trim)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL);
	u8 buf[50];
	u8 *p;

	memset(skb_tail_pointer(skb), 0xff, 50);
	p = skb_put_zero(skb, 50);
	for (int i = 0; i < 50; i++)
		ck_assert_uint_eq(p[i], 0);
	fill(buf, sizeof(buf), 3);
	p = skb_put_data(skb, buf, sizeof(buf));
	ck_assert_mem_eq(p, buf, sizeof(buf));
	ck_assert_uint_eq(skb->len, 100);
	skb_trim(skb, 60);
	ck_assert_uint_eq(skb->len, 60);
	ck_assert_ptr_eq(skb_tail_pointer(skb), skb->data + 60);
	skb_trim(skb, 200);	/* longer than len: no change */
	ck_assert_uint_eq(skb->len, 60);
	ck_assert_int_eq(pskb_trim(skb, 10), 0);
	ck_assert_uint_eq(skb->len, 10);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_tailroom_zero_when_nonlinear)
{
	struct sk_buff *skb = alloc_skb(500, GFP_KERNEL);

	skb_put(skb, 100);
	ck_assert_int_gt(skb_tailroom(skb), 0);
	skb->reserved_tailroom = 10;
	ck_assert_int_eq(skb_availroom(skb), skb_tailroom(skb) - 10);
	skb->reserved_tailroom = 0;
	add_page_frag(skb, 0, 0, 1000, 9);
	ck_assert(skb_is_nonlinear(skb));
	ck_assert_int_eq(skb_tailroom(skb), 0);
	ck_assert_int_eq(skb_availroom(skb), 0);
	ck_assert_uint_eq(skb->len, 1100);
	ck_assert_uint_eq(skb->data_len, 1000);
	ck_assert_uint_eq(skb_headlen(skb), 100);
	ck_assert_uint_eq(skb_pagelen(skb), 1100);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_add_rx_frag_truesize)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);
	unsigned int ts = skb->truesize;

	add_page_frag(skb, 0, 100, 200, 1);
	add_page_frag(skb, 1, 0, 300, 2);
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 2);
	ck_assert_uint_eq(skb->truesize, ts + 2 * PAGE_SIZE);
	ck_assert_uint_eq(skb->data_len, 500);
	ck_assert_uint_eq(skb_frag_off(&skb_shinfo(skb)->frags[0]), 100);
	skb_coalesce_rx_frag(skb, 1, 50, 0);
	ck_assert_uint_eq(skb_frag_size(&skb_shinfo(skb)->frags[1]), 350);
	ck_assert_uint_eq(skb->len, 550);
	kfree_skb(skb);
	ck_assert_int_eq(nr_pages_in_use(), 0);
}
END_TEST

START_TEST(test_header_offsets)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL);

	skb_reserve(skb, 32);
	skb_put(skb, 100);
	skb_reset_mac_header(skb);
	ck_assert_uint_eq(skb->mac_header, 32);
	ck_assert(skb_mac_header_was_set(skb));
	ck_assert_int_eq(skb_mac_offset(skb), 0);
	skb_set_network_header(skb, 14);
	ck_assert_ptr_eq(skb_network_header(skb), skb->data + 14);
	skb_reset_mac_len(skb);
	ck_assert_uint_eq(skb->mac_len, 14);
	skb_pull(skb, 14);
	ck_assert_int_eq(skb_network_offset(skb), 0);
	ck_assert_int_eq(skb_mac_offset(skb), -14);
	skb_set_transport_header(skb, 20);
	ck_assert_int_eq(skb_transport_offset(skb), 20);
	ck_assert(skb_transport_header_was_set(skb));
	skb_unset_mac_header(skb);
	ck_assert(!skb_mac_header_was_set(skb));
	kfree_skb(skb);
}
END_TEST

START_TEST(test_header_pointer_and_copy_bits)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);
	u8 flat[2000], buf[2000], *p;

	fill(skb_put(skb, 40), 40, 0);
	add_page_frag(skb, 0, 10, 500, 40);
	add_page_frag(skb, 1, 0, 300, 77);
	ck_assert_uint_eq(flatten(skb, flat), 840);
	p = skb_header_pointer(skb, 10, 20, buf);
	ck_assert_ptr_eq(p, skb->data + 10);
	p = skb_header_pointer(skb, 30, 600, buf);
	ck_assert_ptr_eq(p, buf);
	ck_assert_mem_eq(buf, flat + 30, 600);
	ck_assert_ptr_null(skb_header_pointer(skb, 800, 41, buf));
	ck_assert_int_eq(skb_copy_bits(skb, 0, buf, 840), 0);
	ck_assert_mem_eq(buf, flat, 840);
	ck_assert_int_eq(skb_copy_bits(skb, 1, buf, 840), -EFAULT);
	memset(buf, 0x33, 100);
	ck_assert_int_eq(skb_store_bits(skb, 500, buf, 100), 0);
	ck_assert_int_eq(skb_copy_bits(skb, 500, flat, 100), 0);
	ck_assert_mem_eq(flat, buf, 100);
	kfree_skb(skb);
}
END_TEST

/* ---- BUG conditions (kernel panics; here BUG_ON aborts) ---- */

START_TEST(test_push_under_head_bugs)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	skb_reserve(skb, 10);
	skb_push(skb, 11);
}
END_TEST

START_TEST(test_put_past_end_bugs)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	skb_put(skb, skb_tailroom(skb) + 1);
}
END_TEST

#ifndef NDEBUG
START_TEST(test_put_nonlinear_bugs)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	add_page_frag(skb, 0, 0, 100, 0);
	skb_put(skb, 1);
}
END_TEST

START_TEST(test___skb_pull_below_data_len_bugs)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	skb_put(skb, 10);
	add_page_frag(skb, 0, 0, 100, 0);
	__skb_pull(skb, 11);
}
END_TEST

START_TEST(test_expand_head_shared_bugs)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	skb_get(skb);
	pskb_expand_head(skb, 0, 0, GFP_ATOMIC);
}
END_TEST

START_TEST(test_expand_head_negative_bugs)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	pskb_expand_head(skb, -1, 0, GFP_ATOMIC);
}
END_TEST
#endif

/* ---- refcounts, clones, sharing ---- */

START_TEST(test_shared_vs_cloned)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	ck_assert_ptr_eq(skb_get(skb), skb);
	ck_assert(skb_shared(skb));
	ck_assert(!skb_cloned(skb));	/* sharing the struct is not cloning */
	kfree_skb(skb);			/* drops one user, frees nothing */
	ck_assert_int_eq(skb_users(skb), 1);
	ck_assert(!skb_shared(skb));
	ck_assert_int_eq(skb_live_count(), 1);
	kfree_skb(skb);
	ck_assert_int_eq(skb_live_count(), 0);
	kfree_skb(NULL);
	consume_skb(NULL);
}
END_TEST

START_TEST(test_clone_shares_data)
{
	struct sk_buff *skb = alloc_skb(300, GFP_KERNEL), *clone;

	skb_reserve(skb, 20);
	fill(skb_put(skb, 100), 100, 5);
	skb_reset_mac_header(skb);
	memcpy(skb->cb, "control-block", 14);
	skb->protocol = 0x0008;
	clone = skb_clone(skb, GFP_ATOMIC);
	ck_assert_ptr_nonnull(clone);
	ck_assert_ptr_ne(clone, skb);
	ck_assert_ptr_eq(clone->head, skb->head);
	ck_assert_ptr_eq(clone->data, skb->data);
	ck_assert_uint_eq(clone->len, 100);
	ck_assert(skb->cloned && clone->cloned);
	ck_assert_int_eq(skb_dataref(skb), 2);
	ck_assert(skb_cloned(skb) && skb_cloned(clone));
	ck_assert(skb_header_cloned(skb));
	ck_assert_int_eq(skb_users(clone), 1);
	ck_assert_mem_eq(clone->cb, "control-block", 14);
	ck_assert_uint_eq(clone->protocol, 0x0008);
	ck_assert_uint_eq(clone->mac_header, skb->mac_header);
	/* write through one, visible through the other: shared data */
	skb->data[0] = 0xee;
	ck_assert_uint_eq(clone->data[0], 0xee);
	kfree_skb(clone);
	/* cloned bit stays but the data is private again */
	ck_assert(skb->cloned);
	ck_assert(!skb_cloned(skb));
	ck_assert_int_eq(skb_dataref(skb), 1);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_header_cloned_nohdr)
{
	struct sk_buff *skb = alloc_skb(300, GFP_KERNEL), *clone;

	skb_put(skb, 100);
	clone = skb_clone(skb, GFP_ATOMIC);
	/* the clone only references the payload: skb may write headers */
	__skb_header_release(clone);
	__atomic_store_n(&skb_shinfo(skb)->dataref, 2 + (1 << SKB_DATAREF_SHIFT), __ATOMIC_RELAXED);
	ck_assert(skb_cloned(skb));
	ck_assert(!skb_header_cloned(skb));
	ck_assert_int_eq(skb_cow_head(skb, 0), 0);
	ck_assert_ptr_eq(skb->head, clone->head);	/* no copy needed */
	kfree_skb(clone);	/* releases (1<<16)+1 */
	ck_assert_int_eq(skb_dataref(skb), 1);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_unshare_and_share_check)
{
	struct sk_buff *skb = alloc_skb(300, GFP_KERNEL), *clone, *priv;

	skb_reserve(skb, 40);
	fill(skb_put(skb, 100), 100, 1);
	/* not cloned: same skb back */
	ck_assert_ptr_eq(skb_unshare(skb, GFP_ATOMIC), skb);
	clone = skb_clone(skb, GFP_ATOMIC);
	priv = skb_unshare(clone, GFP_ATOMIC);	/* consumes clone */
	ck_assert_ptr_nonnull(priv);
	ck_assert_ptr_ne(priv->head, skb->head);
	ck_assert_uint_eq(skb_headroom(priv), 40);
	ck_assert_mem_eq(priv->data, skb->data, 100);
	ck_assert(!skb_cloned(priv));
	ck_assert(!skb_cloned(skb));	/* the clone is gone */
	kfree_skb(priv);

	skb_get(skb);
	clone = skb_share_check(skb, GFP_ATOMIC);
	ck_assert_ptr_ne(clone, skb);
	ck_assert_int_eq(skb_users(skb), 1);
	ck_assert_int_eq(skb_users(clone), 1);
	ck_assert_ptr_eq(clone->head, skb->head);
	kfree_skb(clone);
	ck_assert_ptr_eq(skb_share_check(skb, GFP_ATOMIC), skb);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_unshare_failure_frees)
{
	struct sk_buff *skb = alloc_skb(300, GFP_KERNEL), *clone;

	skb_put(skb, 10);
	clone = skb_clone(skb, GFP_ATOMIC);
	uxdp_fault_set(UXDP_FAULT_SLAB, 1, 1);
	ck_assert_ptr_null(skb_unshare(clone, GFP_ATOMIC));	/* clone freed */
	uxdp_fault_clear();
	ck_assert(!skb_cloned(skb));
	kfree_skb(skb);
}
END_TEST

/* ---- copies ---- */

START_TEST(test_skb_copy_linearises)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL), *n;
	u8 flat[4000];
	unsigned int len;

	skb_reserve(skb, 50);
	fill(skb_put(skb, 60), 60, 1);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, 14);
	add_page_frag(skb, 0, 0, 1000, 2);
	add_page_frag(skb, 1, 100, 2000, 3);
	memcpy(skb->cb, "abc", 4);
	len = flatten(skb, flat);
	n = skb_copy(skb, GFP_ATOMIC);
	ck_assert_ptr_nonnull(n);
	ck_assert(!skb_is_nonlinear(n));
	ck_assert_uint_eq(n->len, len);
	ck_assert_uint_eq(skb_headroom(n), 50);
	ck_assert_mem_eq(n->data, flat, len);
	ck_assert_mem_eq(n->cb, "abc", 4);
	ck_assert_uint_eq(n->mac_header, skb->mac_header);
	ck_assert_uint_eq(n->network_header, skb->network_header);
	ck_assert_int_eq(skb_tailroom(n), (int)(skb_end_offset(n) - n->tail));
	kfree_skb(n);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_pskb_copy_shares_frags)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL), *n;
	struct page *page;

	skb_reserve(skb, 32);
	fill(skb_put(skb, 60), 60, 1);
	add_page_frag(skb, 0, 0, 1000, 2);
	page = skb_frag_page(&skb_shinfo(skb)->frags[0]);
	n = pskb_copy(skb, GFP_ATOMIC);
	ck_assert_ptr_ne(n->head, skb->head);
	ck_assert_uint_eq(skb_headroom(n), 32);
	ck_assert_uint_eq(n->len, skb->len);
	ck_assert_uint_eq(n->data_len, 1000);
	ck_assert_ptr_eq(skb_frag_page(&skb_shinfo(n)->frags[0]), page);
	ck_assert_int_eq(page_ref_count(page), 2);
	ck_assert_mem_eq(n->data, skb->data, 60);
	ck_assert(!skb_cloned(skb));
	kfree_skb(skb);
	ck_assert_int_eq(page_ref_count(page), 1);
	kfree_skb(n);
}
END_TEST

/* ---- reallocation ---- */

START_TEST(test_pskb_expand_head_exact)
{
	struct sk_buff *skb = alloc_skb(1000, GFP_KERNEL);
	unsigned int old_end = skb_end_offset(skb), old_ts = skb->truesize;
	unsigned char *old_head = skb->head;
	unsigned int new_end;
	u8 buf[100];

	skb_reserve(skb, 30);
	fill(skb_put(skb, 100), 100, 4);
	memcpy(buf, skb->data, 100);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, 14);
	skb_metadata_set(skb, 8);
	ck_assert_int_eq(pskb_expand_head(skb, 64, 10, GFP_ATOMIC), 0);
	ck_assert_ptr_ne(skb->head, old_head);
	/* headroom grows by exactly nhead */
	ck_assert_uint_eq(skb_headroom(skb), 30 + 64);
	/* size = 1728 + 74 -> SKB_HEAD_ALIGN = 1856 + 320 -> kmalloc 4096 */
	new_end = expected_end(old_end + 74);
	ck_assert_uint_eq(new_end, 4096 - 320);
	ck_assert_uint_eq(skb_end_offset(skb), new_end);
	ck_assert_int_eq(skb_tailroom(skb), (int)(new_end - (30 + 64 + 100)));
	ck_assert_uint_eq(skb->truesize, old_ts + new_end - old_end);
	ck_assert_mem_eq(skb->data, buf, 100);
	ck_assert_uint_eq(skb->mac_header, 30 + 64);
	ck_assert_uint_eq(skb->network_header, 30 + 64 + 14);
	ck_assert_uint_eq(skb_metadata_len(skb), 0);	/* 6.18 clears metadata */
	ck_assert_int_eq(skb_dataref(skb), 1);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_pskb_expand_head_cloned)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL), *clone;
	struct page *page;

	fill(skb_put(skb, 50), 50, 1);
	add_page_frag(skb, 0, 0, 500, 2);
	page = skb_frag_page(&skb_shinfo(skb)->frags[0]);
	clone = skb_clone(skb, GFP_ATOMIC);
	ck_assert_int_eq(pskb_expand_head(skb, 0, 0, GFP_ATOMIC), 0);
	ck_assert_ptr_ne(skb->head, clone->head);
	ck_assert(!skb->cloned);
	ck_assert(!skb_cloned(skb));
	ck_assert_int_eq(skb_dataref(clone), 1);
	/* frags are shared by page refcount now, not by dataref */
	ck_assert_ptr_eq(skb_frag_page(&skb_shinfo(skb)->frags[0]), page);
	ck_assert_int_eq(page_ref_count(page), 2);
	ck_assert_uint_eq(skb->data_len, 500);	/* not linearised */
	skb->data[0] = 0x99;
	ck_assert_uint_ne(clone->data[0], 0x99);
	kfree_skb(clone);
	ck_assert_int_eq(page_ref_count(page), 1);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_pskb_expand_head_failure_keeps_skb)
{
	struct sk_buff *skb = alloc_skb(200, GFP_KERNEL);
	unsigned char *head = skb->head;

	skb_put(skb, 20);
	uxdp_fault_set(UXDP_FAULT_SLAB, 1, 1);
	ck_assert_int_eq(pskb_expand_head(skb, 64, 0, GFP_ATOMIC), -ENOMEM);
	uxdp_fault_clear();
	ck_assert_ptr_eq(skb->head, head);
	ck_assert_uint_eq(skb->len, 20);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_skb_cow_alignment)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);
	unsigned char *head;

	skb_put(skb, 20);
	/* headroom 0, want 14: grows by ALIGN(14, NET_SKB_PAD) = 64 */
	ck_assert_int_eq(skb_cow(skb, 14), 0);
	ck_assert_uint_eq(skb_headroom(skb), 64);
	head = skb->head;
	/* enough headroom, not cloned: nothing happens */
	ck_assert_int_eq(skb_cow(skb, 64), 0);
	ck_assert_ptr_eq(skb->head, head);
	/* 65 wanted, 64 there: delta 1 -> +64 */
	ck_assert_int_eq(skb_cow_head(skb, 65), 0);
	ck_assert_uint_eq(skb_headroom(skb), 128);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_skb_cow_cloned_gives_private_data)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL), *clone;

	fill(skb_put(skb, 50), 50, 1);
	clone = skb_clone(skb, GFP_ATOMIC);
	ck_assert_int_eq(skb_cow(clone, 0), 0);	/* cloned -> expand by 0 */
	ck_assert_ptr_ne(clone->head, skb->head);
	ck_assert_uint_eq(skb_headroom(clone), 0);
	ck_assert_mem_eq(clone->data, skb->data, 50);
	clone->data[1] = 0x42;
	ck_assert_uint_ne(skb->data[1], 0x42);
	ck_assert(!skb_cloned(skb));
	kfree_skb(skb);
	kfree_skb(clone);

	skb = alloc_skb(100, GFP_KERNEL);
	skb_put(skb, 10);
	clone = skb_clone(skb, GFP_ATOMIC);
	ck_assert_int_eq(skb_unclone(clone, GFP_ATOMIC), 0);
	ck_assert_ptr_ne(clone->head, skb->head);
	ck_assert_int_eq(skb_linearize_cow(skb), 0);	/* no longer cloned: no-op */
	kfree_skb(skb);
	kfree_skb(clone);
}
END_TEST

START_TEST(test_pull_tail_slack)
{
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);
	unsigned int end = skb_end_offset(skb);	/* 704 - 320 = 384 */
	u8 flat[3000];

	fill(skb_put(skb, 300), 300, 1);
	add_page_frag(skb, 0, 0, 2000, 2);
	flatten(skb, flat);
	/* need 300 + 100 linear: eat = 400 - end, expanded by eat + 128 */
	ck_assert_int_gt(400 - (int)end, 0);
	ck_assert(pskb_may_pull(skb, 400));
	ck_assert_uint_eq(skb_end_offset(skb), expected_end(end + (400 - end) + 128));
	ck_assert_uint_eq(skb_headlen(skb), 400);
	ck_assert_uint_eq(skb->data_len, 1900);
	ck_assert_uint_eq(skb_frag_off(&skb_shinfo(skb)->frags[0]), 100);
	ck_assert_mem_eq(skb->data, flat, 400);
	/* enough already: no change; too much: false */
	ck_assert(pskb_may_pull(skb, 10));
	ck_assert(!pskb_may_pull(skb, 2301));
	ck_assert_uint_eq(skb->len, 2300);
	ck_assert_int_eq(skb_linearize(skb), 0);
	ck_assert(!skb_is_nonlinear(skb));
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 0);
	ck_assert_mem_eq(skb->data, flat, 2300);
	ck_assert_int_eq(nr_pages_in_use(), 0);	/* the consumed frag page was put */
	kfree_skb(skb);
}
END_TEST

START_TEST(test_linearize_failure_keeps_skb)
{
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);

	skb_put(skb, 10);
	add_page_frag(skb, 0, 0, 3000, 2);
	uxdp_fault_set(UXDP_FAULT_SLAB, 1, 1);
	ck_assert_int_eq(skb_linearize(skb), -ENOMEM);
	uxdp_fault_clear();
	ck_assert_uint_eq(skb->data_len, 3000);
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 1);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_frag_list_linearize_and_trim)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL), *l1, *l2;
	u8 flat[4000], flat2[4000];
	unsigned int len;

	fill(skb_put(skb, 50), 50, 1);
	add_page_frag(skb, 0, 0, 100, 2);
	l1 = alloc_skb(500, GFP_KERNEL);
	fill(skb_put(l1, 400), 400, 3);
	l2 = alloc_skb(500, GFP_KERNEL);
	fill(skb_put(l2, 300), 300, 4);
	add_page_frag(l2, 0, 8, 200, 5);
	l1->next = l2;
	skb_shinfo(skb)->frag_list = l1;
	skb->len += l1->len + l2->len;
	skb->data_len += l1->len + l2->len;
	len = flatten(skb, flat);
	ck_assert_uint_eq(len, 1050);

	/* a partial pull that ends inside l1 trims l1 */
	ck_assert(pskb_may_pull(skb, 50 + 100 + 150));
	flatten(skb, flat2);
	ck_assert_mem_eq(flat2, flat, len);
	ck_assert_ptr_eq(skb_shinfo(skb)->frag_list, l1);
	ck_assert_uint_eq(l1->len, 250);

	/* trim into l2's frag: l2 is trimmed, nothing after it */
	ck_assert_int_eq(pskb_trim(skb, 1000), 0);
	ck_assert_uint_eq(skb->len, 1000);
	flatten(skb, flat2);
	ck_assert_mem_eq(flat2, flat, 1000);

	ck_assert_int_eq(skb_linearize(skb), 0);
	ck_assert_ptr_null(skb_shinfo(skb)->frag_list);
	ck_assert_uint_eq(skb->len, 1000);
	ck_assert_mem_eq(skb->data, flat, 1000);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_pskb_trim_frags)
{
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL);

	skb_put(skb, 50);
	add_page_frag(skb, 0, 0, 100, 1);
	add_page_frag(skb, 1, 0, 100, 2);
	add_page_frag(skb, 2, 0, 100, 3);
	ck_assert_int_eq(pskb_trim(skb, 180), 0);
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 2);
	ck_assert_uint_eq(skb_frag_size(&skb_shinfo(skb)->frags[1]), 30);
	ck_assert_uint_eq(skb->data_len, 130);
	ck_assert_int_eq(nr_pages_in_use(), 2);
	ck_assert_int_eq(pskb_trim(skb, 20), 0);
	ck_assert(!skb_is_nonlinear(skb));
	ck_assert_uint_eq(skb->len, 20);
	ck_assert_int_eq(nr_pages_in_use(), 0);
	kfree_skb(skb);
}
END_TEST

START_TEST(test_ensure_writable_head_tail)
{
	struct net_device dev = { .name = "swp0", .needed_headroom = 8, .needed_tailroom = 4 };
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL), *clone;
	unsigned char *head;

	skb_reserve(skb, 16);
	skb_put(skb, 100);
	head = skb->head;
	/* enough room, not cloned: untouched */
	ck_assert_int_eq(skb_ensure_writable_head_tail(skb, &dev), 0);
	ck_assert_ptr_eq(skb->head, head);
	/* headroom short by 16-? -> expand by the exact missing amount */
	dev.needed_headroom = 20;
	ck_assert_int_eq(skb_ensure_writable_head_tail(skb, &dev), 0);
	ck_assert_uint_eq(skb_headroom(skb), 20);
	kfree_skb(skb);

	/* short frame + tail tagger: pad to ETH_ZLEN counts as tailroom need */
	skb = alloc_skb(0, GFP_KERNEL);
	skb_put(skb, skb_tailroom(skb) - 50);
	ck_assert_uint_ge(skb->len, ETH_ZLEN);
	kfree_skb(skb);
	skb = alloc_skb(0, GFP_KERNEL);
	skb_reserve(skb, skb_tailroom(skb) - 42);
	skb_put(skb, 40);			/* tailroom 2, len 40 */
	dev.needed_headroom = 0;
	ck_assert_int_eq(skb_ensure_writable_head_tail(skb, &dev), 0);
	ck_assert_int_ge(skb_tailroom(skb), 4 + (ETH_ZLEN - 40));
	kfree_skb(skb);

	/* cloned: expands even with 0/0 */
	skb = alloc_skb(100, GFP_KERNEL);
	skb_reserve(skb, 40);
	skb_put(skb, 80);
	clone = skb_clone(skb, GFP_ATOMIC);
	dev.needed_tailroom = 0;
	ck_assert_int_eq(skb_ensure_writable_head_tail(skb, &dev), 0);
	ck_assert_ptr_ne(skb->head, clone->head);
	ck_assert_uint_eq(skb_headroom(skb), 40);
	kfree_skb(clone);
	kfree_skb(skb);
}
END_TEST

/* ---- drop reasons ---- */

START_TEST(test_drop_reasons_counted)
{
	struct sk_buff *skb;

	skb_drop_reason_reset();
	ck_assert_str_eq(skb_drop_reason_name(SKB_DROP_REASON_NOT_SPECIFIED), "NOT_SPECIFIED");
	ck_assert_str_eq(skb_drop_reason_name(SKB_DROP_REASON_XDP), "XDP");
	ck_assert_str_eq(skb_drop_reason_name(SKB_DROP_REASON_OTHERHOST), "OTHERHOST");
	ck_assert_str_eq(skb_drop_reason_name(SKB_CONSUMED), "CONSUMED");
	ck_assert_ptr_null(skb_drop_reason_name(SKB_DROP_REASON_MAX));

	for (int i = 0; i < 3; i++)
		kfree_skb_reason(alloc_skb(10, GFP_KERNEL), SKB_DROP_REASON_IP_OUTNOROUTES);
	kfree_skb(alloc_skb(10, GFP_KERNEL));
	consume_skb(alloc_skb(10, GFP_KERNEL));
	skb = alloc_skb(10, GFP_KERNEL);
	skb_get(skb);
	kfree_skb_reason(skb, SKB_DROP_REASON_XDP);	/* not the last user: not counted */
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_XDP), 0);
	kfree_skb_reason(skb, SKB_DROP_REASON_XDP);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_XDP), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_IP_OUTNOROUTES), 3);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_NOT_SPECIFIED), 1);
	ck_assert_uint_eq(skb_drop_reason_count(SKB_CONSUMED), 1);
}
END_TEST

/* ---- queues ---- */

START_TEST(test_skb_queue)
{
	struct sk_buff_head q;
	struct sk_buff *skb, *tmp, *list = NULL, *next;
	int n = 0;

	__skb_queue_head_init(&q);
	ck_assert(skb_queue_empty(&q));
	ck_assert_ptr_null(skb_peek(&q));
	ck_assert_ptr_null(__skb_dequeue(&q));
	for (int i = 0; i < 5; i++) {
		skb = alloc_skb(10, GFP_KERNEL);
		skb->mark = i;
		if (i == 4)
			__skb_queue_head(&q, skb);
		else
			__skb_queue_tail(&q, skb);
	}
	ck_assert_uint_eq(skb_queue_len(&q), 5);
	ck_assert_uint_eq(skb_peek(&q)->mark, 4);
	skb_queue_walk_safe(&q, skb, tmp) {
		if (skb->mark == 2) {
			__skb_unlink(skb, &q);
			skb->next = list;
			list = skb;
		}
	}
	skb_queue_walk(&q, skb)
		n++;
	ck_assert_int_eq(n, 4);
	skb = __skb_dequeue(&q);
	ck_assert_uint_eq(skb->mark, 4);
	ck_assert_ptr_null(skb->next);
	skb->next = list;
	list = skb;
	skb_drop_reason_reset();
	__skb_queue_purge(&q);
	ck_assert(skb_queue_empty(&q));
	ck_assert_uint_eq(skb_drop_reason_count(SKB_DROP_REASON_QUEUE_PURGE), 3);
	n = 0;
	skb_list_walk_safe(list, skb, next) {
		skb_mark_not_on_list(skb);
		consume_skb(skb);
		n++;
	}
	ck_assert_int_eq(n, 2);
}
END_TEST

/* ---- bulk struct allocation ---- */

START_TEST(test_napi_skb_cache_get_bulk)
{
	void *skbs[64];
	u32 n;

	n = napi_skb_cache_get_bulk(skbs, 64);
	ck_assert_uint_eq(n, 64);
	for (u32 i = 0; i < n; i++) {
		struct sk_buff *skb = skbs[i];

		for (unsigned int b = 0; b < sizeof(skb->cb); b++)
			ck_assert_uint_eq((u8)skb->cb[b], 0);
		memset(skb, 0x77, offsetof(struct sk_buff, tail));
	}
	napi_skb_cache_put_bulk(skbs, n);
	/* a failed bulk refill still hands out single structs */
	uxdp_fault_fail_nth(UXDP_FAULT_SLAB, 1);
	n = napi_skb_cache_get_bulk(skbs, 16);
	ck_assert_uint_eq(n, 16);
	ck_assert_uint_eq(((struct sk_buff *)skbs[3])->len, 0);
	napi_skb_cache_put_bulk(skbs, n);
	/* under total failure: fewer than asked (here none), nothing leaks */
	uxdp_fault_set(UXDP_FAULT_SLAB, 1, 1);
	n = napi_skb_cache_get_bulk(skbs, 16);
	uxdp_fault_clear();
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* ---- skb_pp_cow_data (6.9+) ---- */

START_TEST(test_pp_cow_data)
{
	struct page_pool_params pp = { .order = 0, .pool_size = 64 };
	struct page_pool *pool = page_pool_create(&pp);
	struct sk_buff *skb = alloc_skb(100, GFP_KERNEL), *orig;
	static u8 flat[8000], flat2[8000];
	unsigned int len;

	fill(skb_put(skb, 90), 90, 1);
	skb_reset_mac_header(skb);
	add_page_frag(skb, 0, 0, 4000, 2);
	add_page_frag(skb, 1, 0, 1000, 3);
	len = flatten(skb, flat);
	orig = skb;
	ck_assert_int_eq(skb_pp_cow_data(pool, &skb, 256), 0);
	ck_assert_ptr_ne(skb, orig);
	ck_assert(skb->pp_recycle);
	ck_assert(skb->head_frag);
	ck_assert_uint_eq(skb_headroom(skb), 256);
	ck_assert_uint_eq(skb_headlen(skb), 3520);
	ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 1);
	ck_assert_uint_eq(skb->len, len);
	ck_assert_uint_eq(skb->mac_header, 256);
	ck_assert_uint_eq(flatten(skb, flat2), len);
	ck_assert_mem_eq(flat2, flat, len);
	kfree_skb(skb);
	ck_assert_uint_eq(page_pool_inflight(pool), page_pool_idle(pool));

	/* frag_list: -EOPNOTSUPP, skb untouched */
	skb = alloc_skb(100, GFP_KERNEL);
	skb_shinfo(skb)->frag_list = alloc_skb(10, GFP_KERNEL);
	orig = skb;
	ck_assert_int_eq(skb_pp_cow_data(pool, &skb, 256), -EOPNOTSUPP);
	ck_assert_ptr_eq(skb, orig);
	kfree_skb(skb);
	page_pool_destroy(pool);
}
END_TEST

/* ---- property tests ---- */

/* Build an skb with a random head, 0..17 random page frags and maybe a frag_list. */
static struct sk_buff *random_skb(bool with_list)
{
	unsigned int head = rnd() % 400, headroom = rnd() % 128;
	struct sk_buff *skb = alloc_skb(headroom + head, GFP_KERNEL);
	int nr = rnd() % (MAX_SKB_FRAGS + 1);

	skb_reserve(skb, headroom);
	fill(skb_put(skb, head), head, (u8)rnd());
	for (int i = 0; i < nr; i++) {
		unsigned int len = 1 + rnd() % (i % 4 == 3 ? PAGE_SIZE : 1500);
		unsigned int off = rnd() % (PAGE_SIZE - len + 1);

		add_page_frag(skb, i, off, len, (u8)rnd());
	}
	if (with_list && rnd() % 2) {
		struct sk_buff **tailp = &skb_shinfo(skb)->frag_list;
		int n = 1 + rnd() % 3;

		for (int k = 0; k < n; k++) {
			struct sk_buff *l = random_skb(false);

			skb->len += l->len;
			skb->data_len += l->len;
			*tailp = l;
			tailp = &l->next;
		}
	}
	return skb;
}

static u8 expect_buf[20 * 65536], got_buf[20 * 65536];

START_TEST(test_property_linearize_equals_flat_copy)
{
	rnd_state = 0xC0FFEE;
	for (int iter = 0; iter < 300; iter++) {
		struct sk_buff *skb = random_skb(true);
		unsigned int len = flatten(skb, expect_buf);
		unsigned int headroom = skb_headroom(skb);

		ck_assert_uint_eq(len, skb->len);
		if (rnd() % 3 == 0) {
			struct sk_buff *clone = skb_clone(skb, GFP_ATOMIC);

			ck_assert_int_eq(skb_linearize(clone), 0);
			ck_assert_mem_eq(clone->data, expect_buf, len);
			kfree_skb(clone);
		}
		ck_assert_int_eq(skb_linearize(skb), 0);
		ck_assert(!skb_is_nonlinear(skb));
		ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, 0);
		ck_assert_ptr_null(skb_shinfo(skb)->frag_list);
		ck_assert_uint_eq(skb->len, len);
		ck_assert_uint_eq(skb_headroom(skb), headroom);
		ck_assert_msg(!memcmp(skb->data, expect_buf, len), "iteration %d differs", iter);
		kfree_skb(skb);
		ck_assert_int_eq(nr_pages_in_use(), 0);
	}
}
END_TEST

START_TEST(test_property_expand_head_keeps_data_and_frags)
{
	rnd_state = 0xBEEF;
	for (int iter = 0; iter < 300; iter++) {
		struct sk_buff *skb = random_skb(true), *clone = NULL;
		struct page *pages[MAX_SKB_FRAGS];
		unsigned int len = flatten(skb, expect_buf);
		unsigned int headroom = skb_headroom(skb), tail_before, nr;
		int nhead = rnd() % 300, ntail = rnd() % 300;

		nr = skb_shinfo(skb)->nr_frags;
		for (unsigned int i = 0; i < nr; i++)
			pages[i] = skb_frag_page(&skb_shinfo(skb)->frags[i]);
		if (rnd() % 2)
			clone = skb_clone(skb, GFP_ATOMIC);
		tail_before = skb_headlen(skb);
		ck_assert_int_eq(pskb_expand_head(skb, nhead, ntail, GFP_ATOMIC), 0);
		ck_assert_uint_eq(skb_headroom(skb), headroom + nhead);
		ck_assert_uint_eq(skb_headlen(skb), tail_before);
		ck_assert_uint_ge(skb_end_offset(skb) - skb->tail, (unsigned int)ntail);
		ck_assert_uint_eq(skb_shinfo(skb)->nr_frags, nr);
		for (unsigned int i = 0; i < nr; i++)
			ck_assert_ptr_eq(skb_frag_page(&skb_shinfo(skb)->frags[i]), pages[i]);
		ck_assert_uint_eq(skb->len, len);
		ck_assert_int_eq(skb_copy_bits(skb, 0, got_buf, len), 0);
		ck_assert_msg(!memcmp(got_buf, expect_buf, len), "iteration %d differs", iter);
		if (clone) {
			ck_assert(!skb_cloned(clone));
			ck_assert_int_eq(skb_copy_bits(clone, 0, got_buf, len), 0);
			ck_assert(!memcmp(got_buf, expect_buf, len));
			kfree_skb(clone);
		}
		kfree_skb(skb);
		ck_assert_int_eq(nr_pages_in_use(), 0);
	}
}
END_TEST

START_TEST(test_property_clones_share_until_written)
{
	rnd_state = 0xFACE;
	for (int iter = 0; iter < 200; iter++) {
		unsigned int len = 1 + rnd() % 1000;
		struct sk_buff *skb = alloc_skb(len + 64, GFP_KERNEL), *clone;
		unsigned int pos = rnd() % len;

		skb_reserve(skb, 64);
		fill(skb_put(skb, len), len, (u8)iter);
		memcpy(expect_buf, skb->data, len);
		clone = skb_clone(skb, GFP_ATOMIC);
		ck_assert_ptr_eq(clone->data, skb->data);
		/* the writer makes its data private first, as the stack does */
		if (iter % 2) {
			ck_assert_int_eq(skb_cow(clone, rnd() % 128), 0);
		} else {
			ck_assert_int_eq(skb_ensure_writable(clone, pos + 1), 0);
		}
		ck_assert_ptr_ne(clone->head, skb->head);
		clone->data[pos] ^= 0xff;
		ck_assert_mem_eq(skb->data, expect_buf, len);
		ck_assert_uint_eq(clone->data[pos], (u8)(expect_buf[pos] ^ 0xff));
		ck_assert(!skb_cloned(skb));
		kfree_skb(skb);
		kfree_skb(clone);
	}
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/skbuff");
	TCase *tc = tcase_create("core");
	TCase *bug = tcase_create("bug");
	TCase *prop = tcase_create("property");

	tcase_add_checked_fixture(tc, NULL, leak_teardown);
	tcase_add_test(tc, test_shinfo_layout);
	tcase_add_test(tc, test_alloc_skb_geometry);
	tcase_add_test(tc, test_alloc_zeroes_cb);
	tcase_add_test(tc, test_netdev_alloc_skb);
	tcase_add_test(tc, test_build_skb_on_page);
	tcase_add_test(tc, test_build_skb_around_kmalloc_head);
	tcase_add_test(tc, test_reserve_put_push_pull);
	tcase_add_test(tc, test_put_zero_data_trim);
	tcase_add_test(tc, test_tailroom_zero_when_nonlinear);
	tcase_add_test(tc, test_add_rx_frag_truesize);
	tcase_add_test(tc, test_header_offsets);
	tcase_add_test(tc, test_header_pointer_and_copy_bits);
	tcase_add_test(tc, test_shared_vs_cloned);
	tcase_add_test(tc, test_clone_shares_data);
	tcase_add_test(tc, test_header_cloned_nohdr);
	tcase_add_test(tc, test_unshare_and_share_check);
	tcase_add_test(tc, test_unshare_failure_frees);
	tcase_add_test(tc, test_skb_copy_linearises);
	tcase_add_test(tc, test_pskb_copy_shares_frags);
	tcase_add_test(tc, test_pskb_expand_head_exact);
	tcase_add_test(tc, test_pskb_expand_head_cloned);
	tcase_add_test(tc, test_pskb_expand_head_failure_keeps_skb);
	tcase_add_test(tc, test_skb_cow_alignment);
	tcase_add_test(tc, test_skb_cow_cloned_gives_private_data);
	tcase_add_test(tc, test_pull_tail_slack);
	tcase_add_test(tc, test_linearize_failure_keeps_skb);
	tcase_add_test(tc, test_frag_list_linearize_and_trim);
	tcase_add_test(tc, test_pskb_trim_frags);
	tcase_add_test(tc, test_ensure_writable_head_tail);
	tcase_add_test(tc, test_drop_reasons_counted);
	tcase_add_test(tc, test_skb_queue);
	tcase_add_test(tc, test_napi_skb_cache_get_bulk);
	tcase_add_test(tc, test_pp_cow_data);
	suite_add_tcase(s, tc);

	tcase_add_test_raise_signal(bug, test_push_under_head_bugs, SIGABRT);
	tcase_add_test_raise_signal(bug, test_put_past_end_bugs, SIGABRT);
#ifndef NDEBUG
	tcase_add_test_raise_signal(bug, test_put_nonlinear_bugs, SIGABRT);
	tcase_add_test_raise_signal(bug, test___skb_pull_below_data_len_bugs, SIGABRT);
	tcase_add_test_raise_signal(bug, test_expand_head_shared_bugs, SIGABRT);
	tcase_add_test_raise_signal(bug, test_expand_head_negative_bugs, SIGABRT);
#endif
	suite_add_tcase(s, bug);

	tcase_add_checked_fixture(prop, NULL, leak_teardown);
	tcase_set_timeout(prop, 60);
	tcase_add_test(prop, test_property_linearize_equals_flat_copy);
	tcase_add_test(prop, test_property_expand_head_keeps_data_and_frags);
	tcase_add_test(prop, test_property_clones_share_until_written);
	suite_add_tcase(s, prop);
	return s;
}
