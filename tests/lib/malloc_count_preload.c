// SPDX-License-Identifier: GPL-2.0
/*
 * malloc_count.h as an LD_PRELOAD module, for the "no allocation per
 * packet" checks of whole programs (`uxdp prog run` over a capture):
 * counts every heap allocation from load to exit and, at exit, writes the
 * count to the file named by MALLOC_COUNT_FILE. Two runs that differ only
 * in their number of packets must count the same. Not built with
 * AddressSanitizer, which owns malloc.
 *
 * Kernel: none (test plumbing)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "malloc_count.h"

__attribute__((constructor)) static void malloc_count_start(void)
{
	counting = true;
}

/* No stdio here: it would allocate while counting. */
__attribute__((destructor)) static void malloc_count_report(void)
{
	const char *path = getenv("MALLOC_COUNT_FILE");
	long n = __atomic_load_n(&mallocs, __ATOMIC_RELAXED);
	char buf[32], *p = buf + sizeof(buf);
	int fd;

	counting = false;
	if (!path)
		return;
	*--p = '\n';
	do
		*--p = (char)('0' + n % 10);
	while ((n /= 10) && p > buf);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	if (write(fd, p, (size_t)(buf + sizeof(buf) - p)) < 0)
		_exit(1);
	close(fd);
}
