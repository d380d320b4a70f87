/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the load-time checker (kernel/bpf/verifier.c) leaves behind for the
 * interpreter (kernel/bpf/core.c): the internal opcodes it patches into
 * prog->insnsi, the per-instruction memory region of every access that
 * needs a run-time check, and the helper call table.
 *
 * Internal opcodes (never accepted from user space; bpf_check() rejects
 * them on input because their modes are invalid in the UAPI):
 *
 *   BPF_LDX | BPF_PROBE_MEM | size	load checked against insn_region[pc]
 *   BPF_LDX | BPF_PROBE_MEMSX | size	sign-extending load, checked
 *   BPF_LDX | BPF_CTX_FIELD | BPF_W	struct xdp_md field that needs more
 *					than one load (imm = enum bpf_ctx_field)
 *   BPF_ST  | BPF_PROBE_MEM | size	store of imm, checked
 *   BPF_STX | BPF_PROBE_MEM | size	store of src, checked
 *   BPF_STX | BPF_PROBE_ATOMIC | size	atomic op (imm as BPF_ATOMIC), checked
 *   BPF_JMP | BPF_TAIL_CALL		patched helper 12 (bpf_tail_call)
 *   BPF_JMP32 | BPF_CALL			bpf-to-bpf call: imm relative as in the
 *					UAPI, off = caller frame size in bytes
 *   BPF_JMP | BPF_CALL (src 0)		helper call, imm = index in calls[]
 *   ld_imm64				pseudo sources resolved to plain constants
 *
 * Kernel: include/linux/bpf_verifier.h, include/linux/filter.h
 *	   (BPF_PROBE_MEM, BPF_TAIL_CALL, BPF_CALL_ARGS)
 * Differs: the kernel patches multi-instruction sequences and proves every
 *	    access; uxdp keeps the instruction count and checks at run time
 *	    what it does not prove. A hardened program (prog->aux->hardened)
 *	    gets the checked forms for every access and helper argument with
 *	    a region, proven or not, and the instruction budget.
 */
#ifndef _UXDP_LINUX_BPF_VERIFIER_H
#define _UXDP_LINUX_BPF_VERIFIER_H

#include <linux/bpf.h>
#include <linux/compiler.h>

#define BPF_PROBE_MEM		0x20	/* LDX/ST/STX: run-time checked access */
#define BPF_PROBE_MEMSX		0xa0	/* LDX: checked sign-extending load */
#define BPF_PROBE_ATOMIC	0xe0	/* STX: checked atomic */
#define BPF_CTX_FIELD		0xe0	/* LDX W: multi-load ctx field */
/* ISA v4 / 6.x UAPI names the system header may predate. */
#ifndef BPF_MEMSX
#define BPF_MEMSX		0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND		0xe0
#endif
#ifndef BPF_MAY_GOTO
#define BPF_MAY_GOTO		0
#endif
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ		0x100
#define BPF_STORE_REL		0x110
#endif
#define BPF_MAX_LOOPS		(8 * 1024 * 1024)	/* may_goto budget */
/* Run-time budget for loops the checker does not bound (see core.c). */
#define BPF_INSN_BUDGET		(1 << 24)

#ifndef BPF_TAIL_CALL
#define BPF_TAIL_CALL		0xf0
#endif

/* Hidden scratch register, as the kernel's BPF_REG_AX. */
#define BPF_REG_AX		MAX_BPF_REG
#define MAX_BPF_EXT_REG		(MAX_BPF_REG + 1)

enum bpf_ctx_field {
	BPF_CTX_INGRESS_IFINDEX,	/* xdp->rxq->dev->ifindex */
	BPF_CTX_RX_QUEUE_INDEX,		/* xdp->rxq->queue_index */
	BPF_CTX_EGRESS_IFINDEX,		/* xdp->txq->dev->ifindex */
};

/*
 * Memory regions a checked access is held to. The low 4 bits are the kind,
 * the rest the index in aux->used_maps for BPF_RGN_MAP.
 */
enum bpf_region_kind {
	BPF_RGN_NONE,
	BPF_RGN_STACK,		/* the whole call-chain stack */
	BPF_RGN_PKT,		/* [data_meta, data_end) of the xdp_buff */
	BPF_RGN_MAP,		/* [arena_lo, arena_hi) of used_maps[idx] */
	BPF_RGN_MEM,		/* raw test program memory [r1, r1 + r2) */
	BPF_RGN_ANY,		/* any of the above (paths disagree) */
};
#define BPF_RGN(kind, idx)	((u32)((kind) | ((idx) << 4)))
#define BPF_RGN_KIND(r)		((r) & 0xf)
#define BPF_RGN_IDX(r)		((r) >> 4)

