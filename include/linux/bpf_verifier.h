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
 *   BPF_CALL_LOOP			bpf_loop call left to the interpreter (not
 *					inlined): off = caller frame size
 *   ld_imm64				pseudo sources resolved to plain constants
 *
 * Kernel: include/linux/bpf_verifier.h, include/linux/filter.h
 *	   (BPF_PROBE_MEM, BPF_TAIL_CALL, BPF_CALL_ARGS)
 * Differs: the kernel patches multi-instruction sequences; uxdp keeps the
 *	    instruction count and uses the internal opcodes above. Run-time
 *	    checks are emitted only for hardened programs (every access) and
 *	    for raw test memory of a size known at run time. A hardened program (prog->aux->hardened)
 *	    gets the checked forms for every access and helper argument with
 *	    a region, proven or not, and the instruction budget.
 */
#ifndef _UXDP_LINUX_BPF_VERIFIER_H
#define _UXDP_LINUX_BPF_VERIFIER_H

#include <string.h>

#include <linux/bpf.h>
#include <linux/compiler.h>
#include <linux/tnum.h>

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
#ifndef BPF_ADDR_SPACE_CAST
#define BPF_ADDR_SPACE_CAST	1
#endif
#define BPF_MAX_LOOPS		(8 * 1024 * 1024)	/* may_goto budget */
/* Run-time budget for loops the checker does not bound (see core.c). */
#define BPF_INSN_BUDGET		(1 << 24)

#define BPF_CALL_LOOP		(BPF_JMP32 | BPF_JCOND)

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
	u8 nr_args;		/* R1.. read: the proto's arguments */
	struct bpf_map *map;	/* R1's map on every path, or NULL */
	s64 const_key;		/* an ARRAY lookup's in-range key on every path, or -1 */
	u32 nr_checks;
	struct bpf_mem_check checks[BPF_CALL_MAX_CHECKS];
};

struct bpf_dinsn;
struct bpf_prog_cov;

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
	struct bpf_prog_cov *cov;	/* coverage counters, or NULL (coverage.c) */
};

void bpf_verifier_info_free(struct bpf_verifier_info *vi);

/* ---- verifier internals: kernel/bpf/{verifier,cfg,states,fixups,reg_bounds}.c
 * Shared only by the verifier's files (the kernel keeps them in this header
 * too). Register types are the kernel's enum bpf_reg_type names.
 */
#define MAX_SUBPROGS		256
#define BPF_COMPLEXITY_LIMIT_INSNS	1000000
#define BPF_COMPLEXITY_LIMIT_JMP_SEQ	8192	/* pending branches */
#define BPF_COMPLEXITY_LIMIT_STATES	64	/* states kept per insn before dropping */
#define BPF_MAX_SUBPROG_CALLBACK_DEPTH	8
#define BPF_REG_SIZE		8
#define STACK_SLOTS		(MAX_BPF_STACK / BPF_REG_SIZE)
#define MAX_PACKET_OFF		0xffff
#define BPF_MAX_VAR_OFF		(1 << 29)
#define BPF_MAX_VAR_SIZ		(1 << 29)
#define BPF_MAX_REFS		64

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
	PTR_TO_MAP_KEY,
	PTR_TO_STACK,
	PTR_TO_PACKET_META,
	PTR_TO_PACKET,
	PTR_TO_PACKET_END,
	PTR_TO_MEM,			/* raw test memory; ringbuf record (MEM_RINGBUF) */
	PTR_TO_FUNC,
	CONST_PTR_TO_DYNPTR,
	PTR_TO_BTF_ID,			/* a kernel struct a kfunc returned (btf_id) */
	__BPF_REG_TYPE_MAX,

	PTR_TO_MAP_VALUE_OR_NULL	= PTR_MAYBE_NULL | PTR_TO_MAP_VALUE,
	CONST_PTR_TO_MAP_OR_NULL	= PTR_MAYBE_NULL | CONST_PTR_TO_MAP,
	PTR_TO_ALLOC_MEM		= MEM_RINGBUF | PTR_TO_MEM,
	PTR_TO_ALLOC_MEM_OR_NULL	= PTR_MAYBE_NULL | MEM_RINGBUF | PTR_TO_MEM,
};

