// SPDX-License-Identifier: GPL-2.0
/*
 * Scalar value tracking of the verifier: a register's value is described
 * by a tnum (var_off) and by signed/unsigned, 64/32-bit ranges, and this
 * file keeps the nine consistent, computes them through ALU instructions
 * and narrows them on both sides of a conditional jump.
 *
 * Kernel: kernel/bpf/verifier.c __mark_reg_*(), __update_reg_bounds(),
 *	   __reg_deduce_bounds(), __reg_bound_offset(), reg_bounds_sync(),
 *	   reg_bounds_sanity_check(), coerce_reg_to_size{,_sx}(),
 *	   coerce_subreg_to_size_sx(), adjust_scalar_min_max_vals() with the
 *	   scalar{32,}_min_max_*() helpers, is_scalar_branch_taken(),
 *	   regs_refine_cond_op(), reg_set_min_max(), range_within(),
 *	   print_reg_state() / print_scalar_ranges(), as in Linux 6.18.44 (the
 *	   stable series: tnum_overlap() decides JEQ/JNE, a range meeting
 *	   var_off in one value makes it a constant, the s32/u32 sign-crossing
 *	   deduction, the JSET false branch rebuilds the ranges from var_off,
 *	   << 32 keeps negative s32 bounds). Checked against the running
 *	   kernel's verifier log, register by register.
 * Differs: no env: __mark_reg_unknown() and __mark_reg_const_zero() leave
 *	    precise false (the kernel sets it when not bpf_capable); no
 *	    Spectre sanitation of the ALU ops; reg_bounds_sane() is the
 *	    sanity check without its log line; bpf_reg_str() writes a buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/compiler.h>
#include <linux/tnum.h>

#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX		((u64)~0ULL)
#endif
#ifndef S32_MAX
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#endif
#ifndef S64_MAX
#define S64_MAX		((s64)(U64_MAX >> 1))
#define S64_MIN		((s64)(-S64_MAX - 1))
#endif
#define S8_MIN		(-128)
#define S8_MAX		127
#define S16_MIN		(-32768)
#define S16_MAX		32767

#define rb_swap(a, b)	do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)

/* ---- marking ------------------------------------------------------------ */

/* The eight bounds and var_off of the constant @imm; nothing else. */
static void ___mark_reg_known(struct bpf_reg_state *reg, u64 imm)
{
	reg->var_off = tnum_const(imm);
	reg->smin_value = (s64)imm;
	reg->smax_value = (s64)imm;
	reg->umin_value = imm;
	reg->umax_value = imm;
	reg->s32_min_value = (s32)imm;
	reg->s32_max_value = (s32)imm;
	reg->u32_min_value = (u32)imm;
	reg->u32_max_value = (u32)imm;
}

void __mark_reg_known(struct bpf_reg_state *reg, u64 imm)
{
	/* everything between type and var_off: off, range, map_ptr ... */
	memset((u8 *)reg + sizeof(reg->type), 0,
	       offsetof(struct bpf_reg_state, var_off) - sizeof(reg->type));
	reg->id = 0;
	reg->ref_obj_id = 0;
	___mark_reg_known(reg, imm);
}

static void __mark_reg32_known(struct bpf_reg_state *reg, u64 imm)
{
	reg->var_off = tnum_const_subreg(reg->var_off, (u32)imm);
	reg->s32_min_value = (s32)imm;
	reg->s32_max_value = (s32)imm;
	reg->u32_min_value = (u32)imm;
	reg->u32_max_value = (u32)imm;
}

void __mark_reg_known_zero(struct bpf_reg_state *reg)
{
	__mark_reg_known(reg, 0);
}

void __mark_reg_const_zero(struct bpf_reg_state *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = SCALAR_VALUE;
	___mark_reg_known(reg, 0);
}

void __mark_reg64_unbounded(struct bpf_reg_state *reg)
{
	reg->smin_value = S64_MIN;
	reg->smax_value = S64_MAX;
	reg->umin_value = 0;
	reg->umax_value = U64_MAX;
}

void __mark_reg32_unbounded(struct bpf_reg_state *reg)
{
	reg->s32_min_value = S32_MIN;
	reg->s32_max_value = S32_MAX;
	reg->u32_min_value = 0;
	reg->u32_max_value = U32_MAX;
}

void __mark_reg_unbounded(struct bpf_reg_state *reg)
{
	__mark_reg64_unbounded(reg);
	__mark_reg32_unbounded(reg);
}

void __mark_reg_unknown(struct bpf_reg_state *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = SCALAR_VALUE;
	reg->var_off = tnum_unknown;
	__mark_reg_unbounded(reg);
}

/* ---- keeping the nine views consistent ----------------------------------- */

static void __update_reg32_bounds(struct bpf_reg_state *reg)
{
	struct tnum var32_off = tnum_subreg(reg->var_off);

	/* smallest: sign bit set if it may be, other bits at their minimum */
	reg->s32_min_value = max_t(s32, reg->s32_min_value,
				   (s32)(var32_off.value | (var32_off.mask & (u32)S32_MIN)));
	/* largest: sign bit clear if it may be, other bits at their maximum */
	reg->s32_max_value = min_t(s32, reg->s32_max_value,
				   (s32)(var32_off.value | (var32_off.mask & S32_MAX)));
	reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)var32_off.value);
	reg->u32_max_value = min_t(u32, reg->u32_max_value,
				   (u32)(var32_off.value | var32_off.mask));
}

static void __update_reg64_bounds(struct bpf_reg_state *reg)
{
	u64 next, tmax = reg->var_off.value | reg->var_off.mask;
	bool umin_in;

	reg->smin_value = max_t(s64, reg->smin_value,
				(s64)(reg->var_off.value | (reg->var_off.mask & (u64)S64_MIN)));
	reg->smax_value = min_t(s64, reg->smax_value,
				(s64)(reg->var_off.value | (reg->var_off.mask & S64_MAX)));
	reg->umin_value = max_t(u64, reg->umin_value, reg->var_off.value);
	reg->umax_value = min_t(u64, reg->umax_value, tmax);

	/* [umin, umax] holding a single member of var_off: that constant */
	next = tnum_step(reg->var_off, reg->umin_value);
	umin_in = (reg->umin_value & ~reg->var_off.mask) == reg->var_off.value;
	if (umin_in && next > reg->umax_value)
		___mark_reg_known(reg, reg->umin_value);
	else if (!umin_in && next == tmax)
		___mark_reg_known(reg, tmax);
	else if (!umin_in && next <= reg->umax_value &&
		 tnum_step(reg->var_off, next) > reg->umax_value)
		___mark_reg_known(reg, next);
}

void __update_reg_bounds(struct bpf_reg_state *reg)
{
	__update_reg32_bounds(reg);
	__update_reg64_bounds(reg);
}

