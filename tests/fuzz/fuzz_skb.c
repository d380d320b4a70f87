// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: sk_buff operations. The input is a program of operations
 * (put, push, pull, may_pull, trim, clone, free, expand, linearize,
 * add_rx_frag, write, copy, header_pointer, cow_head) on up to two skbs
 * sharing data through skb_clone(). Each operation is called only within
 * its kernel contract (e.g. skb_put() on a linear skb with tailroom,
 * writes after skb_ensure_writable()); after every step the harness checks
 * the skb invariants (len = headlen + data_len, data_len = sum of frag
 * sizes, head <= data <= tail <= end) and compares every skb's bytes with
 * a shadow copy, so an operation that loses, duplicates or shares bytes it
 * should not is found even when it stays in bounds. Allocation failures
 * (UXDP_FAULT) must leave the skb and its bytes unchanged. No skb or page
 * may be alive after an input.
 *
 * Kernel: net/core/skbuff.c, include/linux/skbuff.h
 */
#include <errno.h>
#include <string.h>

#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <uxdp/uxdp.h>

#include "fuzz.h"

#define SKB_FUZZ_MAX_LEN	60000
#define SKB_FUZZ_MAX_OPS	64

struct slot {
	struct sk_buff *skb;
	u8 *shadow;		/* the bytes skb must hold */
	u32 len;
};

static struct slot slots[2];
static u8 scratch[SKB_FUZZ_MAX_LEN + 4096];
static u8 pattern_seq;

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uxdp_set_print(fuzz_quiet);
	slots[0].shadow = malloc(SKB_FUZZ_MAX_LEN + 4096);
	slots[1].shadow = malloc(SKB_FUZZ_MAX_LEN + 4096);
	if (!slots[0].shadow || !slots[1].shadow)
		fuzz_bug("no memory for the shadows");
	return 0;
}

static void fill(u8 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		p[i] = pattern_seq + i * 7;
	pattern_seq += 13;
}

static void check_slot(const struct slot *s, int op)
{
	const struct sk_buff *skb = s->skb;
	const struct skb_shared_info *sh;
	u32 frags = 0;
	int i;

	if (!skb)
		return;
	sh = skb_shinfo(skb);
	fuzz_assert(skb->len == s->len, "op %d: len %u, shadow %u", op, skb->len, s->len);
	fuzz_assert(skb->len >= skb->data_len, "op %d: len %u < data_len %u", op, skb->len,
		    skb->data_len);
	fuzz_assert(skb->data >= skb->head, "op %d: data before head", op);
	fuzz_assert(skb_tail_pointer(skb) <= skb_end_pointer(skb), "op %d: tail past end", op);
	fuzz_assert(skb->data + skb_headlen(skb) == skb_tail_pointer(skb),
		    "op %d: data + headlen != tail", op);
	fuzz_assert(sh->nr_frags <= MAX_SKB_FRAGS, "op %d: %u frags", op, sh->nr_frags);
	fuzz_assert(!sh->frag_list, "op %d: a frag_list appeared", op);
	for (i = 0; i < sh->nr_frags; i++) {
		fuzz_assert(skb_frag_size(&sh->frags[i]) > 0, "op %d: empty frag %d", op, i);
		frags += skb_frag_size(&sh->frags[i]);
	}
	fuzz_assert(frags == skb->data_len, "op %d: frags %u, data_len %u", op, frags,
		    skb->data_len);
	fuzz_assert(skb_copy_bits(skb, 0, scratch, skb->len) == 0, "op %d: copy_bits", op);
	fuzz_assert(!memcmp(scratch, s->shadow, s->len), "op %d: bytes differ from the shadow",
		    op);
}

/* Make @s's skb safe to write (the caller's duty in the kernel). */
static bool make_private(struct slot *s)
{
	return !skb_cloned(s->skb) || !skb_unclone(s->skb, GFP_ATOMIC);
}

static void op_put(struct slot *s, u32 n)
{
	if (skb_is_nonlinear(s->skb) || s->len + n > SKB_FUZZ_MAX_LEN || !make_private(s))
		return;
	if (skb_tailroom(s->skb) < (int)n)
		return;
	fill(s->shadow + s->len, n);
	memcpy(skb_put(s->skb, n), s->shadow + s->len, n);
	s->len += n;
}

static void op_push(struct slot *s, u32 n)
{
	if (s->len + n > SKB_FUZZ_MAX_LEN || !make_private(s) || skb_headroom(s->skb) < n)
		return;
	memmove(s->shadow + n, s->shadow, s->len);
	fill(s->shadow, n);
	memcpy(skb_push(s->skb, n), s->shadow, n);
	s->len += n;
}

static void op_pull(struct slot *s, u32 n)
{
	if (n > s->len)
		n = s->len;
	if (!pskb_pull(s->skb, n))
		return;
	memmove(s->shadow, s->shadow + n, s->len - n);
	s->len -= n;
}

static void op_may_pull(struct slot *s, u32 n)
{
	if (n > s->len)
		return;
	if (pskb_may_pull(s->skb, n))
		fuzz_assert(skb_headlen(s->skb) >= n, "may_pull %u: headlen %u", n,
			    skb_headlen(s->skb));
}

static void op_trim(struct slot *s, u32 n)
{
	if (n >= s->len)
		return;
	if (!pskb_trim(s->skb, n))
		s->len = n;
}