/*
 * A register or spilled register. Scalars: var_off and the eight bounds
 * describe the value. Pointers: off is the fixed offset, var_off and the
 * bounds the variable part of the offset. Kernel: struct bpf_reg_state.
 */
struct bpf_reg_state {
	u32 type;		/* enum bpf_reg_type with its flags */
	s32 off;
	s32 range;		/* PTR_TO_PACKET: [pkt, pkt + range) < data_end, for this id */
	u32 mem_size;		/* PTR_TO_MEM */
	union {
		u32 subprogno;	/* PTR_TO_FUNC */
		u32 btf_id;	/* PTR_TO_BTF_ID: enum btf_kernel_struct */
		/* a STACK_DYNPTR slot: its enum bpf_dynptr_type, and whether
		 * it is the dynptr's first (higher) slot */
		struct {
			u8 type;
			bool first_slot;
			u16 pad;
		} dynptr;
	};
	u32 frameno;		/* PTR_TO_STACK: whose frame */
	struct bpf_map *map_ptr; /* CONST_PTR_TO_MAP, PTR_TO_MAP_VALUE, ringbuf PTR_TO_MEM */
	/* no padding up to here: states compare these bytes with memcmp */
	struct tnum var_off;
	s64 smin_value, smax_value;
	u64 umin_value, umax_value;
	s32 s32_min_value, s32_max_value;
	u32 u32_min_value, u32_max_value;
	/* Pointers from the same source with the same variable offset, and
	 * scalars copied from one another, share an id (0: none). */
	u32 id;
	u32 ref_obj_id;		/* the acquired reference this pointer is */
	u32 dynptr_id;		/* a dynptr slice: the id of its dynptr's slots */
	bool precise;
};

enum bpf_stack_slot_type {
	STACK_INVALID,		/* nothing written */
	STACK_SPILL,		/* a spilled register */
	STACK_MISC,		/* written, unknown */
	STACK_ZERO,		/* written, zero */
	STACK_DYNPTR,
	STACK_ITER,
	STACK_IRQ_FLAG,
};

/* slot_type[7 - k] is byte k of the slot counted from its low address,
 * i.e. slot_type[(-off - 1) % 8] is the byte at fp + off (the kernel's). */
struct bpf_stack_state {
	struct bpf_reg_state spilled_ptr;
	u8 slot_type[BPF_REG_SIZE];
};

struct bpf_reference_state {
	u32 id;
	u32 insn_idx;		/* where it was acquired */
};

struct bpf_retval_range {
	s32 minval, maxval;
};

struct bpf_func_state {
	struct bpf_reg_state regs[MAX_BPF_REG];
	u32 callsite;		/* insn of the call, or U32_MAX for main */
	u32 frameno;
	u32 subprogno;
	u32 async_entry_cnt;
	/* a callback (bpf_loop): R0 must be in callback_ret_range at exit,
	 * which returns to the callsite, where the helper call is walked again */
	bool in_callback_fn;
	struct bpf_retval_range callback_ret_range;
	/* times the callback called at the callsite this frame is stopped at
	 * was entered on this path (reset when the loop is left) */
	u32 callback_depth;
	u32 allocated_slots;	/* kept states: slots stored (the rest are invalid) */
	struct bpf_stack_state stack[STACK_SLOTS];	/* slot i: [fp - 8(i+1), fp - 8i) */
};

