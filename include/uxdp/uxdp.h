/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp public API: what tools/ may include. The library never prints; it
 * hands messages to the print callback set with uxdp_set_print().
 */
#ifndef _UXDP_UXDP_H
#define _UXDP_UXDP_H

#include <stdarg.h>
#include <stddef.h>

#define UXDP_API __attribute__((visibility("default")))

enum uxdp_print_level {
	UXDP_WARN,
	UXDP_INFO,
	UXDP_DEBUG,
};

typedef int (*uxdp_print_fn_t)(enum uxdp_print_level level, const char *fmt, va_list ap);

/**
 * uxdp_set_print() - route library messages
 * @fn: callback, or NULL to silence the library
 *
 * Return: the previous callback. The default prints warnings to stderr.
 */
UXDP_API uxdp_print_fn_t uxdp_set_print(uxdp_print_fn_t fn);

/**
 * uxdp_version() - library version string, e.g. "0.1.0"
 */
UXDP_API const char *uxdp_version(void);

/**
 * uxdp_errmsg() - why the last call that failed in this thread failed
 *
 * Every library function returns -errno (or NULL with errno set); the
 * sentence behind it ("xdp1.o: prog 'xdp_prog1': rejected by the checker
 * ..."), which also goes to the print callback, is kept per thread until
 * the next failure.
 *
 * Return: the message, or "" when nothing has failed yet in this thread.
 * Valid until the next library call of the thread.
 */
UXDP_API const char *uxdp_errmsg(void);

/**
 * uxdp_strerror() - libbpf_strerror() for uxdp's error codes
 * @err: a negative (or positive) errno the library returned
 * @buf: receives the text, always NUL-terminated
 * @size: bytes in @buf
 *
 * Knows the kernel-internal codes the bpf(2) commands return, which
 * strerror() does not (524 ENOTSUPP).
 *
 * Return: 0, or -EINVAL when @size is 0.
 */
UXDP_API int uxdp_strerror(int err, char *buf, size_t size);

/**
 * uxdp_mem_check() - are all datapath objects (slab) and pages back?
 * Meaningful once every device and object is gone (`uxdp run` ends so;
 * UXDP_LEAK_CHECK=1 makes it check).
 *
 * Return: 0, or -EBUSY with @why naming what is still in use.
 */
UXDP_API int uxdp_mem_check(char *why, size_t len);

#endif
