// SPDX-License-Identifier: GPL-2.0
/*
 * Soundness of the verifier's scalar tracking (kernel/bpf/tnum.c and
 * kernel/bpf/reg_bounds.c): random registers are built around a few
 * concrete "witness" values (tnums and 64/32-bit, signed/unsigned ranges,
 * crossing the sign boundaries or not, constants), concrete members are
 * drawn from them, and every concrete result must lie in the abstract one:
 *  - each ALU op, 64- and 32-bit, against the BPF semantics (division by
 *    zero is 0, modulo by zero keeps dst, shift amounts masked, ALU32
 *    zero-extends);
 *  - is_scalar_branch_taken() never decides against a concrete pair;
 *  - reg_set_min_max() keeps a pair where the condition holds in the true
 *    branch and one where it fails in the false branch;
 *  - reg_bounds_sync(), coerce_reg_to_size{,_sx}(), coerce_subreg_to_size_sx().
 * Then precision checks of the kernel's known results and the log form.
 * Needs nothing but the two files: argv[1] is the seed, argv[2] the rounds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/tnum.h>

#define NW	4	/* witnesses per register */
#define NS	4	/* concrete samples per register */

static u64 rs = 0x9e3779b97f4a7c15ULL;
static unsigned long failures, checks;

static u64 rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 2685821657736338717ULL;
}

static u64 rnd_n(u64 n)
{
	return rnd() % n;
}

