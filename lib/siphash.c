// SPDX-License-Identifier: GPL-2.0
/*
 * SipHash-2-4: two compression rounds per 8-byte word, four finalisation
 * rounds; the last word holds the length's low byte in its top byte.
 *
 * Kernel: lib/siphash.c siphash(), siphash_2u64() (x86-64: little endian)
 */
#include <string.h>

#include <linux/siphash.h>

static inline u64 rol64(u64 w, unsigned int s)
{
	return (w << s) | (w >> (64 - s));
}

#define SIPROUND(v0, v1, v2, v3) do {					\
	v0 += v1; v1 = rol64(v1, 13); v1 ^= v0; v0 = rol64(v0, 32);	\
	v2 += v3; v3 = rol64(v3, 16); v3 ^= v2;				\
	v0 += v3; v3 = rol64(v3, 21); v3 ^= v0;				\
	v2 += v1; v1 = rol64(v1, 17); v1 ^= v2; v2 = rol64(v2, 32);	\
} while (0)

u64 siphash(const void *data, size_t len, const siphash_key_t *key)
{
	u64 v0 = 0x736f6d6570736575ULL ^ key->key[0];
	u64 v1 = 0x646f72616e646f6dULL ^ key->key[1];
	u64 v2 = 0x6c7967656e657261ULL ^ key->key[0];
	u64 v3 = 0x7465646279746573ULL ^ key->key[1];
	const unsigned char *p = data;
	u64 b = (u64)len << 56, m;
	size_t left = len & 7, i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&m, p + i, 8);	/* little endian host */
		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	for (i = 0; i < left; i++)
		b |= (u64)p[len - left + i] << (8 * i);
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}
