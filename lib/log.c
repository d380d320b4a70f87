// SPDX-License-Identifier: GPL-2.0
/*
 * Library logging and the BUG/WARN reporters. The library never writes to
 * stdout; messages go to the callback set by uxdp_set_print().
 *
 * Kernel: kernel/printk/printk.c (the idea only), lib/bug.c
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The last warning of this thread, what uxdp_errmsg() returns. */
static __thread char errmsg[1024];

const char *uxdp_errmsg(void)
{
	return errmsg;
}

void uxdp_errmsg_set(const char *msg)
{
	size_t n;

	snprintf(errmsg, sizeof(errmsg), "%s", msg);
	n = strlen(errmsg);
	while (n && errmsg[n - 1] == '\n')
		errmsg[--n] = '\0';
}

int uxdp_strerror(int err, char *buf, size_t size)
{
	if (!size)
		return -EINVAL;
	if (err < 0)
		err = -err;
	if (err == 524)		/* the kernel's ENOTSUPP, not in userspace errno.h */
		snprintf(buf, size, "Operation is not supported");
	else
		snprintf(buf, size, "%s", strerror(err));
	return 0;
}

void uxdp_log(enum uxdp_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (level == UXDP_WARN) {
		char msg[sizeof(errmsg)];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		uxdp_errmsg_set(msg);
	}
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