/* 32-bit bounds from the 64-bit ones, and s32 <-> u32. */
static void __reg32_deduce_bounds(struct bpf_reg_state *reg)
{
	/*
	 * All of [umin, umax] shares its upper 32 bits: the low halves run
	 * from (u32)umin to (u32)umax without wrapping.
	 */
	if ((reg->umin_value >> 32) == (reg->umax_value >> 32)) {
		reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->umin_value);
		reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->umax_value);
		if ((s32)reg->umin_value <= (s32)reg->umax_value) {
			reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->umin_value);
			reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->umax_value);
		}
	}
	if ((reg->smin_value >> 32) == (reg->smax_value >> 32)) {
		if ((u32)reg->smin_value <= (u32)reg->smax_value) {
			reg->u32_min_value = max_t(u32, reg->u32_min_value, (u32)reg->smin_value);
			reg->u32_max_value = min_t(u32, reg->u32_max_value, (u32)reg->smax_value);
		}
		if ((s32)reg->smin_value <= (s32)reg->smax_value) {
			reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->smin_value);
			reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->smax_value);
		}
	}
	/*
	 * The upper halves are two consecutive numbers and the low halves go
	 * from negative to non-negative: in s32 the low halves still form
	 * one range, e.g. [-1, 1] in s64 is [-1, 1] in s32.
	 */
	if ((u32)(reg->umin_value >> 32) + 1 == (u32)(reg->umax_value >> 32) &&
	    (s32)reg->umin_value < 0 && (s32)reg->umax_value >= 0) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->umin_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->umax_value);
	}
	if ((u32)(reg->smin_value >> 32) + 1 == (u32)(reg->smax_value >> 32) &&
	    (s32)reg->smin_value < 0 && (s32)reg->smax_value >= 0) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->smin_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->smax_value);
	}
	/* a u32 range on one side of the sign bit is the same s32 range */
	if ((s32)reg->u32_min_value <= (s32)reg->u32_max_value) {
		reg->s32_min_value = max_t(s32, reg->s32_min_value, (s32)reg->u32_min_value);
		reg->s32_max_value = min_t(s32, reg->s32_max_value, (s32)reg->u32_max_value);
	}
	/* and an s32 range not crossing the sign boundary the same u32 one */
	if ((u32)reg->s32_min_value <= (u32)reg->s32_max_value) {
		reg->u32_min_value = max_t(u32, (u32)reg->s32_min_value, reg->u32_min_value);
		reg->u32_max_value = min_t(u32, (u32)reg->s32_max_value, reg->u32_max_value);
	} else {
		/*
		 * The s32 range wraps in u32 terms: [s32_min, U32_MAX] and
		 * [0, s32_max]; as in __reg64_deduce_bounds(), a u32 range
		 * meeting only one piece lies in that piece.
		 */
		if (reg->u32_max_value < (u32)reg->s32_min_value) {
			reg->s32_min_value = (s32)reg->u32_min_value;
			reg->u32_max_value = min_t(u32, reg->u32_max_value,
						   (u32)reg->s32_max_value);
		} else if ((u32)reg->s32_max_value < reg->u32_min_value) {
			reg->s32_max_value = (s32)reg->u32_max_value;
			reg->u32_min_value = max_t(u32, reg->u32_min_value,
						   (u32)reg->s32_min_value);
		}
	}
}

/* s64 <-> u64. */
static void __reg64_deduce_bounds(struct bpf_reg_state *reg)
{
	/* a u64 range within one half of the space is a valid s64 range */
	if ((s64)reg->umin_value <= (s64)reg->umax_value) {
		reg->smin_value = max_t(s64, reg->smin_value, (s64)reg->umin_value);
		reg->smax_value = min_t(s64, reg->smax_value, (s64)reg->umax_value);
	}
	if ((u64)reg->smin_value <= (u64)reg->smax_value) {
		reg->umin_value = max_t(u64, (u64)reg->smin_value, reg->umin_value);
		reg->umax_value = min_t(u64, (u64)reg->smax_value, reg->umax_value);
	} else {
		/*
		 * The s64 range wraps in u64 terms: [smin, U64_MAX] and
		 * [0, smax]. A u64 range meeting only one of the two pieces
		 * lies in that piece.
		 */
		if (reg->umax_value < (u64)reg->smin_value) {
			/* only [0, smax] */
			reg->smin_value = (s64)reg->umin_value;
			reg->umax_value = min_t(u64, reg->umax_value, (u64)reg->smax_value);
		} else if ((u64)reg->smax_value < reg->umin_value) {
			/* only [smin, U64_MAX] */
			reg->smax_value = (s64)reg->umax_value;
			reg->umin_value = max_t(u64, reg->umin_value, (u64)reg->smin_value);
		}
	}
}

/* 64-bit bounds from the 32-bit ones. */
static void __reg_deduce_mixed_bounds(struct bpf_reg_state *reg)
{
	u64 new_umin, new_umax;
	s64 new_smin, new_smax;

	/*
	 * Put the u32 bounds into the low halves of the 64-bit bounds: the
	 * smallest member has at least u32_min there, the largest at most
	 * u32_max, and the result is still a valid range.
	 */
	new_umin = (reg->umin_value & ~0xffffffffULL) | reg->u32_min_value;
	new_umax = (reg->umax_value & ~0xffffffffULL) | reg->u32_max_value;
	reg->umin_value = max_t(u64, reg->umin_value, new_umin);
	reg->umax_value = min_t(u64, reg->umax_value, new_umax);
	new_smin = (s64)(((u64)reg->smin_value & ~0xffffffffULL) | reg->u32_min_value);
	new_smax = (s64)(((u64)reg->smax_value & ~0xffffffffULL) | reg->u32_max_value);
	reg->smin_value = max_t(s64, reg->smin_value, new_smin);
	reg->smax_value = min_t(s64, reg->smax_value, new_smax);

	/*
	 * A value in [(s64)S32_MIN, S32_MAX] with a non-negative low half
	 * cannot have all-ones upper bits (it would be below S32_MIN), so it
	 * is the zero-extended s32 range (the case after a sign-extending
	 * load).
	 */
	if (reg->s32_min_value >= 0 && reg->smin_value >= S32_MIN && reg->smax_value <= S32_MAX) {
		reg->smin_value = reg->s32_min_value;
		reg->smax_value = reg->s32_max_value;
		reg->umin_value = (u64)reg->s32_min_value;
		reg->umax_value = (u64)reg->s32_max_value;
		reg->var_off = tnum_intersect(reg->var_off,
					      tnum_range(reg->smin_value, reg->smax_value));
	}
}

static void __reg_deduce_bounds(struct bpf_reg_state *reg)
{
	__reg32_deduce_bounds(reg);
	__reg64_deduce_bounds(reg);
	__reg_deduce_mixed_bounds(reg);
}

/* var_off from the unsigned ranges. */
static void __reg_bound_offset(struct bpf_reg_state *reg)
{
	struct tnum var64_off = tnum_intersect(reg->var_off,
					       tnum_range(reg->umin_value, reg->umax_value));
	struct tnum var32_off = tnum_intersect(tnum_subreg(var64_off),
					       tnum_range(reg->u32_min_value,
							  reg->u32_max_value));

	reg->var_off = tnum_or(tnum_clear_subreg(var64_off), var32_off);
}

void reg_bounds_sync(struct bpf_reg_state *reg)
{
	/* bounds from var_off */
	__update_reg_bounds(reg);
	/* the views from one another; three rounds as the kernel */
	__reg_deduce_bounds(reg);
	__reg_deduce_bounds(reg);
	__reg_deduce_bounds(reg);
	/* var_off from the bounds */
	__reg_bound_offset(reg);
	/* and once more the bounds from the sharper var_off */
	__update_reg_bounds(reg);
}

bool reg_bounds_sane(const struct bpf_reg_state *reg)
{
	if (reg->umin_value > reg->umax_value || reg->smin_value > reg->smax_value ||
	    reg->u32_min_value > reg->u32_max_value || reg->s32_min_value > reg->s32_max_value)
		return false;
	if (tnum_is_const(reg->var_off)) {
		u64 uval = reg->var_off.value;
		s64 sval = (s64)uval;

		if (reg->umin_value != uval || reg->umax_value != uval ||
		    reg->smin_value != sval || reg->smax_value != sval)
			return false;
	}
	if (tnum_subreg_is_const(reg->var_off)) {
		u32 uval32 = (u32)tnum_subreg(reg->var_off).value;
		s32 sval32 = (s32)uval32;

		if (reg->u32_min_value != uval32 || reg->u32_max_value != uval32 ||
		    reg->s32_min_value != sval32 || reg->s32_max_value != sval32)
			return false;
	}
	return true;
}

void __mark_reg_s32_range(struct bpf_reg_state *reg, s32 smin, s32 smax)
{
	reg->s32_min_value = max_t(s32, reg->s32_min_value, smin);
	reg->s32_max_value = min_t(s32, reg->s32_max_value, smax);
	reg->smin_value = max_t(s64, reg->smin_value, smin);
	reg->smax_value = min_t(s64, reg->smax_value, smax);
	reg_bounds_sync(reg);
}

static bool __reg32_bound_s64(s32 a)
{
	return a >= 0;
}

static void __reg_assign_32_into_64(struct bpf_reg_state *reg)
{
	reg->umin_value = reg->u32_min_value;
	reg->umax_value = reg->u32_max_value;
	/* s32 bounds carry over only when non-negative; else refined later */
	if (__reg32_bound_s64(reg->s32_min_value) && __reg32_bound_s64(reg->s32_max_value)) {
		reg->smin_value = reg->s32_min_value;
		reg->smax_value = reg->s32_max_value;
	} else {
		reg->smin_value = 0;
		reg->smax_value = U32_MAX;
	}
}

