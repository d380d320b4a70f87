// SPDX-License-Identifier: GPL-2.0
/*
 * BPF_PROG_TEST_RUN for XDP programs: lay a packet out exactly as the
 * kernel's test_run does, run the program N times over the same buffer,
 * and hand back verdict, average duration, output bytes (from data_meta)
 * and the context.
 *
 * Frame layout (no ctx_in metadata; with M bytes of metadata the headroom
 * shrinks by M and the metadata sits right in front of data):
 *
 *   hard_start                                      hard_start + 4096
 *   | headroom 256 | data ... <= 3520 ... | tailroom | skb_shared_info 320 |
 *                                                      frags[]: 4 KiB pages
 *
 * Input beyond the linear part goes into page fragments described by the
 * skb_shared_info at the frame's end, for xdp and xdp.frags programs alike.
 * With ctx_in, data is the metadata length (a multiple of 4, at most 216:
 * the xdp_frame must still fit in the headroom) and data_end the length of
 * the linear part (6.18: at most the input size; the rest goes to frags).
 *
 * Kernel: net/bpf/test_run.c bpf_prog_test_run_xdp(), bpf_test_init(),
 *	   bpf_ctx_init(), bpf_test_finish(), bpf_ctx_finish(),
 *	   xdp_convert_md_to_buff(), xdp_convert_buff_to_md(), bpf_test_run()
 * Differs: there are no devices. The kernel runs on the loopback device's
 *	    rx queue 0 (ifindex 1, mtu 65536), or, with ctx_in, on the queue
 *	    of the given ingress_ifindex, which must exist; uxdp uses a dummy
 *	    net_device with that ifindex (loopback-like for ifindex 1, mtu 1500
 *	    otherwise) and accepts any ifindex and queue index. The rx queue
 *	    always has frag_size 4096, as the kernel's loopback queue does.
 *	    BPF_F_TEST_XDP_LIVE_FRAMES is refused (-EOPNOTSUPP). A redirect
 *	    verdict's target is reported to the caller, then reset.
 *	    The data buffer is not allocated per run: each thread keeps one,
 *	    zeroed per run as kzalloc() would, grown only when a run needs
 *	    more (a capture runs one test run per packet).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/if_ether.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>

#define TEST_RUN_LO_MTU		65536

/* The user pointers of union bpf_attr are plain pointers here. */
static inline void *u64_to_ptr(u64 v)
{
	return (void *)(uintptr_t)v;
}

static inline u64 ptr_to_u64(const void *p)
{
	return (u64)(uintptr_t)p;
}

/*
 * The kernel's bpf_test_timer stops the clock while the task is scheduled
 * out (bpf_test_timer_continue() around cond_resched()). The thread's CPU
 * clock is the userspace equivalent: time spent preempted on a loaded
 * machine is not charged to the program.
 */
static u64 test_run_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int bpf_test_run(struct bpf_prog *prog, struct xdp_buff *xdp, u32 repeat,
			u32 *retval, u32 *time)
{
	u64 time_start, time_spent;
	u32 i;

	if (!repeat)
		repeat = 1;
	time_start = test_run_ns();
	for (i = 0; i < repeat; i++)
		*retval = bpf_prog_run(prog, xdp);
	time_spent = (test_run_ns() - time_start) / repeat;
	*time = time_spent > UINT32_MAX ? UINT32_MAX : (u32)time_spent;
	return 0;
}

/* Bytes of @buf past @expected must be zero (kernel: bpf_check_uarg_tail_zero). */
static int bpf_check_uarg_tail_zero(const void *buf, size_t expected, size_t actual)
{
	const u8 *p = buf;
	size_t i;

	if (actual <= expected)
		return 0;
	for (i = expected; i < actual; i++)
		if (p[i])
			return -E2BIG;
	return 0;
}

/* @data: the caller's buffer of @max_size bytes (an on-stack xdp_md here). */
static void *bpf_ctx_init(const union bpf_attr *kattr, u32 max_size, void *data)
{
	const void *data_in = u64_to_ptr(kattr->test.ctx_in);
	void *data_out = u64_to_ptr(kattr->test.ctx_out);
	u32 size = kattr->test.ctx_size_in;
	int err;

	if (!data_in && !data_out)
		return NULL;
	memset(data, 0, max_size);
	if (data_in) {
		err = bpf_check_uarg_tail_zero(data_in, max_size, size);
		if (err)
			return ERR_PTR(err);
		memcpy(data, data_in, size < max_size ? size : max_size);
	}
	return data;
}

