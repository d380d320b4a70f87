// SPDX-License-Identifier: GPL-2.0
/*
 * XDP helpers and the helper table of XDP programs: packet geometry
 * (adjust_head/tail/meta), byte access across the linear part and frags
 * (load/store_bytes, get_buff_len), redirect (step 1 of the three-step
 * redirect: record the target in the per-worker bpf_redirect_info),
 * csum_diff, fib_lookup, check_mtu, perf event output, the raw SYN cookie
 * helpers (net/ipv4/syncookies.c) and the XDP dynptr.
 *
 * Buffer geometry, as the kernel's (x86-64, 6.x):
 *
 *   data_hard_start                                   hard_end = start + frame_sz - 320
 *   | xdp_frame (40) | headroom | meta | data ... data_end | tailroom | skb_shared_info |
 *                               ^data_meta                             (frags of a
 *                                                                      multi-buffer xdp)
 *
 * Kernel: net/core/filter.c xdp_func_proto(), bpf_xdp_adjust_head(),
 *         bpf_xdp_adjust_tail(), bpf_xdp_adjust_meta(), bpf_xdp_pointer(),
 *         bpf_xdp_copy_buf(), bpf_xdp_load_bytes(), bpf_xdp_store_bytes(),
 *         bpf_xdp_get_buff_len(), bpf_xdp_redirect(), bpf_xdp_redirect_map(),
 *         bpf_csum_diff(), bpf_xdp_fib_lookup(), bpf_xdp_check_mtu(),
 *         bpf_xdp_event_output(), bpf_tcp_raw_gen_syncookie_ipv4/6(),
 *         bpf_tcp_raw_check_syncookie_ipv4/6(), bpf_dynptr_from_xdp()
 * Differs: bpf_fib_lookup() answers BPF_FIB_LKUP_RET_NOT_FWDED (after the
 *          kernel's argument checks) until a FIB fills bpf_fib_lookup_hook;
 *          bpf_check_mtu() finds devices other than xdp->rxq->dev only
 *          through bpf_dev_get_by_index_hook (-ENODEV without it); with
 *          ifindex 0 it uses rxq->dev, which `prog run` (net/bpf/test_run.c)
 *          makes a loopback-like device as the kernel's test_run does, and
 *          -ENODEV if a caller leaves it NULL.
 *          Of the helpers that take callbacks only bpf_loop (181) is
 *          offered (kernel/bpf/bpf_iter.c); for_each_map_elem and timers
 *          are refused at load naming the helper.
 * Not offered, as in the kernel: bpf_xdp_output (121, a tracing helper)
 * and the skb helpers; nor bpf_tcp_check_syncookie/bpf_tcp_gen_syncookie,
 * which need a socket from bpf_skc_lookup_tcp(), which uxdp has not.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>

#define UXDP_XDP_BUFF_INLINES
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/tcp.h>
#include <net/xdp.h>

__thread struct bpf_redirect_info bpf_redirect_info;

int (*bpf_fib_lookup_hook)(struct xdp_buff *xdp, struct bpf_fib_lookup *params, u32 flags);
struct net_device *(*bpf_dev_get_by_index_hook)(int ifindex);

/* ---- geometry ----------------------------------------------------------- */

BPF_CALL_1(bpf_xdp_get_buff_len, struct xdp_buff *, xdp)
{
	return xdp_get_buff_len(xdp);
}

const struct bpf_func_proto bpf_xdp_get_buff_len_proto = {
	.func		= bpf_xdp_get_buff_len,
	.name		= "bpf_xdp_get_buff_len",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX },
};

static unsigned long xdp_get_metalen(const struct xdp_buff *xdp)
{
	return xdp_data_meta_unsupported(xdp) ? 0 : (char *)xdp->data - (char *)xdp->data_meta;
}

/*
 * The xdp_frame written at data_hard_start on redirect and the metadata
 * bound the head; at least ETH_HLEN bytes must stay. Newly exposed
 * headroom is not cleared (the kernel does not either).
 */
