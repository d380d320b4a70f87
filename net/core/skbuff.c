// SPDX-License-Identifier: GPL-2.0
/*
 * sk_buff allocation, freeing, cloning, copying and reallocation, with the
 * kernel's semantics (geometry and rules in <linux/skbuff.h>).
 *
 * Memory: struct sk_buff comes from skbuff_cache (per-CPU magazines, so the
 * kernel's NAPI skb cache is the magazine); heads come from kmalloc buckets
 * (a 704-byte small-head cache as on x86-64 6.18, then 1K..8K, then page
 * blocks), or are page frags / page_pool pages for build_skb() heads
 * (head_frag). Shared info lives at head + end. Data is refcounted by
 * shinfo->dataref (low 16 bits: all refs, high 16: payload-only refs),
 * the struct by skb->users.
 *
 * Roadmap: __alloc_skb()/build_skb() -> skb_put/push/pull (inline) ->
 * skb_clone()/skb_copy()/__pskb_copy() -> pskb_expand_head() (behind
 * skb_cow*, skb_unclone, __pskb_pull_tail -> skb_linearize) ->
 * kfree_skb_reason()/consume_skb() -> skb_release_data().
 *
 * Kernel: net/core/skbuff.c
 * Differs: netdev_alloc_skb()/napi_alloc_skb() always use kmalloc heads
 *	    (no per-CPU page_frag cache, so head_frag is 0 for them); no
 *	    sockets, so truesize always follows pskb_expand_head();
 *	    skb_scrub_packet() has no dst, conntrack, extensions or IPVS
 *	    state to drop.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/if_ether.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <net/page_pool/helpers.h>

/*
 * SKB_HEAD_ALIGN(max(MAX_TCP_HEADER, GRO_MAX_HEAD_PAD)) of 6.18 on an
 * x86-64 distro config: MAX_HEADER 176, so MAX_TCP_HEADER 320 and
 * GRO_MAX_HEAD_PAD 304 + 64 = 368 -> 384 + 320 = 704 (not a power of two,
 * so no padding). Kernels before GRO_MAX_HEAD_PAD had 640. (verify per config)
 */
#define SKB_SMALL_HEAD_CACHE_SIZE	704

struct kmem_cache *skbuff_cache;
static struct kmem_cache *skb_small_head_cache;

__attribute__((constructor(102))) static void skb_init(void)
{
	skbuff_cache = kmem_cache_create("skbuff_head_cache", sizeof(struct sk_buff),
					 0, SLAB_HWCACHE_ALIGN, NULL);
	skb_small_head_cache = kmem_cache_create("skbuff_small_head",
						 SKB_SMALL_HEAD_CACHE_SIZE, 0,
						 SLAB_HWCACHE_ALIGN, NULL);
	BUG_ON(!skbuff_cache || !skb_small_head_cache);
}

long skb_live_count(void)
{
	return kmem_cache_live_objects(skbuff_cache);
}

static __attribute__((noreturn)) void skb_panic(struct sk_buff *skb, unsigned int sz, void *addr,
						 const char *msg)
{
	static char buf[256];

	snprintf(buf, sizeof(buf),
		 "%s: text:%p len:%u put:%u head:%p data:%p tail:%#x end:%#x dev:%s",
		 msg, addr, skb->len, sz, (void *)skb->head, (void *)skb->data,
		 skb->tail, skb->end, skb->dev ? skb->dev->name : "<NULL>");
	__noreturn_bug(buf, __FILE__, __LINE__, msg);
}

void skb_over_panic(struct sk_buff *skb, unsigned int sz, void *addr)
{
	skb_panic(skb, sz, addr, "skb_over_panic");
}

void skb_under_panic(struct sk_buff *skb, unsigned int sz, void *addr)
{
	skb_panic(skb, sz, addr, "skb_under_panic");
}

