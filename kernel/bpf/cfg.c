// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 1 of the load-time checker: each instruction's opcode and reserved
 * fields (with the kernel's messages), ld_imm64 pairs and their pseudo
 * sources (maps are looked up by id, referenced in aux->used_maps and
 * patched to plain constants), subprogram boundaries, jump ranges, the last
 * instruction of every subprogram and reachability.
 *
 * Kernel: kernel/bpf/verifier.c check_subprogs(), check_cfg(),
 *	   resolve_pseudo_ldimm64(), check_alu_op()/do_check() field checks
 * Differs: maps are referred to by registry id instead of fd.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <net/xdp.h>

/*
 * Linux checks an instruction's reserved fields when the walk reaches it,
 * after the CFG checks and whatever the walk refuses first (do_check()).
 * Keep the message for the walk: it reports it at @i (check_reserved_fields()).
 */
static int defer_reserved(struct bpf_verifier_env *env, u32 i, const char *msg)
{
	if (!env->aux[i].reserved_msg)
		env->aux[i].reserved_msg = msg;
	return 0;
}

static int check_alu_fields(struct bpf_verifier_env *env, u32 i, const struct bpf_insn *insn)
{
	u8 op = BPF_OP(insn->code);
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	bool x = BPF_SRC(insn->code) == BPF_X;

	/* not in the kernel's opcode table: NEG from a register, 64-bit bswap to BE */
	if ((op == BPF_NEG && x) || (op == BPF_END && is64 && x))
		goto unknown;
	switch (op) {
	case BPF_NEG:
		if (insn->src_reg || insn->off || insn->imm)
			return defer_reserved(env, i, "BPF_NEG uses reserved fields");
		return 0;
	case BPF_END:
		if (insn->src_reg || insn->off ||
		    (insn->imm != 16 && insn->imm != 32 && insn->imm != 64))
			return defer_reserved(env, i, "BPF_END uses reserved fields");
		return 0;
	case BPF_MOV:
		if (x && is64 && insn->off == BPF_ADDR_SPACE_CAST)
			return defer_reserved(env, i, insn->imm != 1 && insn->imm != 1 << 16 ?
				"addr_space_cast insn can only convert between address space 1 and 0" :
				"addr_space_cast insn can only be used in a program that has an associated arena");
		if (x) {
			bool off_ok = insn->off == 0 || insn->off == 8 || insn->off == 16 ||
				      (is64 && insn->off == 32);

			if (insn->imm || !off_ok)
				return defer_reserved(env, i, "BPF_MOV uses reserved fields");
		} else if (insn->src_reg || insn->off) {
			return defer_reserved(env, i, "BPF_MOV uses reserved fields");
		}
		return 0;
	case BPF_ADD: case BPF_SUB: case BPF_MUL: case BPF_OR: case BPF_AND:
	case BPF_LSH: case BPF_RSH: case BPF_XOR: case BPF_ARSH:
	case BPF_DIV: case BPF_MOD:
		if ((insn->off != 0 && !((op == BPF_DIV || op == BPF_MOD) && insn->off == 1)) ||
		    (x ? insn->imm != 0 : insn->src_reg != 0))
			return defer_reserved(env, i, "BPF_ALU uses reserved fields");
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
	}
unknown:
	vinsn(env, i, "unknown opcode %02x", insn->code);
	return -EINVAL;
}

/*
 * A kfunc call: imm is the kfunc's BTF id (0: a __weak kfunc the loader
 * left unresolved, refused only if reached), off the index of a module
 * BTF, which uxdp has none of. A device-bound kfunc (RX metadata) needs a
 * program bound to a device. Kernel: add_subprog_and_kfunc(),
 * add_kfunc_call(), find_kfunc_desc_btf(), bpf_dev_bound_kfunc_check().
 */
static int check_kfunc_call_fields(struct bpf_verifier_env *env, u32 i,
				   const struct bpf_insn *insn)
{
	const struct bpf_kfunc_proto *fn;

	if (BPF_SRC(insn->code) == BPF_X || insn->dst_reg) {
		vinsn(env, i, "BPF_CALL uses reserved fields");
		return -EINVAL;
	}
	if (insn->off < 0) {
		vinsn(env, i, "negative offset disallowed for kernel module function call");
		return -EINVAL;
	}
	if (insn->off) {
		vinsn(env, i, "fd_idx without fd_array is invalid");
		return -EPROTO;
	}
	fn = insn->imm ? btf_kfunc_by_id((u32)insn->imm) : NULL;
	if (insn->imm && !fn) {
		vinsn(env, i, "kernel btf_id %d is not a function", insn->imm);
		return -EINVAL;
	}
	if (fn && (fn->flags & KF_DEV_BOUND) && !env->prog->aux->dev_bound_ifindex) {
		vinsn(env, i, "metadata kfuncs require device-bound program");
		return -EINVAL;
	}
	return 0;
}

static int check_jmp_fields(struct bpf_verifier_env *env, u32 i, const struct bpf_insn *insn)
{
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	bool x = BPF_SRC(insn->code) == BPF_X;
	u8 op = BPF_OP(insn->code);

	switch (op) {
	case BPF_JA:
		if (x || insn->src_reg || insn->dst_reg || (is32 ? insn->off : insn->imm))
			return defer_reserved(env, i, "BPF_JA uses reserved fields");
		return 0;
	case BPF_CALL:
		if (is32)
			break;
		if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
			return check_kfunc_call_fields(env, i, insn);
		if (x || insn->off || insn->dst_reg ||
		    (insn->src_reg != 0 && insn->src_reg != BPF_PSEUDO_CALL))
			return defer_reserved(env, i, "BPF_CALL uses reserved fields");
		return 0;
	case BPF_EXIT:
		if (is32)
			break;
		if (x || insn->imm || insn->src_reg || insn->dst_reg || insn->off)
			return defer_reserved(env, i, "BPF_EXIT uses reserved fields");
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
		if (x ? insn->imm != 0 : insn->src_reg != 0)
			return defer_reserved(env, i, "BPF_JMP/JMP32 uses reserved fields");
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
				/* 8, 16, 32 and 64 bits, as the kernel (6.15+) */
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
		bpf_verbose(env, "too many maps used by the program (max 64)\n");
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

int bpf_used_map_idx(struct bpf_verifier_env *env, const struct bpf_map *map)
{
	struct bpf_prog_aux *aux = env->prog->aux;
	u32 i;

	for (i = 0; i < aux->used_map_cnt; i++)
		if (aux->used_maps[i] == map)
			return i;
	return -1;
}

void bpf_ldimm_set(struct bpf_insn *insn, u64 val)
{
	insn[0].src_reg = 0;
	insn[0].imm = (s32)(u32)val;
	insn[1].imm = (s32)(u32)(val >> 32);
}

static int resolve_ldimm64(struct bpf_verifier_env *env, u32 i)
{
	struct bpf_insn *insn = &env->prog->insnsi[i];
	struct bpf_insn_aux_data *aux = &env->aux[i];
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
		bpf_ldimm_set(insn, (u64)(uintptr_t)map);
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
	bpf_ldimm_set(insn, addr + (u32)insn[1].imm);
	return 0;
}

static int add_subprog(struct bpf_verifier_env *env, u32 start)
{
	u32 i;

	for (i = 0; i < env->subprog_cnt; i++)
		if (env->subprogs[i].start == start)
			return 0;
	if (env->subprog_cnt >= MAX_SUBPROGS) {
		bpf_verbose(env, "too many subprograms\n");
		return -E2BIG;
	}
	env->subprogs[env->subprog_cnt++].start = start;
	return 0;
}

static int cmp_subprog(const void *a, const void *b)
{
	const struct bpf_subprog_info *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

u32 bpf_find_subprog(struct bpf_verifier_env *env, u32 insn)
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

int bpf_check_insns(struct bpf_verifier_env *env)
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
		struct bpf_subprog_info *sp = &env->subprogs[bpf_find_subprog(env, i)];
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
		/* states converge at a callback-calling helper call (callbacks.c) */
		if (is_sync_callback_calling_insn(insn)) {
			env->aux[i].calls_callback = true;
			env->aux[i].force_checkpoint = true;
			env->aux[i].prune_point = true;
		}
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
int bpf_check_cfg(struct bpf_verifier_env *env)
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

/* Registers instruction @insn reads (*use) and writes (*def). */
static void insn_use_def(const struct bpf_insn *insn, u16 *use, u16 *def)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	const u16 args = 0x3e, caller_saved = 0x3f;	/* r1-r5; r0-r5 */

	*use = 0;
	*def = 0;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_MOV) {
			if (BPF_SRC(insn->code) == BPF_X)
				*use = 1u << insn->src_reg;
		} else {
			*use = 1u << insn->dst_reg;
			if (BPF_SRC(insn->code) == BPF_X && op != BPF_END && op != BPF_NEG)
				*use |= 1u << insn->src_reg;
		}
		*def = 1u << insn->dst_reg;
		return;
	case BPF_LD:
		*def = 1u << insn->dst_reg;
		return;
	case BPF_LDX:
		*use = 1u << insn->src_reg;
		*def = 1u << insn->dst_reg;
		return;
	case BPF_ST:
		*use = 1u << insn->dst_reg;
		return;
	case BPF_STX:
		*use = 1u << insn->dst_reg | 1u << insn->src_reg;
		if (BPF_MODE(insn->code) != BPF_ATOMIC)
			return;
		if (insn->imm == BPF_CMPXCHG) {
			*use |= 1u;
			*def = 1u;
		} else if (insn->imm == BPF_LOAD_ACQ) {
			*use = 1u << insn->src_reg;
			*def = 1u << insn->dst_reg;
		} else if (insn->imm & BPF_FETCH) {
			*def = 1u << insn->src_reg;
		}
		return;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL) {
			*use = args;
			*def = caller_saved;
		} else if (op == BPF_EXIT) {
			*use = 1u;
		} else if (op != BPF_JA && op != BPF_JCOND) {
			*use = 1u << insn->dst_reg;
			if (BPF_SRC(insn->code) == BPF_X)
				*use |= 1u << insn->src_reg;
		}
		return;
	}
}