BPF_CALL_2(bpf_xdp_adjust_head, struct xdp_buff *, xdp, int, offset)
{
	char *xdp_frame_end = (char *)xdp->data_hard_start + sizeof(struct xdp_frame);
	unsigned long metalen = xdp_get_metalen(xdp);
	char *data_start = xdp_frame_end + metalen;
	char *data = (char *)xdp->data + offset;

	if (unlikely(data < data_start || data > (char *)xdp->data_end - ETH_HLEN))
		return -EINVAL;

	if (metalen)
		memmove((char *)xdp->data_meta + offset, xdp->data_meta, metalen);
	xdp->data_meta = (char *)xdp->data_meta + offset;
	xdp->data = data;
	return 0;
}

const struct bpf_func_proto bpf_xdp_adjust_head_proto = {
	.func		= bpf_xdp_adjust_head,
	.name		= "bpf_xdp_adjust_head",
	.gpl_only	= false,
	.changes_pkt_data = true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_ANYTHING },
};

/*
 * Copy @len bytes at packet offset @off to (@flush: from) @buf, across frags.
 * @buf may be packet memory itself (the helpers take packet pointers): the
 * kernel's memcpy() over an overlap has no defined result, uxdp moves the
 * bytes as memmove() does.
 */
void bpf_xdp_copy_buf(struct xdp_buff *xdp, unsigned long off, void *buf, unsigned long len,
		      bool flush)
{
	unsigned long ptr_len, ptr_off = 0;
	skb_frag_t *next_frag, *end_frag;
	struct skb_shared_info *sinfo;
	u8 *ptr_buf;

	if (likely((unsigned long)((char *)xdp->data_end - (char *)xdp->data) >= off + len)) {
		if (flush)
			memmove((char *)xdp->data + off, buf, len);
		else
			memmove(buf, (char *)xdp->data + off, len);
		return;
	}

	sinfo = xdp_get_shared_info_from_buff(xdp);
	end_frag = &sinfo->frags[sinfo->nr_frags];
	next_frag = &sinfo->frags[0];
	ptr_len = (char *)xdp->data_end - (char *)xdp->data;
	ptr_buf = xdp->data;

	for (;;) {
		if (off < ptr_off + ptr_len) {
			unsigned long copy_off = off - ptr_off;
			unsigned long copy_len = min(len, ptr_len - copy_off);

			if (flush)
				memmove(ptr_buf + copy_off, buf, copy_len);
			else
				memmove(buf, ptr_buf + copy_off, copy_len);
			off += copy_len;
			len -= copy_len;
			buf = (char *)buf + copy_len;
		}
		if (!len || next_frag == end_frag)
			break;
		ptr_off += ptr_len;
		ptr_buf = skb_frag_address(next_frag);
		ptr_len = skb_frag_size(next_frag);
		next_frag++;
	}
}

/*
 * Direct pointer to [offset, offset + len) when it lies in one piece, NULL
 * when it spans pieces, ERR_PTR on a bad range.
 */
void *bpf_xdp_pointer(struct xdp_buff *xdp, u32 offset, u32 len)
{
	u32 size = (char *)xdp->data_end - (char *)xdp->data;
	struct skb_shared_info *sinfo;
	char *addr = xdp->data;
	int i;

	if (unlikely(offset > 0xffff || len > 0xffff))
		return ERR_PTR(-EFAULT);
	if (unlikely(offset + len > xdp_get_buff_len(xdp)))
		return ERR_PTR(-EINVAL);
	if (likely(offset < size))
		goto out;

	sinfo = xdp_get_shared_info_from_buff(xdp);
	offset -= size;
	for (i = 0; i < sinfo->nr_frags; i++) {
		u32 frag_size = skb_frag_size(&sinfo->frags[i]);

		if (offset < frag_size) {
			addr = skb_frag_address(&sinfo->frags[i]);
			size = frag_size;
			break;
		}
		offset -= frag_size;
	}
out:
	return offset + len <= size ? addr + offset : NULL;
}

bool bpf_xdp_frags_contain(const struct xdp_buff *xdp, u64 addr, u64 size)
{
	const struct skb_shared_info *sinfo;
	u32 i;

	if (!xdp || !xdp_buff_has_frags(xdp))
		return false;
	sinfo = xdp_get_shared_info_from_buff(xdp);
	for (i = 0; i < sinfo->nr_frags; i++) {
		u64 lo = (u64)(uintptr_t)skb_frag_address(&sinfo->frags[i]);
		u64 span = skb_frag_size(&sinfo->frags[i]);

		if (addr >= lo && addr - lo < span && size <= span - (addr - lo))
			return true;
	}
	return false;
}