/* kmalloc a head for @*size bytes of data; *size becomes the whole object. */
static void *kmalloc_reserve(unsigned int *size, gfp_t flags)
{
	size_t obj_size = SKB_HEAD_ALIGN(*size);

	if (obj_size <= SKB_SMALL_HEAD_CACHE_SIZE) {
		*size = SKB_SMALL_HEAD_CACHE_SIZE;
		return kmem_cache_alloc(skb_small_head_cache, flags & ~__GFP_ZERO);
	}
	obj_size = kmalloc_size_roundup(obj_size);
	*size = (unsigned int)obj_size;
	return kmalloc(obj_size, flags & ~__GFP_ZERO);
}

static void __finalize_skb_around(struct sk_buff *skb, void *data, unsigned int size)
{
	struct skb_shared_info *shinfo;

	size -= SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	/* The caller zeroed the struct up to ->tail. */
	skb->truesize = SKB_TRUESIZE(size);
	skb->users = 1;
	skb->head = data;
	skb->data = data;
	skb_reset_tail_pointer(skb);
	skb_set_end_offset(skb, size);
	skb->mac_header = (u16)~0U;
	skb->transport_header = (u16)~0U;
	skb->alloc_cpu = smp_processor_id();
	shinfo = skb_shinfo(skb);
	memset(shinfo, 0, offsetof(struct skb_shared_info, dataref));
	shinfo->dataref = 1;
}

void __build_skb_around(struct sk_buff *skb, void *data, unsigned int frag_size)
{
	unsigned int size = frag_size;

	/* frag_size == 0 means "kmalloc()ed head" (deprecated in the kernel). */
	if (!size)
		size = ksize(data);
	__finalize_skb_around(skb, data, size);
}

struct sk_buff *__alloc_skb(unsigned int size, gfp_t gfp_mask, int flags, int node)
{
	struct sk_buff *skb;
	u8 *data;

	(void)flags;
	(void)node;
	skb = kmem_cache_alloc(skbuff_cache, gfp_mask & ~__GFP_ZERO);
	if (unlikely(!skb))
		return NULL;
	data = kmalloc_reserve(&size, gfp_mask);
	if (unlikely(!data))
		goto err_free_skb;
	/* Rounding slack goes to tailroom: shinfo sits at the real end. */
	skb_clear_to_tail(skb);
	__finalize_skb_around(skb, data, size);
	return skb;

err_free_skb:
	kmem_cache_free(skbuff_cache, skb);
	return NULL;
}

struct sk_buff *__netdev_alloc_skb(struct net_device *dev, unsigned int len, gfp_t gfp)
{
	struct sk_buff *skb;

	skb = __alloc_skb(len + NET_SKB_PAD, gfp, 0, -1);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, NET_SKB_PAD);
	skb->dev = dev;
	return skb;
}

struct sk_buff *napi_alloc_skb(struct napi_struct *napi, unsigned int len)
{
	struct sk_buff *skb;

	(void)napi;
	skb = __alloc_skb(len + NET_SKB_PAD + NET_IP_ALIGN, GFP_ATOMIC, 0, -1);
	if (unlikely(!skb))
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + NET_IP_ALIGN);
	return skb;
}

struct sk_buff *build_skb_around(struct sk_buff *skb, void *data, unsigned int frag_size)
{
	if (unlikely(!skb))
		return NULL;
	__build_skb_around(skb, data, frag_size);
	if (frag_size)
		skb->head_frag = 1;
	return skb;
}

struct sk_buff *build_skb(void *data, unsigned int frag_size)
{
	struct sk_buff *skb = kmem_cache_alloc(skbuff_cache, GFP_ATOMIC);

	if (unlikely(!skb))
		return NULL;
	skb_clear_to_tail(skb);
	return build_skb_around(skb, data, frag_size);
}

struct sk_buff *napi_build_skb(void *data, unsigned int frag_size)
{
	return build_skb(data, frag_size);
}

