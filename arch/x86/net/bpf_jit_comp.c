// SPDX-License-Identifier: GPL-2.0
/*
 * The x86-64 JIT: translates a checked program (after kernel/bpf/fixups.c,
 * internal opcodes of <linux/bpf_verifier.h> included) into native code
 * with the interpreter's semantics bit for bit, run-time checks included.
 *
 * Register mapping (the kernel's): R0 rax, R1 rdi, R2 rsi, R3 rdx, R4 rcx,
 * R5 r8, R6 rbx, R7 r13, R8 r14, R9 r15, R10 rbp; r12 holds the run state
 * (struct bpf_jit_run), r9/r10/r11 are scratch. Helpers are called with the
 * SysV ABI, so R1..R5 are already their arguments and R0 their result.
 *
 * Two images share one mapping. The direct image, for programs that can
 * neither abort nor count anything per run (see jit_direct_ok(): what
 * the verifier proved and nothing else, which is every program that is not
 * hardened, raw, using may_goto, or a tail call next to a bpf-to-bpf
 * call), is prog->bpf_func
 * itself, as in the kernel: it pushes only the callee-saved registers the
 * program names, keeps the whole call chain's stack in its own native
 * frame (zeroed there when the program may read unwritten stack), makes
 * bpf-to-bpf calls native calls and returns from the main program's
 * EXITs; a tail call undoes the frame and jumps to the target's direct
 * image with the count in eax; there is no run state and no C wrapper.
 * The other image, which every program has (tail calls from it land in
 * its body), has an entry that saves the C callee-saved registers, loads
 * r12 and rbp and calls the body; the epilogue; the body (one code block
 * per instruction slot, jump offsets resolved over passes until the sizes
 * converge, as the kernel's do_jit() loop); the abort stubs. In both,
 * loop heads are aligned so that a short loop sits in one 64-byte line
 * (emit_loop_align()). In the C-entry image every EXIT is
 * a `ret`: bpf-to-bpf calls are native calls (the call site saves R6..R10
 * and moves R10 down by the caller's frame, as the interpreter's frames
 * do), a tail call jumps to the target's body, so the target's EXIT
 * returns to whoever called the program that tail-called. An abort
 * (failed region check, loop budget, call depth, ...) stores the reason
 * in the run state, resets rsp to the entry's frame and returns 0 through
 * the epilogue; the C entry then counts it in aux->abort_cnt as the
 * interpreter does.
 *
 * What the interpreter counts, the image counts the same way in the run
 * state: the instruction budget charged on taken backward jumps, calls and
 * tail calls (only emitted for programs with vi->needs_budget: hardened
 * ones and the checker's unbounded loops), the call depth, the tail-call
 * count and the may_goto budget.
 * Checked accesses get the region check of vi->insn_aux[pc] inline (packet,
 * stack, map arena, raw memory; "any" calls bpf_jit_region_check()).
 *
 * Kernel: arch/x86/net/bpf_jit_comp.c bpf_int_jit_compile(), do_jit(),
 *	   emit_bpf_tail_call_indirect(), emit_prologue()
 * Differs: the kernel's JIT runs what the verifier proved; this one also
 *	    emits uxdp's run-time checks and budget. Outside direct images
 *	    the C entry keeps the stack (one area for the whole call chain,
 *	    as the interpreter's) and the run state. Loop heads are aligned
 *	    (the kernel does not align). A tail call into a program that has no image
 *	    (compiled while the JIT was off) is a miss; the kernel refuses
 *	    to mix JITed and interpreted programs in one PROG_ARRAY instead.
 */
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

#include "bpf_jit_bits.h"

#if defined(__x86_64__)

/* The run state the image reaches through r12. */
struct bpf_jit_run {
	s64 budget;
	u32 tail_call_cnt;
	u32 depth;
	u64 may_goto_cnt;
	u8 *stack_lo;
	u8 *stack_hi;
	const struct xdp_buff *xdp;
	u8 *mem;
	u64 mem_len;
	u64 exit_rsp;
	u32 reason;
	u64 regs[6];		/* R0..R5 around C calls */
	u64 addr;		/* checked address around C calls */
	u32 cpu;		/* smp_processor_id(): inlined PERCPU_ARRAY lookups */
};

/* One whole-chain stack, as the interpreter's BPF_INTERP_STACK. */
#define BPF_JIT_STACK		(2 * MAX_BPF_STACK)

typedef u64 (*bpf_jit_entry_t)(u64 r1, u64 r2, struct bpf_jit_run *run, void *fp);

/* x86 register numbers */
enum {
	RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI,
	R8, R9, R10, R11, R12, R13, R14, R15,
};

static const u8 reg2hex[MAX_BPF_REG] = {
	[BPF_REG_0] = RAX, [BPF_REG_1] = RDI, [BPF_REG_2] = RSI, [BPF_REG_3] = RDX,
	[BPF_REG_4] = RCX, [BPF_REG_5] = R8, [BPF_REG_6] = RBX, [BPF_REG_7] = R13,
	[BPF_REG_8] = R14, [BPF_REG_9] = R15, [BPF_REG_10] = RBP,
};

/* condition codes */
enum {
	CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A,
	CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G,
};

/* Worst case bytes of one instruction slot (checked "any" atomic). */
#define MAX_INSN_BYTES		320
#define MAX_PASSES		32

struct jit_ctx {
	u8 *buf;
	u32 cap;
	u32 pos;
	u32 *addrs;		/* start of slot i's code, previous pass; [len] = end */
	u32 *new_addrs;
	u32 *loop_end;		/* loop head i: last slot jumping back to it, or 0 */
	u8 *target;		/* slot i is where some jump or call lands */
	bool align;		/* loop heads aligned (see emit_loop_align()) */
	u32 stub[__BPF_ABORT_MAX + 1];	/* abort stubs, previous pass */
	u32 new_stub[__BPF_ABORT_MAX + 1];
	u32 epilogue, body;
	bool force_long;	/* first pass: every jump rel32 */
	/*
	 * The direct image (see jit_direct_ok()): entered as prog->bpf_func,
	 * no run state; @frame bytes below the @nr_saved pushes, the
	 * program's stack on top, the ctx pointer at [rsp] for ctx fields.
	 */
	bool direct;
	bool ctx_slot;
	s32 cpu_off;		/* [slots + cpu_off]: the CPU, for PERCPU_ARRAY; -1: none */
	s32 tcc_off;		/* [rsp + tcc_off]: the tail-call count; -1: no tail call */
	u32 tail_entry;		/* where tail calls from direct images enter (after tcc = 0) */
	u8 slots;		/* the ctx and CPU slots' base: rsp, or r12 with calls */
	u8 saved[5];
	u8 saved_bpf[5];	/* the BPF register of each (R6..R10) */
	/* bpf-to-bpf callees of a direct image: first slot and R6..R9 they may write */
	u32 nr_callees;
	u32 callee_start[MAX_SUBPROGS];
	u8 callee_writes[MAX_SUBPROGS];	/* bit r - 6 for R6..R9 */
	u8 nr_saved;
	u32 frame;
	s32 fp_top;		/* R10 = rsp + fp_top, or -1: no R10 */
	u32 stack_depth;	/* below R10: the whole call chain's stack */
	bool c_calls;		/* calls C: rsp 16-byte aligned in every body */
	u32 sub_start;		/* first slot of a bpf-to-bpf callee, or len */
	const struct bpf_prog *prog;
	const struct bpf_verifier_info *vi;
	struct bpf_jit_bits bits;	/* demanded bits and constants, if has_bits */
	bool has_bits;
	char *err;
	size_t errlen;
	bool failed;
};

#define STUB_COMMON	__BPF_ABORT_MAX	/* reason already stored */

#define RUN_OFF(f)	((s32)offsetof(struct bpf_jit_run, f))

/* ---- emitters ----------------------------------------------------------- */

static void emit1(struct jit_ctx *c, u8 b)
{
	if (c->pos < c->cap)
		c->buf[c->pos] = b;
	c->pos++;
}

static void emit4(struct jit_ctx *c, u32 v)
{
	emit1(c, v);
	emit1(c, v >> 8);
	emit1(c, v >> 16);
	emit1(c, v >> 24);
}

static void emit8(struct jit_ctx *c, u64 v)
{
	emit4(c, (u32)v);
	emit4(c, (u32)(v >> 32));
}

static bool is_imm8(s64 v)
{
	return v >= -128 && v <= 127;
}

static bool is_simm32(s64 v)
{
	return v == (s64)(s32)v;
}

/* REX prefix; @force: emit even when empty (byte registers sil, dil, bpl) */
static void emit_rex(struct jit_ctx *c, bool w, u8 reg, u8 index, u8 base, bool force)
{
	u8 rex = 0x40 | (w << 3) | ((reg >> 3) << 2) | ((index >> 3) << 1) | (base >> 3);

	if (rex != 0x40 || force)
		emit1(c, rex);
}

static void emit_modrm_reg(struct jit_ctx *c, u8 reg, u8 rm)
{
	emit1(c, 0xc0 | ((reg & 7) << 3) | (rm & 7));
}

/* [base + disp]; mod 00 only for disp 0 off rbp/r13 (there it means rip/disp32) */
static void emit_modrm_mem(struct jit_ctx *c, u8 reg, u8 base, s32 disp)
{
	u8 mod = is_imm8(disp) ? 0x40 : 0x80;

	if (!disp && (base & 7) != RBP) {
		emit1(c, ((reg & 7) << 3) | (base & 7));
		if ((base & 7) == RSP)
			emit1(c, 0x24);
		return;
	}

	emit1(c, mod | ((reg & 7) << 3) | (base & 7));
	if ((base & 7) == RSP)
		emit1(c, 0x24);
	if (mod == 0x40)
		emit1(c, (u8)disp);
	else
		emit4(c, (u32)disp);
}

/*
 * op r/m(dst), reg(src): add 0x01, or 0x09, and 0x21, sub 0x29, xor 0x31,
 * cmp 0x39, mov 0x89, test 0x85
 */
static void emit_alu_rr(struct jit_ctx *c, u8 op, bool w, u8 dst, u8 src)
{
	emit_rex(c, w, src, 0, dst, false);
	emit1(c, op);
	emit_modrm_reg(c, src, dst);
}

/* 0x81/0x83 /ext imm: add 0, or 1, and 4, sub 5, xor 6, cmp 7 */
static void emit_alu_ri(struct jit_ctx *c, u8 ext, bool w, u8 dst, s32 imm)
{
	emit_rex(c, w, 0, 0, dst, false);
	if (is_imm8(imm)) {
		emit1(c, 0x83);
		emit_modrm_reg(c, ext, dst);
		emit1(c, (u8)imm);
	} else {
		emit1(c, 0x81);
		emit_modrm_reg(c, ext, dst);
		emit4(c, (u32)imm);
	}
}

/* the same on [base + disp] */
static void emit_alu_mi(struct jit_ctx *c, u8 ext, bool w, u8 base, s32 disp, s32 imm)
{
	emit_rex(c, w, 0, 0, base, false);
	if (is_imm8(imm)) {
		emit1(c, 0x83);
		emit_modrm_mem(c, ext, base, disp);
		emit1(c, (u8)imm);
	} else {
		emit1(c, 0x81);
		emit_modrm_mem(c, ext, base, disp);
		emit4(c, (u32)imm);
	}
}

/* op reg, [base + disp] or op [base + disp], reg with opcode @op */
static void emit_mem(struct jit_ctx *c, u8 op, bool w, u8 reg, u8 base, s32 disp)
{
	emit_rex(c, w, reg, 0, base, false);
	emit1(c, op);
	emit_modrm_mem(c, reg, base, disp);
}

static void emit_mov_rr(struct jit_ctx *c, bool w, u8 dst, u8 src)
{
	emit_alu_rr(c, 0x89, w, dst, src);
}

static void emit_ld64(struct jit_ctx *c, u8 dst, u8 base, s32 disp)
{
	emit_mem(c, 0x8b, true, dst, base, disp);
}

static void emit_st64(struct jit_ctx *c, u8 src, u8 base, s32 disp)
{
	emit_mem(c, 0x89, true, src, base, disp);
}

/* dst = imm64, the shortest form; flags are not touched */
static void emit_mov_imm64(struct jit_ctx *c, u8 dst, u64 v)
{
	if (v <= 0xffffffffULL) {
		emit_rex(c, false, 0, 0, dst, false);
		emit1(c, 0xb8 + (dst & 7));
		emit4(c, (u32)v);
	} else if (is_simm32((s64)v)) {
		emit_rex(c, true, 0, 0, dst, false);
		emit1(c, 0xc7);
		emit_modrm_reg(c, 0, dst);
		emit4(c, (u32)v);
	} else {
		emit_rex(c, true, 0, 0, dst, false);
		emit1(c, 0xb8 + (dst & 7));
		emit8(c, v);
	}
}

/* dst32 = imm32 (zero-extended), flags untouched */
static void emit_mov_imm32(struct jit_ctx *c, u8 dst, u32 v)
{
	emit_rex(c, false, 0, 0, dst, false);
	emit1(c, 0xb8 + (dst & 7));
	emit4(c, v);
}

static void emit_push(struct jit_ctx *c, u8 r)
{
	emit_rex(c, false, 0, 0, r, false);
	emit1(c, 0x50 + (r & 7));
}

static void emit_pop(struct jit_ctx *c, u8 r)
{
	emit_rex(c, false, 0, 0, r, false);
	emit1(c, 0x58 + (r & 7));
}

static void emit_call_abs(struct jit_ctx *c, const void *fn)
{
	/* rsp is 8 mod 16 in the body (0 in a direct image): align for SysV */
	if (!c->direct)
		emit_alu_ri(c, 5, true, RSP, 8);
	emit_mov_imm64(c, R11, (u64)(uintptr_t)fn);
	emit_rex(c, false, 0, 0, R11, false);
	emit1(c, 0xff);
	emit_modrm_reg(c, 2, R11);
	if (!c->direct)
		emit_alu_ri(c, 0, true, RSP, 8);
}

/* jcc/jmp to an absolute image offset (from the previous pass) */
static void emit_jcc_to(struct jit_ctx *c, int cc, u32 target, bool allow_short)
{
	s64 rel = (s64)target - (s64)(c->pos + 2);

	if (allow_short && !c->force_long && is_imm8(rel)) {
		emit1(c, 0x70 + cc);
		emit1(c, (u8)rel);
		return;
	}
	rel = (s64)target - (s64)(c->pos + 6);
	emit1(c, 0x0f);
	emit1(c, 0x80 + cc);
	emit4(c, (u32)(s32)rel);
}