/*
 * Register liveness, a backward fixpoint over each function's flow graph
 * (a helper reads the arguments of its prototype, a bpf-to-bpf call reads
 * R1-R5; both write R0-R5). A state
 * whose registers differ only where they are dead covers the other; this
 * is what keeps the walk linear where paths merge (kernel: the liveness
 * marks of mark_reg_read()/propagate_liveness(), computed here up front).
 */
/*
 * Stack slots each function may read, flow-insensitively: those a load or
 * atomic through R10 at a constant offset touches. Once R10 is used any
 * other way (copied, passed to a helper or callee, offset by a register)
 * every slot of that function counts as read. Slots nobody reads are
 * forgotten at prune points, so paths that only differ in dead stores
 * merge.
 */
static void compute_live_slots(struct bpf_verifier_env *env)
{
	const struct bpf_insn *insns = env->prog->insnsi;
	u32 s, i;

	for (s = 0; s < env->subprog_cnt; s++) {
		struct bpf_subprog_info *sp = &env->subprogs[s];
		u64 live = 0;

		for (i = sp->start; i < sp->end; i++) {
			const struct bpf_insn *insn = &insns[i];
			u8 cls = BPF_CLASS(insn->code);
			bool reads_fp_mem = false, other_fp_use = false;
			s64 off, a;
			u32 size;

			if (env->aux[i].is_ldimm_second)
				continue;
			switch (cls) {
			case BPF_LDX:
				if (insn->src_reg == BPF_REG_10)
					reads_fp_mem = true;
				else if (insn->dst_reg == BPF_REG_10)
					other_fp_use = true;
				break;
			case BPF_ST:
				break;	/* a store through R10 reads nothing */
			case BPF_STX:
				if (insn->src_reg == BPF_REG_10)
					other_fp_use = true;	/* R10 stored as a value */
				if (insn->dst_reg == BPF_REG_10 && BPF_MODE(insn->code) == BPF_ATOMIC)
					reads_fp_mem = true;
				break;
			case BPF_ALU:
			case BPF_ALU64:
				if ((BPF_SRC(insn->code) == BPF_X && insn->src_reg == BPF_REG_10 &&
				     BPF_OP(insn->code) != BPF_END) || insn->dst_reg == BPF_REG_10)
					other_fp_use = true;
				break;
			case BPF_JMP:
			case BPF_JMP32:
				if ((BPF_SRC(insn->code) == BPF_X && insn->src_reg == BPF_REG_10) ||
				    insn->dst_reg == BPF_REG_10)
					other_fp_use = true;
				break;
			}
			if (other_fp_use) {
				live = ~0ULL;
				break;
			}
			if (!reads_fp_mem)
				continue;
			size = bpf_size_to_bytes(BPF_SIZE(insn->code));
			off = insn->off;
			if (off < -MAX_BPF_STACK || off + size > 0)
				continue;	/* refused by the walk */
			for (a = off; a < off + size; a++)
				live |= 1ULL << ((-a - 1) / 8);
		}
		sp->live_slots = live;
	}
}

