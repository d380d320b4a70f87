/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting the whole process's heap allocations (libuxdp included) for the
 * "no allocation per packet" tests: malloc() and friends are interposed
 * and counted while `counting` is set. Include from exactly one file of a
 * test executable. Under AddressSanitizer (which owns malloc) nothing is
 * interposed and `mallocs` stays 0: the tests skip the check there.
 */
#ifndef _UXDP_TESTS_MALLOC_COUNT_H
#define _UXDP_TESTS_MALLOC_COUNT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

static long mallocs;
static bool counting;

#ifndef __SANITIZE_ADDRESS__
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

/* Count heap allocations of the whole process (libuxdp included). */
void *malloc(size_t n)
{
	if (counting)
		__atomic_fetch_add(&mallocs, 1, __ATOMIC_RELAXED);
	return __libc_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	if (counting)
		__atomic_fetch_add(&mallocs, 1, __ATOMIC_RELAXED);
	return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	if (counting)
		__atomic_fetch_add(&mallocs, 1, __ATOMIC_RELAXED);
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t al, size_t n)
{
	if (counting)
		__atomic_fetch_add(&mallocs, 1, __ATOMIC_RELAXED);
	return __libc_memalign(al, n);
}

int posix_memalign(void **p, size_t al, size_t n)
{
	if (counting)
		__atomic_fetch_add(&mallocs, 1, __ATOMIC_RELAXED);
	*p = __libc_memalign(al, n);
	return *p ? 0 : ENOMEM;
}
#endif

#endif
