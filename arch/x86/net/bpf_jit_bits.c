// SPDX-License-Identifier: GPL-2.0
/*
 * Two data-flow analyses over a checked program for the x86 JIT, so that
 * it can emit what a one-to-one translation cannot:
 *
 * Demanded bits (backward): for each slot and register, the bits that may
 * still be read before the register is written again. clang computes
 * 32-bit values in 64-bit registers and truncates late ("r1 <<= 32;
 * r1 >>= 32" before a store, a JMP32), so the high half of many values is
 * never read; an x86 instruction that leaves it different, such as a
 * 32-bit rotate for "rT = rX; rT &= M; rT >>= R; rX <<= L; rX |= rT",
 * gives the same program. Each instruction maps what is demanded of its
 * result to what it demands of its operands: an add or a multiply needs
 * the operand bits at and below the highest demanded result bit, an AND
 * with a constant only those the constant keeps, a shift by K moves the
 * demand by K, an ALU32 operation reads only the low halves, a store the
 * bytes it writes, a jump, an address, a helper argument and R0 at EXIT
 * everything. Anything not modelled demands every register in full.
 *
 * Constants (forward): the registers that hold the same known value on
 * every path into a slot, from MOV K, ld_imm64 and register copies, so
 * that "rT &= rM" with a mask materialized before a loop is seen as the
 * AND with that mask. Every subprogram and callback entry starts unknown.
 *
 * Both iterate sweeps to a fixpoint; the lattices are finite (a mask only
 * gains bits, a constant only becomes unknown), so they converge, and the
 * pass limit only bounds pathological inputs, which then get no analysis.
 *
 * Kernel: none; the kernel's x86 JIT translates one instruction at a time
 *	   (its verifier's compute_live_registers() is the closest relative:
 *	   liveness per register, not per bit).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf_verifier.h>

#include "bpf_jit_bits.h"

#define M32		0xffffffffULL
#define MAX_SWEEPS	256

static bool is_ld_imm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/*
 * The slots control may reach from @i: up to two, in @succ. A successor
 * past the end is returned as @len (the callers treat it as "anything").
 */
static u32 bits_succ(const struct bpf_insn *insns, u32 len, u32 i, u32 succ[2])
{
	const struct bpf_insn *insn = &insns[i];
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	s64 to;

	if (is_ld_imm64(insn)) {
		succ[0] = i + 2 < len ? i + 2 : len;
		return 1;
	}
	succ[0] = i + 1 < len ? i + 1 : len;
	if (cls != BPF_JMP && cls != BPF_JMP32)
		return 1;
	if (op == BPF_EXIT)
		return 0;
	if (op == BPF_CALL || insn->code == (BPF_JMP | BPF_TAIL_CALL) ||
	    insn->code == BPF_CALL_LOOP)
		return 1;
	to = (s64)i + 1 + (cls == BPF_JMP32 && op == BPF_JA ? insn->imm : insn->off);
	if (to < 0 || to >= len)
		to = len;
	if (op == BPF_JA) {
		succ[0] = (u32)to;
		return 1;
	}
	succ[1] = (u32)to;
	return 2;
}

/* ---- demanded bits ------------------------------------------------------ */

/* the bits at and below the highest demanded one: what carries can reach */
static u64 fill_down(u64 d)
{
	return d ? ~0ULL >> __builtin_clzll(d) : 0;
}

static void demand_all(u64 *d)
{
	u32 r;

	for (r = 0; r < MAX_BPF_REG; r++)
		d[r] = ~0ULL;
}

static u64 store_mask(u8 size)
{
	return size == BPF_B ? 0xff : size == BPF_H ? 0xffff : size == BPF_W ? M32 : ~0ULL;
}

