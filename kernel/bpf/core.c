// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF interpreter and the program object's lifecycle.
 *
 * Theory of operation. A struct bpf_prog is allocated with its instructions
 * (bpf_prog_alloc), filled in by the loader, then handed to bpf_prog_load()
 * (kernel/bpf/syscall.c). It runs bpf_check() (kernel/bpf/verifier.c),
 * which validates it, resolves map references and helper ids, rewrites
 * struct xdp_md accesses and marks every memory access it could not prove
 * safe with an internal "checked" opcode (see <linux/bpf_verifier.h>);
 * then bpf_prog_select_runtime() builds the
 * interpreter's decoded image and, when net.core.bpf_jit_enable is 1 (the
 * default on x86-64; environment UXDP_BPF_JIT=0|1, `sysctl` in scripts),
 * hands the program to bpf_int_jit_compile() (arch/x86/net/bpf_jit_comp.c),
 * which points prog->bpf_func at native code with the same semantics and
 * run-time checks, or leaves the interpreter and records why in
 * aux->jit_reason (the kernel's fallback without
 * CONFIG_BPF_JIT_ALWAYS_ON). The decoded image is kept either way:
 * bpf_prog_run_interp() runs any program on the interpreter (differential
 * tests, tail calls from interpreted programs). Programs are reference counted
 * (bpf_prog_inc/bpf_prog_put); the last put drops the map references the
 * program holds and frees it.
 *
 * The interpreter (___bpf_prog_run) is a direct-threaded loop over a
 * decoded copy of the patched instructions (struct bpf_dinsn: handler
 * address, whole-byte registers) that bpf_prog_select_runtime() builds;
 * conditional jumps come in BPF_COND_COPIES handler copies so the host
 * branch predictor sees more distinct sites. Frequent straight-line
 * sequences of proven instructions (pointer + constant + compare against
 * data_end, mask + compare, loop counter + compare, byte-pair loads,
 * counter increments, r0 = K + exit) and ARRAY/PERCPU_ARRAY lookups with a constant map (the kernel's
 * map_gen_lookup) get a superinstruction at their first slot
 * (bpf_fuse_at()); the other slots keep their own handlers, so jumps
 * into a sequence still work; a program that starts with r0 = K; exit
 * gets a bpf_func that just returns K. Per run it keeps on the C
 * stack: the registers, one stack area for the whole call chain (frames
 * grow down from its top; each frame's R10 is its top; zeroed only when the
 * checker saw reads it could not prove initialised), the bpf-to-bpf return
 * frames, the tail-call count and the loop budget. It trusts what the
 * checker proved; unproven accesses go through bpf_region_check() against
 * the region the checker recorded for that instruction (packet checks are
 * inlined). A violation ends the run: XDP programs return XDP_ABORTED and
 * aux->abort_cnt[reason] is bumped, never a crash. Threading: a program may
 * run on several workers at once; the only shared writes are the atomic
 * abort counters.
 *
 * Loops: in a program with vi->needs_budget (hardened, or loops the
 * checker left to run time) every taken backward jump charges its distance
 * to a budget of BPF_INSN_BUDGET instructions, every bpf-to-bpf call and
 * tail call the callee's length. That bounds the instructions executed per
 * run (each one executed is covered by a charge) without per-instruction
 * counting. Other programs get jump handlers that charge nothing (the
 * *_nb copies, chosen at decode time), as the kernel, which has no budget.
 *
 * Roadmap:
 *   bpf_prog_alloc/bpf_prog_free/bpf_prog_inc/bpf_prog_put	lifecycle
 *   bpf_prog_select_runtime, bpf_jit_enabled			bpf_func choice, JIT knob
 *   ___bpf_prog_run						the interpreter
 *   bpf_prog_run_xdp_interp, bpf_prog_run_raw, bpf_prog_run_interp	entries
 *   uxdp_bpf_prog_aborts, uxdp_bpf_abort_reason_key/str		abort counters
 *   bpf_prog_coverage_set, the COVER handler			coverage (coverage.c)
 *
 * Kernel: kernel/bpf/core.c bpf_prog_alloc(), __bpf_prog_free(),
 *	   ___bpf_prog_run(), bpf_prog_select_runtime()
 * Differs: one interpreter entry for every stack depth; bpf-to-bpf calls and
 *	    tail calls are handled inside the loop instead of recursion; DIV/MOD
 *	    by 0 and -1 are handled in the interpreter (the kernel patches
 *	    guard sequences in the verifier); run-time checks and the loop
 *	    budget have no kernel counterpart, nor has coverage counting;
 *	    BPF_PROG_TYPE_UNSPEC is a raw test program type (r1 = memory,
 *	    r2 = its length).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_coverage.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/bug.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <net/xdp.h>

/* ---- lifecycle ---------------------------------------------------------- */

struct bpf_prog *bpf_prog_alloc(u32 len)
{
	struct bpf_prog *fp;

	if (!len || len > BPF_MAX_INSNS)
		return ERR_PTR(-E2BIG);
	fp = calloc(1, sizeof(*fp) + (size_t)len * sizeof(struct bpf_insn));
	if (!fp)
		return ERR_PTR(-ENOMEM);
	fp->aux = calloc(1, sizeof(*fp->aux));
	if (!fp->aux) {
		free(fp);
		return ERR_PTR(-ENOMEM);
	}
	fp->len = len;
	fp->refcnt = 1;
	return fp;
}

void bpf_prog_free(struct bpf_prog *fp)
{
	u32 i;

	if (!fp)
		return;
	if (fp->aux) {
#if defined(__x86_64__)
		bpf_jit_free(fp);
#endif
		bpf_verifier_info_free(fp->aux->verifier_info);
		for (i = 0; i < fp->aux->used_map_cnt; i++)
			bpf_map_put(fp->aux->used_maps[i]);
		free(fp->aux->used_maps);
		bpf_prog_linfo_free(fp->aux->linfo);
		free(fp->aux);
	}
	free(fp);
}

void bpf_prog_inc(struct bpf_prog *prog)
{
	__atomic_fetch_add(&prog->refcnt, 1, __ATOMIC_RELAXED);
}

void bpf_prog_put(struct bpf_prog *prog)
{
	if (!prog)
		return;
	if (__atomic_sub_fetch(&prog->refcnt, 1, __ATOMIC_ACQ_REL))
		return;
	bpf_prog_free_id(prog);
	bpf_prog_free(prog);
}

#define __BPF_ABORT_STR(name, key, str)	[BPF_ABORT_##name] = str,
#define __BPF_ABORT_KEY(name, key, str)	[BPF_ABORT_##name] = #key,
static const char *const bpf_abort_strs[] = {
	UXDP_BPF_ABORT_REASONS(__BPF_ABORT_STR)
};
static const char *const bpf_abort_keys[] = {
	UXDP_BPF_ABORT_REASONS(__BPF_ABORT_KEY)
};
#undef __BPF_ABORT_STR
#undef __BPF_ABORT_KEY

const char *bpf_abort_reason_str(enum bpf_abort_reason reason)
{
	return (unsigned int)reason < ARRAY_SIZE(bpf_abort_strs) ? bpf_abort_strs[reason] : "unknown";
}

UXDP_API const char *uxdp_bpf_abort_reason_str(unsigned int reason)
{
	return bpf_abort_reason_str(reason);
}

UXDP_API const char *uxdp_bpf_abort_reason_key(unsigned int reason)
{
	return reason < ARRAY_SIZE(bpf_abort_keys) ? bpf_abort_keys[reason] : "unknown";
}

UXDP_API int uxdp_bpf_prog_aborts(unsigned int prog_id, unsigned long long *cnt, unsigned int n)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	unsigned int i;

	if (!prog)
		return -ENOENT;
	n = min_t(unsigned int, n, __BPF_ABORT_MAX);
	for (i = 0; i < n; i++)
		cnt[i] = __atomic_load_n(&prog->aux->abort_cnt[i], __ATOMIC_RELAXED);
	return (int)n;
}

/* ---- interpreter -------------------------------------------------------- */

/* One whole-chain stack: twice MAX_BPF_STACK leaves room for a tail call
 * made from inside a subprogram (the kernel's JITs give it a fresh frame).
 */
#define BPF_INTERP_STACK	(2 * MAX_BPF_STACK)

/*
 * The interpreter runs a decoded copy of the program (vi->image), one entry
 * per instruction slot so jump offsets are unchanged: the handler address
 * replaces the opcode byte (direct threading: one indirect jump per
 * instruction, no table lookup) and the register numbers are whole bytes.
 */
struct bpf_dinsn {
	const void *op;
	u8 dst_reg;
	u8 src_reg;
	s16 off;
	s32 imm;
};

#define BPF_COND_COPIES	4

/*
 * Superinstructions: a handler at slot i that does the work of slots
 * i..i+n-1 and continues at i+n. The slots after i keep their own handlers,
 * so a jump into the middle of a fused sequence still works and jump
 * offsets are unchanged. bpf_fuse_at() picks them at decode time, only
 * over instructions the checker proved (never over checked accesses).
 */
enum bpf_fused_op {
	BPF_FUSE_MOV_ADD,	/* d = s; d += K */
	BPF_FUSE_PKT_CHECK,	/* d = s; d += K; if d > r goto */
	BPF_FUSE_AND_JEQ,	/* d &= K; if d == K2 goto */
	BPF_FUSE_AND_JNE,	/* d &= K; if d != K2 goto */
	BPF_FUSE_ADD_JNE,	/* d += K; if d != K2 goto (counted loops) */
	BPF_FUSE_LD_BE16,	/* a = *(u8 *)(s + o1); b = *(u8 *)(s + o2); b <<= 8; b |= a */
	BPF_FUSE_INC_DW,	/* d = *(u64 *)(s + o); d += K; *(u64 *)(s + o) = d */
	BPF_FUSE_INC_W,		/* the same with u32 memory */
	BPF_FUSE_RET_K,		/* r0 = K; exit */
	BPF_FUSE_ARRAY_LOOKUP,	/* r1 = ARRAY map; call bpf_map_lookup_elem */
	BPF_FUSE_PERCPU_ARRAY_LOOKUP,
	BPF_FUSE_MOV_AND_JEQ,	/* d = s; then BPF_FUSE_AND_JEQ */
	BPF_FUSE_MOV_AND_JNE,
	BPF_FUSE_FP_ARRAY_LOOKUP, /* r2 = r10; r2 += K; then BPF_FUSE_*ARRAY_LOOKUP */
	BPF_FUSE_FP_PERCPU_ARRAY_LOOKUP,
	BPF_FUSE_LDX2_DW,	/* two u64 loads (data_end, data from ctx) */
	__BPF_FUSE_MAX
};

