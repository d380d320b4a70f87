// SPDX-License-Identifier: GPL-2.0
/*
 * Tristate numbers: the bit-level half of the verifier's knowledge of a
 * scalar (or of a pointer's variable offset). Every operation returns a
 * tnum holding every concrete result of the operation applied to members
 * of its operands.
 *
 * Kernel: kernel/bpf/tnum.c (6.18.y: tnum_mul is the long multiplication
 *	   that takes the union of both partial products of an unknown bit;
 *	   tnum_overlap(), tnum_step())
 * Differs: tnum_strn() prints "0x0" for zero as the kernel's vsnprintf
 *	    does (glibc's %#llx would print "0"); tnum_cast() accepts size 8.
 */
#include <stdio.h>

#include <linux/compiler.h>
#include <linux/tnum.h>

const struct tnum tnum_unknown = { .value = 0, .mask = -1ULL };

static inline unsigned int tn_fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

struct tnum tnum_const(u64 value)
{
	return TNUM(value, 0);
}

struct tnum tnum_range(u64 min, u64 max)
{
	unsigned int bits = tn_fls64(min ^ max);
	u64 delta;

	/* The two ends differ in bit 63: nothing is known. */
	if (bits > 63)
		return tnum_unknown;
	/* Bits above the highest differing one are common to the range. */
	delta = (1ULL << bits) - 1;
	return TNUM(min & ~delta, delta);
}

struct tnum tnum_lshift(struct tnum a, u8 shift)
{
	return TNUM(a.value << shift, a.mask << shift);
}

struct tnum tnum_rshift(struct tnum a, u8 shift)
{
	return TNUM(a.value >> shift, a.mask >> shift);
}

struct tnum tnum_arshift(struct tnum a, u8 min_shift, u8 insn_bitness)
{
	/*
	 * Shifting by the smallest amount keeps the sign bit (known or not)
	 * smeared over the most positions: every larger shift of a member is
	 * still a member.
	 */
	if (insn_bitness == 32)
		return TNUM((u32)((s32)a.value >> min_shift),
			    (u32)((s32)a.mask >> min_shift));
	return TNUM((u64)((s64)a.value >> min_shift), (u64)((s64)a.mask >> min_shift));
}

struct tnum tnum_add(struct tnum a, struct tnum b)
{
	u64 sm = a.mask + b.mask;
	u64 sv = a.value + b.value;
	u64 sigma = sm + sv;
	/* carries that differ between the all-zero and all-one choices */
	u64 chi = sigma ^ sv;
	u64 mu = chi | a.mask | b.mask;

	return TNUM(sv & ~mu, mu);
}

struct tnum tnum_sub(struct tnum a, struct tnum b)
{
	u64 dv = a.value - b.value;
	u64 alpha = dv + a.mask;
	u64 beta = dv - b.mask;
	u64 chi = alpha ^ beta;
	u64 mu = chi | a.mask | b.mask;

	return TNUM(dv & ~mu, mu);
}

struct tnum tnum_neg(struct tnum a)
{
	return tnum_sub(TNUM(0, 0), a);
}

struct tnum tnum_and(struct tnum a, struct tnum b)
{
	u64 alpha = a.value | a.mask;
	u64 beta = b.value | b.mask;
	u64 v = a.value & b.value;

	return TNUM(v, alpha & beta & ~v);
}

struct tnum tnum_or(struct tnum a, struct tnum b)
{
	u64 v = a.value | b.value;
	u64 mu = a.mask | b.mask;

	return TNUM(v, mu & ~v);
}

struct tnum tnum_xor(struct tnum a, struct tnum b)
{
	u64 v = a.value ^ b.value;
	u64 mu = a.mask | b.mask;

	return TNUM(v & ~mu, mu);
}

/* Every member of a or of b, and any mix at the bits where they differ. */
struct tnum tnum_union(struct tnum a, struct tnum b)
{
	u64 v = a.value & b.value;
	u64 mu = (a.value ^ b.value) | a.mask | b.mask;

	return TNUM(v & ~mu, mu);
}

struct tnum tnum_mul(struct tnum a, struct tnum b)
{
	struct tnum acc = TNUM(0, 0);

	/* Long multiplication over the trits of a, lowest first. */
	while (a.value || a.mask) {
		if (a.value & 1)
			acc = tnum_add(acc, b);
		else if (a.mask & 1)
			/* the bit is 0 (acc) or 1 (acc + b): either */
			acc = tnum_union(acc, tnum_add(acc, b));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
	}
	return acc;
}

bool tnum_overlap(struct tnum a, struct tnum b)
{
	u64 known = ~a.mask & ~b.mask;

	return (a.value & known) == (b.value & known);
}

struct tnum tnum_intersect(struct tnum a, struct tnum b)
{
	u64 v = a.value | b.value;
	u64 mu = a.mask & b.mask;

	return TNUM(v & ~mu, mu);
}

struct tnum tnum_cast(struct tnum a, u8 size)
{
	u64 keep = size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;

	a.value &= keep;
	a.mask &= keep;
	return a;
}

bool tnum_is_aligned(struct tnum a, u64 size)
{
	if (!size)
		return true;
	return !((a.value | a.mask) & (size - 1));
}

bool tnum_in(struct tnum a, struct tnum b)
{
	if (b.mask & ~a.mask)
		return false;
	b.value &= ~a.mask;
	return a.value == b.value;
}

int tnum_strn(char *str, size_t size, struct tnum a)
{
	return snprintf(str, size, "(0x%llx; 0x%llx)", (unsigned long long)a.value,
			(unsigned long long)a.mask);
}

int tnum_sbin(char *str, size_t size, struct tnum a)
{
	size_t n;

	if (!size)
		return 64;
	/* bit 63 first; only the first size - 1 characters fit */
	for (n = 64; n; n--) {
		if (n < size)
			str[n - 1] = (a.mask & 1) ? 'x' : (a.value & 1) ? '1' : '0';
		a.mask >>= 1;
		a.value >>= 1;
	}
	str[min(size - 1, (size_t)64)] = 0;
	return 64;
}

struct tnum tnum_subreg(struct tnum a)
{
	return tnum_cast(a, 4);
}

struct tnum tnum_clear_subreg(struct tnum a)
{
	return tnum_lshift(tnum_rshift(a, 32), 32);
}

struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg)
{
	return tnum_or(tnum_clear_subreg(reg), tnum_subreg(subreg));
}

struct tnum tnum_const_subreg(struct tnum a, u32 value)
{
	return tnum_with_subreg(a, tnum_const(value));
}

u64 tnum_step(struct tnum t, u64 z)
{
	u64 tmax = t.value | t.mask, d, low, filled;
	unsigned int hi;

	if (z >= tmax)
		return tmax;
	if (z < t.value)
		return t.value;
	/*
	 * A member is t.value + s for a submask s of t.mask: find the
	 * smallest submask above d = z - t.value. Below the highest bit of
	 * d outside the mask nothing of d can be kept; above it, count up in
	 * the mask bits only: set every other bit so that the +1 carries over
	 * them, then keep the mask bits. d < t.mask, so some mask bit above
	 * is free and hi < 64.
	 */
	d = z - t.value;
	hi = tn_fls64(d & ~t.mask);
	low = hi >= 64 ? ~0ULL : (1ULL << hi) - 1;
	filled = d | low | ~t.mask;
	return t.value | ((filled + 1) & t.mask);
}
