// SPDX-License-Identifier: GPL-2.0
/* Runs the suite of one unit test executable; exit 0 only if every test passed. */
#include <stdlib.h>

#include "uxdp_test.h"

int main(void)
{
	SRunner *sr;
	int failed;

	/*
	 * Check's default per-test timeout is 4 s, too short for the
	 * randomised tests under ASan on a loaded 2-CPU machine; meson's own
	 * per-executable timeout stays the outer bound. Tests that need less
	 * or more set it with tcase_set_timeout().
	 */
	setenv("CK_DEFAULT_TIMEOUT", "60", 0);
	sr = srunner_create(uxdp_test_suite());

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