struct bpf_verifier_state {
	struct bpf_func_state *frame[MAX_CALL_FRAMES];
	struct bpf_verifier_state *parent;	/* last stored state on this path */
	u32 branches;		/* paths from here not yet finished */
	u32 insn_idx;
	u32 curframe;
	u32 acquired_refs;
	struct bpf_reference_state refs[BPF_MAX_REFS];
	u32 active_lock_id;	/* bpf_spin_lock held: id of the map value pointer */
	void *active_lock_ptr;	/* ... and its map (NULL: no lock held) */
	u32 may_goto_depth;
	u32 callback_unroll_depth;	/* callback entries on this path */
	/* Precision backtracking (backtrack.c): the instructions walked
	 * since the parent state, first_insn_idx .. last_insn_idx, and the
	 * non-linear steps among them, env->insn_hist[insn_hist_start,
	 * insn_hist_end). */
	u32 first_insn_idx;
	u32 last_insn_idx;
	u32 insn_hist_start;
	u32 insn_hist_end;
	/* backtrack.c's fallback marked every scalar of this state and of
	 * all its parents precise (kept states only; never copied) */
	bool all_precise;
};

/* A linked scalar (same id) a conditional jump refined: a register or a
 * spilled slot of frame @frameno. */
struct bpf_linked_reg {
	u8 frameno;
	u8 regno;		/* register, or stack slot when !is_reg */
	bool is_reg;
};

#define BPF_MAX_LINKED_REGS	6

/* insn_hist flags: a spill or fill of slot spi of frame frameno. */
#define INSN_F_FRAMENO_MASK	0x7
#define INSN_F_SPI_MASK		0x3f
#define INSN_F_SPI_SHIFT	3
#define INSN_F_STACK_ACCESS	(1u << 9)

/* One step of a path the walk did not take linearly, or an instruction
 * that touched a stack slot or refined linked scalars. Kernel: struct
 * bpf_insn_hist_entry. */
struct bpf_insn_hist_entry {
	u32 idx;
	u32 prev_idx;
	u32 flags;
	u32 nr_linked;
	struct bpf_linked_reg linked[BPF_MAX_LINKED_REGS];
};

/* Registers and stack slots, per frame, whose precision is still sought. */
struct backtrack_state {
	u32 frame;
	u32 reg_masks[MAX_CALL_FRAMES];
	u64 stack_masks[MAX_CALL_FRAMES];
};

struct bpf_verifier_state_list {
	struct bpf_verifier_state_list *next;
	struct bpf_verifier_state state;
	u32 miss_cnt, hit_cnt;
	bool in_free_list;
};

/* What kind of memory an instruction accesses: the hardened runtime
 * checks it against the matching region (all paths must agree). */
enum bpf_access_kind {
	ACC_NONE,
	ACC_PROVEN,
	ACC_CHECKED,
	ACC_CTX,
};

struct bpf_insn_aux_data {
	bool prune_point;
	bool force_checkpoint;
	u16 live_regs;		/* registers read before written from here on */
	bool seen;
	bool is_ldimm_second;
	const char *reserved_msg;	/* reserved fields set: reported when walked */
	u8 access;		/* enum bpf_access_kind */
	u32 region;
	s32 ctx_field;		/* ACC_CTX: offset in struct xdp_md */
	/* ld_imm64 */
	u32 ldimm_type;		/* reg type the constant has */
	struct bpf_map *map;
	s64 ldimm_off;
	/* helper call: the argument checks the hardened runtime makes */
	bool call_seen;
	/*
	 * The map its R1 names on every path (record_func_map()), or
	 * call_map_poison when two differ: fixups then call the map's op
	 * directly, as the kernel's do_misc_fixups() does.
	 */
	struct bpf_map *call_map;
	bool call_map_poison;
	/*
	 * bpf_map_lookup_elem() of an ARRAY or PERCPU_ARRAY: the key, when it
	 * is the same constant within max_entries on every path (the one
	 * that makes R0 non-NULL), or call_key_poison.
	 */
	s64 call_key;
	bool call_key_seen;
	bool call_key_poison;
	bool arg_check[5];
	u32 arg_region[5];
	u8 arg_size_reg[5];
	u32 arg_size[5];
	bool arg_or_null[5];
	/* a helper that calls a callback (bpf_loop): the callsite is walked
	 * again after each callback exit, until its states converge */
	bool calls_callback;
	/* bpf_loop: can the call be replaced by a loop (optimize_bpf_loop)? */
	struct bpf_loop_inline_state {
		bool initialized;
		bool fit_for_inline;	/* flags known 0, callback always the same */
		u32 callback_subprogno;
	} loop_inline_state;
	u32 nr_states;
	struct bpf_verifier_state_list *states;
	/* a conditional jump: the edges some path took (BPF_EDGE_*) */
	u8 edges;
};