int __bpf_xdp_load_bytes(struct xdp_buff *xdp, u32 offset, void *buf, u32 len)
{
	void *ptr = bpf_xdp_pointer(xdp, offset, len);

	if (IS_ERR(ptr))
		return PTR_ERR(ptr);
	if (!ptr)
		bpf_xdp_copy_buf(xdp, offset, buf, len, false);
	else
		memmove(buf, ptr, len);	/* @buf may overlap the packet */
	return 0;
}

BPF_CALL_4(bpf_xdp_load_bytes, struct xdp_buff *, xdp, u32, offset, void *, buf, u32, len)
{
	return __bpf_xdp_load_bytes(xdp, offset, buf, len);
}

const struct bpf_func_proto bpf_xdp_load_bytes_proto = {
	.func		= bpf_xdp_load_bytes,
	.name		= "bpf_xdp_load_bytes",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_ANYTHING, ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE },
};

int __bpf_xdp_store_bytes(struct xdp_buff *xdp, u32 offset, void *buf, u32 len)
{
	void *ptr = bpf_xdp_pointer(xdp, offset, len);

	if (IS_ERR(ptr))
		return PTR_ERR(ptr);
	if (!ptr)
		bpf_xdp_copy_buf(xdp, offset, buf, len, true);
	else
		memmove(ptr, buf, len);
	return 0;
}

BPF_CALL_4(bpf_xdp_store_bytes, struct xdp_buff *, xdp, u32, offset, void *, buf, u32, len)
{
	return __bpf_xdp_store_bytes(xdp, offset, buf, len);
}

const struct bpf_func_proto bpf_xdp_store_bytes_proto = {
	.func		= bpf_xdp_store_bytes,
	.name		= "bpf_xdp_store_bytes",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_ANYTHING, ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE },
};

/* Grow into the last frag's slack only; rxq->frag_size says how big frags are. */
static int bpf_xdp_frags_increase_tail(struct xdp_buff *xdp, int offset)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	skb_frag_t *frag = &sinfo->frags[sinfo->nr_frags - 1];
	struct xdp_rxq_info *rxq = xdp->rxq;
	int tailroom;

	if (!rxq->frag_size || rxq->frag_size > xdp->frame_sz)
		return -EOPNOTSUPP;

	tailroom = rxq->frag_size - skb_frag_size(frag) - skb_frag_off(frag) % rxq->frag_size;
	if (unlikely(offset > tailroom))
		return -EINVAL;

	memset((char *)skb_frag_address(frag) + skb_frag_size(frag), 0, offset);
	skb_frag_size_add(frag, offset);
	sinfo->xdp_frags_size += offset;
	return 0;
}

/*
 * Trim from the last frag backwards; frags trimmed to nothing go back to
 * their allocator. With no frag left the rest comes off the linear part.
 */
static int bpf_xdp_frags_shrink_tail(struct xdp_buff *xdp, int offset)
{
	struct skb_shared_info *sinfo = xdp_get_shared_info_from_buff(xdp);
	int i, n_frags_free = 0, len_free = 0;

	if (unlikely(offset > (int)xdp_get_buff_len(xdp) - ETH_HLEN))
		return -EINVAL;

	for (i = sinfo->nr_frags - 1; i >= 0 && offset > 0; i--) {
		skb_frag_t *frag = &sinfo->frags[i];
		int shrink = min_t(int, offset, skb_frag_size(frag));

		len_free += shrink;
		offset -= shrink;
		if (skb_frag_size(frag) == (unsigned int)shrink) {
			__xdp_return(skb_frag_address(frag), xdp->rxq->mem.type, false);
			n_frags_free++;
		} else {
			skb_frag_size_sub(frag, shrink);
		}
	}
	sinfo->nr_frags -= n_frags_free;
	sinfo->xdp_frags_size -= len_free;

	if (unlikely(!sinfo->nr_frags)) {
		xdp_buff_clear_frags_flag(xdp);
		xdp->data_end = (char *)xdp->data_end - offset;
	}
	return 0;
}