void zext_32_to_64(struct bpf_reg_state *reg)
{
	reg->var_off = tnum_subreg(reg->var_off);
	__reg_assign_32_into_64(reg);
}

void coerce_reg_to_size(struct bpf_reg_state *reg, int size)
{
	u64 mask;

	if (size >= 8)
		return;
	reg->var_off = tnum_cast(reg->var_off, size);
	mask = (1ULL << (size * 8)) - 1;
	if ((reg->umin_value & ~mask) == (reg->umax_value & ~mask)) {
		reg->umin_value &= mask;
		reg->umax_value &= mask;
	} else {
		reg->umin_value = 0;
		reg->umax_value = mask;
	}
	reg->smin_value = (s64)reg->umin_value;
	reg->smax_value = (s64)reg->umax_value;
	/* below 32 bits the subregister was truncated too: from the above */
	if (size < 4)
		__mark_reg32_unbounded(reg);
	reg_bounds_sync(reg);
}

static void set_sext64_default_val(struct bpf_reg_state *reg, int size)
{
	if (size == 1) {
		reg->smin_value = reg->s32_min_value = S8_MIN;
		reg->smax_value = reg->s32_max_value = S8_MAX;
	} else if (size == 2) {
		reg->smin_value = reg->s32_min_value = S16_MIN;
		reg->smax_value = reg->s32_max_value = S16_MAX;
	} else {
		reg->smin_value = reg->s32_min_value = S32_MIN;
		reg->smax_value = reg->s32_max_value = S32_MAX;
	}
	reg->umin_value = 0;
	reg->u32_min_value = 0;
	reg->umax_value = U64_MAX;
	reg->u32_max_value = U32_MAX;
	reg->var_off = tnum_unknown;
}

static s64 sext_low(u64 v, int size)
{
	return size == 1 ? (s64)(s8)v : size == 2 ? (s64)(s16)v : (s64)(s32)v;
}

void coerce_reg_to_size_sx(struct bpf_reg_state *reg, int size)
{
	s64 lo, hi, s64_min, s64_max;
	u64 top_smax, top_smin, cval;
	unsigned int num_bits = size * 8;

	if (size >= 8)
		return;
	if (tnum_is_const(reg->var_off)) {
		cval = (u64)sext_low(reg->var_off.value, size);
		reg->var_off = tnum_const(cval);
		reg->smin_value = reg->smax_value = (s64)cval;
		reg->umin_value = reg->umax_value = cval;
		reg->s32_min_value = reg->s32_max_value = (s32)cval;
		reg->u32_min_value = reg->u32_max_value = (u32)cval;
		return;
	}
	/* the bits above the extended part the same over [smin, smax]? */
	top_smax = ((u64)reg->smax_value >> num_bits) << num_bits;
	top_smin = ((u64)reg->smin_value >> num_bits) << num_bits;
	if (top_smax != top_smin)
		goto out;
	hi = sext_low((u64)reg->smax_value, size);
	lo = sext_low((u64)reg->smin_value, size);
	s64_max = max(hi, lo);
	s64_min = min(hi, lo);
	/* both on one side of zero: the extension keeps the order */
	if ((s64_max >= 0) == (s64_min >= 0)) {
		reg->s32_min_value = (s32)s64_min;
		reg->smin_value = s64_min;
		reg->s32_max_value = (s32)s64_max;
		reg->smax_value = s64_max;
		reg->u32_min_value = (u32)s64_min;
		reg->umin_value = (u64)s64_min;
		reg->u32_max_value = (u32)s64_max;
		reg->umax_value = (u64)s64_max;
		reg->var_off = tnum_range((u64)s64_min, (u64)s64_max);
		return;
	}
out:
	set_sext64_default_val(reg, size);
}

static void set_sext32_default_val(struct bpf_reg_state *reg, int size)
{
	if (size == 1) {
		reg->s32_min_value = S8_MIN;
		reg->s32_max_value = S8_MAX;
	} else {
		reg->s32_min_value = S16_MIN;
		reg->s32_max_value = S16_MAX;
	}
	reg->u32_min_value = 0;
	reg->u32_max_value = U32_MAX;
	reg->var_off = tnum_subreg(tnum_unknown);
}

void coerce_subreg_to_size_sx(struct bpf_reg_state *reg, int size)
{
	s32 lo, hi, s32_min, s32_max;
	u32 top_smax, top_smin, val;
	unsigned int num_bits = size * 8;

	if (size >= 4)
		return;
	if (tnum_is_const(reg->var_off)) {
		val = (u32)reg->var_off.value;
		/* sign-extended to 64 bits as the kernel; the caller zero-extends */
		reg->var_off = tnum_const((u64)(s64)(size == 1 ? (s8)val : (s16)val));
		val = (u32)reg->var_off.value;
		reg->s32_min_value = reg->s32_max_value = (s32)val;
		reg->u32_min_value = reg->u32_max_value = val;
		return;
	}
	top_smax = ((u32)reg->s32_max_value >> num_bits) << num_bits;
	top_smin = ((u32)reg->s32_min_value >> num_bits) << num_bits;
	if (top_smax != top_smin)
		goto out;
	if (size == 1) {
		hi = (s8)reg->s32_max_value;
		lo = (s8)reg->s32_min_value;
	} else {
		hi = (s16)reg->s32_max_value;
		lo = (s16)reg->s32_min_value;
	}
	s32_max = max(hi, lo);
	s32_min = min(hi, lo);
	if ((s32_min >= 0) == (s32_max >= 0)) {
		reg->s32_min_value = s32_min;
		reg->s32_max_value = s32_max;
		reg->u32_min_value = (u32)s32_min;
		reg->u32_max_value = (u32)s32_max;
		reg->var_off = tnum_subreg(tnum_range((u64)(s64)s32_min, (u64)(s64)s32_max));
		return;
	}
out:
	set_sext32_default_val(reg, size);
}

bool tnum_is_const_reg(const struct bpf_reg_state *reg)
{
	return tnum_is_const(reg->var_off);
}

bool register_is_null(const struct bpf_reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_equals_const(reg->var_off, 0);
}

bool register_is_const(const struct bpf_reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_is_const(reg->var_off);
}

bool range_within(const struct bpf_reg_state *old, const struct bpf_reg_state *cur)
{
	return old->umin_value <= cur->umin_value && old->umax_value >= cur->umax_value &&
	       old->smin_value <= cur->smin_value && old->smax_value >= cur->smax_value &&
	       old->u32_min_value <= cur->u32_min_value &&
	       old->u32_max_value >= cur->u32_max_value &&
	       old->s32_min_value <= cur->s32_min_value &&
	       old->s32_max_value >= cur->s32_max_value;
}

/* ---- ALU ----------------------------------------------------------------- */

static void scalar32_min_max_add(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	s32 *dst_smin = &dst_reg->s32_min_value;
	s32 *dst_smax = &dst_reg->s32_max_value;
	u32 *dst_umin = &dst_reg->u32_min_value;
	u32 *dst_umax = &dst_reg->u32_max_value;
	bool min_overflow, max_overflow;

	if (__builtin_add_overflow(*dst_smin, src_reg->s32_min_value, dst_smin) ||
	    __builtin_add_overflow(*dst_smax, src_reg->s32_max_value, dst_smax)) {
		*dst_smin = S32_MIN;
		*dst_smax = S32_MAX;
	}
	/*
	 * If no sum or every sum wraps, [umin + umin', umax + umax'] (mod
	 * 2^32) is still a range; if only some wrap it is not.
	 */
	min_overflow = __builtin_add_overflow(*dst_umin, src_reg->u32_min_value, dst_umin);
	max_overflow = __builtin_add_overflow(*dst_umax, src_reg->u32_max_value, dst_umax);
	if (!min_overflow && max_overflow) {
		*dst_umin = 0;
		*dst_umax = U32_MAX;
	}
}