#define BPF_EDGE_FALL	1	/* on to the next slot */
#define BPF_EDGE_TAKEN	2	/* to the jump's target */

struct bpf_subprog_info {
	u32 start;
	u32 end;		/* exclusive */
	u32 stack_depth;
	bool has_tail_call;
	bool tail_call_reachable;
	bool is_cb;		/* passed to a helper as a callback (bpf_loop) */
	u64 live_slots;		/* stack slots the function may read (bit = slot) */
};

struct bpf_verifier_stack_elem {
	struct bpf_verifier_state st;
	u32 insn_idx;
	u32 prev_insn_idx;
};

struct bpf_verifier_env {
	struct bpf_prog *prog;
	char *log;
	u32 log_size;
	u32 log_len;
	u32 log_level;
	const struct bpf_func_proto *(*get_proto)(enum bpf_func_id func_id);
	struct bpf_insn_aux_data *aux;
	struct bpf_subprog_info subprogs[MAX_SUBPROGS + 1];
	u32 subprog_cnt;
	struct bpf_verifier_state *cur_state;
	struct bpf_verifier_stack_elem *work;
	u32 work_cnt;
	u32 work_cap;
	u32 insn_idx;
	u32 prev_insn_idx;
	u64 insn_processed;
	u32 jmps_processed, prev_jmps_processed;
	u64 prev_insn_processed;
	u32 id_gen;
	u32 total_states, peak_states;
	bool bypass_spec_v1;	/* privileged (CAP_PERFMON): no Spectre sanitation */
	bool allow_ptr_leaks;	/* privileged: pointers may be stored and compared */
	bool allow_uninit_stack;
	bool hardened;		/* run-time checks of every access (oracle mode) */
	bool zero_stack;	/* a read may see never-written stack: zero it per run */
	bool seen_direct_write;	/* packet written directly */
	bool pop_dead_branch;	/* the branch just pushed cannot be taken */
	bool this_branch_dead;	/* nor can the current one */
	u32 tmp_id_gen;
	u32 log_lines;
	u32 max_states_per_insn;
	struct bpf_verifier_state_list *free_list;	/* evicted, still someone's parent */
	/* a checker that leaves accesses to run-time checks (none today) */
	bool legacy_checks;
	bool bpf_capable;	/* privileged: scalars start imprecise */
	/* backtrack.c: the jump history of the states on the current path */
	struct bpf_insn_hist_entry *insn_hist;
	u32 insn_hist_cap;
	s32 cur_hist_ent;	/* entry of the current insn, or -1 */
	struct backtrack_state bt;
	u64 mark_precise_calls;
	u32 max_stack_depth;	/* deepest call chain (check_max_stack_depth()) */
	u32 loop_stack_extra;	/* bytes optimize_bpf_loop() added, all subprograms */
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

static inline bool type_may_be_null(u32 type)
{
	return type & PTR_MAYBE_NULL;
}

static inline bool is_pkt_type(u32 type)
{
	return type == PTR_TO_PACKET || type == PTR_TO_PACKET_META;
}

static inline bool reg_is_pkt_pointer_any(const struct bpf_reg_state *reg)
{
	return reg->type == PTR_TO_PACKET || reg->type == PTR_TO_PACKET_META ||
	       reg->type == PTR_TO_PACKET_END;
}

static inline bool __is_pointer_value(const struct bpf_reg_state *reg)
{
	return reg->type != SCALAR_VALUE;
}

static inline struct bpf_func_state *cur_func(struct bpf_verifier_env *env)
{
	struct bpf_verifier_state *cur = env->cur_state;

	return cur->frame[cur->curframe];
}

static inline struct bpf_reg_state *cur_regs(struct bpf_verifier_env *env)
{
	return cur_func(env)->regs;
}

/* Every register and spilled register of every frame of @st. */
#define bpf_for_each_reg_in_vstate(__vst, __state, __reg, __expr)		\
	do {									\
		u32 ___f, ___j;							\
		for (___f = 0; ___f <= (__vst)->curframe; ___f++) {		\
			(__state) = (__vst)->frame[___f];			\
			for (___j = 0; ___j < MAX_BPF_REG; ___j++) {		\
				(__reg) = &(__state)->regs[___j];		\
				__expr;						\
			}							\
			for (___j = 0; ___j < STACK_SLOTS; ___j++) {		\
				if (!is_spilled_reg(&(__state)->stack[___j])) \
					continue;				\
				(__reg) = &(__state)->stack[___j].spilled_ptr;	\
				__expr;						\
			}							\
		}								\
	} while (0)

static inline bool is_spilled_reg(const struct bpf_stack_state *stack)
{
	return stack->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL;
}

static inline bool is_spilled_scalar_reg(const struct bpf_stack_state *stack)
{
	return is_spilled_reg(stack) && stack->spilled_ptr.type == SCALAR_VALUE;
}

/* kernel/bpf/verifier.c */
__printf(2, 3) void verbose(struct bpf_verifier_env *env, const char *fmt, ...);
/* A released or invalidated pointer becomes NOT_INIT (privileged: unknown). */
void mark_reg_invalid(struct bpf_verifier_env *env, struct bpf_reg_state *reg);

/*
 * kernel/bpf/dynptr.c: dynptrs on the stack (two STACK_DYNPTR slots, the
 * first one's spilled_ptr holding type and id). @reg is the PTR_TO_STACK
 * argument. Kernel: the verifier's dynptr_get_spi(), ... of the same names.
 */
int dynptr_get_spi(struct bpf_verifier_env *env, struct bpf_reg_state *reg);
bool is_dynptr_reg_valid_uninit(struct bpf_verifier_env *env, struct bpf_reg_state *reg);
bool is_dynptr_reg_valid_init(struct bpf_verifier_env *env, struct bpf_reg_state *reg);
int mark_stack_slots_dynptr(struct bpf_verifier_env *env, struct bpf_reg_state *reg,
			    enum bpf_dynptr_type type);
/* A store over slot @spi of @state ends the dynptr there and its slices. */
int destroy_if_dynptr_stack_slot(struct bpf_verifier_env *env, struct bpf_func_state *state,
				 int spi);
int dynptr_id(struct bpf_verifier_env *env, struct bpf_reg_state *reg);
enum bpf_dynptr_type dynptr_get_type(struct bpf_verifier_env *env, struct bpf_reg_state *reg);
const char *dynptr_type_str(enum bpf_dynptr_type type);
/* A slice of an XDP (packet) dynptr: invalid once the packet changes. */
static inline bool reg_is_dynptr_slice_pkt(const struct bpf_reg_state *reg)
{
	return base_type(reg->type) == PTR_TO_MEM && (reg->type & (DYNPTR_TYPE_SKB | DYNPTR_TYPE_XDP));
}
#define bpf_verbose verbose
#define vinsn(env, idx, fmt, ...)	verbose(env, "insn %u: " fmt "\n", (u32)(idx), ##__VA_ARGS__)

/* kernel/bpf/reg_bounds.c: scalar value tracking (kernel: verifier.c) */
void __mark_reg_known(struct bpf_reg_state *reg, u64 imm);
void __mark_reg_known_zero(struct bpf_reg_state *reg);
void __mark_reg_const_zero(struct bpf_reg_state *reg);	/* SCALAR_VALUE 0 */
void __mark_reg_unknown(struct bpf_reg_state *reg);	/* SCALAR_VALUE, anything */
void __mark_reg_unbounded(struct bpf_reg_state *reg);
void __mark_reg64_unbounded(struct bpf_reg_state *reg);
void __mark_reg32_unbounded(struct bpf_reg_state *reg);
void __mark_reg_s32_range(struct bpf_reg_state *reg, s32 smin, s32 smax);
void __update_reg_bounds(struct bpf_reg_state *reg);
void reg_bounds_sync(struct bpf_reg_state *reg);
bool reg_bounds_sane(const struct bpf_reg_state *reg);
void zext_32_to_64(struct bpf_reg_state *reg);
void coerce_reg_to_size(struct bpf_reg_state *reg, int size);
void coerce_reg_to_size_sx(struct bpf_reg_state *reg, int size);
void coerce_subreg_to_size_sx(struct bpf_reg_state *reg, int size);
bool tnum_is_const_reg(const struct bpf_reg_state *reg);	/* var_off const */
bool register_is_null(const struct bpf_reg_state *reg);
bool register_is_const(const struct bpf_reg_state *reg);
/*
 * dst = dst OP src for two scalars (BPF_ALU or BPF_ALU64 @insn; src is the
 * immediate's known register for BPF_K). Returns 0; the caller has checked
 * the operand types. Kernel: adjust_scalar_min_max_vals().
 */
int adjust_scalar_min_max_vals(struct bpf_verifier_env *env, const struct bpf_insn *insn,
			       struct bpf_reg_state *dst_reg, struct bpf_reg_state src_reg);
/*
 * Can a jump @opcode (BPF_JEQ ...) of two scalars be decided? 1 always
 * taken, 0 never, -1 unknown. Kernel: is_scalar_branch_taken().
 */
int is_scalar_branch_taken(struct bpf_reg_state *reg1, struct bpf_reg_state *reg2, u8 opcode,
			   bool is_jmp32);
/*
 * Narrow the two scalars of a jump in each branch: (true_reg1, true_reg2)
 * are the operands where the condition holds, (false_*) where it does not.
 * Returns 0, or -EFAULT when a branch is impossible (bounds crossed).
 * Kernel: reg_set_min_max() / regs_refine_cond_op().
 */
int reg_set_min_max(struct bpf_verifier_env *env, struct bpf_reg_state *true_reg1,
		    struct bpf_reg_state *true_reg2, struct bpf_reg_state *false_reg1,
		    struct bpf_reg_state *false_reg2, u8 opcode, bool is_jmp32);
/* The jump opcode with its operands swapped (a < b is b > a). */
u8 flip_opcode(u8 opcode);
/* Range of @reg is within that of @old (both scalars)? */
bool range_within(const struct bpf_reg_state *old, const struct bpf_reg_state *cur);
/* Kernel log form of a register's value: "scalar(smin=...,umax=...,var_off=...)" etc. */
int bpf_reg_str(char *buf, size_t size, const struct bpf_reg_state *reg);

/* kernel/bpf/cfg.c: pass 1 */
int bpf_check_insns(struct bpf_verifier_env *env);
int bpf_check_cfg(struct bpf_verifier_env *env);
int bpf_compute_live_regs(struct bpf_verifier_env *env);
int bpf_used_map_idx(struct bpf_verifier_env *env, const struct bpf_map *map);
void bpf_ldimm_set(struct bpf_insn *insn, u64 val);
u32 bpf_find_subprog(struct bpf_verifier_env *env, u32 insn);

/* kernel/bpf/states.c: states, pruning */
void free_verifier_state(struct bpf_verifier_state *st, bool free_self);
int copy_verifier_state(struct bpf_verifier_state *dst, const struct bpf_verifier_state *src);
/* Push a copy of the current state to continue at @insn_idx later. */
struct bpf_verifier_state *push_stack(struct bpf_verifier_env *env, u32 insn_idx, u32 prev_insn_idx);
/* Pop the next pending path into env->cur_state: 0, or -ENOENT when none. */
int pop_stack(struct bpf_verifier_env *env, u32 *insn_idx);
/* 1: an equivalent finished state exists (prune), 0: go on, <0: error. */
int is_state_visited(struct bpf_verifier_env *env, u32 insn_idx);
/* The path ended: finished-branch accounting up the parents. */
void update_branch_counts(struct bpf_verifier_env *env, struct bpf_verifier_state *st);
void free_states(struct bpf_verifier_env *env);

/* kernel/bpf/backtrack.c: precision tracking */
#define BPF_REGMASK_ARGS	((1u << BPF_REG_1) | (1u << BPF_REG_2) | (1u << BPF_REG_3) | \
				 (1u << BPF_REG_4) | (1u << BPF_REG_5))

