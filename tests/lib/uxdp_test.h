/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by every unit test executable: each test file defines
 * uxdp_test_suite() and links tests/lib/unit_main.c, which runs the suite
 * with Check, one forked process per test.
 */
#ifndef _UXDP_TEST_H
#define _UXDP_TEST_H

#include <check.h>

Suite *uxdp_test_suite(void);

#endif
