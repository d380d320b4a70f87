// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp_ip_route_add() for both families: the same argument checks and
 * messages (a prefix that does not parse, an unknown type, a missing
 * device, a gateway of the wrong family, neither gateway nor device, a
 * gateway off every connected network), and a route that is accepted
 * shows in `route show` with its gateway and device.
 */
#include <errno.h>
#include <string.h>

#include <uxdp/uxdp_ip.h>
#include <uxdp/uxdp_link.h>

#include "uxdp_test.h"

static void setup(void)
{
	char err[256] = "";

	ck_assert_msg(uxdp_link_add("d0", "dummy", 0, NULL, err, sizeof(err)) > 0, "%s", err);
	ck_assert_int_eq(uxdp_ip_addr_add("d0", "198.18.0.1/24", err, sizeof(err)), 0);
	ck_assert_int_eq(uxdp_ip_addr_add("d0", "2001:2::1/64", err, sizeof(err)), 0);
}

static void teardown(void)
{
	uxdp_link_del_all();
	uxdp_ip_reset();
}

static void assert_refused(const char *prefix, const char *type, const char *via,
			   const char *dev, int want, const char *msg)
{
	char err[256] = "";
	int ret = uxdp_ip_route_add(prefix, type, via, dev, err, sizeof(err));

	ck_assert_msg(ret == want, "route add %s: %d, want %d (%s)", prefix, ret, want, err);
	ck_assert_msg(!strcmp(err, msg), "route add %s: '%s', want '%s'", prefix, err, msg);
}

START_TEST(test_refused)
{
	assert_refused("198.19.0.0/33", NULL, "198.18.0.2", NULL, -EINVAL,
		       "'198.19.0.0/33' is not a prefix (A.B.C.D/LEN or default)");
	assert_refused("2001:2:0:1::/129", NULL, "2001:2::2", NULL, -EINVAL,
		       "'2001:2:0:1::/129' is not a prefix (X:X::X/LEN or default)");
	assert_refused("198.19.0.0/24", "anycast", "198.18.0.2", NULL, -EINVAL,
		       "unknown route type 'anycast'");
	assert_refused("2001:2:0:1::/64", "anycast", "2001:2::2", NULL, -EINVAL,
		       "unknown route type 'anycast'");
	assert_refused("198.19.0.0/24", NULL, NULL, "nope0", -ENODEV,
		       "device 'nope0' does not exist");
	assert_refused("2001:2:0:1::/64", NULL, NULL, "nope0", -ENODEV,
		       "device 'nope0' does not exist");
	/* A family is chosen by the prefix or the gateway; the other must match it. */
	assert_refused("2001:2:0:1::/64", NULL, "198.18.0.2", NULL, -EINVAL,
		       "'198.18.0.2' is not an IPv6 address");
	assert_refused("198.19.0.0/24", NULL, "2001:2::2", NULL, -EINVAL,
		       "'198.19.0.0/24' is not a prefix (X:X::X/LEN or default)");
	assert_refused("198.19.0.0/24", NULL, NULL, NULL, -EINVAL,
		       "route add 198.19.0.0/24: needs via GW or dev NAME");
	assert_refused("2001:2:0:1::/64", NULL, NULL, NULL, -EINVAL,
		       "route add 2001:2:0:1::/64: needs via GW or dev NAME");
	assert_refused("198.19.0.0/24", NULL, "198.19.1.1", NULL, -ENETUNREACH,
		       "route add 198.19.0.0/24: gateway 198.19.1.1 is not on a connected network");
	assert_refused("2001:2:0:1::/64", NULL, "2001:2:0:2::1", "d0", -ENETUNREACH,
		       "route add 2001:2:0:1::/64: gateway 2001:2:0:2::1 is not on a connected "
		       "network of that device");
}
END_TEST

/* @type NULL for unicast; @via and @dev "" when absent. */
static bool route_shown(const char *type, const char *dst, unsigned int len, const char *via,
			const char *dev)
{
	struct uxdp_ip_route r = { .sz = sizeof(r) };

	for (int i = 0; !uxdp_ip_route_get(i, &r); i++)
		if (!strcmp(r.type, type ? type : "unicast") && !strcmp(r.dst, dst) &&
		    r.dst_len == len && !strcmp(r.gateway, via) && !strcmp(r.dev, dev))
			return true;
	return false;
}

START_TEST(test_added)
{
	char err[256] = "";

	ck_assert_int_eq(uxdp_ip_route_add("198.19.0.0/24", NULL, "198.18.0.2", NULL, err,
					   sizeof(err)), 0);
	ck_assert_int_eq(uxdp_ip_route_add("2001:2:0:1::/64", NULL, "2001:2::2", "d0", err,
					   sizeof(err)), 0);
	ck_assert_int_eq(uxdp_ip_route_add("default", "blackhole", NULL, NULL, err, sizeof(err)), 0);
	ck_assert_msg(route_shown(NULL, "198.19.0.0", 24, "198.18.0.2", "d0"), "IPv4 route missing");
	ck_assert_msg(route_shown(NULL, "2001:2:0:1::", 64, "2001:2::2", "d0"), "IPv6 route missing");
	ck_assert_msg(route_shown("blackhole", "0.0.0.0", 0, "", ""), "blackhole 0.0.0.0/0 missing");
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("ipv4_api");
	TCase *tc = tcase_create("route_add");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_added);
	suite_add_tcase(s, tc);
	return s;
}
