/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86 JIT knows about a checked program's registers beyond one
 * instruction (bpf_jit_bits.c): which bits of each register are read
 * later (demanded bits) and which registers hold a known constant. The
 * JIT uses them to emit x86 idioms a one-to-one translation cannot, such
 * as a 32-bit rotate for clang's 64-bit shift-and-or sequence.
 */
#ifndef _UXDP_ARCH_X86_NET_BPF_JIT_BITS_H
#define _UXDP_ARCH_X86_NET_BPF_JIT_BITS_H

#include <linux/bpf.h>
#include <linux/filter.h>

struct bpf_verifier_info;

/* Programs longer than this get no analysis (the JIT stays one to one). */
#define BPF_JIT_BITS_MAX_INSNS	16384

struct bpf_jit_bits {
	u32 len;
	const struct bpf_verifier_info *vi;	/* helper arities, or NULL: 5 */
	/*
	 * demand[i][r]: the bits of r that slot i or anything after it may
	 * read before r is written again, on entry to slot i.
	 */
	u64 (*demand)[MAX_BPF_REG];
	/* known[i] bit r: r holds konst[i][r] on entry to slot i, on every path */
	u16 *known;
	u64 (*konst)[MAX_BPF_REG];
};

/*
 * Analyse @len instructions. 0: @b filled; -E2BIG: too long; -ENOMEM;
 * -ELOOP: no fixpoint within the pass limit. On error @b holds nothing to
 * free.
 */
int bpf_jit_bits_compute(struct bpf_jit_bits *b, const struct bpf_insn *insns, u32 len,
			 const struct bpf_verifier_info *vi);
void bpf_jit_bits_free(struct bpf_jit_bits *b);

/* The bits of @reg read after straight-line slot @i (not a jump, not ld_imm64). */
static inline u64 bpf_jit_demand_after(const struct bpf_jit_bits *b, u32 i, u8 reg)
{
	return i + 1 < b->len ? b->demand[i + 1][reg] : ~0ULL;
}

/* true: @reg holds *@val on entry to slot @i */
static inline bool bpf_jit_known(const struct bpf_jit_bits *b, u32 i, u8 reg, u64 *val)
{
	if (i >= b->len || reg >= MAX_BPF_REG || !(b->known[i] & (1u << reg)))
		return false;
	*val = b->konst[i][reg];
	return true;
}

#endif