/* A helper pointer argument checked before the call. */
struct bpf_mem_check {
	u8 ptr_reg;
	u8 size_reg;		/* 0: @size is the size */
	bool or_null;		/* NULL with size 0 is fine */
	u32 region;
	u32 size;
};

#define BPF_CALL_MAX_CHECKS	3

struct bpf_call_desc {
	u64 (*func)(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5);
	u32 func_id;
	u32 nr_checks;
	struct bpf_mem_check checks[BPF_CALL_MAX_CHECKS];
};

struct bpf_dinsn;

/* prog->aux->verifier_info after bpf_check(). */
struct bpf_verifier_info {
	u32 *insn_aux;			/* per insn: region of a checked access;
					 * insn count of the callee at a
					 * bpf-to-bpf call */
	struct bpf_call_desc *calls;
	u32 nr_calls;
	bool zero_stack;		/* variable-offset stack reads exist */
	/*
	 * The instruction budget (BPF_INSN_BUDGET) is charged: the program
	 * is hardened, or the checker left loops or accesses to run-time
	 * checks (env->legacy_checks). Without it the runtimes run the
	 * program as the kernel's JIT does: no budget at all.
	 */
	bool needs_budget;
	struct bpf_dinsn *image;	/* the interpreter's decoded copy (core.c) */
};

void bpf_verifier_info_free(struct bpf_verifier_info *vi);

/* ---- checker internals: kernel/bpf/{verifier,cfg,states,fixups}.c --------
 * Shared only by the checker's files (the kernel keeps them in this header
 * too). Register types are the kernel's enum bpf_reg_type names.
 */
#define MAX_SUBPROGS		256
#define WIDEN_STATES		16	/* states per insn before widening */
#define MAX_STATES		64	/* states kept per insn */
#define MAX_TOTAL_STATES	32768	/* states kept per program (~100 MB) */
#define WIDEN_ALL_AFTER		250000	/* processed insns: from then on, widen at once */
#define BPF_COMPLEXITY_LIMIT_INSNS	1000000
#define STACK_SLOTS		(MAX_BPF_STACK / 8)

static inline u32 bpf_size_to_bytes(u8 size)
{
	return size == BPF_B ? 1 : size == BPF_H ? 2 : size == BPF_W ? 4 : 8;
}

enum bpf_reg_type {
	NOT_INIT = 0,
	SCALAR_VALUE,
	PTR_TO_CTX,
	CONST_PTR_TO_MAP,
	PTR_TO_MAP_VALUE,
	PTR_TO_MAP_VALUE_OR_NULL,
	CONST_PTR_TO_MAP_OR_NULL,	/* lookup in an *_OF_MAPS map */
	PTR_TO_STACK,
	PTR_TO_PACKET,
	PTR_TO_PACKET_META,
	PTR_TO_PACKET_END,
	PTR_TO_MEM,			/* raw test program memory */
	PTR_TO_FUNC,
	PTR_TO_ALLOC_MEM,		/* ringbuf record */
	PTR_TO_ALLOC_MEM_OR_NULL,
};

struct bpf_reg_state {
	u8 type;		/* enum bpf_reg_type */
	u8 frameno;		/* PTR_TO_STACK: whose frame */
	bool var;		/* value (scalar) / offset (pointer) unknown */
	u32 id;			/* *_OR_NULL: set shared by copies */
	s64 off;		/* scalar value or pointer offset, when !var */
	u32 mem_size;		/* PTR_TO_ALLOC_MEM */
	s32 range;		/* PTR_TO_PACKET: [data, data + range) < data_end */
	struct bpf_map *map;	/* map pointer / map value / alloc mem */
};

struct bpf_stack_state {
	u8 init;		/* bit i: byte i (from the slot's low address) written */
	bool spilled;		/* holds a whole spilled register */
	struct bpf_reg_state spill;
};

struct bpf_func_state {
	struct bpf_reg_state regs[MAX_BPF_REG];
	struct bpf_stack_state stack[STACK_SLOTS];	/* slot i: [fp - 8(i+1), fp - 8i) */
	u32 callsite;		/* insn of the call, or U32_MAX for main */
	u32 subprog;
};

struct bpf_verifier_state {
	u32 curframe;
	struct bpf_func_state *frame[MAX_CALL_FRAMES];
};

struct bpf_verifier_state_list {
	struct bpf_verifier_state_list *next;
	struct bpf_verifier_state st;
};

enum bpf_access_kind {
	ACC_NONE,
	ACC_PROVEN,
	ACC_CHECKED,
	ACC_CTX,
};