static void scalar_min_max_add(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	s64 *dst_smin = &dst_reg->smin_value;
	s64 *dst_smax = &dst_reg->smax_value;
	u64 *dst_umin = &dst_reg->umin_value;
	u64 *dst_umax = &dst_reg->umax_value;
	bool min_overflow, max_overflow;

	if (__builtin_add_overflow(*dst_smin, src_reg->smin_value, dst_smin) ||
	    __builtin_add_overflow(*dst_smax, src_reg->smax_value, dst_smax)) {
		*dst_smin = S64_MIN;
		*dst_smax = S64_MAX;
	}
	min_overflow = __builtin_add_overflow(*dst_umin, src_reg->umin_value, dst_umin);
	max_overflow = __builtin_add_overflow(*dst_umax, src_reg->umax_value, dst_umax);
	if (!min_overflow && max_overflow) {
		*dst_umin = 0;
		*dst_umax = U64_MAX;
	}
}

static void scalar32_min_max_sub(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	s32 *dst_smin = &dst_reg->s32_min_value;
	s32 *dst_smax = &dst_reg->s32_max_value;
	u32 *dst_umin = &dst_reg->u32_min_value;
	u32 *dst_umax = &dst_reg->u32_max_value;
	u32 umin_val = src_reg->u32_min_value;
	u32 umax_val = src_reg->u32_max_value;
	bool min_underflow, max_underflow;

	if (__builtin_sub_overflow(*dst_smin, src_reg->s32_max_value, dst_smin) ||
	    __builtin_sub_overflow(*dst_smax, src_reg->s32_min_value, dst_smax)) {
		*dst_smin = S32_MIN;
		*dst_smax = S32_MAX;
	}
	/* as for add: all or none of the differences may wrap */
	min_underflow = __builtin_sub_overflow(*dst_umin, umax_val, dst_umin);
	max_underflow = __builtin_sub_overflow(*dst_umax, umin_val, dst_umax);
	if (min_underflow && !max_underflow) {
		*dst_umin = 0;
		*dst_umax = U32_MAX;
	}
}

static void scalar_min_max_sub(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	s64 *dst_smin = &dst_reg->smin_value;
	s64 *dst_smax = &dst_reg->smax_value;
	u64 *dst_umin = &dst_reg->umin_value;
	u64 *dst_umax = &dst_reg->umax_value;
	u64 umin_val = src_reg->umin_value;
	u64 umax_val = src_reg->umax_value;
	bool min_underflow, max_underflow;

	if (__builtin_sub_overflow(*dst_smin, src_reg->smax_value, dst_smin) ||
	    __builtin_sub_overflow(*dst_smax, src_reg->smin_value, dst_smax)) {
		*dst_smin = S64_MIN;
		*dst_smax = S64_MAX;
	}
	min_underflow = __builtin_sub_overflow(*dst_umin, umax_val, dst_umin);
	max_underflow = __builtin_sub_overflow(*dst_umax, umin_val, dst_umax);
	if (min_underflow && !max_underflow) {
		*dst_umin = 0;
		*dst_umax = U64_MAX;
	}
}

static void scalar32_min_max_mul(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	s32 *dst_smin = &dst_reg->s32_min_value;
	s32 *dst_smax = &dst_reg->s32_max_value;
	u32 *dst_umin = &dst_reg->u32_min_value;
	u32 *dst_umax = &dst_reg->u32_max_value;
	s32 p[4];

	if (__builtin_mul_overflow(*dst_umax, src_reg->u32_max_value, dst_umax) ||
	    __builtin_mul_overflow(*dst_umin, src_reg->u32_min_value, dst_umin)) {
		*dst_umin = 0;
		*dst_umax = U32_MAX;
	}
	/* the extremes of a product of two ranges are among the corner products */
	if (__builtin_mul_overflow(*dst_smin, src_reg->s32_min_value, &p[0]) ||
	    __builtin_mul_overflow(*dst_smin, src_reg->s32_max_value, &p[1]) ||
	    __builtin_mul_overflow(*dst_smax, src_reg->s32_min_value, &p[2]) ||
	    __builtin_mul_overflow(*dst_smax, src_reg->s32_max_value, &p[3])) {
		*dst_smin = S32_MIN;
		*dst_smax = S32_MAX;
	} else {
		*dst_smin = min(min(p[0], p[1]), min(p[2], p[3]));
		*dst_smax = max(max(p[0], p[1]), max(p[2], p[3]));
	}
}

static void scalar_min_max_mul(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	s64 *dst_smin = &dst_reg->smin_value;
	s64 *dst_smax = &dst_reg->smax_value;
	u64 *dst_umin = &dst_reg->umin_value;
	u64 *dst_umax = &dst_reg->umax_value;
	s64 p[4];

	if (__builtin_mul_overflow(*dst_umax, src_reg->umax_value, dst_umax) ||
	    __builtin_mul_overflow(*dst_umin, src_reg->umin_value, dst_umin)) {
		*dst_umin = 0;
		*dst_umax = U64_MAX;
	}
	if (__builtin_mul_overflow(*dst_smin, src_reg->smin_value, &p[0]) ||
	    __builtin_mul_overflow(*dst_smin, src_reg->smax_value, &p[1]) ||
	    __builtin_mul_overflow(*dst_smax, src_reg->smin_value, &p[2]) ||
	    __builtin_mul_overflow(*dst_smax, src_reg->smax_value, &p[3])) {
		*dst_smin = S64_MIN;
		*dst_smax = S64_MAX;
	} else {
		*dst_smin = min(min(p[0], p[1]), min(p[2], p[3]));
		*dst_smax = max(max(p[0], p[1]), max(p[2], p[3]));
	}
}

/* s32 from u32 when the u32 range does not cross the sign bit, else unbounded */
static void s32_from_u32(struct bpf_reg_state *reg)
{
	if ((s32)reg->u32_min_value <= (s32)reg->u32_max_value) {
		reg->s32_min_value = (s32)reg->u32_min_value;
		reg->s32_max_value = (s32)reg->u32_max_value;
	} else {
		reg->s32_min_value = S32_MIN;
		reg->s32_max_value = S32_MAX;
	}
}

static void s64_from_u64(struct bpf_reg_state *reg)
{
	if ((s64)reg->umin_value <= (s64)reg->umax_value) {
		reg->smin_value = (s64)reg->umin_value;
		reg->smax_value = (s64)reg->umax_value;
	} else {
		reg->smin_value = S64_MIN;
		reg->smax_value = S64_MAX;
	}
}

/* var_off already holds dst & src for the AND/OR/XOR below. */
static void scalar32_min_max_and(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	bool src_known = tnum_subreg_is_const(src_reg->var_off);
	bool dst_known = tnum_subreg_is_const(dst_reg->var_off);
	struct tnum var32_off = tnum_subreg(dst_reg->var_off);

	if (src_known && dst_known) {
		__mark_reg32_known(dst_reg, var32_off.value);
		return;
	}
	/* the minimum from the bits; the maximum is at most either maximum */
	dst_reg->u32_min_value = (u32)var32_off.value;
	dst_reg->u32_max_value = min(dst_reg->u32_max_value, src_reg->u32_max_value);
	s32_from_u32(dst_reg);
}

static void scalar_min_max_and(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	bool src_known = tnum_is_const(src_reg->var_off);
	bool dst_known = tnum_is_const(dst_reg->var_off);

	if (src_known && dst_known) {
		__mark_reg_known(dst_reg, dst_reg->var_off.value);
		return;
	}
	dst_reg->umin_value = dst_reg->var_off.value;
	dst_reg->umax_value = min(dst_reg->umax_value, src_reg->umax_value);
	s64_from_u64(dst_reg);
	__update_reg_bounds(dst_reg);
}

static void scalar32_min_max_or(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	bool src_known = tnum_subreg_is_const(src_reg->var_off);
	bool dst_known = tnum_subreg_is_const(dst_reg->var_off);
	struct tnum var32_off = tnum_subreg(dst_reg->var_off);

	if (src_known && dst_known) {
		__mark_reg32_known(dst_reg, var32_off.value);
		return;
	}
	/* the maximum from the bits; the minimum is at least either minimum */
	dst_reg->u32_min_value = max(dst_reg->u32_min_value, src_reg->u32_min_value);
	dst_reg->u32_max_value = (u32)(var32_off.value | var32_off.mask);
	s32_from_u32(dst_reg);
}

