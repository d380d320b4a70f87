/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Poisoning of memory that uxdp's own allocators hold but nobody owns
 * (free slab objects, free pages, idle page_pool pages), so that an
 * AddressSanitizer build catches use-after-free through them like KASAN does
 * in the kernel. Compiles to nothing without ASan.
 *
 * Kernel: include/linux/kasan.h kasan_poison() kasan_unpoison()
 * Differs: backed by the compiler's ASan runtime, not by shadow memory of our own.
 */
#ifndef _UXDP_LINUX_KASAN_H
#define _UXDP_LINUX_KASAN_H

#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define UXDP_KASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UXDP_KASAN 1
#endif
#endif

#ifdef UXDP_KASAN
#include <sanitizer/asan_interface.h>
static inline void kasan_poison(const void *addr, size_t size)
{
	ASAN_POISON_MEMORY_REGION(addr, size);
}

static inline void kasan_unpoison(const void *addr, size_t size)
{
	ASAN_UNPOISON_MEMORY_REGION(addr, size);
}
#else
static inline void kasan_poison(const void *addr, size_t size) { (void)addr; (void)size; }
static inline void kasan_unpoison(const void *addr, size_t size) { (void)addr; (void)size; }
#endif

#endif