BPF_CALL_2(bpf_xdp_adjust_tail, struct xdp_buff *, xdp, int, offset)
{
	char *data_hard_end = xdp_data_hard_end(xdp);
	char *data_end = (char *)xdp->data_end + offset;

	if (unlikely(xdp_buff_has_frags(xdp))) {
		if (offset < 0)
			return bpf_xdp_frags_shrink_tail(xdp, -offset);
		return bpf_xdp_frags_increase_tail(xdp, offset);
	}

	/* xdp_data_hard_end() already keeps the skb_shared_info room. */
	if (unlikely(data_end > data_hard_end))
		return -EINVAL;
	if (unlikely(data_end < (char *)xdp->data + ETH_HLEN))
		return -EINVAL;

	/* Grown bytes may hold an earlier packet's data: clear them. */
	if (offset > 0)
		memset(xdp->data_end, 0, offset);
	xdp->data_end = data_end;
	return 0;
}

const struct bpf_func_proto bpf_xdp_adjust_tail_proto = {
	.func		= bpf_xdp_adjust_tail,
	.name		= "bpf_xdp_adjust_tail",
	.gpl_only	= false,
	.changes_pkt_data = true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_ANYTHING },
};

BPF_CALL_2(bpf_xdp_adjust_meta, struct xdp_buff *, xdp, int, offset)
{
	char *xdp_frame_end = (char *)xdp->data_hard_start + sizeof(struct xdp_frame);
	char *meta = (char *)xdp->data_meta + offset;
	unsigned long metalen = (char *)xdp->data - meta;

	if (xdp_data_meta_unsupported(xdp))
		return -ENOTSUPP;
	if (unlikely(meta < xdp_frame_end || meta > (char *)xdp->data))
		return -EINVAL;
	if (unlikely(xdp_metalen_invalid(metalen)))
		return -EACCES;

	xdp->data_meta = meta;
	return 0;
}

const struct bpf_func_proto bpf_xdp_adjust_meta_proto = {
	.func		= bpf_xdp_adjust_meta,
	.name		= "bpf_xdp_adjust_meta",
	.gpl_only	= false,
	.changes_pkt_data = true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_ANYTHING },
};

/* ---- redirect (step 1) -------------------------------------------------- */

BPF_CALL_2(bpf_xdp_redirect, u32, ifindex, u64, flags)
{
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();

	if (unlikely(flags))
		return XDP_ABORTED;

	/* map_type UNSPEC + map_id INT_MAX (never a real id): by ifindex. */
	ri->tgt_index = ifindex;
	ri->map_id = INT_MAX;
	ri->map_type = BPF_MAP_TYPE_UNSPEC;
	return XDP_REDIRECT;
}

const struct bpf_func_proto bpf_xdp_redirect_proto = {
	.func		= bpf_xdp_redirect,
	.name		= "bpf_redirect",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_ANYTHING, ARG_ANYTHING },
};

BPF_CALL_3(bpf_xdp_redirect_map, struct bpf_map *, map, u64, key, u64, flags)
{
	/* Only redirect maps pass the load-time check; abort on anything else. */
	if (unlikely(!map->ops->map_redirect))
		return XDP_ABORTED;
	return map->ops->map_redirect(map, key, flags);
}

const struct bpf_func_proto bpf_xdp_redirect_map_proto = {
	.func		= bpf_xdp_redirect_map,
	.name		= "bpf_redirect_map",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_ANYTHING, ARG_ANYTHING },
};

/* ---- checksums ---------------------------------------------------------- */

static u32 csum_fold64(u64 sum)
{
	sum = (sum & 0xffffffffULL) + (sum >> 32);
	sum = (sum & 0xffffffffULL) + (sum >> 32);
	return (u32)sum;
}

/*
 * csum_partial(): 32-bit one's-complement sum of @buf seen as little-endian
 * 16-bit words (a trailing byte is the low byte), added to @sum. Any two
 * correct implementations agree modulo 0xffff; csum_from32to16() makes the
 * value architecture-independent.
 */
static u32 csum_partial(const void *buf, u32 len, u32 sum)
{
	const u8 *p = buf;
	u64 acc = sum;
	u32 w;

	while (len >= 4) {
		memcpy(&w, p, 4);
		acc += w;
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		u16 h;

		memcpy(&h, p, 2);
		acc += h;
		p += 2;
		len -= 2;
	}
	if (len)
		acc += *p;
	return csum_fold64(acc);
}

static u32 csum_add(u32 a, u32 b)
{
	u32 r = a + b;

	return r + (r < b);
}

static u32 csum_sub(u32 a, u32 b)
{
	return csum_add(a, ~b);
}

