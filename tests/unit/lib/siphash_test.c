// SPDX-License-Identifier: GPL-2.0
/*
 * SipHash-2-4 against the reference vectors of the SipHash paper (key
 * 00..0f, message 00..len-1), and siphash_4u32() as the 16-byte string
 * of its words.
 */
#include <linux/siphash.h>

#include "uxdp_test.h"

static const siphash_key_t ref_key = { { 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL } };

static u64 ref_hash(size_t len)
{
	unsigned char msg[64] = { 0 };
	size_t i;

	for (i = 0; i < len; i++)
		msg[i] = (unsigned char)i;
	return siphash(msg, len, &ref_key);
}

START_TEST(test_reference_vectors)
{
	ck_assert_uint_eq(ref_hash(0), 0x726fdb47dd0e0e31ULL);
	ck_assert_uint_eq(ref_hash(15), 0xa129ca6149be45e5ULL);	/* the paper's example */
}
END_TEST

START_TEST(test_4u32)
{
	u32 w[4] = { 0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c };

	ck_assert_uint_eq(siphash_4u32(w[0], w[1], w[2], w[3], &ref_key), ref_hash(16));
	ck_assert_uint_ne(siphash_4u32(w[0], w[1], w[2], w[3] ^ 1, &ref_key), ref_hash(16));
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("lib/siphash");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_reference_vectors);
	tcase_add_test(tc, test_4u32);
	suite_add_tcase(s, tc);
	return s;
}