#define FAIL(...)							\
	do {								\
		if (failures++ < 12) {					\
			printf("FAIL %s:%d: ", __func__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

static bool reg_contains(const struct bpf_reg_state *r, u64 v)
{
	return (v & ~r->var_off.mask) == r->var_off.value &&
	       r->umin_value <= v && v <= r->umax_value &&
	       r->smin_value <= (s64)v && (s64)v <= r->smax_value &&
	       r->u32_min_value <= (u32)v && (u32)v <= r->u32_max_value &&
	       r->s32_min_value <= (s32)v && (s32)v <= r->s32_max_value;
}

static void dump(const char *what, const struct bpf_reg_state *r)
{
	char buf[256];

	bpf_reg_str(buf, sizeof(buf), r);
	printf("    %s: %s\n      [var_off %#" PRIx64 "/%#" PRIx64 " u %#" PRIx64 "..%#" PRIx64
	       " s %" PRId64 "..%" PRId64 " u32 %#x..%#x s32 %d..%d]\n", what, buf,
	       (uint64_t)r->var_off.value, (uint64_t)r->var_off.mask, (uint64_t)r->umin_value,
	       (uint64_t)r->umax_value, (int64_t)r->smin_value, (int64_t)r->smax_value,
	       r->u32_min_value, r->u32_max_value, r->s32_min_value, r->s32_max_value);
}

/* ---- random registers ----------------------------------------------------- */

struct areg {
	struct bpf_reg_state r;
	u64 w[NW];		/* members, by construction */
	u64 s[NS];		/* members drawn from r */
};

static u64 interesting(void)
{
	static const u64 base[] = {
		0, 1, 0x7fffffffULL, 0x80000000ULL, 0xffffffffULL, 0x100000000ULL,
		0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
		0xffffffff80000000ULL, 0xffffffff00000000ULL, 0x1000, 0xff, 0xffff,
	};
	u64 b;

	switch (rnd_n(4)) {
	case 0:
		return rnd_n(300);
	case 1:
		return (u64)-(s64)rnd_n(300);
	case 2:
		b = base[rnd_n(ARRAY_SIZE(base))];
		return b + (u64)(s64)((s64)rnd_n(64) - 32);
	default:
		return rnd_n(2) ? rnd() : (u64)(s64)(s32)rnd();
	}
}

static struct tnum gen_tnum(void)
{
	u64 v = interesting(), m;
	unsigned int k = 1 + rnd_n(12), sh;

	switch (rnd_n(8)) {
	case 0:
		m = 0;
		break;
	case 1:
	case 2:
		m = (1ULL << k) - 1;
		break;
	case 3:
		m = rnd() & rnd() & rnd();
		break;
	case 4:
		/* unknown bits across bit 31 or bit 63 */
		sh = rnd_n(2) ? 31 : 63;
		m = (((1ULL << k) - 1) << (sh - k / 2)) | ((1ULL << rnd_n(8)) - 1);
		break;
	case 5:
		m = ~0ULL;
		break;
	case 6:
		m = 0xffffffff00000000ULL | ((1ULL << k) - 1);
		break;
	default:
		m = 0xffffffffULL >> rnd_n(32);
		break;
	}
	return TNUM(v & ~m, m);
}

static u64 tnum_member(struct tnum t, u64 bits)
{
	return t.value | (bits & t.mask);
}

/* widen [lo, hi] a little, without wrapping */
static void slack_u64(u64 *lo, u64 *hi)
{
	u64 d;

	if (rnd_n(2)) {
		d = rnd_n(2) ? rnd_n(8) : rnd_n(1 << 20);
		*lo = *lo >= d ? *lo - d : 0;
	}
	if (rnd_n(2)) {
		d = rnd_n(2) ? rnd_n(8) : rnd_n(1 << 20);
		*hi = *hi <= ~0ULL - d ? *hi + d : ~0ULL;
	}
}

/* A register; with @near, one around @near's values (comparisons undecided). */
static void gen_reg(struct areg *a, const struct areg *near)
{
	struct tnum t = gen_tnum();
	struct bpf_reg_state *r = &a->r;
	u64 w0 = rnd(), umin = ~0ULL, umax = 0;
	s64 smin = INT64_MAX, smax = INT64_MIN;
	u32 u32min = ~0U, u32max = 0;
	s32 s32min = INT32_MAX, s32max = INT32_MIN;
	int i, nw = rnd_n(5) ? NW : 1;	/* 1: a constant unless ranges widen */

	if (near) {
		w0 = near->w[rnd_n(NW)];
		w0 += rnd_n(16) - 8;
		t.value = w0 & ~t.mask;
	}

	for (i = 0; i < NW; i++) {
		/* one rnd() per statement: the same sequence from every compiler */
		u64 span = 1ULL << (1 + rnd_n(20)), d = rnd_n(span), back = 1ULL << rnd_n(12);

		d -= back;

		a->w[i] = i < nw ? tnum_member(t, i ? w0 + d : w0) : a->w[0];
		umin = min(umin, a->w[i]);
		umax = max(umax, a->w[i]);
		smin = min(smin, (s64)a->w[i]);
		smax = max(smax, (s64)a->w[i]);
		u32min = min(u32min, (u32)a->w[i]);
		u32max = max(u32max, (u32)a->w[i]);
		s32min = min(s32min, (s32)a->w[i]);
		s32max = max(s32max, (s32)a->w[i]);
	}

	__mark_reg_unknown(r);
	if (nw == 1 && rnd_n(2)) {
		__mark_reg_known(r, a->w[0]);
	} else {
		r->var_off = rnd_n(6) ? t : tnum_unknown;
		if (rnd_n(10) < 6) {
			slack_u64(&umin, &umax);
			r->umin_value = umin;
			r->umax_value = umax;
		}
		if (rnd_n(10) < 6) {
			u64 lo = (u64)smin ^ (1ULL << 63), hi = (u64)smax ^ (1ULL << 63);

			slack_u64(&lo, &hi);
			r->smin_value = (s64)(lo ^ (1ULL << 63));
			r->smax_value = (s64)(hi ^ (1ULL << 63));
		}
		if (rnd_n(10) < 5) {
			u64 lo = u32min, hi = u32max;

			slack_u64(&lo, &hi);
			r->u32_min_value = (u32)min(lo, 0xffffffffULL);
			r->u32_max_value = (u32)min(hi, 0xffffffffULL);
		}
		if (rnd_n(10) < 5) {
			u64 lo = (u32)s32min ^ 0x80000000U, hi = (u32)s32max ^ 0x80000000U;

			slack_u64(&lo, &hi);
			r->s32_min_value = (s32)((u32)min(lo, 0xffffffffULL) ^ 0x80000000U);
			r->s32_max_value = (s32)((u32)min(hi, 0xffffffffULL) ^ 0x80000000U);
		}
		reg_bounds_sync(r);
	}
	checks++;
	if (!reg_bounds_sane(r)) {
		FAIL("reg_bounds_sync() of a non-empty register is not sane");
		dump("reg", r);
	}
	for (i = 0; i < NW; i++) {
		if (!reg_contains(r, a->w[i])) {
			FAIL("reg_bounds_sync() lost witness %#" PRIx64, (uint64_t)a->w[i]);
			dump("reg", r);
		}
	}
	/* concrete members: witnesses, tnum members and values at the bounds */
	for (i = 0; i < NS; i++) {
		u64 c = a->w[rnd_n(NW)];
		int tries;

		for (tries = 0; tries < 6 && rnd_n(3); tries++) {
			u64 cand, d = rnd_n(4);

			switch (rnd_n(7)) {
			case 0: cand = tnum_member(r->var_off, rnd()); break;
			case 1: cand = r->umin_value + d; break;
			case 2: cand = r->umax_value - d; break;
			case 3: cand = (u64)r->smin_value + d; break;
			case 4: cand = (u64)r->smax_value - d; break;
			case 5: cand = (r->umin_value & ~0xffffffffULL) | r->u32_max_value; break;
			default: cand = tnum_member(r->var_off, c + d); break;
			}
			if (reg_contains(r, cand)) {
				c = cand;
				break;
			}
		}
		a->s[i] = c;
	}
}

/* ---- ALU ------------------------------------------------------------------ */

struct alu_op {
	const char *name;
	u8 op;
	s16 off;
};

static const struct alu_op alu_ops[] = {
	{ "add", BPF_ADD, 0 }, { "sub", BPF_SUB, 0 }, { "mul", BPF_MUL, 0 },
	{ "div", BPF_DIV, 0 }, { "sdiv", BPF_DIV, 1 }, { "mod", BPF_MOD, 0 },
	{ "smod", BPF_MOD, 1 }, { "or", BPF_OR, 0 }, { "and", BPF_AND, 0 },
	{ "lsh", BPF_LSH, 0 }, { "rsh", BPF_RSH, 0 }, { "neg", BPF_NEG, 0 },
	{ "xor", BPF_XOR, 0 }, { "arsh", BPF_ARSH, 0 },
};

static u64 alu64(u8 op, s16 off, u64 a, u64 b)
{
	switch (op) {
	case BPF_ADD: return a + b;
	case BPF_SUB: return a - b;
	case BPF_MUL: return a * b;
	case BPF_DIV:
		if (!b)
			return 0;
		if (!off)
			return a / b;
		if ((s64)b == -1)
			return -a;
		return (u64)((s64)a / (s64)b);
	case BPF_MOD:
		if (!b)
			return a;
		if (!off)
			return a % b;
		if ((s64)b == -1)
			return 0;
		return (u64)((s64)a % (s64)b);
	case BPF_OR: return a | b;
	case BPF_AND: return a & b;
	case BPF_XOR: return a ^ b;
	case BPF_LSH: return a << (b & 63);
	case BPF_RSH: return a >> (b & 63);
	case BPF_ARSH: return (u64)((s64)a >> (b & 63));
	case BPF_NEG: return -a;
	}
	return 0;
}

static u64 alu32(u8 op, s16 off, u32 a, u32 b)
{
	u32 r = 0;

	switch (op) {
	case BPF_ADD: r = a + b; break;
	case BPF_SUB: r = a - b; break;
	case BPF_MUL: r = a * b; break;
	case BPF_DIV:
		if (!b)
			r = 0;
		else if (!off)
			r = a / b;
		else if ((s32)b == -1)
			r = -a;
		else
			r = (u32)((s32)a / (s32)b);
		break;
	case BPF_MOD:
		if (!b)
			r = a;
		else if (!off)
			r = a % b;
		else if ((s32)b == -1)
			r = 0;
		else
			r = (u32)((s32)a % (s32)b);
		break;
	case BPF_OR: r = a | b; break;
	case BPF_AND: r = a & b; break;
	case BPF_XOR: r = a ^ b; break;
	case BPF_LSH: r = a << (b & 31); break;
	case BPF_RSH: r = a >> (b & 31); break;
	case BPF_ARSH: r = (u32)((s32)a >> (b & 31)); break;
	case BPF_NEG: r = -a; break;
	}
	return r;	/* zero-extended */
}

static struct bpf_insn alu_insn(const struct alu_op *o, bool is64)
{
	struct bpf_insn insn;

	memset(&insn, 0, sizeof(insn));
	insn.code = (is64 ? BPF_ALU64 : BPF_ALU) | o->op | BPF_X;
	insn.dst_reg = 1;
	insn.src_reg = 2;
	insn.off = o->off;
	return insn;
}

static void check_alu(const struct areg *a, const struct areg *b)
{
	size_t k;
	int w, i;

	for (k = 0; k < ARRAY_SIZE(alu_ops); k++) {
		const struct alu_op *o = &alu_ops[k];

		for (w = 0; w < 2; w++) {
			struct bpf_insn insn = alu_insn(o, w);
			struct bpf_reg_state dst = a->r, src = o->op == BPF_NEG ? a->r : b->r;
			bool shift = o->op == BPF_LSH || o->op == BPF_RSH || o->op == BPF_ARSH;
			u64 amount = rnd_n(w ? 64 : 32);

			/* half of the shifts by a constant in range: the tracked case */
			if (shift && rnd_n(2))
				__mark_reg_known(&src, amount);
			else
				shift = false;

			adjust_scalar_min_max_vals(NULL, &insn, &dst, src);
			checks++;
			if (dst.type != SCALAR_VALUE || !reg_bounds_sane(&dst)) {
				FAIL("%s%s: result not a sane scalar", o->name, w ? "64" : "32");
				dump("dst", &a->r);
				dump("src", &src);
				dump("res", &dst);
			}
			for (i = 0; i < NS; i++) {
				u64 x = a->s[i];
				u64 y = o->op == BPF_NEG ? x : shift ? amount : b->s[i];
				u64 c = w ? alu64(o->op, o->off, x, y) :
					    alu32(o->op, o->off, (u32)x, (u32)y);

				checks++;
				if (reg_contains(&dst, c))
					continue;
				FAIL("%s%s: %#" PRIx64 " op %#" PRIx64 " = %#" PRIx64
				     " not in the result", o->name, w ? "64" : "32",
				     (uint64_t)x, (uint64_t)y, (uint64_t)c);
				dump("dst", &a->r);
				dump("src", &src);
				dump("res", &dst);
				break;
			}
		}
	}
}

/* ---- jumps ---------------------------------------------------------------- */

static const struct {
	const char *name;
	u8 op;
} jmp_ops[] = {
	{ "==", BPF_JEQ }, { "!=", BPF_JNE }, { "&", BPF_JSET }, { ">", BPF_JGT },
	{ ">=", BPF_JGE }, { "<", BPF_JLT }, { "<=", BPF_JLE }, { "s>", BPF_JSGT },
	{ "s>=", BPF_JSGE }, { "s<", BPF_JSLT }, { "s<=", BPF_JSLE },
};

static bool cond(u8 op, u64 x, u64 y, bool is32)
{
	if (is32) {
		x = (u32)x;
		y = (u32)y;
	}
	switch (op) {
	case BPF_JEQ: return x == y;
	case BPF_JNE: return x != y;
	case BPF_JSET: return x & y;
	case BPF_JGT: return x > y;
	case BPF_JGE: return x >= y;
	case BPF_JLT: return x < y;
	case BPF_JLE: return x <= y;
	}
	if (is32) {
		s32 sx = (s32)x, sy = (s32)y;

		switch (op) {
		case BPF_JSGT: return sx > sy;
		case BPF_JSGE: return sx >= sy;
		case BPF_JSLT: return sx < sy;
		default: return sx <= sy;
		}
	}
	switch (op) {
	case BPF_JSGT: return (s64)x > (s64)y;
	case BPF_JSGE: return (s64)x >= (s64)y;
	case BPF_JSLT: return (s64)x < (s64)y;
	default: return (s64)x <= (s64)y;
	}
}

static void check_jmp(const struct areg *a, const struct areg *b)
{
	size_t k;
	int w, i;

	for (k = 0; k < ARRAY_SIZE(jmp_ops); k++) {
		for (w = 0; w < 2; w++) {
			bool is32 = !w;
			u8 op = jmp_ops[k].op;
			struct bpf_reg_state r1 = a->r, r2 = b->r, t1, t2, f1, f2;
			bool tsane, fsane;
			int taken = is_scalar_branch_taken(&r1, &r2, op, is32);

			for (i = 0; i < NS; i++) {
				bool c = cond(op, a->s[i], b->s[i], is32);

				checks++;
				if (taken < 0 || taken == c)
					continue;
				FAIL("branch_taken %s%s says %d for %#" PRIx64 ", %#" PRIx64,
				     jmp_ops[k].name, is32 ? "32" : "", taken,
				     (uint64_t)a->s[i], (uint64_t)b->s[i]);
				dump("r1", &a->r);
				dump("r2", &b->r);
			}
			if (taken >= 0)
				continue;
			t1 = f1 = a->r;
			t2 = f2 = b->r;
			reg_set_min_max(NULL, &t1, &t2, &f1, &f2, op, is32);
			tsane = reg_bounds_sane(&t1) && reg_bounds_sane(&t2);
			fsane = reg_bounds_sane(&f1) && reg_bounds_sane(&f2);
			for (i = 0; i < NS; i++) {
				bool c = cond(op, a->s[i], b->s[i], is32);
				const struct bpf_reg_state *p1 = c ? &t1 : &f1, *p2 = c ? &t2 : &f2;

				checks++;
				if ((c ? tsane : fsane) && reg_contains(p1, a->s[i]) &&
				    reg_contains(p2, b->s[i]))
					continue;
				FAIL("set_min_max %s%s: (%#" PRIx64 ", %#" PRIx64
				     ") lost from the %s branch", jmp_ops[k].name, is32 ? "32" : "",
				     (uint64_t)a->s[i], (uint64_t)b->s[i], c ? "true" : "false");
				dump("r1", &a->r);
				dump("r2", &b->r);
				dump("b1", p1);
				dump("b2", p2);
				break;
			}
		}
	}
}

/* ---- casts ---------------------------------------------------------------- */

static void check_casts(const struct areg *a)
{
	static const int sizes[] = { 1, 2, 4 };
	size_t k;
	int i;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		int sz = sizes[k];
		u64 mask = (1ULL << (sz * 8)) - 1;
		struct bpf_reg_state z = a->r, sx = a->r, sx32 = a->r;

		coerce_reg_to_size(&z, sz);
		coerce_reg_to_size_sx(&sx, sz);
		if (sz < 4) {
			coerce_subreg_to_size_sx(&sx32, sz);
			zext_32_to_64(&sx32);
			reg_bounds_sync(&sx32);
		}
		for (i = 0; i < NS; i++) {
			u64 x = a->s[i];
			u64 vsx = sz == 1 ? (u64)(s64)(s8)x : sz == 2 ? (u64)(s64)(s16)x :
				  (u64)(s64)(s32)x;

			checks += 3;
			if (!reg_contains(&z, x & mask)) {
				FAIL("coerce_reg_to_size(%d) of %#" PRIx64, sz, (uint64_t)x);
				dump("in", &a->r);
				dump("out", &z);
			}
			if (!reg_contains(&sx, vsx)) {
				FAIL("coerce_reg_to_size_sx(%d) of %#" PRIx64, sz, (uint64_t)x);
				dump("in", &a->r);
				dump("out", &sx);
			}
			if (sz < 4 && !reg_contains(&sx32, (u32)vsx)) {
				FAIL("coerce_subreg_to_size_sx(%d) of %#" PRIx64, sz, (uint64_t)x);
				dump("in", &a->r);
				dump("out", &sx32);
			}
		}
	}
}

/* ---- precision: the kernel's results -------------------------------------- */

static struct bpf_reg_state known(u64 v)
{
	struct bpf_reg_state r;

	__mark_reg_unknown(&r);
	__mark_reg_known(&r, v);
	return r;
}

static struct bpf_reg_state urange(u64 lo, u64 hi)
{
	struct bpf_reg_state r;

	__mark_reg_unknown(&r);
	r.umin_value = lo;
	r.umax_value = hi;
	reg_bounds_sync(&r);
	return r;
}

static struct bpf_reg_state alu(u8 code, s16 off, struct bpf_reg_state dst,
				struct bpf_reg_state src)
{
	struct bpf_insn insn;

	memset(&insn, 0, sizeof(insn));
	insn.code = code;
	insn.off = off;
	adjust_scalar_min_max_vals(NULL, &insn, &dst, src);
	return dst;
}

#define EXPECT(c)							\
	do {								\
		checks++;						\
		if (!(c))						\
			FAIL("%s", #c);					\
	} while (0)

#define EXPECT_STR(r, s)						\
	do {								\
		char __b[256];						\
		struct bpf_reg_state __r = (r);				\
									\
		bpf_reg_str(__b, sizeof(__b), &__r);			\
		checks++;						\
		if (strcmp(__b, (s)))					\
			FAIL("bpf_reg_str: \"%s\", want \"%s\"", __b, (s)); \
	} while (0)

static void check_precision(void)
{
	struct bpf_reg_state u, r, t1, t2, f1, f2, c;
	char small[8];

	__mark_reg_unknown(&u);
	EXPECT(tnum_is_unknown(u.var_off) && u.type == SCALAR_VALUE);

	/* [0, 255] + [0, 255] = [0, 510] */
	r = alu(BPF_ALU64 | BPF_ADD | BPF_X, 0, urange(0, 255), urange(0, 255));
	EXPECT(r.umin_value == 0 && r.umax_value == 510 && r.smax_value == 510);
	EXPECT(r.var_off.value == 0 && r.var_off.mask == 0x1ff);
	/* r &= 0xff */
	r = alu(BPF_ALU64 | BPF_AND | BPF_K, 0, u, known(0xff));
	EXPECT(r.umax_value == 255 && r.var_off.mask == 0xff && r.smin_value == 0);
	/* [0, 15] * 3: at most 45, bits (0; 0x3f) */
	r = alu(BPF_ALU64 | BPF_MUL | BPF_K, 0, urange(0, 15), known(3));
	EXPECT(r.umax_value == 45 && r.umin_value == 0);
	/* (x & 2 | 1) * 3 & 4 == 0 with 6.18's tnum_mul */
	r = alu(BPF_ALU64 | BPF_AND | BPF_K, 0, u, known(2));
	r = alu(BPF_ALU64 | BPF_OR | BPF_K, 0, r, known(1));
	r = alu(BPF_ALU64 | BPF_MUL | BPF_K, 0, r, known(3));
	r = alu(BPF_ALU64 | BPF_AND | BPF_K, 0, r, known(4));
	EXPECT(tnum_equals_const(r.var_off, 0));
	/* [0, 255] << 3 */
	r = alu(BPF_ALU64 | BPF_LSH | BPF_K, 0, urange(0, 255), known(3));
	EXPECT(r.umax_value == 2040 && r.var_off.mask == 0x7f8);
	/* shifts by an unknown amount, and DIV/MOD: unknown (6.18) */
	r = alu(BPF_ALU64 | BPF_LSH | BPF_X, 0, urange(0, 255), urange(0, 3));
	EXPECT(tnum_is_unknown(r.var_off) && r.umax_value == ~0ULL);
	r = alu(BPF_ALU64 | BPF_RSH | BPF_K, 0, urange(0, 255), known(64));
	EXPECT(tnum_is_unknown(r.var_off));
	r = alu(BPF_ALU64 | BPF_DIV | BPF_K, 0, urange(0, 255), known(2));
	EXPECT(tnum_is_unknown(r.var_off) && r.umax_value == ~0ULL);
	r = alu(BPF_ALU | BPF_MOD | BPF_K, 0, urange(0, 255), known(2));
	EXPECT(tnum_is_unknown(r.var_off));
	/* r >>= 60, arsh of a negative constant */
	r = alu(BPF_ALU64 | BPF_RSH | BPF_K, 0, u, known(60));
	EXPECT(r.umax_value == 15);
	r = alu(BPF_ALU64 | BPF_ARSH | BPF_K, 0, known(-64), known(3));
	EXPECT(tnum_equals_const(r.var_off, (u64)-8) && r.smin_value == -8);
	r = alu(BPF_ALU | BPF_ARSH | BPF_K, 0, known(0x80000000), known(31));
	EXPECT(tnum_equals_const(r.var_off, 0xffffffff));
	/* NEG */
	r = alu(BPF_ALU64 | BPF_NEG, 0, known(5), known(5));
	EXPECT(tnum_equals_const(r.var_off, (u64)-5) && r.smin_value == -5 && r.smax_value == -5);
	c = urange(1, 10);
	r = alu(BPF_ALU64 | BPF_NEG, 0, c, c);
	EXPECT(r.smin_value == -10 && r.smax_value == -1);
	/* ALU32 zero-extends: w = w + 1 of anything */
	r = alu(BPF_ALU | BPF_ADD | BPF_K, 0, u, known(1));
	EXPECT(r.umax_value == 0xffffffff && !(r.var_off.mask >> 32) && r.smin_value == 0);
	r = alu(BPF_ALU | BPF_SUB | BPF_K, 0, known(0), known(1));
	EXPECT(tnum_equals_const(r.var_off, 0xffffffff));
	/* u32 add that wraps for every pair keeps a range */
	r = alu(BPF_ALU | BPF_ADD | BPF_X, 0, urange(0xfffffff0, 0xffffffff),
		urange(0x20, 0x30));
	EXPECT(r.umin_value == 0x10 && r.umax_value == 0x2f);
	/* u64 sub that underflows for some pairs only: unbounded */
	r = alu(BPF_ALU64 | BPF_SUB | BPF_X, 0, urange(5, 10), urange(0, 7));
	EXPECT(r.umin_value == 0 && r.umax_value == ~0ULL && r.smin_value == -2 &&
	       r.smax_value == 10);

	/* if r < 16 */
	t1 = f1 = u;
	t2 = f2 = known(16);
	EXPECT(reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JLT, false) == 0);
	EXPECT(t1.umax_value == 15 && t1.var_off.mask == 0xf && f1.umin_value == 16);
	/* if w < 16: the 32-bit view only */
	t1 = f1 = u;
	t2 = f2 = known(16);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JLT, true);
	EXPECT(t1.u32_max_value == 15 && t1.umax_value == 0xffffffff0000000fULL);
	/* if r s> -1: non-negative */
	t1 = f1 = u;
	t2 = f2 = known(-1);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JSGT, false);
	EXPECT(t1.smin_value == 0 && t1.umax_value == 0x7fffffffffffffffULL &&
	       f1.smax_value == -1 && f1.umin_value == 0x8000000000000000ULL);
	/* JSET with one bit: known in both branches */
	t1 = f1 = u;
	t2 = f2 = known(4);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JSET, false);
	EXPECT((t1.var_off.value & 4) && !(t1.var_off.mask & 4));
	EXPECT(!(f1.var_off.value & 4) && !(f1.var_off.mask & 4));
	/* JSET with several bits: only the false branch learns */
	t1 = f1 = u;
	t2 = f2 = known(6);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JSET, false);
	EXPECT(tnum_is_unknown(t1.var_off) && f1.var_off.mask == ~6ULL);
	/* JNE at the edge of the range */
	t1 = f1 = urange(0, 10);
	t2 = f2 = known(0);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JNE, false);
	EXPECT(t1.umin_value == 1 && tnum_equals_const(f1.var_off, 0));
	/* JEQ of two ranges: their intersection */
	t1 = f1 = urange(0, 100);
	t2 = f2 = urange(50, 200);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JEQ, false);
	EXPECT(t1.umin_value == 50 && t1.umax_value == 100 && t2.umin_value == 50 &&
	       t2.umax_value == 100);
	/* [0x1_00000000, 0x3_80000000] with w s> 0 -> [0x1_00000001, 0x3_7fffffff] */
	t1 = f1 = urange(0x100000000ULL, 0x380000000ULL);
	t2 = f2 = known(0);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JSGT, true);
	EXPECT(t1.umin_value == 0x100000001ULL && t1.umax_value == 0x37fffffffULL);

	/* branch taken */
	r = urange(0, 10);
	c = known(20);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JGT, false) == 0);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JLT, false) == 1);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JEQ, false) == 0);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JNE, false) == 1);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JSET, false) == -1);
	c = known(10);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JLE, false) == 1);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JLT, false) == -1);
	c = known(16);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JSET, false) == 0);
	t1 = known(0x100000005ULL);
	c = known(5);
	EXPECT(is_scalar_branch_taken(&t1, &c, BPF_JEQ, true) == 1);
	EXPECT(is_scalar_branch_taken(&t1, &c, BPF_JEQ, false) == 0);
	r = alu(BPF_ALU64 | BPF_OR | BPF_K, 0, u, known(8));
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JSET, false) == -1);
	c = known(8);
	EXPECT(is_scalar_branch_taken(&r, &c, BPF_JSET, false) == 1);

	/* << 32 carries the s32 bounds, negative ones too */
	r = u;
	__mark_reg_s32_range(&r, -5, 5);
	r = alu(BPF_ALU64 | BPF_LSH | BPF_K, 0, r, known(32));
	EXPECT(r.smin_value == -5LL * (1LL << 32) && r.smax_value == 5LL * (1LL << 32));
	/* JSET false branch: the ranges come from the narrowed tnum only */
	t1 = f1 = urange(1, 112);
	t2 = f2 = known(31);
	reg_set_min_max(NULL, &t1, &t2, &f1, &f2, BPF_JSET, false);
	EXPECT(f1.umin_value == 0 && f1.umax_value == 96 && f1.var_off.mask == 0x60);
	/* a range meeting the tnum in one value: that constant */
	r = urange(0xff00, 0x40000000);
	r.var_off = TNUM(0, 0x40000000);
	reg_bounds_sync(&r);
	EXPECT(tnum_equals_const(r.var_off, 0x40000000) && r.umin_value == 0x40000000);
	/* u32 [3, U32_MAX] and s32 [S32_MIN, 1]: s32 [S32_MIN, -1] */
	__mark_reg_unknown(&r);
	r.u32_min_value = 3;
	r.s32_max_value = 1;
	reg_bounds_sync(&r);
	EXPECT(r.s32_max_value == -1 && r.u32_min_value == 0x80000000U);
	/* JEQ/JNE decided by a known bit that differs */
	r = alu(BPF_ALU64 | BPF_AND | BPF_K, 0, u, known(0xc0000000));
	c = alu(BPF_ALU64 | BPF_ADD | BPF_K, 0, r, known(1024));
	EXPECT(is_scalar_branch_taken(&c, &r, BPF_JNE, false) == 1);
	EXPECT(is_scalar_branch_taken(&c, &r, BPF_JEQ, true) == 0);

	/* s64 crossing zero, u64 meeting only its non-negative part */
	__mark_reg_unknown(&r);
	r.smin_value = -10;
	r.smax_value = 10;
	r.umin_value = 5;
	r.umax_value = 100;
	reg_bounds_sync(&r);
	EXPECT(r.smin_value == 5 && r.smax_value == 10 && r.umax_value == 10);

	/* marking, casts */
	c = known(0x1234);
	c.id = 7;
	c.off = 3;
	__mark_reg_unknown(&c);
	EXPECT(c.id == 0 && c.off == 0 && c.umax_value == ~0ULL);
	__mark_reg_const_zero(&c);
	EXPECT(register_is_null(&c) && register_is_const(&c) && tnum_is_const_reg(&c));
	r = urange(0, 0x1ff);
	coerce_reg_to_size(&r, 1);
	EXPECT(r.umax_value == 0xff);
	r = urange(0x80, 0xff);
	coerce_reg_to_size_sx(&r, 1);
	EXPECT(r.smin_value == -128 && r.smax_value == -1);
	r = u;
	__mark_reg_s32_range(&r, -5, 5);
	EXPECT(r.s32_min_value == -5 && r.s32_max_value == 5 && r.smin_value == -5);
	EXPECT(range_within(&u, &r) && !range_within(&r, &u));
	r = known(5);
	r.umax_value = 6;
	EXPECT(!reg_bounds_sane(&r));

	/* log form */
	EXPECT_STR(u, "scalar()");
	EXPECT_STR(known(5), "5");
	EXPECT_STR(known(-3), "-3");
	EXPECT_STR(urange(0, 255),
		   "scalar(smin=smin32=0,smax=umax=smax32=umax32=255,var_off=(0x0; 0xff))");
	r = u;
	r.type = PTR_TO_PACKET;
	__mark_reg_known(&r, 0);
	r.range = 14;
	r.id = 2;
	EXPECT_STR(r, "pkt(id=2,r=14)");
	r.type = PTR_TO_STACK;
	r.off = -8;
	EXPECT_STR(r, "fp-8");
	r.type = PTR_TO_MAP_VALUE | PTR_MAYBE_NULL;
	r.off = 4;
	EXPECT_STR(r, "map_value_or_null(id=2,off=4)");
	/* truncation is snprintf's */
	EXPECT(bpf_reg_str(small, sizeof(small), &u) == 8 && !strcmp(small, "scalar("));

	/* tnum basics */
	EXPECT(tnum_range(0, 255).mask == 0xff && tnum_range(5, 5).mask == 0);
	EXPECT(tnum_is_unknown(tnum_range(0, ~0ULL)));
	EXPECT(tnum_in(TNUM(0, 0xff), TNUM(0x10, 0x0f)) && !tnum_in(TNUM(0, 0xf), TNUM(0x10, 0)));
	EXPECT(tnum_is_aligned(TNUM(0x10, 0x30), 16) && !tnum_is_aligned(TNUM(0x10, 0x34), 8));
	EXPECT(tnum_arshift(TNUM(0x80000000, 0), 4, 32).value == 0xf8000000);
	EXPECT(tnum_const_subreg(TNUM(0, ~0ULL), 7).mask == 0xffffffff00000000ULL);
	{
		char s[72];

		tnum_sbin(s, sizeof(s), TNUM(2, 1));
		EXPECT(!strcmp(s + 61, "01x") && strlen(s) == 64);
		tnum_strn(s, sizeof(s), TNUM(0, 0xff));
		EXPECT(!strcmp(s, "(0x0; 0xff)"));
	}
}