static void scalar_min_max_or(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	bool src_known = tnum_is_const(src_reg->var_off);
	bool dst_known = tnum_is_const(dst_reg->var_off);

	if (src_known && dst_known) {
		__mark_reg_known(dst_reg, dst_reg->var_off.value);
		return;
	}
	dst_reg->umin_value = max(dst_reg->umin_value, src_reg->umin_value);
	dst_reg->umax_value = dst_reg->var_off.value | dst_reg->var_off.mask;
	s64_from_u64(dst_reg);
	__update_reg_bounds(dst_reg);
}

static void scalar32_min_max_xor(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	bool src_known = tnum_subreg_is_const(src_reg->var_off);
	bool dst_known = tnum_subreg_is_const(dst_reg->var_off);
	struct tnum var32_off = tnum_subreg(dst_reg->var_off);

	if (src_known && dst_known) {
		__mark_reg32_known(dst_reg, var32_off.value);
		return;
	}
	dst_reg->u32_min_value = (u32)var32_off.value;
	dst_reg->u32_max_value = (u32)(var32_off.value | var32_off.mask);
	s32_from_u32(dst_reg);
}

static void scalar_min_max_xor(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	bool src_known = tnum_is_const(src_reg->var_off);
	bool dst_known = tnum_is_const(dst_reg->var_off);

	if (src_known && dst_known) {
		__mark_reg_known(dst_reg, dst_reg->var_off.value);
		return;
	}
	dst_reg->umin_value = dst_reg->var_off.value;
	dst_reg->umax_value = dst_reg->var_off.value | dst_reg->var_off.mask;
	s64_from_u64(dst_reg);
	__update_reg_bounds(dst_reg);
}

static void __scalar32_min_max_lsh(struct bpf_reg_state *dst_reg, u64 umin_val, u64 umax_val)
{
	/* the sign is whatever the shifted-in bit is: from var_off later */
	dst_reg->s32_min_value = S32_MIN;
	dst_reg->s32_max_value = S32_MAX;
	/* the top bit may be shifted out: nothing is known */
	if (umax_val > 31 || dst_reg->u32_max_value > 1ULL << (31 - umax_val)) {
		dst_reg->u32_min_value = 0;
		dst_reg->u32_max_value = U32_MAX;
	} else {
		dst_reg->u32_min_value <<= umin_val;
		dst_reg->u32_max_value <<= umax_val;
	}
}

static void scalar32_min_max_lsh(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	u32 umax_val = src_reg->u32_max_value;
	u32 umin_val = src_reg->u32_min_value;
	struct tnum subreg = tnum_subreg(dst_reg->var_off);

	__scalar32_min_max_lsh(dst_reg, umin_val, umax_val);
	dst_reg->var_off = tnum_subreg(tnum_lshift(subreg, umin_val));
	/* the 64-bit view comes from zext_32_to_64() */
	__mark_reg64_unbounded(dst_reg);
	__update_reg32_bounds(dst_reg);
}

static void __scalar64_min_max_lsh(struct bpf_reg_state *dst_reg, u64 umin_val, u64 umax_val)
{
	/*
	 * << 32 (the first half of the compiler's sign-extension idiom
	 * << 32 s>> 32) moves the s32 into the upper half with its sign: the
	 * s32 bounds shifted are the s64 ones. Other shifts lose the sign.
	 */
	if (umin_val == 32 && umax_val == 32) {
		dst_reg->smax_value = (s64)((u64)(s64)dst_reg->s32_max_value << 32);
		dst_reg->smin_value = (s64)((u64)(s64)dst_reg->s32_min_value << 32);
	} else {
		dst_reg->smax_value = S64_MAX;
		dst_reg->smin_value = S64_MIN;
	}
	if (dst_reg->umax_value > 1ULL << (63 - umax_val)) {
		dst_reg->umin_value = 0;
		dst_reg->umax_value = U64_MAX;
	} else {
		dst_reg->umin_value <<= umin_val;
		dst_reg->umax_value <<= umax_val;
	}
}

static void scalar_min_max_lsh(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	u64 umax_val = src_reg->umax_value;
	u64 umin_val = src_reg->umin_value;

	/* the 64-bit part reads the unshifted 32-bit bounds: first */
	__scalar64_min_max_lsh(dst_reg, umin_val, umax_val);
	__scalar32_min_max_lsh(dst_reg, umin_val, umax_val);
	dst_reg->var_off = tnum_lshift(dst_reg->var_off, (u8)umin_val);
	__update_reg_bounds(dst_reg);
}

static void scalar32_min_max_rsh(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	struct tnum subreg = tnum_subreg(dst_reg->var_off);
	u32 umax_val = src_reg->u32_max_value;
	u32 umin_val = src_reg->u32_min_value;

	/*
	 * A logical shift by a possibly-zero amount may leave the sign bit;
	 * by more it clears it: the signed bounds are rebuilt from the
	 * unsigned ones and var_off.
	 */
	dst_reg->s32_min_value = S32_MIN;
	dst_reg->s32_max_value = S32_MAX;
	dst_reg->var_off = tnum_rshift(subreg, umin_val);
	dst_reg->u32_min_value >>= umax_val;
	dst_reg->u32_max_value >>= umin_val;
	__mark_reg64_unbounded(dst_reg);
	__update_reg32_bounds(dst_reg);
}

static void scalar_min_max_rsh(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	u64 umax_val = src_reg->umax_value;
	u64 umin_val = src_reg->umin_value;

	dst_reg->smin_value = S64_MIN;
	dst_reg->smax_value = S64_MAX;
	dst_reg->var_off = tnum_rshift(dst_reg->var_off, (u8)umin_val);
	dst_reg->umin_value >>= umax_val;
	dst_reg->umax_value >>= umin_val;
	/* upper bits move into the subregister: rebuild it from var_off */
	__mark_reg32_unbounded(dst_reg);
	__update_reg_bounds(dst_reg);
}

static void scalar32_min_max_arsh(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	u64 umin_val = src_reg->u32_min_value;	/* == max: the amount is known */

	dst_reg->s32_min_value = dst_reg->s32_min_value >> umin_val;
	dst_reg->s32_max_value = dst_reg->s32_max_value >> umin_val;
	dst_reg->var_off = tnum_arshift(tnum_subreg(dst_reg->var_off), (u8)umin_val, 32);
	/* unsigned bounds from var_off */
	dst_reg->u32_min_value = 0;
	dst_reg->u32_max_value = U32_MAX;
	__mark_reg64_unbounded(dst_reg);
	__update_reg32_bounds(dst_reg);
}

static void scalar_min_max_arsh(struct bpf_reg_state *dst_reg, struct bpf_reg_state *src_reg)
{
	u64 umin_val = src_reg->umin_value;

	dst_reg->smin_value >>= umin_val;
	dst_reg->smax_value >>= umin_val;
	dst_reg->var_off = tnum_arshift(dst_reg->var_off, (u8)umin_val, 64);
	dst_reg->umin_value = 0;
	dst_reg->umax_value = U64_MAX;
	__mark_reg32_unbounded(dst_reg);
	__update_reg_bounds(dst_reg);
}

static bool is_safe_to_compute_dst_reg_range(const struct bpf_insn *insn,
					     const struct bpf_reg_state *src_reg)
{
	bool src_is_const = false;
	u64 insn_bitness = BPF_CLASS(insn->code) == BPF_ALU64 ? 64 : 32;

	if (insn_bitness == 32) {
		if (tnum_subreg_is_const(src_reg->var_off) &&
		    src_reg->s32_min_value == src_reg->s32_max_value &&
		    src_reg->u32_min_value == src_reg->u32_max_value)
			src_is_const = true;
	} else {
		if (tnum_is_const(src_reg->var_off) &&
		    src_reg->smin_value == src_reg->smax_value &&
		    src_reg->umin_value == src_reg->umax_value)
			src_is_const = true;
	}

	switch (BPF_OP(insn->code)) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_NEG:
	case BPF_AND:
	case BPF_XOR:
	case BPF_OR:
	case BPF_MUL:
		return true;
	/* a shift by an unknown or out-of-range amount: anything */
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		return src_is_const && src_reg->umax_value < insn_bitness;
	/* DIV, MOD (and their signed forms): not tracked in 6.18 */
	default:
		return false;
	}
}

