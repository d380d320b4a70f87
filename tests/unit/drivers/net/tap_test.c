// SPDX-License-Identifier: GPL-2.0
/*
 * tap: its arguments and errors, then, as root in a private network
 * namespace of the forked test (unshare), the kernel side: the interface
 * appears up under its name, a frame the kernel sends on it reaches XDP,
 * XDP_TX writes it back and the kernel receives it unchanged; a name held
 * by a non-tap interface is explained; the interface is gone after link del.
 */
#include <net/if.h>
#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_packet.h>

#include "engine_test_util.h"
#include "uxdp_test.h"

static int add(const char *name, const char *args, char *err, size_t errlen)
{
	return test_link_add("tap", name, args, err, errlen);
}

#define ck_assert_err(args, ret, text) ck_assert_link_err("tap", "t0", args, ret, text)

START_TEST(bad_arguments)
{
	ck_assert_err("queues", -EINVAL, "'queues' needs a value");
	ck_assert_err("queues 0", -EINVAL, "queues '0' out of range (1..16)");
	ck_assert_err("queues 99", -EINVAL, "queues '99' out of range");
	ck_assert_err("ifname abcdefghijklmnopq", -EINVAL, "not a valid interface name");
	ck_assert_err("ifname a/b", -EINVAL, "not a valid interface name");
	ck_assert_err("mode tun", -EINVAL, "unknown argument 'mode'");
	ck_assert_err("netns a/b", -EINVAL, "not a valid namespace name");
}
END_TEST

START_TEST(no_permission)
{
	/* The forked test process alone drops root. */
	if (geteuid() != 0 || setgid(65534) || setuid(65534)) {
		fprintf(stderr, "tap_test: not root: permission test skipped\n");
		return;
	}
	/* Refused at open (a 0600 /dev/net/tun) or at TUNSETIFF (0666). */
	if (access("/dev/net/tun", R_OK | W_OK))
		ck_assert_err("ifname uxput9", -EACCES, "permission denied (needs CAP_NET_ADMIN: run as root)");
	else
		ck_assert_err("ifname uxput9", -EPERM, "not permitted: needs CAP_NET_ADMIN (run as root)");
}
END_TEST

static bool private_netns(void)
{
	if (geteuid() != 0 || unshare(CLONE_NEWNET) || access("/dev/net/tun", R_OK | W_OK) ||
	    system("sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1")) {
		fprintf(stderr, "tap_test: not root, no unshare(CLONE_NEWNET) or no /dev/net/tun: skipped\n");
		return false;
	}
	return true;
}

START_TEST(name_taken)
{
	if (!private_netns())
		return;
	ck_assert_int_eq(system("ip link add uxpu0 type veth peer name uxpu1"), 0);
	ck_assert_err("ifname uxpu0", -EINVAL, "t0: 'uxpu0' exists and is not a single-queue tap");
	ck_assert_err("ifname uxpu0 netns uxp-no-such-ns", -ENOENT,
		      "t0: cannot enter network namespace 'uxp-no-such-ns'");
}
END_TEST

static bool if_up(const char *name)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	bool up;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	up = !ioctl(fd, SIOCGIFFLAGS, &ifr) && (ifr.ifr_flags & IFF_UP);
	close(fd);
	return up;
}

static void roundtrip(const char *args)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1, .duration_ns = 300000000ULL };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	unsigned char frame[100], back[256];
	struct test_prog p;
	char err[256];
	ssize_t n = -1;
	uint64_t ns;
	int fd;

	if (!private_netns())
		return;
	ck_assert_msg(add("t0", args, err, sizeof(err)) > 0, "%s", err);
	ck_assert_msg(if_up("uxput0"), "uxput0 missing or down");
	p = test_prog_load("xdp_action", XDP_TX);
	test_attach("t0", &p);
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
	ck_assert_int_ge(fd, 0);
	sll.sll_ifindex = if_nametoindex("uxput0");
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x88\xb5", 14);
	for (unsigned int i = 14; i < sizeof(frame); i++)
		frame[i] = (unsigned char)i;
	ck_assert_int_eq(send(fd, frame, sizeof(frame), 0), (ssize_t)sizeof(frame));
	ck_assert_int_eq(uxdp_run(&o, &ns), 0);
	for (int tries = 0; tries < 100; tries++) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);

		n = recvfrom(fd, back, sizeof(back), 0, (struct sockaddr *)&from, &fl);
		if (n >= 0 && from.sll_pkttype != PACKET_OUTGOING)
			break;
		if (n < 0)
			usleep(10000);
	}
	ck_assert_int_eq(uxdp_link_get_info(uxdp_link_ifindex("t0"), &li), 0);
	ck_assert_int_eq(li.rx_packets, 1);
	ck_assert_int_eq(li.xdp_tx, 1);
	ck_assert_int_eq(li.tx_packets, 1);
	ck_assert_int_eq(n, sizeof(frame));
	ck_assert_int_eq(memcmp(back, frame, sizeof(frame)), 0);
	close(fd);
	ck_assert_int_eq(uxdp_link_del("t0"), 0);
	ck_assert_int_eq(if_nametoindex("uxput0"), 0);
	uxdp_bpf_object_close(p.obj);
}

START_TEST(xdp_tx_through_tap)
{
	roundtrip("ifname uxput0");
}
END_TEST

START_TEST(xdp_tx_multiqueue)
{
	roundtrip("ifname uxput0 queues 2");
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/tap");
	TCase *tc = tcase_create("tap");

	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, name_taken);
	tcase_add_test(tc, no_permission);
	tcase_add_test(tc, xdp_tx_through_tap);
	tcase_add_test(tc, xdp_tx_multiqueue);
	suite_add_tcase(s, tc);
	return s;
}
