// SPDX-License-Identifier: GPL-2.0
/*
 * afpacket: its arguments and the errors a user meets (missing interface,
 * namespace, interface down), then, as root in a private network namespace
 * of the forked test (unshare, gone with the process), the datapath on a
 * real veth: a frame injected at the veth's far end comes through the rx
 * ring into XDP, XDP_TX sends it back out of the tx ring, and it arrives
 * at the far end byte for byte -- a VLAN tag the kernel took out of the
 * frame included; 22000 frames through that path without a heap
 * allocation after the warm-up; and a tx ring the kernel sends only part
 * of (send buffer full) still all sent during the run.
 */
#include <net/if.h>
#include <ifaddrs.h>
#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_packet.h>
#include <linux/if_link.h>
#include <linux/netdevice.h>

#include "engine_test_util.h"
#include "wire_test_util.h"
#include "uxdp_test.h"

static int add(const char *name, const char *args, char *err, size_t errlen)
{
	return test_link_add("afpacket", name, args, err, errlen);
}

#define ck_assert_err(args, ret, text) ck_assert_link_err("afpacket", "p0", args, ret, text)

START_TEST(bad_arguments)
{
	ck_assert_err("", -EINVAL, "'dev IFNAME' is required");
	ck_assert_err("queues 2", -EINVAL, "'dev IFNAME' is required");
	ck_assert_err("dev", -EINVAL, "'dev' needs a value");
	ck_assert_err("dev x speed 10", -EINVAL, "unknown argument 'speed'");
	ck_assert_err("dev x queues 0", -EINVAL, "queues '0' out of range (1..16)");
	ck_assert_err("dev x queues 17", -EINVAL, "queues '17' out of range");
	ck_assert_err("dev x queues two", -EINVAL, "queues 'two' is not a number");
	ck_assert_err("dev x queues -1", -EINVAL, "queues '-1' is not a number");
	ck_assert_err("dev x fanout spray", -EINVAL, "fanout 'spray' unknown (hash|lb|cpu|rollover|rnd|qm)");
	ck_assert_err("dev abcdefghijklmnopq", -EINVAL, "not a valid interface name");
	ck_assert_err("dev x netns a/b", -EINVAL, "not a valid namespace name");
}
END_TEST

START_TEST(kernel_errors)
{
	ck_assert_err("dev uxpnosuch0", -ENODEV,
		      "p0: no interface 'uxpnosuch0' in this network namespace");
	ck_assert_err("dev uxpnosuch0", -ENODEV, "ip netns exec NS uxdp");
	if (geteuid() == 0)
		ck_assert_err("dev lo netns uxp-no-such-ns", -ENOENT,
			      "p0: cannot enter network namespace 'uxp-no-such-ns'");
}
END_TEST

START_TEST(no_permission)
{
	/* The forked test process alone drops root. */
	if (geteuid() != 0 || setgid(65534) || setuid(65534)) {
		fprintf(stderr, "afpacket_test: not root: permission test skipped\n");
		return;
	}
	ck_assert_err("dev lo", -EPERM, "p0: AF_PACKET socket not permitted: needs CAP_NET_RAW (run as root)");
}
END_TEST

/* A private namespace with a veth pair uxpu0 (uxdp's) ─ uxpu1 (ours). */
static bool private_veth(void)
{
	if (geteuid() != 0 || unshare(CLONE_NEWNET)) {
		fprintf(stderr, "afpacket_test: not root or no unshare(CLONE_NEWNET): datapath test skipped\n");
		return false;
	}
	/* No IPv6: its DAD/RS/MLD frames would reach uxdp too. */
	ck_assert_int_eq(system("sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
				"net.ipv6.conf.default.disable_ipv6=1 && "
				"ip link add uxpu0 type veth peer name uxpu1 && "
				"ip link set uxpu0 up && ip link set uxpu1 up && "
				"ip link add uxpu2 type veth peer name uxpu3"), 0);
	return true;
}

START_TEST(interface_down)
{
	if (!private_veth())
		return;
	ck_assert_err("dev uxpu2", -ENETDOWN, "p0: interface 'uxpu2' is down: ip link set uxpu2 up");
}
END_TEST

/* p0 on uxpu0 running xdp_action's XDP_TX (in *@p); a raw socket on the peer uxpu1. */
static int p0_xdp_tx(struct test_prog *p)
{
	char err[256];

	ck_assert_msg(add("p0", "dev uxpu0", err, sizeof(err)) > 0, "%s", err);
	*p = test_prog_load("xdp_action", XDP_TX);
	test_attach("p0", p);
	return test_raw_socket("uxpu1");
}