int adjust_scalar_min_max_vals(struct bpf_verifier_env *env, const struct bpf_insn *insn,
			       struct bpf_reg_state *dst_reg, struct bpf_reg_state src_reg)
{
	u8 opcode = BPF_OP(insn->code);
	bool alu32 = BPF_CLASS(insn->code) != BPF_ALU64;
	struct bpf_reg_state orig;

	(void)env;
	if (!is_safe_to_compute_dst_reg_range(insn, &src_reg)) {
		__mark_reg_unknown(dst_reg);
		return 0;
	}

	/*
	 * ADD, SUB, MUL, NEG, AND, OR, XOR: the 32- and 64-bit views are
	 * computed independently (precise when ALU and JMP32 mix). The
	 * shifts move bits across the halves: the other view is rebuilt
	 * from var_off.
	 */
	switch (opcode) {
	case BPF_ADD:
		scalar32_min_max_add(dst_reg, &src_reg);
		scalar_min_max_add(dst_reg, &src_reg);
		dst_reg->var_off = tnum_add(dst_reg->var_off, src_reg.var_off);
		break;
	case BPF_SUB:
		scalar32_min_max_sub(dst_reg, &src_reg);
		scalar_min_max_sub(dst_reg, &src_reg);
		dst_reg->var_off = tnum_sub(dst_reg->var_off, src_reg.var_off);
		break;
	case BPF_NEG:
		/* 0 - dst */
		orig = *dst_reg;
		__mark_reg_known(dst_reg, 0);
		scalar32_min_max_sub(dst_reg, &orig);
		scalar_min_max_sub(dst_reg, &orig);
		dst_reg->var_off = tnum_neg(orig.var_off);
		break;
	case BPF_MUL:
		dst_reg->var_off = tnum_mul(dst_reg->var_off, src_reg.var_off);
		scalar32_min_max_mul(dst_reg, &src_reg);
		scalar_min_max_mul(dst_reg, &src_reg);
		break;
	case BPF_AND:
		dst_reg->var_off = tnum_and(dst_reg->var_off, src_reg.var_off);
		scalar32_min_max_and(dst_reg, &src_reg);
		scalar_min_max_and(dst_reg, &src_reg);
		break;
	case BPF_OR:
		dst_reg->var_off = tnum_or(dst_reg->var_off, src_reg.var_off);
		scalar32_min_max_or(dst_reg, &src_reg);
		scalar_min_max_or(dst_reg, &src_reg);
		break;
	case BPF_XOR:
		dst_reg->var_off = tnum_xor(dst_reg->var_off, src_reg.var_off);
		scalar32_min_max_xor(dst_reg, &src_reg);
		scalar_min_max_xor(dst_reg, &src_reg);
		break;
	case BPF_LSH:
		if (alu32)
			scalar32_min_max_lsh(dst_reg, &src_reg);
		else
			scalar_min_max_lsh(dst_reg, &src_reg);
		break;
	case BPF_RSH:
		if (alu32)
			scalar32_min_max_rsh(dst_reg, &src_reg);
		else
			scalar_min_max_rsh(dst_reg, &src_reg);
		break;
	case BPF_ARSH:
		if (alu32)
			scalar32_min_max_arsh(dst_reg, &src_reg);
		else
			scalar_min_max_arsh(dst_reg, &src_reg);
		break;
	default:
		break;
	}

	/* ALU32 results are zero-extended */
	if (alu32)
		zext_32_to_64(dst_reg);
	reg_bounds_sync(dst_reg);
	return 0;
}

/* ---- conditional jumps --------------------------------------------------- */

static bool is_reg_const(const struct bpf_reg_state *reg, bool subreg32)
{
	return reg->type == SCALAR_VALUE &&
	       tnum_is_const(subreg32 ? tnum_subreg(reg->var_off) : reg->var_off);
}

static u64 reg_const_value(const struct bpf_reg_state *reg, bool subreg32)
{
	return subreg32 ? tnum_subreg(reg->var_off).value : reg->var_off.value;
}

int is_scalar_branch_taken(struct bpf_reg_state *reg1, struct bpf_reg_state *reg2, u8 opcode,
			   bool is_jmp32)
{
	struct tnum t1 = is_jmp32 ? tnum_subreg(reg1->var_off) : reg1->var_off;
	struct tnum t2 = is_jmp32 ? tnum_subreg(reg2->var_off) : reg2->var_off;
	u64 umin1 = is_jmp32 ? (u64)reg1->u32_min_value : reg1->umin_value;
	u64 umax1 = is_jmp32 ? (u64)reg1->u32_max_value : reg1->umax_value;
	s64 smin1 = is_jmp32 ? (s64)reg1->s32_min_value : reg1->smin_value;
	s64 smax1 = is_jmp32 ? (s64)reg1->s32_max_value : reg1->smax_value;
	u64 umin2 = is_jmp32 ? (u64)reg2->u32_min_value : reg2->umin_value;
	u64 umax2 = is_jmp32 ? (u64)reg2->u32_max_value : reg2->umax_value;
	s64 smin2 = is_jmp32 ? (s64)reg2->s32_min_value : reg2->smin_value;
	s64 smax2 = is_jmp32 ? (s64)reg2->s32_max_value : reg2->smax_value;

	switch (opcode) {
	case BPF_JEQ:
		/* two constants: the bounds would agree with them */
		if (tnum_is_const(t1) && tnum_is_const(t2))
			return t1.value == t2.value;
		/* a known bit that differs */
		if (!tnum_overlap(t1, t2))
			return 0;
		if (umin1 > umax2 || umax1 < umin2)
			return 0;
		if (smin1 > smax2 || smax1 < smin2)
			return 0;
		if (!is_jmp32) {
			/* disjoint subregister ranges decide it too */
			if (reg1->u32_min_value > reg2->u32_max_value ||
			    reg1->u32_max_value < reg2->u32_min_value)
				return 0;
			if (reg1->s32_min_value > reg2->s32_max_value ||
			    reg1->s32_max_value < reg2->s32_min_value)
				return 0;
		}
		break;
	case BPF_JNE:
		if (tnum_is_const(t1) && tnum_is_const(t2))
			return t1.value != t2.value;
		if (!tnum_overlap(t1, t2))
			return 1;
		if (umin1 > umax2 || umax1 < umin2)
			return 1;
		if (smin1 > smax2 || smax1 < smin2)
			return 1;
		if (!is_jmp32) {
			if (reg1->u32_min_value > reg2->u32_max_value ||
			    reg1->u32_max_value < reg2->u32_min_value)
				return 1;
			if (reg1->s32_min_value > reg2->s32_max_value ||
			    reg1->s32_max_value < reg2->s32_min_value)
				return 1;
		}
		break;
	case BPF_JSET:
		if (!is_reg_const(reg2, is_jmp32)) {
			rb_swap(reg1, reg2);
			rb_swap(t1, t2);
		}
		if (!is_reg_const(reg2, is_jmp32))
			return -1;
		/* a known one under the mask: taken; no possible one: not */
		if ((~t1.mask & t1.value) & t2.value)
			return 1;
		if (!((t1.mask | t1.value) & t2.value))
			return 0;
		break;
	case BPF_JGT:
		if (umin1 > umax2)
			return 1;
		else if (umax1 <= umin2)
			return 0;
		break;
	case BPF_JSGT:
		if (smin1 > smax2)
			return 1;
		else if (smax1 <= smin2)
			return 0;
		break;
	case BPF_JLT:
		if (umax1 < umin2)
			return 1;
		else if (umin1 >= umax2)
			return 0;
		break;
	case BPF_JSLT:
		if (smax1 < smin2)
			return 1;
		else if (smin1 >= smax2)
			return 0;
		break;
	case BPF_JGE:
		if (umin1 >= umax2)
			return 1;
		else if (umax1 < umin2)
			return 0;
		break;
	case BPF_JSGE:
		if (smin1 >= smax2)
			return 1;
		else if (smax1 < smin2)
			return 0;
		break;
	case BPF_JLE:
		if (umax1 <= umin2)
			return 1;
		else if (umin1 > umax2)
			return 0;
		break;
	case BPF_JSLE:
		if (smax1 <= smin2)
			return 1;
		else if (smin1 > smax2)
			return 0;
		break;
	}
	return -1;
}

