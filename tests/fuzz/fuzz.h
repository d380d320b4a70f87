/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libFuzzer entry points every harness in tests/fuzz/ defines, and the
 * helpers they share. A harness must not keep state between inputs that
 * changes what a later input does (replays must reproduce).
 *
 * Kernel: none (test infrastructure).
 */
#ifndef _UXDP_TESTS_FUZZ_H
#define _UXDP_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
/* Release what LLVMFuzzerInitialize() set up (replay's leak check). */
void fuzz_cleanup(void) __attribute__((weak));

/*
 * fuzz_bug() - an invariant the harness checks does not hold: report and
 * abort, so that libFuzzer saves the input and the replay test fails.
 */
#define fuzz_bug(fmt, ...)							\
	do {									\
		fprintf(stderr, "%s:%d: invariant: " fmt "\n", __FILE__, __LINE__, \
			##__VA_ARGS__);						\
		abort();							\
	} while (0)

#define fuzz_assert(cond, fmt, ...)						\
	do {									\
		if (!(cond))							\
			fuzz_bug("%s: " fmt, #cond, ##__VA_ARGS__);		\
	} while (0)

/* Bytes consumed from the front of the input, with 0 past its end. */
struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	uint16_t lo = fuzz_u8(in);

	return lo | (uint16_t)fuzz_u8(in) << 8;
}

static inline uint32_t fuzz_u32(struct fuzz_in *in)
{
	uint32_t lo = fuzz_u16(in);

	return lo | (uint32_t)fuzz_u16(in) << 16;
}

#endif