static const void *const *bpf_interp_jumptable;
static const void *const (*bpf_interp_cond_copies)[256];
static const void *const *bpf_interp_fused;
/* the same without the budget: programs whose vi->needs_budget is false */
static const void *const (*bpf_interp_nb_jumps)[256];
static const void *const *bpf_interp_fused_nb;
/* [0]: every slot of a program with coverage on (bpf_prog_coverage_set()) */
static const void *const *bpf_interp_cover;

struct bpf_call_frame {
	const struct bpf_dinsn *ret;
	const struct bpf_prog *prog;
	u64 callee_saved[4];		/* R6..R9 */
	u64 fp;
};

struct bpf_interp {
	const struct bpf_prog *prog;	/* the program now running (tail calls) */
	const struct xdp_buff *xdp;	/* XDP context, or NULL */
	u8 *mem;			/* raw test program memory */
	u64 mem_len;
	u8 *stack_lo;
	u8 *stack_hi;
	u32 tail_call_cnt;
	u32 depth;
	u64 may_goto_cnt;
	enum bpf_abort_reason reason;
	const struct bpf_dinsn *cov_prev;	/* coverage: the slot run before */
	struct bpf_call_frame frames[MAX_CALL_FRAMES];
};

static __always_inline bool bpf_range_ok(const void *lo, const void *hi, u64 addr, u64 size)
{
	u64 span = (u64)((uintptr_t)hi - (uintptr_t)lo);
	u64 a = addr - (u64)(uintptr_t)lo;

	return hi >= lo && a < span && size <= span - a;
}

static __always_inline bool bpf_pkt_ok(const struct bpf_interp *st, u64 addr, u64 size)
{
	const struct xdp_buff *xdp = st->xdp;
	const void *lo;

	if (!xdp)
		return false;
	/* data_meta == data + 1 marks "no metadata support" */
	lo = xdp->data_meta < xdp->data ? xdp->data_meta : xdp->data;
	return bpf_range_ok(lo, xdp->data_end, addr, size);
}

static bool bpf_map_ok(const struct bpf_prog *prog, u32 idx, u64 addr, u64 size)
{
	const struct bpf_map *map;

	if (idx >= prog->aux->used_map_cnt)
		return false;
	map = prog->aux->used_maps[idx];
	return bpf_range_ok(map->arena_lo, map->arena_hi, addr, size);
}

/*
 * Is [addr, addr + size) inside the region @rgn? Returns the abort reason,
 * BPF_ABORT_NONE when the access is fine.
 */
static noinline enum bpf_abort_reason
bpf_region_check(const struct bpf_interp *st, u32 rgn, u64 addr, u64 size)
{
	const struct bpf_prog *prog = st->prog;
	u32 i;

	switch (BPF_RGN_KIND(rgn)) {
	case BPF_RGN_STACK:
		return bpf_range_ok(st->stack_lo, st->stack_hi, addr, size) ?
		       BPF_ABORT_NONE : BPF_ABORT_STACK_OOB;
	case BPF_RGN_PKT:
		return bpf_pkt_ok(st, addr, size) ? BPF_ABORT_NONE : BPF_ABORT_PKT_OOB;
	case BPF_RGN_MAP:
		return bpf_map_ok(prog, BPF_RGN_IDX(rgn), addr, size) ?
		       BPF_ABORT_NONE : BPF_ABORT_MAP_OOB;
	case BPF_RGN_MEM:
		return st->mem && bpf_range_ok(st->mem, st->mem + st->mem_len, addr, size) ?
		       BPF_ABORT_NONE : BPF_ABORT_MEM_OOB;
	case BPF_RGN_ANY:
		if (bpf_range_ok(st->stack_lo, st->stack_hi, addr, size) ||
		    bpf_pkt_ok(st, addr, size) ||
		    bpf_xdp_frags_contain(st->xdp, addr, size) ||
		    (st->mem && bpf_range_ok(st->mem, st->mem + st->mem_len, addr, size)))
			return BPF_ABORT_NONE;
		for (i = 0; i < prog->aux->used_map_cnt; i++)
			if (bpf_map_ok(prog, i, addr, size))
				return BPF_ABORT_NONE;
		return BPF_ABORT_MEM_OOB;
	default:
		return BPF_ABORT_MEM_OOB;
	}
}

static enum bpf_abort_reason bpf_call_check(const struct bpf_interp *st,
					    const struct bpf_call_desc *d, const u64 *regs)
{
	u32 i;

	for (i = 0; i < d->nr_checks; i++) {
		const struct bpf_mem_check *c = &d->checks[i];
		u64 size = c->size_reg ? regs[c->size_reg] : c->size;
		u64 ptr = regs[c->ptr_reg];

		if (c->or_null && !ptr)
			continue;
		if (!size)
			continue;
		if (bpf_region_check(st, c->region, ptr, size) != BPF_ABORT_NONE)
			return BPF_ABORT_HELPER_ARG_OOB;
	}
	return BPF_ABORT_NONE;
}

static u32 bpf_ctx_field(const struct bpf_interp *st, s32 field)
{
	const struct xdp_buff *xdp = st->xdp;

	if (!xdp)
		return 0;
	switch (field) {
	case BPF_CTX_INGRESS_IFINDEX:
		return xdp->rxq && xdp->rxq->dev ? (u32)xdp->rxq->dev->ifindex : 0;
	case BPF_CTX_RX_QUEUE_INDEX:
		return xdp->rxq ? xdp->rxq->queue_index : 0;
	case BPF_CTX_EGRESS_IFINDEX:
		return xdp->txq && xdp->txq->dev ? (u32)xdp->txq->dev->ifindex : 0;
	}
	return 0;
}

/* Unaligned host-endian accesses: packet data is rarely aligned. */
#define LOAD(type, addr)	({ type __v; memcpy(&__v, (const void *)(uintptr_t)(addr), sizeof(__v)); __v; })
#define STORE(type, addr, val)	({ type __v = (type)(val); memcpy((void *)(uintptr_t)(addr), &__v, sizeof(__v)); })