/*
 * The calling thread's test-run buffer. The key's destructor frees it when
 * a thread exits; test_run_buf_exit() frees the unloading thread's, whose
 * key destructors never run.
 */
static __thread void *test_run_buf;
static __thread size_t test_run_buf_size;
static pthread_key_t test_run_key;
static pthread_once_t test_run_once = PTHREAD_ONCE_INIT;
static bool test_run_key_ok;

static void test_run_key_init(void)
{
	test_run_key_ok = !pthread_key_create(&test_run_key, free);
}

__attribute__((destructor)) static void test_run_buf_exit(void)
{
	if (test_run_key_ok)
		pthread_setspecific(test_run_key, NULL);
	free(test_run_buf);
	test_run_buf = NULL;
	test_run_buf_size = 0;
}

/* @size zeroed bytes, valid until the thread's next test run. */
static void *test_run_buf_get(size_t size)
{
	void *p;

	if (size > test_run_buf_size) {
		pthread_once(&test_run_once, test_run_key_init);
		p = realloc(test_run_buf, size);
		if (!p)
			return NULL;
		test_run_buf = p;
		test_run_buf_size = size;
		if (test_run_key_ok)
			pthread_setspecific(test_run_key, p);
	}
	memset(test_run_buf, 0, size);
	return test_run_buf;
}

static void *bpf_test_init(const union bpf_attr *kattr, u32 user_size, u32 size,
			   u32 headroom, u32 tailroom)
{
	const void *data_in = u64_to_ptr(kattr->test.data_in);
	void *data;

	if (user_size > PAGE_SIZE - headroom - tailroom)
		return ERR_PTR(-EINVAL);
	if (!data_in)
		return ERR_PTR(-EFAULT);
	size = SKB_DATA_ALIGN(size);
	data = test_run_buf_get(size + headroom + tailroom);
	if (!data)
		return ERR_PTR(-ENOMEM);
	memcpy((u8 *)data + headroom, data_in, user_size);
	return data;
}

static int bpf_test_finish(const union bpf_attr *kattr, union bpf_attr *uattr,
			   const void *data, struct skb_shared_info *sinfo, u32 size,
			   u32 retval, u32 duration)
{
	void *data_out = u64_to_ptr(kattr->test.data_out);
	u32 copy_size = size;
	int err = 0;

	/* Clamp to the size hint; without one the whole buffer is copied. */
	if (kattr->test.data_size_out && copy_size > kattr->test.data_size_out) {
		copy_size = kattr->test.data_size_out;
		err = -ENOSPC;
	}
	if (data_out) {
		int len = sinfo ? (int)(copy_size - sinfo->xdp_frags_size) : (int)copy_size;
		int i, offset;

		if (len < 0)
			return -ENOSPC;
		memcpy(data_out, data, len);
		offset = len;
		for (i = 0; sinfo && i < sinfo->nr_frags; i++) {
			skb_frag_t *frag = &sinfo->frags[i];
			u32 data_len;

			if (offset >= (int)copy_size) {
				err = -ENOSPC;
				break;
			}
			data_len = copy_size - offset;
			if (data_len > skb_frag_size(frag))
				data_len = skb_frag_size(frag);
			memcpy((u8 *)data_out + offset, skb_frag_address(frag), data_len);
			offset += data_len;
		}
	}
	uattr->test.data_size_out = size;
	uattr->test.retval = retval;
	uattr->test.duration = duration;
	return err;
}

static int bpf_ctx_finish(const union bpf_attr *kattr, union bpf_attr *uattr,
			  const void *data, u32 size)
{
	void *data_out = u64_to_ptr(kattr->test.ctx_out);
	u32 copy_size = size;
	int err = 0;

	if (!data || !data_out)
		return 0;
	if (copy_size > kattr->test.ctx_size_out) {
		copy_size = kattr->test.ctx_size_out;
		err = -ENOSPC;
	}
	memcpy(data_out, data, copy_size);
	uattr->test.ctx_size_out = size;
	return err;
}

/*
 * Kernel: the ingress device must exist in the caller's netns and the queue
 * must be registered; here the dummy device takes the ifindex as given.
 */
