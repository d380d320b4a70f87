/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SipHash-2-4 (Aumasson and Bernstein): a keyed 64-bit PRF over a byte
 * string, the words read little endian. Kernel: include/linux/siphash.h
 */
#ifndef _UXDP_LINUX_SIPHASH_H
#define _UXDP_LINUX_SIPHASH_H

#include <stddef.h>

#include <linux/types.h>

typedef struct {
	u64 key[2];
} siphash_key_t;

u64 siphash(const void *data, size_t len, const siphash_key_t *key);

/* siphash() of the 16 bytes first..forth (each little endian) */
static inline u64 siphash_4u32(u32 first, u32 second, u32 third, u32 forth,
			       const siphash_key_t *key)
{
	u32 w[4] = { first, second, third, forth };

	return siphash(w, sizeof(w), key);
}

#endif
