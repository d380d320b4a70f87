// SPDX-License-Identifier: GPL-2.0
/*
 * napi_fd: deferred transmit kicks run once per poll (at the outermost
 * end), idle NAPIs park after NAPI_FD_IDLE_POLLS empty polls unless
 * another generator is active, and a parked NAPI is scheduled again when
 * its fd becomes readable.
 */
#include <stdio.h>
#include <unistd.h>

#include "../../../../drivers/net/napi_fd.h"
#include "engine_test_util.h"
#include "uxdp_test.h"

static int kicks;

static void count_kick(struct napi_fd_kick *k)
{
	kicks++;
}

START_TEST(kick_deferred_once_per_poll)
{
	struct napi_fd_kick a = { count_kick }, b = { count_kick };

	ck_assert(!napi_fd_defer_kick(&a));	/* outside a poll: kick now */
	napi_fd_poll_begin();
	ck_assert(napi_fd_defer_kick(&a));
	ck_assert(napi_fd_defer_kick(&a));
	napi_fd_poll_begin();			/* nested */
	ck_assert(napi_fd_defer_kick(&b));
	napi_fd_poll_end();
	ck_assert_int_eq(kicks, 0);
	napi_fd_poll_end();
	ck_assert_int_eq(kicks, 2);
	napi_fd_poll_begin();
	napi_fd_poll_end();
	ck_assert_int_eq(kicks, 2);
}
END_TEST

static int polled;

static int test_poll(struct napi_struct *napi, int budget)
{
	polled++;
	napi_complete_done(napi, 0);
	return 0;
}

START_TEST(park_and_wake)
{
	struct napi_struct napi = { 0 };
	struct napi_fd nf = { .napi = &napi };
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	nf.fd = p[0];
	napi.poll = test_poll;
	napi.weight = NAPI_POLL_WEIGHT;
	ck_assert(!napi_fd_idle(&nf, 5));
	for (int i = 1; i < NAPI_FD_IDLE_POLLS; i++)
		ck_assert(!napi_fd_idle(&nf, 0));
	ck_assert(napi_fd_idle(&nf, 0));	/* parked */
	napi_fd_wait();				/* nothing to read: 1 ms, still parked */
	ck_assert(!net_rx_pending());
	ck_assert_int_eq(write(p[1], "x", 1), 1);
	napi_fd_wait();
	ck_assert(net_rx_pending());
	net_rx_action();
	ck_assert_int_eq(polled, 1);
	napi_fd_wait();				/* no longer parked */
	ck_assert(!net_rx_pending());
	close(p[0]);
	close(p[1]);
}
END_TEST

START_TEST(no_parking_while_a_generator_runs)
{
	struct napi_struct napi = { 0 };
	struct napi_fd nf = { .napi = &napi, .fd = -1 };
	char err[256], *argv[] = { "count", "1000" };

	ck_assert_msg(uxdp_link_add("g0", "gen", 2, argv, err, sizeof(err)) > 0, "%s", err);
	for (int i = 0; i < 4 * NAPI_FD_IDLE_POLLS; i++)
		ck_assert(!napi_fd_idle(&nf, 0));
	uxdp_link_del_all();
	for (int i = 1; i < NAPI_FD_IDLE_POLLS; i++)
		ck_assert(!napi_fd_idle(&nf, 0));
	ck_assert(napi_fd_idle(&nf, 0));
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("drivers/net/napi_fd");
	TCase *tc = tcase_create("napi_fd");

	tcase_add_test(tc, kick_deferred_once_per_poll);
	tcase_add_test(tc, park_and_wake);
	tcase_add_test(tc, no_parking_while_a_generator_runs);
	suite_add_tcase(s, tc);
	return s;
}