static void emit_jmp_to(struct jit_ctx *c, u32 target, bool allow_short)
{
	s64 rel = (s64)target - (s64)(c->pos + 2);

	if (allow_short && !c->force_long && is_imm8(rel)) {
		emit1(c, 0xeb);
		emit1(c, (u8)rel);
		return;
	}
	rel = (s64)target - (s64)(c->pos + 5);
	emit1(c, 0xe9);
	emit4(c, (u32)(s32)rel);
}

static void emit_abort_jcc(struct jit_ctx *c, int cc, enum bpf_abort_reason reason)
{
	emit_jcc_to(c, cc, c->stub[reason], false);
}

/* local forward jumps inside one slot's code: rel8, patched */
static u32 emit_jcc8(struct jit_ctx *c, int cc)
{
	emit1(c, 0x70 + cc);
	emit1(c, 0);
	return c->pos;
}

static u32 emit_jmp8(struct jit_ctx *c)
{
	emit1(c, 0xeb);
	emit1(c, 0);
	return c->pos;
}

static void patch8(struct jit_ctx *c, u32 after)
{
	s64 rel = (s64)c->pos - (s64)after;

	if (!is_imm8(rel)) {
		c->failed = true;
		snprintf(c->err, c->errlen, "local jump out of range");
		return;
	}
	if (after - 1 < c->cap)
		c->buf[after - 1] = (u8)rel;
}

/* local forward jumps with rel32, for inline code longer than rel8 reaches */
static u32 emit_jcc32(struct jit_ctx *c, int cc)
{
	emit1(c, 0x0f);
	emit1(c, 0x80 + cc);
	emit4(c, 0);
	return c->pos;
}

static u32 emit_jmp32(struct jit_ctx *c)
{
	emit1(c, 0xe9);
	emit4(c, 0);
	return c->pos;
}

static void patch32(struct jit_ctx *c, u32 after)
{
	u32 rel = c->pos - after;

	for (u32 k = 0; k < 4; k++)
		if (after - 4 + k < c->cap)
			c->buf[after - 4 + k] = (u8)(rel >> (8 * k));
}

/* ---- run-time checks ---------------------------------------------------- */

static __always_inline bool bpf_jit_range_ok(const void *lo, const void *hi, u64 addr, u64 size)
{
	u64 span = (u64)((uintptr_t)hi - (uintptr_t)lo);
	u64 a = addr - (u64)(uintptr_t)lo;

	return hi >= lo && a < span && size <= span - a;
}

static bool bpf_jit_pkt_ok(const struct bpf_jit_run *run, u64 addr, u64 size)
{
	const struct xdp_buff *xdp = run->xdp;
	const void *lo;

	if (!xdp)
		return false;
	lo = xdp->data_meta < xdp->data ? xdp->data_meta : xdp->data;
	return bpf_jit_range_ok(lo, xdp->data_end, addr, size);
}

static bool bpf_jit_map_ok(const struct bpf_prog *prog, u32 idx, u64 addr, u64 size)
{
	const struct bpf_map *map;

	if (idx >= prog->aux->used_map_cnt)
		return false;
	map = prog->aux->used_maps[idx];
	return bpf_jit_range_ok(map->arena_lo, map->arena_hi, addr, size);
}

/* core.c's bpf_region_check() over the JIT's run state */
static enum bpf_abort_reason bpf_jit_region(const struct bpf_jit_run *run,
					    const struct bpf_prog *prog, u32 rgn, u64 addr,
					    u64 size)
{
	u32 i;

	switch (BPF_RGN_KIND(rgn)) {
	case BPF_RGN_STACK:
		return bpf_jit_range_ok(run->stack_lo, run->stack_hi, addr, size) ?
		       BPF_ABORT_NONE : BPF_ABORT_STACK_OOB;
	case BPF_RGN_PKT:
		return bpf_jit_pkt_ok(run, addr, size) ? BPF_ABORT_NONE : BPF_ABORT_PKT_OOB;
	case BPF_RGN_MAP:
		return bpf_jit_map_ok(prog, BPF_RGN_IDX(rgn), addr, size) ?
		       BPF_ABORT_NONE : BPF_ABORT_MAP_OOB;
	case BPF_RGN_MEM:
		return run->mem && bpf_jit_range_ok(run->mem, run->mem + run->mem_len, addr, size) ?
		       BPF_ABORT_NONE : BPF_ABORT_MEM_OOB;
	case BPF_RGN_ANY:
		if (bpf_jit_range_ok(run->stack_lo, run->stack_hi, addr, size) ||
		    bpf_jit_pkt_ok(run, addr, size) ||
		    bpf_xdp_frags_contain(run->xdp, addr, size) ||
		    (run->mem && bpf_jit_range_ok(run->mem, run->mem + run->mem_len, addr, size)))
			return BPF_ABORT_NONE;
		for (i = 0; i < prog->aux->used_map_cnt; i++)
			if (bpf_jit_map_ok(prog, i, addr, size))
				return BPF_ABORT_NONE;
		return BPF_ABORT_MEM_OOB;
	default:
		return BPF_ABORT_MEM_OOB;
	}
}

/* Called from images: a region check too rare to inline. 0 or the reason (stored). */
static u32 bpf_jit_region_check(struct bpf_jit_run *run, const struct bpf_prog *prog, u32 rgn,
				u64 addr, u64 size)
{
	enum bpf_abort_reason r = bpf_jit_region(run, prog, rgn, addr, size);

	run->reason = r;
	return r;
}

/* Called from images before a helper with memory arguments (core.c's bpf_call_check()). */
static u32 bpf_jit_call_check(struct bpf_jit_run *run, const struct bpf_prog *prog,
			      const struct bpf_call_desc *d)
{
	u32 i;

	for (i = 0; i < d->nr_checks; i++) {
		const struct bpf_mem_check *ck = &d->checks[i];
		u64 size = ck->size_reg ? run->regs[ck->size_reg] : ck->size;
		u64 ptr = run->regs[ck->ptr_reg];

		if (ck->or_null && !ptr)
			continue;
		if (!size)
			continue;
		if (bpf_jit_region(run, prog, ck->region, ptr, size) != BPF_ABORT_NONE) {
			run->reason = BPF_ABORT_HELPER_ARG_OOB;
			return BPF_ABORT_HELPER_ARG_OOB;
		}
	}
	return 0;
}

/* R0..R5 to run->regs and back (around C calls from the image) */
static const u8 caller_saved[6] = { RAX, RDI, RSI, RDX, RCX, R8 };

static void emit_save_regs(struct jit_ctx *c)
{
	int i;

	for (i = 0; i < 6; i++)
		emit_st64(c, caller_saved[i], R12, RUN_OFF(regs) + 8 * i);
}

static void emit_restore_regs(struct jit_ctx *c)
{
	int i;

	for (i = 0; i < 6; i++)
		emit_ld64(c, caller_saved[i], R12, RUN_OFF(regs) + 8 * i);
}

/*
 * lo in r9, hi in r10, address in r11: is [addr, addr + size) inside? Else
 * abort with @reason. The address is in r11 again afterwards.
 */
static void emit_range_check(struct jit_ctx *c, u32 size, enum bpf_abort_reason reason)
{
	emit_alu_rr(c, 0x29, true, R10, R9);		/* span = hi - lo */
	emit_abort_jcc(c, CC_B, reason);		/* hi < lo */
	emit_alu_rr(c, 0x29, true, R11, R9);		/* a = addr - lo */
	emit_alu_rr(c, 0x39, true, R11, R10);		/* cmp a, span */
	emit_abort_jcc(c, CC_AE, reason);
	emit_alu_rr(c, 0x29, true, R10, R11);		/* span - a */
	emit_alu_ri(c, 7, true, R10, (s32)size);	/* cmp, size */
	emit_abort_jcc(c, CC_B, reason);
	emit_alu_rr(c, 0x01, true, R11, R9);		/* addr again */
}

/*
 * The region check of checked slot @pc: r11 = base + off, checked; the
 * access then goes through [r11]. BPF registers are preserved.
 */
static void emit_probe(struct jit_ctx *c, u32 pc, u8 base, s16 off, u32 size)
{
	u32 rgn = c->vi->insn_aux[pc];
	const struct bpf_prog *prog = c->prog;
	u32 p;

	emit_mem(c, 0x8d, true, R11, base, off);	/* lea r11, [base + off] */
	switch (BPF_RGN_KIND(rgn)) {
	case BPF_RGN_PKT:
		emit_ld64(c, R10, R12, RUN_OFF(xdp));
		emit_alu_rr(c, 0x85, true, R10, R10);
		emit_abort_jcc(c, CC_E, BPF_ABORT_PKT_OOB);
		emit_ld64(c, R9, R10, offsetof(struct xdp_buff, data_meta));
		emit_mem(c, 0x3b, true, R9, R10, offsetof(struct xdp_buff, data));
		p = emit_jcc8(c, CC_B);			/* data_meta < data: lo = meta */
		emit_ld64(c, R9, R10, offsetof(struct xdp_buff, data));
		patch8(c, p);
		emit_ld64(c, R10, R10, offsetof(struct xdp_buff, data_end));
		emit_range_check(c, size, BPF_ABORT_PKT_OOB);
		break;
	case BPF_RGN_STACK:
		emit_ld64(c, R9, R12, RUN_OFF(stack_lo));
		emit_ld64(c, R10, R12, RUN_OFF(stack_hi));
		emit_range_check(c, size, BPF_ABORT_STACK_OOB);
		break;
	case BPF_RGN_MEM:
		emit_ld64(c, R9, R12, RUN_OFF(mem));
		emit_alu_rr(c, 0x85, true, R9, R9);
		emit_abort_jcc(c, CC_E, BPF_ABORT_MEM_OOB);
		emit_ld64(c, R10, R12, RUN_OFF(mem_len));
		emit_alu_rr(c, 0x01, true, R10, R9);
		emit_range_check(c, size, BPF_ABORT_MEM_OOB);
		break;
	case BPF_RGN_MAP:
		if (BPF_RGN_IDX(rgn) >= prog->aux->used_map_cnt) {
			emit_jmp_to(c, c->stub[BPF_ABORT_MAP_OOB], false);
			break;
		}
		emit_mov_imm64(c, R10, (u64)(uintptr_t)prog->aux->used_maps[BPF_RGN_IDX(rgn)]);
		emit_ld64(c, R9, R10, offsetof(struct bpf_map, arena_lo));
		emit_ld64(c, R10, R10, offsetof(struct bpf_map, arena_hi));
		emit_range_check(c, size, BPF_ABORT_MAP_OOB);
		break;
	case BPF_RGN_ANY:
		emit_st64(c, R11, R12, RUN_OFF(addr));
		emit_save_regs(c);
		emit_mov_rr(c, true, RDI, R12);
		emit_mov_imm64(c, RSI, (u64)(uintptr_t)prog);
		emit_mov_imm32(c, RDX, rgn);
		emit_mov_rr(c, true, RCX, R11);
		emit_mov_imm32(c, R8, size);
		emit_call_abs(c, bpf_jit_region_check);
		emit_alu_rr(c, 0x85, false, RAX, RAX);
		emit_jcc_to(c, CC_NE, c->stub[STUB_COMMON], false);
		emit_restore_regs(c);
		emit_ld64(c, R11, R12, RUN_OFF(addr));
		break;
	default:
		emit_jmp_to(c, c->stub[BPF_ABORT_MEM_OOB], false);
		break;
	}
}

/* ---- instruction translation -------------------------------------------- */

static int jmp_cc(u8 op)
{
	switch (op) {
	case BPF_JEQ: return CC_E;
	case BPF_JNE: return CC_NE;
	case BPF_JGT: return CC_A;
	case BPF_JGE: return CC_AE;
	case BPF_JLT: return CC_B;
	case BPF_JLE: return CC_BE;
	case BPF_JSGT: return CC_G;
	case BPF_JSGE: return CC_GE;
	case BPF_JSLT: return CC_L;
	case BPF_JSLE: return CC_LE;
	case BPF_JSET: return CC_NE;
	}
	return -1;
}

/*
 * A taken jump from slot @i by @off slots. Backward ones are charged to the
 * budget first, as the interpreter's JUMP(), in programs that have one
 * (vi->needs_budget). With @cc >= 0 it is conditional on @cc.
 */
static void emit_bpf_jump(struct jit_ctx *c, int cc, u32 i, s32 off)
{
	u32 target = c->addrs[i + off + 1];
	u32 p = 0;

	if (off >= 0 || !c->vi->needs_budget) {
		if (cc >= 0)
			emit_jcc_to(c, cc, target, true);
		else
			emit_jmp_to(c, target, true);
		return;
	}
	if (cc >= 0)
		p = emit_jcc8(c, cc ^ 1);
	emit_alu_mi(c, 0, true, R12, RUN_OFF(budget), off);
	emit_abort_jcc(c, CC_S, BPF_ABORT_INSN_BUDGET);
	emit_jmp_to(c, target, true);
	if (cc >= 0)
		patch8(c, p);
}

/* load/store of @size from/to [base + off] */
static void emit_ldx(struct jit_ctx *c, u8 size, bool sx, u8 dst, u8 base, s32 off)
{
	switch (size) {
	case BPF_B:
		emit_rex(c, sx, dst, 0, base, false);
		emit1(c, 0x0f);
		emit1(c, sx ? 0xbe : 0xb6);
		break;
	case BPF_H:
		emit_rex(c, sx, dst, 0, base, false);
		emit1(c, 0x0f);
		emit1(c, sx ? 0xbf : 0xb7);
		break;
	case BPF_W:
		emit_rex(c, sx, dst, 0, base, false);
		emit1(c, sx ? 0x63 : 0x8b);
		break;
	default:
		emit_rex(c, true, dst, 0, base, false);
		emit1(c, 0x8b);
		break;
	}
	emit_modrm_mem(c, dst, base, off);
}

static void emit_stx(struct jit_ctx *c, u8 size, u8 base, s32 off, u8 src)
{
	switch (size) {
	case BPF_B:
		emit_rex(c, false, src, 0, base, true);
		emit1(c, 0x88);
		break;
	case BPF_H:
		emit1(c, 0x66);
		emit_rex(c, false, src, 0, base, false);
		emit1(c, 0x89);
		break;
	case BPF_W:
		emit_rex(c, false, src, 0, base, false);
		emit1(c, 0x89);
		break;
	default:
		emit_rex(c, true, src, 0, base, false);
		emit1(c, 0x89);
		break;
	}
	emit_modrm_mem(c, src, base, off);
}