u32 napi_skb_cache_get_bulk(void **skbs, u32 n)
{
	u32 got = 0;

	if (kmem_cache_alloc_bulk(skbuff_cache, GFP_ATOMIC | __GFP_NOWARN, n, skbs)) {
		got = n;
	} else {
		/* Under pressure hand out what we can, as the kernel does. */
		while (got < n) {
			skbs[got] = kmem_cache_alloc(skbuff_cache, GFP_ATOMIC | __GFP_NOWARN);
			if (!skbs[got])
				break;
			got++;
		}
	}
	for (u32 i = 0; i < got; i++)
		skb_clear_to_tail(skbs[i]);
	return got;
}

void napi_skb_cache_put_bulk(void **skbs, u32 n)
{
	kmem_cache_free_bulk(skbuff_cache, n, skbs);
}

/* ---- freeing ---- */

static inline void skb_free_head(struct sk_buff *skb)
{
	unsigned char *head = skb->head;

	if (skb->head_frag) {
		/* skb_pp_recycle(): a pool page goes back to its pool */
		if (skb->pp_recycle && napi_pp_put_page(virt_to_head_page(head)))
			return;
		put_page(virt_to_head_page(head));
	} else {
		kfree(head);
	}
}

static void skb_release_data(struct sk_buff *skb, enum skb_drop_reason reason)
{
	struct skb_shared_info *shinfo = skb_shinfo(skb);

	if (skb->cloned &&
	    __atomic_sub_fetch(&shinfo->dataref,
			       skb->nohdr ? (1 << SKB_DATAREF_SHIFT) + 1 : 1,
			       __ATOMIC_ACQ_REL))
		goto exit;
	for (int i = 0; i < shinfo->nr_frags; i++)
		__skb_frag_unref(&shinfo->frags[i], skb->pp_recycle);
	if (shinfo->frag_list)
		kfree_skb_list_reason(shinfo->frag_list, reason);
	skb_free_head(skb);
exit:
	skb->pp_recycle = 0;
}

static void skb_release_all(struct sk_buff *skb, enum skb_drop_reason reason)
{
	if (likely(skb->head))
		skb_release_data(skb, reason);
}

static void __kfree_skb_reason(struct sk_buff *skb, enum skb_drop_reason reason)
{
	skb_release_all(skb, reason);
	kmem_cache_free(skbuff_cache, skb);
}

void __kfree_skb(struct sk_buff *skb)
{
	__kfree_skb_reason(skb, SKB_DROP_REASON_NOT_SPECIFIED);
}

void kfree_skb_reason(struct sk_buff *skb, enum skb_drop_reason reason)
{
	if (!skb_unref(skb))
		return;
	__skb_drop_reason_count(reason);
	__kfree_skb_reason(skb, reason);
}

void consume_skb(struct sk_buff *skb)
{
	if (!skb_unref(skb))
		return;
	__skb_drop_reason_count(SKB_CONSUMED);
	__kfree_skb_reason(skb, SKB_CONSUMED);
}

void kfree_skb_list_reason(struct sk_buff *segs, enum skb_drop_reason reason)
{
	while (segs) {
		struct sk_buff *next = segs->next;

		kfree_skb_reason(segs, reason);
		segs = next;
	}
}

/* ---- frags ---- */

void skb_add_rx_frag(struct sk_buff *skb, int i, struct page *page, int off,
		     int size, unsigned int truesize)
{
	BUG_ON(i >= MAX_SKB_FRAGS);
	skb_fill_page_desc(skb, i, page, off, size);
	skb->len += size;
	skb->data_len += size;
	skb->truesize += truesize;
}

void skb_coalesce_rx_frag(struct sk_buff *skb, int i, int size, unsigned int truesize)
{
	skb_frag_size_add(&skb_shinfo(skb)->frags[i], size);
	skb->len += size;
	skb->data_len += size;
	skb->truesize += truesize;
}

static void skb_clone_fraglist(struct sk_buff *skb)
{
	for (struct sk_buff *list = skb_shinfo(skb)->frag_list; list; list = list->next)
		skb_get(list);
}

