// SPDX-License-Identifier: GPL-2.0
/*
 * The load-time checker: everything bpf_check() does before a program may
 * run. Three passes:
 *
 * 1. check_insns(): every instruction's opcode and reserved fields (the
 *    kernel's messages), ld_imm64 pairs, map references (taken into
 *    aux->used_maps and patched to plain constants), subprograms, jump
 *    ranges, the last instruction of each subprogram, reachability.
 * 2. do_check(): an abstract walk over all paths. A state is the register
 *    and stack types of every frame of the call chain; registers are typed
 *    (ctx, packet, packet end, packet meta, map value (+ map), map value or
 *    NULL, map pointer, stack (+ frame, offset), scalar (constant or not)).
 *    Branches push a copy of the state on a work stack. At prune points
 *    (jump targets) states are remembered; a new state that an old one
 *    covers is not walked again. Loops converge by widening: once an
 *    instruction holds WIDEN_STATES states, the new state is joined with
 *    them (constants become unknown, offsets variable). The walk types each
 *    memory access, rejects what is never safe and records for each access
 *    whether it is proven (constant stack offsets, constant map value
 *    offsets) or must be checked at run time against its region.
 * 3. fixup(): rewrites struct xdp_md loads, checked accesses, helper and
 *    tail calls, bpf-to-bpf calls into the internal forms of
 *    <linux/bpf_verifier.h>, replaces never-visited instructions with a
 *    self-jump (as the kernel's sanitize_dead_code) and checks the stack
 *    depth over the call chains.
 *
 * Kernel: kernel/bpf/verifier.c bpf_check(), do_check(),
 *	   check_subprogs(), resolve_pseudo_ldimm64(), check_mem_access(),
 *	   check_helper_call(), convert_ctx_accesses(), do_misc_fixups();
 *	   net/core/filter.c xdp_is_valid_access(), xdp_convert_ctx_access()
 * Differs: no scalar range tracking, so packet accesses and variable-offset
 *	    accesses are checked at run time instead of proven (the kernel
 *	    rejects what it cannot prove); loops are bounded at run time by an
 *	    instruction budget instead of being unrolled; programs are treated
 *	    as untrusted: pointers may not be stored into maps, packets or
 *	    returned; no BTF, kfuncs or reference leak tracking.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <net/xdp.h>

#define MAX_SUBPROGS		256
#define WIDEN_STATES		16	/* states per insn before widening */
#define MAX_STATES		64	/* states kept per insn */
#define BPF_COMPLEXITY_LIMIT_INSNS	1000000
#define STACK_SLOTS		(MAX_BPF_STACK / 8)

static u32 bpf_size_to_bytes(u8 size)
{
	return size == BPF_B ? 1 : size == BPF_H ? 2 : size == BPF_W ? 4 : 8;
}