static int xdp_convert_md_to_buff(struct xdp_md *xdp_md, struct xdp_buff *xdp)
{
	if (!xdp_md)
		return 0;
	if (xdp_md->egress_ifindex != 0)
		return -EINVAL;
	if (!xdp_md->ingress_ifindex && xdp_md->rx_queue_index)
		return -EINVAL;
	if (xdp_md->ingress_ifindex) {
		xdp->rxq->dev->ifindex = xdp_md->ingress_ifindex;
		xdp->rxq->queue_index = xdp_md->rx_queue_index;
	}
	xdp->data = (u8 *)xdp->data_meta + xdp_md->data;
	return 0;
}

static void xdp_convert_buff_to_md(struct xdp_buff *xdp, struct xdp_md *xdp_md)
{
	if (!xdp_md)
		return;
	xdp_md->data = (u8 *)xdp->data - (u8 *)xdp->data_meta;
	xdp_md->data_end = (u8 *)xdp->data_end - (u8 *)xdp->data_meta;
}

int bpf_prog_test_run_xdp(struct bpf_prog *prog, const union bpf_attr *kattr,
			  union bpf_attr *uattr, struct bpf_redirect_info *ri_out)
{
	u32 tailroom = SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
	u32 linear_sz = kattr->test.data_size_in, size;
	u32 headroom = XDP_PACKET_HEADROOM;
	u32 repeat = kattr->test.repeat;
	struct xdp_rxq_info rxq = {};
	struct skb_shared_info *sinfo;
	u32 retval = 0, duration = 0;
	struct bpf_redirect_info *ri;
	u32 max_linear_sz, meta_sz = 0;
	struct xdp_buff xdp = {};
	struct xdp_md ctx_buf;
	struct net_device dev;
	struct xdp_md *ctx;
	void *data;
	int i, ret = -EINVAL;

	if (prog->type != BPF_PROG_TYPE_XDP)
		return -EINVAL;
	if (prog->expected_attach_type == BPF_XDP_DEVMAP ||
	    prog->expected_attach_type == BPF_XDP_CPUMAP)
		return -EINVAL;
	if (kattr->test.flags & ~BPF_F_TEST_XDP_LIVE_FRAMES)
		return -EINVAL;
	if (kattr->test.flags & BPF_F_TEST_XDP_LIVE_FRAMES)
		return -EOPNOTSUPP;
	if (kattr->test.batch_size)
		return -EINVAL;

	ctx = bpf_ctx_init(kattr, sizeof(struct xdp_md), &ctx_buf);
	if (IS_ERR(ctx))
		return (int)PTR_ERR(ctx);
	if (ctx) {
		/* There can't be user provided data before the metadata. */
		if (ctx->data_meta || ctx->data_end > kattr->test.data_size_in ||
		    ctx->data > ctx->data_end)
			return -EINVAL;
		meta_sz = ctx->data;
		if (xdp_metalen_invalid(meta_sz) ||
		    meta_sz > headroom - sizeof(struct xdp_frame))
			return -EINVAL;
		/* The metadata is taken from the headroom; data_end (6.18+)
		 * says how much of the input is linear, the rest goes to frags. */
		headroom -= meta_sz;
		linear_sz = ctx->data_end;
	}

	max_linear_sz = PAGE_SIZE - headroom - tailroom;
	if (linear_sz > max_linear_sz)
		linear_sz = max_linear_sz;
	if (kattr->test.data_size_in - meta_sz < ETH_HLEN)
		return -EINVAL;
	data = bpf_test_init(kattr, linear_sz, max_linear_sz, headroom, tailroom);
	if (IS_ERR(data))
		return (int)PTR_ERR(data);

	/* The loopback device's rx queue 0 in the kernel. */
	memset(&dev, 0, sizeof(dev));
	strcpy(dev.name, "lo");
	dev.ifindex = 1;
	dev.flags = IFF_UP | IFF_LOOPBACK;
	dev.mtu = TEST_RUN_LO_MTU;
	dev.hard_header_len = ETH_HLEN;
	rxq.dev = &dev;
	rxq.queue_index = 0;
	rxq.mem.type = MEM_TYPE_PAGE_SHARED;
	rxq.frag_size = PAGE_SIZE;

	xdp_init_buff(&xdp, rxq.frag_size, &rxq);
	xdp_prepare_buff(&xdp, data, headroom, linear_sz, true);
	sinfo = xdp_get_shared_info_from_buff(&xdp);

	ret = xdp_convert_md_to_buff(ctx, &xdp);
	if (ret)
		return ret;
	if (dev.ifindex != 1) {
		snprintf(dev.name, sizeof(dev.name), "if%d", dev.ifindex);
		dev.flags = IFF_UP;
		dev.mtu = ETH_DATA_LEN;
	}