static void emit_st_imm(struct jit_ctx *c, u8 size, u8 base, s32 off, s32 imm)
{
	switch (size) {
	case BPF_B:
		emit_rex(c, false, 0, 0, base, false);
		emit1(c, 0xc6);
		emit_modrm_mem(c, 0, base, off);
		emit1(c, (u8)imm);
		return;
	case BPF_H:
		emit1(c, 0x66);
		emit_rex(c, false, 0, 0, base, false);
		emit1(c, 0xc7);
		emit_modrm_mem(c, 0, base, off);
		emit1(c, (u8)imm);
		emit1(c, (u8)(imm >> 8));
		return;
	default:
		emit_rex(c, size == BPF_DW, 0, 0, base, false);
		emit1(c, 0xc7);
		emit_modrm_mem(c, 0, base, off);
		emit4(c, (u32)imm);
		return;
	}
}

/*
 * Atomic op @op on [r9] (the address), 32 or 64 bits, with the
 * interpreter's register results: FETCH forms and XCHG write the old value
 * to src, CMPXCHG to R0, load-acquire to dst.
 */
static void emit_atomic(struct jit_ctx *c, s32 op, bool w, u8 dst, u8 src)
{
	u8 srcv = src;
	u32 loop;

	switch (op) {
	case BPF_ADD:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		emit1(c, 0xf0);
		emit_mem(c, op == BPF_ADD ? 0x01 : op == BPF_AND ? 0x21 : op == BPF_OR ? 0x09 : 0x31,
			 w, src, R9, 0);
		return;
	case BPF_ADD | BPF_FETCH:
		emit1(c, 0xf0);
		emit_rex(c, w, src, 0, R9, false);
		emit1(c, 0x0f);
		emit1(c, 0xc1);
		emit_modrm_mem(c, src, R9, 0);
		return;
	case BPF_XCHG:
		emit_mem(c, 0x87, w, src, R9, 0);
		return;
	case BPF_CMPXCHG:
		emit1(c, 0xf0);
		emit_rex(c, w, src, 0, R9, false);
		emit1(c, 0x0f);
		emit1(c, 0xb1);
		emit_modrm_mem(c, src, R9, 0);
		if (!w)
			emit_mov_rr(c, false, RAX, RAX);	/* R0 = (u32)old */
		return;
	case BPF_LOAD_ACQ:
		emit_ldx(c, w ? BPF_DW : BPF_W, false, dst, R9, 0);
		return;
	case BPF_STORE_REL:
		emit_stx(c, w ? BPF_DW : BPF_W, R9, 0, src);
		return;
	case BPF_AND | BPF_FETCH:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR | BPF_FETCH:
		/* cmpxchg loop through rax; R0 kept in r10 */
		emit_mov_rr(c, true, R10, RAX);
		if (src == RAX)
			srcv = R10;
		loop = c->pos;
		emit_ldx(c, w ? BPF_DW : BPF_W, false, RAX, R9, 0);
		emit_mov_rr(c, true, R11, RAX);
		emit_alu_rr(c, (op & ~BPF_FETCH) == BPF_AND ? 0x21 :
			       (op & ~BPF_FETCH) == BPF_OR ? 0x09 : 0x31, w, R11, srcv);
		emit1(c, 0xf0);
		emit_rex(c, w, R11, 0, R9, false);
		emit1(c, 0x0f);
		emit1(c, 0xb1);
		emit_modrm_mem(c, R11, R9, 0);
		emit1(c, 0x75);				/* jne loop */
		emit1(c, (u8)(loop - (c->pos + 1)));
		if (src == RAX)
			return;				/* R0 = old, which is in rax */
		emit_mov_rr(c, w, src, RAX);
		emit_mov_rr(c, true, RAX, R10);
		return;
	}
	c->failed = true;
	snprintf(c->err, c->errlen, "atomic op 0x%x", (u32)op);
}

/* Division and modulo with the interpreter's results for 0 and -1. */
static void emit_divmod(struct jit_ctx *c, const struct bpf_insn *insn, u8 dst)
{
	bool w = BPF_CLASS(insn->code) == BPF_ALU64;
	bool is_div = BPF_OP(insn->code) == BPF_DIV;
	bool sgn = insn->off != 0;
	u32 p_nz, p_done1, p_norm = 0, p_done2 = 0;

	if (BPF_SRC(insn->code) == BPF_X)
		emit_mov_rr(c, w, R11, reg2hex[insn->src_reg]);
	else if (w)
		emit_mov_imm64(c, R11, (u64)(s64)insn->imm);
	else
		emit_mov_imm32(c, R11, (u32)insn->imm);
	emit_alu_rr(c, 0x85, w, R11, R11);
	p_nz = emit_jcc8(c, CC_NE);
	/* divisor 0: x / 0 = 0, x % 0 = x */
	if (is_div)
		emit_alu_rr(c, 0x31, false, dst, dst);
	else if (!w)
		emit_mov_rr(c, false, dst, dst);
	p_done1 = emit_jmp8(c);
	patch8(c, p_nz);
	if (sgn) {
		emit_alu_ri(c, 7, w, R11, -1);
		p_norm = emit_jcc8(c, CC_NE);
		/* sdiv by -1 = -x, smod by -1 = 0 */
		if (is_div) {
			emit_rex(c, w, 0, 0, dst, false);
			emit1(c, 0xf7);
			emit_modrm_reg(c, 3, dst);
		} else {
			emit_alu_rr(c, 0x31, false, dst, dst);
		}
		p_done2 = emit_jmp8(c);
		patch8(c, p_norm);
	}
	emit_mov_rr(c, true, R10, RAX);
	emit_mov_rr(c, true, R9, RDX);
	if (dst != RAX)
		emit_mov_rr(c, w, RAX, dst);
	if (sgn) {
		if (w)
			emit1(c, 0x48);
		emit1(c, 0x99);				/* cqo / cdq */
	} else {
		emit_alu_rr(c, 0x31, false, RDX, RDX);
	}
	emit_rex(c, w, 0, 0, R11, false);
	emit1(c, 0xf7);
	emit_modrm_reg(c, sgn ? 7 : 6, R11);		/* idiv / div r11 */
	emit_mov_rr(c, w, R11, is_div ? RAX : RDX);
	emit_mov_rr(c, true, RAX, R10);
	emit_mov_rr(c, true, RDX, R9);
	emit_mov_rr(c, w, dst, R11);
	patch8(c, p_done1);
	if (sgn)
		patch8(c, p_done2);
}

/* shift dst by cl: 0xd3 /ext (shl 4, shr 5, sar 7), via r10 when rcx is in use */
static void emit_shift_x(struct jit_ctx *c, u8 ext, bool w, u8 dst, u8 src)
{
	u8 d = dst == RCX ? R10 : dst;

	emit_mov_rr(c, true, R10, RCX);		/* r10 = old rcx */
	if (src != RCX)
		emit_mov_rr(c, true, RCX, src);
	emit_rex(c, w, 0, 0, d, false);
	emit1(c, 0xd3);
	emit_modrm_reg(c, ext, d);
	if (!w)
		emit_mov_rr(c, false, d, d);	/* a count of 0 writes nothing */
	emit_mov_rr(c, true, RCX, R10);	/* the result, or R4 restored */
}

static void emit_shift_k(struct jit_ctx *c, u8 ext, bool w, u8 dst, s32 imm)
{
	u8 n = imm & (w ? 63 : 31);

	if (!n) {
		if (!w)
			emit_mov_rr(c, false, dst, dst);
		return;
	}
	emit_rex(c, w, 0, 0, dst, false);
	emit1(c, 0xc1);
	emit_modrm_reg(c, ext, dst);
	emit1(c, n);
}

/* dst = base + index << scale + disp (lea; 32 bits zero-extend as ALU32 does) */
static void emit_lea_index(struct jit_ctx *c, bool w, u8 dst, u8 base, u8 index, u8 scale,
			   s32 disp)
{
	u8 mod = is_imm8(disp) ? 0x40 : 0x80;

	if (!disp && (base & 7) != RBP)	/* mod 00 with rbp/r13 is disp32 */
		mod = 0;
	emit_rex(c, w, dst, index, base, false);
	emit1(c, 0x8d);
	emit1(c, mod | ((dst & 7) << 3) | 0x04);
	emit1(c, (scale << 6) | ((index & 7) << 3) | (base & 7));
	if (mod == 0x40)
		emit1(c, (u8)disp);
	else if (mod == 0x80)
		emit4(c, (u32)disp);
}

/* 3, 5, 9: the lea scale (1, 2, 3); else 0 */
static u8 mul_lea_scale(s32 imm)
{
	return imm == 3 ? 1 : imm == 5 ? 2 : imm == 9 ? 3 : 0;
}

/*
 * dst *= imm, the result of imul without its latency where the constant
 * allows: 3, 5 and 9 are one lea, powers of two a shift (clang's
 * hashes multiply by 5 and fold rotates into multiplies).
 */
static void emit_mul_k(struct jit_ctx *c, bool w, u8 dst, s32 imm)
{
	if (mul_lea_scale(imm)) {
		emit_lea_index(c, w, dst, dst, dst, mul_lea_scale(imm), 0);
		return;
	}
	if (imm == 1) {
		if (!w)
			emit_mov_rr(c, false, dst, dst);
		return;
	}
	if (imm > 1 && !(imm & (imm - 1))) {
		emit_shift_k(c, 4, w, dst, __builtin_ctz((u32)imm));
		return;
	}
	emit_rex(c, w, dst, 0, dst, false);
	emit1(c, 0x69);
	emit_modrm_reg(c, dst, dst);
	emit4(c, (u32)imm);
}

/*
 * ld_imm64 r1 = ARRAY or PERCPU_ARRAY map; call bpf_map_lookup_elem at slot
 * i (core.c's fusion). *@key (unless NULL): the key the checker found
 * constant and in range on every path to the call, for this very map, or -1.
 */
static const struct bpf_array *array_lookup_at(const struct jit_ctx *c, u32 i, s64 *key)
{
	const struct bpf_prog *prog = c->prog;
	const struct bpf_insn *a = &prog->insnsi[i];
	const struct bpf_call_desc *d;
	u64 v;
	u32 m;

	if (i + 3 > prog->len || a->dst_reg != BPF_REG_1 ||
	    a[2].code != (BPF_JMP | BPF_CALL) || (u32)a[2].imm >= c->vi->nr_calls)
		return NULL;
	d = &c->vi->calls[a[2].imm];
	if (d->func_id != BPF_FUNC_map_lookup_elem || d->nr_checks)
		return NULL;
	v = (u64)(u32)a[0].imm | ((u64)(u32)a[1].imm) << 32;
	for (m = 0; m < prog->aux->used_map_cnt; m++) {
		const struct bpf_map *map = prog->aux->used_maps[m];

		if ((u64)(uintptr_t)map == v &&
		    (map->ops == &array_map_ops || map->ops == &percpu_array_map_ops)) {
			const struct bpf_array *array = (const void *)map;

			/* imul takes a 32-bit immediate: element size, per-CPU stride */
			if (array->elem_size > 0x7fffffff ||
			    (u64)array->elem_size * map->max_entries > 0x7fffffff)
				return NULL;
			if (key)
				*key = d->map == map && d->const_key >= 0 &&
				       d->const_key < map->max_entries ? d->const_key : -1;
			return array;
		}
	}
	return NULL;
}

/*
 * PERCPU_ARRAY: this CPU's copy, pptrs[index] + cpu * max_entries * elem_size
 * (arraymap.c's percpu_array_ptr()): the kernel's percpu_array_map_gen_lookup().
 * The CPU is run.cpu behind the C entry; a direct image reads the worker's
 * CPU number where it lives, %fs:offset, as the kernel's reads this_cpu_off
 * through %gs, or where jit_tls_static() says it cannot, the copy its
 * prologue keeps.
 */
static void emit_inline_percpu_array_lookup(struct jit_ctx *c, u32 i,
					    const struct bpf_array *array, bool fold, s64 key)
{
	u32 p = 0;

	if (!fold)
		emit_mov_imm64(c, RDI, (u64)(uintptr_t)array);
	if (key >= 0) {
		/* a constant key in range: this element's CPU 0 copy, no check */
		emit_mov_imm64(c, RAX, (u64)(uintptr_t)array->pptrs[0] + (u64)key * array->elem_size);
	} else {
		emit_mem(c, 0x8b, false, R11, RSI, 0);		/* r11d = *(u32 *)R2 */
		emit_alu_rr(c, 0x31, false, RAX, RAX);
		emit_alu_ri(c, 7, false, R11, (s32)array->map.max_entries);
		p = emit_jcc8(c, CC_AE);
		emit_mul_k(c, true, R11, (s32)array->elem_size);
		emit_mov_imm64(c, RAX, (u64)(uintptr_t)array->pptrs[0]);
		emit_alu_rr(c, 0x01, true, RAX, R11);
	}
	if (c->direct && c->cpu_off < 0) {
		emit1(c, 0x64);			/* mov r11d, fs:[off] */
		emit1(c, 0x44);
		emit1(c, 0x8b);
		emit1(c, 0x1c);
		emit1(c, 0x25);
		emit4(c, (u32)(s32)smp_tp_off());
	} else if (c->direct) {
		emit_mem(c, 0x8b, false, R11, c->slots, c->cpu_off);	/* the entry's copy */
	} else
		emit_mem(c, 0x8b, false, R11, R12, RUN_OFF(cpu));	/* r11d = run.cpu */
	emit_mul_k(c, true, R11, (s32)(array->elem_size * array->map.max_entries));
	emit_alu_rr(c, 0x01, true, RAX, R11);
	if (p)
		patch8(c, p);
	if (!fold)
		emit_jmp_to(c, c->addrs[i + 3], true);
}

/*
 * The lookup at the LD_IMM64 of slot @i (the map) for the call at i + 2.
 * With @fold (nothing jumps to the call), the call's slot is folded in:
 * no R1 (the checker has it unreadable after the call) and no jump over
 * a call nobody reaches. Otherwise the call stays for the other paths.
 */
static void emit_inline_array_lookup(struct jit_ctx *c, u32 i, const struct bpf_array *array,
				     bool fold, s64 key)
{
	u32 p;

	if (array->map.ops == &percpu_array_map_ops) {
		emit_inline_percpu_array_lookup(c, i, array, fold, key);
		return;
	}
	if (!fold)
		emit_mov_imm64(c, RDI, (u64)(uintptr_t)array);
	if (key >= 0) {
		/* a constant key in range: the element's address, no check */
		emit_mov_imm64(c, RAX, (u64)(uintptr_t)array->value + (u64)key * array->elem_size);
		if (!fold)
			emit_jmp_to(c, c->addrs[i + 3], true);
		return;
	}
	emit_mem(c, 0x8b, false, R11, RSI, 0);		/* r11d = *(u32 *)R2 */
	emit_alu_rr(c, 0x31, false, RAX, RAX);
	emit_alu_ri(c, 7, false, R11, (s32)array->map.max_entries);
	p = emit_jcc8(c, CC_AE);
	emit_alu_ri(c, 4, false, R11, (s32)array->index_mask);
	emit_mul_k(c, true, R11, (s32)array->elem_size);
	emit_mov_imm64(c, RAX, (u64)(uintptr_t)array->value);
	emit_alu_rr(c, 0x01, true, RAX, R11);
	patch8(c, p);
	if (!fold)
		emit_jmp_to(c, c->addrs[i + 3], true);
}