/*
 * A helper reads only the arguments its prototype declares (kernel:
 * get_call_summary()); one without a prototype here is refused by the walk.
 */
static u16 helper_arg_regs(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	const struct bpf_func_proto *fn = NULL;
	u16 use = 0;
	u32 i;

	if (insn->imm >= 0 && insn->imm < __BPF_FUNC_MAX_ID && env->get_proto)
		fn = env->get_proto(insn->imm);
	if (!fn)
		return 0x3e;
	for (i = 0; i < ARRAY_SIZE(fn->arg_type) && fn->arg_type[i] != ARG_DONTCARE; i++)
		use |= 1u << (BPF_REG_1 + i);
	return use;
}

int bpf_compute_live_regs(struct bpf_verifier_env *env)
{
	const struct bpf_insn *insns = env->prog->insnsi;
	u32 len = env->prog->len, i, rounds = 0;
	bool changed = true;

	compute_live_slots(env);

	while (changed) {
		changed = false;
		if (++rounds > len + 2)
			break;
		for (i = len; i-- > 0;) {
			const struct bpf_insn *insn = &insns[i];
			struct bpf_insn_aux_data *aux = &env->aux[i];
			u16 use, def, out = 0, in;

			if (aux->is_ldimm_second)
				continue;
			insn_use_def(insn, &use, &def);
			if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == 0)
				use = helper_arg_regs(env, insn);
			if (insn->code == (BPF_JMP | BPF_EXIT)) {
				out = 0;
			} else if (insn->code == (BPF_JMP | BPF_JA) ||
				   insn->code == (BPF_JMP32 | BPF_JA)) {
				out = env->aux[jmp_target(insn, i)].live_regs;
			} else {
				u32 next = i + (is_ldimm64(insn) ? 2 : 1);

				if (next < len)
					out = env->aux[next].live_regs;
				if (has_jmp_target(insn))
					out |= env->aux[jmp_target(insn, i)].live_regs;
			}
			in = use | (out & ~def) | (1u << BPF_REG_10);
			if (in != aux->live_regs) {
				aux->live_regs = in;
				changed = true;
			}
		}
	}
	return 0;
}