static void skb_drop_list(struct sk_buff **listp)
{
	kfree_skb_list(*listp);
	*listp = NULL;
}

static void skb_drop_fraglist(struct sk_buff *skb)
{
	skb_drop_list(&skb_shinfo(skb)->frag_list);
}

/* ---- copies ---- */

int skb_copy_bits(const struct sk_buff *skb, int offset, void *to, int len)
{
	int start = skb_headlen(skb);
	struct sk_buff *frag_iter;
	int i, copy;

	if (offset > (int)skb->len - len)
		return -EFAULT;
	/* Linear part; a negative offset reaches into the headroom. */
	copy = start - offset;
	if (copy > 0) {
		if (copy > len)
			copy = len;
		memcpy(to, skb->data + offset, copy);
		len -= copy;
		if (len == 0)
			return 0;
		offset += copy;
		to = (char *)to + copy;
	}
	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		const skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		int end = start + skb_frag_size(f);

		copy = end - offset;
		if (copy > 0) {
			if (copy > len)
				copy = len;
			memcpy(to, (char *)skb_frag_address(f) + offset - start, copy);
			len -= copy;
			if (len == 0)
				return 0;
			offset += copy;
			to = (char *)to + copy;
		}
		start = end;
	}
	for (frag_iter = skb_shinfo(skb)->frag_list; frag_iter; frag_iter = frag_iter->next) {
		int end = start + frag_iter->len;

		copy = end - offset;
		if (copy > 0) {
			if (copy > len)
				copy = len;
			if (skb_copy_bits(frag_iter, offset - start, to, copy))
				return -EFAULT;
			len -= copy;
			if (len == 0)
				return 0;
			offset += copy;
			to = (char *)to + copy;
		}
		start = end;
	}
	return len ? -EFAULT : 0;
}

int skb_store_bits(struct sk_buff *skb, int offset, const void *from, int len)
{
	int start = skb_headlen(skb);
	struct sk_buff *frag_iter;
	int i, copy;

	if (offset > (int)skb->len - len)
		return -EFAULT;
	copy = start - offset;
	if (copy > 0) {
		if (copy > len)
			copy = len;
		memcpy(skb->data + offset, from, copy);
		len -= copy;
		if (len == 0)
			return 0;
		offset += copy;
		from = (const char *)from + copy;
	}
	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		skb_frag_t *f = &skb_shinfo(skb)->frags[i];
		int end = start + skb_frag_size(f);

		copy = end - offset;
		if (copy > 0) {
			if (copy > len)
				copy = len;
			memcpy((char *)skb_frag_address(f) + offset - start, from, copy);
			len -= copy;
			if (len == 0)
				return 0;
			offset += copy;
			from = (const char *)from + copy;
		}
		start = end;
	}
	for (frag_iter = skb_shinfo(skb)->frag_list; frag_iter; frag_iter = frag_iter->next) {
		int end = start + frag_iter->len;

		copy = end - offset;
		if (copy > 0) {
			if (copy > len)
				copy = len;
			if (skb_store_bits(frag_iter, offset - start, from, copy))
				return -EFAULT;
			len -= copy;
			if (len == 0)
				return 0;
			offset += copy;
			from = (const char *)from + copy;
		}
		start = end;
	}
	return len ? -EFAULT : 0;
}

void *skb_header_pointer(const struct sk_buff *skb, int offset, int len, void *buffer)
{
	if (likely(offset >= 0 && (int)skb_headlen(skb) - offset >= len))
		return skb->data + offset;
	if (skb_copy_bits(skb, offset, buffer, len) < 0)
		return NULL;
	return buffer;
}

static void __copy_skb_header(struct sk_buff *new, const struct sk_buff *old)
{
	new->tstamp = old->tstamp;
	new->dev = old->dev;
	memcpy(new->cb, old->cb, sizeof(old->cb));
	new->queue_mapping = old->queue_mapping;
	new->pkt_type = old->pkt_type;
	new->ip_summed = old->ip_summed;
	new->ignore_df = old->ignore_df;
	new->encapsulation = old->encapsulation;
	memcpy(&new->headers, &old->headers, sizeof(new->headers));
}