enum reg_type {
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

static const char *const reg_type_str[] = {
	[NOT_INIT] = "?",
	[SCALAR_VALUE] = "scalar",
	[PTR_TO_CTX] = "ctx",
	[CONST_PTR_TO_MAP] = "map_ptr",
	[PTR_TO_MAP_VALUE] = "map_value",
	[PTR_TO_MAP_VALUE_OR_NULL] = "map_value_or_null",
	[CONST_PTR_TO_MAP_OR_NULL] = "map_ptr_or_null",
	[PTR_TO_STACK] = "fp",
	[PTR_TO_PACKET] = "pkt",
	[PTR_TO_PACKET_META] = "pkt_meta",
	[PTR_TO_PACKET_END] = "pkt_end",
	[PTR_TO_MEM] = "mem",
	[PTR_TO_FUNC] = "func",
	[PTR_TO_ALLOC_MEM] = "alloc_mem",
	[PTR_TO_ALLOC_MEM_OR_NULL] = "alloc_mem_or_null",
};

struct reg_state {
	u8 type;		/* enum reg_type */
	u8 frameno;		/* PTR_TO_STACK: whose frame */
	bool var;		/* value (scalar) / offset (pointer) unknown */
	u32 id;			/* *_OR_NULL: set shared by copies */
	s64 off;		/* scalar value or pointer offset, when !var */
	u32 mem_size;		/* PTR_TO_ALLOC_MEM */
	struct bpf_map *map;	/* map pointer / map value / alloc mem */
};

struct stack_slot {
	u8 init;		/* bit i: byte i (from the slot's low address) written */
	bool spilled;		/* holds a whole spilled register */
	struct reg_state spill;
};

struct func_state {
	struct reg_state regs[MAX_BPF_REG];
	struct stack_slot stack[STACK_SLOTS];	/* slot i: [fp - 8(i+1), fp - 8i) */
	u32 callsite;		/* insn of the call, or U32_MAX for main */
	u32 subprog;
};

struct vstate {
	u32 curframe;
	struct func_state *frame[MAX_CALL_FRAMES];
};

struct state_list {
	struct state_list *next;
	struct vstate st;
};

enum access_kind {
	ACC_NONE,
	ACC_PROVEN,
	ACC_CHECKED,
	ACC_CTX,
};

struct insn_aux {
	bool prune_point;
	bool seen;
	bool is_ldimm_second;
	u8 access;		/* enum access_kind */
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
	struct state_list *states;
};

struct subprog_info {
	u32 start;
	u32 end;		/* exclusive */
	u32 stack_depth;
	bool has_tail_call;
};

struct stack_elem {
	struct vstate st;
	u32 insn;
};

struct bpf_verifier_env {
	struct bpf_prog *prog;
	char *log;
	u32 log_size;
	u32 log_len;
	const struct bpf_func_proto *(*get_proto)(enum bpf_func_id func_id);
	struct insn_aux *aux;
	struct subprog_info subprogs[MAX_SUBPROGS + 1];
	u32 subprog_cnt;
	struct stack_elem *work;
	u32 work_cnt;
	u32 work_cap;
	u64 insn_processed;
	u32 id_gen;
	bool zero_stack;
};

static const char *const func_id_names[] = {
#define __BPF_FUNC_NAME(x)	[BPF_FUNC_##x] = "bpf_" #x
	__BPF_FUNC_MAPPER(__BPF_FUNC_NAME)
#undef __BPF_FUNC_NAME
};

static const char *func_id_name(s32 id)
{
	if (id >= 0 && (u32)id < ARRAY_SIZE(func_id_names) && func_id_names[id])
		return func_id_names[id];
	return "bpf_unknown";
}

static __printf(2, 3) void verbose(struct bpf_verifier_env *env, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!env->log || env->log_len + 1 >= env->log_size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(env->log + env->log_len, env->log_size - env->log_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		env->log_len = min_t(u32, env->log_len + n, env->log_size - 1);
}

#define vinsn(env, idx, fmt, ...)	verbose(env, "insn %u: " fmt "\n", (u32)(idx), ##__VA_ARGS__)

/* ---- pass 1: instruction fields, ld_imm64, subprograms, CFG ------------- */

static bool is_ldimm64(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

static bool bad_reg(const struct bpf_insn *insn)
{
	return insn->dst_reg >= MAX_BPF_REG || insn->src_reg >= MAX_BPF_REG;
}

static int check_alu_fields(struct bpf_verifier_env *env, u32 i, const struct bpf_insn *insn)
{
	u8 op = BPF_OP(insn->code);
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	bool x = BPF_SRC(insn->code) == BPF_X;

	switch (op) {
	case BPF_NEG:
		if (x || insn->src_reg || insn->off || insn->imm) {
			vinsn(env, i, "BPF_NEG uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_END:
		if (insn->src_reg || insn->off ||
		    (insn->imm != 16 && insn->imm != 32 && insn->imm != 64) ||
		    (is64 && x)) {
			vinsn(env, i, "BPF_END uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_MOV:
		if (x) {
			bool off_ok = insn->off == 0 || insn->off == 8 || insn->off == 16 ||
				      (is64 && insn->off == 32);

			if (insn->imm || !off_ok) {
				vinsn(env, i, "BPF_MOV uses reserved fields");
				return -EINVAL;
			}
		} else if (insn->src_reg || insn->off) {
			vinsn(env, i, "BPF_MOV uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND:
	case BPF_LSH: case BPF_RSH: case BPF_XOR: case BPF_ARSH:
	case BPF_DIV: case BPF_MOD:
		if ((insn->off != 0 && !((op == BPF_DIV || op == BPF_MOD) && insn->off == 1)) ||
		    (x ? insn->imm != 0 : insn->src_reg != 0)) {
			vinsn(env, i, "BPF_ALU uses reserved fields");
			return -EINVAL;
		}
		if (!x && (op == BPF_DIV || op == BPF_MOD) && insn->imm == 0) {
			vinsn(env, i, "div by zero");
			return -EINVAL;
		}
		if (!x && (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
		    (u32)insn->imm >= (is64 ? 64u : 32u)) {
			vinsn(env, i, "invalid shift %d", insn->imm);
			return -EINVAL;
		}
		return 0;
	default:
		vinsn(env, i, "invalid BPF_ALU opcode %x", op);
		return -EINVAL;
	}
}

static int check_jmp_fields(struct bpf_verifier_env *env, u32 i, const struct bpf_insn *insn)
{
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	bool x = BPF_SRC(insn->code) == BPF_X;
	u8 op = BPF_OP(insn->code);

	switch (op) {
	case BPF_JA:
		if (x || insn->src_reg || insn->dst_reg || (is32 ? insn->off : insn->imm)) {
			vinsn(env, i, "BPF_JA uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_CALL:
		if (is32)
			break;
		if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			vinsn(env, i, "kernel function calls (kfuncs) are not supported");
			return -EINVAL;
		}
		if (x || insn->off || insn->dst_reg ||
		    (insn->src_reg != 0 && insn->src_reg != BPF_PSEUDO_CALL)) {
			vinsn(env, i, "BPF_CALL uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_EXIT:
		if (is32)
			break;
		if (x || insn->imm || insn->src_reg || insn->dst_reg || insn->off) {
			vinsn(env, i, "BPF_EXIT uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_JCOND:
		if (is32)
			break;
		if (x || insn->src_reg != BPF_MAY_GOTO || insn->dst_reg || insn->imm) {
			vinsn(env, i, "invalid may_goto imm %d", insn->imm);
			return -EINVAL;
		}
		return 0;
	case BPF_JEQ: case BPF_JGT: case BPF_JGE: case BPF_JSET: case BPF_JNE:
	case BPF_JSGT: case BPF_JSGE: case BPF_JLT: case BPF_JLE: case BPF_JSLT:
	case BPF_JSLE:
		if (x ? insn->imm != 0 : insn->src_reg != 0) {
			vinsn(env, i, "BPF_JMP/JMP32 uses reserved fields");
			return -EINVAL;
		}
		return 0;
	}
	vinsn(env, i, "unknown opcode %02x", insn->code);
	return -EINVAL;
}

static int check_mem_fields(struct bpf_verifier_env *env, u32 i, const struct bpf_insn *insn)
{
	u8 mode = BPF_MODE(insn->code);
	u8 size = BPF_SIZE(insn->code);

	switch (BPF_CLASS(insn->code)) {
	case BPF_LDX:
		if ((mode != BPF_MEM && mode != BPF_MEMSX) || insn->imm ||
		    (mode == BPF_MEMSX && size == BPF_DW)) {
			vinsn(env, i, "BPF_LDX uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_ST:
		if (mode != BPF_MEM || insn->src_reg) {
			vinsn(env, i, "BPF_ST uses reserved fields");
			return -EINVAL;
		}
		return 0;
	case BPF_STX:
		if (mode == BPF_MEM) {
			if (insn->imm) {
				vinsn(env, i, "BPF_STX uses reserved fields");
				return -EINVAL;
			}
			return 0;
		}
		if (mode == BPF_ATOMIC) {
			switch (insn->imm) {
			case BPF_ADD: case BPF_ADD | BPF_FETCH:
			case BPF_AND: case BPF_AND | BPF_FETCH:
			case BPF_OR: case BPF_OR | BPF_FETCH:
			case BPF_XOR: case BPF_XOR | BPF_FETCH:
			case BPF_XCHG: case BPF_CMPXCHG:
				if (size != BPF_W && size != BPF_DW) {
					vinsn(env, i, "invalid atomic operand size");
					return -EINVAL;
				}
				return 0;
			case BPF_LOAD_ACQ: case BPF_STORE_REL:
				if (size != BPF_W && size != BPF_DW) {
					vinsn(env, i, "invalid atomic operand size");
					return -EINVAL;
				}
				return 0;
			}
			vinsn(env, i, "BPF_ATOMIC uses invalid atomic opcode %02x", insn->imm);
			return -EINVAL;
		}
		vinsn(env, i, "BPF_STX uses reserved fields");
		return -EINVAL;
	}
	return -EINVAL;
}

static int add_used_map(struct bpf_verifier_env *env, struct bpf_map *map)
{
	struct bpf_prog_aux *aux = env->prog->aux;
	struct bpf_map **maps;
	u32 i;

	for (i = 0; i < aux->used_map_cnt; i++)
		if (aux->used_maps[i] == map)
			return 0;
	if (aux->used_map_cnt >= 64) {
		verbose(env, "too many maps used by the program (max 64)\n");
		return -E2BIG;
	}
	maps = realloc(aux->used_maps, (aux->used_map_cnt + 1) * sizeof(*maps));
	if (!maps)
		return -ENOMEM;
	bpf_map_inc(map);
	maps[aux->used_map_cnt++] = map;
	aux->used_maps = maps;
	return 0;
}

static int used_map_idx(struct bpf_verifier_env *env, const struct bpf_map *map)
{
	struct bpf_prog_aux *aux = env->prog->aux;
	u32 i;

	for (i = 0; i < aux->used_map_cnt; i++)
		if (aux->used_maps[i] == map)
			return i;
	return -1;
}

static void ldimm_set(struct bpf_insn *insn, u64 val)
{
	insn[0].src_reg = 0;
	insn[0].imm = (s32)(u32)val;
	insn[1].imm = (s32)(u32)(val >> 32);
}

static int resolve_ldimm64(struct bpf_verifier_env *env, u32 i)
{
	struct bpf_insn *insn = &env->prog->insnsi[i];
	struct insn_aux *aux = &env->aux[i];
	struct bpf_map *map;
	u64 addr;
	int err;

	if (i + 1 >= env->prog->len || insn[1].code || insn[1].dst_reg ||
	    insn[1].src_reg || insn[1].off || insn->off) {
		vinsn(env, i, "invalid bpf_ld_imm64 insn");
		return -EINVAL;
	}
	env->aux[i + 1].is_ldimm_second = true;
	switch (insn->src_reg) {
	case 0:
		aux->ldimm_type = SCALAR_VALUE;
		return 0;
	case BPF_PSEUDO_FUNC:
		aux->ldimm_type = PTR_TO_FUNC;
		return 0;	/* resolved once subprograms are known */
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_VALUE:
		break;
	case BPF_PSEUDO_BTF_ID:
		vinsn(env, i, "ld_imm64 of a kernel variable (BPF_PSEUDO_BTF_ID) is not supported");
		return -EINVAL;
	case BPF_PSEUDO_MAP_IDX:
	case BPF_PSEUDO_MAP_IDX_VALUE:
		vinsn(env, i, "ld_imm64 with fd_array map index is not supported");
		return -EINVAL;
	default:
		vinsn(env, i, "unrecognized bpf_ld_imm64 insn");
		return -EINVAL;
	}
	map = bpf_map_get((u32)insn->imm);
	if (!map) {
		vinsn(env, i, "fd %d is not pointing to valid bpf_map", insn->imm);
		return -EBADF;
	}
	err = add_used_map(env, map);
	if (err)
		return err;
	aux->map = map;
	if (insn->src_reg == BPF_PSEUDO_MAP_FD) {
		aux->ldimm_type = CONST_PTR_TO_MAP;
		ldimm_set(insn, (u64)(uintptr_t)map);
		return 0;
	}
	if (!map->ops || !map->ops->map_direct_value_addr) {
		vinsn(env, i, "no direct value access support for map %s", map->name);
		return -EINVAL;
	}
	if ((u32)insn[1].imm >= map->value_size) {
		vinsn(env, i, "invalid access to map value pointer, value_size=%u off=%u",
		      map->value_size, (u32)insn[1].imm);
		return -EINVAL;
	}
	err = map->ops->map_direct_value_addr(map, &addr, (u32)insn[1].imm);
	if (err) {
		vinsn(env, i, "direct value access on map %s failed", map->name);
		return err;
	}
	aux->ldimm_type = PTR_TO_MAP_VALUE;
	aux->ldimm_off = (u32)insn[1].imm;
	ldimm_set(insn, addr + (u32)insn[1].imm);
	return 0;
}

static int add_subprog(struct bpf_verifier_env *env, u32 start)
{
	u32 i;

	for (i = 0; i < env->subprog_cnt; i++)
		if (env->subprogs[i].start == start)
			return 0;
	if (env->subprog_cnt >= MAX_SUBPROGS) {
		verbose(env, "too many subprograms\n");
		return -E2BIG;
	}
	env->subprogs[env->subprog_cnt++].start = start;
	return 0;
}

static int cmp_subprog(const void *a, const void *b)
{
	const struct subprog_info *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static u32 find_subprog(struct bpf_verifier_env *env, u32 insn)
{
	u32 lo = 0, hi = env->subprog_cnt;

	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (env->subprogs[mid].start <= insn)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static bool has_jmp_target(const struct bpf_insn *insn)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_EXIT && op != BPF_CALL;
}

/* Jump target of insn @i (has_jmp_target() must hold). */
static s64 jmp_target(const struct bpf_insn *insn, u32 i)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	if (cls == BPF_JMP32 && op == BPF_JA)
		return (s64)i + insn->imm + 1;
	return (s64)i + insn->off + 1;
}

static int check_insns(struct bpf_verifier_env *env)
{
	struct bpf_insn *insns = env->prog->insnsi;
	u32 len = env->prog->len, i, s;
	int err;

	err = add_subprog(env, 0);
	for (i = 0; !err && i < len; i++) {
		struct bpf_insn *insn = &insns[i];

		if (env->aux[i].is_ldimm_second)
			continue;
		if (bad_reg(insn)) {
			vinsn(env, i, "R%d is invalid",
			      insn->dst_reg >= MAX_BPF_REG ? insn->dst_reg : insn->src_reg);
			return -EINVAL;
		}
		switch (BPF_CLASS(insn->code)) {
		case BPF_ALU:
		case BPF_ALU64:
			err = check_alu_fields(env, i, insn);
			break;
		case BPF_JMP:
		case BPF_JMP32:
			err = check_jmp_fields(env, i, insn);
			if (!err && insn->code == (BPF_JMP | BPF_CALL) &&
			    insn->src_reg == BPF_PSEUDO_CALL) {
				s64 t = (s64)i + insn->imm + 1;

				if (t < 0 || t >= len) {
					vinsn(env, i, "function call to insn %lld out of range",
					      (long long)t);
					return -EINVAL;
				}
				err = add_subprog(env, (u32)t);
			}
			break;
		case BPF_LD:
			if (BPF_MODE(insn->code) == BPF_ABS || BPF_MODE(insn->code) == BPF_IND) {
				vinsn(env, i, "BPF_LD_[ABS|IND] instructions not allowed for this program type");
				return -EINVAL;
			}
			if (!is_ldimm64(insn)) {
				vinsn(env, i, "unknown opcode %02x", insn->code);
				return -EINVAL;
			}
			err = resolve_ldimm64(env, i);
			if (!err && insn->src_reg == BPF_PSEUDO_FUNC) {
				s64 t = (s64)i + insn->imm + 1;

				if (t < 0 || t >= len) {
					vinsn(env, i, "function pointer to insn %lld out of range",
					      (long long)t);
					return -EINVAL;
				}
				err = add_subprog(env, (u32)t);
			}
			break;
		default:
			err = check_mem_fields(env, i, insn);
			break;
		}
	}
	if (err)
		return err;

	qsort(env->subprogs, env->subprog_cnt, sizeof(env->subprogs[0]), cmp_subprog);
	for (s = 0; s < env->subprog_cnt; s++) {
		env->subprogs[s].end = s + 1 < env->subprog_cnt ? env->subprogs[s + 1].start : len;
		if (env->aux[env->subprogs[s].start].is_ldimm_second) {
			vinsn(env, env->subprogs[s].start, "call into the middle of ldimm64");
			return -EINVAL;
		}
	}

	for (i = 0; i < len; i++) {
		struct bpf_insn *insn = &insns[i];
		struct subprog_info *sp = &env->subprogs[find_subprog(env, i)];
		s64 t;

		if (env->aux[i].is_ldimm_second)
			continue;
		if (has_jmp_target(insn)) {
			t = jmp_target(insn, i);
			if (t < sp->start || t >= sp->end) {
				vinsn(env, i, "jump out of range from insn %u to %lld", i, (long long)t);
				return -EINVAL;
			}
			if (env->aux[t].is_ldimm_second) {
				vinsn(env, i, "jump into the middle of ldimm64 insn %lld", (long long)t - 1);
				return -EINVAL;
			}
			env->aux[t].prune_point = true;
			if (BPF_OP(insn->code) != BPF_JA)
				env->aux[i + 1 < len ? i + 1 : i].prune_point = true;
		}
		if (insn->code == (BPF_JMP | BPF_CALL))
			env->aux[i + 1 < len ? i + 1 : i].prune_point = true;
		if (i + 1 == sp->end || (is_ldimm64(insn) && i + 2 == sp->end)) {
			u8 code = insn->code;

			if (code != (BPF_JMP | BPF_EXIT) && code != (BPF_JMP | BPF_JA) &&
			    code != (BPF_JMP32 | BPF_JA)) {
				vinsn(env, i, "last insn is not an exit or jmp");
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Depth-first reachability from every subprogram entry (kernel check_cfg). */
static int check_cfg(struct bpf_verifier_env *env)
{
	struct bpf_insn *insns = env->prog->insnsi;
	u32 len = env->prog->len, n = 0, i;
	u32 *todo;
	u8 *seen;

	todo = malloc(sizeof(*todo) * len);
	seen = calloc(len, 1);
	if (!todo || !seen) {
		free(todo);
		free(seen);
		return -ENOMEM;
	}
	todo[n++] = 0;
	seen[0] = 1;
	while (n) {
		u32 cur = todo[--n], next[2], k, cnt = 0;
		struct bpf_insn *insn = &insns[cur];
		s64 t = has_jmp_target(insn) ? jmp_target(insn, cur) : -1;

		if (insn->code == (BPF_JMP | BPF_EXIT))
			;
		else if (insn->code == (BPF_JMP | BPF_JA) || insn->code == (BPF_JMP32 | BPF_JA))
			next[cnt++] = (u32)t;
		else if (t >= 0) {
			next[cnt++] = (u32)t;
			next[cnt++] = cur + 1;
		} else {
			if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_CALL)
				next[cnt++] = cur + insn->imm + 1;
			if (is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC)
				next[cnt++] = cur + insn->imm + 1;
			next[cnt++] = cur + (is_ldimm64(insn) ? 2 : 1);
		}
		for (k = 0; k < cnt; k++) {
			if (next[k] < len && !seen[next[k]]) {
				seen[next[k]] = 1;
				todo[n++] = next[k];
			}
		}
	}
	for (i = 0; i < len; i++) {
		if (!seen[i] && !env->aux[i].is_ldimm_second) {
			vinsn(env, i, "unreachable insn %u", i);
			free(todo);
			free(seen);
			return -EINVAL;
		}
	}
	free(todo);
	free(seen);
	return 0;
}

/* ---- states ------------------------------------------------------------- */

static void free_vstate(struct vstate *st)
{
	u32 i;

	for (i = 0; i <= st->curframe && i < MAX_CALL_FRAMES; i++) {
		free(st->frame[i]);
		st->frame[i] = NULL;
	}
}

static int copy_vstate(struct vstate *dst, const struct vstate *src)
{
	u32 i;

	memset(dst, 0, sizeof(*dst));
	dst->curframe = src->curframe;
	for (i = 0; i <= src->curframe; i++) {
		dst->frame[i] = malloc(sizeof(struct func_state));
		if (!dst->frame[i]) {
			dst->curframe = i ? i - 1 : 0;
			if (i)
				free_vstate(dst);
			return -ENOMEM;
		}
		memcpy(dst->frame[i], src->frame[i], sizeof(struct func_state));
	}
	return 0;
}

static void mark_scalar(struct reg_state *r)
{
	memset(r, 0, sizeof(*r));
	r->type = SCALAR_VALUE;
	r->var = true;
}

static void mark_const(struct reg_state *r, u64 v)
{
	memset(r, 0, sizeof(*r));
	r->type = SCALAR_VALUE;
	r->off = (s64)v;
}

static bool is_ptr(const struct reg_state *r)
{
	return r->type != NOT_INIT && r->type != SCALAR_VALUE;
}

static bool is_pkt(u8 type)
{
	return type == PTR_TO_PACKET || type == PTR_TO_PACKET_META || type == PTR_TO_PACKET_END;
}

/*
 * ids (*_OR_NULL copies, ringbuf records) of two states correspond when
 * they map one to one: a null check then marks the same registers in both.
 */
struct idmap {
	u32 cnt;
	u32 old[64];
	u32 cur[64];
};

static bool check_ids(u32 o, u32 c, struct idmap *m)
{
	u32 i;

	if (!o || !c)
		return o == c;
	for (i = 0; i < m->cnt; i++) {
		if (m->old[i] == o)
			return m->cur[i] == c;
		if (m->cur[i] == c)
			return false;
	}
	if (m->cnt >= ARRAY_SIZE(m->old))
		return false;
	m->old[m->cnt] = o;
	m->cur[m->cnt++] = c;
	return true;
}

static bool reg_covers(const struct reg_state *o, const struct reg_state *n, struct idmap *m)
{
	if (o->type == NOT_INIT)
		return true;
	if (o->type != n->type)
		return false;
	if (o->type != SCALAR_VALUE &&
	    (o->frameno != n->frameno || o->map != n->map || o->mem_size != n->mem_size ||
	     !check_ids(o->id, n->id, m)))
		return false;
	if (o->var)
		return true;
	return !n->var && o->off == n->off;
}

static bool slot_covers(const struct stack_slot *o, const struct stack_slot *n, struct idmap *m)
{
	if ((o->init & n->init) != o->init)
		return false;
	if (o->spilled)
		return n->spilled && reg_covers(&o->spill, &n->spill, m);
	if (o->init && n->spilled && is_ptr(&n->spill))
		return false;
	return true;
}

static bool state_covers(const struct vstate *o, const struct vstate *n)
{
	struct idmap m = { 0 };
	u32 f, i;

	if (o->curframe != n->curframe)
		return false;
	for (f = 0; f <= o->curframe; f++) {
		const struct func_state *a = o->frame[f], *b = n->frame[f];

		if (a->callsite != b->callsite)
			return false;
		for (i = 0; i < MAX_BPF_REG; i++)
			if (!reg_covers(&a->regs[i], &b->regs[i], &m))
				return false;
		for (i = 0; i < STACK_SLOTS; i++)
			if (!slot_covers(&a->stack[i], &b->stack[i], &m))
				return false;
	}
	return true;
}

static void reg_join(struct reg_state *n, const struct reg_state *o, struct idmap *m)
{
	if (n->type == NOT_INIT || o->type == NOT_INIT)
		goto not_init;
	if (n->type != o->type)
		goto not_init;
	if (n->type != SCALAR_VALUE &&
	    (o->frameno != n->frameno || o->map != n->map || o->mem_size != n->mem_size ||
	     !check_ids(o->id, n->id, m)))
		goto not_init;
	if (o->var || n->var || o->off != n->off) {
		n->var = true;
		n->off = 0;
	}
	return;
not_init:
	memset(n, 0, sizeof(*n));
}

static void state_join(struct vstate *n, const struct vstate *o)
{
	struct idmap m = { 0 };
	u32 f, i;

	if (o->curframe != n->curframe)
		return;
	for (f = 0; f <= o->curframe; f++)
		if (o->frame[f]->callsite != n->frame[f]->callsite)
			return;
	for (f = 0; f <= o->curframe; f++) {
		struct func_state *a = n->frame[f];
		const struct func_state *b = o->frame[f];

		for (i = 0; i < MAX_BPF_REG; i++)
			reg_join(&a->regs[i], &b->regs[i], &m);
		for (i = 0; i < STACK_SLOTS; i++) {
			struct stack_slot *s = &a->stack[i];
			const struct stack_slot *t = &b->stack[i];

			s->init &= t->init;
			if (s->spilled && t->spilled) {
				reg_join(&s->spill, &t->spill, &m);
				if (s->spill.type == NOT_INIT)
					s->spilled = false;
			} else {
				s->spilled = false;
			}
			if (s->init != 0xff)
				s->spilled = false;
		}
	}
}

static int push_work(struct bpf_verifier_env *env, const struct vstate *st, u32 insn)
{
	struct stack_elem *e;
	int err;

	if (env->work_cnt == env->work_cap) {
		u32 cap = env->work_cap ? env->work_cap * 2 : 64;

		if (cap > 8192) {
			verbose(env, "BPF program is too complex (branch stack)\n");
			return -E2BIG;
		}
		e = realloc(env->work, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		env->work = e;
		env->work_cap = cap;
	}
	e = &env->work[env->work_cnt];
	err = copy_vstate(&e->st, st);
	if (err)
		return err;
	e->insn = insn;
	env->work_cnt++;
	return 0;
}

/*
 * At a prune point: true when a remembered state covers @st (stop this
 * path); else remember @st, widened when the point has seen many states.
 */
static int is_state_visited(struct bpf_verifier_env *env, struct vstate *st, u32 insn)
{
	struct insn_aux *aux = &env->aux[insn];
	struct state_list *sl;
	int err;

	for (sl = aux->states; sl; sl = sl->next)
		if (state_covers(&sl->st, st))
			return 1;
	if (aux->nr_states >= WIDEN_STATES) {
		for (sl = aux->states; sl; sl = sl->next)
			state_join(st, &sl->st);
		for (sl = aux->states; sl; sl = sl->next)
			if (state_covers(&sl->st, st))
				return 1;
	}
	if (aux->nr_states >= MAX_STATES)
		return 0;
	sl = malloc(sizeof(*sl));
	if (!sl)
		return -ENOMEM;
	err = copy_vstate(&sl->st, st);
	if (err) {
		free(sl);
		return err;
	}
	sl->next = aux->states;
	aux->states = sl;
	aux->nr_states++;
	return 0;
}

/* ---- register and memory checks ------------------------------------------ */

static struct func_state *cur_frame(struct vstate *st)
{
	return st->frame[st->curframe];
}

static int check_reg_read(struct bpf_verifier_env *env, struct vstate *st, u32 i, u32 regno)
{
	if (cur_frame(st)->regs[regno].type == NOT_INIT) {
		vinsn(env, i, "R%u !read_ok", regno);
		return -EACCES;
	}
	return 0;
}

static int check_reg_write(struct bpf_verifier_env *env, u32 i, u32 regno)
{
	if (regno == BPF_REG_10) {
		vinsn(env, i, "frame pointer is read only");
		return -EACCES;
	}
	return 0;
}

static void record_access(struct bpf_verifier_env *env, u32 i, enum access_kind kind, u32 region)
{
	struct insn_aux *aux = &env->aux[i];

	if (aux->access == ACC_NONE) {
		aux->access = kind;
		aux->region = region;
		return;
	}
	if (aux->region != region)
		aux->region = BPF_RGN(BPF_RGN_ANY, 0);
	if (kind == ACC_CHECKED)
		aux->access = ACC_CHECKED;
}

static int map_region(struct bpf_verifier_env *env, u32 i, const struct bpf_map *map, u32 *rgn)
{
	int idx = used_map_idx(env, map);

	if (idx < 0) {
		vinsn(env, i, "variable offset access into an inner map value is not supported");
		return -EACCES;
	}
	*rgn = BPF_RGN(BPF_RGN_MAP, idx);
	return 0;
}

static void invalidate_spills(struct func_state *fs)
{
	u32 s;

	for (s = 0; s < STACK_SLOTS; s++)
		fs->stack[s].spilled = false;
}

static void update_stack_depth(struct bpf_verifier_env *env, struct vstate *st, u32 frameno, s64 off)
{
	struct subprog_info *sp = &env->subprogs[st->frame[frameno]->subprog];

	if (-off > (s64)sp->stack_depth)
		sp->stack_depth = (u32)-off;
}

/*
 * Access of @size bytes at fp + @off of frame @fs. @val is the register
 * stored (NULL for a store of an immediate @imm or a load).
 */
static int check_stack_access(struct bpf_verifier_env *env, struct vstate *st, u32 i,
			      const struct reg_state *ptr, s64 off, u32 size, bool write,
			      const struct reg_state *val, bool imm_store, s64 imm,
			      struct reg_state *dst, bool sx)
{
	struct func_state *fs = st->frame[ptr->frameno];
	s64 a;
	u32 b;

	if (off < -MAX_BPF_STACK || off + size > 0) {
		vinsn(env, i, "invalid %s stack off=%lld size=%u", write ? "write to" : "read from",
		      (long long)off, size);
		return -EACCES;
	}
	if (off % size) {
		vinsn(env, i, "misaligned stack access off %lld size %u", (long long)off, size);
		return -EACCES;
	}
	update_stack_depth(env, st, ptr->frameno, off);
	if (write) {
		struct stack_slot *slot = &fs->stack[(-off - 1) / 8];

		if (val && is_ptr(val) && val->type == PTR_TO_STACK && val->frameno > ptr->frameno) {
			vinsn(env, i, "cannot spill pointers to stack into stack frame of the caller");
			return -EACCES;
		}
		if (size == 8 && (val || imm_store)) {
			slot->init = 0xff;
			slot->spilled = true;
			if (val)
				slot->spill = *val;
			else
				mark_const(&slot->spill, (u64)imm);
			return 0;
		}
		if (val && is_ptr(val)) {
			vinsn(env, i, "partial spill of a pointer at stack off=%lld", (long long)off);
			return -EACCES;
		}
		for (a = off; a < off + size; a++) {
			slot = &fs->stack[(-a - 1) / 8];
			b = (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));
			slot->init |= 1u << b;
			slot->spilled = false;
		}
		return 0;
	}
	for (a = off; a < off + size; a++) {
		struct stack_slot *slot = &fs->stack[(-a - 1) / 8];

		b = (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));
		if (!(slot->init & (1u << b))) {
			vinsn(env, i, "invalid read from stack off %lld+%lld size %u",
			      (long long)off, (long long)(a - off), size);
			return -EACCES;
		}
	}
	if (dst) {
		struct stack_slot *slot = &fs->stack[(-off - 1) / 8];

		if (size == 8 && slot->spilled && !sx)
			*dst = slot->spill;
		else
			mark_scalar(dst);
	}
	return 0;
}

/*
 * A load, store or atomic through register @ptr_regno at insn->off.
 * @dst receives the loaded value (loads only); @val is the stored register
 * (STX), NULL for ST.
 */
static int check_mem_access(struct bpf_verifier_env *env, struct vstate *st, u32 i,
			    u32 ptr_regno, u32 size, bool write, const struct reg_state *val,
			    struct reg_state *dst, bool sx, bool atomic)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct reg_state *ptr = &cur_frame(st)->regs[ptr_regno];
	s64 off = ptr->off + insn->off;
	u32 rgn;
	int err;

	if (write && val && is_ptr(val) && ptr->type != PTR_TO_STACK) {
		vinsn(env, i, "R%u leaks addr into %s", insn->src_reg, reg_type_str[ptr->type]);
		return -EACCES;
	}
	switch (ptr->type) {
	case NOT_INIT:
		vinsn(env, i, "R%u !read_ok", ptr_regno);
		return -EACCES;
	case PTR_TO_CTX:
		if (env->prog->type != BPF_PROG_TYPE_XDP) {
			vinsn(env, i, "invalid mem access 'ctx'");
			return -EACCES;
		}
		if (ptr->off || ptr->var) {
			vinsn(env, i, "dereference of modified ctx ptr R%u off=%lld disallowed",
			      ptr_regno, (long long)ptr->off);
			return -EACCES;
		}
		if (write || atomic || sx || size != 4 || insn->off < 0 || insn->off % 4 ||
		    insn->off >= (s16)sizeof(struct xdp_md) ||
		    (insn->off == offsetof(struct xdp_md, egress_ifindex) &&
		     env->prog->expected_attach_type != BPF_XDP_DEVMAP)) {
			vinsn(env, i, "invalid bpf_context access off=%d size=%u", insn->off, size);
			return -EACCES;
		}
		if (env->aux[i].access != ACC_NONE &&
		    (env->aux[i].access != ACC_CTX || env->aux[i].ctx_field != insn->off)) {
			vinsn(env, i, "same insn cannot be used with different pointers");
			return -EINVAL;
		}
		env->aux[i].access = ACC_CTX;
		env->aux[i].ctx_field = insn->off;
		switch (insn->off) {
		case offsetof(struct xdp_md, data):
			memset(dst, 0, sizeof(*dst));
			dst->type = PTR_TO_PACKET;
			break;
		case offsetof(struct xdp_md, data_end):
			memset(dst, 0, sizeof(*dst));
			dst->type = PTR_TO_PACKET_END;
			break;
		case offsetof(struct xdp_md, data_meta):
			memset(dst, 0, sizeof(*dst));
			dst->type = PTR_TO_PACKET_META;
			break;
		default:
			mark_scalar(dst);
		}
		return 0;
	case PTR_TO_STACK:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		if (atomic) {
			struct func_state *fs = st->frame[ptr->frameno];

			if (!ptr->var && off >= -MAX_BPF_STACK && off + size <= 0 &&
			    fs->stack[(-off - 1) / 8].spilled &&
			    is_ptr(&fs->stack[(-off - 1) / 8].spill)) {
				vinsn(env, i, "BPF_ATOMIC on a spilled pointer is not allowed");
				return -EACCES;
			}
		}
		if (ptr->var) {
			/* run-time checked against the whole stack */
			record_access(env, i, ACC_CHECKED, BPF_RGN(BPF_RGN_STACK, 0));
			env->zero_stack = true;
			if (write) {
				if (val && is_ptr(val)) {
					vinsn(env, i, "R%u variable-offset spill of a pointer", insn->src_reg);
					return -EACCES;
				}
				invalidate_spills(st->frame[ptr->frameno]);
			}
			if (dst)
				mark_scalar(dst);
			return 0;
		}
		if (atomic) {
			err = check_stack_access(env, st, i, ptr, off, size, false, NULL, false,
						 0, NULL, false);
			if (err)
				return err;
			err = check_stack_access(env, st, i, ptr, off, size, true, NULL, false, 0,
						 NULL, false);
			if (dst)
				mark_scalar(dst);
		} else {
			err = check_stack_access(env, st, i, ptr, off, size, write, val,
						 write && !val, insn->imm, dst, sx);
		}
		if (err)
			return err;
		record_access(env, i, ACC_PROVEN, BPF_RGN(BPF_RGN_STACK, 0));
		return 0;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		if (atomic) {
			vinsn(env, i, "BPF_ATOMIC stores into R%u pkt is not allowed", ptr_regno);
			return -EACCES;
		}
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		record_access(env, i, ACC_CHECKED, BPF_RGN(BPF_RGN_PKT, 0));
		if (dst)
			mark_scalar(dst);
		return 0;
	case PTR_TO_MAP_VALUE:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		if (write && (ptr->map->rdonly_prog || (ptr->map->map_flags & BPF_F_RDONLY_PROG))) {
			vinsn(env, i, "write into map forbidden, value_size=%u off=%lld size=%u",
			      ptr->map->value_size, (long long)off, size);
			return -EACCES;
		}
		if (ptr->var || (atomic && off % size)) {
			err = map_region(env, i, ptr->map, &rgn);
			if (err)
				return err;
			record_access(env, i, ACC_CHECKED, rgn);
		} else {
			if (off < 0 || off + size > ptr->map->value_size) {
				vinsn(env, i, "invalid access to map value, value_size=%u off=%lld size=%u",
				      ptr->map->value_size, (long long)off, size);
				return -EACCES;
			}
			rgn = BPF_RGN(BPF_RGN_MAP, 0);
			if (used_map_idx(env, ptr->map) >= 0)
				rgn = BPF_RGN(BPF_RGN_MAP, used_map_idx(env, ptr->map));
			record_access(env, i, ACC_PROVEN, rgn);
		}
		if (dst)
			mark_scalar(dst);
		return 0;
	case PTR_TO_ALLOC_MEM:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		if (ptr->var || (atomic && off % size)) {
			err = map_region(env, i, ptr->map, &rgn);
			if (err)
				return err;
			record_access(env, i, ACC_CHECKED, rgn);
		} else {
			if (off < 0 || off + size > ptr->mem_size) {
				vinsn(env, i, "invalid access to memory, mem_size=%u off=%lld size=%u",
				      ptr->mem_size, (long long)off, size);
				return -EACCES;
			}
			record_access(env, i, ACC_PROVEN, BPF_RGN(BPF_RGN_MAP, 0));
		}
		if (dst)
			mark_scalar(dst);
		return 0;
	case PTR_TO_MEM:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		record_access(env, i, ACC_CHECKED, BPF_RGN(BPF_RGN_MEM, 0));
		if (dst)
			mark_scalar(dst);
		return 0;
	default:
		vinsn(env, i, "R%u invalid mem access '%s'", ptr_regno, reg_type_str[ptr->type]);
		return -EACCES;
	}
mixed:
	vinsn(env, i, "same insn cannot be used with different pointers");
	return -EINVAL;
}

/* ---- ALU ----------------------------------------------------------------- */

/* Constant folding with the interpreter's semantics. */
static u64 alu_eval(u8 code, s16 off, s32 imm, u64 d, u64 s)
{
	bool is64 = BPF_CLASS(code) == BPF_ALU64;
	u32 d32 = (u32)d, s32v = (u32)s;

	if (!is64) {
		switch (BPF_OP(code)) {
		case BPF_ADD: return (u32)(d32 + s32v);
		case BPF_SUB: return (u32)(d32 - s32v);
		case BPF_MUL: return (u32)(d32 * s32v);
		case BPF_OR: return d32 | s32v;
		case BPF_AND: return d32 & s32v;
		case BPF_XOR: return d32 ^ s32v;
		case BPF_LSH: return (u32)(d32 << (s32v & 31));
		case BPF_RSH: return d32 >> (s32v & 31);
		case BPF_ARSH: return (u32)((s32)d32 >> (s32v & 31));
		case BPF_NEG: return (u32)-d32;
		case BPF_MOV:
			return off == 8 ? (u32)(s32)(s8)s : off == 16 ? (u32)(s32)(s16)s : s32v;
		case BPF_DIV:
			if (!s32v)
				return 0;
			if (off)
				return (s32)s32v == -1 ? (u32)-d32 : (u32)((s32)d32 / (s32)s32v);
			return d32 / s32v;
		case BPF_MOD:
			if (!s32v)
				return d32;
			if (off)
				return (s32)s32v == -1 ? 0 : (u32)((s32)d32 % (s32)s32v);
			return d32 % s32v;
		case BPF_END:
			if (BPF_SRC(code) == BPF_TO_LE)
				return imm == 16 ? (u16)d : imm == 32 ? (u32)d : d;
			return imm == 16 ? __builtin_bswap16((u16)d) :
			       imm == 32 ? __builtin_bswap32((u32)d) : __builtin_bswap64(d);
		}
		return 0;
	}
	switch (BPF_OP(code)) {
	case BPF_ADD: return d + s;
	case BPF_SUB: return d - s;
	case BPF_MUL: return d * s;
	case BPF_OR: return d | s;
	case BPF_AND: return d & s;
	case BPF_XOR: return d ^ s;
	case BPF_LSH: return d << (s & 63);
	case BPF_RSH: return d >> (s & 63);
	case BPF_ARSH: return (u64)((s64)d >> (s & 63));
	case BPF_NEG: return -d;
	case BPF_MOV:
		return off == 8 ? (u64)(s8)s : off == 16 ? (u64)(s16)s :
		       off == 32 ? (u64)(s32)s : s;
	case BPF_DIV:
		if (!s)
			return 0;
		if (off)
			return (s64)s == -1 ? -d : (u64)((s64)d / (s64)s);
		return d / s;
	case BPF_MOD:
		if (!s)
			return d;
		if (off)
			return (s64)s == -1 ? 0 : (u64)((s64)d % (s64)s);
		return d % s;
	case BPF_END:
		return imm == 16 ? __builtin_bswap16((u16)d) :
		       imm == 32 ? __builtin_bswap32((u32)d) : __builtin_bswap64(d);
	}
	return 0;
}

static int check_alu(struct bpf_verifier_env *env, struct vstate *st, u32 i)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct func_state *fs = cur_frame(st);
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	u8 op = BPF_OP(insn->code);
	/* END's source bit is the byte order, not a register */
	bool x = BPF_SRC(insn->code) == BPF_X && op != BPF_END;
	struct reg_state *dst = &fs->regs[insn->dst_reg];
	struct reg_state src;
	int err;

	err = check_reg_write(env, i, insn->dst_reg);
	if (err)
		return err;
	if (x) {
		err = check_reg_read(env, st, i, insn->src_reg);
		if (err)
			return err;
		src = fs->regs[insn->src_reg];
	} else {
		mark_const(&src, is64 ? (u64)(s64)insn->imm : (u64)(u32)insn->imm);
	}

	if (op == BPF_MOV) {
		if (x && is_ptr(&src) && (!is64 || insn->off)) {
			mark_scalar(dst);	/* partial copy of a pointer */
			return 0;
		}
		if (x && !insn->off && is64) {
			*dst = src;
			return 0;
		}
		if (src.var)
			mark_scalar(dst);
		else
			mark_const(dst, alu_eval(insn->code, insn->off, insn->imm, 0, (u64)src.off));
		return 0;
	}

	err = check_reg_read(env, st, i, insn->dst_reg);
	if (err)
		return err;

	if (is_ptr(dst) || is_ptr(&src)) {
		struct reg_state *ptr = is_ptr(dst) ? dst : &src;
		const struct reg_state *scal = is_ptr(dst) ? &src : dst;

		if (is_ptr(dst) && is_ptr(&src)) {
			/* the kernel (privileged) turns any pointer difference,
			 * 32- or 64-bit, into an unknown scalar */
			if (op == BPF_SUB) {
				mark_scalar(dst);
				return 0;
			}
			vinsn(env, i, "R%u pointer %s pointer prohibited", insn->dst_reg,
			      op == BPF_SUB ? "-=" : "op");
			return -EACCES;
		}
		if (!is64) {
			/* 32-bit SUB yields a meaningless scalar (privileged kernel) */
			if (op == BPF_SUB) {
				mark_scalar(dst);
				return 0;
			}
			vinsn(env, i, "R%u 32-bit pointer arithmetic prohibited", insn->dst_reg);
			return -EACCES;
		}
		if (op == BPF_SUB && !is_ptr(dst)) {
			vinsn(env, i, "R%u tried to subtract pointer from scalar", insn->dst_reg);
			return -EACCES;
		}
		if (op != BPF_ADD && op != BPF_SUB) {
			vinsn(env, i, "R%u pointer arithmetic with this operator prohibited",
			      insn->dst_reg);
			return -EACCES;
		}
		switch (ptr->type) {
		case PTR_TO_CTX:
		case PTR_TO_STACK:
		case PTR_TO_PACKET:
		case PTR_TO_PACKET_META:
		case PTR_TO_MAP_VALUE:
		case PTR_TO_MEM:
		case PTR_TO_ALLOC_MEM:
			break;
		default:
			vinsn(env, i, "R%u pointer arithmetic on %s prohibited%s", insn->dst_reg,
			      reg_type_str[ptr->type],
			      ptr->type == PTR_TO_MAP_VALUE_OR_NULL ? ", null-check it first" : "");
			return -EACCES;
		}
		{
			struct reg_state res = *ptr;

			if (scal->var || res.var) {
				res.var = true;
				res.off = 0;
			} else {
				res.off = op == BPF_ADD ? res.off + scal->off : res.off - scal->off;
				if (res.off > (1 << 29) || res.off < -(1 << 29)) {
					vinsn(env, i, "R%u pointer offset %lld is not allowed",
					      insn->dst_reg, (long long)res.off);
					return -EACCES;
				}
			}
			*dst = res;
		}
		return 0;
	}

	if (dst->var || src.var)
		mark_scalar(dst);
	else
		mark_const(dst, alu_eval(insn->code, insn->off, insn->imm, (u64)dst->off,
					 (u64)src.off));
	return 0;
}

/* ---- jumps --------------------------------------------------------------- */

/* 1 taken, 0 not taken, -1 unknown */
static int cond_eval(u8 op, bool is32, u64 a, u64 b)
{
	if (is32) {
		a = (u32)a;
		b = (u32)b;
		switch (op) {
		case BPF_JSGT: return (s32)a > (s32)b;
		case BPF_JSGE: return (s32)a >= (s32)b;
		case BPF_JSLT: return (s32)a < (s32)b;
		case BPF_JSLE: return (s32)a <= (s32)b;
		}
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return !!(a & b);
	case BPF_JSGT: return (s64)a > (s64)b;
	case BPF_JSGE: return (s64)a >= (s64)b;
	case BPF_JSLT: return (s64)a < (s64)b;
	case BPF_JSLE: return (s64)a <= (s64)b;
	}
	return -1;
}

static void mark_id(struct vstate *st, u32 id, bool is_null)
{
	u32 f, i;

	for (f = 0; f <= st->curframe; f++) {
		struct func_state *fs = st->frame[f];

		for (i = 0; i < MAX_BPF_REG + STACK_SLOTS; i++) {
			struct reg_state *r;

			if (i < MAX_BPF_REG) {
				r = &fs->regs[i];
			} else {
				if (!fs->stack[i - MAX_BPF_REG].spilled)
					continue;
				r = &fs->stack[i - MAX_BPF_REG].spill;
			}
			if (r->id != id || !r->id)
				continue;
			if (is_null) {
				mark_const(r, 0);
				continue;
			}
			if (r->type == PTR_TO_MAP_VALUE_OR_NULL)
				r->type = PTR_TO_MAP_VALUE;
			else if (r->type == CONST_PTR_TO_MAP_OR_NULL)
				r->type = CONST_PTR_TO_MAP;
			else if (r->type == PTR_TO_ALLOC_MEM_OR_NULL)
				r->type = PTR_TO_ALLOC_MEM;
			else
				continue;
			if (r->type != PTR_TO_ALLOC_MEM)
				r->id = 0;
		}
	}
}

static bool is_or_null(u8 type)
{
	return type == PTR_TO_MAP_VALUE_OR_NULL || type == CONST_PTR_TO_MAP_OR_NULL ||
	       type == PTR_TO_ALLOC_MEM_OR_NULL;
}

/*
 * Conditional jump: decides the branch when it can, pushes the other one.
 * Returns the next insn of the current path, or a negative errno.
 */
static s64 check_cond_jmp(struct bpf_verifier_env *env, struct vstate *st, u32 i)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct func_state *fs = cur_frame(st);
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	bool x = BPF_SRC(insn->code) == BPF_X;
	u8 op = BPF_OP(insn->code);
	u32 target = (u32)jmp_target(insn, i);
	struct reg_state *dst = &fs->regs[insn->dst_reg];
	struct reg_state src;
	int taken = -1, err;

	if (op == BPF_JCOND) {
		err = push_work(env, st, target);
		return err ? err : i + 1;
	}
	err = check_reg_read(env, st, i, insn->dst_reg);
	if (err)
		return err;
	if (x) {
		err = check_reg_read(env, st, i, insn->src_reg);
		if (err)
			return err;
		src = fs->regs[insn->src_reg];
	} else {
		mark_const(&src, is32 ? (u64)(u32)insn->imm : (u64)(s64)insn->imm);
	}

	if (dst->type == SCALAR_VALUE && src.type == SCALAR_VALUE && !dst->var && !src.var)
		taken = cond_eval(op, is32, (u64)dst->off, (u64)src.off);

	/* null checks: ptr_or_null ==/!= 0 */
	if (!is32 && (op == BPF_JEQ || op == BPF_JNE) && src.type == SCALAR_VALUE &&
	    !src.var && src.off == 0 && is_or_null(dst->type) && dst->id) {
		struct vstate other;
		u32 id = dst->id;

		err = copy_vstate(&other, st);
		if (err)
			return err;
		/* the taken branch of JEQ sees NULL */
		mark_id(&other, id, op == BPF_JEQ);
		mark_id(st, id, op != BPF_JEQ);
		err = push_work(env, &other, target);
		free_vstate(&other);
		return err ? err : i + 1;
	}
	/* a pointer that cannot be NULL compared with 0 */
	if ((op == BPF_JEQ || op == BPF_JNE) && src.type == SCALAR_VALUE && !src.var &&
	    src.off == 0 && is_ptr(dst) && !is_or_null(dst->type) && !dst->var &&
	    dst->type != PTR_TO_CTX && !is32)
		taken = op == BPF_JNE;

	if (taken == 1)
		return target;
	if (taken == 0)
		return i + 1;
	err = push_work(env, st, target);
	return err ? err : i + 1;
}

/* ---- calls --------------------------------------------------------------- */

static void clear_caller_saved(struct func_state *fs)
{
	u32 r;

	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		memset(&fs->regs[r], 0, sizeof(fs->regs[r]));
}

static void clear_pkt_pointers(struct vstate *st)
{
	u32 f, i;

	for (f = 0; f <= st->curframe; f++) {
		struct func_state *fs = st->frame[f];

		for (i = 0; i < MAX_BPF_REG; i++)
			if (is_pkt(fs->regs[i].type))
				mark_scalar(&fs->regs[i]);
		for (i = 0; i < STACK_SLOTS; i++)
			if (fs->stack[i].spilled && is_pkt(fs->stack[i].spill.type))
				mark_scalar(&fs->stack[i].spill);
	}
}

/*
 * A helper's pointer argument @regno must give @size readable (or, with
 * @write, writable) bytes; @size_reg is the register holding the size when
 * it is not constant (0 otherwise). Records a run-time check when needed.
 */
static int check_helper_mem(struct bpf_verifier_env *env, struct vstate *st, u32 i, u32 arg,
			    u32 regno, u32 size, u32 size_reg, bool size_known, bool write,
			    bool or_null)
{
	struct reg_state *r = &cur_frame(st)->regs[regno];
	struct insn_aux *aux = &env->aux[i];
	u32 rgn = 0;
	int err;

	if (or_null && r->type == SCALAR_VALUE && !r->var && r->off == 0)
		return 0;
	if (size_known && !size)
		return 0;
	switch (r->type) {
	case PTR_TO_STACK:
		if (!r->var && size_known) {
			s64 off = r->off, a;
			struct func_state *fs = st->frame[r->frameno];

			if (off < -MAX_BPF_STACK || off + size > 0) {
				vinsn(env, i, "invalid indirect access to stack R%u off=%lld size=%u",
				      regno, (long long)off, size);
				return -EACCES;
			}
			update_stack_depth(env, st, r->frameno, off);
			for (a = off; a < off + size; a++) {
				struct stack_slot *slot = &fs->stack[(-a - 1) / 8];
				u32 b = (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));

				if (write) {
					slot->init |= 1u << b;
					slot->spilled = false;
				} else if (!(slot->init & (1u << b))) {
					vinsn(env, i, "invalid indirect read from stack R%u off %lld+%lld size %u",
					      regno, (long long)off, (long long)(a - off), size);
					return -EACCES;
				}
			}
			return 0;
		}
		env->zero_stack = true;
		if (write)
			invalidate_spills(st->frame[r->frameno]);
		if (!r->var && !size_known) {
			struct func_state *fs = st->frame[r->frameno];
			s64 a;

			/* unknown size: whatever it touches is below fp */
			if (r->off >= 0 || r->off < -MAX_BPF_STACK) {
				vinsn(env, i, "invalid indirect access to stack R%u off=%lld",
				      regno, (long long)r->off);
				return -EACCES;
			}
			update_stack_depth(env, st, r->frameno, r->off);
			if (write)
				for (a = r->off; a < 0; a++)
					fs->stack[(-a - 1) / 8].init |=
						1u << (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));
		}
		rgn = BPF_RGN(BPF_RGN_STACK, 0);
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		rgn = BPF_RGN(BPF_RGN_PKT, 0);
		break;
	case PTR_TO_MAP_VALUE:
		if (write && (r->map->rdonly_prog || (r->map->map_flags & BPF_F_RDONLY_PROG))) {
			vinsn(env, i, "write into map forbidden");
			return -EACCES;
		}
		if (!r->var && size_known) {
			if (r->off < 0 || r->off + size > r->map->value_size) {
				vinsn(env, i, "invalid access to map value, value_size=%u off=%lld size=%u",
				      r->map->value_size, (long long)r->off, size);
				return -EACCES;
			}
			return 0;
		}
		err = map_region(env, i, r->map, &rgn);
		if (err)
			return err;
		break;
	case PTR_TO_ALLOC_MEM:
		if (!r->var && size_known) {
			if (r->off < 0 || r->off + size > r->mem_size) {
				vinsn(env, i, "invalid access to memory, mem_size=%u off=%lld size=%u",
				      r->mem_size, (long long)r->off, size);
				return -EACCES;
			}
			return 0;
		}
		err = map_region(env, i, r->map, &rgn);
		if (err)
			return err;
		break;
	case PTR_TO_MEM:
		rgn = BPF_RGN(BPF_RGN_MEM, 0);
		break;
	case NOT_INIT:
		vinsn(env, i, "R%u !read_ok", regno);
		return -EACCES;
	default:
		vinsn(env, i, "R%u type=%s expected=fp, pkt, pkt_meta, map_value", regno,
		      reg_type_str[r->type]);
		return -EACCES;
	}
	if (aux->arg_check[arg] && aux->arg_region[arg] != rgn)
		rgn = BPF_RGN(BPF_RGN_ANY, 0);
	aux->arg_check[arg] = true;
	aux->arg_region[arg] = rgn;
	aux->arg_or_null[arg] = aux->arg_or_null[arg] || or_null;
	aux->arg_size_reg[arg] = (u8)size_reg;
	aux->arg_size[arg] = size;
	return 0;
}

static int check_helper_call(struct bpf_verifier_env *env, struct vstate *st, u32 i)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct func_state *fs = cur_frame(st);
	const struct bpf_func_proto *fn = NULL;
	struct bpf_map *map = NULL;
	struct reg_state *r0;
	u32 alloc_size = 0;
	u32 a, regno;
	int err;

	if (env->get_proto)
		fn = env->get_proto(insn->imm);
	if (insn->imm == BPF_FUNC_tail_call && env->prog->type == BPF_PROG_TYPE_XDP) {
		/* patched to BPF_TAIL_CALL; no proto needed */
		struct reg_state *r2 = &fs->regs[BPF_REG_2];

		for (regno = BPF_REG_1; regno <= BPF_REG_3; regno++) {
			err = check_reg_read(env, st, i, regno);
			if (err)
				return err;
		}
		if (fs->regs[BPF_REG_1].type != PTR_TO_CTX || fs->regs[BPF_REG_1].off) {
			vinsn(env, i, "R1 type=%s expected=ctx",
			      reg_type_str[fs->regs[BPF_REG_1].type]);
			return -EACCES;
		}
		if (r2->type != CONST_PTR_TO_MAP || r2->map->map_type != BPF_MAP_TYPE_PROG_ARRAY) {
			vinsn(env, i, "R2 type=%s expected=map_ptr of a prog array",
			      reg_type_str[r2->type]);
			return -EACCES;
		}
		if (fs->regs[BPF_REG_3].type != SCALAR_VALUE) {
			vinsn(env, i, "R3 type=%s expected=scalar", reg_type_str[fs->regs[BPF_REG_3].type]);
			return -EACCES;
		}
		env->subprogs[fs->subprog].has_tail_call = true;
		clear_caller_saved(fs);
		mark_scalar(&fs->regs[BPF_REG_0]);
		env->aux[i].call_seen = true;
		return 0;
	}
	if (!fn || !fn->func) {
		vinsn(env, i, "unknown func %s#%d", func_id_name(insn->imm), insn->imm);
		return -EINVAL;
	}

	for (a = 0; a < 5; a++) {
		enum bpf_arg_type t = fn->arg_type[a];
		struct reg_state *r;

		regno = BPF_REG_1 + a;
		r = &fs->regs[regno];
		if (t == ARG_DONTCARE)
			continue;
		err = check_reg_read(env, st, i, regno);
		if (err)
			return err;
		switch (t) {
		case ARG_CONST_MAP_PTR:
			if (r->type != CONST_PTR_TO_MAP) {
				vinsn(env, i, "R%u type=%s expected=map_ptr", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			map = r->map;
			break;
		case ARG_PTR_TO_MAP_KEY:
		case ARG_PTR_TO_MAP_VALUE:
		case ARG_PTR_TO_UNINIT_MAP_VALUE:
			if (!map) {
				vinsn(env, i, "invalid map_ptr to access map->%s",
				      t == ARG_PTR_TO_MAP_KEY ? "key" : "value");
				return -EACCES;
			}
			err = check_helper_mem(env, st, i, a, regno,
					       t == ARG_PTR_TO_MAP_KEY ? map->key_size : map->value_size,
					       0, true, t == ARG_PTR_TO_UNINIT_MAP_VALUE, false);
			if (err)
				return err;
			break;
		case ARG_PTR_TO_MEM:
		case ARG_PTR_TO_UNINIT_MEM:
		case ARG_PTR_TO_MEM_OR_NULL: {
			struct reg_state *sz = &fs->regs[regno + 1];
			enum bpf_arg_type st_t = a < 4 ? fn->arg_type[a + 1] : ARG_DONTCARE;

			if (st_t != ARG_CONST_SIZE && st_t != ARG_CONST_SIZE_OR_ZERO) {
				/* fixed-size memory the helper knows (e.g. fib params) */
				if (!is_ptr(r) && !(t == ARG_PTR_TO_MEM_OR_NULL && !r->var && !r->off)) {
					vinsn(env, i, "R%u type=%s expected=pointer", regno,
					      reg_type_str[r->type]);
					return -EACCES;
				}
				break;
			}
			err = check_reg_read(env, st, i, regno + 1);
			if (err)
				return err;
			if (sz->type != SCALAR_VALUE) {
				vinsn(env, i, "R%u type=%s expected=scalar", regno + 1,
				      reg_type_str[sz->type]);
				return -EACCES;
			}
			if (!sz->var && (s64)sz->off < 0) {
				vinsn(env, i, "R%u min value is negative, either use unsigned or 'var &= const'",
				      regno + 1);
				return -EACCES;
			}
			if (!sz->var && sz->off == 0 && st_t == ARG_CONST_SIZE) {
				vinsn(env, i, "R%u invalid zero-sized read", regno + 1);
				return -EACCES;
			}
			if (!sz->var && sz->off > (1 << 29)) {
				vinsn(env, i, "R%u unbounded memory access", regno + 1);
				return -EACCES;
			}
			err = check_helper_mem(env, st, i, a, regno, sz->var ? 0 : (u32)sz->off,
					       regno + 1, !sz->var, t == ARG_PTR_TO_UNINIT_MEM,
					       t == ARG_PTR_TO_MEM_OR_NULL);
			if (err)
				return err;
			break;
		}
		case ARG_CONST_SIZE:
		case ARG_CONST_SIZE_OR_ZERO:
			if (r->type != SCALAR_VALUE) {
				vinsn(env, i, "R%u type=%s expected=scalar", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_CONST_ALLOC_SIZE_OR_ZERO:
			if (r->type != SCALAR_VALUE || r->var) {
				vinsn(env, i, "R%u is not a known constant", regno);
				return -EACCES;
			}
			alloc_size = (u32)r->off;
			break;
		case ARG_PTR_TO_CTX:
			if (r->type != PTR_TO_CTX || r->off || r->var) {
				vinsn(env, i, "R%u type=%s expected=ctx", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_PTR_TO_FUNC:
			if (r->type != PTR_TO_FUNC) {
				vinsn(env, i, "R%u type=%s expected=func", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_PTR_TO_ALLOC_MEM:
			if (r->type != PTR_TO_ALLOC_MEM || r->off || r->var) {
				vinsn(env, i, "R%u type=%s expected=alloc_mem", regno,
				      reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_ANYTHING:
		default:
			break;
		}
	}

	/* ringbuf submit/discard release the record */
	for (a = 0; a < 5; a++) {
		if (fn->arg_type[a] == ARG_PTR_TO_ALLOC_MEM) {
			u32 id = fs->regs[BPF_REG_1 + a].id;
			u32 f, k;

			for (f = 0; id && f <= st->curframe; f++) {
				for (k = 0; k < MAX_BPF_REG; k++)
					if (st->frame[f]->regs[k].id == id)
						mark_scalar(&st->frame[f]->regs[k]);
				for (k = 0; k < STACK_SLOTS; k++)
					if (st->frame[f]->stack[k].spilled &&
					    st->frame[f]->stack[k].spill.id == id)
						mark_scalar(&st->frame[f]->stack[k].spill);
			}
		}
	}

	env->aux[i].call_seen = true;
	clear_caller_saved(fs);
	r0 = &fs->regs[BPF_REG_0];
	switch (fn->ret_type) {
	case RET_VOID:
		memset(r0, 0, sizeof(*r0));
		break;
	case RET_PTR_TO_MAP_VALUE_OR_NULL:
		if (!map) {
			vinsn(env, i, "kernel subsystem misconfigured verifier");
			return -EINVAL;
		}
		memset(r0, 0, sizeof(*r0));
		if (map->map_type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    map->map_type == BPF_MAP_TYPE_HASH_OF_MAPS) {
			if (!map->inner_map_meta) {
				vinsn(env, i, "map %s has no inner map shape", map->name);
				return -EINVAL;
			}
			r0->type = CONST_PTR_TO_MAP_OR_NULL;
			r0->map = map->inner_map_meta;
		} else {
			r0->type = PTR_TO_MAP_VALUE_OR_NULL;
			r0->map = map;
		}
		r0->id = ++env->id_gen;
		break;
	case RET_PTR_TO_ALLOC_MEM_OR_NULL:
		memset(r0, 0, sizeof(*r0));
		r0->type = PTR_TO_ALLOC_MEM_OR_NULL;
		r0->map = map;
		r0->mem_size = alloc_size;
		r0->id = ++env->id_gen;
		break;
	case RET_INTEGER:
	default:
		mark_scalar(r0);
		break;
	}
	if (fn->changes_pkt_data)
		clear_pkt_pointers(st);
	return 0;
}

static int check_func_call(struct bpf_verifier_env *env, struct vstate *st, u32 i, u32 *next)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	u32 target = i + insn->imm + 1;
	struct func_state *caller = cur_frame(st), *callee;
	u32 r;

	if (st->curframe + 1 >= MAX_CALL_FRAMES) {
		vinsn(env, i, "the call stack of %u frames is too deep !", st->curframe + 2);
		return -E2BIG;
	}
	callee = calloc(1, sizeof(*callee));
	if (!callee)
		return -ENOMEM;
	callee->callsite = i;
	callee->subprog = find_subprog(env, target);
	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		callee->regs[r] = caller->regs[r];
	callee->regs[BPF_REG_10].type = PTR_TO_STACK;
	callee->regs[BPF_REG_10].frameno = (u8)(st->curframe + 1);
	st->frame[++st->curframe] = callee;
	env->aux[i].call_seen = true;
	*next = target;
	return 0;
}

static int check_exit(struct bpf_verifier_env *env, struct vstate *st, u32 i, s64 *next)
{
	struct func_state *callee = cur_frame(st), *caller;
	struct reg_state *r0 = &callee->regs[BPF_REG_0];
	int err;

	err = check_reg_read(env, st, i, BPF_REG_0);
	if (err)
		return err;
	if (!st->curframe) {
		if (r0->type != SCALAR_VALUE) {
			vinsn(env, i, "R0 leaks addr as return value");
			return -EACCES;
		}
		*next = -1;
		return 0;
	}
	if (r0->type == PTR_TO_STACK && r0->frameno == st->curframe) {
		vinsn(env, i, "cannot return stack pointer to the caller frame");
		return -EINVAL;
	}
	caller = st->frame[st->curframe - 1];
	*next = callee->callsite + 1;
	caller->regs[BPF_REG_0] = *r0;
	clear_caller_saved(caller);
	free(callee);
	st->frame[st->curframe--] = NULL;
	return 0;
}

/* ---- the walk ------------------------------------------------------------- */

static int do_check_insn(struct bpf_verifier_env *env, struct vstate *st, u32 i, s64 *next)
{
	struct bpf_insn *insn = &env->prog->insnsi[i];
	struct func_state *fs = cur_frame(st);
	u8 cls = BPF_CLASS(insn->code);
	u32 size;
	int err;

	*next = i + 1;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu(env, st, i);
	case BPF_LDX:
		size = bpf_size_to_bytes(BPF_SIZE(insn->code));
		err = check_reg_read(env, st, i, insn->src_reg) ?:
		      check_reg_write(env, i, insn->dst_reg);
		if (err)
			return err;
		{
			struct reg_state res;

			err = check_mem_access(env, st, i, insn->src_reg, size, false, NULL, &res,
					       BPF_MODE(insn->code) == BPF_MEMSX, false);
			if (err)
				return err;
			fs->regs[insn->dst_reg] = res;
		}
		return 0;
	case BPF_ST:
		size = bpf_size_to_bytes(BPF_SIZE(insn->code));
		err = check_reg_read(env, st, i, insn->dst_reg);
		if (err)
			return err;
		return check_mem_access(env, st, i, insn->dst_reg, size, true, NULL, NULL, false,
					false);
	case BPF_STX:
		size = bpf_size_to_bytes(BPF_SIZE(insn->code));
		err = check_reg_read(env, st, i, insn->dst_reg) ?:
		      check_reg_read(env, st, i, insn->src_reg);
		if (err)
			return err;
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			struct reg_state val = fs->regs[insn->src_reg], res;
			u32 load_reg = insn->imm == BPF_CMPXCHG ? BPF_REG_0 :
				       insn->imm == BPF_LOAD_ACQ ? insn->dst_reg : insn->src_reg;
			bool loads = (insn->imm & BPF_FETCH) || insn->imm == BPF_LOAD_ACQ;

			if (insn->imm == BPF_CMPXCHG) {
				err = check_reg_read(env, st, i, BPF_REG_0);
				if (err)
					return err;
			}
			if (is_ptr(&val) && insn->imm != BPF_LOAD_ACQ) {
				vinsn(env, i, "R%u leaks addr into mem", insn->src_reg);
				return -EACCES;
			}
			if (loads) {
				err = check_reg_write(env, i, load_reg);
				if (err)
					return err;
			}
			err = check_mem_access(env, st, i, insn->dst_reg, size,
					       insn->imm != BPF_LOAD_ACQ, NULL, &res, false, true);
			if (err)
				return err;
			if (loads)
				mark_scalar(&fs->regs[load_reg]);
			return 0;
		}
		{
			struct reg_state val = fs->regs[insn->src_reg];

			return check_mem_access(env, st, i, insn->dst_reg, size, true, &val, NULL,
						false, false);
		}
	case BPF_LD: {
		struct insn_aux *aux = &env->aux[i];
		struct reg_state *dst = &fs->regs[insn->dst_reg];

		err = check_reg_write(env, i, insn->dst_reg);
		if (err)
			return err;
		memset(dst, 0, sizeof(*dst));
		dst->type = aux->ldimm_type;
		switch (aux->ldimm_type) {
		case SCALAR_VALUE:
			dst->off = (s64)((u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32));
			break;
		case CONST_PTR_TO_MAP:
			dst->map = aux->map;
			break;
		case PTR_TO_MAP_VALUE:
			dst->map = aux->map;
			dst->off = aux->ldimm_off;
			break;
		}
		*next = i + 2;
		return 0;
	}
	case BPF_JMP:
	case BPF_JMP32: {
		u8 op = BPF_OP(insn->code);

		if (op == BPF_JA) {
			*next = jmp_target(insn, i);
			return 0;
		}
		if (op == BPF_EXIT)
			return check_exit(env, st, i, next);
		if (op == BPF_CALL) {
			if (insn->src_reg == BPF_PSEUDO_CALL) {
				u32 n;

				err = check_func_call(env, st, i, &n);
				*next = n;
				return err;
			}
			return check_helper_call(env, st, i);
		}
		*next = check_cond_jmp(env, st, i);
		return *next < 0 ? (int)*next : 0;
	}
	}
	vinsn(env, i, "unknown insn class %d", cls);
	return -EINVAL;
}

static int do_check(struct bpf_verifier_env *env)
{
	struct func_state *fs;
	struct vstate st;
	s64 next;
	u32 i;
	int err = 0;

	memset(&st, 0, sizeof(st));
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	st.frame[0] = fs;
	fs->callsite = UINT32_MAX;
	fs->regs[BPF_REG_10].type = PTR_TO_STACK;
	if (env->prog->type == BPF_PROG_TYPE_UNSPEC) {
		fs->regs[BPF_REG_1].type = PTR_TO_MEM;
		mark_scalar(&fs->regs[BPF_REG_2]);
	} else {
		fs->regs[BPF_REG_1].type = PTR_TO_CTX;
	}
	i = 0;
	for (;;) {
		if (++env->insn_processed > BPF_COMPLEXITY_LIMIT_INSNS) {
			verbose(env, "BPF program is too large. Processed %llu insn\n",
				(unsigned long long)env->insn_processed);
			err = -E2BIG;
			break;
		}
		if (env->aux[i].prune_point) {
			err = is_state_visited(env, &st, i);
			if (err < 0)
				break;
			if (err == 1)
				goto pop;
		}
		env->aux[i].seen = true;
		err = do_check_insn(env, &st, i, &next);
		if (err)
			break;
		if (next >= 0) {
			i = (u32)next;
			continue;
		}
pop:
		err = 0;
		free_vstate(&st);
		if (!env->work_cnt)
			return 0;
		env->work_cnt--;
		st = env->work[env->work_cnt].st;
		i = env->work[env->work_cnt].insn;
	}
	free_vstate(&st);
	return err;
}

/* ---- pass 3: fix-ups -------------------------------------------------------- */

/* Deepest stack over every call chain from @sp; recursion is rejected. */
static int max_chain_depth(struct bpf_verifier_env *env, u32 sp, u32 depth, u8 *onstack, u32 *out)
{
	const struct bpf_insn *insns = env->prog->insnsi;
	u32 own = ALIGN(env->subprogs[sp].stack_depth, 8), best = 0, i;
	int err;

	if (onstack[sp]) {
		verbose(env, "recursive call from subprogram at insn %u\n", env->subprogs[sp].start);
		return -EINVAL;
	}
	if (depth > MAX_CALL_FRAMES) {
		verbose(env, "the call stack of %u frames is too deep !\n", depth);
		return -E2BIG;
	}
	onstack[sp] = 1;
	for (i = env->subprogs[sp].start; i < env->subprogs[sp].end; i++) {
		u32 sub;

		if (insns[i].code != (BPF_JMP | BPF_CALL) || insns[i].src_reg != BPF_PSEUDO_CALL ||
		    !env->aux[i].seen)
			continue;
		err = max_chain_depth(env, find_subprog(env, i + insns[i].imm + 1), depth + 1,
				      onstack, &sub);
		if (err)
			return err;
		best = max(best, sub);
	}
	onstack[sp] = 0;
	*out = own + best;
	return 0;
}

static int fixup(struct bpf_verifier_env *env)
{
	struct bpf_prog *prog = env->prog;
	struct bpf_insn *insns = prog->insnsi;
	struct bpf_verifier_info *vi;
	u8 onstack[MAX_SUBPROGS] = { 0 };
	u32 i, a, depth = 0;
	int err;

	err = max_chain_depth(env, 0, 1, onstack, &depth);
	if (err)
		return err;
	if (depth > MAX_BPF_STACK) {
		verbose(env, "combined stack size of calls is %u. Too large\n", depth);
		return -EACCES;
	}
	prog->aux->stack_depth = env->subprogs[0].stack_depth;
	prog->aux->max_stack_depth = depth;

	vi = calloc(1, sizeof(*vi));
	if (!vi)
		return -ENOMEM;
	vi->insn_aux = calloc(prog->len, sizeof(*vi->insn_aux));
	if (!vi->insn_aux) {
		free(vi);
		return -ENOMEM;
	}
	vi->zero_stack = env->zero_stack;
	bpf_verifier_info_free(prog->aux->verifier_info);
	prog->aux->verifier_info = vi;

	for (i = 0; i < prog->len; i++) {
		struct bpf_insn *insn = &insns[i];
		struct insn_aux *aux = &env->aux[i];
		u8 cls = BPF_CLASS(insn->code);

		if (aux->is_ldimm_second)
			continue;
		if (!aux->seen) {
			/* dead code: a trap, as the kernel's sanitize_dead_code */
			*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = -1 };
			if (i + 1 < prog->len && aux[1].is_ldimm_second) {
				insn[1] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = -1 };
				aux[1].is_ldimm_second = false;
				aux[1].seen = true;
			}
			continue;
		}
		if (is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC) {
			ldimm_set(insn, (u64)(uintptr_t)&insns[i + insn->imm + 1]);
			continue;
		}
		if (aux->access == ACC_CTX) {
			switch (aux->ctx_field) {
			case offsetof(struct xdp_md, data):
				insn->code = BPF_LDX | BPF_MEM | BPF_DW;
				insn->off = offsetof(struct xdp_buff, data);
				break;
			case offsetof(struct xdp_md, data_end):
				insn->code = BPF_LDX | BPF_MEM | BPF_DW;
				insn->off = offsetof(struct xdp_buff, data_end);
				break;
			case offsetof(struct xdp_md, data_meta):
				insn->code = BPF_LDX | BPF_MEM | BPF_DW;
				insn->off = offsetof(struct xdp_buff, data_meta);
				break;
			case offsetof(struct xdp_md, ingress_ifindex):
				insn->code = BPF_LDX | BPF_CTX_FIELD | BPF_W;
				insn->imm = BPF_CTX_INGRESS_IFINDEX;
				break;
			case offsetof(struct xdp_md, rx_queue_index):
				insn->code = BPF_LDX | BPF_CTX_FIELD | BPF_W;
				insn->imm = BPF_CTX_RX_QUEUE_INDEX;
				break;
			case offsetof(struct xdp_md, egress_ifindex):
				insn->code = BPF_LDX | BPF_CTX_FIELD | BPF_W;
				insn->imm = BPF_CTX_EGRESS_IFINDEX;
				break;
			}
			continue;
		}
		if (aux->access == ACC_CHECKED) {
			u8 mode = BPF_MODE(insn->code);

			vi->insn_aux[i] = aux->region;
			if (cls == BPF_LDX)
				mode = mode == BPF_MEMSX ? BPF_PROBE_MEMSX : BPF_PROBE_MEM;
			else if (cls == BPF_STX && mode == BPF_ATOMIC)
				mode = BPF_PROBE_ATOMIC;
			else
				mode = BPF_PROBE_MEM;
			insn->code = cls | mode | BPF_SIZE(insn->code);
			continue;
		}
		if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_CALL) {
			u32 caller = find_subprog(env, i);
			u32 callee = find_subprog(env, i + insn->imm + 1);

			insn->code = BPF_JMP32 | BPF_CALL;
			insn->src_reg = 0;
			insn->off = (s16)ALIGN(env->subprogs[caller].stack_depth, 8);
			vi->insn_aux[i] = env->subprogs[callee].end - env->subprogs[callee].start;
			continue;
		}
		if (insn->code == (BPF_JMP | BPF_CALL)) {
			const struct bpf_func_proto *fn;
			struct bpf_call_desc *d, *calls;

			if (insn->imm == BPF_FUNC_tail_call && prog->type == BPF_PROG_TYPE_XDP) {
				insn->code = BPF_JMP | BPF_TAIL_CALL;
				insn->imm = 0;
				continue;
			}
			fn = env->get_proto(insn->imm);
			calls = realloc(vi->calls, (vi->nr_calls + 1) * sizeof(*calls));
			if (!calls)
				return -ENOMEM;
			vi->calls = calls;
			d = &calls[vi->nr_calls];
			memset(d, 0, sizeof(*d));
			d->func = fn->func;
			d->func_id = insn->imm;
			for (a = 0; a < 5; a++) {
				struct bpf_mem_check *c;

				if (!aux->arg_check[a])
					continue;
				if (d->nr_checks >= BPF_CALL_MAX_CHECKS) {
					vinsn(env, i, "too many memory arguments to check");
					return -EINVAL;
				}
				c = &d->checks[d->nr_checks++];
				c->ptr_reg = BPF_REG_1 + a;
				c->size_reg = aux->arg_size_reg[a];
				c->size = aux->arg_size[a];
				c->region = aux->arg_region[a];
				c->or_null = aux->arg_or_null[a];
			}
			insn->imm = (s32)vi->nr_calls++;
		}
	}
	return 0;
}

void bpf_verifier_info_free(struct bpf_verifier_info *vi)
{
	if (!vi)
		return;
	free(vi->insn_aux);
	free(vi->calls);
	free(vi);
}

static const struct bpf_func_proto *no_func_proto(enum bpf_func_id func_id)
{
	return NULL;
}

int bpf_check(struct bpf_prog **progp, char *log, u32 log_size)
{
	struct bpf_prog *prog = *progp;
	struct bpf_verifier_env *env;
	u32 i;
	int err;

	if (log && log_size)
		log[0] = '\0';
	env = calloc(1, sizeof(*env));
	if (!env)
		return -ENOMEM;
	env->prog = prog;
	env->log = log;
	env->log_size = log_size;
	if (!prog->len || prog->len > BPF_MAX_INSNS) {
		verbose(env, "program of %u insns: must be 1..%u\n", prog->len, BPF_MAX_INSNS);
		err = -E2BIG;
		goto out_free_env;
	}
	if (prog->type != BPF_PROG_TYPE_XDP && prog->type != BPF_PROG_TYPE_UNSPEC) {
		verbose(env, "program type %d is not supported\n", prog->type);
		err = -EINVAL;
		goto out_free_env;
	}
	env->get_proto = prog->aux->func_proto;
	if (!env->get_proto)
		env->get_proto = prog->type == BPF_PROG_TYPE_XDP ? xdp_func_proto : no_func_proto;
	env->aux = calloc(prog->len, sizeof(*env->aux));
	if (!env->aux) {
		err = -ENOMEM;
		goto out_free_env;
	}

	err = check_insns(env) ?: check_cfg(env) ?: do_check(env) ?: fixup(env);
	if (!err)
		bpf_prog_select_runtime(prog);

	while (env->work_cnt) {
		env->work_cnt--;
		free_vstate(&env->work[env->work_cnt].st);
	}
	free(env->work);
	for (i = 0; i < prog->len; i++) {
		struct state_list *sl = env->aux[i].states, *n;

		for (; sl; sl = n) {
			n = sl->next;
			free_vstate(&sl->st);
			free(sl);
		}
	}
	free(env->aux);
out_free_env:
	free(env);
	return err;
}