static void xdp_tx_roundtrip(bool vlan)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1, .duration_ns = 300000000ULL };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	unsigned char frame[128], back[256];
	struct test_prog p;
	uint64_t ns;
	ssize_t n = -1;
	int fd;

	if (!private_veth())
		return;
	fd = p0_xdp_tx(&p);
	/* 02:..:01 -> 02:..:02, [802.1Q 100,] IPv4 ethertype, a recognisable payload */
	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	if (vlan)
		memcpy(frame + 12, "\x81\x00\x00\x64\x08\x00", 6);
	else
		memcpy(frame + 12, "\x08\x00", 2);
	for (unsigned int i = 20; i < sizeof(frame); i++)
		frame[i] = (unsigned char)i;
	ck_assert_int_eq(send(fd, frame, sizeof(frame), 0), (ssize_t)sizeof(frame));
	ck_assert_int_eq(uxdp_run(&o, &ns), 0);
	n = test_recv_incoming(fd, back, sizeof(back));
	ck_assert_int_eq(uxdp_link_get_info(uxdp_link_ifindex("p0"), &li), 0);
	ck_assert_int_eq(li.rx_packets, 1);
	ck_assert_int_eq(li.xdp_tx, 1);
	ck_assert_int_eq(li.tx_packets, 1);
	/* The kernel delivers the tag as metadata to a plain socket too: compare without it. */
	ck_assert_int_eq(n, sizeof(frame) - (vlan ? 4 : 0));
	ck_assert_int_eq(memcmp(back, frame, 12), 0);
	ck_assert_int_eq(memcmp(back + 12, frame + 12 + (vlan ? 4 : 0), n - 12), 0);
	if (vlan) {
		char names[32][48];
		uint64_t vals[32];
		int k, cnt = uxdp_link_get_driver_stats(uxdp_link_ifindex("p0"), names, vals, 32);

		for (k = 0; k < cnt && strcmp(names[k], "rx_vlan_restored"); k++)
			;
		ck_assert_int_lt(k, cnt);
		ck_assert_int_eq(vals[k], 1);
	}
	close(fd);
	uxdp_link_del_all();
	uxdp_bpf_object_close(p.obj);
}

START_TEST(xdp_tx_through_rings)
{
	xdp_tx_roundtrip(false);
}
END_TEST

START_TEST(xdp_tx_vlan_restored)
{
	xdp_tx_roundtrip(true);
}
END_TEST

#include "malloc_count.h"

/*
 * Send @n frames from @fd, polling @dev's queue as the kernel hands them
 * over, until @dev received @total in all or nothing came for 100 ms (at
 * most ~5 s). No ck_assert inside: Check allocates for every assertion.
 */
static u64 pump(struct net_device *dev, int fd, const void *frame, size_t len, int n, u64 total)
{
	struct rtnl_link_stats64 st;
	u64 last = 0;
	int quiet = 0;

	for (int loops = 0; loops < 5000; loops++) {
		for (int k = 0; k < 32 && n > 0; k++, n--)
			if (send(fd, frame, len, 0) != (ssize_t)len)
				break;
		dev_napi_schedule_all(dev);
		for (int i = 0; i < 1000 && net_rx_pending(); i++)
			net_rx_action();
		dev_get_stats(dev, &st);
		if (!n && (st.rx_packets >= total || (st.rx_packets == last && ++quiet > 100)))
			break;
		if (st.rx_packets != last)
			quiet = 0;
		last = st.rx_packets;
		if (n <= 0)
			usleep(1000);
	}
	dev_get_stats(dev, &st);
	return st.rx_packets;
}

/* rx_packets (or tx_packets) of kernel interface @name (getifaddrs: the current namespace). */
static u64 kernel_count(const char *name, bool tx)
{
	struct ifaddrs *ifa, *i;
	u64 n = 0;

	ck_assert_int_eq(getifaddrs(&ifa), 0);
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_PACKET && i->ifa_data &&
		    !strcmp(i->ifa_name, name))
			n = tx ? ((struct rtnl_link_stats *)i->ifa_data)->tx_packets :
				 ((struct rtnl_link_stats *)i->ifa_data)->rx_packets;
	freeifaddrs(ifa);
	return n;
}

START_TEST(no_malloc_per_frame)
{
	struct uxdp_link_info li = { .sz = sizeof(li) };
	unsigned char frame[64] = "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x88\xb5";
	struct test_prog p;
	struct net_device *dev;
	u64 rx;
	int fd;

	if (!private_veth())
		return;
	fd = p0_xdp_tx(&p);
	dev = test_dev("p0");
	pump(dev, fd, frame, sizeof(frame), 2000, 2000);	/* warm-up */
	mallocs = 0;
	counting = true;
	rx = pump(dev, fd, frame, sizeof(frame), 20000, 22000);
	counting = false;
#ifndef __SANITIZE_ADDRESS__
	ck_assert_msg(mallocs == 0, "%ld heap allocations for 20000 frames", mallocs);
#endif
	/*
	 * uxdp received exactly what the kernel delivered to uxpu0 (a loaded
	 * machine may drop some in veth's backlog, before uxdp), and most of it.
	 */
	ck_assert_int_eq(rx, kernel_count("uxpu0", false));
	ck_assert_int_ge(rx, 20000);
	/* every frame received went back out, or was dropped for a full tx ring, counted */
	ck_assert_int_eq(uxdp_link_get_info(uxdp_link_ifindex("p0"), &li), 0);
	ck_assert_int_eq(li.xdp_tx, rx);
	ck_assert_int_eq(li.tx_packets + test_drop("p0", NETDEV_DROP_XDP_TX_ERR), rx);
	close(fd);
	uxdp_link_del_all();
	uxdp_bpf_object_close(p.obj);
}
END_TEST