void skb_copy_header(struct sk_buff *new, const struct sk_buff *old)
{
	__copy_skb_header(new, old);
	skb_shinfo(new)->gso_size = skb_shinfo(old)->gso_size;
	skb_shinfo(new)->gso_segs = skb_shinfo(old)->gso_segs;
	skb_shinfo(new)->gso_type = skb_shinfo(old)->gso_type;
}

struct sk_buff *skb_clone(struct sk_buff *skb, gfp_t gfp_mask)
{
	struct sk_buff *n = kmem_cache_alloc(skbuff_cache, gfp_mask & ~__GFP_ZERO);

	if (!n)
		return NULL;
	memcpy(n, skb, sizeof(*n));
	n->next = n->prev = NULL;
	n->hdr_len = skb->nohdr ? skb_headroom(skb) : skb->hdr_len;
	n->cloned = 1;
	n->nohdr = 0;
	n->peeked = 0;
	n->fclone = 0;
	n->users = 1;
	__atomic_fetch_add(&skb_shinfo(skb)->dataref, 1, __ATOMIC_RELAXED);
	skb->cloned = 1;
	return n;
}

struct sk_buff *skb_copy(const struct sk_buff *skb, gfp_t gfp_mask)
{
	int headerlen = skb_headroom(skb);
	unsigned int size = skb_end_offset(skb) + skb->data_len;
	struct sk_buff *n = __alloc_skb(size, gfp_mask, 0, -1);
	int err;

	if (!n)
		return NULL;
	skb_reserve(n, headerlen);
	skb_put(n, skb->len);
	/* BUG_ON() may compile out: never put the call inside it. */
	err = skb_copy_bits(skb, -headerlen, n->head, headerlen + skb->len);
	BUG_ON(err);
	skb_copy_header(n, skb);
	return n;
}

struct sk_buff *__pskb_copy(struct sk_buff *skb, int headroom, gfp_t gfp_mask)
{
	unsigned int size = skb_headlen(skb) + headroom;
	struct sk_buff *n = __alloc_skb(size, gfp_mask, 0, -1);
	int i;

	if (!n)
		return NULL;
	skb_reserve(n, headroom);
	skb_put(n, skb_headlen(skb));
	memcpy(n->data, skb->data, n->len);
	n->truesize += skb->data_len;
	n->data_len = skb->data_len;
	n->len = skb->len;
	for (i = 0; i < skb_shinfo(skb)->nr_frags; i++) {
		skb_shinfo(n)->frags[i] = skb_shinfo(skb)->frags[i];
		skb_frag_ref(skb, i);
	}
	skb_shinfo(n)->nr_frags = i;
	if (skb_has_frag_list(skb)) {
		skb_shinfo(n)->frag_list = skb_shinfo(skb)->frag_list;
		skb_clone_fraglist(n);
	}
	skb_copy_header(n, skb);
	if (headroom != (int)skb_headroom(skb))
		skb_headers_offset_update(n, headroom - (int)skb_headroom(skb));
	return n;
}

/* ---- reallocation ---- */

/*
 * The kernel's memcpy(new, old, offsetof(struct skb_shared_info,
 * frags[nr_frags])), written as a fixed-size copy of the fields before the
 * frags and a loop over the frags in use: the same bytes, but a variable-size
 * memcpy here compiles to `rep movsq`, whose start-up cost was a sixth of
 * pskb_expand_head()'s own time for a 1500 B linearisation (perf annotate).
 */
static inline void skb_shinfo_copy(struct skb_shared_info *to, const struct skb_shared_info *from)
{
	memcpy(to, from, offsetof(struct skb_shared_info, frags));
	for (unsigned int i = 0; i < from->nr_frags; i++)
		to->frags[i] = from->frags[i];
}