static u16 csum_from32to16(u32 sum)
{
	sum += (sum >> 16) | (sum << 16);
	return (u16)(sum >> 16);
}

/*
 * 6.13+ semantics (what this machine's 6.18 kernel runs): no size limits,
 * result folded to 16 bits, not complemented.
 *   from_size == 0, to_size > 0, seed = csum: pushing data
 *   from_size > 0, to_size == 0, seed = csum: pulling data
 *   from_size > 0, to_size > 0,  seed = 0:    diffing data (sizes may differ)
 */
BPF_CALL_5(bpf_csum_diff, const void *, from, u32, from_size, const void *, to, u32, to_size,
	   u32, seed)
{
	u32 ret = seed;

	if (from_size && to_size)
		ret = csum_sub(csum_partial(to, to_size, ret), csum_partial(from, from_size, 0));
	else if (to_size)
		ret = csum_partial(to, to_size, ret);
	else if (from_size)
		ret = ~csum_partial(from, from_size, ~ret);
	return csum_from32to16(ret);
}

const struct bpf_func_proto bpf_csum_diff_proto = {
	.func		= bpf_csum_diff,
	.name		= "bpf_csum_diff",
	.gpl_only	= false,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY, ARG_CONST_SIZE_OR_ZERO,
			    ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY, ARG_CONST_SIZE_OR_ZERO,
			    ARG_ANYTHING },
};

/* ---- routing and MTU ---------------------------------------------------- */

/* UAPI flag newer than some system headers (6.10). */
#define FIB_LOOKUP_MARK		(1U << 5)
#define FIB_LOOKUP_FLAGS	(BPF_FIB_LOOKUP_DIRECT | BPF_FIB_LOOKUP_OUTPUT | \
				 BPF_FIB_LOOKUP_SKIP_NEIGH | BPF_FIB_LOOKUP_TBID | \
				 BPF_FIB_LOOKUP_SRC | FIB_LOOKUP_MARK)

BPF_CALL_4(bpf_xdp_fib_lookup, struct xdp_buff *, xdp, struct bpf_fib_lookup *, params,
	   int, plen, u32, flags)
{
	if (plen < (int)sizeof(*params))
		return -EINVAL;
	if (flags & ~FIB_LOOKUP_FLAGS)
		return -EINVAL;

	switch (params->family) {
	case AF_INET:
	case AF_INET6:
		if (bpf_fib_lookup_hook)
			return bpf_fib_lookup_hook(xdp, params, flags);
		/* No FIB yet: nothing is forwarded. */
		return BPF_FIB_LKUP_RET_NOT_FWDED;
	}
	return -EAFNOSUPPORT;
}

const struct bpf_func_proto bpf_xdp_fib_lookup_proto = {
	.func		= bpf_xdp_fib_lookup,
	.name		= "bpf_fib_lookup",
	.gpl_only	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_PTR_TO_MEM | MEM_WRITE, ARG_CONST_SIZE, ARG_ANYTHING },
};

static struct net_device *__dev_via_ifindex(struct net_device *dev, u32 ifindex)
{
	if (ifindex)
		return bpf_dev_get_by_index_hook ? bpf_dev_get_by_index_hook(ifindex) : NULL;
	return dev;
}

/*
 * L2 frame length (the linear part plus @len_diff, or *@mtu_len + L2 header
 * when *@mtu_len is set) against dev->mtu + hard_header_len; *@mtu_len
 * receives the device MTU. On -EINVAL/-ENODEV *@mtu_len is left alone, as
 * 6.18 does (later kernels zero it).
 */
BPF_CALL_5(bpf_xdp_check_mtu, struct xdp_buff *, xdp, u32, ifindex, u32 *, mtu_len,
	   s32, len_diff, u64, flags)
{
	struct net_device *dev = xdp->rxq ? xdp->rxq->dev : NULL;
	int xdp_len = (char *)xdp->data_end - (char *)xdp->data;
	int ret = BPF_MTU_CHK_RET_SUCCESS;
	int mtu, dev_len;

	/* The XDP flavour has no multi-buffer segment check (BPF_MTU_CHK_SEGS). */
	if (unlikely(flags))
		return -EINVAL;
	dev = __dev_via_ifindex(dev, ifindex);
	if (unlikely(!dev))
		return -ENODEV;

	mtu = READ_ONCE(dev->mtu);
	dev_len = mtu + dev->hard_header_len;
	/* *mtu_len as input is an L3 length, like iph->tot_len in fib_lookup. */
	if (*mtu_len)
		xdp_len = *mtu_len + dev->hard_header_len;
	xdp_len += len_diff;
	if (xdp_len > dev_len)
		ret = BPF_MTU_CHK_RET_FRAG_NEEDED;
	*mtu_len = mtu;
	return ret;
}