/* a OP b <=> b flip(OP) a */
u8 flip_opcode(u8 opcode)
{
	switch (opcode) {
	case BPF_JGT:	return BPF_JLT;
	case BPF_JLT:	return BPF_JGT;
	case BPF_JGE:	return BPF_JLE;
	case BPF_JLE:	return BPF_JGE;
	case BPF_JSGT:	return BPF_JSLT;
	case BPF_JSLT:	return BPF_JSGT;
	case BPF_JSGE:	return BPF_JSLE;
	case BPF_JSLE:	return BPF_JSGE;
	default:	return opcode;
	}
}

/* !(a OP b) <=> a rev(OP) b; BPF_JSET | BPF_X stands for "no common bit" */
static u8 rev_opcode(u8 opcode)
{
	switch (opcode) {
	case BPF_JEQ:		return BPF_JNE;
	case BPF_JNE:		return BPF_JEQ;
	case BPF_JSET:		return BPF_JSET | BPF_X;
	case BPF_JSET | BPF_X:	return BPF_JSET;
	case BPF_JGE:		return BPF_JLT;
	case BPF_JGT:		return BPF_JLE;
	case BPF_JLE:		return BPF_JGT;
	case BPF_JLT:		return BPF_JGE;
	case BPF_JSGE:		return BPF_JSLT;
	case BPF_JSGT:		return BPF_JSLE;
	case BPF_JSLE:		return BPF_JSGT;
	case BPF_JSLT:		return BPF_JSGE;
	default:		return 0;
	}
}

static bool is_power_of_2_u64(u64 n)
{
	return n && !(n & (n - 1));
}

/* Narrow reg1 and reg2 to the values for which "reg1 OP reg2" holds. */
static void regs_refine_cond_op(struct bpf_reg_state *reg1, struct bpf_reg_state *reg2,
				u8 opcode, bool is_jmp32)
{
	struct tnum t;
	u64 val;

	/* GE/GT/SGE/SGT as the flipped LE/LT/SLE/SLT with swapped operands */
	switch (opcode) {
	case BPF_JGE:
	case BPF_JGT:
	case BPF_JSGE:
	case BPF_JSGT:
		opcode = flip_opcode(opcode);
		rb_swap(reg1, reg2);
		break;
	default:
		break;
	}

	switch (opcode) {
	case BPF_JEQ:
		if (is_jmp32) {
			reg1->u32_min_value = max(reg1->u32_min_value, reg2->u32_min_value);
			reg1->u32_max_value = min(reg1->u32_max_value, reg2->u32_max_value);
			reg1->s32_min_value = max(reg1->s32_min_value, reg2->s32_min_value);
			reg1->s32_max_value = min(reg1->s32_max_value, reg2->s32_max_value);
			reg2->u32_min_value = reg1->u32_min_value;
			reg2->u32_max_value = reg1->u32_max_value;
			reg2->s32_min_value = reg1->s32_min_value;
			reg2->s32_max_value = reg1->s32_max_value;

			t = tnum_intersect(tnum_subreg(reg1->var_off), tnum_subreg(reg2->var_off));
			reg1->var_off = tnum_with_subreg(reg1->var_off, t);
			reg2->var_off = tnum_with_subreg(reg2->var_off, t);
		} else {
			reg1->umin_value = max(reg1->umin_value, reg2->umin_value);
			reg1->umax_value = min(reg1->umax_value, reg2->umax_value);
			reg1->smin_value = max(reg1->smin_value, reg2->smin_value);
			reg1->smax_value = min(reg1->smax_value, reg2->smax_value);
			reg2->umin_value = reg1->umin_value;
			reg2->umax_value = reg1->umax_value;
			reg2->smin_value = reg1->smin_value;
			reg2->smax_value = reg1->smax_value;

			reg1->var_off = tnum_intersect(reg1->var_off, reg2->var_off);
			reg2->var_off = reg1->var_off;
		}
		break;
	case BPF_JNE:
		if (!is_reg_const(reg2, is_jmp32))
			rb_swap(reg1, reg2);
		if (!is_reg_const(reg2, is_jmp32))
			break;
		/* a constant at an end of the other's range moves that end */
		val = reg_const_value(reg2, is_jmp32);
		if (is_jmp32) {
			if (reg1->u32_min_value == (u32)val)
				reg1->u32_min_value++;
			if (reg1->u32_max_value == (u32)val)
				reg1->u32_max_value--;
			if (reg1->s32_min_value == (s32)val)
				reg1->s32_min_value++;
			if (reg1->s32_max_value == (s32)val)
				reg1->s32_max_value--;
		} else {
			if (reg1->umin_value == val)
				reg1->umin_value++;
			if (reg1->umax_value == val)
				reg1->umax_value--;
			if (reg1->smin_value == (s64)val)
				reg1->smin_value++;
			if (reg1->smax_value == (s64)val)
				reg1->smax_value--;
		}
		break;
	case BPF_JSET:
		if (!is_reg_const(reg2, is_jmp32))
			rb_swap(reg1, reg2);
		if (!is_reg_const(reg2, is_jmp32))
			break;
		val = reg_const_value(reg2, is_jmp32);
		/* "some bit of val is set" pins a bit only when val has one */
		if (!is_power_of_2_u64(val))
			break;
		if (is_jmp32) {
			t = tnum_or(tnum_subreg(reg1->var_off), tnum_const(val));
			reg1->var_off = tnum_with_subreg(reg1->var_off, t);
		} else {
			reg1->var_off = tnum_or(reg1->var_off, tnum_const(val));
		}
		break;
	case BPF_JSET | BPF_X:
		/* no bit of val set: all of them known zero */
		if (!is_reg_const(reg2, is_jmp32))
			rb_swap(reg1, reg2);
		if (!is_reg_const(reg2, is_jmp32))
			break;
		val = reg_const_value(reg2, is_jmp32);
		/*
		 * The ranges are rebuilt from the narrowed tnum: on a dead
		 * branch they could contradict it.
		 */
		__mark_reg_unbounded(reg1);
		if (is_jmp32) {
			t = tnum_and(tnum_subreg(reg1->var_off), tnum_const(~val));
			reg1->var_off = tnum_with_subreg(reg1->var_off, t);
		} else {
			reg1->var_off = tnum_and(reg1->var_off, tnum_const(~val));
		}
		break;
	case BPF_JLE:
		if (is_jmp32) {
			reg1->u32_max_value = min(reg1->u32_max_value, reg2->u32_max_value);
			reg2->u32_min_value = max(reg1->u32_min_value, reg2->u32_min_value);
		} else {
			reg1->umax_value = min(reg1->umax_value, reg2->umax_value);
			reg2->umin_value = max(reg1->umin_value, reg2->umin_value);
		}
		break;
	case BPF_JLT:
		if (is_jmp32) {
			reg1->u32_max_value = min(reg1->u32_max_value, reg2->u32_max_value - 1);
			reg2->u32_min_value = max(reg1->u32_min_value + 1, reg2->u32_min_value);
		} else {
			reg1->umax_value = min(reg1->umax_value, reg2->umax_value - 1);
			reg2->umin_value = max(reg1->umin_value + 1, reg2->umin_value);
		}
		break;
	case BPF_JSLE:
		if (is_jmp32) {
			reg1->s32_max_value = min(reg1->s32_max_value, reg2->s32_max_value);
			reg2->s32_min_value = max(reg1->s32_min_value, reg2->s32_min_value);
		} else {
			reg1->smax_value = min(reg1->smax_value, reg2->smax_value);
			reg2->smin_value = max(reg1->smin_value, reg2->smin_value);
		}
		break;
	case BPF_JSLT:
		if (is_jmp32) {
			reg1->s32_max_value = min(reg1->s32_max_value, reg2->s32_max_value - 1);
			reg2->s32_min_value = max(reg1->s32_min_value + 1, reg2->s32_min_value);
		} else {
			reg1->smax_value = min(reg1->smax_value, reg2->smax_value - 1);
			reg2->smin_value = max(reg1->smin_value + 1, reg2->smin_value);
		}
		break;
	default:
		return;
	}
}