/* members of t in increasing order (t.mask of at most 10 bits) */
static int tnum_members(struct tnum t, u64 *out)
{
	u64 s = 0;
	int n = 0;

	do {
		out[n++] = t.value | s;
		s = (s - t.mask) & t.mask;	/* next submask, increasing */
	} while (s);
	return n;
}

/* tnum_step() and tnum_overlap() against enumeration */
static void check_tnum_enum(struct tnum a, struct tnum b)
{
	u64 ma[1024], z, want;
	int na, i;
	bool common = false;

	a.mask &= 0x800000030000300fULL;
	b.mask &= 0x800000030000300fULL;
	a.value &= ~a.mask;
	b.value &= ~b.mask;
	na = tnum_members(a, ma);
	for (i = 0; i < na; i++)
		common |= (ma[i] & ~b.mask) == b.value;
	checks += 2;
	if (tnum_overlap(a, b) != common)
		FAIL("tnum_overlap (%#" PRIx64 "; %#" PRIx64 ") (%#" PRIx64 "; %#" PRIx64 ")",
		     (uint64_t)a.value, (uint64_t)a.mask, (uint64_t)b.value, (uint64_t)b.mask);
	/* z: a member, a neighbour of one, or anything */
	z = ma[rnd_n(na)];
	if (rnd_n(2))
		z += rnd_n(2) ? 1 : -1;
	else if (!rnd_n(4))
		z = rnd();
	want = ma[na - 1];
	if (z < ma[0]) {
		want = ma[0];
	} else {
		for (i = 0; i < na; i++)
			if (ma[i] > z) {
				want = ma[i];
				break;
			}
	}
	if (tnum_step(a, z) != want)
		FAIL("tnum_step((%#" PRIx64 "; %#" PRIx64 "), %#" PRIx64 ") = %#" PRIx64
		     ", want %#" PRIx64, (uint64_t)a.value, (uint64_t)a.mask, (uint64_t)z,
		     (uint64_t)tnum_step(a, z), (uint64_t)want);
}