static __always_inline u64 bpf_atomic64(u64 *p, s32 op, u64 src, u64 *r0)
{
	u64 old;

	switch (op) {
	case BPF_ADD:
	case BPF_ADD | BPF_FETCH:
		return __atomic_fetch_add(p, src, __ATOMIC_SEQ_CST);
	case BPF_AND:
	case BPF_AND | BPF_FETCH:
		return __atomic_fetch_and(p, src, __ATOMIC_SEQ_CST);
	case BPF_OR:
	case BPF_OR | BPF_FETCH:
		return __atomic_fetch_or(p, src, __ATOMIC_SEQ_CST);
	case BPF_XOR:
	case BPF_XOR | BPF_FETCH:
		return __atomic_fetch_xor(p, src, __ATOMIC_SEQ_CST);
	case BPF_XCHG:
		return __atomic_exchange_n(p, src, __ATOMIC_SEQ_CST);
	case BPF_CMPXCHG:
		old = *r0;
		__atomic_compare_exchange_n(p, &old, src, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		*r0 = old;
		return old;
	case BPF_LOAD_ACQ:
		return __atomic_load_n(p, __ATOMIC_ACQUIRE);
	case BPF_STORE_REL:
		__atomic_store_n(p, src, __ATOMIC_RELEASE);
		return 0;
	}
	return 0;
}

static __always_inline u32 bpf_atomic32(u32 *p, s32 op, u32 src, u64 *r0)
{
	u32 old;

	switch (op) {
	case BPF_ADD:
	case BPF_ADD | BPF_FETCH:
		return __atomic_fetch_add(p, src, __ATOMIC_SEQ_CST);
	case BPF_AND:
	case BPF_AND | BPF_FETCH:
		return __atomic_fetch_and(p, src, __ATOMIC_SEQ_CST);
	case BPF_OR:
	case BPF_OR | BPF_FETCH:
		return __atomic_fetch_or(p, src, __ATOMIC_SEQ_CST);
	case BPF_XOR:
	case BPF_XOR | BPF_FETCH:
		return __atomic_fetch_xor(p, src, __ATOMIC_SEQ_CST);
	case BPF_XCHG:
		return __atomic_exchange_n(p, src, __ATOMIC_SEQ_CST);
	case BPF_CMPXCHG:
		old = (u32)*r0;
		__atomic_compare_exchange_n(p, &old, src, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
		*r0 = old;
		return old;
	case BPF_LOAD_ACQ:
		return __atomic_load_n(p, __ATOMIC_ACQUIRE);
	case BPF_STORE_REL:
		__atomic_store_n(p, src, __ATOMIC_RELEASE);
		return 0;
	}
	return 0;
}

/*
 * Atomic read-modify-write at @addr. Which register receives what is the
 * ISA's: FETCH forms and XCHG write the old value to src, CMPXCHG to R0
 * (inside bpf_atomic*), loads-acquire (from src + off) to dst, zero-extended;
 * a store-release writes src to dst + off.
 */
static __always_inline void bpf_atomic(u64 *regs, const struct bpf_dinsn *insn, u64 addr,
				       bool dw)
{
	s32 op = insn->imm;
	u64 old;

	if (dw) {
		old = bpf_atomic64((u64 *)(uintptr_t)addr, op, regs[insn->src_reg], &regs[BPF_REG_0]);
	} else {
		old = bpf_atomic32((u32 *)(uintptr_t)addr, op, (u32)regs[insn->src_reg],
				   &regs[BPF_REG_0]);
	}
	if (op == BPF_LOAD_ACQ)
		regs[insn->dst_reg] = old;
	else if ((op & BPF_FETCH) && op != BPF_CMPXCHG)
		regs[insn->src_reg] = old;
}

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winitializer-overrides"
#else
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#endif

/*
 * The interpreter. Returns R0 of the program's final EXIT, or 0 with
 * st->reason set when the run was aborted.
 */
/*
 * GCC's global CSE merges the computed gotos into one dispatch jump, which
 * defeats threading (the kernel builds core.c with -fno-gcse too).
 */
#if defined(__clang__)
#define __no_fgcse
#else
#define __no_fgcse	__attribute__((optimize("-fno-gcse")))
#endif

static u64 bpf_interp_loop(struct bpf_interp *st, const u64 *regs, const struct bpf_dinsn *insn);

static __no_fgcse u64 ___bpf_prog_run(struct bpf_interp *st, u64 *regs,
				      const struct bpf_dinsn *insn)
{
#define OP_ALU(op)	[BPF_ALU64 | op | BPF_X] = &&ALU64_##op##_X, \
			[BPF_ALU64 | op | BPF_K] = &&ALU64_##op##_K, \
			[BPF_ALU | op | BPF_X] = &&ALU_##op##_X,     \
			[BPF_ALU | op | BPF_K] = &&ALU_##op##_K
#define OP_JMP(op)	[BPF_JMP | op | BPF_X] = &&JMP_##op##_X,     \
			[BPF_JMP | op | BPF_K] = &&JMP_##op##_K,     \
			[BPF_JMP32 | op | BPF_X] = &&JMP32_##op##_X, \
			[BPF_JMP32 | op | BPF_K] = &&JMP32_##op##_K
#define OP_MEM(sz)	[BPF_LDX | BPF_MEM | sz] = &&LDX_MEM_##sz,	     \
			[BPF_LDX | BPF_PROBE_MEM | sz] = &&LDX_PROBE_##sz,   \
			[BPF_ST | BPF_MEM | sz] = &&ST_MEM_##sz,	     \
			[BPF_ST | BPF_PROBE_MEM | sz] = &&ST_PROBE_##sz,     \
			[BPF_STX | BPF_MEM | sz] = &&STX_MEM_##sz,	     \
			[BPF_STX | BPF_PROBE_MEM | sz] = &&STX_PROBE_##sz
#define OP_MEMSX(sz)	[BPF_LDX | BPF_MEMSX | sz] = &&LDX_MEMSX_##sz,	     \
			[BPF_LDX | BPF_PROBE_MEMSX | sz] = &&LDX_PROBESX_##sz
	static const void *const jumptable[256] = {
		[0 ... 255] = &&default_label,
		OP_ALU(BPF_ADD), OP_ALU(BPF_SUB), OP_ALU(BPF_MUL), OP_ALU(BPF_DIV),
		OP_ALU(BPF_OR), OP_ALU(BPF_AND), OP_ALU(BPF_LSH), OP_ALU(BPF_RSH),
		OP_ALU(BPF_MOD), OP_ALU(BPF_XOR), OP_ALU(BPF_MOV), OP_ALU(BPF_ARSH),
		[BPF_ALU | BPF_NEG] = &&ALU_NEG,
		[BPF_ALU64 | BPF_NEG] = &&ALU64_NEG,
		[BPF_ALU | BPF_END | BPF_TO_LE] = &&ALU_END_TO_LE,
		[BPF_ALU | BPF_END | BPF_TO_BE] = &&ALU_END_TO_BE,
		[BPF_ALU64 | BPF_END | BPF_TO_LE] = &&ALU64_END_BSWAP,
		OP_JMP(BPF_JEQ), OP_JMP(BPF_JNE), OP_JMP(BPF_JGT), OP_JMP(BPF_JGE),
		OP_JMP(BPF_JLT), OP_JMP(BPF_JLE), OP_JMP(BPF_JSGT), OP_JMP(BPF_JSGE),
		OP_JMP(BPF_JSLT), OP_JMP(BPF_JSLE), OP_JMP(BPF_JSET),
		[BPF_JMP | BPF_JA] = &&JMP_JA,
		[BPF_JMP32 | BPF_JA] = &&JMP32_JA,
		[BPF_JMP | BPF_CALL] = &&JMP_CALL,
		[BPF_JMP32 | BPF_CALL] = &&JMP_CALL_SUB,
		[BPF_JMP | BPF_EXIT] = &&JMP_EXIT,
		[BPF_JMP | BPF_TAIL_CALL] = &&JMP_TAIL_CALL,
		[BPF_CALL_LOOP] = &&JMP_CALL_LOOP,
		[BPF_JMP | BPF_JCOND] = &&JMP_MAY_GOTO,
		[BPF_LD | BPF_IMM | BPF_DW] = &&LD_IMM_DW,
		OP_MEM(BPF_B), OP_MEM(BPF_H), OP_MEM(BPF_W), OP_MEM(BPF_DW),
		OP_MEMSX(BPF_B), OP_MEMSX(BPF_H), OP_MEMSX(BPF_W),
		[BPF_LDX | BPF_CTX_FIELD | BPF_W] = &&LDX_CTX_FIELD,
		[BPF_STX | BPF_ATOMIC | BPF_W] = &&STX_ATOMIC_W,
		[BPF_STX | BPF_ATOMIC | BPF_DW] = &&STX_ATOMIC_DW,
		[BPF_STX | BPF_PROBE_ATOMIC | BPF_W] = &&STX_PROBE_ATOMIC_W,
		[BPF_STX | BPF_PROBE_ATOMIC | BPF_DW] = &&STX_PROBE_ATOMIC_DW,
		/* 8 and 16 bits: only load-acquire and store-release */
		[BPF_STX | BPF_ATOMIC | BPF_B] = &&STX_ATOMIC_B,
		[BPF_STX | BPF_ATOMIC | BPF_H] = &&STX_ATOMIC_H,
		[BPF_STX | BPF_PROBE_ATOMIC | BPF_B] = &&STX_PROBE_ATOMIC_B,
		[BPF_STX | BPF_PROBE_ATOMIC | BPF_H] = &&STX_PROBE_ATOMIC_H,
	};
#undef OP_ALU
#define OP_JMPC(op, C)	[BPF_JMP | op | BPF_X] = &&JMP_##op##_X##C,	\
			[BPF_JMP | op | BPF_K] = &&JMP_##op##_K##C,	\
			[BPF_JMP32 | op | BPF_X] = &&JMP32_##op##_X##C,	\
			[BPF_JMP32 | op | BPF_K] = &&JMP32_##op##_K##C
#define OP_JMPS(C)	{ OP_JMPC(BPF_JEQ, C), OP_JMPC(BPF_JNE, C), OP_JMPC(BPF_JGT, C), \
			  OP_JMPC(BPF_JGE, C), OP_JMPC(BPF_JLT, C), OP_JMPC(BPF_JLE, C), \
			  OP_JMPC(BPF_JSGT, C), OP_JMPC(BPF_JSGE, C), OP_JMPC(BPF_JSLT, C), \
			  OP_JMPC(BPF_JSLE, C), OP_JMPC(BPF_JSET, C) }
	static const void *const cond_copies[BPF_COND_COPIES - 1][256] = {
		OP_JMPS(_1), OP_JMPS(_2), OP_JMPS(_3),
	};
	/* every jump of a program without budget: nothing charged */
#define OP_JMPS_NB(C)	{ OP_JMPC(BPF_JEQ, C), OP_JMPC(BPF_JNE, C), OP_JMPC(BPF_JGT, C), \
			  OP_JMPC(BPF_JGE, C), OP_JMPC(BPF_JLT, C), OP_JMPC(BPF_JLE, C), \
			  OP_JMPC(BPF_JSGT, C), OP_JMPC(BPF_JSGE, C), OP_JMPC(BPF_JSLT, C), \
			  OP_JMPC(BPF_JSLE, C), OP_JMPC(BPF_JSET, C),			\
			  [BPF_JMP | BPF_JA] = &&JMP_JA_nb,				\
			  [BPF_JMP32 | BPF_JA] = &&JMP32_JA_nb,			\
			  [BPF_JMP | BPF_JCOND] = &&JMP_MAY_GOTO_nb }
	static const void *const nb_jumps[BPF_COND_COPIES][256] = {
		OP_JMPS_NB(_nb0), OP_JMPS_NB(_nb1), OP_JMPS_NB(_nb2), OP_JMPS_NB(_nb3),
	};
#undef OP_JMPS_NB
#undef OP_JMPS
#undef OP_JMPC
#undef OP_JMP
#undef OP_MEM
#undef OP_MEMSX
	/* @S: the suffix of the jumping ones ("" charges the budget, _nb not) */
#define FUSED_TABLE(S)	{							\
		[BPF_FUSE_MOV_ADD] = &&FUSE_MOV_ADD,				\
		[BPF_FUSE_PKT_CHECK] = &&FUSE_PKT_CHECK##S,			\
		[BPF_FUSE_AND_JEQ] = &&FUSE_AND_JEQ##S,				\
		[BPF_FUSE_AND_JNE] = &&FUSE_AND_JNE##S,				\
		[BPF_FUSE_ADD_JNE] = &&FUSE_ADD_JNE##S,				\
		[BPF_FUSE_LD_BE16] = &&FUSE_LD_BE16,				\
		[BPF_FUSE_INC_DW] = &&FUSE_INC_DW,				\
		[BPF_FUSE_INC_W] = &&FUSE_INC_W,				\
		[BPF_FUSE_RET_K] = &&FUSE_RET_K,				\
		[BPF_FUSE_ARRAY_LOOKUP] = &&FUSE_ARRAY_LOOKUP,			\
		[BPF_FUSE_PERCPU_ARRAY_LOOKUP] = &&FUSE_PERCPU_ARRAY_LOOKUP,	\
		[BPF_FUSE_MOV_AND_JEQ] = &&FUSE_MOV_AND_JEQ##S,			\
		[BPF_FUSE_MOV_AND_JNE] = &&FUSE_MOV_AND_JNE##S,			\
		[BPF_FUSE_FP_ARRAY_LOOKUP] = &&FUSE_FP_ARRAY_LOOKUP,		\
		[BPF_FUSE_FP_PERCPU_ARRAY_LOOKUP] = &&FUSE_FP_PERCPU_ARRAY_LOOKUP, \
		[BPF_FUSE_LDX2_DW] = &&FUSE_LDX2_DW,				\
	}
	static const void *const fused[__BPF_FUSE_MAX] = FUSED_TABLE();
	static const void *const fused_nb[__BPF_FUSE_MAX] = FUSED_TABLE(_nb);