const struct bpf_func_proto bpf_xdp_check_mtu_proto = {
	.func		= bpf_xdp_check_mtu,
	.name		= "bpf_check_mtu",
	.gpl_only	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_ANYTHING,
			    ARG_PTR_TO_FIXED_SIZE_MEM | MEM_WRITE | MEM_ALIGNED, ARG_ANYTHING,
			    ARG_ANYTHING },
	.arg_size	= { 0, 0, sizeof(u32) },
};

/* ---- perf event output -------------------------------------------------- */

static unsigned long bpf_xdp_copy(void *dst, const void *ctx, unsigned long off,
				  unsigned long len)
{
	bpf_xdp_copy_buf((struct xdp_buff *)ctx, off, dst, len, false);
	return 0;
}

/*
 * Record = @meta followed by the first (flags & BPF_F_CTXLEN_MASK) >> 32
 * bytes of the packet; the low 32 bits of @flags pick the CPU slot.
 */
BPF_CALL_5(bpf_xdp_event_output, struct xdp_buff *, xdp, struct bpf_map *, map, u64, flags,
	   void *, meta, u64, meta_size)
{
	u64 xdp_size = (flags & BPF_F_CTXLEN_MASK) >> 32;

	if (unlikely(flags & ~(BPF_F_CTXLEN_MASK | BPF_F_INDEX_MASK)))
		return -EINVAL;
	if (unlikely(!xdp || xdp_size > xdp_get_buff_len(xdp)))
		return -EFAULT;
	return bpf_event_output(map, flags, meta, meta_size, xdp, xdp_size, bpf_xdp_copy);
}

const struct bpf_func_proto bpf_xdp_event_output_proto = {
	.func		= bpf_xdp_event_output,
	.name		= "bpf_perf_event_output",
	.gpl_only	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_CONST_MAP_PTR, ARG_ANYTHING,
			    ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE_OR_ZERO },
};

/* ---- SYN cookies (xdp-synproxy) ------------------------------------------ */

/* Returns the cookie in the low 32 bits and the MSS it encodes above. */
BPF_CALL_3(bpf_tcp_raw_gen_syncookie_ipv4, struct iphdr *, iph, struct tcphdr *, th, u32, th_len)
{
	u32 cookie;
	u16 mss;

	if (unlikely(th_len < sizeof(*th) || th_len != th->doff * 4u))
		return (u64)-EINVAL;
	mss = tcp_parse_mss_option(th, 0) ?: TCP_MSS_DEFAULT;
	cookie = __cookie_v4_init_sequence(iph, th, &mss);
	return cookie | ((u64)mss << 32);
}

const struct bpf_func_proto bpf_tcp_raw_gen_syncookie_ipv4_proto = {
	.func		= bpf_tcp_raw_gen_syncookie_ipv4,
	.name		= "bpf_tcp_raw_gen_syncookie_ipv4",
	.gpl_only	= true,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_FIXED_SIZE_MEM, ARG_PTR_TO_MEM | MEM_RDONLY,
			    ARG_CONST_SIZE_OR_ZERO },
	.arg_size	= { sizeof(struct iphdr) },
};

BPF_CALL_3(bpf_tcp_raw_gen_syncookie_ipv6, struct ipv6hdr *, iph, struct tcphdr *, th,
	   u32, th_len)
{
	const u16 mss_clamp = 1280 - sizeof(struct tcphdr) - sizeof(struct ipv6hdr);
	u32 cookie;
	u16 mss;

	if (unlikely(th_len < sizeof(*th) || th_len != th->doff * 4u))
		return (u64)-EINVAL;
	mss = tcp_parse_mss_option(th, 0) ?: mss_clamp;
	cookie = __cookie_v6_init_sequence(iph, th, &mss);
	return cookie | ((u64)mss << 32);
}

