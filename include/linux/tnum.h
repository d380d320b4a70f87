/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tristate numbers: a value whose bits are each known 0, known 1 or
 * unknown (mask bit set; value bit then 0). The verifier tracks the
 * variable part of every scalar and pointer offset with one.
 *
 * Kernel: include/linux/tnum.h, kernel/bpf/tnum.c
 */
#ifndef _UXDP_LINUX_TNUM_H
#define _UXDP_LINUX_TNUM_H

#include <linux/types.h>

#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))
#endif

struct tnum {
	u64 value;
	u64 mask;
};

#define TNUM(_v, _m)	(struct tnum){ .value = (_v), .mask = (_m) }

extern const struct tnum tnum_unknown;

struct tnum tnum_const(u64 value);
/* Smallest tnum holding every value of [min, max]. */
struct tnum tnum_range(u64 min, u64 max);
struct tnum tnum_lshift(struct tnum a, u8 shift);
struct tnum tnum_rshift(struct tnum a, u8 shift);
/* Arithmetic shift of the low @insn_bitness bits (32 or 64). */
struct tnum tnum_arshift(struct tnum a, u8 min_shift, u8 insn_bitness);
struct tnum tnum_add(struct tnum a, struct tnum b);
struct tnum tnum_sub(struct tnum a, struct tnum b);
struct tnum tnum_neg(struct tnum a);
struct tnum tnum_and(struct tnum a, struct tnum b);
struct tnum tnum_or(struct tnum a, struct tnum b);
struct tnum tnum_xor(struct tnum a, struct tnum b);
struct tnum tnum_mul(struct tnum a, struct tnum b);
/* Bits known in either a or b (both must describe the same value). */
struct tnum tnum_intersect(struct tnum a, struct tnum b);
/* Every value of a or of b (and more where their known bits differ). */
struct tnum tnum_union(struct tnum a, struct tnum b);
/* Do a and b agree on the bits both know (may they share a value)? */
bool tnum_overlap(struct tnum a, struct tnum b);
/* The smallest member of t above z (t.value below it, the largest at or above it). */
u64 tnum_step(struct tnum t, u64 z);
/* Truncated to the low @size bytes. */
struct tnum tnum_cast(struct tnum a, u8 size);

static inline bool tnum_is_const(struct tnum a)
{
	return !a.mask;
}

static inline bool tnum_equals_const(struct tnum a, u64 b)
{
	return tnum_is_const(a) && a.value == b;
}

static inline bool tnum_is_unknown(struct tnum a)
{
	return !~a.mask;
}

bool tnum_is_aligned(struct tnum a, u64 size);
/* Is every value of b also a value of a? */
bool tnum_in(struct tnum a, struct tnum b);
/* Formats as the kernel's log: "(0x0; 0xff)" or the constant. */
int tnum_strn(char *str, size_t size, struct tnum a);
int tnum_sbin(char *str, size_t size, struct tnum a);

/* The low 32 bits, the high 32 cleared. */
struct tnum tnum_subreg(struct tnum a);
/* The high 32 bits, the low 32 cleared. */
struct tnum tnum_clear_subreg(struct tnum a);
/* The high 32 bits of reg with the low 32 bits of subreg. */
struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg);
struct tnum tnum_const_subreg(struct tnum a, u32 value);

static inline bool tnum_subreg_is_const(struct tnum a)
{
	return !(tnum_subreg(a)).mask;
}

#endif