#undef FUSED_TABLE
	static const void *const cover[1] = { &&COVER };
	const struct bpf_verifier_info *vi;
	const struct bpf_call_desc *d;
	const struct bpf_prog *tgt;
	struct bpf_call_frame *f;
	u64 addr, tmp;
	s64 budget;
	u32 rgn;

	if (unlikely(!st)) {
		/* bpf_prog_select_runtime() asks for the handler addresses */
		bpf_interp_cond_copies = cond_copies;
		bpf_interp_fused = fused;
		bpf_interp_nb_jumps = nb_jumps;
		bpf_interp_fused_nb = fused_nb;
		bpf_interp_jumptable = jumptable;
		bpf_interp_cover = cover;
		return 0;
	}
	vi = st->prog->aux->verifier_info;
	budget = BPF_INSN_BUDGET - (s64)st->prog->len;

#define DST	regs[insn->dst_reg]
#define SRC	regs[insn->src_reg]
#define IMM	insn->imm
#define CONT	({ insn++; goto select_insn; })
/*
 * Taken jump by @o slots; backward ones are charged to the budget. JUMP_NB
 * is the jump of programs without a budget (vi->needs_budget false).
 */
#define JUMP(o)	({								\
		s32 __o = (o);							\
		if (unlikely(__o < 0) && unlikely((budget += __o) < 0))	\
			goto budget_exceeded;					\
		insn += __o + 1;						\
		goto select_insn;						\
	})
#define JUMP_NB(o)	({ insn += (s32)(o) + 1; goto select_insn; })
#define PC	((u32)(insn - vi->image))
/* Region check of a checked access; aborts the run on a violation. */
#define PROBE(a, sz)	({							\
		rgn = vi->insn_aux[PC];						\
		if (likely(BPF_RGN_KIND(rgn) == BPF_RGN_PKT && bpf_pkt_ok(st, (a), (sz)))) \
			;	/* the common case, inline */			\
		else {								\
			enum bpf_abort_reason __r = bpf_region_check(st, rgn, (a), (sz)); \
			if (unlikely(__r != BPF_ABORT_NONE)) {			\
				st->reason = __r;				\
				return 0;					\
			}							\
		}								\
	})

select_insn:
	goto *insn->op;

	/* ALU: 32-bit results are zero-extended; K is sign-extended for ALU64 */
#define ALU(OPCODE, OP)							\
	ALU64_##OPCODE##_X: DST = DST OP SRC; CONT;			\
	ALU_##OPCODE##_X: DST = (u32)DST OP (u32)SRC; CONT;		\
	ALU64_##OPCODE##_K: DST = DST OP (u64)(s64)IMM; CONT;		\
	ALU_##OPCODE##_K: DST = (u32)DST OP (u32)IMM; CONT;
	ALU(BPF_ADD, +)
	ALU(BPF_SUB, -)
	ALU(BPF_AND, &)
	ALU(BPF_OR, |)
	ALU(BPF_XOR, ^)
	ALU(BPF_MUL, *)
#undef ALU
	/* register shift amounts are masked; constant ones were checked */
ALU64_BPF_LSH_X: DST = DST << (SRC & 63); CONT;
ALU_BPF_LSH_X: DST = (u32)DST << (SRC & 31); CONT;
ALU64_BPF_LSH_K: DST = DST << (IMM & 63); CONT;
ALU_BPF_LSH_K: DST = (u32)DST << (IMM & 31); CONT;
ALU64_BPF_RSH_X: DST = DST >> (SRC & 63); CONT;
ALU_BPF_RSH_X: DST = (u32)DST >> (SRC & 31); CONT;
ALU64_BPF_RSH_K: DST = DST >> (IMM & 63); CONT;
ALU_BPF_RSH_K: DST = (u32)DST >> (IMM & 31); CONT;
ALU64_BPF_ARSH_X: DST = (u64)((s64)DST >> (SRC & 63)); CONT;
ALU_BPF_ARSH_X: DST = (u32)((s32)DST >> (SRC & 31)); CONT;
ALU64_BPF_ARSH_K: DST = (u64)((s64)DST >> (IMM & 63)); CONT;
ALU_BPF_ARSH_K: DST = (u32)((s32)DST >> (IMM & 31)); CONT;
ALU_NEG: DST = (u32)-DST; CONT;
ALU64_NEG: DST = -DST; CONT;
ALU64_BPF_MOV_X:
	switch (insn->off) {
	case 0: DST = SRC; break;
	case 8: DST = (u64)(s8)SRC; break;
	case 16: DST = (u64)(s16)SRC; break;
	default: DST = (u64)(s32)SRC; break;
	}
	CONT;
ALU_BPF_MOV_X:
	switch (insn->off) {
	case 0: DST = (u32)SRC; break;
	case 8: DST = (u32)(s32)(s8)SRC; break;
	default: DST = (u32)(s32)(s16)SRC; break;
	}
	CONT;
ALU64_BPF_MOV_K: DST = (u64)(s64)IMM; CONT;
ALU_BPF_MOV_K: DST = (u32)IMM; CONT;

	/*
	 * Division: the kernel's verifier guards every register divisor; what
	 * a program observes is x / 0 = 0, x % 0 = x, sdiv by -1 = -x,
	 * smod by -1 = 0 (all zero-extended for ALU32).
	 */
#define DIVMOD64(div_src)							\
	tmp = (div_src);							\
	if (insn->off == 0) {							\
		if (code_is_div)						\
			DST = tmp ? DST / tmp : 0;				\
		else								\
			DST = tmp ? DST % tmp : DST;				\
	} else {								\
		if (code_is_div)						\
			DST = !tmp ? 0 : (s64)tmp == -1 ? -DST :		\
			      (u64)((s64)DST / (s64)tmp);			\
		else								\
			DST = !tmp ? DST : (s64)tmp == -1 ? 0 :			\
			      (u64)((s64)DST % (s64)tmp);			\
	}
#define DIVMOD32(div_src)							\
	{									\
		u32 __d = (u32)DST, __s = (u32)(div_src);			\
		if (insn->off == 0) {						\
			if (code_is_div)					\
				DST = __s ? __d / __s : 0;			\
			else							\
				DST = __s ? __d % __s : __d;			\
		} else {							\
			if (code_is_div)					\
				DST = !__s ? 0 : (s32)__s == -1 ? (u32)-__d :	\
				      (u32)((s32)__d / (s32)__s);		\
			else							\
				DST = !__s ? __d : (s32)__s == -1 ? 0 :		\
				      (u32)((s32)__d % (s32)__s);		\
		}								\
	}
#define code_is_div	1
ALU64_BPF_DIV_X: DIVMOD64(SRC) CONT;
ALU64_BPF_DIV_K: DIVMOD64((u64)(s64)IMM) CONT;
ALU_BPF_DIV_X: DIVMOD32(SRC) CONT;
ALU_BPF_DIV_K: DIVMOD32(IMM) CONT;
#undef code_is_div
#define code_is_div	0
ALU64_BPF_MOD_X: DIVMOD64(SRC) CONT;
ALU64_BPF_MOD_K: DIVMOD64((u64)(s64)IMM) CONT;
ALU_BPF_MOD_X: DIVMOD32(SRC) CONT;
ALU_BPF_MOD_K: DIVMOD32(IMM) CONT;
#undef code_is_div
#undef DIVMOD64
#undef DIVMOD32

	/* host is little-endian: to-LE truncates, to-BE swaps and truncates */
ALU_END_TO_LE:
	switch (IMM) {
	case 16: DST = (u16)DST; break;
	case 32: DST = (u32)DST; break;
	}
	CONT;
ALU_END_TO_BE:
ALU64_END_BSWAP:
	switch (IMM) {
	case 16: DST = __builtin_bswap16((u16)DST); break;
	case 32: DST = __builtin_bswap32((u32)DST); break;
	default: DST = __builtin_bswap64(DST); break;
	}
	CONT;

LD_IMM_DW:
	DST = (u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm) << 32;
	insn++;
	CONT;

	/* jumps */
JMP_JA: JUMP(insn->off);
JMP32_JA: JUMP(IMM);
JMP_JA_nb: JUMP_NB(insn->off);
JMP32_JA_nb: JUMP_NB(IMM);
	/*
	 * Conditional jumps exist in BPF_COND_COPIES copies, handed out by
	 * instruction index at decode time: each copy is a separate host
	 * branch, so the predictor can tell more program sites apart.
	 */
#define COND(OPCODE, CMP, T, T32, C, J)					\
	JMP_##OPCODE##_X##C: if ((T)DST CMP (T)SRC) J(insn->off); CONT;	\
	JMP_##OPCODE##_K##C: if ((T)DST CMP (T)(s64)IMM) J(insn->off); CONT;	\
	JMP32_##OPCODE##_X##C: if ((T32)DST CMP (T32)SRC) J(insn->off); CONT;	\
	JMP32_##OPCODE##_K##C: if ((T32)DST CMP (T32)IMM) J(insn->off); CONT;