_Static_assert(offsetof(struct xdp_rxq_info, dev) == offsetof(struct xdp_txq_info, dev),
	       "one load path for rxq->dev and txq->dev");

static void emit_ctx_field(struct jit_ctx *c, u8 dst, s32 field)
{
	u32 p1, p2, p3 = 0;

	emit_alu_rr(c, 0x31, false, R11, R11);
	if (c->direct)
		emit_ld64(c, R10, c->slots, 0);		/* the ctx the entry saved */
	else
		emit_ld64(c, R10, R12, RUN_OFF(xdp));
	emit_alu_rr(c, 0x85, true, R10, R10);
	p1 = emit_jcc8(c, CC_E);
	emit_ld64(c, R10, R10, field == BPF_CTX_EGRESS_IFINDEX ?
		  offsetof(struct xdp_buff, txq) : offsetof(struct xdp_buff, rxq));
	emit_alu_rr(c, 0x85, true, R10, R10);
	p2 = emit_jcc8(c, CC_E);
	switch (field) {
	case BPF_CTX_RX_QUEUE_INDEX:
		emit_mem(c, 0x8b, false, R11, R10, offsetof(struct xdp_rxq_info, queue_index));
		break;
	case BPF_CTX_INGRESS_IFINDEX:
	case BPF_CTX_EGRESS_IFINDEX:
		emit_ld64(c, R10, R10, offsetof(struct xdp_rxq_info, dev));
		emit_alu_rr(c, 0x85, true, R10, R10);
		p3 = emit_jcc8(c, CC_E);
		emit_mem(c, 0x8b, false, R11, R10, offsetof(struct net_device, ifindex));
		break;
	}
	patch8(c, p1);
	patch8(c, p2);
	if (p3)
		patch8(c, p3);
	emit_mov_rr(c, true, dst, R11);
}

/* A tail call's index (R3) checked against the array (R2): r10d = index; the miss jump. */
static u32 emit_tail_call_index(struct jit_ctx *c)
{
	emit_mov_rr(c, false, R10, RDX);
	emit_mem(c, 0x3b, false, R10, RSI, offsetof(struct bpf_array, map.max_entries));
	return emit_jcc8(c, CC_AE);
}

/* r11 = array->ptrs[index]; the jump taken for an empty slot. */
static u32 emit_tail_call_slot(struct jit_ctx *c)
{
	emit_rex(c, true, R11, R10, RSI, false);
	emit1(c, 0x8b);
	emit1(c, 0x84 | ((R11 & 7) << 3));		/* mod 10, rm = SIB */
	emit1(c, 0xc0 | ((R10 & 7) << 3) | (RSI & 7));	/* scale 8 */
	emit4(c, offsetof(struct bpf_array, ptrs));
	emit_alu_rr(c, 0x85, true, R11, R11);
	return emit_jcc8(c, CC_E);
}

static void emit_tail_call(struct jit_ctx *c)
{
	u32 p_miss[5], n = 0, k;

	/* R2 = array, R3 = index */
	p_miss[n++] = emit_tail_call_index(c);
	emit_alu_mi(c, 7, false, R12, RUN_OFF(tail_call_cnt), MAX_TAIL_CALL_CNT);
	p_miss[n++] = emit_jcc8(c, CC_AE);
	emit_alu_mi(c, 0, false, R12, RUN_OFF(tail_call_cnt), 1);
	p_miss[n++] = emit_tail_call_slot(c);
	emit_ld64(c, R9, R11, offsetof(struct bpf_prog, aux));
	emit_alu_mi(c, 7, true, R9, offsetof(struct bpf_prog_aux, verifier_info), 0);
	p_miss[n++] = emit_jcc8(c, CC_E);
	/* (R10 - stack_lo) < max_stack_depth: the target's stack would not fit */
	emit_mov_rr(c, true, R10, RBP);
	emit_mem(c, 0x2b, true, R10, R12, RUN_OFF(stack_lo));
	emit_mem(c, 0x8b, false, R9, R9, offsetof(struct bpf_prog_aux, max_stack_depth));
	emit_alu_rr(c, 0x39, true, R10, R9);
	emit_abort_jcc(c, CC_B, BPF_ABORT_TAIL_CALL_STACK);
	if (c->vi->needs_budget) {
		emit_mem(c, 0x8b, false, R9, R11, offsetof(struct bpf_prog, len));
		emit_mem(c, 0x29, true, R9, R12, RUN_OFF(budget));
		emit_abort_jcc(c, CC_S, BPF_ABORT_INSN_BUDGET);
	}
	emit_ld64(c, R9, R11, offsetof(struct bpf_prog, jit_body));
	emit_alu_rr(c, 0x85, true, R9, R9);
	p_miss[n++] = emit_jcc8(c, CC_E);
	emit_rex(c, false, 0, 0, R9, false);		/* jmp r9 */
	emit1(c, 0xff);
	emit_modrm_reg(c, 4, R9);
	for (k = 0; k < n; k++)
		patch8(c, p_miss[k]);
}

static void emit_subprog_call(struct jit_ctx *c, u32 i, const struct bpf_insn *insn)
{
	emit_alu_mi(c, 7, false, R12, RUN_OFF(depth), MAX_CALL_FRAMES - 1);
	emit_abort_jcc(c, CC_AE, BPF_ABORT_CALL_DEPTH);
	if (c->vi->needs_budget) {
		emit_alu_mi(c, 5, true, R12, RUN_OFF(budget), (s32)c->vi->insn_aux[i]);
		emit_abort_jcc(c, CC_S, BPF_ABORT_INSN_BUDGET);
	}
	emit_alu_mi(c, 0, false, R12, RUN_OFF(depth), 1);
	emit_push(c, RBX);
	emit_push(c, R13);
	emit_push(c, R14);
	emit_push(c, R15);
	emit_push(c, RBP);
	if ((u16)insn->off)
		emit_alu_ri(c, 5, true, RBP, (u16)insn->off);
	emit1(c, 0xe8);
	emit4(c, (u32)(c->addrs[i + insn->imm + 1] - (c->pos + 4)));
	emit_pop(c, RBP);
	emit_pop(c, R15);
	emit_pop(c, R14);
	emit_pop(c, R13);
	emit_pop(c, RBX);
	emit_alu_mi(c, 5, false, R12, RUN_OFF(depth), 1);
}

static bool jit_tls_static(void);

/* A DEVMAP's bpf_redirect_map() the JIT can inline, or NULL. */
static void *const *redirect_map_slots(const struct bpf_call_desc *d)
{
	long ri = tls_tp_off(&bpf_redirect_info);

	/* dev_map_slots() is NULL for a map that is not a DEVMAP */
	if (d->func_id != BPF_FUNC_redirect_map || !d->map || d->nr_checks ||
	    (const void *)d->func != (const void *)d->map->ops->map_redirect ||
	    !jit_tls_static() || !is_simm32(ri) || !is_simm32(ri + sizeof(bpf_redirect_info)))
		return NULL;
	return dev_map_slots(d->map);
}

/*
 * bpf_redirect_map() on a DEVMAP, inline: dev_map_redirect() with the
 * map known at JIT time. Flags with no bit but the verdict's (the common
 * 0 or XDP_PASS) take this path; any other flags (BPF_F_BROADCAST, bad
 * bits) call the helper. R2 is the index, R3 the flags; R0 the result,
 * and bpf_redirect_info (thread-local, reached through %fs) gets what the
 * helper writes: on a hit the entry, the index, the map; on a miss a NULL
 * entry, map_id INT_MAX, map_type UNSPEC and the verdict flags & 3.
 * Clobbers rcx (R4) and r11, which the call clobbers anyway.
 */
static void emit_inline_redirect_map(struct jit_ctx *c, const struct bpf_call_desc *d,
				     void *const *slots)
{
	const s32 ri = (s32)tls_tp_off(&bpf_redirect_info);
	u32 p_slow, p_miss1, p_miss2, p_done1, p_done2;

#define RI(field)	(ri + (s32)offsetof(struct bpf_redirect_info, field))
	emit_rex(c, true, 0, 0, RDX, false);		/* test rdx, ~3 */
	emit1(c, 0xf7);
	emit_modrm_reg(c, 0, RDX);
	emit4(c, (u32)~3u);
	p_slow = emit_jcc32(c, CC_NE);
	emit1(c, 0x64);					/* mov r11, fs:[0] */
	emit1(c, 0x4c);
	emit1(c, 0x8b);
	emit1(c, 0x1c);
	emit1(c, 0x25);
	emit4(c, 0);
	emit_mov_rr(c, false, RAX, RSI);		/* eax = (u32)index */
	emit_alu_ri(c, 7, false, RAX, (s32)d->map->max_entries);
	p_miss1 = emit_jcc8(c, CC_AE);
	emit_mov_imm64(c, RCX, (u64)(uintptr_t)slots);
	emit1(c, 0x48);					/* mov rax, [rcx + rax * 8] */
	emit1(c, 0x8b);
	emit1(c, 0x04);
	emit1(c, 0xc1);
	emit_alu_rr(c, 0x85, true, RAX, RAX);
	p_miss2 = emit_jcc8(c, CC_E);
	emit_st64(c, RAX, R11, RI(tgt_value));
	emit_st64(c, RSI, R11, RI(tgt_index));
	emit_st_imm(c, BPF_W, R11, RI(map_id), (s32)d->map->id);
	emit_st_imm(c, BPF_W, R11, RI(map_type), BPF_MAP_TYPE_DEVMAP);
	emit_st_imm(c, BPF_DW, R11, RI(map), 0);
	emit_st_imm(c, BPF_W, R11, RI(flags), 0);
	emit_mov_imm32(c, RAX, XDP_REDIRECT);
	p_done1 = emit_jmp32(c);
	patch8(c, p_miss1);
	patch8(c, p_miss2);
	emit_st_imm(c, BPF_DW, R11, RI(tgt_value), 0);
	emit_st_imm(c, BPF_W, R11, RI(map_id), INT_MAX);
	emit_st_imm(c, BPF_W, R11, RI(map_type), BPF_MAP_TYPE_UNSPEC);
	emit_mov_rr(c, false, RAX, RDX);		/* the verdict: flags & 3 */
	p_done2 = emit_jmp32(c);
	patch32(c, p_slow);
	emit_call_abs(c, d->func);
	patch32(c, p_done1);
	patch32(c, p_done2);
#undef RI
}

static void emit_helper_call(struct jit_ctx *c, const struct bpf_insn *insn)
{
	const struct bpf_call_desc *d;
	void *const *slots;

	if ((u32)insn->imm >= c->vi->nr_calls) {
		c->failed = true;
		snprintf(c->err, c->errlen, "helper call index %d", insn->imm);
		return;
	}
	d = &c->vi->calls[insn->imm];
	if (d->nr_checks) {
		emit_save_regs(c);
		emit_mov_rr(c, true, RDI, R12);
		emit_mov_imm64(c, RSI, (u64)(uintptr_t)c->prog);
		emit_mov_imm64(c, RDX, (u64)(uintptr_t)d);
		emit_call_abs(c, bpf_jit_call_check);
		emit_alu_rr(c, 0x85, false, RAX, RAX);
		emit_jcc_to(c, CC_NE, c->stub[STUB_COMMON], false);
		emit_restore_regs(c);
	}
	slots = redirect_map_slots(d);
	if (slots) {
		emit_inline_redirect_map(c, d, slots);
		return;
	}
	emit_call_abs(c, d->func);
}

/* ---- loop alignment ----------------------------------------------------- */

/* The recommended multi-byte NOPs, 1 to 9 bytes. */
static void emit_nops(struct jit_ctx *c, u32 n)
{
	static const u8 nops[9][9] = {
		{ 0x90 },
		{ 0x66, 0x90 },
		{ 0x0f, 0x1f, 0x00 },
		{ 0x0f, 0x1f, 0x40, 0x00 },
		{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
		{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
		{ 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
	};
	u32 k, m;

	while (n) {
		m = n > 9 ? 9 : n;
		for (k = 0; k < m; k++)
			emit1(c, nops[m - 1][k]);
		n -= m;
	}
}

/*
 * Where jumps and calls land (slot 0: tail calls too), and the loop heads,
 * the slots backward jumps land on, with the last such jump.
 */
static void jit_find_targets(struct jit_ctx *c)
{
	const struct bpf_prog *prog = c->prog;
	u32 i;

	c->target[0] = 1;
	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];
		u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
		s64 off, to;

		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
			continue;
		}
		if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_EXIT || op == BPF_TAIL_CALL ||
		    insn->code == (BPF_JMP | BPF_CALL))
			continue;
		off = (cls == BPF_JMP32 && (op == BPF_JA || op == BPF_CALL)) ? insn->imm : insn->off;
		to = (s64)i + off + 1;
		if (to < 0 || to >= prog->len)
			continue;
		c->target[to] = 1;
		if (off < 0 && op != BPF_CALL)
			c->loop_end[to] = i;
	}
}

/*
 * Before loop head @i: a loop that fits in a 64-byte line (its length
 * from the previous pass) starts where it does not cross one, a longer
 * one on 16 bytes. The op cache and fetch work in such blocks; a short
 * loop split over two lines cost up to 20 % on the checksum loop
 * (AMD EPYC). The NOPs run once per loop entry.
 */
static void emit_loop_align(struct jit_ctx *c, u32 i)
{
	u32 end = c->loop_end[i], len, pad;

	if (!c->align || !end)
		return;
	len = c->addrs[end + 1] - c->addrs[i];
	if (c->addrs[end + 1] < c->addrs[i])
		len = 0;	/* pass 0: no layout yet */
	if (len <= 64)
		pad = (c->pos % 64) + len > 64 ? 64 - c->pos % 64 : 0;
	else
		pad = (16 - c->pos % 16) % 16;
	emit_nops(c, pad);
}

/* ---- direct images ------------------------------------------------------ */

