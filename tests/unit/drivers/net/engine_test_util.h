/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the engine's unit tests: load a program of examples/progs,
 * make xdp_frames in page-pool memory, drive NAPI on the test thread.
 */
#ifndef _UXDP_TESTS_ENGINE_TEST_UTIL_H
#define _UXDP_TESTS_ENGINE_TEST_UTIL_H

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_link.h>

struct test_prog {
	struct uxdp_bpf_object *obj;
	int prog_id;
	int cfg_id;
	int cnt_id;
};

/* examples/progs/xdp_action.o program @name; cfg[0] = @action. */
static inline struct test_prog test_prog_load(const char *name, __u32 action)
{
	struct test_prog p = {};
	__u32 key = 0;

	p.obj = uxdp_bpf_object_open(BPF_PROGS_DIR "/xdp_action.o", NULL);
	ck_assert_msg(p.obj, "open xdp_action.o: %s", strerror(errno));
	p.prog_id = uxdp_bpf_object_find_prog(p.obj, name, NULL);
	ck_assert_int_gt(p.prog_id, 0);
	p.cfg_id = uxdp_bpf_object_find_map(p.obj, "cfg");
	p.cnt_id = uxdp_bpf_object_find_map(p.obj, "cnt");
	ck_assert_int_eq(uxdp_bpf_map_update_elem(p.cfg_id, &key, &action, 0), 0);
	return p;
}

static inline void test_prog_cfg(struct test_prog *p, __u32 key, __u32 value)
{
	ck_assert_int_eq(uxdp_bpf_map_update_elem(p->cfg_id, &key, &value, 0), 0);
}

/* uxdp_link_add() of @kind with @args split at spaces; the message in @err. */
static inline int test_link_add(const char *kind, const char *name, const char *args, char *err,
				size_t errlen)
{
	char buf[256], *argv[16];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", args);
	for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
		argv[argc++] = t;
	err[0] = 0;
	return uxdp_link_add(name, kind, argc, argv, err, errlen);
}

/* `link add NAME type KIND ARGS` fails with @ret, says @text, and leaves no device. */
#define ck_assert_link_err(kind, name, args, ret, text)					\
	do {										\
		char _e[256];								\
		int _r = test_link_add(kind, name, args, _e, sizeof(_e));		\
		ck_assert_msg(_r == (ret), "'%s': %d (%s)", args, _r, _e);		\
		ck_assert_msg(strstr(_e, text), "'%s': message '%s' lacks '%s'", args, _e, text); \
		ck_assert_int_lt(uxdp_link_ifindex(name), 0);				\
	} while (0)

static inline void test_attach(const char *dev, struct test_prog *p)
{
	char err[256] = "";
	int ret = uxdp_link_set_xdp(dev, p ? p->prog_id : 0, err, sizeof(err));

	ck_assert_msg(ret == 0, "attach to %s: %d %s", dev, ret, err);
}

static inline struct net_device *test_dev(const char *name)
{
	struct net_device *dev = dev_get_by_name(name);

	ck_assert_ptr_nonnull(dev);
	return dev;
}

static struct xdp_rxq_info test_rxq;

/* A @len-byte UDP/IPv4 frame to @dst's MAC in a page of @pool, as an xdp_frame. */
static inline struct xdp_frame *test_frame(struct page_pool *pool, const struct net_device *dst,
					   unsigned int len)
{
	struct page *page = page_pool_dev_alloc_pages(pool);
	struct xdp_frame *f;
	struct xdp_buff xdp;
	unsigned char *va;

	ck_assert_ptr_nonnull(page);
	va = page_address(page);
	memset(va + 256, 0, len);
	if (dst)
		memcpy(va + 256, dst->dev_addr, ETH_ALEN);
	va[256 + 6] = 0x02;
	va[256 + 12] = 0x08;	/* ETH_P_IP */
	va[256 + 14] = 0x45;
	test_rxq.mem.type = MEM_TYPE_PAGE_POOL;
	xdp_init_buff(&xdp, PAGE_SIZE, &test_rxq);
	xdp_prepare_buff(&xdp, va, 256, len, true);
	f = xdp_convert_buff_to_frame(&xdp);
	ck_assert_ptr_nonnull(f);
	return f;
}

static inline struct page_pool *test_pool(void)
{
	struct page_pool_params pp = { .order = 0, .pool_size = 1024 };
	struct page_pool *pool = page_pool_create(&pp);

	ck_assert(!IS_ERR(pool));
	return pool;
}

/* Poll this thread's NAPI list until idle (bounded). Returns total work. */
static inline int test_napi_drain(void)
{
	int total = 0;

	for (int i = 0; i < 100000 && net_rx_pending(); i++)
		total += net_rx_action();
	return total;
}

/*
 * The device's own drop counters agree with its drop reasons: rx_dropped,
 * tx_dropped, rx_otherhost_dropped and rx_nohandler as netdev_drop()
 * counted them (before a driver's ndo_get_stats64 folds in a peer's) equal
 * the sums of the reasons of each direction. Checked on every test_info(),
 * so on every drop path a test looks at.
 */
static inline void test_drop_dirs_check(const char *name)
{
	u64 want[NETDEV_DROP_DIR_NOHANDLER + 1] = { 0 }, got[NETDEV_DROP_DIR_NOHANDLER + 1] = { 0 };
	struct net_device *dev = test_dev(name);
	u64 d[NETDEV_DROP_MAX];

	dev_get_drop_stats(dev, d);
	for (int r = 0; r < NETDEV_DROP_MAX; r++)
		want[netdev_drop_reason_dir(r)] += d[r];
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct netdev_pcpu_stats *p = &dev->pcpu_stats[cpu];

		got[NETDEV_DROP_DIR_RX] += p->rx_dropped;
		got[NETDEV_DROP_DIR_TX] += p->tx_dropped;
		got[NETDEV_DROP_DIR_OTHERHOST] += p->rx_otherhost_dropped;
		got[NETDEV_DROP_DIR_NOHANDLER] += p->rx_nohandler;
	}
	for (int i = NETDEV_DROP_DIR_RX; i <= NETDEV_DROP_DIR_NOHANDLER; i++)
		ck_assert_msg(got[i] == want[i], "%s: drop counter %d is %llu, its reasons sum to %llu",
			      name, i, (unsigned long long)got[i], (unsigned long long)want[i]);
}

static inline struct uxdp_link_info test_info(const char *name)
{
	struct uxdp_link_info li = { .sz = sizeof(li) };

	ck_assert_int_eq(uxdp_link_get_info(uxdp_link_ifindex(name), &li), 0);
	test_drop_dirs_check(name);
	return li;
}

/* Drops of @name under the reason named @reason (core and driver rows). */
static inline u64 test_drop_name(const char *name, const char *reason)
{
	u64 d[NETDEV_DROP_MAX], sum = 0;

	dev_get_drop_stats(test_dev(name), d);
	for (int i = 0; i < NETDEV_DROP_MAX; i++)
		if (netdev_drop_reason_name(i) && !strcmp(netdev_drop_reason_name(i), reason))
			sum += d[i];
	return sum;
}

static inline u64 test_drop(const char *name, enum netdev_drop_reason r)
{
	return test_drop_name(name, netdev_drop_reason_name(r));
}

static inline void test_leak_check(struct page_pool *pool)
{
	char why[256];

	uxdp_link_del_all();
	page_pool_destroy(pool);
	ck_assert_int_eq(skb_live_count(), 0);
	ck_assert_msg(uxdp_mem_leak_check(why, sizeof(why)), "leak: %s", why);
}

#endif