int pskb_expand_head(struct sk_buff *skb, int nhead, int ntail, gfp_t gfp_mask)
{
	unsigned int osize = skb_end_offset(skb);
	unsigned int size = osize + nhead + ntail;
	struct skb_shared_info *shinfo;
	long off;
	u8 *data;

	BUG_ON_MSG(nhead < 0, "pskb_expand_head() with nhead < 0");
	BUG_ON_MSG(skb_shared(skb), "pskb_expand_head() on a shared skb");

	data = kmalloc_reserve(&size, gfp_mask);
	if (!data)
		return -ENOMEM;
	size = SKB_WITH_OVERHEAD(size);

	/* Copy only the used part of the head, and shinfo up to the used frags. */
	memcpy(data + nhead, skb->head, skb_tail_pointer(skb) - skb->head);
	shinfo = skb_shinfo(skb);
	skb_shinfo_copy((struct skb_shared_info *)(data + size), shinfo);

	if (skb_cloned(skb)) {
		/* Others still use the old data: take our own refs on frags. */
		for (int i = 0; i < shinfo->nr_frags; i++)
			skb_frag_ref(skb, i);
		if (skb_has_frag_list(skb))
			skb_clone_fraglist(skb);
		skb_release_data(skb, SKB_CONSUMED);
	} else {
		skb_free_head(skb);
	}
	off = (data + nhead) - skb->head;
	skb->head = data;
	skb->head_frag = 0;
	skb->data += off;
	skb_set_end_offset(skb, size);
	if (nhead) {
		skb->tail += nhead;
		skb_headers_offset_update(skb, nhead);
	}
	skb->cloned = 0;
	skb->hdr_len = 0;
	skb->nohdr = 0;
	skb_shinfo(skb)->dataref = 1;
	/* 6.18 still clears metadata here (later kernels keep it). */
	skb_metadata_clear(skb);
	skb->truesize += size - osize;
	return 0;
}

unsigned char *__pskb_pull_tail(struct sk_buff *skb, int delta)
{
	int i, k, err, eat = (skb->tail + delta) - skb->end;
	struct skb_shared_info *shinfo;

	if (eat > 0 || skb_cloned(skb)) {
		if (pskb_expand_head(skb, 0, eat > 0 ? eat + 128 : 0, GFP_ATOMIC))
			return NULL;
	}
	shinfo = skb_shinfo(skb);
	if (delta == (int)skb->data_len && !skb_has_frag_list(skb)) {
		/*
		 * All of it (skb_linearize()): each frag is copied after the
		 * last and released at once, one pass instead of
		 * skb_copy_bits() and the release loop below; same result.
		 */
		unsigned char *to = skb_tail_pointer(skb);

		for (i = 0; i < shinfo->nr_frags; i++) {
			skb_frag_t *frag = &shinfo->frags[i];

			memcpy(to, skb_frag_address(frag), skb_frag_size(frag));
			to += skb_frag_size(frag);
			__skb_frag_unref(frag, skb->pp_recycle);
		}
		shinfo->nr_frags = 0;
		goto end;
	}
	err = skb_copy_bits(skb, skb_headlen(skb), skb_tail_pointer(skb), delta);
	BUG_ON(err);

	if (!skb_has_frag_list(skb))
		goto pull_pages;

	/* Does the pull reach into the frag_list? */
	eat = delta;
	for (i = 0; i < shinfo->nr_frags; i++) {
		int size = skb_frag_size(&shinfo->frags[i]);

		if (size >= eat)
			goto pull_pages;
		eat -= size;
	}

	/*
	 * It does: drop list skbs that were pulled completely, and trim the
	 * first one that was pulled in part (cloning it first if shared).
	 */
	{
		struct sk_buff *list = shinfo->frag_list;
		struct sk_buff *clone = NULL;
		struct sk_buff *insp = NULL;

		do {
			if (list->len <= eat) {
				eat -= list->len;
				list = list->next;
				insp = list;
			} else {
				if (skb_shared(list)) {
					clone = skb_clone(list, GFP_ATOMIC);
					if (!clone)
						return NULL;
					insp = list->next;
					list = clone;
				} else {
					insp = list;
				}
				if (!pskb_pull(list, eat)) {
					kfree_skb(clone);
					return NULL;
				}
				break;
			}
		} while (eat);

		while ((list = shinfo->frag_list) != insp) {
			shinfo->frag_list = list->next;
			consume_skb(list);
		}
		if (clone) {
			clone->next = list;
			shinfo->frag_list = clone;
		}
	}

pull_pages:
	eat = delta;
	k = 0;
	for (i = 0; i < shinfo->nr_frags; i++) {
		int size = skb_frag_size(&shinfo->frags[i]);

		if (size <= eat) {
			skb_frag_unref(skb, i);
			eat -= size;
		} else {
			skb_frag_t *frag = &shinfo->frags[k];

			*frag = shinfo->frags[i];
			if (eat) {
				skb_frag_off_add(frag, eat);
				skb_frag_size_sub(frag, eat);
				if (!i)
					goto end;
				eat = 0;
			}
			k++;
		}
	}
	shinfo->nr_frags = k;
end:
	skb->tail += delta;
	skb->data_len -= delta;
	return skb_tail_pointer(skb);
}