/*
 * A direct image runs what the verifier proved with nothing around it, as
 * the kernel's JIT does: prog->bpf_func is the image itself, the program's
 * stack is a frame on the native stack, EXIT is the epilogue, and only the
 * callee-saved registers the program uses are pushed. Having no run state,
 * it is only for programs that cannot abort and keep no per-run count: XDP,
 * no checked access or helper argument, no budget or may_goto, and tail
 * calls only in programs without bpf-to-bpf calls (the count then lives in
 * the frame: emit_direct_tail_call()). A bpf-to-bpf call is a native call within the image: the
 * checker bounded the chain's depth and its stack (check_max_stack_depth()),
 * so the frame holds the whole chain's stack and nothing is counted; the
 * ctx and CPU slots are then reached through r12 (the main frame's rsp).
 * A stack to zero is zeroed in the prologue,
 * only the chain's depth of it. Every program also gets the image with the
 * C entry: tail calls from C-entry images land in its body.
 */
static bool jit_direct_ok(const struct jit_ctx *c)
{
	const struct bpf_verifier_info *vi = c->vi;
	const struct bpf_prog *prog = c->prog;
	bool subprogs = false, tail_calls = false;
	u32 i;

	if (prog->type != BPF_PROG_TYPE_XDP || vi->needs_budget)
		return false;
	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];
		u8 mode = BPF_MODE(insn->code), op = BPF_OP(insn->code);

		switch (BPF_CLASS(insn->code)) {
		case BPF_LDX:
			if (mode == BPF_PROBE_MEM || mode == BPF_PROBE_MEMSX)
				return false;
			break;
		case BPF_ST:
		case BPF_STX:
			if (mode == BPF_PROBE_MEM || mode == BPF_PROBE_ATOMIC)
				return false;
			break;
		case BPF_LD:
			if (insn->code == (BPF_LD | BPF_IMM | BPF_DW))
				i++;
			break;
		case BPF_JMP32:
			if (insn->code == (BPF_JMP32 | BPF_CALL))
				subprogs = true;
			break;
		case BPF_JMP:
			if (op == BPF_TAIL_CALL)
				tail_calls = true;
			if (op == BPF_JCOND)
				return false;
			if (op == BPF_CALL && ((u32)insn->imm >= vi->nr_calls ||
					       vi->calls[insn->imm].nr_checks))
				return false;
			break;
		}
	}
	/* a tail call leaves from the main frame only (emit_direct_tail_call()) */
	return !(subprogs && tail_calls);
}

/*
 * Whether uxdp_this_cpu is in static TLS, at one offset from the thread
 * pointer in every thread: so when this code is part of the executable
 * (uxdp, the tests and benchmarks link the library in). libuxdp.so may have
 * been dlopen()ed (the Python binding), its TLS then placed per thread:
 * direct images there read the CPU once per run through bpf_jit_this_cpu().
 */
static int jit_exe_has(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t a = (uintptr_t)data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz)
			return 1;
	}
	return -1;	/* the first object is the executable: stop there */
}

static bool jit_tls_static(void)
{
	static int tls_static;	/* 0: not known yet, 1: static, -1: not */
	int v = __atomic_load_n(&tls_static, __ATOMIC_RELAXED);

	if (!v) {
		v = dl_iterate_phdr(jit_exe_has, (void *)(uintptr_t)jit_tls_static) == 1 &&
		    is_simm32(smp_tp_off()) ? 1 : -1;
		__atomic_store_n(&tls_static, v, __ATOMIC_RELAXED);
	}
	return v == 1;
}

/* Called by direct images with inlined PERCPU_ARRAY lookups, once per run. */
static u32 bpf_jit_this_cpu(void)
{
	return smp_processor_id();
}

/* R6..R9 the callee starting at slot @t may write (all if not found) */
static u8 jit_callee_mask(const struct jit_ctx *c, u32 t)
{
	for (u32 k = 0; k < c->nr_callees; k++)
		if (c->callee_start[k] == t)
			return c->callee_writes[k];
	return 0xff;
}

/* R6..R9 that @insn writes, as bits r - 6; 0xff: not known */
static u8 insn_writes_callee_saved(const struct bpf_insn *insn)
{
	u8 cls = BPF_CLASS(insn->code), r = 0xff;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
	case BPF_LD:
		r = insn->dst_reg;
		break;
	case BPF_STX:
		if (BPF_MODE(insn->code) != BPF_ATOMIC)
			return 0;
		if (insn->imm == BPF_LOAD_ACQ)
			r = insn->dst_reg;
		else if ((insn->imm & BPF_FETCH) || insn->imm == BPF_XCHG)
			r = insn->src_reg;	/* CMPXCHG's old value goes to R0 */
		else
			return 0;
		break;
	case BPF_ST:
		return 0;
	case BPF_JMP:
	case BPF_JMP32:
		/* helpers and kfuncs are C: they keep R6..R9 (rbx, r13-r15) */
		return insn->code == BPF_CALL_LOOP ? 0xff : 0;
	}
	return r >= BPF_REG_6 && r <= BPF_REG_9 ? 1u << (r - BPF_REG_6) : 0;
}

/*
 * For each bpf-to-bpf callee (a subprogram runs from its first slot to the
 * next one's), which of R6..R9 its own instructions write: a call site of
 * a direct image saves only those. What the callee's callees write, its
 * own call sites save and restore, so that is all a call can change.
 */
static void jit_callee_writes(struct jit_ctx *c)
{
	const struct bpf_prog *prog = c->prog;
	u32 i, k, n = 0, end;

	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];
		u32 t = i + insn->imm + 1;

		if (insn->code != (BPF_JMP32 | BPF_CALL) || t >= prog->len)
			continue;
		for (k = 0; k < n && c->callee_start[k] != t; k++)
			;
		if (k == n && n < MAX_SUBPROGS)
			c->callee_start[n++] = t;
	}
	/* sorted, so that callee k ends where callee k + 1 starts */
	for (i = 1; i < n; i++)
		for (k = i; k && c->callee_start[k - 1] > c->callee_start[k]; k--) {
			u32 t = c->callee_start[k];

			c->callee_start[k] = c->callee_start[k - 1];
			c->callee_start[k - 1] = t;
		}
	c->nr_callees = n;
	for (k = 0; k < n; k++) {
		end = k + 1 < n ? c->callee_start[k + 1] : prog->len;
		c->callee_writes[k] = 0;
		for (i = c->callee_start[k]; i < end; i++)
			c->callee_writes[k] |= insn_writes_callee_saved(&prog->insnsi[i]);
	}
}

/*
 * The frame of a direct image: the callee-saved registers the program
 * names (R6..R10), rsp 16-byte aligned in the body when it calls C, and
 *
 *   rsp              + 8 (if ctx)    + cpu_off   + tcc_off  rbp = R10
 *   | ctx (ctx fields,| CPU (PERCPU_ | tail-call | program stack,  | pushes | ret
 *   |  CPU call)      | ARRAY lookup)| count     | max_stack_depth |
 *
 * The CPU slot only without static TLS (jit_tls_static()), the count only
 * in programs with tail calls.
 *
 * With bpf-to-bpf calls and a slot, r12 (pushed first) keeps the main
 * body's rsp for the callees, whose rsp is lower.
 */
static void jit_direct_frame(struct jit_ctx *c)
{
	static const u8 callee[] = { BPF_REG_6, BPF_REG_7, BPF_REG_8, BPF_REG_9, BPF_REG_10 };
	const struct bpf_prog *prog = c->prog;
	bool used[MAX_BPF_REG] = { 0 }, calls = false, ctx = false, cpu = false, tail = false;
	const struct bpf_array *array;
	u32 i, k, lo, depth;

	c->sub_start = prog->len;
	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];

		if (insn->code == (BPF_JMP | BPF_CALL)) {
			calls = true;
			continue;
		}
		if (insn->code == (BPF_JMP32 | BPF_CALL)) {
			/* subprograms follow the main one */
			c->sub_start = min_t(u32, c->sub_start, i + insn->imm + 1);
			continue;
		}
		if (insn->code == (BPF_LDX | BPF_CTX_FIELD | BPF_W))
			ctx = true;
		if (insn->code == (BPF_JMP | BPF_TAIL_CALL))
			tail = true;
		used[insn->dst_reg & 0xf] = true;
		used[insn->src_reg & 0xf] = true;
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			array = array_lookup_at(c, i, NULL);
			if (array && array->map.ops == &percpu_array_map_ops && !jit_tls_static())
				cpu = calls = ctx = true;	/* ctx kept across the call */
			i++;
		}
	}
	jit_callee_writes(c);
	c->nr_saved = 0;
	for (k = 0; k < ARRAY_SIZE(callee); k++)
		if (used[callee[k]])
		{
			c->saved_bpf[c->nr_saved] = callee[k];
			c->saved[c->nr_saved++] = reg2hex[callee[k]];
		}
	lo = ctx ? 8 : 0;
	c->ctx_slot = ctx;
	c->cpu_off = cpu ? (s32)lo : -1;
	lo += cpu ? 8 : 0;
	c->tcc_off = tail ? (s32)lo : -1;
	lo += tail ? 8 : 0;
	depth = used[BPF_REG_10] ? (prog->aux->max_stack_depth + 7) & ~7u : 0;
	c->fp_top = used[BPF_REG_10] ? (s32)(lo + depth) : -1;
	c->stack_depth = depth;
	c->frame = lo + depth;
	c->c_calls = calls;
	/* callees run on their own rsp: they find the slots through r12 */
	c->slots = ctx && c->sub_start < prog->len ? R12 : RSP;
	/* on entry rsp = 8 mod 16 */
	if (calls && (8 + 8 * (c->nr_saved + (c->slots == R12)) + c->frame) % 16)
		c->frame += 8;
}

/*
 * The never-written stack reads as zero (vi->zero_stack), as on the
 * interpreter's zeroed area: the chain's depth below R10, 16 bytes a store.
 */
static void emit_direct_zero_stack(struct jit_ctx *c)
{
	s32 off = c->fp_top - (s32)c->stack_depth;

	emit1(c, 0x0f);				/* xorps xmm0, xmm0 */
	emit1(c, 0x57);
	emit1(c, 0xc0);
	for (; off + 16 <= c->fp_top; off += 16) {
		emit1(c, 0x0f);			/* movups [rsp + off], xmm0 */
		emit1(c, 0x11);
		emit_modrm_mem(c, 0, RSP, off);
	}
	if (off < c->fp_top)
		emit_st_imm(c, BPF_DW, RSP, off, 0);
}

static void emit_direct_prologue(struct jit_ctx *c)
{
	u32 k;

	/* entered from C: no tail call yet; a tail call enters after this with eax */
	if (c->tcc_off >= 0)
		emit_alu_rr(c, 0x31, false, RAX, RAX);
	c->tail_entry = c->pos;
	if (c->slots == R12)
		emit_push(c, R12);
	for (k = 0; k < c->nr_saved; k++)
		emit_push(c, c->saved[k]);
	if (c->frame)
		emit_alu_ri(c, 5, true, RSP, (s32)c->frame);
	if (c->slots == R12)
		emit_mov_rr(c, true, R12, RSP);
	if (c->ctx_slot)
		emit_st64(c, RDI, RSP, 0);
	if (c->tcc_off >= 0)
		emit_mem(c, 0x89, false, RAX, RSP, c->tcc_off);
	if (c->cpu_off >= 0) {
		emit_call_abs(c, bpf_jit_this_cpu);
		emit_mem(c, 0x89, false, RAX, RSP, c->cpu_off);
		emit_ld64(c, RDI, RSP, 0);		/* R1 = ctx again */
	}
	if (c->fp_top >= 0) {
		if (c->vi->zero_stack)
			emit_direct_zero_stack(c);
		emit_mem(c, 0x8d, true, RBP, RSP, c->fp_top);	/* lea rbp, [rsp + top] */
	}
}

/*
 * A bpf-to-bpf call in a direct image: R6..R10 the program uses saved
 * around a native call, R10 moved down by the caller's frame (insn->off),
 * rsp kept 16-byte aligned in the callee's body when the program calls C.
 */
static void emit_direct_subprog_call(struct jit_ctx *c, u32 i, const struct bpf_insn *insn)
{
	u8 writes = jit_callee_mask(c, i + insn->imm + 1);
	bool push[5] = { 0 }, pad;
	u32 k, n = 0;

	/* R6..R9 the callee may write; R10 is moved back after the call */
	for (k = 0; k < c->nr_saved; k++) {
		u8 r = c->saved_bpf[k];

		push[k] = r != BPF_REG_10 && (writes >> (r - BPF_REG_6) & 1);
		n += push[k];
	}
	pad = c->c_calls && !(n % 2);
	for (k = 0; k < c->nr_saved; k++)
		if (push[k])
			emit_push(c, c->saved[k]);
	if (pad)
		emit_alu_ri(c, 5, true, RSP, 8);
	if ((u16)insn->off && c->fp_top >= 0)
		emit_alu_ri(c, 5, true, RBP, (u16)insn->off);
	emit1(c, 0xe8);
	emit4(c, (u32)(c->addrs[i + insn->imm + 1] - (c->pos + 4)));
	if ((u16)insn->off && c->fp_top >= 0)
		emit_alu_ri(c, 0, true, RBP, (u16)insn->off);
	if (pad)
		emit_alu_ri(c, 0, true, RSP, 8);
	for (k = c->nr_saved; k-- > 0;)
		if (push[k])
			emit_pop(c, c->saved[k]);
}

/* The frame undone: rsp and the callee-saved registers as on entry. */
static void emit_direct_unwind(struct jit_ctx *c)
{
	u32 k;

	if (c->frame)
		emit_alu_ri(c, 0, true, RSP, (s32)c->frame);
	for (k = c->nr_saved; k-- > 0;)
		emit_pop(c, c->saved[k]);
	if (c->slots == R12)
		emit_pop(c, R12);
}

static void emit_direct_epilogue(struct jit_ctx *c)
{
	emit_direct_unwind(c);
	emit1(c, 0xc3);
}

/*
 * A tail call in a direct image, as the kernel's JIT makes it: the count
 * (in the frame) checked against MAX_TAIL_CALL_CNT and raised before the
 * slot is read, so an empty slot counts; then this frame is undone and the
 * target entered with R1 (the ctx) as it is and the count in eax: at its
 * tail entry (bpf_prog.jit_tail) when it has a direct image, else through
 * bpf_jit_tail_call_run(), which runs its other image with that count and
 * returns to whoever called this program. A target with no image is a
 * miss. r9-r11 are scratch; nothing is changed on a miss but the count.
 */
static u64 bpf_jit_tail_call_run(const struct xdp_buff *xdp, const struct bpf_prog *tgt, u32 tcc);