#define CONDS(C, J)								\
	COND(BPF_JEQ, ==, u64, u32, C, J)					\
	COND(BPF_JNE, !=, u64, u32, C, J)					\
	COND(BPF_JGT, >, u64, u32, C, J)					\
	COND(BPF_JGE, >=, u64, u32, C, J)					\
	COND(BPF_JLT, <, u64, u32, C, J)					\
	COND(BPF_JLE, <=, u64, u32, C, J)					\
	COND(BPF_JSGT, >, s64, s32, C, J)					\
	COND(BPF_JSGE, >=, s64, s32, C, J)					\
	COND(BPF_JSLT, <, s64, s32, C, J)					\
	COND(BPF_JSLE, <=, s64, s32, C, J)					\
	JMP_BPF_JSET_X##C: if (DST & SRC) J(insn->off); CONT;			\
	JMP_BPF_JSET_K##C: if (DST & (u64)(s64)IMM) J(insn->off); CONT;	\
	JMP32_BPF_JSET_X##C: if ((u32)DST & (u32)SRC) J(insn->off); CONT;	\
	JMP32_BPF_JSET_K##C: if ((u32)DST & (u32)IMM) J(insn->off); CONT;
	CONDS(, JUMP)
	CONDS(_1, JUMP)
	CONDS(_2, JUMP)
	CONDS(_3, JUMP)
	CONDS(_nb0, JUMP_NB)
	CONDS(_nb1, JUMP_NB)
	CONDS(_nb2, JUMP_NB)
	CONDS(_nb3, JUMP_NB)
#undef CONDS
#undef COND
JMP_MAY_GOTO:
	if (st->may_goto_cnt) {
		st->may_goto_cnt--;
		CONT;
	}
	JUMP(insn->off);
JMP_MAY_GOTO_nb:
	if (st->may_goto_cnt) {
		st->may_goto_cnt--;
		CONT;
	}
	JUMP_NB(insn->off);

JMP_CALL:
	d = &vi->calls[IMM];
	if (unlikely(d->nr_checks)) {
		enum bpf_abort_reason r = bpf_call_check(st, d, regs);

		if (unlikely(r != BPF_ABORT_NONE)) {
			st->reason = r;
			return 0;
		}
	}
	regs[BPF_REG_0] = d->func(regs[BPF_REG_1], regs[BPF_REG_2], regs[BPF_REG_3],
				  regs[BPF_REG_4], regs[BPF_REG_5]);
	CONT;

JMP_CALL_LOOP:
	regs[BPF_REG_0] = bpf_interp_loop(st, regs, insn);
	if (unlikely(st->reason != BPF_ABORT_NONE))
		return 0;
	CONT;

JMP_CALL_SUB:
	if (unlikely(st->depth >= MAX_CALL_FRAMES - 1)) {
		st->reason = BPF_ABORT_CALL_DEPTH;
		return 0;
	}
	if (vi->needs_budget) {
		budget -= vi->insn_aux[PC];
		if (unlikely(budget < 0))
			goto budget_exceeded;
	}
	f = &st->frames[st->depth++];
	f->ret = insn + 1;
	f->prog = st->prog;
	memcpy(f->callee_saved, &regs[BPF_REG_6], sizeof(f->callee_saved));
	f->fp = regs[BPF_REG_10];
	regs[BPF_REG_10] -= (u16)insn->off;
	insn += IMM + 1;
	goto select_insn;

JMP_EXIT:
	if (!st->depth)
		return regs[BPF_REG_0];
	f = &st->frames[--st->depth];
	memcpy(&regs[BPF_REG_6], f->callee_saved, sizeof(f->callee_saved));
	regs[BPF_REG_10] = f->fp;
	if (f->prog != st->prog) {
		st->prog = f->prog;
		vi = st->prog->aux->verifier_info;
	}
	insn = f->ret;
	goto select_insn;

JMP_TAIL_CALL: {
		const struct bpf_array *array = (const void *)(uintptr_t)regs[BPF_REG_2];
		u32 index = (u32)regs[BPF_REG_3];

		/* misses fall through, as in the kernel */
		if (unlikely(index >= array->map.max_entries))
			CONT;
		if (unlikely(st->tail_call_cnt >= MAX_TAIL_CALL_CNT))
			CONT;
		/* the kernel counts an empty slot as a tail call too */
		st->tail_call_cnt++;
		tgt = READ_ONCE(array->ptrs[index]);
		if (!tgt || unlikely(!tgt->aux->verifier_info))	/* never checked: a miss */
			CONT;
		if (unlikely((u64)(regs[BPF_REG_10] - (uintptr_t)st->stack_lo) <
			     tgt->aux->max_stack_depth)) {
			st->reason = BPF_ABORT_TAIL_CALL_STACK;
			return 0;
		}
		if (vi->needs_budget) {
			budget -= tgt->len;
			if (unlikely(budget < 0))
				goto budget_exceeded;
		}
		st->prog = tgt;
		vi = tgt->aux->verifier_info;
		insn = vi->image;
		goto select_insn;
	}

	/* loads and stores the checker proved */
#define MEM(SIZEOP, T)								\
	LDX_MEM_##SIZEOP: DST = LOAD(T, SRC + insn->off); CONT;		\
	ST_MEM_##SIZEOP: STORE(T, DST + insn->off, IMM); CONT;		\
	STX_MEM_##SIZEOP: STORE(T, DST + insn->off, SRC); CONT;		\
	LDX_PROBE_##SIZEOP:							\
		addr = SRC + insn->off;						\
		PROBE(addr, sizeof(T));						\
		DST = LOAD(T, addr);						\
		CONT;								\
	ST_PROBE_##SIZEOP:							\
		addr = DST + insn->off;						\
		PROBE(addr, sizeof(T));						\
		STORE(T, addr, IMM);						\
		CONT;								\
	STX_PROBE_##SIZEOP:							\
		addr = DST + insn->off;						\
		PROBE(addr, sizeof(T));						\
		STORE(T, addr, SRC);						\
		CONT;
	MEM(BPF_B, u8)
	MEM(BPF_H, u16)
	MEM(BPF_W, u32)
	MEM(BPF_DW, u64)
#undef MEM
#define MEMSX(SIZEOP, T)							\
	LDX_MEMSX_##SIZEOP: DST = (u64)(s64)LOAD(T, SRC + insn->off); CONT; \
	LDX_PROBESX_##SIZEOP:							\
		addr = SRC + insn->off;						\
		PROBE(addr, sizeof(T));						\
		DST = (u64)(s64)LOAD(T, addr);					\
		CONT;
	MEMSX(BPF_B, s8)
	MEMSX(BPF_H, s16)
	MEMSX(BPF_W, s32)
#undef MEMSX
LDX_CTX_FIELD:
	DST = bpf_ctx_field(st, IMM);
	CONT;

	/*
	 * The address is dst + off, but src + off for a load-acquire (into
	 * dst); the checked forms also abort when it is misaligned.
	 */
#define ATOMIC_ADDR	((IMM == BPF_LOAD_ACQ ? SRC : DST) + insn->off)
#define PROBE_ATOMIC(sz)	({						\
		addr = ATOMIC_ADDR;						\
		PROBE(addr, sz);						\
		if (unlikely(addr & ((sz) - 1)))				\
			goto misaligned;					\
	})
/* 8 and 16 bits: only load-acquire and store-release */
#define ACQ_REL(T, a)	({							\
		if (IMM == BPF_LOAD_ACQ)					\
			DST = __atomic_load_n((T *)(uintptr_t)(a), __ATOMIC_ACQUIRE); \
		else								\
			__atomic_store_n((T *)(uintptr_t)(a), (T)SRC, __ATOMIC_RELEASE); \
	})
STX_ATOMIC_W: bpf_atomic(regs, insn, ATOMIC_ADDR, false); CONT;
STX_ATOMIC_DW: bpf_atomic(regs, insn, ATOMIC_ADDR, true); CONT;
STX_ATOMIC_B: ACQ_REL(u8, ATOMIC_ADDR); CONT;
STX_ATOMIC_H: ACQ_REL(u16, ATOMIC_ADDR); CONT;
STX_PROBE_ATOMIC_W: PROBE_ATOMIC(4); bpf_atomic(regs, insn, addr, false); CONT;
STX_PROBE_ATOMIC_DW: PROBE_ATOMIC(8); bpf_atomic(regs, insn, addr, true); CONT;
STX_PROBE_ATOMIC_B: PROBE_ATOMIC(1); ACQ_REL(u8, addr); CONT;
STX_PROBE_ATOMIC_H: PROBE_ATOMIC(2); ACQ_REL(u16, addr); CONT;
#undef ACQ_REL
#undef PROBE_ATOMIC

	/* superinstructions (bpf_fuse_at()): each is its slots in order */
FUSE_MOV_ADD:
	DST = SRC + (u64)(s64)insn[1].imm;
	insn += 2;
	goto select_insn;
	/*
	 * Locals first: a store to regs[] may alias the u8 fields of insn, so
	 * the compiler would reload them after every register write.
	 */
	/* the ones that jump, in both kinds: @S "" charges the budget, _nb not */
#define FUSED_JUMPS(S, J)							\
FUSE_PKT_CHECK##S:								\
	tmp = SRC + (u64)(s64)insn[1].imm;					\
	addr = regs[insn[2].src_reg];						\
	DST = tmp;								\
	insn += 2;								\
	if (tmp > addr)								\
		J(insn->off);							\
	CONT;									\
	/* a move in front of another superinstruction: a direct jump to it */	\
FUSE_MOV_AND_JEQ##S:								\
	DST = SRC;								\
	insn++;									\
	goto FUSE_AND_JEQ##S;							\
FUSE_MOV_AND_JNE##S:								\
	DST = SRC;								\
	insn++;									\
	goto FUSE_AND_JNE##S;							\
FUSE_AND_JEQ##S:								\
	tmp = DST & (u64)(s64)IMM;						\
	DST = tmp;								\
	insn++;									\
	if (tmp == (u64)(s64)IMM)						\
		J(insn->off);							\
	CONT;									\
FUSE_AND_JNE##S:								\
	tmp = DST & (u64)(s64)IMM;						\
	DST = tmp;								\
	insn++;									\
	if (tmp != (u64)(s64)IMM)						\
		J(insn->off);							\
	CONT;									\
FUSE_ADD_JNE##S:								\
	tmp = DST + (u64)(s64)IMM;						\
	DST = tmp;								\
	insn++;									\
	if (tmp != (u64)(s64)IMM)						\
		J(insn->off);							\
	CONT;
	FUSED_JUMPS(, JUMP)
	FUSED_JUMPS(_nb, JUMP_NB)
