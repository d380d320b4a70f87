// SPDX-License-Identifier: GPL-2.0
/*
 * afxdp: its arguments and the kernel-facing errors a user meets (missing
 * interface, queue out of range, zero-copy on a veth), then, as root in a
 * private network namespace of the forked test (unshare, gone with the
 * process), the datapath on a real veth: a frame injected at the far end
 * is steered by the kernel program into the AF_XDP socket, comes through
 * the rx ring into uxdp's XDP, XDP_TX puts it on the tx ring, and it
 * arrives back at the far end byte for byte; deleting the device leaves
 * no XDP program on the interface.
 */
#include <net/if.h>
#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_packet.h>

#include "engine_test_util.h"
#include "wire_test_util.h"
#include "uxdp_test.h"

static int add(const char *name, const char *args, char *err, size_t errlen)
{
	return test_link_add("afxdp", name, args, err, errlen);
}

#define ck_assert_err(args, ret, text) ck_assert_link_err("afxdp", "x0", args, ret, text)

START_TEST(bad_arguments)
{
	ck_assert_err("", -EINVAL, "'dev IFNAME' is required");
	ck_assert_err("queue 1", -EINVAL, "'dev IFNAME' is required");
	ck_assert_err("dev", -EINVAL, "'dev' needs a value");
	ck_assert_err("dev x speed 10", -EINVAL, "unknown argument 'speed'");
	ck_assert_err("dev x queues 0", -EINVAL, "queues '0' out of range (1..16)");
	ck_assert_err("dev x queues 17", -EINVAL, "queues '17' out of range");
	ck_assert_err("dev x queue two", -EINVAL, "queue 'two' is not a number");
	ck_assert_err("dev x mode fast", -EINVAL, "mode 'fast' unknown (auto|copy|zerocopy)");
	ck_assert_err("dev x xdpmode skb", -EINVAL, "xdpmode 'skb' unknown (native|auto|generic)");
	ck_assert_err("dev x mode zerocopy xdpmode generic", -EINVAL,
		      "mode zerocopy needs the driver's native XDP");
	ck_assert_err("dev abcdefghijklmnopq", -EINVAL, "not a valid interface name");
}
END_TEST

START_TEST(kernel_errors)
{
	ck_assert_err("dev uxxnosuch0", -ENODEV,
		      "x0: no interface 'uxxnosuch0' in this network namespace");
	ck_assert_err("dev uxxnosuch0", -ENODEV, "ip netns exec");
	/* lo has one rx queue in every namespace. */
	ck_assert_err("dev lo queue 5", -ERANGE, "x0: queue 5 out of range: lo has 1 rx queue");
	ck_assert_err("dev lo queues 2", -ERANGE, "x0: queues 0..1 out of range: lo has 1 rx queue");
}
END_TEST

/* A private namespace with a veth pair uxxu0 (uxdp's) ─ uxxu1 (ours). */
static bool private_veth(void)
{
	int fd;

	if (geteuid() != 0 || unshare(CLONE_NEWNET)) {
		fprintf(stderr, "afxdp_test: not root or no unshare(CLONE_NEWNET): datapath test skipped\n");
		return false;
	}
	fd = socket(AF_XDP, SOCK_RAW, 0);
	if (fd < 0) {
		fprintf(stderr, "afxdp_test: no AF_XDP sockets here: datapath test skipped\n");
		return false;
	}
	close(fd);
	/* No IPv6: its DAD/RS/MLD frames would reach uxdp too. */
	ck_assert_int_eq(system("sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
				"net.ipv6.conf.default.disable_ipv6=1 && "
				"ip link add uxxu0 type veth peer name uxxu1 && "
				"ip link set uxxu0 up && ip link set uxxu1 up"), 0);
	return true;
}

static bool xdp_attached(const char *ifname)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "ip link show dev %s | grep -q ' xdp'", ifname);
	return system(cmd) == 0;
}

START_TEST(zerocopy_on_veth)
{
	if (!private_veth())
		return;
	ck_assert_err("dev uxxu0 mode zerocopy", -EOPNOTSUPP,
		      "x0: uxxu0 has no zero-copy AF_XDP support");
	ck_assert_err("dev uxxu0 mode zerocopy", -EOPNOTSUPP, "use mode copy or auto");
	/* The error path took the kernel program away again. */
	ck_assert(!xdp_attached("uxxu0"));
}
END_TEST

static void xdp_tx_roundtrip(const char *args)
{
	struct uxdp_run_opts o = { .sz = sizeof(o), .workers = 1, .duration_ns = 300000000ULL };
	struct uxdp_link_info li = { .sz = sizeof(li) };
	unsigned char frame[128], back[256];
	struct test_prog p;
	char err[256];
	uint64_t ns;
	ssize_t n = -1;
	int fd;

	if (!private_veth())
		return;
	ck_assert_msg(add("x0", args, err, sizeof(err)) > 0, "%s", err);
	ck_assert(xdp_attached("uxxu0"));
	p = test_prog_load("xdp_action", XDP_TX);
	test_attach("x0", &p);
	fd = test_raw_socket("uxxu1");
	memset(frame, 0, sizeof(frame));
	memcpy(frame, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00", 14);
	for (unsigned int i = 20; i < sizeof(frame); i++)
		frame[i] = (unsigned char)i;
	ck_assert_int_eq(send(fd, frame, sizeof(frame), 0), (ssize_t)sizeof(frame));
	ck_assert_int_eq(uxdp_run(&o, &ns), 0);
	n = test_recv_incoming(fd, back, sizeof(back));
	ck_assert_int_eq(uxdp_link_get_info(uxdp_link_ifindex("x0"), &li), 0);
	ck_assert_int_eq(li.rx_packets, 1);
	ck_assert_int_eq(li.xdp_tx, 1);
	ck_assert_int_eq(li.tx_packets, 1);
	ck_assert_int_eq(n, sizeof(frame));
	ck_assert_int_eq(memcmp(back, frame, sizeof(frame)), 0);
	close(fd);
	ck_assert_int_eq(uxdp_link_del("x0"), 0);
	ck_assert(!xdp_attached("uxxu0"));
	uxdp_link_del_all();
	uxdp_bpf_object_close(p.obj);
}

START_TEST(xdp_tx_through_rings)
{
	xdp_tx_roundtrip("dev uxxu0 mode copy");
}
END_TEST

START_TEST(xdp_tx_through_rings_generic)
{
	xdp_tx_roundtrip("dev uxxu0 xdpmode generic");
}
END_TEST

START_TEST(xdp_tx_through_rings_obj)
{
	xdp_tx_roundtrip("dev uxxu0 prog " BPF_PROGS_DIR "/xsk_redirect.o");
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/afxdp");
	TCase *tc = tcase_create("afxdp");

	tcase_add_test(tc, bad_arguments);
	tcase_add_test(tc, kernel_errors);
	tcase_add_test(tc, zerocopy_on_veth);
	tcase_add_test(tc, xdp_tx_through_rings);
	tcase_add_test(tc, xdp_tx_through_rings_generic);
	tcase_add_test(tc, xdp_tx_through_rings_obj);
	suite_add_tcase(s, tc);
	return s;
}