int ___pskb_trim(struct sk_buff *skb, unsigned int len)
{
	struct skb_shared_info *shinfo;
	struct sk_buff **fragp, *frag;
	int offset = skb_headlen(skb);
	int nfrags, i = 0;
	int err;

	if (skb_cloned(skb) && pskb_expand_head(skb, 0, 0, GFP_ATOMIC))
		return -ENOMEM;
	shinfo = skb_shinfo(skb);
	nfrags = shinfo->nr_frags;

	if (offset < (int)len) {
		for (; i < nfrags; i++) {
			int end = offset + skb_frag_size(&shinfo->frags[i]);

			if (end < (int)len) {
				offset = end;
				continue;
			}
			skb_frag_size_set(&shinfo->frags[i++], len - offset);
			break;
		}
		if (i == nfrags && offset < (int)len) {
			/* The cut is inside the frag_list. */
			for (fragp = &shinfo->frag_list; (frag = *fragp); fragp = &frag->next) {
				int end = offset + frag->len;

				if (skb_shared(frag)) {
					struct sk_buff *nfrag = skb_clone(frag, GFP_ATOMIC);

					if (!nfrag)
						return -ENOMEM;
					nfrag->next = frag->next;
					consume_skb(frag);
					frag = nfrag;
					*fragp = frag;
				}
				if (end < (int)len) {
					offset = end;
					continue;
				}
				if (end > (int)len) {
					err = pskb_trim(frag, len - offset);
					if (err)
						return err;
				}
				if (frag->next)
					skb_drop_list(&frag->next);
				break;
			}
			goto done;
		}
	}
	shinfo->nr_frags = i;
	for (; i < nfrags; i++)
		skb_frag_unref(skb, i);
	if (skb_has_frag_list(skb))
		skb_drop_fraglist(skb);
done:
	if (len > skb_headlen(skb)) {
		skb->data_len -= skb->len - len;
		skb->len = len;
	} else {
		skb->len = len;
		skb->data_len = 0;
		skb_set_tail_pointer(skb, len);
	}
	return 0;
}

/*
 * skb_scrub_packet() - forget what the sending side knew of @skb before it
 * enters another device's receive path (a veth pair, a tunnel): packet
 * type, input interface, "ignore DF"; across network namespaces (@xnet)
 * also the mark and the timestamp.
 */
void skb_scrub_packet(struct sk_buff *skb, bool xnet)
{
	skb->pkt_type = PACKET_HOST;
	skb->skb_iif = 0;
	skb->ignore_df = 0;
	if (!xnet)
		return;
	skb->mark = 0;
	skb->tstamp = 0;
}