/* ALU/ALU64 at slot @i: @d is the demand after it on entry, before it on return */
static void demand_alu(const struct bpf_jit_bits *b, u32 i, const struct bpf_insn *insn, u64 *d)
{
	bool w = BPF_CLASS(insn->code) == BPF_ALU64, x = BPF_SRC(insn->code) == BPF_X;
	u8 dst = insn->dst_reg, src = insn->src_reg, op = BPF_OP(insn->code);
	u64 mask = w ? ~0ULL : M32, k = w ? (u64)(s64)insn->imm : (u32)insn->imm;
	u64 dv = d[dst] & mask, nd, ns = 0, kv;
	u32 n = (u32)insn->imm & (w ? 63 : 31), top = w ? 63 : 31;

	if (dst >= MAX_BPF_REG || (x && src >= MAX_BPF_REG)) {
		demand_all(d);
		return;
	}
	switch (op) {
	case BPF_ADD: case BPF_SUB: case BPF_MUL:
		nd = ns = fill_down(dv);
		break;
	case BPF_NEG:
		nd = fill_down(dv);
		x = false;
		break;
	case BPF_OR:
		nd = ns = dv;
		if (!x)
			nd &= ~k;
		break;
	case BPF_XOR:
		nd = ns = dv;
		break;
	case BPF_AND:
		nd = ns = dv;
		if (!x)
			nd &= k;
		else {
			if (src != dst && bpf_jit_known(b, i, src, &kv))
				nd &= kv;
			if (src != dst && bpf_jit_known(b, i, dst, &kv))
				ns &= kv;
		}
		break;
	case BPF_LSH: case BPF_RSH: case BPF_ARSH:
		if (x || insn->off) {
			nd = ns = dv ? ~0ULL : 0;
			break;
		}
		if (op == BPF_LSH)
			nd = (dv >> n) & mask;
		else
			nd = (dv << n) & mask;
		/* the result's top n bits are copies of the sign bit */
		if (op == BPF_ARSH && n && (dv >> (top + 1 - n)))
			nd |= 1ULL << top;
		break;
	case BPF_MOV:
		if (!x) {
			d[dst] = 0;
			return;
		}
		ns = insn->off ? (dv ? ~0ULL : 0) : dv;
		d[dst] = 0;
		d[src] |= ns;
		return;
	case BPF_DIV: case BPF_MOD:
		nd = ns = dv ? mask : 0;
		break;
	case BPF_END:
		/* a 64-bit swap of an ALU-class END writes all 64 bits */
		d[dst] = d[dst] ? ~0ULL : 0;
		return;
	default:
		demand_all(d);
		return;
	}
	d[dst] = nd;
	if (x)
		d[src] |= ns;
}

/* Slot @i: map the demand after it (@d on entry) to the demand before it. */
static void demand_insn(const struct bpf_jit_bits *b, u32 i, const struct bpf_insn *insn, u64 *d)
{
	u8 cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code), op = BPF_OP(insn->code);
	u8 dst = insn->dst_reg, src = insn->src_reg;
	u32 r;

	if (dst >= MAX_BPF_REG || src >= MAX_BPF_REG) {
		demand_all(d);
		return;
	}
	switch (cls) {
	case BPF_ALU: case BPF_ALU64:
		demand_alu(b, i, insn, d);
		return;
	case BPF_LD:
		if (is_ld_imm64(insn))
			d[dst] = 0;
		else
			demand_all(d);	/* LD_ABS/LD_IND: skb and every argument */
		return;
	case BPF_LDX:
		if (mode != BPF_MEM && mode != BPF_MEMSX && mode != BPF_PROBE_MEM &&
		    mode != BPF_PROBE_MEMSX && mode != BPF_CTX_FIELD) {
			demand_all(d);
			return;
		}
		d[dst] = 0;
		d[src] = ~0ULL;
		return;
	case BPF_ST:
		d[dst] = ~0ULL;
		return;
	case BPF_STX:
		if (mode == BPF_MEM) {
			d[dst] = ~0ULL;
			d[src] |= store_mask(BPF_SIZE(insn->code));
		} else if (mode == BPF_PROBE_MEM) {
			d[dst] = ~0ULL;
			d[src] = ~0ULL;
		} else {
			demand_all(d);	/* atomics read and write registers */
		}
		return;
	case BPF_JMP: case BPF_JMP32:
		break;
	default:
		demand_all(d);
		return;
	}
	if (op == BPF_EXIT) {
		for (r = 0; r < MAX_BPF_REG; r++)
			d[r] = 0;
		d[BPF_REG_0] = ~0ULL;
		d[BPF_REG_10] = ~0ULL;
		return;
	}
	if (insn->code == (BPF_JMP | BPF_CALL) || insn->code == (BPF_JMP32 | BPF_CALL)) {
		/* R0..R5 clobbered, the arguments read, R6..R9 kept */
		u32 nr_args = 5;

		if (insn->code == (BPF_JMP | BPF_CALL) && b->vi && (u32)insn->imm < b->vi->nr_calls)
			nr_args = b->vi->calls[insn->imm].nr_args;
		for (r = BPF_REG_0; r <= BPF_REG_5; r++)
			d[r] = r && r <= nr_args ? ~0ULL : 0;
		return;
	}
	if (op == BPF_JA || insn->code == (BPF_JMP | BPF_JCOND))
		return;
	if (op > BPF_JSLE || insn->code == BPF_CALL_LOOP || insn->code == (BPF_JMP | BPF_TAIL_CALL)) {
		demand_all(d);
		return;
	}
	d[dst] |= cls == BPF_JMP ? ~0ULL : M32;
	if (BPF_SRC(insn->code) == BPF_X)
		d[src] |= cls == BPF_JMP ? ~0ULL : M32;
}