/* @name's value in p0's driver stats (-1: no such counter). */
static long long p0_driver_stat(const char *name)
{
	char names[32][48];
	uint64_t vals[32];
	int cnt = uxdp_link_get_driver_stats(uxdp_link_ifindex("p0"), names, vals, 32);

	for (int k = 0; k < cnt; k++)
		if (!strcmp(names[k], name))
			return (long long)vals[k];
	return -1;
}

/*
 * A send() that sends only a part of the tx ring: the socket's send buffer
 * is full while the skbs before wait at the peer (here: uxpu1 hands its
 * frames to another CPU by RPS, and uxdp's socket gets a tiny SO_SNDBUF).
 * The kernel takes the slots up to there, says "sent" and leaves the rest
 * SEND_REQUEST; the driver must send those too, during the run. Every
 * frame uxdp counts as sent must have left uxpu0 when the run ends.
 */
START_TEST(tx_ring_partial_send)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1, .duration_ns = 300000000ULL };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	unsigned char frame[1000] = "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x88\xb5";
	unsigned int ifindex;
	struct test_prog p;
	int fd, shrunk = 0, one = 1;
	uint64_t ns;
	FILE *f;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "afpacket_test: one CPU: partial send test skipped\n");
		return;
	}
	if (!private_veth())
		return;
	/* This namespace's /sys (as ip netns exec has it), to steer uxpu1's rx to CPU 1. */
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL)) {
		fprintf(stderr, "afpacket_test: cannot mount sysfs privately: partial send test skipped\n");
		return;
	}
	f = fopen("/sys/class/net/uxpu1/queues/rx-0/rps_cpus", "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fprintf(f, "2\n"), 0);
	ck_assert_int_eq(fclose(f), 0);
	fd = p0_xdp_tx(&p);
	/* uxdp's socket on uxpu0: a send buffer of a few frames */
	ifindex = if_nametoindex("uxpu0");
	for (int k = 0; k < 1024; k++) {
		struct sockaddr_ll sll;
		socklen_t len = sizeof(sll);
		int dom;
		socklen_t dl = sizeof(dom);

		if (k == fd || getsockopt(k, SOL_SOCKET, SO_DOMAIN, &dom, &dl) || dom != AF_PACKET ||
		    getsockname(k, (struct sockaddr *)&sll, &len) || sll.sll_ifindex != (int)ifindex)
			continue;
		ck_assert_int_eq(setsockopt(k, SOL_SOCKET, SO_SNDBUF, &one, sizeof(one)), 0);
		shrunk++;
	}
	ck_assert_int_eq(shrunk, 1);
	for (int k = 0; k < 300; k++)
		ck_assert_int_eq(send(fd, frame, sizeof(frame), 0), (ssize_t)sizeof(frame));
	ck_assert_int_eq(uxdp_run(&o, &ns), 0);
	ck_assert_int_eq(uxdp_link_get_info(uxdp_link_ifindex("p0"), &li), 0);
	ck_assert_int_eq(li.rx_packets, 300);
	ck_assert_int_eq(li.xdp_tx, 300);
	ck_assert_msg(li.tx_packets + test_drop("p0", NETDEV_DROP_XDP_TX_ERR) == 300,
		      "tx %llu + tx ring full %llu != 300", (unsigned long long)li.tx_packets,
		      (unsigned long long)test_drop("p0", NETDEV_DROP_XDP_TX_ERR));
	/* the point: what uxdp counts as sent did leave, and the kernel did push back */
	ck_assert_msg(kernel_count("uxpu0", true) == li.tx_packets,
		      "uxdp sent %llu, uxpu0 transmitted %llu (send()s that left slots: %lld)",
		      (unsigned long long)li.tx_packets, (unsigned long long)kernel_count("uxpu0", true),
		      p0_driver_stat("tx_kick_retries"));
	fprintf(stderr, "afpacket_test: partial send: %lld send()s left slots queued, all %llu sent\n",
		p0_driver_stat("tx_kick_retries"), (unsigned long long)li.tx_packets);
	close(fd);
	uxdp_link_del_all();
	uxdp_bpf_object_close(p.obj);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/afpacket");
	TCase *tc = tcase_create("afpacket");

	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, kernel_errors);
	tcase_add_test(tc, no_permission);
	tcase_add_test(tc, interface_down);
	tcase_add_test(tc, xdp_tx_through_rings);
	tcase_add_test(tc, xdp_tx_vlan_restored);
	tcase_add_test(tc, no_malloc_per_frame);
	tcase_add_test(tc, tx_ring_partial_send);
	suite_add_tcase(s, tc);
	return s;
}
