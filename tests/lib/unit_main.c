// SPDX-License-Identifier: GPL-2.0
/* Runs the suite of one unit test executable; exit 0 only if every test passed. */
#include <stdlib.h>

#include "uxdp_test.h"

int main(void)
{
	SRunner *sr = srunner_create(uxdp_test_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