	size = linear_sz;
	if (unlikely(kattr->test.data_size_in > size)) {
		const u8 *data_in = u64_to_ptr(kattr->test.data_in);
		u32 done = size;

		while (done < kattr->test.data_size_in) {
			struct page *page;
			skb_frag_t *frag;
			u32 data_len;

			if (sinfo->nr_frags == MAX_SKB_FRAGS) {
				ret = -ENOMEM;
				goto out;
			}
			page = alloc_page(GFP_KERNEL);
			if (!page) {
				ret = -ENOMEM;
				goto out;
			}
			frag = &sinfo->frags[sinfo->nr_frags++];
			data_len = kattr->test.data_size_in - done;
			if (data_len > PAGE_SIZE)
				data_len = PAGE_SIZE;
			skb_frag_fill_page_desc(frag, page, 0, data_len);
			memcpy(page_address(page), data_in + done, data_len);
			sinfo->xdp_frags_size += data_len;
			done += data_len;
		}
		xdp_buff_set_frags_flag(&xdp);
	}

	/* A fresh redirect state, as the kernel's on-stack bpf_net_context. */
	ri = bpf_net_ctx_get_ri();
	memset(ri, 0, sizeof(*ri));
	ret = bpf_test_run(prog, &xdp, repeat, &retval, &duration);
	if (ri_out)
		*ri_out = *ri;
	memset(ri, 0, sizeof(*ri));
	xdp_convert_buff_to_md(&xdp, ctx);
	if (ret)
		goto out;

	size = (u32)((u8 *)xdp.data_end - (u8 *)xdp.data_meta) + sinfo->xdp_frags_size;
	ret = bpf_test_finish(kattr, uattr, xdp.data_meta, sinfo, size, retval, duration);
	if (!ret)
		ret = bpf_ctx_finish(kattr, uattr, ctx, sizeof(struct xdp_md));
out:
	for (i = 0; i < sinfo->nr_frags; i++)
		__free_page(skb_frag_page(&sinfo->frags[i]));
	return ret;
}

/* ---- public API ------------------------------------------------------------ */

UXDP_API int uxdp_bpf_prog_test_run(uint32_t prog_id, struct uxdp_bpf_test_run_opts *opts)
{
	struct bpf_redirect_info ri = {};
	struct bpf_prog *prog;
	union bpf_attr attr;
	int err;

	if (!opts || opts->sz < offsetof(struct uxdp_bpf_test_run_opts, redirect))
		return -EINVAL;
	if (opts->data_out && !opts->data_size_out)
		return -EINVAL;
	if (opts->ctx_out && !opts->ctx_size_out)
		return -EINVAL;
	prog = bpf_prog_get(prog_id);
	if (!prog)
		return -ENOENT;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_id;
	attr.test.data_in = ptr_to_u64(opts->data_in);
	attr.test.data_size_in = opts->data_size_in;
	attr.test.data_out = ptr_to_u64(opts->data_out);
	attr.test.data_size_out = opts->data_size_out;
	attr.test.ctx_in = ptr_to_u64(opts->ctx_in);
	attr.test.ctx_size_in = opts->ctx_size_in;
	attr.test.ctx_out = ptr_to_u64(opts->ctx_out);
	attr.test.ctx_size_out = opts->ctx_size_out;
	attr.test.repeat = opts->repeat;

	err = bpf_prog_test_run_xdp(prog, &attr, &attr, &ri);
	opts->data_size_out = attr.test.data_size_out;
	opts->ctx_size_out = attr.test.ctx_size_out;
	opts->retval = attr.test.retval;
	opts->duration = attr.test.duration;
	if (opts->sz >= offsetof(struct uxdp_bpf_test_run_opts, redirect) + sizeof(opts->redirect)) {
		memset(&opts->redirect, 0, sizeof(opts->redirect));
		if ((err == 0 || err == -ENOSPC) && opts->retval == XDP_REDIRECT) {
			opts->redirect.valid = true;
			if (ri.map_type == BPF_MAP_TYPE_UNSPEC && ri.map_id == INT_MAX) {
				opts->redirect.ifindex = (u32)ri.tgt_index;
			} else {
				opts->redirect.map_id = ri.map_id;
				opts->redirect.map_type = ri.map_type;
				opts->redirect.key = (u32)ri.tgt_index;
				opts->redirect.flags = ri.flags;
			}
		}
	}
	return err;
}