/* tnum ops against brute force on small random tnums */
static void check_tnum(unsigned long rounds)
{
	unsigned long n;

	for (n = 0; n < rounds; n++) {
		struct tnum a = gen_tnum(), b = gen_tnum(), r;
		u64 x = tnum_member(a, rnd()), y = tnum_member(b, rnd());
		u8 sh = rnd_n(64);

		checks += 10;
#define T_IN(expr, val) \
	do { r = (expr); if (!tnum_in(r, TNUM((val), 0))) FAIL("%s: %#" PRIx64 " %#" PRIx64, \
		#expr, (uint64_t)x, (uint64_t)y); } while (0)
		T_IN(tnum_add(a, b), x + y);
		T_IN(tnum_sub(a, b), x - y);
		T_IN(tnum_mul(a, b), x * y);
		T_IN(tnum_and(a, b), x & y);
		T_IN(tnum_or(a, b), x | y);
		T_IN(tnum_xor(a, b), x ^ y);
		T_IN(tnum_neg(a), -x);
		T_IN(tnum_lshift(a, sh), x << sh);
		T_IN(tnum_rshift(a, sh), x >> sh);
		T_IN(tnum_arshift(a, sh, 64), (u64)((s64)x >> sh));
		T_IN(tnum_arshift(a, sh & 31, 32), (u32)((s32)x >> (sh & 31)));
		T_IN(tnum_range(min(x, y), max(x, y)), x);
		T_IN(tnum_range(min(x, y), max(x, y)), y);
#undef T_IN
		r = tnum_union(a, b);
		if (!tnum_in(r, a) || !tnum_in(r, b))
			FAIL("tnum_union");
		check_tnum_enum(a, b);
	}
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000, n;
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	struct areg a, b;

	rs ^= seed * 0x2545f4914f6cdd1dULL;
	if (!rs)
		rs = 1;
	check_precision();
	check_tnum(rounds * 10);
	for (n = 0; n < rounds; n++) {
		gen_reg(&a, NULL);
		gen_reg(&b, rnd_n(2) ? &a : NULL);
		check_alu(&a, &b);
		check_jmp(&a, &b);
		check_casts(&a);
	}
	printf("reg_bounds_test: seed %llu, %lu rounds, %lu checks, %lu failures\n",
	       (unsigned long long)seed, rounds, checks, failures);
	return failures ? 1 : 0;
}