static int demand_compute(struct bpf_jit_bits *b, const struct bpf_insn *insns, const u8 *second)
{
	u64 d[MAX_BPF_REG];
	u32 len = b->len, sweep, i, r, k, succ[2], n;
	bool changed = true;

	for (sweep = 0; changed; sweep++) {
		if (sweep == MAX_SWEEPS)
			return -ELOOP;
		changed = false;
		for (i = len; i-- > 0;) {
			if (second[i])
				continue;
			memset(d, 0, sizeof(d));
			n = bits_succ(insns, len, i, succ);
			for (k = 0; k < n; k++)
				for (r = 0; r < MAX_BPF_REG; r++)
					d[r] |= succ[k] < len ? b->demand[succ[k]][r] : ~0ULL;
			demand_insn(b, i, &insns[i], d);
			d[BPF_REG_10] = ~0ULL;
			for (r = 0; r < MAX_BPF_REG; r++)
				if ((d[r] | b->demand[i][r]) != b->demand[i][r]) {
					b->demand[i][r] |= d[r];
					changed = true;
				}
		}
	}
	return 0;
}

/* ---- constants ---------------------------------------------------------- */

/* Slot @i: the constants after it, from those before (@known, @val). */
static void const_insn(const struct bpf_insn *insn, u16 *known, u64 *val)
{
	u8 cls = BPF_CLASS(insn->code), dst = insn->dst_reg, src = insn->src_reg;
	u8 op = BPF_OP(insn->code);
	bool w = cls == BPF_ALU64;

	if (dst >= MAX_BPF_REG || src >= MAX_BPF_REG) {
		*known = 0;
		return;
	}
	switch (cls) {
	case BPF_ALU: case BPF_ALU64:
		if (op == BPF_MOV && BPF_SRC(insn->code) == BPF_K) {
			val[dst] = w ? (u64)(s64)insn->imm : (u32)insn->imm;
			*known |= 1u << dst;
		} else if (op == BPF_MOV && !insn->off && (*known & (1u << src))) {
			val[dst] = w ? val[src] : (u32)val[src];
			*known |= 1u << dst;
		} else if (op > BPF_END) {
			*known = 0;
		} else {
			*known &= ~(1u << dst);
		}
		return;
	case BPF_LD:
		if (is_ld_imm64(insn)) {
			val[dst] = (u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32);
			*known |= 1u << dst;
		} else {
			*known = 0;
		}
		return;
	case BPF_LDX:
		*known &= ~(1u << dst);
		return;
	case BPF_ST:
		return;
	case BPF_STX:
		if (BPF_MODE(insn->code) != BPF_MEM && BPF_MODE(insn->code) != BPF_PROBE_MEM)
			*known = 0;	/* atomics write registers */
		return;
	case BPF_JMP: case BPF_JMP32:
		if (op == BPF_CALL)
			*known &= ~0x3fu;	/* R0..R5 */
		else if (insn->code == (BPF_JMP | BPF_TAIL_CALL) || insn->code == BPF_CALL_LOOP)
			*known = 0;
		return;
	default:
		*known = 0;
	}
}

