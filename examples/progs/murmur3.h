/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MurmurHash3 x86_32 steps, in plain C so that xdp_hash.c (BPF) and its
 * native twin in tools/bench/bench_native.c compute the same thing.
 */
#ifndef _UXDP_EXAMPLES_MURMUR3_H
#define _UXDP_EXAMPLES_MURMUR3_H

static inline __attribute__((always_inline)) unsigned int murmur3_rotl32(unsigned int x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* One 4-byte block @k into @h. */
static inline __attribute__((always_inline)) unsigned int murmur3_round(unsigned int h,
									unsigned int k)
{
	k *= 0xcc9e2d51;
	k = murmur3_rotl32(k, 15) * 0x1b873593;
	return murmur3_rotl32(h ^ k, 13) * 5 + 0xe6546b64;
}

/* The finalisation over @len bytes hashed. */
static inline __attribute__((always_inline)) unsigned int murmur3_fmix(unsigned int h,
								       unsigned int len)
{
	h ^= len;
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

#define MURMUR3_SEED	0x9747b28c

#endif