void skb_trim(struct sk_buff *skb, unsigned int len)
{
	if (skb->len > len)
		__skb_trim(skb, len);
}

static bool skb_clone_writable(const struct sk_buff *skb, unsigned int len)
{
	return !skb_header_cloned(skb) && skb_headroom(skb) + len <= skb->hdr_len;
}

int skb_ensure_writable(struct sk_buff *skb, unsigned int write_len)
{
	if (!pskb_may_pull(skb, write_len))
		return -ENOMEM;
	if (!skb_cloned(skb) || skb_clone_writable(skb, write_len))
		return 0;
	return pskb_expand_head(skb, 0, 0, GFP_ATOMIC);
}

int skb_ensure_writable_head_tail(struct sk_buff *skb, struct net_device *dev)
{
	int needed_headroom = dev->needed_headroom;
	int needed_tailroom = dev->needed_tailroom;

	/* Tail taggers pad short frames themselves: reserve the pad too. */
	if (unlikely(needed_tailroom && skb->len < ETH_ZLEN))
		needed_tailroom += ETH_ZLEN - skb->len;
	needed_headroom = max_t(int, needed_headroom - (int)skb_headroom(skb), 0);
	needed_tailroom = max_t(int, needed_tailroom - skb_tailroom(skb), 0);
	if (likely(!needed_headroom && !needed_tailroom && !skb_cloned(skb)))
		return 0;
	return pskb_expand_head(skb, needed_headroom, needed_tailroom, GFP_ATOMIC);
}

int skb_pp_cow_data(struct page_pool *pool, struct sk_buff **pskb, unsigned int headroom)
{
	u32 size, truesize, len, max_head_size, off;
	struct sk_buff *skb = *pskb, *nskb;
	int err, i, head_off;
	void *data;

	/* XDP has no frag_list: such skbs must be linearised instead. */
	if (skb_has_frag_list(skb))
		return -EOPNOTSUPP;
	max_head_size = SKB_WITH_OVERHEAD(PAGE_SIZE - headroom);
	if (skb->len > max_head_size + MAX_SKB_FRAGS * PAGE_SIZE)
		return -ENOMEM;

	size = min_t(u32, skb->len, max_head_size);
	truesize = SKB_HEAD_ALIGN(size) + headroom;
	{
		unsigned int got = truesize;

		data = page_pool_dev_alloc_va(pool, &got);
	}
	if (!data)
		return -ENOMEM;
	/* The skb uses truesize bytes of the page, as the kernel's frag would. */
	nskb = napi_build_skb(data, truesize);
	if (!nskb) {
		page_pool_free_va(pool, data, true);
		return -ENOMEM;
	}
	skb_reserve(nskb, headroom);
	skb_copy_header(nskb, skb);
	skb_mark_for_recycle(nskb);

	err = skb_copy_bits(skb, 0, nskb->data, size);
	if (err) {
		consume_skb(nskb);
		return err;
	}
	skb_put(nskb, size);
	head_off = skb_headroom(nskb) - skb_headroom(skb);
	skb_headers_offset_update(nskb, head_off);

	off = size;
	len = skb->len - off;
	for (i = 0; i < MAX_SKB_FRAGS && off < skb->len; i++) {
		struct page *page;

		size = min_t(u32, len, PAGE_SIZE);
		page = page_pool_dev_alloc_pages(pool);
		if (!page) {
			consume_skb(nskb);
			return -ENOMEM;
		}
		truesize = PAGE_SIZE << page_pool_get_order(pool);
		skb_add_rx_frag(nskb, i, page, 0, size, truesize);
		err = skb_copy_bits(skb, off, page_address(page), size);
		if (err) {
			consume_skb(nskb);
			return err;
		}
		len -= size;
		off += size;
	}
	consume_skb(skb);
	*pskb = nskb;
	return 0;
}