const struct bpf_func_proto bpf_tcp_raw_gen_syncookie_ipv6_proto = {
	.func		= bpf_tcp_raw_gen_syncookie_ipv6,
	.name		= "bpf_tcp_raw_gen_syncookie_ipv6",
	.gpl_only	= true,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_FIXED_SIZE_MEM, ARG_PTR_TO_MEM | MEM_RDONLY,
			    ARG_CONST_SIZE_OR_ZERO },
	.arg_size	= { sizeof(struct ipv6hdr) },
};

/* 0 when th->ack_seq - 1 is a cookie of ours for this flow, else -EACCES. */
BPF_CALL_2(bpf_tcp_raw_check_syncookie_ipv4, struct iphdr *, iph, struct tcphdr *, th)
{
	return __cookie_v4_check(iph, th) > 0 ? 0 : (u64)-EACCES;
}

const struct bpf_func_proto bpf_tcp_raw_check_syncookie_ipv4_proto = {
	.func		= bpf_tcp_raw_check_syncookie_ipv4,
	.name		= "bpf_tcp_raw_check_syncookie_ipv4",
	.gpl_only	= true,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_FIXED_SIZE_MEM, ARG_PTR_TO_FIXED_SIZE_MEM },
	.arg_size	= { sizeof(struct iphdr), sizeof(struct tcphdr) },
};

BPF_CALL_2(bpf_tcp_raw_check_syncookie_ipv6, struct ipv6hdr *, iph, struct tcphdr *, th)
{
	return __cookie_v6_check(iph, th) > 0 ? 0 : (u64)-EACCES;
}

const struct bpf_func_proto bpf_tcp_raw_check_syncookie_ipv6_proto = {
	.func		= bpf_tcp_raw_check_syncookie_ipv6,
	.name		= "bpf_tcp_raw_check_syncookie_ipv6",
	.gpl_only	= true,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_FIXED_SIZE_MEM, ARG_PTR_TO_FIXED_SIZE_MEM },
	.arg_size	= { sizeof(struct ipv6hdr), sizeof(struct tcphdr) },
};

/* ---- kfuncs ------------------------------------------------------------- */

/* A dynptr over the whole frame, frags included (kernel: bpf_dynptr_from_xdp()). */
static u64 bpf_dynptr_from_xdp(u64 ctx, u64 flags, u64 ptr__uninit, u64 r4, u64 r5)
{
	struct bpf_dynptr_kern *ptr = (void *)(uintptr_t)ptr__uninit;
	struct xdp_buff *xdp = (void *)(uintptr_t)ctx;

	(void)r4, (void)r5;
	if (flags) {
		bpf_dynptr_set_null(ptr);
		return (u64)-EINVAL;
	}
	bpf_dynptr_init(ptr, xdp, BPF_DYNPTR_TYPE_XDP, 0, xdp_get_buff_len(xdp));
	return 0;
}

static const struct bpf_kfunc_proto xdp_kfuncs[] = {
	{ .name = "bpf_dynptr_from_xdp", .func = bpf_dynptr_from_xdp, .ret = KF_RET_INT,
	  .nargs = 3,
	  .args = { { .kind = KF_ARG_PTR_TO_CTX }, { .kind = KF_ARG_SCALAR },
		    { .kind = KF_ARG_PTR_TO_DYNPTR, .flags = KF_ARG_F_UNINIT,
		      .dynptr_type = BPF_DYNPTR_TYPE_XDP } } },
};

const struct btf_kfunc_id_set xdp_kfunc_set = {
	.set = xdp_kfuncs,
	.cnt = ARRAY_SIZE(xdp_kfuncs),
};

/* ---- the table ---------------------------------------------------------- */