static void op_expand(struct slot *s, u32 nhead, u32 ntail)
{
	u32 headroom = skb_headroom(s->skb), tailroom = skb_tailroom(s->skb);

	if (pskb_expand_head(s->skb, nhead, ntail, GFP_ATOMIC))
		return;
	fuzz_assert(skb_headroom(s->skb) >= headroom + nhead, "expand: headroom");
	fuzz_assert(skb_tailroom(s->skb) >= (int)(tailroom + ntail) ||
		    skb_is_nonlinear(s->skb), "expand: tailroom");
	fuzz_assert(!skb_cloned(s->skb), "expand: still cloned");
}

static void op_add_frag(struct slot *s, u32 off, u32 size)
{
	struct page *page;
	int i = skb_shinfo(s->skb)->nr_frags;

	if (i >= MAX_SKB_FRAGS || !size || s->len + size > SKB_FUZZ_MAX_LEN || !make_private(s))
		return;
	off %= PAGE_SIZE;
	if (off + size > PAGE_SIZE)
		size = PAGE_SIZE - off;
	if (!size)
		return;
	page = alloc_page(GFP_ATOMIC);
	if (!page)
		return;
	fill(s->shadow + s->len, size);
	memcpy((u8 *)page_address(page) + off, s->shadow + s->len, size);
	skb_add_rx_frag(s->skb, i, page, off, size, PAGE_SIZE);
	s->len += size;
}

static void op_write(struct slot *s, u32 off, u32 n)
{
	if (!s->len)
		return;
	off %= s->len;
	if (off + n > s->len)
		n = s->len - off;
	if (skb_ensure_writable(s->skb, off + n))
		return;
	fill(s->shadow + off, n);
	memcpy(s->skb->data + off, s->shadow + off, n);
}

static void op_copy(struct slot *s, bool full)
{
	struct sk_buff *c = full ? skb_copy(s->skb, GFP_ATOMIC) : pskb_copy(s->skb, GFP_ATOMIC);
	struct slot tmp = { .skb = c, .shadow = s->shadow, .len = s->len };

	if (!c)
		return;
	check_slot(&tmp, 100 + full);
	if (full)
		fuzz_assert(!skb_is_nonlinear(c), "skb_copy made a nonlinear skb");
	kfree_skb(c);
}

static void op_header_pointer(struct slot *s, u32 off, u32 n)
{
	u8 buf[256];
	const u8 *p;

	n %= sizeof(buf);
	p = skb_header_pointer(s->skb, off, n, buf);
	if (off + n > s->len) {
		fuzz_assert(!p, "header_pointer past the end");
		return;
	}
	fuzz_assert(p && !memcmp(p, s->shadow + off, n), "header_pointer %u+%u", off, n);
}

static void op_cow_head(struct slot *s, u32 n)
{
	if (!skb_cow_head(s->skb, n))
		fuzz_assert(skb_headroom(s->skb) >= n && !skb_header_cloned(s->skb),
			    "cow_head %u", n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	u32 headroom, first, nops = 0;
	unsigned int i;

	pattern_seq = 1;
	headroom = fuzz_u8(&in);
	first = fuzz_u16(&in) % 4096;
	slots[0].skb = alloc_skb(headroom + first, GFP_ATOMIC);
	if (!slots[0].skb)
		return 0;
	skb_reserve(slots[0].skb, headroom);
	slots[0].len = 0;
	op_put(&slots[0], first);

	while (in.left && nops++ < SKB_FUZZ_MAX_OPS) {
		u8 op = fuzz_u8(&in);
		struct slot *s = &slots[op >> 7 && slots[1].skb];
		u32 a = fuzz_u16(&in), b = fuzz_u16(&in);

		switch (op & 0xf) {
		case 0:
			op_put(s, a % 2048);
			break;
		case 1:
			op_push(s, a % 256);
			break;
		case 2:
			op_pull(s, a % 4096);
			break;
		case 3:
			op_may_pull(s, a % 8192);
			break;
		case 4:
			op_trim(s, a);
			break;
		case 5:
			if (!slots[1].skb) {
				slots[1].skb = skb_clone(slots[0].skb, GFP_ATOMIC);
				slots[1].len = slots[0].len;
				memcpy(slots[1].shadow, slots[0].shadow, slots[0].len);
			}
			break;
		case 6:
			if (slots[1].skb) {
				/* free either; the other becomes slot 0 */
				if (op & 0x10) {
					struct slot t = slots[0];

					slots[0] = slots[1];
					slots[1] = t;
				}
				kfree_skb(slots[1].skb);
				slots[1].skb = NULL;
			}
			break;
		case 7:
			op_expand(s, a % 512, b % 4096);
			break;
		case 8:
			skb_linearize(s->skb);
			break;
		case 9:
			op_add_frag(s, a, b % 4097);
			break;
		case 10:
			op_write(s, a, b % 512);
			break;
		case 11:
			op_copy(s, op & 0x10);
			break;
		case 12:
			op_header_pointer(s, a % 8192, b);
			break;
		case 13:
			op_cow_head(s, a % 1024);
			break;
		default:
			break;
		}
		for (i = 0; i < ARRAY_SIZE(slots); i++)
			check_slot(&slots[i], op & 0xf);
	}
	for (i = 0; i < ARRAY_SIZE(slots); i++) {
		kfree_skb(slots[i].skb);
		slots[i].skb = NULL;
	}
	fuzz_assert(skb_live_count() == 0, "%ld skbs alive", skb_live_count());
	return 0;
}