#undef FUSED_JUMPS
FUSE_FP_ARRAY_LOOKUP:
	DST = SRC + (u64)(s64)insn[1].imm;
	insn += 2;
	goto FUSE_ARRAY_LOOKUP;
FUSE_FP_PERCPU_ARRAY_LOOKUP:
	DST = SRC + (u64)(s64)insn[1].imm;
	insn += 2;
	goto FUSE_PERCPU_ARRAY_LOOKUP;
FUSE_LD_BE16: {
		u8 d1 = insn[0].dst_reg, d2 = insn[1].dst_reg;
		s16 o1 = insn[0].off, o2 = insn[1].off;

		addr = SRC;
		tmp = LOAD(u8, addr + o1);
		regs[d2] = (u64)LOAD(u8, addr + o2) << 8 | tmp;
		regs[d1] = tmp;
		insn += 4;
		goto select_insn;
	}
FUSE_LDX2_DW:
	addr = regs[insn[1].src_reg] + insn[1].off;
	DST = LOAD(u64, SRC + insn->off);
	regs[insn[1].dst_reg] = LOAD(u64, addr);
	insn += 2;
	goto select_insn;
FUSE_INC_DW:
	addr = SRC + insn->off;
	tmp = LOAD(u64, addr) + (u64)(s64)insn[1].imm;
	DST = tmp;
	STORE(u64, addr, tmp);
	insn += 3;
	goto select_insn;
FUSE_INC_W:
	addr = SRC + insn->off;
	tmp = (u64)LOAD(u32, addr) + (u64)(s64)insn[1].imm;
	DST = tmp;
	STORE(u32, addr, tmp);
	insn += 3;
	goto select_insn;
FUSE_RET_K:
	regs[BPF_REG_0] = (u64)(s64)IMM;
	insn++;
	goto JMP_EXIT;
	/*
	 * Inlined lookups (the kernel's map_gen_lookup): the map pointer is
	 * the ld_imm64's value; the checker proved the key readable and the
	 * helper call leaves R1..R5 unreadable, so only R0 and R1 are set.
	 * Layouts: kernel/bpf/arraymap.c (percpu_array_ptr()).
	 */
FUSE_ARRAY_LOOKUP: {
		const struct bpf_array *array = (const void *)(uintptr_t)
			((u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm) << 32);
		u32 index = bpf_get_u32((const void *)(uintptr_t)regs[BPF_REG_2]);

		regs[BPF_REG_1] = (u64)(uintptr_t)array;
		regs[BPF_REG_0] = likely(index < array->map.max_entries) ?
			(u64)(uintptr_t)(array->value +
					 (size_t)array->elem_size * (index & array->index_mask)) : 0;
		insn += 3;
		goto select_insn;
	}
FUSE_PERCPU_ARRAY_LOOKUP: {
		const struct bpf_array *array = (const void *)(uintptr_t)
			((u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm) << 32);
		u32 index = bpf_get_u32((const void *)(uintptr_t)regs[BPF_REG_2]);

		regs[BPF_REG_1] = (u64)(uintptr_t)array;
		regs[BPF_REG_0] = likely(index < array->map.max_entries) ?
			(u64)(uintptr_t)((char *)array->pptrs[index] +
					 (size_t)smp_processor_id() * array->map.max_entries *
					 array->elem_size) : 0;
		insn += 3;
		goto select_insn;
	}

	/*
	 * Coverage (kernel/bpf/coverage.c): every slot of the image points
	 * here; count the slot, and the way the conditional jump run just
	 * before went (fall-through to the next slot or taken), then run the
	 * slot's own unfused handler from cov->ops. Programs without coverage
	 * never come here.
	 */
COVER: {
		struct bpf_prog_cov *cov = vi->cov;
		u32 pc = PC;
		u32 prev = (u32)(((uintptr_t)st->cov_prev - (uintptr_t)vi->image) /
				 sizeof(*insn));

		if (prev < st->prog->len && cov->cond[prev])
			__atomic_fetch_add(&cov->branch[2 * prev + (pc != prev + 1)], 1,
					   __ATOMIC_RELAXED);
		__atomic_fetch_add(&cov->cnt[pc], 1, __ATOMIC_RELAXED);
		st->cov_prev = insn;
		goto *cov->ops[pc];
	}

misaligned:
	st->reason = BPF_ABORT_MISALIGNED_ATOMIC;
	return 0;
budget_exceeded:
	st->reason = BPF_ABORT_INSN_BUDGET;
	return 0;
default_label:
	/* bpf_check() only lets known opcodes through */
	BUG_ON_MSG(1, "unknown eBPF opcode");
	st->reason = BPF_ABORT_MEM_OOB;
	return 0;
#undef DST
#undef SRC
#undef IMM
#undef CONT
#undef JUMP
#undef JUMP_NB
#undef ATOMIC_ADDR
#undef PC
#undef PROBE
}

#if defined(__clang__)
#pragma clang diagnostic pop
#else
#pragma GCC diagnostic pop
#endif

/*
 * A bpf_loop call the verifier could not inline (BPF_CALL_LOOP): the helper's
 * checks, then the callback run nr_loops times as a nested interpreter run
 * on a frame below the caller's, until it returns non-zero. The callback's
 * address (R2) is that of its first instruction in prog->insnsi.
 * Kernel: kernel/bpf/bpf_iter.c bpf_loop()
 */
static noinline u64 bpf_interp_loop(struct bpf_interp *st, const u64 *regs,
				    const struct bpf_dinsn *insn)
{
	const struct bpf_prog *prog = st->prog;
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	const struct bpf_insn *fn = (const void *)(uintptr_t)regs[BPF_REG_2];
	u32 nr_loops = (u32)regs[BPF_REG_1], i;
	u64 cb_regs[MAX_BPF_EXT_REG] = { 0 };
	struct bpf_interp sub;
	u64 ret;

	if (regs[BPF_REG_4])
		return (u64)-EINVAL;
	if (nr_loops > BPF_MAX_LOOPS)
		return (u64)-E2BIG;
	sub = *st;
	for (i = 0; i < nr_loops; i++) {
		sub.prog = prog;
		sub.depth = 0;
		cb_regs[BPF_REG_1] = i;
		cb_regs[BPF_REG_2] = regs[BPF_REG_3];
		cb_regs[BPF_REG_10] = regs[BPF_REG_10] - (u16)insn->off;
		ret = ___bpf_prog_run(&sub, cb_regs, vi->image + (fn - prog->insnsi));
		st->tail_call_cnt = sub.tail_call_cnt;
		st->may_goto_cnt = sub.may_goto_cnt;
		if (unlikely(sub.reason != BPF_ABORT_NONE)) {
			st->reason = sub.reason;
			return 0;
		}
		if (ret)
			return (u64)i + 1;
	}
	return i;
}

static __always_inline u64 __bpf_prog_run(const struct bpf_prog *prog, const struct xdp_buff *xdp,
					  void *mem, u64 mem_len, enum bpf_abort_reason *reason)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u64 stack[BPF_INTERP_STACK / sizeof(u64)];
	u64 regs[MAX_BPF_EXT_REG];
	struct bpf_interp st;
	u64 ret;

	st.prog = prog;
	st.xdp = xdp;
	st.mem = mem;
	st.mem_len = mem_len;
	st.stack_lo = (u8 *)stack;
	st.stack_hi = (u8 *)stack + sizeof(stack);
	st.tail_call_cnt = 0;
	st.depth = 0;
	st.may_goto_cnt = BPF_MAX_LOOPS;
	st.reason = BPF_ABORT_NONE;
	st.cov_prev = NULL;
	if (vi->zero_stack)
		memset(stack, 0, sizeof(stack));
	regs[BPF_REG_10] = (u64)(uintptr_t)st.stack_hi;
	if (xdp) {
		regs[BPF_REG_1] = (u64)(uintptr_t)xdp;
	} else {
		regs[BPF_REG_1] = (u64)(uintptr_t)mem;
		regs[BPF_REG_2] = mem_len;
	}

	ret = ___bpf_prog_run(&st, regs, vi->image);
	if (unlikely(st.reason != BPF_ABORT_NONE)) {
		/* count against the program the run was started with */
		__atomic_fetch_add(&prog->aux->abort_cnt[st.reason], 1, __ATOMIC_RELAXED);
		ret = 0;
	}
	*reason = st.reason;
	return ret;
}

static unsigned int bpf_prog_run_xdp_interp(const void *ctx, const struct bpf_prog *prog)
{
	enum bpf_abort_reason reason;

	/* an abort returns 0, which is XDP_ABORTED */
	return (unsigned int)__bpf_prog_run(prog, ctx, NULL, 0, &reason);
}

/* A program that starts with "r0 = K; exit" (xdp_pass): nothing to run. */
static unsigned int bpf_prog_run_xdp_ret_k(const void *ctx, const struct bpf_prog *prog)
{
	return (unsigned int)prog->insnsi[0].imm;
}

static unsigned int bpf_prog_run_raw_interp(const void *ctx, const struct bpf_prog *prog)
{
	enum bpf_abort_reason reason;

	return (unsigned int)__bpf_prog_run(prog, NULL, (void *)ctx, 0, &reason);
}

u64 bpf_prog_run_raw(const struct bpf_prog *prog, void *mem, u64 len,
		     enum bpf_abort_reason *reason)
{
	enum bpf_abort_reason r;

#if defined(__x86_64__)
	if (prog->jited)
		return bpf_jit_prog_run(prog, NULL, mem, len, reason);
#endif
	return __bpf_prog_run(prog, NULL, mem, len, reason ?: &r);
}

u64 bpf_prog_run_interp(const struct bpf_prog *prog, const struct xdp_buff *xdp, void *mem,
			u64 mem_len, enum bpf_abort_reason *reason)
{
	enum bpf_abort_reason r;

	return __bpf_prog_run(prog, xdp, mem, mem_len, reason ?: &r);
}

/* ---- runtime selection: interpreter or JIT ------------------------------ */

/*
 * The kernel's net.core.bpf_jit_enable. -1: not read yet; the environment's
 * UXDP_BPF_JIT=0|1 decides on first use, else BPF_JIT_DEFAULT.
 */
