// SPDX-License-Identifier: GPL-2.0
/*
 * Library logging and the BUG/WARN reporters. The library never writes to
 * stdout; messages go to the callback set by uxdp_set_print().
 *
 * Kernel: kernel/printk/printk.c (the idea only), lib/bug.c
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/bug.h>
#include <linux/printk.h>

static int default_print(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	if (level > UXDP_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static uxdp_print_fn_t print_fn = default_print;

uxdp_print_fn_t uxdp_set_print(uxdp_print_fn_t fn)
{
	uxdp_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

const char *uxdp_version(void)
{
	return UXDP_VERSION;
}

void uxdp_log(enum uxdp_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

void __noreturn_bug(const char *what, const char *file, int line, const char *func)
{
	fprintf(stderr, "uxdp: kernel BUG at %s:%d in %s(): %s\n", file, line, func, what);
	fflush(stderr);
	abort();
}

void __warn_once(const char *what, const char *file, int line, const char *func)
{
	uxdp_log(UXDP_WARN, "uxdp: WARNING at %s:%d in %s(): %s\n", file, line, func, what);
}