static void emit_direct_tail_call(struct jit_ctx *c)
{
	u32 p_miss[4], n = 0, p_direct, k;

	/* R2 = array, R3 = index */
	p_miss[n++] = emit_tail_call_index(c);
	emit_mem(c, 0x8b, false, R9, RSP, c->tcc_off);
	emit_alu_ri(c, 7, false, R9, MAX_TAIL_CALL_CNT);
	p_miss[n++] = emit_jcc8(c, CC_AE);
	emit_alu_ri(c, 0, false, R9, 1);
	emit_mem(c, 0x89, false, R9, RSP, c->tcc_off);
	p_miss[n++] = emit_tail_call_slot(c);
	emit_ld64(c, R10, R11, offsetof(struct bpf_prog, jit_tail));
	emit_alu_rr(c, 0x85, true, R10, R10);
	p_direct = emit_jcc8(c, CC_NE);
	emit_alu_mi(c, 7, true, R11, offsetof(struct bpf_prog, jit_body), 0);
	p_miss[n++] = emit_jcc8(c, CC_E);
	emit_mov_rr(c, true, RSI, R11);
	emit_mov_rr(c, false, RDX, R9);
	emit_mov_imm64(c, R10, (u64)(uintptr_t)bpf_jit_tail_call_run);
	patch8(c, p_direct);
	emit_mov_rr(c, false, RAX, R9);
	emit_direct_unwind(c);
	emit_rex(c, false, 0, 0, R10, false);		/* jmp r10 */
	emit1(c, 0xff);
	emit_modrm_reg(c, 4, R10);
	for (k = 0; k < n; k++)
		patch8(c, p_miss[k]);
}

/*
 * Two slots as one x86 instruction where nothing jumps to the second:
 * clang's "rX = rY; rX *= K" as imul rX, rY, K and a multiply by 3, 5 or
 * 9 followed by an add of a constant as one lea (the hash loop's
 * "h * 5 + K"). Returns the slots consumed: 2, or 0 for no match.
 */
static int emit_fused(struct jit_ctx *c, u32 i)
{
	const struct bpf_insn *a = &c->prog->insnsi[i], *b = a + 1;
	u8 dst = reg2hex[a->dst_reg & 0xf];
	bool w;

	if (i + 1 >= c->prog->len || c->target[i + 1] || b->dst_reg != a->dst_reg || b->off)
		return 0;
	w = BPF_CLASS(b->code) == BPF_ALU64;
	/* the constants emit_mul_k() turns into lea or a shift stay so */
	if (a->code == (BPF_ALU64 | BPF_MOV | BPF_X) && !a->off &&
	    (b->code == (BPF_ALU | BPF_MUL | BPF_K) || b->code == (BPF_ALU64 | BPF_MUL | BPF_K)) &&
	    !mul_lea_scale(b->imm) && (b->imm <= 1 || (b->imm & (b->imm - 1)))) {
		u8 src = reg2hex[a->src_reg & 0xf];

		emit_rex(c, w, dst, 0, src, false);
		emit1(c, 0x69);				/* imul dst, src, imm32 */
		emit_modrm_reg(c, dst, src);
		emit4(c, (u32)b->imm);
		return 2;
	}
	if ((a->code == (BPF_ALU | BPF_MUL | BPF_K) || a->code == (BPF_ALU64 | BPF_MUL | BPF_K)) &&
	    b->code == (BPF_CLASS(a->code) | BPF_ADD | BPF_K) && !a->off &&
	    mul_lea_scale(a->imm)) {
		emit_lea_index(c, w, dst, dst, dst, mul_lea_scale(a->imm), b->imm);
		return 2;
	}
	/*
	 * "rX = rY; rX += K" (pointer arithmetic, clang's fp - K) as one
	 * lea; in 32 bits the operand size truncates as the ALU32 pair does.
	 */
	if ((a->code == (BPF_ALU64 | BPF_MOV | BPF_X) || a->code == (BPF_ALU | BPF_MOV | BPF_X)) &&
	    !a->off && (b->code == (BPF_CLASS(a->code) | BPF_ADD | BPF_K) ||
			(b->code == (BPF_CLASS(a->code) | BPF_SUB | BPF_K) && b->imm != S32_MIN))) {
		emit_mem(c, 0x8d, w, dst, reg2hex[a->src_reg & 0xf],
			 BPF_OP(b->code) == BPF_ADD ? b->imm : -b->imm);
		return 2;
	}
	/*
	 * "rX = rY; rX += rZ" (a packet pointer plus an index) as one lea,
	 * rZ read before the move when it is rX itself.
	 */
	if ((a->code == (BPF_ALU64 | BPF_MOV | BPF_X) || a->code == (BPF_ALU | BPF_MOV | BPF_X)) &&
	    !a->off && b->code == (BPF_CLASS(a->code) | BPF_ADD | BPF_X)) {
		u8 src = reg2hex[a->src_reg & 0xf];

		emit_lea_index(c, w, dst, src, b->src_reg == a->dst_reg ? src :
			       reg2hex[b->src_reg & 0xf], 0, 0);
		return 2;
	}
	/* "rX <<= 32; rX >>= 32", clang's zero extension, as mov eX, eX */
	if (a->code == (BPF_ALU64 | BPF_LSH | BPF_K) && a->imm == 32 &&
	    b->code == (BPF_ALU64 | BPF_RSH | BPF_K) && b->imm == 32) {
		emit_mov_rr(c, false, dst, dst);
		return 2;
	}
	return 0;
}

/* test dst, imm32: 32 bits, or 64 with the immediate sign-extended as ALU64 K is */
static void emit_test_ri(struct jit_ctx *c, bool w, u8 dst, s32 imm)
{
	emit_rex(c, w, 0, 0, dst, false);
	emit1(c, 0xf7);
	emit_modrm_reg(c, 0, dst);
	emit4(c, (u32)imm);
}

/* "if rR ==/!= 0 goto" (JMP or JMP32, K), somewhere other than the next slot */
static bool is_zero_test(const struct bpf_insn *j, u8 reg)
{
	return (BPF_CLASS(j->code) == BPF_JMP || BPF_CLASS(j->code) == BPF_JMP32) &&
	       (BPF_OP(j->code) == BPF_JEQ || BPF_OP(j->code) == BPF_JNE) &&
	       BPF_SRC(j->code) == BPF_K && j->dst_reg == reg && !j->imm && j->off;
}

/*
 * A flag test as one x86 test: clang's "if (x & F)" when x is still
 * needed,
 *
 *	rT = rX; rT &= K; if rT ==/!= 0 goto L
 *
 * as "test rX, K; je/jne L" when nothing reads rT on either side of the
 * jump (demanded bits), and "rX &= K; if rX ==/!= 0 goto L" as the AND
 * and the jump on the flags the AND leaves (no test of rX). A 64-bit
 * test needs the move, the AND and the jump all 64-bit; any 32-bit one
 * makes the tested value the low half. Nothing may jump into the middle.
 * Returns the slots consumed, or 0.
 */
static int emit_test_branch(struct jit_ctx *c, u32 i)
{
	const struct bpf_insn *insns = c->prog->insnsi, *a = &insns[i];
	const struct bpf_insn *b = a + 1, *j = a + 2;
	u32 n = c->prog->len, t;
	bool w;

	/* rX &= K; if rX ==/!= 0: ZF is the jump's when the AND is as wide as the test */
	if (i + 1 < n && !c->target[i + 1] && !a->off &&
	    (a->code == (BPF_ALU | BPF_AND | BPF_K) || a->code == (BPF_ALU64 | BPF_AND | BPF_K)) &&
	    is_zero_test(b, a->dst_reg) &&
	    (BPF_CLASS(b->code) == BPF_JMP || BPF_CLASS(a->code) == BPF_ALU)) {
		emit_alu_ri(c, 4, BPF_CLASS(a->code) == BPF_ALU64, reg2hex[a->dst_reg], a->imm);
		emit_bpf_jump(c, jmp_cc(BPF_OP(b->code)), i + 1, b->off);
		return 2;
	}
	if (!c->has_bits || i + 3 >= n || c->target[i + 1] || c->target[i + 2])
		return 0;
	if ((a->code != (BPF_ALU64 | BPF_MOV | BPF_X) && a->code != (BPF_ALU | BPF_MOV | BPF_X)) ||
	    a->off || a->dst_reg == a->src_reg)
		return 0;
	if ((b->code != (BPF_ALU64 | BPF_AND | BPF_K) && b->code != (BPF_ALU | BPF_AND | BPF_K)) ||
	    b->off || b->dst_reg != a->dst_reg || !is_zero_test(j, a->dst_reg))
		return 0;
	/* rT dead after the jump, taken or not */
	t = i + 2 + j->off + 1;
	if (t >= n || c->bits.demand[i + 3][a->dst_reg] || c->bits.demand[t][a->dst_reg])
		return 0;
	w = BPF_CLASS(a->code) == BPF_ALU64 && BPF_CLASS(b->code) == BPF_ALU64 &&
	    BPF_CLASS(j->code) == BPF_JMP;
	emit_test_ri(c, w, reg2hex[a->src_reg], b->imm);
	emit_bpf_jump(c, jmp_cc(BPF_OP(j->code)), i + 2, j->off);
	return 3;
}

#define M32	0xffffffffULL

/* rol r32, n */
static void emit_rol32(struct jit_ctx *c, u8 reg, u8 n)
{
	emit_rex(c, false, 0, 0, reg, false);
	emit1(c, 0xc1);
	emit_modrm_reg(c, 0, reg);
	emit1(c, n);
}

/*
 * The mask of "rX &= M" at slot @i (AND K or AND X with a known constant
 * other than @not1, @not2), as the bits of the old rX it keeps; 0: none.
 */
static bool and_mask(const struct jit_ctx *c, u32 i, u8 not1, u8 not2, u64 *mask)
{
	const struct bpf_insn *insn = &c->prog->insnsi[i];
	bool w = BPF_CLASS(insn->code) == BPF_ALU64;
	u64 m;

	if (BPF_OP(insn->code) != BPF_AND || insn->off)
		return false;
	if (BPF_SRC(insn->code) == BPF_K) {
		m = w ? (u64)(s64)insn->imm : (u32)insn->imm;
	} else {
		if (!c->has_bits || insn->src_reg == not1 || insn->src_reg == not2 ||
		    !bpf_jit_known(&c->bits, i, insn->src_reg, &m))
			return false;
	}
	*mask = w ? m : m & M32;
	return true;
}

/*
 * Of a value x masked by @eff, shifted right by @r (1..31): true when the
 * result is exactly low32(x) >> r, that is bits r..31 of @eff set and
 * every bit above clear.
 */
static bool is_shr32(u64 eff, u32 r)
{
	return r && r < 32 && (eff & (~0ULL << r)) == (M32 & (~0ULL << r));
}

/*
 * "rX &= M; rX >>= R" where M keeps exactly bits R..31 (clang's 32-bit
 * shift in a 64-bit register, M often a register constant set before a
 * loop) is "shr rX32, R": the same 64-bit result.
 */
static int emit_and_shr(struct jit_ctx *c, u32 i)
{
	const struct bpf_insn *a = &c->prog->insnsi[i], *b = a + 1;
	u64 eff;
	u32 r;

	if (i + 1 >= c->prog->len || c->target[i + 1] || b->dst_reg != a->dst_reg || b->off ||
	    (BPF_CLASS(a->code) != BPF_ALU && BPF_CLASS(a->code) != BPF_ALU64) ||
	    (b->code != (BPF_ALU | BPF_RSH | BPF_K) && b->code != (BPF_ALU64 | BPF_RSH | BPF_K)) ||
	    !and_mask(c, i, a->dst_reg, a->dst_reg, &eff))
		return 0;
	r = (u32)b->imm & (BPF_CLASS(b->code) == BPF_ALU64 ? 63 : 31);
	if (BPF_CLASS(b->code) == BPF_ALU)
		eff &= M32;
	if (!is_shr32(eff, r))
		return 0;
	emit_shift_k(c, 5, false, reg2hex[a->dst_reg], r);
	return 2;
}

/*
 * clang's 32-bit rotate left by L of a value in a 64-bit register:
 *
 *	rT = rX; rT &= M; rT >>= R; rX <<= L; rX |= rT	(L + R == 32)
 *
 * the three middle instructions in any order that keeps the AND before
 * the RSH, the AND optional when a 32-bit mov or shift already clears the
 * high half. The low 32 bits of rX are then rol32(rX, L) when M keeps
 * bits R..31 and none of R + 31..32; the high half is rol's zero unless
 * the OR is 64-bit, and then no later instruction may read it (demanded
 * bits). rT is dead after, or recomputed as low32(rX) >> R when that is
 * what it holds. Five slots become "rol rX32, L".
 */
static int emit_rotate(struct jit_ctx *c, u32 i)
{
	const struct bpf_insn *p = &c->prog->insnsi[i];
	bool has_and = false, has_rsh = false, has_lsh = false, or64 = false;
	u8 t = p->dst_reg, x = p->src_reg, lsh = 0, rsh = 0;
	u64 eff, m;
	u32 k;

	if ((p->code != (BPF_ALU64 | BPF_MOV | BPF_X) && p->code != (BPF_ALU | BPF_MOV | BPF_X)) ||
	    p->off || t == x || t >= BPF_REG_10 || x >= BPF_REG_10)
		return 0;
	eff = BPF_CLASS(p->code) == BPF_ALU64 ? ~0ULL : M32;
	for (k = 1; k <= 4; k++) {
		const struct bpf_insn *q = p + k;
		u8 cls = BPF_CLASS(q->code), op = BPF_OP(q->code);
		bool w = cls == BPF_ALU64, reg = BPF_SRC(q->code) == BPF_X;

		if (i + k >= c->prog->len || c->target[i + k] || (cls != BPF_ALU && !w) || q->off)
			return 0;
		if (op == BPF_OR && reg && q->dst_reg == x && q->src_reg == t) {
			or64 = w;
			break;
		}
		if (q->dst_reg == t && op == BPF_AND && !has_and && !has_rsh &&
		    and_mask(c, i + k, t, x, &m)) {
			eff &= m;
			has_and = true;
		} else if (q->dst_reg == t && op == BPF_RSH && !reg && !has_rsh) {
			rsh = (u32)q->imm & (w ? 63 : 31);
			if (!w)
				eff &= M32;
			has_rsh = true;
		} else if (q->dst_reg == x && op == BPF_LSH && !reg && !has_lsh) {
			lsh = (u32)q->imm & (w ? 63 : 31);
			has_lsh = true;
		} else {
			return 0;
		}
	}
	if (k > 4 || !has_rsh || !has_lsh || !lsh || lsh + rsh != 32 ||
	    (eff & (M32 << rsh)) != (M32 & (M32 << rsh)))
		return 0;
	if (or64 && (!c->has_bits || (bpf_jit_demand_after(&c->bits, i + k, x) & ~M32)))
		return 0;
	if (!c->has_bits || bpf_jit_demand_after(&c->bits, i + k, t)) {
		/* rT stays live: it must be low32(rX) >> R */
		if (!is_shr32(eff, rsh))
			return 0;
		emit_mov_rr(c, false, reg2hex[t], reg2hex[x]);
		emit_shift_k(c, 5, false, reg2hex[t], rsh);
	}
	emit_rol32(c, reg2hex[x], lsh);
	return k + 1;
}