#define BPF_JIT_DEFAULT	1
int bpf_jit_enable = -1;

/* A 0/1 knob: -1 until first read, then @env's 0 or 1, else @dflt. */
static bool bpf_knob_read(int *knob, const char *env, int dflt)
{
	int v = __atomic_load_n(knob, __ATOMIC_RELAXED);

	if (v < 0) {
		const char *e = getenv(env);

		v = e && (e[0] == '0' || e[0] == '1') && !e[1] ? e[0] - '0' : dflt;
		__atomic_store_n(knob, v, __ATOMIC_RELAXED);
	}
	return v > 0;
}

static int bpf_knob_set(int *knob, int on)
{
	if (on != 0 && on != 1)
		return -EINVAL;
	__atomic_store_n(knob, on, __ATOMIC_RELAXED);
	return 0;
}

bool bpf_jit_enabled(void)
{
	return bpf_knob_read(&bpf_jit_enable, "UXDP_BPF_JIT", BPF_JIT_DEFAULT);
}

UXDP_API int uxdp_bpf_jit_enable_set(int on)
{
	return bpf_knob_set(&bpf_jit_enable, on);
}

UXDP_API int uxdp_bpf_jit_enable_get(void)
{
	return bpf_jit_enabled();
}

/* net.core.bpf_hardened (uxdp's): -1 until read, then UXDP_BPF_HARDENED or 0 */
int bpf_hardened = -1;

bool bpf_hardened_enabled(void)
{
	return bpf_knob_read(&bpf_hardened, "UXDP_BPF_HARDENED", 0);
}

UXDP_API int uxdp_bpf_hardened_set(int on)
{
	return bpf_knob_set(&bpf_hardened, on);
}

UXDP_API int uxdp_bpf_hardened_get(void)
{
	return bpf_hardened_enabled();
}

UXDP_API int uxdp_bpf_prog_hardened(u32 prog_id)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);

	return prog ? prog->aux->hardened : -ENOENT;
}

UXDP_API int uxdp_bpf_prog_jit_info(u32 prog_id, u32 *jited_len, char *reason, size_t len)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);

	if (!prog)
		return -ENOENT;
	if (jited_len)
		*jited_len = prog->jited ? prog->jited_len : 0;
	if (reason && len)
		snprintf(reason, len, "%s", prog->jited ? "" : prog->aux->jit_reason);
	return prog->jited;
}

/*
 * The native code bpf_func enters: the direct image, or the image with
 * the C entry (bpftool's `prog dump jited`, from jited_prog_insns).
 */
UXDP_API int uxdp_bpf_prog_jited_insns(u32 prog_id, void *buf, u32 len)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	const void *image;

	if (!prog)
		return -ENOENT;
	if (!prog->jited)
		return 0;
	image = prog->aux->jit_direct ? prog->aux->jit_direct : prog->aux->jit_image;
	if (buf)
		memcpy(buf, image, min_t(u32, len, prog->jited_len));
	return prog->jited_len;
}

UXDP_API int uxdp_bpf_prog_jited_insn_offs(u32 prog_id, u32 *offs, u32 cnt)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);

	if (!prog)
		return -ENOENT;
	if (!prog->jited || !prog->aux->jit_insn_off)
		return 0;
	if (offs)
		memcpy(offs, prog->aux->jit_insn_off, min_t(u32, cnt, prog->len + 1) * sizeof(*offs));
	return (int)prog->len + 1;
}

/* The map whose value area holds @addr (a direct value load), or NULL. */
static struct bpf_map *used_map_by_value(const struct bpf_prog *prog, u64 addr, u32 *off)
{
	u32 m;

	for (m = 0; m < prog->aux->used_map_cnt; m++) {
		struct bpf_map *map = prog->aux->used_maps[m];
		u64 base;

		if (!map->ops || !map->ops->map_direct_value_addr ||
		    map->ops->map_direct_value_addr(map, &base, 0))
			continue;
		if (addr >= base && addr - base < map->value_size) {
			*off = (u32)(addr - base);
			return map;
		}
	}
	return NULL;
}

/*
 * Back from the interpreter's internal forms (bpf_verifier.h) to UAPI
 * instructions, as bpf_prog_get_info_by_fd() hands out xlated_prog_insns:
 * checked accesses as plain ones, helper calls by BPF_FUNC_* id (bpf_loop
 * and bpf_tail_call included), kfuncs by BTF id, bpf-to-bpf calls and
 * callback addresses pc-relative, map pointers as map ids (imm; for a
 * direct value, the offset in the second imm).
 * Kernel: kernel/bpf/syscall.c bpf_insn_prepare_dump()
 * Differs: the multi-load xdp_md fields (ingress_ifindex, rx_queue_index,
 *	    egress_ifindex) show as the program's own ctx load.
 */
static void bpf_insn_prepare_dump(const struct bpf_prog *prog, struct bpf_insn *out)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	static const s16 ctx_off[] = {
		[BPF_CTX_INGRESS_IFINDEX] = offsetof(struct xdp_md, ingress_ifindex),
		[BPF_CTX_RX_QUEUE_INDEX] = offsetof(struct xdp_md, rx_queue_index),
		[BPF_CTX_EGRESS_IFINDEX] = offsetof(struct xdp_md, egress_ifindex),
	};
	u32 i;

	memcpy(out, prog->insnsi, prog->len * sizeof(*out));
	for (i = 0; i < prog->len; i++) {
		struct bpf_insn *insn = &out[i];
		u8 cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);

		if (is_ldimm64(insn) && i + 1 < prog->len) {
			u64 v = (u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32);
			uintptr_t base = (uintptr_t)prog->insnsi;
			struct bpf_map *map;
			u32 m, off = 0;

			/* resolved loads are plain constants now: known by their value */
			for (m = 0; m < prog->aux->used_map_cnt; m++)
				if ((uintptr_t)prog->aux->used_maps[m] == (uintptr_t)v)
					break;
			if (m < prog->aux->used_map_cnt) {
				insn[0].src_reg = BPF_PSEUDO_MAP_FD;
				insn[0].imm = (s32)prog->aux->used_maps[m]->id;
				insn[1].imm = 0;
			} else if ((map = used_map_by_value(prog, v, &off))) {
				insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
				insn[0].imm = (s32)map->id;
				insn[1].imm = (s32)off;
			} else if (v >= base && v < base + prog->len * sizeof(struct bpf_insn) &&
				   !((v - base) % sizeof(struct bpf_insn))) {
				insn[0].src_reg = BPF_PSEUDO_FUNC;
				insn[0].imm = (s32)((v - base) / sizeof(struct bpf_insn) - i - 1);
				insn[1].imm = 0;
			}
			i++;
			continue;
		}
		if (cls == BPF_LDX && mode == BPF_CTX_FIELD && BPF_SIZE(insn->code) == BPF_W &&
		    (u32)insn->imm < ARRAY_SIZE(ctx_off)) {
			insn->code = BPF_LDX | BPF_MEM | BPF_W;
			insn->off = ctx_off[insn->imm];
			insn->imm = 0;
		} else if ((cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX) &&
			   (mode == BPF_PROBE_MEM || mode == BPF_PROBE_MEMSX ||
			    (cls == BPF_STX && mode == BPF_PROBE_ATOMIC))) {
			mode = mode == BPF_PROBE_MEM ? BPF_MEM :
			       mode == BPF_PROBE_MEMSX ? BPF_MEMSX : BPF_ATOMIC;
			insn->code = cls | mode | BPF_SIZE(insn->code);
		} else if (insn->code == (BPF_JMP | BPF_TAIL_CALL)) {
			insn->code = BPF_JMP | BPF_CALL;
			insn->imm = BPF_FUNC_tail_call;
		} else if (insn->code == BPF_CALL_LOOP) {
			insn->code = BPF_JMP | BPF_CALL;
			insn->off = 0;
			insn->imm = BPF_FUNC_loop;
		} else if (insn->code == (BPF_JMP32 | BPF_CALL)) {
			insn->code = BPF_JMP | BPF_CALL;
			insn->src_reg = BPF_PSEUDO_CALL;
			insn->off = 0;
		} else if (insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg && vi &&
			   (u32)insn->imm < vi->nr_calls) {
			const struct bpf_call_desc *d = &vi->calls[insn->imm];

			if (d->func_id == BPF_FUNC_unspec) {
				insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
				insn->imm = (s32)btf_kfunc_id_by_func(d->func);
			} else {
				insn->imm = (s32)d->func_id;
			}
		}
	}
}

UXDP_API int uxdp_bpf_prog_xlated_insns(u32 prog_id, struct bpf_insn *buf, u32 cnt)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	struct bpf_insn *all;

	if (!prog)
		return -ENOENT;
	if (!buf)
		return (int)prog->len;
	all = malloc(prog->len * sizeof(*all));
	if (!all)
		return -ENOMEM;
	bpf_insn_prepare_dump(prog, all);
	memcpy(buf, all, min_t(u32, cnt, prog->len) * sizeof(*all));
	free(all);
	return (int)prog->len;
}

#if !defined(__x86_64__)
/* Hosts without a JIT keep the interpreter (the kernel's __weak default). */
struct bpf_prog *bpf_int_jit_compile(struct bpf_prog *prog)
{
	snprintf(prog->aux->jit_reason, sizeof(prog->aux->jit_reason),
		 "no JIT for this architecture");
	return prog;
}
#endif

static bool bpf_is_mov64_x(const struct bpf_insn *a)
{
	return a->code == (BPF_ALU64 | BPF_MOV | BPF_X) && !a->off;
}

/* The ld_imm64 at @a loads a map this program uses: its bpf_map, else NULL. */
static const struct bpf_map *bpf_ldimm_map(const struct bpf_prog *prog, const struct bpf_insn *a)
{
	u64 v = (u64)(u32)a[0].imm | ((u64)(u32)a[1].imm) << 32;
	u32 i;

	for (i = 0; i < prog->aux->used_map_cnt; i++)
		if ((u64)(uintptr_t)prog->aux->used_maps[i] == v)
			return prog->aux->used_maps[i];
	return NULL;
}