/*
 * Where control enters other than by a jump: slot 0, every bpf-to-bpf
 * call target, every callback whose address an ld_imm64 holds, and, to
 * be safe against anything else that enters a subprogram, every slot
 * after an EXIT or an unconditional jump.
 */
static void const_seeds(const struct bpf_insn *insns, u32 len, const u8 *second, u8 *seed)
{
	u32 i;

	seed[0] = 1;
	for (i = 0; i < len; i++) {
		const struct bpf_insn *insn = &insns[i];
		s64 to;

		if (second[i])
			continue;
		if (is_ld_imm64(insn) && i + 1 < len) {
			u64 v = (u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32);
			uintptr_t lo = (uintptr_t)insns, hi = (uintptr_t)(insns + len);

			if (v >= lo && v < hi && !((v - lo) % sizeof(*insn)))
				seed[(v - lo) / sizeof(*insn)] = 1;
			continue;
		}
		if (insn->code == (BPF_JMP32 | BPF_CALL)) {
			to = (s64)i + 1 + insn->imm;
			if (to >= 0 && to < len)
				seed[to] = 1;
		}
		if ((insn->code == (BPF_JMP | BPF_EXIT) || insn->code == (BPF_JMP | BPF_JA) ||
		     insn->code == (BPF_JMP32 | BPF_JA)) && i + 1 < len)
			seed[i + 1] = 1;
	}
}

static int const_compute(struct bpf_jit_bits *b, const struct bpf_insn *insns, const u8 *second,
			 u8 *reached)
{
	u64 val[MAX_BPF_REG];
	u32 len = b->len, sweep, i, r, k, n, succ[2];
	bool changed = true;
	u16 known;

	const_seeds(insns, len, second, reached);	/* seeds: reached, nothing known */
	for (sweep = 0; changed; sweep++) {
		if (sweep == MAX_SWEEPS)
			return -ELOOP;
		changed = false;
		for (i = 0; i < len; i++) {
			if (second[i] || !reached[i])
				continue;
			known = b->known[i];
			memcpy(val, b->konst[i], sizeof(val));
			const_insn(&insns[i], &known, val);
			n = bits_succ(insns, len, i, succ);
			for (k = 0; k < n; k++) {
				u32 s = succ[k];
				u16 keep;

				if (s >= len)
					continue;
				if (!reached[s]) {
					reached[s] = 1;
					b->known[s] = known;
					memcpy(b->konst[s], val, sizeof(val));
					changed = true;
					continue;
				}
				keep = b->known[s] & known;
				for (r = 0; r < MAX_BPF_REG; r++)
					if ((keep & (1u << r)) && b->konst[s][r] != val[r])
						keep &= ~(1u << r);
				if (keep != b->known[s]) {
					b->known[s] = keep;
					changed = true;
				}
			}
		}
	}
	return 0;
}

int bpf_jit_bits_compute(struct bpf_jit_bits *b, const struct bpf_insn *insns, u32 len,
			 const struct bpf_verifier_info *vi)
{
	u8 *second = NULL, *reached = NULL;
	u32 i;
	int err = -ENOMEM;

	memset(b, 0, sizeof(*b));
	if (!len || len > BPF_JIT_BITS_MAX_INSNS)
		return -E2BIG;
	b->len = len;
	b->vi = vi;
	b->demand = calloc(len, sizeof(*b->demand));
	b->konst = calloc(len, sizeof(*b->konst));
	b->known = calloc(len, sizeof(*b->known));
	second = calloc(len, 1);
	reached = calloc(len, 1);
	if (!b->demand || !b->konst || !b->known || !second || !reached)
		goto out;
	for (i = 0; i < len; i++)
		if (!second[i] && is_ld_imm64(&insns[i])) {
			if (i + 1 == len) {
				err = -EINVAL;	/* the verifier refuses a cut ld_imm64 */
				goto out;
			}
			second[i + 1] = 1;
		}
	err = const_compute(b, insns, second, reached);
	if (!err)
		err = demand_compute(b, insns, second);
out:
	free(second);
	free(reached);
	if (err)
		bpf_jit_bits_free(b);
	return err;
}

void bpf_jit_bits_free(struct bpf_jit_bits *b)
{
	free(b->demand);
	free(b->konst);
	free(b->known);
	memset(b, 0, sizeof(*b));
}