/* bpf_base_func_proto(): what every program type gets. */
static const struct bpf_func_proto *bpf_base_func_proto(enum bpf_func_id func_id)
{
	switch (func_id) {
	case BPF_FUNC_map_lookup_elem:
		return &bpf_map_lookup_elem_proto;
	case BPF_FUNC_map_update_elem:
		return &bpf_map_update_elem_proto;
	case BPF_FUNC_map_delete_elem:
		return &bpf_map_delete_elem_proto;
	case BPF_FUNC_map_push_elem:
		return &bpf_map_push_elem_proto;
	case BPF_FUNC_map_pop_elem:
		return &bpf_map_pop_elem_proto;
	case BPF_FUNC_map_peek_elem:
		return &bpf_map_peek_elem_proto;
	case BPF_FUNC_get_prandom_u32:
		return &bpf_get_prandom_u32_proto;
	case BPF_FUNC_get_smp_processor_id:
		return &bpf_get_smp_processor_id_proto;
	case BPF_FUNC_get_numa_node_id:
		return &bpf_get_numa_node_id_proto;
	case BPF_FUNC_tail_call:
		return &bpf_tail_call_proto;
	case BPF_FUNC_ktime_get_ns:
		return &bpf_ktime_get_ns_proto;
	case BPF_FUNC_ktime_get_boot_ns:
		return &bpf_ktime_get_boot_ns_proto;
	case BPF_FUNC_ktime_get_coarse_ns:
		return &bpf_ktime_get_coarse_ns_proto;
	case BPF_FUNC_ktime_get_tai_ns:
		return &bpf_ktime_get_tai_ns_proto;
	case BPF_FUNC_ringbuf_output:
		return &bpf_ringbuf_output_proto;
	case BPF_FUNC_ringbuf_reserve:
		return &bpf_ringbuf_reserve_proto;
	case BPF_FUNC_ringbuf_submit:
		return &bpf_ringbuf_submit_proto;
	case BPF_FUNC_ringbuf_discard:
		return &bpf_ringbuf_discard_proto;
	case BPF_FUNC_ringbuf_query:
		return &bpf_ringbuf_query_proto;
	case BPF_FUNC_trace_printk:
		return &bpf_trace_printk_proto;
	case BPF_FUNC_trace_vprintk:
		return &bpf_trace_vprintk_proto;
	case BPF_FUNC_snprintf:
		return &bpf_snprintf_proto;
	case BPF_FUNC_strtol:
		return &bpf_strtol_proto;
	case BPF_FUNC_spin_lock:
		return &bpf_spin_lock_proto;
	case BPF_FUNC_spin_unlock:
		return &bpf_spin_unlock_proto;
	case BPF_FUNC_loop:
		return &bpf_loop_proto;
	case BPF_FUNC_dynptr_read:
		return &bpf_dynptr_read_proto;
	case BPF_FUNC_dynptr_write:
		return &bpf_dynptr_write_proto;
	case BPF_FUNC_dynptr_data:
		return &bpf_dynptr_data_proto;
	default:
		return NULL;
	}
}

const struct bpf_func_proto *xdp_func_proto(enum bpf_func_id func_id)
{
	switch (func_id) {
	case BPF_FUNC_perf_event_output:
		return &bpf_xdp_event_output_proto;
	case BPF_FUNC_get_smp_processor_id:
		return &bpf_get_smp_processor_id_proto;
	case BPF_FUNC_csum_diff:
		return &bpf_csum_diff_proto;
	case BPF_FUNC_xdp_adjust_head:
		return &bpf_xdp_adjust_head_proto;
	case BPF_FUNC_xdp_adjust_meta:
		return &bpf_xdp_adjust_meta_proto;
	case BPF_FUNC_redirect:
		return &bpf_xdp_redirect_proto;
	case BPF_FUNC_redirect_map:
		return &bpf_xdp_redirect_map_proto;
	case BPF_FUNC_xdp_adjust_tail:
		return &bpf_xdp_adjust_tail_proto;
	case BPF_FUNC_xdp_get_buff_len:
		return &bpf_xdp_get_buff_len_proto;
	case BPF_FUNC_xdp_load_bytes:
		return &bpf_xdp_load_bytes_proto;
	case BPF_FUNC_xdp_store_bytes:
		return &bpf_xdp_store_bytes_proto;
	case BPF_FUNC_fib_lookup:
		return &bpf_xdp_fib_lookup_proto;
	case BPF_FUNC_check_mtu:
		return &bpf_xdp_check_mtu_proto;
	case BPF_FUNC_tcp_raw_gen_syncookie_ipv4:
		return &bpf_tcp_raw_gen_syncookie_ipv4_proto;
	case BPF_FUNC_tcp_raw_gen_syncookie_ipv6:
		return &bpf_tcp_raw_gen_syncookie_ipv6_proto;
	case BPF_FUNC_tcp_raw_check_syncookie_ipv4:
		return &bpf_tcp_raw_check_syncookie_ipv4_proto;
	case BPF_FUNC_tcp_raw_check_syncookie_ipv6:
		return &bpf_tcp_raw_check_syncookie_ipv6_proto;
	default:
		return bpf_base_func_proto(func_id);
	}
}