/*
 * Which superinstruction, if any, can stand for the sequence starting at
 * slot @i (see enum bpf_fused_op). Every pattern is straight-line, over
 * proven (not checked) instructions, and does what its slots do in order.
 */
static int bpf_fuse_at(const struct bpf_prog *prog, u32 i)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	const struct bpf_insn *a = &prog->insnsi[i];
	u32 left = prog->len - i;

	if (left >= 3 && bpf_is_mov64_x(a)) {
		/* a pattern at i + 1 or i + 2 that does not start with a move */
		int next = a[1].code == (BPF_ALU64 | BPF_AND | BPF_K) ? bpf_fuse_at(prog, i + 1) : -1;

		if (next == BPF_FUSE_AND_JEQ && a[1].dst_reg == a->dst_reg)
			return BPF_FUSE_MOV_AND_JEQ;
		if (next == BPF_FUSE_AND_JNE && a[1].dst_reg == a->dst_reg)
			return BPF_FUSE_MOV_AND_JNE;
		next = a[1].code == (BPF_ALU64 | BPF_ADD | BPF_K) && a[1].dst_reg == a->dst_reg &&
		       a->dst_reg == BPF_REG_2 && a[2].code == (BPF_LD | BPF_IMM | BPF_DW) ?
		       bpf_fuse_at(prog, i + 2) : -1;
		if (next == BPF_FUSE_ARRAY_LOOKUP)
			return BPF_FUSE_FP_ARRAY_LOOKUP;
		if (next == BPF_FUSE_PERCPU_ARRAY_LOOKUP)
			return BPF_FUSE_FP_PERCPU_ARRAY_LOOKUP;
	}
	if (left >= 3 && bpf_is_mov64_x(a) && a[1].code == (BPF_ALU64 | BPF_ADD | BPF_K) &&
	    a[1].dst_reg == a->dst_reg && a[2].code == (BPF_JMP | BPF_JGT | BPF_X) &&
	    a[2].dst_reg == a->dst_reg && a[2].src_reg != a->dst_reg)
		return BPF_FUSE_PKT_CHECK;
	if (left >= 2 && bpf_is_mov64_x(a) && a[1].code == (BPF_ALU64 | BPF_ADD | BPF_K) &&
	    a[1].dst_reg == a->dst_reg)
		return BPF_FUSE_MOV_ADD;
	if (left >= 2 && a->code == (BPF_ALU64 | BPF_AND | BPF_K) && a[1].dst_reg == a->dst_reg) {
		if (a[1].code == (BPF_JMP | BPF_JEQ | BPF_K))
			return BPF_FUSE_AND_JEQ;
		if (a[1].code == (BPF_JMP | BPF_JNE | BPF_K))
			return BPF_FUSE_AND_JNE;
	}
	if (left >= 2 && a->code == (BPF_ALU64 | BPF_ADD | BPF_K) && a[1].dst_reg == a->dst_reg &&
	    a[1].code == (BPF_JMP | BPF_JNE | BPF_K))
		return BPF_FUSE_ADD_JNE;
	if (left >= 4 && a->code == (BPF_LDX | BPF_MEM | BPF_B) &&
	    a[1].code == (BPF_LDX | BPF_MEM | BPF_B) && a[1].src_reg == a->src_reg &&
	    a->dst_reg != a->src_reg && a->dst_reg != a[1].dst_reg &&
	    a[2].code == (BPF_ALU64 | BPF_LSH | BPF_K) && a[2].dst_reg == a[1].dst_reg &&
	    a[2].imm == 8 && a[3].code == (BPF_ALU64 | BPF_OR | BPF_X) &&
	    a[3].dst_reg == a[1].dst_reg && a[3].src_reg == a->dst_reg)
		return BPF_FUSE_LD_BE16;
	if (left >= 3 && (a->code == (BPF_LDX | BPF_MEM | BPF_DW) ||
			  a->code == (BPF_LDX | BPF_MEM | BPF_W)) &&
	    a->dst_reg != a->src_reg &&
	    a[1].code == (BPF_ALU64 | BPF_ADD | BPF_K) && a[1].dst_reg == a->dst_reg &&
	    a[2].code == (BPF_STX | BPF_MEM | BPF_SIZE(a->code)) &&
	    a[2].dst_reg == a->src_reg && a[2].src_reg == a->dst_reg && a[2].off == a->off)
		return BPF_SIZE(a->code) == BPF_DW ? BPF_FUSE_INC_DW : BPF_FUSE_INC_W;
	if (left >= 2 && a->code == (BPF_LDX | BPF_MEM | BPF_DW) && a[1].code == a->code &&
	    a[1].src_reg != a->dst_reg)
		return BPF_FUSE_LDX2_DW;
	if (left >= 2 && a->code == (BPF_ALU64 | BPF_MOV | BPF_K) && a->dst_reg == BPF_REG_0 &&
	    a[1].code == (BPF_JMP | BPF_EXIT))
		return BPF_FUSE_RET_K;
	if (left >= 3 && a->code == (BPF_LD | BPF_IMM | BPF_DW) && a->dst_reg == BPF_REG_1 &&
	    a[2].code == (BPF_JMP | BPF_CALL) && (u32)a[2].imm < vi->nr_calls) {
		const struct bpf_call_desc *d = &vi->calls[a[2].imm];
		const struct bpf_map *map = bpf_ldimm_map(prog, a);

		if (!map || d->func_id != BPF_FUNC_map_lookup_elem || d->nr_checks)
			return -1;
		/* only arraymap.c's own layout (not look-alikes) */
		if (map->ops == &array_map_ops)
			return BPF_FUSE_ARRAY_LOOKUP;
		if (map->ops == &percpu_array_map_ops)
			return BPF_FUSE_PERCPU_ARRAY_LOOKUP;
	}
	return -1;
}

/* Superinstructions into @image where bpf_fuse_at() finds them. */
static void bpf_fuse_image(const struct bpf_prog *prog, struct bpf_dinsn *image)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u32 i;

	for (i = 0; i < prog->len; i++) {
		int f = bpf_fuse_at(prog, i);

		if (f >= 0)
			__atomic_store_n(&image[i].op, vi->needs_budget ? bpf_interp_fused[f] :
					 bpf_interp_fused_nb[f], __ATOMIC_RELEASE);
		if (prog->insnsi[i].code == (BPF_LD | BPF_IMM | BPF_DW))
			i++;	/* never start a pattern at a second half */
	}
}

/* The handler of slot @i on its own (no superinstruction). */
static const void *bpf_dinsn_op(const struct bpf_prog *prog, u32 i)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u8 code = prog->insnsi[i].code;

	/* without a budget, jumps are only jumps */
	if (!vi->needs_budget && bpf_interp_nb_jumps[i % BPF_COND_COPIES][code])
		return bpf_interp_nb_jumps[i % BPF_COND_COPIES][code];
	if (i % BPF_COND_COPIES && bpf_interp_cond_copies[i % BPF_COND_COPIES - 1][code])
		return bpf_interp_cond_copies[i % BPF_COND_COPIES - 1][code];
	return bpf_interp_jumptable[code];
}

int bpf_prog_coverage_set(struct bpf_prog *prog, struct bpf_prog_cov *cov)
{
	struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u32 i;

	if (!vi || !vi->image)
		return -EINVAL;
	if (cov) {
		/* the handlers first: a run may already be on its way */
		for (i = 0; i < prog->len; i++)
			cov->ops[i] = bpf_dinsn_op(prog, i);
		vi->cov = cov;
		for (i = 0; i < prog->len; i++)
			__atomic_store_n(&vi->image[i].op, bpf_interp_cover[0], __ATOMIC_RELEASE);
		cov->saved_func = prog->bpf_func;
		/* the JIT and the r0 = K shortcut do not count: interpret */
		prog->bpf_func = prog->type == BPF_PROG_TYPE_UNSPEC ? bpf_prog_run_raw_interp :
			bpf_prog_run_xdp_interp;
		return 0;
	}
	cov = vi->cov;
	if (!cov)
		return 0;
	for (i = 0; i < prog->len; i++)
		__atomic_store_n(&vi->image[i].op, cov->ops[i], __ATOMIC_RELEASE);
	bpf_fuse_image(prog, vi->image);
	prog->bpf_func = cov->saved_func;
	/* vi->cov stays: a run that started counting may still be in COVER */
	return 0;
}

int bpf_prog_select_runtime(struct bpf_prog *prog)
{
	struct bpf_verifier_info *vi = prog->aux->verifier_info;
	struct bpf_dinsn *image;
	u32 i;

	if (!bpf_interp_jumptable)
		___bpf_prog_run(NULL, NULL, NULL);
	image = calloc(prog->len, sizeof(*image));
	if (!image)
		return -ENOMEM;
	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];

		image[i].op = bpf_dinsn_op(prog, i);
		image[i].dst_reg = insn->dst_reg;
		image[i].src_reg = insn->src_reg;
		image[i].off = insn->off;
		image[i].imm = insn->imm;
	}
	bpf_fuse_image(prog, image);
	free(vi->image);
	vi->image = image;
	if (prog->type == BPF_PROG_TYPE_UNSPEC)
		prog->bpf_func = bpf_prog_run_raw_interp;
	else
		prog->bpf_func = bpf_prog_run_xdp_interp;
	/*
	 * The JIT keeps the decoded image above: the interpreter still runs
	 * the program when something calls bpf_prog_run_interp() or tail
	 * calls into it from an interpreted program.
	 */
#if defined(__x86_64__)
	bpf_jit_free(prog);	/* checked again: a fresh image */
#endif
	if (bpf_jit_enabled())
		prog = bpf_int_jit_compile(prog);
	else
		snprintf(prog->aux->jit_reason, sizeof(prog->aux->jit_reason),
			 "net.core.bpf_jit_enable is 0");
	/* a JITed program runs its image, as the kernel's */
	if (prog->type != BPF_PROG_TYPE_UNSPEC && !prog->jited &&
	    bpf_fuse_at(prog, 0) == BPF_FUSE_RET_K)
		prog->bpf_func = bpf_prog_run_xdp_ret_k;
	return 0;
}