struct bpf_insn_aux_data {
	bool prune_point;
	u16 live_regs;		/* registers read before written from here on */
	bool widened;		/* states here are joined on arrival */
	bool seen;
	bool is_ldimm_second;
	u8 access;		/* enum bpf_access_kind */
	u32 region;
	s32 ctx_field;		/* ACC_CTX: offset in struct xdp_md */
	/* ld_imm64 */
	u8 ldimm_type;		/* reg type the constant has */
	struct bpf_map *map;
	s64 ldimm_off;
	/* helper call: runtime checks per argument */
	bool call_seen;
	bool arg_check[5];
	u32 arg_region[5];
	u8 arg_size_reg[5];
	u32 arg_size[5];
	bool arg_or_null[5];
	u32 nr_states;
	struct bpf_verifier_state_list *states;
};

struct bpf_subprog_info {
	u32 start;
	u32 end;		/* exclusive */
	u32 stack_depth;
	bool has_tail_call;
	u64 live_slots;		/* stack slots the function may read (bit = slot) */
};

struct bpf_verifier_stack_elem {
	struct bpf_verifier_state st;
	u32 insn;
};

struct bpf_verifier_env {
	struct bpf_prog *prog;
	char *log;
	u32 log_size;
	u32 log_len;
	const struct bpf_func_proto *(*get_proto)(enum bpf_func_id func_id);
	struct bpf_insn_aux_data *aux;
	struct bpf_subprog_info subprogs[MAX_SUBPROGS + 1];
	u32 subprog_cnt;
	struct bpf_verifier_stack_elem *work;
	u32 work_cnt;
	u32 work_cap;
	u64 insn_processed;
	u32 id_gen;
	u32 total_states;
	bool zero_stack;
	/*
	 * Set by a checker that does not prove everything (today's): its
	 * ACC_CHECKED accesses and arg_check[] records must be checked at
	 * run time and its loops need the budget. A verifier that proves
	 * every access leaves it false: arg_check[] then only records what
	 * the hardened runtime checks.
	 */
	bool legacy_checks;
};

static inline bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static inline bool bad_reg(const struct bpf_insn *insn)
{
	return insn->dst_reg >= MAX_BPF_REG || insn->src_reg >= MAX_BPF_REG;
}

static inline bool has_jmp_target(const struct bpf_insn *insn)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_EXIT && op != BPF_CALL;
}

/* Jump target of insn @i (has_jmp_target() must hold). */
static inline s64 jmp_target(const struct bpf_insn *insn, u32 i)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	if (cls == BPF_JMP32 && op == BPF_JA)
		return (s64)i + insn->imm + 1;
	return (s64)i + insn->off + 1;
}

static inline void mark_scalar(struct bpf_reg_state *r)
{
	memset(r, 0, sizeof(*r));
	r->type = SCALAR_VALUE;
	r->var = true;
}

static inline void mark_const(struct bpf_reg_state *r, u64 v)
{
	memset(r, 0, sizeof(*r));
	r->type = SCALAR_VALUE;
	r->off = (s64)v;
}

static inline bool is_ptr(const struct bpf_reg_state *r)
{
	return r->type != NOT_INIT && r->type != SCALAR_VALUE;
}

static inline bool is_pkt(u8 type)
{
	return type == PTR_TO_PACKET || type == PTR_TO_PACKET_META || type == PTR_TO_PACKET_END;
}

static inline struct bpf_func_state *cur_frame(struct bpf_verifier_state *st)
{
	return st->frame[st->curframe];
}

/* kernel/bpf/verifier.c */
__printf(2, 3) void bpf_verbose(struct bpf_verifier_env *env, const char *fmt, ...);
#define vinsn(env, idx, fmt, ...)	bpf_verbose(env, "insn %u: " fmt "\n", (u32)(idx), ##__VA_ARGS__)

/* kernel/bpf/cfg.c: pass 1 */
int bpf_check_insns(struct bpf_verifier_env *env);
int bpf_check_cfg(struct bpf_verifier_env *env);
int bpf_compute_live_regs(struct bpf_verifier_env *env);
int bpf_used_map_idx(struct bpf_verifier_env *env, const struct bpf_map *map);
void bpf_ldimm_set(struct bpf_insn *insn, u64 val);
u32 bpf_find_subprog(struct bpf_verifier_env *env, u32 insn);

/* kernel/bpf/states.c: states, pruning, widening */
void bpf_free_vstate(struct bpf_verifier_state *st);
int bpf_copy_vstate(struct bpf_verifier_state *dst, const struct bpf_verifier_state *src);
int bpf_push_work(struct bpf_verifier_env *env, const struct bpf_verifier_state *st, u32 insn);
int bpf_is_state_visited(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 insn);

/* kernel/bpf/fixups.c: pass 3 */
int bpf_do_fixups(struct bpf_verifier_env *env);

#endif