/* One instruction slot. Returns the number of slots consumed. */
static int do_jit_insn(struct jit_ctx *c, u32 i)
{
	const struct bpf_insn *insn = &c->prog->insnsi[i];
	u8 code = insn->code, cls = BPF_CLASS(code), op = BPF_OP(code);
	u8 dst = reg2hex[insn->dst_reg & 0xf], src = reg2hex[insn->src_reg & 0xf];
	bool w = cls == BPF_ALU64;
	const struct bpf_array *array;
	s32 imm = insn->imm;
	s64 key;
	int cc;

	if (insn->dst_reg >= MAX_BPF_REG || insn->src_reg >= MAX_BPF_REG)
		goto unsupported;
	cc = emit_rotate(c, i);
	if (!cc)
		cc = emit_and_shr(c, i);
	if (!cc)
		cc = emit_test_branch(c, i);
	if (!cc)
		cc = emit_fused(c, i);
	if (cc)
		return cc;

	switch (code) {
	/* ALU */
	case BPF_ALU | BPF_ADD | BPF_X: case BPF_ALU64 | BPF_ADD | BPF_X:
		emit_alu_rr(c, 0x01, w, dst, src); return 1;
	case BPF_ALU | BPF_SUB | BPF_X: case BPF_ALU64 | BPF_SUB | BPF_X:
		emit_alu_rr(c, 0x29, w, dst, src); return 1;
	case BPF_ALU | BPF_AND | BPF_X: case BPF_ALU64 | BPF_AND | BPF_X:
		emit_alu_rr(c, 0x21, w, dst, src); return 1;
	case BPF_ALU | BPF_OR | BPF_X: case BPF_ALU64 | BPF_OR | BPF_X:
		emit_alu_rr(c, 0x09, w, dst, src); return 1;
	case BPF_ALU | BPF_XOR | BPF_X: case BPF_ALU64 | BPF_XOR | BPF_X:
		emit_alu_rr(c, 0x31, w, dst, src); return 1;
	case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU64 | BPF_ADD | BPF_K:
		emit_alu_ri(c, 0, w, dst, imm); return 1;
	case BPF_ALU | BPF_SUB | BPF_K: case BPF_ALU64 | BPF_SUB | BPF_K:
		emit_alu_ri(c, 5, w, dst, imm); return 1;
	case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU64 | BPF_AND | BPF_K:
		emit_alu_ri(c, 4, w, dst, imm); return 1;
	case BPF_ALU | BPF_OR | BPF_K: case BPF_ALU64 | BPF_OR | BPF_K:
		emit_alu_ri(c, 1, w, dst, imm); return 1;
	case BPF_ALU | BPF_XOR | BPF_K: case BPF_ALU64 | BPF_XOR | BPF_K:
		emit_alu_ri(c, 6, w, dst, imm); return 1;
	case BPF_ALU | BPF_MUL | BPF_X: case BPF_ALU64 | BPF_MUL | BPF_X:
		emit_rex(c, w, dst, 0, src, false);
		emit1(c, 0x0f);
		emit1(c, 0xaf);
		emit_modrm_reg(c, dst, src);
		return 1;
	case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU64 | BPF_MUL | BPF_K:
		emit_mul_k(c, w, dst, imm);
		return 1;
	case BPF_ALU | BPF_LSH | BPF_X: case BPF_ALU64 | BPF_LSH | BPF_X:
		emit_shift_x(c, 4, w, dst, src); return 1;
	case BPF_ALU | BPF_RSH | BPF_X: case BPF_ALU64 | BPF_RSH | BPF_X:
		emit_shift_x(c, 5, w, dst, src); return 1;
	case BPF_ALU | BPF_ARSH | BPF_X: case BPF_ALU64 | BPF_ARSH | BPF_X:
		emit_shift_x(c, 7, w, dst, src); return 1;
	case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU64 | BPF_LSH | BPF_K:
		emit_shift_k(c, 4, w, dst, imm); return 1;
	case BPF_ALU | BPF_RSH | BPF_K: case BPF_ALU64 | BPF_RSH | BPF_K:
		emit_shift_k(c, 5, w, dst, imm); return 1;
	case BPF_ALU | BPF_ARSH | BPF_K: case BPF_ALU64 | BPF_ARSH | BPF_K:
		emit_shift_k(c, 7, w, dst, imm); return 1;
	case BPF_ALU | BPF_NEG: case BPF_ALU64 | BPF_NEG:
		emit_rex(c, w, 0, 0, dst, false);
		emit1(c, 0xf7);
		emit_modrm_reg(c, 3, dst);
		return 1;
	case BPF_ALU | BPF_DIV | BPF_X: case BPF_ALU64 | BPF_DIV | BPF_X:
	case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU64 | BPF_DIV | BPF_K:
	case BPF_ALU | BPF_MOD | BPF_X: case BPF_ALU64 | BPF_MOD | BPF_X:
	case BPF_ALU | BPF_MOD | BPF_K: case BPF_ALU64 | BPF_MOD | BPF_K:
		emit_divmod(c, insn, dst);
		return 1;
	case BPF_ALU64 | BPF_MOV | BPF_X:
		switch (insn->off) {
		case 0:
			emit_mov_rr(c, true, dst, src);
			return 1;
		case 8:
			emit_rex(c, true, dst, 0, src, true);
			emit1(c, 0x0f);
			emit1(c, 0xbe);
			break;
		case 16:
			emit_rex(c, true, dst, 0, src, false);
			emit1(c, 0x0f);
			emit1(c, 0xbf);
			break;
		default:
			emit_rex(c, true, dst, 0, src, false);
			emit1(c, 0x63);
			break;
		}
		emit_modrm_reg(c, dst, src);
		return 1;
	case BPF_ALU | BPF_MOV | BPF_X:
		switch (insn->off) {
		case 0:
			emit_mov_rr(c, false, dst, src);
			return 1;
		case 8:
			emit_rex(c, false, dst, 0, src, true);
			emit1(c, 0x0f);
			emit1(c, 0xbe);
			break;
		default:
			emit_rex(c, false, dst, 0, src, false);
			emit1(c, 0x0f);
			emit1(c, 0xbf);
			break;
		}
		emit_modrm_reg(c, dst, src);
		return 1;
	case BPF_ALU64 | BPF_MOV | BPF_K:
	case BPF_ALU | BPF_MOV | BPF_K:
		/* no BPF instruction reads the flags another one set */
		if (!imm)
			emit_alu_rr(c, 0x31, false, dst, dst);
		else if (w)
			emit_mov_imm64(c, dst, (u64)(s64)imm);
		else
			emit_mov_imm32(c, dst, (u32)imm);
		return 1;
	case BPF_ALU | BPF_END | BPF_TO_LE:
		if (imm == 16) {
			emit_rex(c, false, dst, 0, dst, false);
			emit1(c, 0x0f);
			emit1(c, 0xb7);
			emit_modrm_reg(c, dst, dst);
		} else if (imm == 32) {
			emit_mov_rr(c, false, dst, dst);
		}
		return 1;
	case BPF_ALU | BPF_END | BPF_TO_BE:
	case BPF_ALU64 | BPF_END | BPF_TO_LE:
		if (imm == 16) {
			emit1(c, 0x66);			/* rol dx, 8 */
			emit_rex(c, false, 0, 0, dst, false);
			emit1(c, 0xc1);
			emit_modrm_reg(c, 0, dst);
			emit1(c, 8);
			emit_rex(c, false, dst, 0, dst, false);
			emit1(c, 0x0f);
			emit1(c, 0xb7);
			emit_modrm_reg(c, dst, dst);
		} else {
			emit_rex(c, imm != 32, 0, 0, dst, false);
			emit1(c, 0x0f);
			emit1(c, 0xc8 + (dst & 7));
		}
		return 1;

	case BPF_LD | BPF_IMM | BPF_DW:
		if (i + 1 >= c->prog->len)
			goto unsupported;
		array = array_lookup_at(c, i, &key);
		if (array && !c->target[i + 2]) {
			emit_inline_array_lookup(c, i, array, true, key);
			return 3;
		} else if (array) {
			emit_inline_array_lookup(c, i, array, false, key);
		} else {
			emit_mov_imm64(c, dst, (u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm) << 32);
		}
		return 2;

	/* jumps */
	case BPF_JMP | BPF_JA:
		if (!insn->off)
			return 1;	/* a nop (a hard-wired dead branch), as the kernel's */
		emit_bpf_jump(c, -1, i, insn->off);
		return 1;
	case BPF_JMP32 | BPF_JA:
		emit_bpf_jump(c, -1, i, imm);
		return 1;
	case BPF_JMP | BPF_JCOND: {
		u32 p_take, p_next;

		emit_alu_mi(c, 7, true, R12, RUN_OFF(may_goto_cnt), 0);
		p_take = emit_jcc8(c, CC_E);
		emit_alu_mi(c, 5, true, R12, RUN_OFF(may_goto_cnt), 1);
		p_next = emit_jmp8(c);
		patch8(c, p_take);
		emit_bpf_jump(c, -1, i, insn->off);
		patch8(c, p_next);
		return 1;
	}
	case BPF_JMP | BPF_EXIT:
		if (c->direct && i < c->sub_start)
			emit_direct_epilogue(c);
		else
			emit1(c, 0xc3);
		return 1;
	case BPF_JMP | BPF_CALL:
		emit_helper_call(c, insn);
		return 1;
	case BPF_JMP32 | BPF_CALL:
		if (c->direct)
			emit_direct_subprog_call(c, i, insn);
		else
			emit_subprog_call(c, i, insn);
		return 1;
	case BPF_JMP | BPF_TAIL_CALL:
		if (c->direct)
			emit_direct_tail_call(c);
		else
			emit_tail_call(c);
		return 1;

	/* memory */
	case BPF_LDX | BPF_MEM | BPF_B: case BPF_LDX | BPF_MEM | BPF_H:
	case BPF_LDX | BPF_MEM | BPF_W: case BPF_LDX | BPF_MEM | BPF_DW:
		emit_ldx(c, BPF_SIZE(code), false, dst, src, insn->off);
		return 1;
	case BPF_LDX | BPF_MEMSX | BPF_B: case BPF_LDX | BPF_MEMSX | BPF_H:
	case BPF_LDX | BPF_MEMSX | BPF_W:
		emit_ldx(c, BPF_SIZE(code), true, dst, src, insn->off);
		return 1;
	case BPF_LDX | BPF_PROBE_MEM | BPF_B: case BPF_LDX | BPF_PROBE_MEM | BPF_H:
	case BPF_LDX | BPF_PROBE_MEM | BPF_W: case BPF_LDX | BPF_PROBE_MEM | BPF_DW:
		emit_probe(c, i, src, insn->off, bpf_size_to_bytes(BPF_SIZE(code)));
		emit_ldx(c, BPF_SIZE(code), false, dst, R11, 0);
		return 1;
	case BPF_LDX | BPF_PROBE_MEMSX | BPF_B: case BPF_LDX | BPF_PROBE_MEMSX | BPF_H:
	case BPF_LDX | BPF_PROBE_MEMSX | BPF_W:
		emit_probe(c, i, src, insn->off, bpf_size_to_bytes(BPF_SIZE(code)));
		emit_ldx(c, BPF_SIZE(code), true, dst, R11, 0);
		return 1;
	case BPF_LDX | BPF_CTX_FIELD | BPF_W:
		emit_ctx_field(c, dst, imm);
		return 1;
	case BPF_ST | BPF_MEM | BPF_B: case BPF_ST | BPF_MEM | BPF_H:
	case BPF_ST | BPF_MEM | BPF_W: case BPF_ST | BPF_MEM | BPF_DW:
		emit_st_imm(c, BPF_SIZE(code), dst, insn->off, imm);
		return 1;
	case BPF_ST | BPF_PROBE_MEM | BPF_B: case BPF_ST | BPF_PROBE_MEM | BPF_H:
	case BPF_ST | BPF_PROBE_MEM | BPF_W: case BPF_ST | BPF_PROBE_MEM | BPF_DW:
		emit_probe(c, i, dst, insn->off, bpf_size_to_bytes(BPF_SIZE(code)));
		emit_st_imm(c, BPF_SIZE(code), R11, 0, imm);
		return 1;
	case BPF_STX | BPF_MEM | BPF_B: case BPF_STX | BPF_MEM | BPF_H:
	case BPF_STX | BPF_MEM | BPF_W: case BPF_STX | BPF_MEM | BPF_DW:
		emit_stx(c, BPF_SIZE(code), dst, insn->off, src);
		return 1;
	case BPF_STX | BPF_PROBE_MEM | BPF_B: case BPF_STX | BPF_PROBE_MEM | BPF_H:
	case BPF_STX | BPF_PROBE_MEM | BPF_W: case BPF_STX | BPF_PROBE_MEM | BPF_DW:
		emit_probe(c, i, dst, insn->off, bpf_size_to_bytes(BPF_SIZE(code)));
		emit_stx(c, BPF_SIZE(code), R11, 0, src);
		return 1;
	case BPF_STX | BPF_ATOMIC | BPF_W: case BPF_STX | BPF_ATOMIC | BPF_DW:
		/* lea r9, [dst + off]; a load-acquire reads [src + off] */
		emit_mem(c, 0x8d, true, R9, imm == BPF_LOAD_ACQ ? src : dst, insn->off);
		emit_atomic(c, imm, BPF_SIZE(code) == BPF_DW, dst, src);
		return 1;
	/* 8 and 16 bits: only load-acquire and store-release (x86: plain moves) */
	case BPF_STX | BPF_ATOMIC | BPF_B: case BPF_STX | BPF_ATOMIC | BPF_H:
		if (imm == BPF_LOAD_ACQ)
			emit_ldx(c, BPF_SIZE(code), false, dst, src, insn->off);
		else
			emit_stx(c, BPF_SIZE(code), dst, insn->off, src);
		return 1;
	case BPF_STX | BPF_PROBE_ATOMIC | BPF_B: case BPF_STX | BPF_PROBE_ATOMIC | BPF_H:
		cc = BPF_SIZE(code) == BPF_H ? 2 : 1;
		emit_probe(c, i, imm == BPF_LOAD_ACQ ? src : dst, insn->off, cc);
		if (cc == 2) {
			emit_rex(c, true, 0, 0, R11, false);	/* test r11, 1 */
			emit1(c, 0xf7);
			emit_modrm_reg(c, 0, R11);
			emit4(c, 1);
			emit_abort_jcc(c, CC_NE, BPF_ABORT_MISALIGNED_ATOMIC);
		}
		if (imm == BPF_LOAD_ACQ)
			emit_ldx(c, BPF_SIZE(code), false, dst, R11, 0);
		else
			emit_stx(c, BPF_SIZE(code), R11, 0, src);
		return 1;
	case BPF_STX | BPF_PROBE_ATOMIC | BPF_W: case BPF_STX | BPF_PROBE_ATOMIC | BPF_DW:
		cc = BPF_SIZE(code) == BPF_DW ? 8 : 4;
		emit_probe(c, i, imm == BPF_LOAD_ACQ ? src : dst, insn->off, cc);
		emit_rex(c, true, 0, 0, R11, false);	/* test r11, size - 1 */
		emit1(c, 0xf7);
		emit_modrm_reg(c, 0, R11);
		emit4(c, cc - 1);
		emit_abort_jcc(c, CC_NE, BPF_ABORT_MISALIGNED_ATOMIC);
		emit_mov_rr(c, true, R9, R11);
		emit_atomic(c, imm, cc == 8, dst, src);
		return 1;
	}

	if (cls == BPF_JMP || cls == BPF_JMP32) {
		bool w32 = cls == BPF_JMP32;

		cc = jmp_cc(op);
		if (cc < 0)
			goto unsupported;
		if (BPF_SRC(code) == BPF_X) {
			emit_alu_rr(c, op == BPF_JSET ? 0x85 : 0x39, !w32, dst, src);
		} else if (op == BPF_JSET) {
			emit_rex(c, !w32, 0, 0, dst, false);	/* test dst, imm32 */
			emit1(c, 0xf7);
			emit_modrm_reg(c, 0, dst);
			emit4(c, (u32)imm);
		} else if (!imm) {
			/* test dst, dst: the flags of cmp dst, 0 for every condition, 1 byte shorter */
			emit_alu_rr(c, 0x85, !w32, dst, dst);
		} else {
			emit_alu_ri(c, 7, !w32, dst, imm);
		}
		if (insn->off && i + 1 < c->prog->len && !c->target[i + 1] &&
		    insn[1].code == (BPF_JMP | BPF_JA)) {
			/*
			 * "if cond goto X; goto Y" (clang's loop latch: exit
			 * test, then the back edge) as "if !cond goto Y; goto X":
			 * the path that repeats takes one jump, not two.
			 */
			emit_bpf_jump(c, cc ^ 1, i + 1, insn[1].off);
			if (insn->off != 1)
				emit_bpf_jump(c, -1, i, insn->off);
			return 2;
		}
		if (insn->off)
			emit_bpf_jump(c, cc, i, insn->off);
		return 1;
	}
unsupported:
	c->failed = true;
	snprintf(c->err, c->errlen, "insn %u: opcode 0x%02x not supported", i, code);
	return 1;
}