int reg_set_min_max(struct bpf_verifier_env *env, struct bpf_reg_state *true_reg1,
		    struct bpf_reg_state *true_reg2, struct bpf_reg_state *false_reg1,
		    struct bpf_reg_state *false_reg2, u8 opcode, bool is_jmp32)
{
	(void)env;
	/* a pointer's offset learns nothing from a comparison */
	if (false_reg1->type != SCALAR_VALUE || false_reg2->type != SCALAR_VALUE)
		return 0;

	regs_refine_cond_op(false_reg1, false_reg2, rev_opcode(opcode), is_jmp32);
	reg_bounds_sync(false_reg1);
	reg_bounds_sync(false_reg2);

	regs_refine_cond_op(true_reg1, true_reg2, opcode, is_jmp32);
	reg_bounds_sync(true_reg1);
	reg_bounds_sync(true_reg2);

	if (!reg_bounds_sane(true_reg1) || !reg_bounds_sane(true_reg2) ||
	    !reg_bounds_sane(false_reg1) || !reg_bounds_sane(false_reg2))
		return -EFAULT;
	return 0;
}

/* ---- log form ------------------------------------------------------------ */

struct rb_buf {
	char *p;
	size_t size;
	size_t len;	/* as snprintf: what would have been written */
};

__printf(2, 3) static void rb_printf(struct rb_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->len < b->size ? b->p + b->len : NULL,
		      b->len < b->size ? b->size - b->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

/* numbers of 16 bits in decimal, others in hex */
static bool is_snum_decimal(s64 num)
{
	return num >= -32768 && num <= 32767;
}

static void rb_snum(struct rb_buf *b, s64 num)
{
	if (is_snum_decimal(num))
		rb_printf(b, "%lld", (long long)num);
	else
		rb_printf(b, "0x%llx", (unsigned long long)num);
}

static void rb_unum(struct rb_buf *b, u64 num)
{
	if (num <= 0xffff)
		rb_printf(b, "%llu", (unsigned long long)num);
	else
		rb_printf(b, "0x%llx", (unsigned long long)num);
}

static const char *reg_base_name(u32 base)
{
	switch (base) {
	case NOT_INIT:			return "?";
	case SCALAR_VALUE:		return "scalar";
	case PTR_TO_CTX:		return "ctx";
	case CONST_PTR_TO_MAP:		return "map_ptr";
	case PTR_TO_MAP_VALUE:		return "map_value";
	case PTR_TO_MAP_KEY:		return "map_key";
	case PTR_TO_STACK:		return "fp";
	case PTR_TO_PACKET_META:	return "pkt_meta";
	case PTR_TO_PACKET:		return "pkt";
	case PTR_TO_PACKET_END:		return "pkt_end";
	case PTR_TO_MEM:		return "mem";
	case PTR_TO_FUNC:		return "func";
	case CONST_PTR_TO_DYNPTR:	return "dynptr_ptr";
	default:			return "unknown";
	}
}

static void print_scalar_ranges(struct rb_buf *b, const struct bpf_reg_state *reg,
				const char **sep)
{
	/*
	 * In hex a negative s32 is printed as its u32, so that smin=-2 and
	 * smin32=-2 are not shown as two different hex numbers.
	 */
	struct {
		const char *name;
		u64 val;
		bool omit;
	} m[] = {
		{ "smin", (u64)reg->smin_value, reg->smin_value == S64_MIN },
		{ "smax", (u64)reg->smax_value, reg->smax_value == S64_MAX },
		{ "umin", reg->umin_value, reg->umin_value == 0 },
		{ "umax", reg->umax_value, reg->umax_value == U64_MAX },
		{ "smin32", is_snum_decimal(reg->s32_min_value) ?
			    (u64)(s64)reg->s32_min_value : (u32)reg->s32_min_value,
		  reg->s32_min_value == S32_MIN },
		{ "smax32", is_snum_decimal(reg->s32_max_value) ?
			    (u64)(s64)reg->s32_max_value : (u32)reg->s32_max_value,
		  reg->s32_max_value == S32_MAX },
		{ "umin32", reg->u32_min_value, reg->u32_min_value == 0 },
		{ "umax32", reg->u32_max_value, reg->u32_max_value == U32_MAX },
	};
	size_t i, j, n = ARRAY_SIZE(m);

	for (i = 0; i < n; i++) {
		bool neg1;

		if (m[i].omit)
			continue;
		neg1 = m[i].name[0] == 's' && (s64)m[i].val < 0;
		rb_printf(b, "%s%s=", *sep, m[i].name);
		*sep = ",";
		/* mins with mins, maxes with maxes, of the same value and sign */
		for (j = i + 2; j < n; j += 2) {
			bool neg2 = m[j].name[0] == 's' && (s64)m[j].val < 0;

			if (m[j].omit || m[j].val != m[i].val || neg2 != neg1)
				continue;
			m[j].omit = true;
			rb_printf(b, "%s=", m[j].name);
		}
		if (m[i].name[0] == 's')
			rb_snum(b, (s64)m[i].val);
		else
			rb_unum(b, m[i].val);
	}
}

int bpf_reg_str(char *buf, size_t size, const struct bpf_reg_state *reg)
{
	struct rb_buf b = { .p = buf, .size = size, .len = 0 };
	u32 t = reg->type, base = t & BPF_BASE_TYPE_MASK;
	const char *sep = "";

	if (size)
		buf[0] = 0;
	if (t == SCALAR_VALUE && reg->precise)
		rb_printf(&b, "P");
	if (t == SCALAR_VALUE && tnum_is_const(reg->var_off)) {
		rb_snum(&b, (s64)reg->var_off.value);
		return (int)b.len;
	}
	rb_printf(&b, "%s%s%s%s", t & MEM_RDONLY ? "rdonly_" : "",
		  t & MEM_RINGBUF ? "ringbuf_" : "", reg_base_name(base),
		  t & PTR_MAYBE_NULL ? "_or_null" : "");
	if (t == NOT_INIT)
		return (int)b.len;
	if (base == PTR_TO_STACK && tnum_is_const(reg->var_off)) {
		rb_snum(&b, (s64)(reg->var_off.value + (u64)(s64)reg->off));
		return (int)b.len;
	}
	rb_printf(&b, "(");
#define RB_ITEM(...)						\
	do {							\
		rb_printf(&b, "%s", sep);			\
		rb_printf(&b, __VA_ARGS__);			\
		sep = ",";					\
	} while (0)
	if (reg->id)
		RB_ITEM("id=%u", reg->id);
	if (reg->ref_obj_id)
		RB_ITEM("ref_obj_id=%u", reg->ref_obj_id);
	if ((base == CONST_PTR_TO_MAP || base == PTR_TO_MAP_VALUE || base == PTR_TO_MAP_KEY) &&
	    reg->map_ptr) {
		if (reg->map_ptr->name[0])
			RB_ITEM("map=%s", reg->map_ptr->name);
		RB_ITEM("ks=%u,vs=%u", reg->map_ptr->key_size, reg->map_ptr->value_size);
	}
	if (t != SCALAR_VALUE && reg->off) {
		RB_ITEM("off=");
		rb_snum(&b, reg->off);
	}
	if (base == PTR_TO_PACKET || base == PTR_TO_PACKET_META) {
		RB_ITEM("r=");
		rb_unum(&b, (u64)(u32)reg->range);
	}
	if (base == PTR_TO_MEM) {
		RB_ITEM("sz=");
		rb_unum(&b, reg->mem_size);
	}
	if (tnum_is_const(reg->var_off)) {
		/* a pointer with a constant variable offset */
		if (reg->var_off.value) {
			RB_ITEM("imm=");
			rb_snum(&b, (s64)reg->var_off.value);
		}
	} else {
		print_scalar_ranges(&b, reg, &sep);
		if (!tnum_is_unknown(reg->var_off)) {
			char tn[48];

			tnum_strn(tn, sizeof(tn), reg->var_off);
			RB_ITEM("var_off=%s", tn);
		}
	}
#undef RB_ITEM
	rb_printf(&b, ")");
	return (int)b.len;
}
