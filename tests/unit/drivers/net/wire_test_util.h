/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The far end of a driver's wire in its unit test (afpacket, afxdp): a raw
 * packet socket on the veth peer. Include after <net/if.h>,
 * <linux/if_packet.h> and <sys/socket.h> (as the tests do).
 */
#ifndef _UXDP_TESTS_WIRE_TEST_UTIL_H
#define _UXDP_TESTS_WIRE_TEST_UTIL_H

#include <unistd.h>

/* A non-blocking AF_PACKET socket bound to @ifname, all protocols. */
static inline int test_raw_socket(const char *ifname)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = if_nametoindex(ifname),
	};
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	return fd;
}

/*
 * The next frame @fd receives from the wire (our own sends show up first as
 * outgoing: skipped), waiting up to a second. Its length, or -1.
 */
static inline ssize_t test_recv_incoming(int fd, void *buf, size_t len)
{
	ssize_t n = -1;

	for (int tries = 0; tries < 100; tries++) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);

		n = recvfrom(fd, buf, len, 0, (struct sockaddr *)&from, &fl);
		if (n >= 0 && from.sll_pkttype != PACKET_OUTGOING)
			break;
		if (n < 0)
			usleep(10000);
	}
	return n;
}

#endif
