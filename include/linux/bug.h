/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BUG_ON/WARN_ON: what the kernel treats as a BUG is a programming error in
 * uxdp too. BUG_ON prints the condition, file and line and aborts, in every
 * build except -Db_ndebug=true (release benchmarks), where it compiles to a
 * branch hint only. WARN_ON_ONCE logs once and carries on.
 *
 * Kernel: include/asm-generic/bug.h
 */
#ifndef _UXDP_LINUX_BUG_H
#define _UXDP_LINUX_BUG_H

#include <linux/compiler.h>

void __noreturn_bug(const char *what, const char *file, int line, const char *func)
	__attribute__((noreturn, cold));
void __warn_once(const char *what, const char *file, int line, const char *func) __cold;

#ifdef NDEBUG
#define BUG_ON_MSG(cond, what)	do { (void)sizeof(cond); } while (0)
#else
#define BUG_ON_MSG(cond, what)						\
	do {								\
		if (unlikely(cond))					\
			__noreturn_bug(what, __FILE__, __LINE__, __func__); \
	} while (0)
#endif
#define BUG_ON(cond)	BUG_ON_MSG(cond, #cond)
#define BUG()		__noreturn_bug("BUG()", __FILE__, __LINE__, __func__)

#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (unlikely(__c) && !__warned) {				\
		__warned = true;					\
		__warn_once(#cond, __FILE__, __LINE__, __func__);	\
	}								\
	unlikely(__c);							\
})

#endif