/* One pass over the program into c->buf. */
static void do_jit(struct jit_ctx *c)
{
	static const u8 saved[] = { RBX, RBP, R12, R13, R14, R15 };
	u32 i, k;
	int n;

	c->pos = 0;
	if (c->direct) {
		emit_direct_prologue(c);
		c->body = c->pos;
		goto body;
	}
	/* entry: save the C callee-saved registers, then call the body */
	for (k = 0; k < ARRAY_SIZE(saved); k++)
		emit_push(c, saved[k]);
	emit_alu_ri(c, 5, true, RSP, 8);
	emit_mov_rr(c, true, R12, RDX);
	emit_st64(c, RSP, R12, RUN_OFF(exit_rsp));
	emit_mov_rr(c, true, RBP, RCX);
	emit1(c, 0xe8);
	emit4(c, (u32)(c->body - (c->pos + 4)));
	c->epilogue = c->pos;
	emit_alu_ri(c, 0, true, RSP, 8);
	for (k = ARRAY_SIZE(saved); k-- > 0;)
		emit_pop(c, saved[k]);
	emit1(c, 0xc3);
	c->body = c->pos;

body:
	for (i = 0; i < c->prog->len && !c->failed; i += n) {
		u32 start;

		emit_loop_align(c, i);
		start = c->pos;

		c->new_addrs[i] = start;
		n = do_jit_insn(c, i);
		for (k = 1; k < (u32)n; k++)	/* slots folded into slot i's code */
			c->new_addrs[i + k] = c->pos;
		if (c->pos - start > MAX_INSN_BYTES) {
			c->failed = true;
			snprintf(c->err, c->errlen, "insn %u: %u bytes of code", i, c->pos - start);
		}
	}
	c->new_addrs[c->prog->len] = c->pos;
	if (c->direct)
		return;		/* nothing can abort */

	/* abort stubs: reason into the run state, then unwind */
	for (k = 0; k < __BPF_ABORT_MAX; k++) {
		c->new_stub[k] = c->pos;
		/* mov dword [r12 + reason], k */
		emit_rex(c, false, 0, 0, R12, false);
		emit1(c, 0xc7);
		emit_modrm_mem(c, 0, R12, RUN_OFF(reason));
		emit4(c, k);
		emit_jmp_to(c, c->stub[STUB_COMMON], false);
	}
	c->new_stub[STUB_COMMON] = c->pos;
	emit_ld64(c, RSP, R12, RUN_OFF(exit_rsp));
	emit_alu_rr(c, 0x31, false, RAX, RAX);
	emit_jmp_to(c, c->epilogue, false);
}

/* ---- compile, free, run ------------------------------------------------- */

/*
 * Emit passes until the offsets of every slot and stub are those of the
 * previous pass. Return: 0 with c->pos bytes of code in c->buf, or -1 with
 * the reason in c->err.
 */
static int __jit_converge(struct jit_ctx *c)
{
	u32 pass, len = c->prog->len;
	bool same;

	memset(c->addrs, 0, (len + 1) * sizeof(u32));
	memset(c->stub, 0, sizeof(c->stub));
	memset(c->new_stub, 0, sizeof(c->new_stub));
	c->body = 0;
	/* pass 0 with every jump long: sizes only shrink from there */
	c->force_long = true;
	for (pass = 0; pass < MAX_PASSES; pass++) {
		do_jit(c);
		if (c->failed)
			return -1;
		if (c->pos > c->cap) {
			snprintf(c->err, c->errlen, "image larger than %u bytes", c->cap);
			return -1;
		}
		same = pass > 0 && !memcmp(c->addrs, c->new_addrs, (len + 1) * sizeof(u32)) &&
		       !memcmp(c->stub, c->new_stub, sizeof(c->stub));
		memcpy(c->addrs, c->new_addrs, (len + 1) * sizeof(u32));
		memcpy(c->stub, c->new_stub, sizeof(c->stub));
		if (same)
			return 0;
		c->force_long = false;
	}
	snprintf(c->err, c->errlen, "code size did not converge in %u passes", MAX_PASSES);
	return -1;
}

/* __jit_converge() with loop alignment, or without if that does not converge */
static int jit_converge(struct jit_ctx *c)
{
	c->align = true;
	if (!__jit_converge(c))
		return 0;
	if (c->failed)
		return -1;
	c->align = false;
	return __jit_converge(c);
}

/* The direct image starts on a cache line of its own after the C-entry image. */
#define JIT_DIRECT_ALIGN	64

struct bpf_prog *bpf_int_jit_compile(struct bpf_prog *prog)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u32 len = prog->len, body, std_len, direct_at = 0;
	struct jit_ctx c = { 0 };
	u8 *std = NULL;
	size_t alloc;
	u8 *image;

	prog->aux->jit_reason[0] = '\0';
	if (!vi) {
		snprintf(prog->aux->jit_reason, sizeof(prog->aux->jit_reason), "not checked");
		return prog;
	}
	c.prog = prog;
	c.vi = vi;
	c.err = prog->aux->jit_reason;
	c.errlen = sizeof(prog->aux->jit_reason);
	c.cap = len * (MAX_INSN_BYTES + 64) + 4096;	/* + loop alignment */
	c.buf = malloc(c.cap);
	c.addrs = calloc(len + 1, sizeof(u32));
	c.new_addrs = calloc(len + 1, sizeof(u32));
	c.loop_end = calloc(len, sizeof(u32));
	c.target = calloc(len, 1);
	if (!c.buf || !c.addrs || !c.new_addrs || !c.loop_end || !c.target) {
		snprintf(c.err, c.errlen, "out of memory");
		goto out_free;
	}
	jit_find_targets(&c);
	c.has_bits = !bpf_jit_bits_compute(&c.bits, prog->insnsi, len, vi);
	if (jit_converge(&c))
		goto out_free;
	std_len = c.pos;
	body = c.body;
	alloc = std_len;
	if (jit_direct_ok(&c)) {
		std = malloc(std_len);
		if (!std) {
			snprintf(c.err, c.errlen, "out of memory");
			goto out_free;
		}
		memcpy(std, c.buf, std_len);
		c.direct = true;
		jit_direct_frame(&c);
		if (jit_converge(&c))
			goto out_free;
		direct_at = ((std_len + JIT_DIRECT_ALIGN - 1) & ~(JIT_DIRECT_ALIGN - 1));
		alloc = direct_at + c.pos;
	}
	alloc = (alloc + 4095) & ~(size_t)4095;
	image = mmap(NULL, alloc, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (image == MAP_FAILED) {
		snprintf(c.err, c.errlen, "mmap: out of memory");
		goto out_free;
	}
	memset(image, 0xcc, alloc);	/* int3 */
	memcpy(image, std ? std : c.buf, std_len);
	if (std)
		memcpy(image + direct_at, c.buf, c.pos);
	if (mprotect(image, alloc, PROT_READ | PROT_EXEC)) {
		munmap(image, alloc);
		snprintf(c.err, c.errlen, "mprotect failed");
		goto out_free;
	}
	prog->aux->jit_image = image;
	prog->aux->jit_alloc = alloc;
	prog->aux->jit_direct = std ? image + direct_at : NULL;
	prog->jited_len = std ? c.pos : std_len;
	prog->jit_body = image + body;
	prog->jit_tail = std ? image + direct_at + c.tail_entry : NULL;
	prog->jited = 1;
	/* the last pass's offsets are those of the image bpf_func enters */
	prog->aux->jit_insn_off = c.addrs;
	c.addrs = NULL;
	if (prog->aux->jit_direct)
		prog->bpf_func = (unsigned int (*)(const void *, const struct bpf_prog *))
				 prog->aux->jit_direct;
	else
		prog->bpf_func = prog->type == BPF_PROG_TYPE_UNSPEC ? bpf_prog_run_raw_jit :
				 bpf_prog_run_xdp_jit;
out_free:
	free(std);
	free(c.buf);
	free(c.addrs);
	free(c.new_addrs);
	free(c.loop_end);
	free(c.target);
	if (c.has_bits)
		bpf_jit_bits_free(&c.bits);
	return prog;
}

void bpf_jit_free(struct bpf_prog *prog)
{
	if (!prog->aux || !prog->aux->jit_image)
		return;
	munmap(prog->aux->jit_image, prog->aux->jit_alloc);
	free(prog->aux->jit_insn_off);
	prog->aux->jit_insn_off = NULL;
	prog->aux->jit_image = NULL;
	prog->aux->jit_direct = NULL;
	prog->jit_body = NULL;
	prog->jit_tail = NULL;
	prog->jited = 0;
}

/* The C-entry image of @prog, with @tcc tail calls already made. */
static u64 __bpf_jit_prog_run(const struct bpf_prog *prog, const struct xdp_buff *xdp, void *mem,
			      u64 mem_len, enum bpf_abort_reason *reason, u32 tcc)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u64 stack[BPF_JIT_STACK / sizeof(u64)];
	struct bpf_jit_run run;
	u64 ret;

	run.budget = BPF_INSN_BUDGET - (s64)prog->len;
	run.tail_call_cnt = tcc;
	run.depth = 0;
	run.may_goto_cnt = BPF_MAX_LOOPS;
	run.stack_lo = (u8 *)stack;
	run.stack_hi = (u8 *)stack + sizeof(stack);
	run.xdp = xdp;
	run.mem = mem;
	run.mem_len = mem_len;
	run.reason = BPF_ABORT_NONE;
	run.cpu = smp_processor_id();
	if (vi->zero_stack)
		memset(stack, 0, sizeof(stack));
	ret = ((bpf_jit_entry_t)prog->aux->jit_image)(xdp ? (u64)(uintptr_t)xdp :
						      (u64)(uintptr_t)mem, mem_len,
						      &run, run.stack_hi);
	if (unlikely(run.reason != BPF_ABORT_NONE)) {
		/* count against the program the run was started with */
		__atomic_fetch_add(&prog->aux->abort_cnt[run.reason], 1, __ATOMIC_RELAXED);
		ret = 0;
	}
	if (reason)
		*reason = run.reason;
	return ret;
}

/*
 * A direct image's tail call into a program that has only the C-entry
 * image: run there with the count so far, the result returned to the
 * caller of the program that tail-called. An abort counts against the
 * target, whose run this is.
 */
static u64 bpf_jit_tail_call_run(const struct xdp_buff *xdp, const struct bpf_prog *tgt, u32 tcc)
{
	return __bpf_jit_prog_run(tgt, xdp, NULL, 0, NULL, tcc);
}

u64 bpf_jit_prog_run(const struct bpf_prog *prog, const struct xdp_buff *xdp, void *mem,
		     u64 mem_len, enum bpf_abort_reason *reason)
{
	if (prog->aux->jit_direct && xdp) {
		/* nothing to set up, nothing can abort (a tail-called target counts its own) */
		if (reason)
			*reason = BPF_ABORT_NONE;
		return ((u64 (*)(const void *, const struct bpf_prog *))prog->aux->jit_direct)(xdp,
											  prog);
	}
	return __bpf_jit_prog_run(prog, xdp, mem, mem_len, reason, 0);
}

unsigned int bpf_prog_run_xdp_jit(const void *ctx, const struct bpf_prog *prog)
{
	return (unsigned int)bpf_jit_prog_run(prog, ctx, NULL, 0, NULL);
}

unsigned int bpf_prog_run_raw_jit(const void *ctx, const struct bpf_prog *prog)
{
	return (unsigned int)bpf_jit_prog_run(prog, NULL, (void *)ctx, 0, NULL);
}

#endif /* __x86_64__ */