static inline void bt_init(struct backtrack_state *bt, u32 frame)
{
	memset(bt, 0, sizeof(*bt));
	bt->frame = frame;
}

static inline void bt_set_frame_reg(struct backtrack_state *bt, u32 frame, u32 reg)
{
	bt->reg_masks[frame] |= 1u << reg;
}

static inline void bt_set_frame_slot(struct backtrack_state *bt, u32 frame, u32 spi)
{
	bt->stack_masks[frame] |= 1ull << spi;
}

/* The step into the current insn was not linear: record it. */
int push_jmp_history_if_needed(struct bpf_verifier_env *env);
/* Record @flags (INSN_F_*) and linked scalars for the current insn. */
int push_insn_history(struct bpf_verifier_env *env, u32 flags,
		      const struct bpf_linked_reg *linked, u32 nr_linked);
u32 insn_stack_access_flags(u32 frameno, u32 spi);
/*
 * The value of scalar @regno of the current frame decides something: mark
 * it, and whatever it was computed from, precise in the parent states.
 * Returns 0 or a negative errno. Kernel: mark_chain_precision().
 */
int mark_chain_precision(struct bpf_verifier_env *env, u32 regno);
/* The same for spilled scalar @spi of frame @frameno. */
int mark_stack_slot_precise(struct bpf_verifier_env *env, u32 frameno, u32 spi);
/* Backtrack what env->bt holds from the current state. */
int mark_chain_precision_batch(struct bpf_verifier_env *env);
void mark_all_scalars_imprecise(struct bpf_verifier_state *st);
void free_insn_hist(struct bpf_verifier_env *env);
/* kernel/bpf/verifier.c, for the other files of the verifier */
void __mark_reg_not_init(struct bpf_reg_state *reg);
void init_func_state(struct bpf_func_state *state, u32 callsite, u32 frameno, u32 subprogno);
typedef int (*set_callee_state_fn)(struct bpf_verifier_env *env, struct bpf_func_state *caller,
				   struct bpf_func_state *callee, u32 insn_idx);
int setup_func_entry(struct bpf_verifier_env *env, u32 subprog, u32 callsite,
		     set_callee_state_fn set_callee_state_cb, struct bpf_verifier_state *state);

/* kernel/bpf/callbacks.c: helpers that call back into the program */
bool is_callback_calling_function(s32 func_id);
bool is_sync_callback_calling_insn(const struct bpf_insn *insn);
/* The bpf_loop call at env->insn_idx: push the entry into its callback. */
int check_bpf_loop_call(struct bpf_verifier_env *env, u32 subprogno);
/* R0 at the exit of a callback frame, against its range. */
int check_callback_return(struct bpf_verifier_env *env, const struct bpf_func_state *callee);
/* bpf_loop calls into inline loops; env->prog may be reallocated. */
int optimize_bpf_loop(struct bpf_verifier_env *env);

/* kernel/bpf/fixups.c: pass 3 */
int check_max_stack_depth(struct bpf_verifier_env *env);
int bpf_do_fixups(struct bpf_verifier_env *env);

#endif
