// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier: everything bpf_check() does before a program may run, as
 * Linux's kernel/bpf/verifier.c does it. A program is accepted only when
 * every path through it is proven safe: each memory access within its
 * object (packet range established by comparisons with data_end, map
 * value, stack slot, ctx field), each register read initialised, each
 * loop finite, each reference released. Verified programs then run
 * without run-time bounds checks.
 *
 * Passes:
 * 1. bpf_check_insns(), bpf_check_cfg() (cfg.c): opcodes and reserved
 *    fields, ld_imm64 and map references, subprograms, jumps, reachability.
 * 2. do_check(): the abstract walk of every path. Registers are struct
 *    bpf_reg_state (type, fixed offset, tnum var_off, 64- and 32-bit
 *    signed and unsigned bounds, ids); the stack is per-byte slot types
 *    with spilled registers. ALU ops track scalar bounds (reg_bounds.c),
 *    conditional jumps refine both branches and prune dead ones, packet
 *    comparisons give ranges to every pointer of the same id. States at
 *    prune points are kept (states.c); a path reaching a state covered by
 *    a finished one stops there, comparing only the scalars whose values
 *    mattered (precision, backtrack.c); loops are walked until they end or
 *    the 1,000,000 processed-instruction limit is reached.
 * 3. bpf_do_fixups() (fixups.c): ctx loads rewritten for struct xdp_buff,
 *    helper calls, tail calls and bpf-to-bpf calls into the internal forms
 *    of <linux/bpf_verifier.h>, dead code trapped, stack depth per call
 *    chain checked; with the hardened runtime every access also gets the
 *    run-time check of the memory region recorded here.
 *
 * The checker stops there: which runtime runs the program (interpreter or
 * JIT) is bpf_prog_select_runtime()'s choice, made by bpf_prog_load().
 *
 * The loader is treated as privileged (CAP_BPF + CAP_PERFMON), as root is
 * in the kernel: pointers may be stored to maps and compared, stack may be
 * read before it is written (uxdp zeroes it then, so nothing of the host
 * leaks). BPF_F_UNPRIV-style rules (allow_ptr_leaks off) are a switch of
 * the environment (UXDP_BPF_UNPRIV=1).
 *
 * Kernel: kernel/bpf/verifier.c do_check(), check_mem_access(),
 *	   check_stack_read/write(), check_packet_access(), check_map_access(),
 *	   check_alu_op(), adjust_ptr_min_max_vals(), check_cond_jmp_op(),
 *	   find_good_pkt_pointers(), mark_ptr_or_null_regs(), sync_linked_regs(),
 *	   check_helper_call(), check_func_arg(), check_func_call(),
 *	   prepare_func_exit(), check_return_code(), check_reference_leak();
 *	   net/core/filter.c xdp_is_valid_access()
 * Differs: no Spectre sanitation (a privileged loader's kernel does none
 *	    either); no BTF-typed pointers or kfuncs. Precision marks come
 *	    from backtrack.c, liveness from cfg.c's static analysis.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <net/xdp.h>

#define verr(env, fmt, ...)	vinsn(env, (env)->insn_idx, fmt, ##__VA_ARGS__)

enum bpf_access_type {
	BPF_READ = 1,
	BPF_WRITE = 2,
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
	return "unknown";
}

__printf(2, 3) void verbose(struct bpf_verifier_env *env, const char *fmt, ...)
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

/* The kernel's reg_type_str(): "map_value_or_null", "ringbuf_mem", ... */
static const char *reg_type_str(u32 type)
{
	static const char *const names[] = {
		[NOT_INIT] = "?",
		[SCALAR_VALUE] = "scalar",
		[PTR_TO_CTX] = "ctx",
		[CONST_PTR_TO_MAP] = "map_ptr",
		[PTR_TO_MAP_VALUE] = "map_value",
		[PTR_TO_MAP_KEY] = "map_key",
		[PTR_TO_STACK] = "fp",
		[PTR_TO_PACKET] = "pkt",
		[PTR_TO_PACKET_META] = "pkt_meta",
		[PTR_TO_PACKET_END] = "pkt_end",
		[PTR_TO_MEM] = "mem",
		[PTR_TO_FUNC] = "func",
		[CONST_PTR_TO_DYNPTR] = "dynptr_ptr",
		[PTR_TO_BTF_ID] = "ptr_",
	};
	static __thread char buf[64];
	u32 base = base_type(type);
	const char *name = base < ARRAY_SIZE(names) && names[base] ? names[base] : "?";

	snprintf(buf, sizeof(buf), "%s%s%s%s%s", type & MEM_RDONLY ? "rdonly_" : "",
		 type & MEM_RINGBUF ? "ringbuf_" : "", type & PTR_TRUSTED ? "trusted_" : "", name,
		 !(type & PTR_MAYBE_NULL) ? "" : base == PTR_TO_BTF_ID ? "or_null_" : "_or_null");
	return buf;
}

/* ---- register state --------------------------------------------------- */

void __mark_reg_not_init(struct bpf_reg_state *reg)
{
	memset(reg, 0, sizeof(*reg));
	__mark_reg_unbounded(reg);
	reg->type = NOT_INIT;
}

static void mark_reg_unknown(struct bpf_reg_state *regs, u32 regno)
{
	__mark_reg_unknown(&regs[regno]);
}

static void mark_reg_known_zero(struct bpf_reg_state *regs, u32 regno)
{
	__mark_reg_known_zero(&regs[regno]);
}

/* A pointer of @type with a zero offset (kernel: mark_reg_known_zero + type). */
static void mark_reg_ptr(struct bpf_reg_state *reg, u32 type)
{
	memset(reg, 0, sizeof(*reg));
	__mark_reg_known_zero(reg);
	reg->type = type;
}

/* Released or invalidated pointer: privileged loaders see an unknown scalar. */
void mark_reg_invalid(struct bpf_verifier_env *env, struct bpf_reg_state *reg)
{
	if (!env->allow_ptr_leaks)
		__mark_reg_not_init(reg);
	else
		__mark_reg_unknown(reg);
}

static bool is_pointer_value(struct bpf_verifier_env *env, const struct bpf_reg_state *reg)
{
	if (env->allow_ptr_leaks)
		return false;
	return __is_pointer_value(reg);
}

static bool reg_is_init_pkt_pointer(const struct bpf_reg_state *reg, u32 which)
{
	return reg->type == which && reg->id == 0 && reg->off == 0 &&
	       tnum_equals_const(reg->var_off, 0);
}

static bool reg_not_null(const struct bpf_reg_state *reg)
{
	u32 type = reg->type;

	if (type_may_be_null(type))
		return false;
	type = base_type(type);
	return type == PTR_TO_MAP_VALUE || type == PTR_TO_MAP_KEY || type == PTR_TO_MEM ||
	       type == CONST_PTR_TO_MAP || (type == PTR_TO_BTF_ID && (reg->type & PTR_TRUSTED));
}

static void init_reg_state(struct bpf_func_state *state)
{
	u32 i;

	for (i = 0; i < MAX_BPF_REG; i++)
		__mark_reg_not_init(&state->regs[i]);
	mark_reg_ptr(&state->regs[BPF_REG_10], PTR_TO_STACK);
	state->regs[BPF_REG_10].frameno = state->frameno;
}

void init_func_state(struct bpf_func_state *state, u32 callsite, u32 frameno, u32 subprogno)
{
	u32 s, j;

	state->callsite = callsite;
	state->frameno = frameno;
	state->subprogno = subprogno;
	state->callback_ret_range = (struct bpf_retval_range){ 0, 0 };
	init_reg_state(state);
	for (s = 0; s < STACK_SLOTS; s++) {
		__mark_reg_not_init(&state->stack[s].spilled_ptr);
		for (j = 0; j < BPF_REG_SIZE; j++)
			state->stack[s].slot_type[j] = STACK_INVALID;
	}
}

enum reg_arg_type {
	SRC_OP,		/* register is used as source operand */
	DST_OP,		/* register is used as destination operand */
	DST_OP_NO_MARK,	/* same as above, check only, don't mark */
};

static int check_reg_arg(struct bpf_verifier_env *env, u32 regno, enum reg_arg_type t)
{
	struct bpf_reg_state *regs = cur_regs(env);

	if (regno >= MAX_BPF_REG) {
		verr(env, "R%d is invalid", regno);
		return -EINVAL;
	}
	if (t == SRC_OP) {
		if (regs[regno].type == NOT_INIT) {
			verr(env, "R%d !read_ok", regno);
			return -EACCES;
		}
		return 0;
	}
	if (regno == BPF_REG_10) {
		verr(env, "frame pointer is read only");
		return -EACCES;
	}
	if (t == DST_OP)
		mark_reg_unknown(regs, regno);
	return 0;
}

/* Record what memory insn @i touches, for the hardened runtime. */
static void record_access(struct bpf_verifier_env *env, enum bpf_access_kind kind, u32 region)
{
	struct bpf_insn_aux_data *aux = &env->aux[env->insn_idx];

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

static u32 map_region(struct bpf_verifier_env *env, const struct bpf_map *map)
{
	int idx = bpf_used_map_idx(env, map);

	/* inner maps are not in used_maps: the hardened runtime checks "any" */
	return idx < 0 ? BPF_RGN(BPF_RGN_ANY, 0) : BPF_RGN(BPF_RGN_MAP, idx);
}

static u32 reg_region(struct bpf_verifier_env *env, const struct bpf_reg_state *reg)
{
	switch (base_type(reg->type)) {
	case PTR_TO_STACK:
		return BPF_RGN(BPF_RGN_STACK, 0);
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		return BPF_RGN(BPF_RGN_PKT, 0);
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
		return map_region(env, reg->map_ptr);
	case PTR_TO_MEM:
		if (reg->type & MEM_RINGBUF)
			return map_region(env, reg->map_ptr);
		/* the frame, or the buffer the program passed (stack or map) */
		if (reg->type & DYNPTR_TYPE_FLAG_MASK || reg->dynptr_id)
			return BPF_RGN(BPF_RGN_ANY, 0);
		return BPF_RGN(BPF_RGN_MEM, 0);
	}
	return BPF_RGN(BPF_RGN_ANY, 0);
}

/* ---- stack ------------------------------------------------------------ */

static struct bpf_func_state *func(struct bpf_verifier_env *env, const struct bpf_reg_state *reg)
{
	return env->cur_state->frame[reg->frameno];
}

static void update_stack_depth(struct bpf_verifier_env *env, const struct bpf_func_state *state,
			       int off)
{
	struct bpf_subprog_info *sp = &env->subprogs[state->subprogno];

	if ((u32)-off > sp->stack_depth)
		sp->stack_depth = -off;
}

static void scrub_spilled_slot(u8 *stype)
{
	if (*stype != STACK_INVALID)
		*stype = STACK_MISC;
}

static void mark_stack_slot_misc(struct bpf_verifier_env *env, u8 *stype)
{
	if (*stype == STACK_ZERO)
		return;
	if (*stype == STACK_INVALID && env->allow_uninit_stack)
		return;
	*stype = STACK_MISC;
}

static bool is_stack_slot_special(const struct bpf_stack_state *stack)
{
	u8 type = stack->slot_type[BPF_REG_SIZE - 1];

	return type == STACK_SPILL || type == STACK_DYNPTR || type == STACK_ITER ||
	       type == STACK_IRQ_FLAG;
}

static bool is_spillable_regtype(u32 type)
{
	switch (base_type(type)) {
	case PTR_TO_MAP_VALUE:
	case PTR_TO_STACK:
	case PTR_TO_CTX:
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET_END:
	case CONST_PTR_TO_MAP:
	case PTR_TO_MEM:
	case PTR_TO_FUNC:
	case PTR_TO_MAP_KEY:
	case PTR_TO_BTF_ID:
		return true;
	}
	return false;
}

static int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static void save_register_state(struct bpf_verifier_env *env, struct bpf_func_state *state,
				int spi, const struct bpf_reg_state *reg, int size)
{
	int i;

	state->stack[spi].spilled_ptr = *reg;
	for (i = BPF_REG_SIZE; i > BPF_REG_SIZE - size; i--)
		state->stack[spi].slot_type[i - 1] = STACK_SPILL;
	for (; i; i--)
		mark_stack_slot_misc(env, &state->stack[spi].slot_type[i - 1]);
}

/* A scalar about to be copied gets an id, so the copies are linked. */
static void assign_scalar_id_before_mov(struct bpf_verifier_env *env, struct bpf_reg_state *src)
{
	if (src->type == SCALAR_VALUE && !src->id && !tnum_is_const(src->var_off))
		src->id = ++env->id_gen;
}

static bool is_bpf_st_mem(const struct bpf_insn *insn)
{
	return BPF_CLASS(insn->code) == BPF_ST && BPF_MODE(insn->code) == BPF_MEM;
}

/* Store of @size bytes at fp + @off of @state: the value in @value_regno or, < 0, insn->imm. */
static int check_stack_write_fixed_off(struct bpf_verifier_env *env, struct bpf_func_state *state,
				       int off, int size, int value_regno)
{
	struct bpf_func_state *cur = cur_func(env);
	const struct bpf_insn *insn = &env->prog->insnsi[env->insn_idx];
	struct bpf_reg_state *reg = NULL;
	int i, slot = -off - 1, spi = slot / BPF_REG_SIZE, err;
	u32 insn_flags = insn_stack_access_flags(state->frameno, spi);

	err = destroy_if_dynptr_stack_slot(env, state, spi);
	if (err)
		return err;
	if (!env->allow_ptr_leaks && is_spilled_reg(&state->stack[spi]) &&
	    !is_spilled_scalar_reg(&state->stack[spi]) && size != BPF_REG_SIZE) {
		verr(env, "attempt to corrupt spilled pointer on stack");
		return -EACCES;
	}
	if (value_regno >= 0)
		reg = &cur->regs[value_regno];
	update_stack_depth(env, state, off);

	if (reg && !(off % BPF_REG_SIZE) && reg->type == SCALAR_VALUE) {
		bool fits = fls64(reg->umax_value) <= 8 * size;

		if (fits)
			assign_scalar_id_before_mov(env, reg);
		save_register_state(env, state, spi, reg, size);
		if (!fits)
			state->stack[spi].spilled_ptr.id = 0;
	} else if (!reg && !(off % BPF_REG_SIZE) && is_bpf_st_mem(insn)) {
		struct bpf_reg_state tmp;

		memset(&tmp, 0, sizeof(tmp));
		__mark_reg_known(&tmp, (u64)(s64)insn->imm);
		tmp.type = SCALAR_VALUE;
		save_register_state(env, state, spi, &tmp, size);
	} else if (reg && is_spillable_regtype(reg->type)) {
		if (size != BPF_REG_SIZE) {
			verr(env, "invalid size of register spill");
			return -EACCES;
		}
		if (state != cur && reg->type == PTR_TO_STACK) {
			verr(env, "cannot spill pointers to stack into stack frame of the caller");
			return -EINVAL;
		}
		save_register_state(env, state, spi, reg, size);
	} else {
		u8 type = STACK_MISC;

		state->stack[spi].spilled_ptr.type = NOT_INIT;
		if (is_stack_slot_special(&state->stack[spi]))
			for (i = 0; i < BPF_REG_SIZE; i++)
				scrub_spilled_slot(&state->stack[spi].slot_type[i]);
		if ((reg && register_is_null(reg)) || (!reg && is_bpf_st_mem(insn) && insn->imm == 0)) {
			/* STACK_ZERO holds only if the stored register is zero on every path */
			if (reg) {
				err = mark_chain_precision(env, value_regno);
				if (err)
					return err;
			}
			type = STACK_ZERO;
		}
		for (i = 0; i < size; i++)
			state->stack[spi].slot_type[(slot - i) % BPF_REG_SIZE] = type;
		insn_flags = 0;	/* not a spill */
	}
	if (insn_flags)
		return push_insn_history(env, insn_flags, NULL, 0);
	return 0;
}

/*
 * Variable-offset store: every slot it may touch loses its spill; bytes it
 * may write become STACK_MISC (zero only if all could be zero).
 */
static int check_stack_write_var_off(struct bpf_verifier_env *env, struct bpf_func_state *state,
				     int ptr_regno, int off, int size, int value_regno)
{
	struct bpf_func_state *cur = cur_func(env);
	struct bpf_reg_state *ptr_reg = &cur->regs[ptr_regno];
	const struct bpf_insn *insn = &env->prog->insnsi[env->insn_idx];
	struct bpf_reg_state *value_reg = NULL;
	bool writing_zero = false, zero_used = false;
	int min_off, max_off, i, err;

	min_off = ptr_reg->smin_value + off;
	max_off = ptr_reg->smax_value + off + size;
	for (i = min_off; i < max_off; i++) {
		err = destroy_if_dynptr_stack_slot(env, state, (-i - 1) / BPF_REG_SIZE);
		if (err)
			return err;
	}
	if (value_regno >= 0)
		value_reg = &cur->regs[value_regno];
	if ((value_reg && register_is_null(value_reg)) ||
	    (!value_reg && is_bpf_st_mem(insn) && insn->imm == 0))
		writing_zero = true;
	if (value_reg && __is_pointer_value(value_reg) && !env->allow_ptr_leaks) {
		verr(env, "R%d leaks addr into stack", value_regno);
		return -EACCES;
	}
	update_stack_depth(env, state, min_off);

	for (i = min_off; i < max_off; i++) {
		int slot = -i - 1, spi = slot / BPF_REG_SIZE;
		u8 *stype = &state->stack[spi].slot_type[slot % BPF_REG_SIZE];
		u8 new_type;

		if (!env->allow_ptr_leaks && *stype != STACK_MISC && *stype != STACK_ZERO) {
			verr(env, "spilled ptr in range of var-offset stack write; insn %d, ptr off: %d",
			     env->insn_idx, i);
			return -EINVAL;
		}
		/* the spill goes, whatever it was */
		state->stack[spi].spilled_ptr.type = NOT_INIT;
		if (is_spilled_reg(&state->stack[spi])) {
			int j;

			for (j = 0; j < BPF_REG_SIZE; j++)
				scrub_spilled_slot(&state->stack[spi].slot_type[j]);
		}
		new_type = STACK_MISC;
		if (writing_zero && *stype == STACK_ZERO)
			new_type = STACK_ZERO;
		if (*stype == STACK_INVALID && !env->allow_uninit_stack) {
			verr(env, "uninit stack in range of var-offset write prohibited for !root; insn %d, off: %d",
			     env->insn_idx, i);
			return -EINVAL;
		}
		*stype = new_type;
		zero_used |= new_type == STACK_ZERO;
	}
	if (zero_used && value_reg)
		return mark_chain_precision(env, value_regno);
	return 0;
}

/* Bytes of a stack read that were never written: the runtime zeroes the stack. */
static void note_uninit_read(struct bpf_verifier_env *env)
{
	env->zero_stack = true;
}

static void mark_reg_stack_read(struct bpf_verifier_env *env, struct bpf_func_state *ptr_state,
				int min_off, int max_off, int dst_regno)
{
	struct bpf_func_state *state = cur_func(env);
	int i, zeros = 0;

	for (i = min_off; i < max_off; i++) {
		int slot = -i - 1, spi = slot / BPF_REG_SIZE;

		if (ptr_state->stack[spi].slot_type[slot % BPF_REG_SIZE] != STACK_ZERO)
			break;
		zeros++;
	}
	if (zeros == max_off - min_off)
		__mark_reg_const_zero(&state->regs[dst_regno]);
	else
		mark_reg_unknown(state->regs, dst_regno);
}

static int check_stack_read_fixed_off(struct bpf_verifier_env *env, struct bpf_func_state *reg_state,
				      int off, int size, int dst_regno)
{
	struct bpf_func_state *state = cur_func(env);
	int i, slot = -off - 1, spi = slot / BPF_REG_SIZE;
	u8 *stype = reg_state->stack[spi].slot_type, type;
	struct bpf_reg_state *reg = &reg_state->stack[spi].spilled_ptr;
	u32 insn_flags = insn_stack_access_flags(reg_state->frameno, spi);

	update_stack_depth(env, reg_state, off);
	if (is_spilled_reg(&reg_state->stack[spi])) {
		u8 spill_size = 1;

		for (i = BPF_REG_SIZE - 1; i > 0 && stype[i - 1] == STACK_SPILL; i--)
			spill_size++;
		if (size != BPF_REG_SIZE || spill_size != BPF_REG_SIZE) {
			if (reg->type != SCALAR_VALUE) {
				verr(env, "invalid size of register fill");
				return -EACCES;
			}
			if (dst_regno < 0)
				return 0;
			if (size <= spill_size && !(off % BPF_REG_SIZE)) {
				if (size == 4 && spill_size == 4 && fls64(reg->umax_value) <= 32)
					assign_scalar_id_before_mov(env, reg);
				state->regs[dst_regno] = *reg;
				if (fls64(reg->umax_value) > size * 8)
					state->regs[dst_regno].id = 0;
			} else {
				int spill_cnt = 0, zero_cnt = 0;

				for (i = 0; i < size; i++) {
					type = stype[(slot - i) % BPF_REG_SIZE];
					if (type == STACK_SPILL) {
						spill_cnt++;
						continue;
					}
					if (type == STACK_MISC)
						continue;
					if (type == STACK_ZERO) {
						zero_cnt++;
						continue;
					}
					if (type == STACK_INVALID && env->allow_uninit_stack) {
						note_uninit_read(env);
						continue;
					}
					verr(env, "invalid read from stack off %d+%d size %d", off, i, size);
					return -EACCES;
				}
				if (spill_cnt == size && tnum_is_const(reg->var_off) &&
				    reg->var_off.value == 0) {
					__mark_reg_const_zero(&state->regs[dst_regno]);
				} else if (zero_cnt == size) {
					__mark_reg_const_zero(&state->regs[dst_regno]);
					insn_flags = 0;	/* not the spilled value */
				} else {
					mark_reg_unknown(state->regs, dst_regno);
					insn_flags = 0;
				}
			}
		} else if (dst_regno >= 0) {
			state->regs[dst_regno] = *reg;
		} else if (__is_pointer_value(reg) && !env->allow_ptr_leaks) {
			verr(env, "leaking pointer from stack off %d", off);
			return -EACCES;
		}
		if (dst_regno < 0 || !insn_flags)
			return 0;
		return push_insn_history(env, insn_flags, NULL, 0);
	}
	for (i = 0; i < size; i++) {
		type = stype[(slot - i) % BPF_REG_SIZE];
		if (type == STACK_MISC || type == STACK_ZERO)
			continue;
		if (type == STACK_INVALID && env->allow_uninit_stack) {
			note_uninit_read(env);
			continue;
		}
		verr(env, "invalid read from stack off %d+%d size %d", off, i, size);
		return -EACCES;
	}
	if (dst_regno >= 0)
		mark_reg_stack_read(env, reg_state, off, off + size, dst_regno);
	return 0;
}

static int check_stack_range_initialized(struct bpf_verifier_env *env, int regno, int off,
					 int access_size, bool zero_size_allowed,
					 enum bpf_access_type type, bool raw_mode);

/* Variable-offset read: every byte it may touch must be readable. */
static int check_stack_read_var_off(struct bpf_verifier_env *env, int ptr_regno, int off, int size,
				    int dst_regno)
{
	struct bpf_reg_state *reg = &cur_regs(env)[ptr_regno];
	struct bpf_func_state *ptr_state = func(env, reg);
	int err, min_off, max_off;

	err = check_stack_range_initialized(env, ptr_regno, off, size, false, BPF_READ, false);
	if (err)
		return err;
	min_off = reg->smin_value + off;
	max_off = reg->smax_value + off;
	mark_reg_stack_read(env, ptr_state, min_off, max_off + size, dst_regno);
	return 0;
}

static int check_stack_read(struct bpf_verifier_env *env, int ptr_regno, int off, int size,
			    int dst_regno)
{
	struct bpf_reg_state *reg = &cur_regs(env)[ptr_regno];
	struct bpf_func_state *state = func(env, reg);

	if (dst_regno < 0 && !tnum_is_const(reg->var_off)) {
		char tn_buf[48];

		tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
		verr(env, "variable offset stack pointer cannot be passed into helper function; var_off=%s off=%d size=%d",
		     tn_buf, off, size);
		return -EACCES;
	}
	if (!env->bypass_spec_v1 && !tnum_is_const(reg->var_off)) {
		char tn_buf[48];

		tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
		verr(env, "R%d variable offset stack access prohibited for !root, var_off=%s",
		     ptr_regno, tn_buf);
		return -EACCES;
	}
	if (tnum_is_const(reg->var_off))
		return check_stack_read_fixed_off(env, state, off + reg->var_off.value, size,
						  dst_regno);
	return check_stack_read_var_off(env, ptr_regno, off, size, dst_regno);
}

static int check_stack_write(struct bpf_verifier_env *env, int ptr_regno, int off, int size,
			     int value_regno)
{
	struct bpf_reg_state *reg = &cur_regs(env)[ptr_regno];
	struct bpf_func_state *state = func(env, reg);

	if (tnum_is_const(reg->var_off))
		return check_stack_write_fixed_off(env, state, off + reg->var_off.value, size,
						   value_regno);
	return check_stack_write_var_off(env, state, ptr_regno, off, size, value_regno);
}

static int check_stack_access_within_bounds(struct bpf_verifier_env *env, int regno, int off,
					    int access_size, int type)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	const char *err_extra = type == BPF_READ ? " read from" : " write to";
	s64 min_off, max_off;
	int err = 0;

	if (tnum_is_const(reg->var_off)) {
		min_off = (s64)reg->var_off.value + off;
		max_off = min_off + access_size;
	} else {
		if (reg->smax_value >= BPF_MAX_VAR_OFF || reg->smin_value <= -BPF_MAX_VAR_OFF) {
			verr(env, "invalid unbounded variable-offset%s stack R%d", err_extra, regno);
			return -EACCES;
		}
		min_off = reg->smin_value + off;
		max_off = reg->smax_value + off + access_size;
	}
	if (min_off < -MAX_BPF_STACK || min_off > -1)
		err = -EACCES;
	else if (max_off > 0)
		err = -EINVAL;
	else if (access_size < 0)
		err = -EFAULT;
	if (err) {
		if (tnum_is_const(reg->var_off)) {
			verr(env, "invalid%s stack R%d off=%d size=%d", err_extra, regno, off,
			     access_size);
		} else {
			char tn_buf[48];

			tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
			verr(env, "invalid variable-offset%s stack R%d var_off=%s off=%d size=%d",
			     err_extra, regno, tn_buf, off, access_size);
		}
		return err;
	}
	update_stack_depth(env, func(env, reg), min_off);
	return 0;
}

/*
 * Memory a helper reads or writes on the stack: [off, off + access_size)
 * of R@regno, for every value of its variable offset. Written memory
 * (MEM_WRITE) loses its spills; uninitialised memory (MEM_UNINIT, raw
 * mode) is written byte by byte by the caller after the call is checked.
 */
static int check_stack_range_initialized(struct bpf_verifier_env *env, int regno, int off,
					 int access_size, bool zero_size_allowed,
					 enum bpf_access_type type, bool raw_mode)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	struct bpf_func_state *state = func(env, reg);
	bool clobber = type == BPF_WRITE;
	int err, min_off, max_off, i, j;

	if (access_size == 0 && !zero_size_allowed) {
		verr(env, "invalid zero-sized read");
		return -EACCES;
	}
	err = check_stack_access_within_bounds(env, regno, off, access_size, type);
	if (err)
		return err;
	if (tnum_is_const(reg->var_off)) {
		min_off = max_off = reg->var_off.value + off;
	} else {
		if (!env->bypass_spec_v1) {
			char tn_buf[48];

			tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
			verr(env, "R%d variable offset stack access prohibited for !root, var_off=%s",
			     regno, tn_buf);
			return -EACCES;
		}
		raw_mode = false;
		min_off = reg->smin_value + off;
		max_off = reg->smax_value + off;
	}
	if (raw_mode) {
		for (i = min_off; i < max_off + access_size; i++) {
			int slot = -i - 1, spi = slot / BPF_REG_SIZE;

			if (state->stack[spi].slot_type[slot % BPF_REG_SIZE] == STACK_DYNPTR) {
				verr(env, "potential write to dynptr at off=%d disallowed", i);
				return -EACCES;
			}
		}
		return 0;
	}
	for (i = min_off; i < max_off + access_size; i++) {
		int slot = -i - 1, spi = slot / BPF_REG_SIZE;
		u8 *stype = &state->stack[spi].slot_type[slot % BPF_REG_SIZE];

		if (*stype == STACK_MISC)
			continue;
		if (*stype == STACK_ZERO || (*stype == STACK_INVALID && env->allow_uninit_stack)) {
			if (*stype == STACK_INVALID)
				note_uninit_read(env);
			if (clobber)
				*stype = STACK_MISC;
			continue;
		}
		if (is_spilled_reg(&state->stack[spi]) &&
		    (state->stack[spi].spilled_ptr.type == SCALAR_VALUE || env->allow_ptr_leaks)) {
			if (clobber) {
				__mark_reg_unknown(&state->stack[spi].spilled_ptr);
				for (j = 0; j < BPF_REG_SIZE; j++)
					scrub_spilled_slot(&state->stack[spi].slot_type[j]);
			}
			continue;
		}
		if (tnum_is_const(reg->var_off)) {
			verr(env, "invalid read from stack R%d off %d+%d size %d", regno, min_off,
			     i - min_off, access_size);
		} else {
			char tn_buf[48];

			tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
			verr(env, "invalid read from stack R%d var_off %s+%d size %d", regno, tn_buf,
			     i - min_off, access_size);
		}
		return -EACCES;
	}
	return 0;
}

/* ---- memory ----------------------------------------------------------- */

static int __check_mem_access(struct bpf_verifier_env *env, int regno, int off, int size,
			      u32 mem_size, bool zero_size_allowed)
{
	bool size_ok = size > 0 || (size == 0 && zero_size_allowed);
	struct bpf_reg_state *reg;

	if (off >= 0 && size_ok && (u64)off + size <= mem_size)
		return 0;
	reg = &cur_regs(env)[regno];
	switch (base_type(reg->type)) {
	case PTR_TO_MAP_KEY:
		verr(env, "invalid access to map key, key_size=%d off=%d size=%d", mem_size, off, size);
		break;
	case PTR_TO_MAP_VALUE:
		verr(env, "invalid access to map value, value_size=%d off=%d size=%d", mem_size, off,
		     size);
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET_END:
		verr(env, "invalid access to packet, off=%d size=%d, R%d(id=%d,off=%d,r=%d)", off, size,
		     regno, reg->id, off, mem_size);
		break;
	default:
		verr(env, "invalid access to memory, mem_size=%u off=%d size=%d", mem_size, off, size);
	}
	return -EACCES;
}

/* [off, off + size) of R@regno, whose variable offset has its bounds, within mem_size. */
static int check_mem_region_access(struct bpf_verifier_env *env, u32 regno, int off, int size,
				   u32 mem_size, bool zero_size_allowed)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	int err;

	if (reg->smin_value < 0 &&
	    (reg->smin_value == S64_MIN || (off + reg->smin_value != (s64)(s32)(off + reg->smin_value)) ||
	     reg->smin_value + off < 0)) {
		verr(env, "R%d min value is negative, either use unsigned index or do a if (index >=0) check.",
		     regno);
		return -EACCES;
	}
	err = __check_mem_access(env, regno, reg->smin_value + off, size, mem_size,
				 zero_size_allowed);
	if (err) {
		verr(env, "R%d min value is outside of the allowed memory range", regno);
		return err;
	}
	if (reg->umax_value >= BPF_MAX_VAR_OFF) {
		verr(env, "R%d unbounded memory access, make sure to bounds check any such access",
		     regno);
		return -EACCES;
	}
	err = __check_mem_access(env, regno, reg->umax_value + off, size, mem_size,
				 zero_size_allowed);
	if (err) {
		verr(env, "R%d max value is outside of the allowed memory range", regno);
		return err;
	}
	return 0;
}

static int check_packet_access(struct bpf_verifier_env *env, u32 regno, int off, int size,
			       bool zero_size_allowed)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	int err;

	if (reg->smin_value < 0) {
		verr(env, "R%d min value is negative, either use unsigned index or do a if (index >=0) check.",
		     regno);
		return -EACCES;
	}
	err = reg->range < 0 ? -EINVAL :
	      __check_mem_access(env, regno, off, size, reg->range, zero_size_allowed);
	if (err) {
		verr(env, "R%d offset is outside of the packet", regno);
		return err;
	}
	return 0;
}

static int check_map_access(struct bpf_verifier_env *env, u32 regno, int off, int size,
			    bool zero_size_allowed)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	struct bpf_map *map = reg->map_ptr;
	int err;

	err = check_mem_region_access(env, regno, off, size, map->value_size, zero_size_allowed);
	if (err)
		return err;
	/* the lock word belongs to bpf_spin_lock()/bpf_spin_unlock() alone */
	if (btf_record_has_spin_lock(map)) {
		s64 p = map->spin_lock_off;

		if (reg->smin_value + off < p + (s64)sizeof(u32) &&
		    p < (s64)reg->umax_value + off + size) {
			verr(env, "bpf_spin_lock cannot be accessed directly by load/store");
			return -EACCES;
		}
	}
	return 0;
}

static int check_map_access_type(struct bpf_verifier_env *env, u32 regno, int off, int size,
				 enum bpf_access_type type)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	struct bpf_map *map = reg->map_ptr;
	bool rdonly = map->rdonly_prog || (map->map_flags & BPF_F_RDONLY_PROG);
	bool wronly = map->map_flags & BPF_F_WRONLY_PROG;

	if (type == BPF_WRITE && rdonly) {
		verr(env, "write into map forbidden, value_size=%d off=%d size=%d", map->value_size,
		     off, size);
		return -EACCES;
	}
	if (type == BPF_READ && wronly) {
		verr(env, "read from map forbidden, value_size=%d off=%d size=%d", map->value_size,
		     off, size);
		return -EACCES;
	}
	return 0;
}

/*
 * struct xdp_md: u32 fields, read only (kernel: xdp_is_valid_access());
 * data, data_meta, data_end become packet pointers.
 */
static int check_ctx_access(struct bpf_verifier_env *env, int off, int size,
			    enum bpf_access_type t, u32 *reg_type)
{
	if (env->prog->type != BPF_PROG_TYPE_XDP)
		goto bad;
	if (t == BPF_WRITE)
		goto bad;
	if (off < 0 || off >= (int)sizeof(struct xdp_md) || off % size || size != 4)
		goto bad;
	if (off == offsetof(struct xdp_md, egress_ifindex) &&
	    env->prog->expected_attach_type != BPF_XDP_DEVMAP)
		goto bad;
	switch (off) {
	case offsetof(struct xdp_md, data):
		*reg_type = PTR_TO_PACKET;
		break;
	case offsetof(struct xdp_md, data_meta):
		*reg_type = PTR_TO_PACKET_META;
		break;
	case offsetof(struct xdp_md, data_end):
		*reg_type = PTR_TO_PACKET_END;
		break;
	default:
		*reg_type = SCALAR_VALUE;
	}
	return 0;
bad:
	verr(env, "invalid bpf_context access off=%d size=%d", off, size);
	return -EACCES;
}

static int check_ptr_off_reg(struct bpf_verifier_env *env, const struct bpf_reg_state *reg,
			     int regno)
{
	if (reg->off < 0) {
		verr(env, "negative offset %s ptr R%d off=%d disallowed", reg_type_str(reg->type),
		     regno, reg->off);
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off) || reg->var_off.value) {
		char tn_buf[48];

		tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
		verr(env, "variable %s access var_off=%s disallowed", reg_type_str(reg->type),
		     tn_buf);
		return -EACCES;
	}
	if (reg->off) {
		verr(env, "dereference of modified %s ptr R%d off=%d disallowed",
		     reg_type_str(reg->type), regno, reg->off);
		return -EACCES;
	}
	return 0;
}

static int check_stack_alignment(struct bpf_verifier_env *env, const struct bpf_reg_state *reg,
				 int off, int size)
{
	struct tnum reg_off;

	if (size == 1)
		return 0;
	reg_off = tnum_add(reg->var_off, tnum_const((u64)(s64)(reg->off + off)));
	if (!tnum_is_aligned(reg_off, size)) {
		char tn_buf[48];

		/* a known offset prints as the number, as the kernel's log does */
		if (tnum_is_const(reg->var_off))
			snprintf(tn_buf, sizeof(tn_buf), "%lld", (long long)reg->var_off.value);
		else
			tnum_strn(tn_buf, sizeof(tn_buf), reg->var_off);
		verr(env, "misaligned stack access off %s+%d+%d size %d", tn_buf, reg->off, off,
		     size);
		return -EACCES;
	}
	return 0;
}

static bool is_ctx_reg(struct bpf_verifier_env *env, int regno)
{
	return cur_regs(env)[regno].type == PTR_TO_CTX;
}

static bool is_pkt_reg(struct bpf_verifier_env *env, int regno)
{
	return is_pkt_type(cur_regs(env)[regno].type);
}

/*
 * A load or store of @bpf_size at R@regno + @off. For loads the value goes
 * into R@value_regno; for stores R@value_regno is stored (< 0: an
 * immediate). Kernel: check_mem_access().
 */
/*
 * A load through a pointer to a kernel struct a kfunc returned (struct
 * nf_conn ...): any scalar field of the struct, at a constant offset, read
 * only. uxdp knows the struct's size, not its members; no such pointer is
 * ever non-NULL at run time (<linux/btf.h>). Kernel: check_ptr_to_btf_access()
 */
static int check_ptr_to_btf_access(struct bpf_verifier_env *env, u32 regno, int off, int size,
				   enum bpf_access_type t, int value_regno)
{
	struct bpf_reg_state *regs = cur_regs(env), *reg = &regs[regno];
	const char *tname = btf_kernel_struct_name(reg->btf_id);
	s64 o = (s64)off + reg->off;

	if (t == BPF_WRITE) {
		verr(env, "only read is supported");
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off) || reg->var_off.value) {
		verr(env, "R%d is ptr_%s invalid variable offset: off=%d, var_off=%s", regno, tname,
		     reg->off, "(non-constant)");
		return -EACCES;
	}
	if (o < 0) {
		verr(env, "R%d is ptr_%s invalid negative access: off=%lld", regno, tname,
		     (long long)o);
		return -EACCES;
	}
	if (o + size > btf_kernel_struct_size(reg->btf_id)) {
		verr(env, "access beyond struct %s at off %lld size %d", tname, (long long)o, size);
		return -EACCES;
	}
	record_access(env, ACC_PROVEN, BPF_RGN(BPF_RGN_NONE, 0));
	if (value_regno >= 0)
		mark_reg_unknown(regs, value_regno);
	return 0;
}

static int check_mem_access(struct bpf_verifier_env *env, u32 regno, int off, int bpf_size,
			    enum bpf_access_type t, int value_regno, bool is_ldsx)
{
	struct bpf_reg_state *regs = cur_regs(env);
	struct bpf_reg_state *reg = &regs[regno];
	struct bpf_insn_aux_data *aux = &env->aux[env->insn_idx];
	int size = bpf_size_to_bytes(bpf_size), err;

	if (reg->type == PTR_TO_CTX) {
		if (aux->access != ACC_NONE && aux->access != ACC_CTX)
			goto mixed;
	} else if (aux->access == ACC_CTX) {
		goto mixed;
	}
	switch (base_type(reg->type)) {
	case PTR_TO_MAP_VALUE:
		if (type_may_be_null(reg->type))
			goto bad_type;
		if (t == BPF_WRITE && value_regno >= 0 && is_pointer_value(env, &regs[value_regno])) {
			verr(env, "R%d leaks addr into map", value_regno);
			return -EACCES;
		}
		err = check_map_access_type(env, regno, off + reg->off, size, t) ?:
		      check_map_access(env, regno, off + reg->off, size, false);
		if (err)
			return err;
		record_access(env, ACC_PROVEN, reg_region(env, reg));
		if (t == BPF_READ && value_regno >= 0) {
			struct bpf_map *map = reg->map_ptr;
			u64 addr;

			/* a read-only frozen map's constant: the kernel knows its value */
			if (tnum_is_const(reg->var_off) && (map->rdonly_prog ||
			    (map->map_flags & BPF_F_RDONLY_PROG)) && map->frozen &&
			    map->ops->map_direct_value_addr &&
			    !map->ops->map_direct_value_addr(map, &addr, 0)) {
				const u8 *p = (const u8 *)(uintptr_t)addr + off + reg->off +
					      reg->var_off.value;
				u64 v = 0;

				memcpy(&v, p, size);	/* little endian */
				__mark_reg_known(&regs[value_regno], v);
				regs[value_regno].type = SCALAR_VALUE;
			} else {
				mark_reg_unknown(regs, value_regno);
			}
		}
		break;
	case PTR_TO_MEM:
		if (type_may_be_null(reg->type))
			goto bad_type;
		if (reg->type & MEM_RDONLY && t == BPF_WRITE) {
			verr(env, "R%d cannot write into %s", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		if (t == BPF_WRITE && value_regno >= 0 && is_pointer_value(env, &regs[value_regno])) {
			verr(env, "R%d leaks addr into mem", value_regno);
			return -EACCES;
		}
		if (reg->mem_size == U32_MAX) {
			/* raw test memory of a size known at run time only */
			record_access(env, ACC_CHECKED, BPF_RGN(BPF_RGN_MEM, 0));
		} else {
			err = check_mem_region_access(env, regno, off + reg->off, size, reg->mem_size,
						      false);
			if (err)
				return err;
			record_access(env, ACC_PROVEN, reg_region(env, reg));
		}
		if (t == BPF_READ && value_regno >= 0)
			mark_reg_unknown(regs, value_regno);
		break;
	case PTR_TO_CTX: {
		u32 reg_type = SCALAR_VALUE;

		if (t == BPF_WRITE && value_regno >= 0 && is_pointer_value(env, &regs[value_regno])) {
			verr(env, "R%d leaks addr into ctx", value_regno);
			return -EACCES;
		}
		err = check_ptr_off_reg(env, reg, regno);
		if (err)
			return err;
		if (is_ldsx) {
			/* no struct xdp_md field is read sign-extended */
			verr(env, "invalid bpf_context access off=%d size=%d", off, size);
			return -EACCES;
		}
		err = check_ctx_access(env, off, size, t, &reg_type);
		if (err)
			return err;
		if (aux->access == ACC_CTX && aux->ctx_field != off) {
			verr(env, "same insn cannot be used with different pointers");
			return -EINVAL;
		}
		aux->access = ACC_CTX;
		aux->ctx_field = off;
		if (t == BPF_READ && value_regno >= 0) {
			if (reg_type == SCALAR_VALUE) {
				mark_reg_unknown(regs, value_regno);
			} else {
				mark_reg_ptr(&regs[value_regno], reg_type);
				if (reg_type == PTR_TO_PACKET || reg_type == PTR_TO_PACKET_META)
					regs[value_regno].id = 0;
			}
		}
		break;
	}
	case PTR_TO_STACK:
		err = check_stack_alignment(env, reg, off, size);
		if (err)
			return err;
		off += reg->off;
		err = check_stack_access_within_bounds(env, regno, off, size, t);
		if (err)
			return err;
		if (t == BPF_READ)
			err = check_stack_read(env, regno, off, size, value_regno);
		else
			err = check_stack_write(env, regno, off, size, value_regno);
		if (err)
			return err;
		record_access(env, ACC_PROVEN, BPF_RGN(BPF_RGN_STACK, 0));
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		if (t == BPF_WRITE && value_regno >= 0 && is_pointer_value(env, &regs[value_regno])) {
			verr(env, "R%d leaks addr into packet", value_regno);
			return -EACCES;
		}
		err = check_packet_access(env, regno, off + reg->off, size, false);
		if (err)
			return err;
		if (t == BPF_WRITE)
			env->seen_direct_write = true;
		record_access(env, ACC_PROVEN, BPF_RGN(BPF_RGN_PKT, 0));
		if (t == BPF_READ && value_regno >= 0)
			mark_reg_unknown(regs, value_regno);
		break;
	case PTR_TO_BTF_ID:
		if (type_may_be_null(reg->type))
			goto bad_type;
		err = check_ptr_to_btf_access(env, regno, off, size, t, value_regno);
		if (err)
			return err;
		break;
	default:
		goto bad_type;
	}
	if (t == BPF_READ && value_regno >= 0 && size < BPF_REG_SIZE &&
	    regs[value_regno].type == SCALAR_VALUE) {
		if (!is_ldsx)
			coerce_reg_to_size(&regs[value_regno], size);
		else
			coerce_reg_to_size_sx(&regs[value_regno], size);
	}
	return 0;
bad_type:
	verr(env, "R%d invalid mem access '%s'", regno, reg_type_str(reg->type));
	return -EACCES;
mixed:
	verr(env, "same insn cannot be used with different pointers");
	return -EINVAL;
}

static int check_load_mem(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	int err;

	err = check_reg_arg(env, insn->src_reg, SRC_OP) ?:
	      check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
	if (err)
		return err;
	return check_mem_access(env, insn->src_reg, insn->off, BPF_SIZE(insn->code), BPF_READ,
				insn->dst_reg, BPF_MODE(insn->code) == BPF_MEMSX);
}

static int check_store_reg(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	int err;

	err = check_reg_arg(env, insn->src_reg, SRC_OP) ?:
	      check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	return check_mem_access(env, insn->dst_reg, insn->off, BPF_SIZE(insn->code), BPF_WRITE,
				insn->src_reg, false);
}

static int check_atomic(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	struct bpf_reg_state *regs = cur_regs(env);
	int load_reg, err;

	if (insn->imm == BPF_LOAD_ACQ) {
		/* dst = smp_load_acquire(src + off) */
		err = check_reg_arg(env, insn->src_reg, SRC_OP) ?:
		      check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
		if (err)
			return err;
		if (is_ctx_reg(env, insn->src_reg) || is_pkt_reg(env, insn->src_reg)) {
			verr(env, "BPF_ATOMIC loads from R%d %s is not allowed", insn->src_reg,
			     reg_type_str(regs[insn->src_reg].type));
			return -EACCES;
		}
		return check_mem_access(env, insn->src_reg, insn->off, BPF_SIZE(insn->code),
					BPF_READ, insn->dst_reg, false);
	}
	if (insn->imm == BPF_STORE_REL) {
		err = check_reg_arg(env, insn->src_reg, SRC_OP) ?:
		      check_reg_arg(env, insn->dst_reg, SRC_OP);
		if (err)
			return err;
		return check_mem_access(env, insn->dst_reg, insn->off, BPF_SIZE(insn->code),
					BPF_WRITE, insn->src_reg, false);
	}
	if (BPF_SIZE(insn->code) != BPF_W && BPF_SIZE(insn->code) != BPF_DW) {
		verr(env, "invalid atomic operand size");
		return -EINVAL;
	}
	err = check_reg_arg(env, insn->src_reg, SRC_OP) ?:
	      check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	if (insn->imm == BPF_CMPXCHG) {
		err = check_reg_arg(env, BPF_REG_0, SRC_OP);
		if (err)
			return err;
		if (__is_pointer_value(&regs[BPF_REG_0]) && !env->allow_ptr_leaks) {
			verr(env, "R%d leaks addr into mem", BPF_REG_0);
			return -EACCES;
		}
	}
	if (__is_pointer_value(&regs[insn->src_reg]) && !env->allow_ptr_leaks) {
		verr(env, "R%d leaks addr into mem", insn->src_reg);
		return -EACCES;
	}
	if (is_ctx_reg(env, insn->dst_reg) || is_pkt_reg(env, insn->dst_reg) ||
	    base_type(regs[insn->dst_reg].type) == PTR_TO_MAP_KEY) {
		verr(env, "BPF_ATOMIC stores into R%d %s is not allowed", insn->dst_reg,
		     reg_type_str(regs[insn->dst_reg].type));
		return -EACCES;
	}
	if (insn->imm & BPF_FETCH) {
		load_reg = insn->imm == BPF_CMPXCHG ? BPF_REG_0 : insn->src_reg;
		err = check_reg_arg(env, load_reg, DST_OP);
		if (err)
			return err;
	} else {
		load_reg = -1;
	}
	/* read then write; the read must not see a spilled pointer as a scalar */
	if (base_type(regs[insn->dst_reg].type) == PTR_TO_STACK) {
		struct bpf_reg_state *ptr = &regs[insn->dst_reg];
		s64 o = (s64)ptr->off + insn->off + (s64)ptr->var_off.value;

		if (tnum_is_const(ptr->var_off) && o < 0 && o >= -MAX_BPF_STACK &&
		    is_spilled_reg(&func(env, ptr)->stack[(-o - 1) / BPF_REG_SIZE]) &&
		    __is_pointer_value(&func(env, ptr)->stack[(-o - 1) / BPF_REG_SIZE].spilled_ptr)) {
			verr(env, "BPF_ATOMIC on a spilled pointer is not allowed");
			return -EACCES;
		}
	}
	err = check_mem_access(env, insn->dst_reg, insn->off, BPF_SIZE(insn->code), BPF_READ,
			       load_reg, false);
	if (err)
		return err;
	if (load_reg >= 0 && BPF_SIZE(insn->code) == BPF_W)
		coerce_reg_to_size(&regs[load_reg], 4);
	err = check_mem_access(env, insn->dst_reg, insn->off, BPF_SIZE(insn->code), BPF_WRITE,
			       -1, false);
	if (err)
		return err;
	return 0;
}

/* ---- ALU -------------------------------------------------------------- */

static bool signed_add_overflows(s64 a, s64 b)
{
	s64 r;

	return __builtin_add_overflow(a, b, &r);
}

static bool signed_sub_overflows(s64 a, s64 b)
{
	s64 r;

	return __builtin_sub_overflow(a, b, &r);
}

static bool check_reg_sane_offset(struct bpf_verifier_env *env, const struct bpf_reg_state *reg,
				  u32 type)
{
	bool known = tnum_is_const(reg->var_off);
	s64 val = reg->var_off.value, smin = reg->smin_value;

	if (known && (val >= BPF_MAX_VAR_OFF || val <= -BPF_MAX_VAR_OFF)) {
		verr(env, "math between %s pointer and %lld is not allowed", reg_type_str(type),
		     (long long)val);
		return false;
	}
	if (reg->off >= BPF_MAX_VAR_OFF || reg->off <= -BPF_MAX_VAR_OFF) {
		verr(env, "%s pointer offset %d is not allowed", reg_type_str(type), reg->off);
		return false;
	}
	if (smin == S64_MIN) {
		verr(env, "math between %s pointer and register with unbounded min value is not allowed",
		     reg_type_str(type));
		return false;
	}
	if (smin >= BPF_MAX_VAR_OFF || smin <= -BPF_MAX_VAR_OFF) {
		verr(env, "value %lld makes %s pointer be out of bounds", (long long)smin,
		     reg_type_str(type));
		return false;
	}
	return true;
}

/*
 * dst = ptr +/- scalar: the kernel's adjust_ptr_min_max_vals(). Fixed
 * offsets accumulate in ->off, variable ones in var_off and the bounds; a
 * packet pointer with a new variable part gets a new id and range 0.
 */
static const char *const bpf_alu_string[16] = {
	[BPF_ADD >> 4] = "+=", [BPF_SUB >> 4] = "-=", [BPF_MUL >> 4] = "*=",
	[BPF_DIV >> 4] = "/=", [BPF_OR >> 4] = "|=", [BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=", [BPF_RSH >> 4] = ">>=", [BPF_NEG >> 4] = "neg",
	[BPF_MOD >> 4] = "%=", [BPF_XOR >> 4] = "^=", [BPF_MOV >> 4] = "=",
	[BPF_ARSH >> 4] = "s>>=", [BPF_END >> 4] = "endian",
};

static int adjust_ptr_min_max_vals(struct bpf_verifier_env *env, const struct bpf_insn *insn,
				   const struct bpf_reg_state *ptr_reg,
				   const struct bpf_reg_state *off_reg, bool off_is_dst)
{
	struct bpf_reg_state *regs = cur_regs(env), *dst_reg = &regs[insn->dst_reg];
	bool known = tnum_is_const(off_reg->var_off);
	s64 smin_val = off_reg->smin_value, smax_val = off_reg->smax_value;
	u64 umin_val = off_reg->umin_value, umax_val = off_reg->umax_value;
	s64 smin_ptr = ptr_reg->smin_value, smax_ptr = ptr_reg->smax_value;
	u64 umin_ptr = ptr_reg->umin_value, umax_ptr = ptr_reg->umax_value;
	u8 opcode = BPF_OP(insn->code);
	u32 dst = insn->dst_reg;
	struct bpf_reg_state tmp;

	dst_reg->type = SCALAR_VALUE;	/* until proven otherwise */
	if ((known && (smin_val != smax_val || umin_val != umax_val)) || smin_val > smax_val ||
	    umin_val > umax_val) {
		/* dead branch: impossible bounds */
		__mark_reg_unknown(dst_reg);
		return 0;
	}
	if (BPF_CLASS(insn->code) != BPF_ALU64) {
		if (opcode == BPF_SUB && env->allow_ptr_leaks) {
			__mark_reg_unknown(dst_reg);
			return 0;
		}
		verr(env, "R%d 32-bit pointer arithmetic prohibited", dst);
		return -EACCES;
	}
	if (type_may_be_null(ptr_reg->type)) {
		verr(env, "R%d pointer arithmetic on %s prohibited, null-check it first", dst,
		     reg_type_str(ptr_reg->type));
		return -EACCES;
	}
	switch (base_type(ptr_reg->type)) {
	case PTR_TO_CTX:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
	case PTR_TO_STACK:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET:
	case PTR_TO_MEM:
		break;
	case CONST_PTR_TO_MAP:
		/* smin_val is the offset of a map field (the kernel's btf-typed access) */
		if (known && smin_val == 0 && opcode == BPF_ADD)
			break;
		/* fallthrough */
	default:
		verr(env, "R%d pointer arithmetic on %s prohibited", dst,
		     reg_type_str(ptr_reg->type));
		return -EACCES;
	}
	/* the pointer's own fields (type, id, map, range) */
	tmp = *ptr_reg;
	*dst_reg = tmp;
	if (!check_reg_sane_offset(env, off_reg, ptr_reg->type) ||
	    !check_reg_sane_offset(env, ptr_reg, ptr_reg->type))
		return -EINVAL;
	__mark_reg32_unbounded(dst_reg);

	switch (opcode) {
	case BPF_ADD:
		if (known && (ptr_reg->off + smin_val == (s64)(s32)(ptr_reg->off + smin_val))) {
			dst_reg->smin_value = smin_ptr;
			dst_reg->smax_value = smax_ptr;
			dst_reg->umin_value = umin_ptr;
			dst_reg->umax_value = umax_ptr;
			dst_reg->var_off = ptr_reg->var_off;
			dst_reg->off = ptr_reg->off + (s32)smin_val;
			dst_reg->range = ptr_reg->range;
			break;
		}
		if (signed_add_overflows(smin_ptr, smin_val) ||
		    signed_add_overflows(smax_ptr, smax_val)) {
			dst_reg->smin_value = S64_MIN;
			dst_reg->smax_value = S64_MAX;
		} else {
			dst_reg->smin_value = smin_ptr + smin_val;
			dst_reg->smax_value = smax_ptr + smax_val;
		}
		if (umin_ptr + umin_val < umin_ptr || umax_ptr + umax_val < umax_ptr) {
			dst_reg->umin_value = 0;
			dst_reg->umax_value = U64_MAX;
		} else {
			dst_reg->umin_value = umin_ptr + umin_val;
			dst_reg->umax_value = umax_ptr + umax_val;
		}
		dst_reg->var_off = tnum_add(ptr_reg->var_off, off_reg->var_off);
		dst_reg->off = ptr_reg->off;
		if (is_pkt_type(ptr_reg->type)) {
			dst_reg->id = ++env->id_gen;
			dst_reg->range = 0;
		}
		break;
	case BPF_SUB:
		if (off_is_dst) {
			verr(env, "R%d tried to subtract pointer from scalar", dst);
			return -EACCES;
		}
		if (ptr_reg->type == PTR_TO_STACK) {
			verr(env, "R%d subtraction from stack pointer prohibited", dst);
			return -EACCES;
		}
		if (known && (ptr_reg->off - smin_val == (s64)(s32)(ptr_reg->off - smin_val))) {
			dst_reg->smin_value = smin_ptr;
			dst_reg->smax_value = smax_ptr;
			dst_reg->umin_value = umin_ptr;
			dst_reg->umax_value = umax_ptr;
			dst_reg->var_off = ptr_reg->var_off;
			dst_reg->id = ptr_reg->id;
			dst_reg->off = ptr_reg->off - (s32)smin_val;
			dst_reg->range = ptr_reg->range;
			break;
		}
		if (signed_sub_overflows(smin_ptr, smax_val) ||
		    signed_sub_overflows(smax_ptr, smin_val)) {
			dst_reg->smin_value = S64_MIN;
			dst_reg->smax_value = S64_MAX;
		} else {
			dst_reg->smin_value = smin_ptr - smax_val;
			dst_reg->smax_value = smax_ptr - smin_val;
		}
		if (umin_ptr < umax_val) {
			dst_reg->umin_value = 0;
			dst_reg->umax_value = U64_MAX;
		} else {
			dst_reg->umin_value = umin_ptr - umax_val;
			dst_reg->umax_value = umax_ptr - umin_val;
		}
		dst_reg->var_off = tnum_sub(ptr_reg->var_off, off_reg->var_off);
		dst_reg->off = ptr_reg->off;
		if (is_pkt_type(ptr_reg->type)) {
			dst_reg->id = ++env->id_gen;
			if (smin_val < 0)
				dst_reg->range = 0;
		}
		break;
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		verr(env, "R%d bitwise operator %s on pointer prohibited", dst,
		     bpf_alu_string[opcode >> 4]);
		return -EACCES;
	default:
		verr(env, "R%d pointer arithmetic with %s operator prohibited", dst,
		     bpf_alu_string[opcode >> 4]);
		return -EACCES;
	}
	if (!check_reg_sane_offset(env, dst_reg, ptr_reg->type))
		return -EINVAL;
	reg_bounds_sync(dst_reg);
	return 0;
}

/* dst op= src where either may be a pointer. Kernel: adjust_reg_min_max_vals(). */
static int adjust_reg_min_max_vals(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	struct bpf_reg_state *regs = cur_regs(env), *dst_reg = &regs[insn->dst_reg];
	struct bpf_reg_state *src_reg = NULL, off_reg;
	u8 opcode = BPF_OP(insn->code);
	int err;

	if (BPF_SRC(insn->code) == BPF_X) {
		src_reg = &regs[insn->src_reg];
		if (src_reg->type != SCALAR_VALUE) {
			if (dst_reg->type != SCALAR_VALUE) {
				/* pointer - pointer gives a scalar; nothing else */
				if (opcode == BPF_SUB && env->allow_ptr_leaks) {
					mark_reg_unknown(regs, insn->dst_reg);
					return 0;
				}
				verr(env, "R%d pointer %s pointer prohibited", insn->dst_reg,
				     bpf_alu_string[opcode >> 4]);
				return -EACCES;
			} else {
				struct bpf_reg_state ptr = *src_reg, scalar = *dst_reg;

				/* the offset of a pointer is a precise use */
				err = mark_chain_precision(env, insn->dst_reg);
				if (err)
					return err;
				return adjust_ptr_min_max_vals(env, insn, &ptr, &scalar, true);
			}
		} else if (dst_reg->type != SCALAR_VALUE) {
			struct bpf_reg_state ptr = *dst_reg, scalar = *src_reg;

			err = mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
			return adjust_ptr_min_max_vals(env, insn, &ptr, &scalar, false);
		} else if (dst_reg->precise) {
			err = mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
		}
		err = adjust_scalar_min_max_vals(env, insn, dst_reg, *src_reg);
		/* the result is no longer the copy it may have been */
		dst_reg->id = 0;
		return err;
	}
	memset(&off_reg, 0, sizeof(off_reg));
	off_reg.type = SCALAR_VALUE;
	__mark_reg_known(&off_reg, BPF_CLASS(insn->code) == BPF_ALU64 ? (u64)(s64)insn->imm :
				   (u64)(u32)insn->imm);
	off_reg.type = SCALAR_VALUE;
	if (dst_reg->type != SCALAR_VALUE) {
		struct bpf_reg_state ptr = *dst_reg;

		return adjust_ptr_min_max_vals(env, insn, &ptr, &off_reg, false);
	}
	err = adjust_scalar_min_max_vals(env, insn, dst_reg, off_reg);
	dst_reg->id = 0;
	return err;
}

static int check_alu_op(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	struct bpf_reg_state *regs = cur_regs(env);
	u8 opcode = BPF_OP(insn->code);
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	int err;

	if (opcode == BPF_END || opcode == BPF_NEG) {
		err = check_reg_arg(env, insn->dst_reg, SRC_OP);
		if (err)
			return err;
		if (is_pointer_value(env, &regs[insn->dst_reg])) {
			verr(env, "R%d pointer arithmetic prohibited", insn->dst_reg);
			return -EACCES;
		}
		/* a privileged loader may negate or swap a pointer: a number then */
		if (__is_pointer_value(&regs[insn->dst_reg]))
			return check_reg_arg(env, insn->dst_reg, DST_OP);
		if (opcode == BPF_NEG) {
			err = check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
			if (err)
				return err;
			err = adjust_scalar_min_max_vals(env, insn, &regs[insn->dst_reg],
							 regs[insn->dst_reg]);
			regs[insn->dst_reg].id = 0;
			return err;
		}
		/* byte swap: nothing known about the result */
		return check_reg_arg(env, insn->dst_reg, DST_OP);
	}
	if (opcode == BPF_MOV) {
		struct bpf_reg_state *dst_reg = &regs[insn->dst_reg];

		if (BPF_SRC(insn->code) == BPF_X) {
			struct bpf_reg_state *src_reg = &regs[insn->src_reg];

			err = check_reg_arg(env, insn->src_reg, SRC_OP);
			if (err)
				return err;
			err = check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
			if (err)
				return err;
			if (is64) {
				if (insn->off == 0) {
					/* copying a scalar links the copies for branch refinement */
					assign_scalar_id_before_mov(env, src_reg);
					*dst_reg = *src_reg;
				} else {
					if (__is_pointer_value(src_reg)) {
						verr(env, "R%d sign-extension part of pointer",
						     insn->src_reg);
						return -EACCES;
					}
					if (src_reg->type == SCALAR_VALUE) {
						bool no_sext = src_reg->umax_value <
							       (1ULL << (insn->off - 1));

						if (no_sext)
							assign_scalar_id_before_mov(env, src_reg);
						*dst_reg = *src_reg;
						if (!no_sext)
							dst_reg->id = 0;
						coerce_reg_to_size_sx(dst_reg, insn->off >> 3);
					} else {
						mark_reg_unknown(regs, insn->dst_reg);
					}
				}
			} else {
				if (__is_pointer_value(src_reg)) {
					if (!env->allow_ptr_leaks) {
						verr(env, "R%d partial copy of pointer", insn->src_reg);
						return -EACCES;
					}
					mark_reg_unknown(regs, insn->dst_reg);
				} else if (src_reg->type == SCALAR_VALUE) {
					if (insn->off == 0) {
						bool is_src_reg_u32 = fls64(src_reg->umax_value) <= 32;

						if (is_src_reg_u32)
							assign_scalar_id_before_mov(env, src_reg);
						*dst_reg = *src_reg;
						if (!is_src_reg_u32)
							dst_reg->id = 0;
						zext_32_to_64(dst_reg);
					} else {
						bool no_sext = src_reg->umax_value <
							       (1ULL << (insn->off - 1));

						if (no_sext)
							assign_scalar_id_before_mov(env, src_reg);
						*dst_reg = *src_reg;
						if (!no_sext)
							dst_reg->id = 0;
						coerce_subreg_to_size_sx(dst_reg, insn->off >> 3);
					}
				} else {
					mark_reg_unknown(regs, insn->dst_reg);
				}
				reg_bounds_sync(dst_reg);
			}
		} else {
			err = check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
			if (err)
				return err;
			memset(dst_reg, 0, sizeof(*dst_reg));
			dst_reg->type = SCALAR_VALUE;
			if (is64)
				__mark_reg_known(dst_reg, (u64)(s64)insn->imm);
			else
				__mark_reg_known(dst_reg, (u32)insn->imm);
			dst_reg->type = SCALAR_VALUE;
		}
		return 0;
	}
	if (BPF_SRC(insn->code) == BPF_X) {
		err = check_reg_arg(env, insn->src_reg, SRC_OP);
		if (err)
			return err;
	}
	err = check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	if ((opcode == BPF_MOD || opcode == BPF_DIV) && BPF_SRC(insn->code) == BPF_K &&
	    insn->imm == 0) {
		verr(env, "div by zero");
		return -EINVAL;
	}
	if ((opcode == BPF_LSH || opcode == BPF_RSH || opcode == BPF_ARSH) &&
	    BPF_SRC(insn->code) == BPF_K) {
		int size = is64 ? 64 : 32;

		if (insn->imm < 0 || insn->imm >= size) {
			verr(env, "invalid shift %d", insn->imm);
			return -EINVAL;
		}
	}
	err = check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
	if (err)
		return err;
	err = adjust_reg_min_max_vals(env, insn);
	if (err)
		return err;
	return 0;
}

/* ---- conditional jumps -------------------------------------------------- */

#define AT_PKT_END	-1	/* pkt >= pkt_end */
#define BEYOND_PKT_END	-2	/* pkt > pkt_end */

static int is_pkt_ptr_branch_taken(const struct bpf_reg_state *dst_reg,
				   const struct bpf_reg_state *src_reg, u8 opcode)
{
	const struct bpf_reg_state *pkt;

	if (src_reg->type == PTR_TO_PACKET_END) {
		pkt = dst_reg;
	} else if (dst_reg->type == PTR_TO_PACKET_END) {
		pkt = src_reg;
		opcode = flip_opcode(opcode);
	} else {
		return -1;
	}
	if (pkt->range >= 0)
		return -1;
	switch (opcode) {
	case BPF_JLE:
	case BPF_JGT:
		if (pkt->range == BEYOND_PKT_END)
			return opcode == BPF_JGT;
		break;
	case BPF_JLT:
	case BPF_JGE:
		if (pkt->range == BEYOND_PKT_END || pkt->range == AT_PKT_END)
			return opcode == BPF_JGE;
		break;
	}
	return -1;
}

static bool is_reg_const(const struct bpf_reg_state *reg, bool is_jmp32)
{
	return reg->type == SCALAR_VALUE &&
	       (is_jmp32 ? tnum_is_const(tnum_subreg(reg->var_off)) : tnum_is_const(reg->var_off));
}

static u64 reg_const_value(const struct bpf_reg_state *reg, bool is_jmp32)
{
	return is_jmp32 ? (u32)reg->var_off.value : reg->var_off.value;
}

static int is_branch_taken(struct bpf_reg_state *reg1, struct bpf_reg_state *reg2, u8 opcode,
			   bool is_jmp32)
{
	if (reg_is_pkt_pointer_any(reg1) && reg_is_pkt_pointer_any(reg2) && !is_jmp32)
		return is_pkt_ptr_branch_taken(reg1, reg2, opcode);
	if (__is_pointer_value(reg1) || __is_pointer_value(reg2)) {
		if (!is_reg_const(reg2, is_jmp32)) {
			struct bpf_reg_state *t = reg1;

			opcode = flip_opcode(opcode);
			reg1 = reg2;
			reg2 = t;
		}
		if (!is_reg_const(reg2, is_jmp32))
			return -1;
		/*
		 * Only a 64-bit compare of a non-NULL pointer with 0 is
		 * decided: the kernel walks both sides of a JMP32 one (the
		 * low half of a valid pointer may be 0).
		 */
		if (is_jmp32 || !reg_not_null(reg1))
			return -1;
		if (reg_const_value(reg2, is_jmp32) != 0)
			return -1;
		switch (opcode) {
		case BPF_JEQ:
			return 0;
		case BPF_JNE:
			return 1;
		}
		return -1;
	}
	return is_scalar_branch_taken(reg1, reg2, opcode, is_jmp32);
}

static void mark_pkt_end(struct bpf_verifier_state *vstate, int regn, bool range_open)
{
	struct bpf_reg_state *reg = &vstate->frame[vstate->curframe]->regs[regn];

	if (reg->type != PTR_TO_PACKET)
		return;
	reg->range = range_open ? BEYOND_PKT_END : AT_PKT_END;
}

/* Every pointer of @dst_reg's id and type may now access [pkt, pkt + off). */
static void find_good_pkt_pointers(struct bpf_verifier_state *vstate,
				   const struct bpf_reg_state *dst_reg, u32 type,
				   bool range_right_open)
{
	struct bpf_func_state *state;
	struct bpf_reg_state *reg;
	int new_range;

	if (dst_reg->off < 0 || (dst_reg->off == 0 && range_right_open))
		return;
	if (dst_reg->umax_value > MAX_PACKET_OFF ||
	    dst_reg->umax_value + dst_reg->off > MAX_PACKET_OFF)
		return;
	new_range = dst_reg->off;
	if (range_right_open)
		new_range++;
	bpf_for_each_reg_in_vstate(vstate, state, reg, ({
		if (reg->type == type && reg->id == dst_reg->id && reg->range < new_range)
			reg->range = new_range;
	}));
	(void)state;
}

static bool is_pkt_vs_end(const struct bpf_reg_state *a, const struct bpf_reg_state *b)
{
	return (a->type == PTR_TO_PACKET && b->type == PTR_TO_PACKET_END) ||
	       (a->type == PTR_TO_PACKET_META && reg_is_init_pkt_pointer(b, PTR_TO_PACKET));
}

static bool try_match_pkt_pointers(const struct bpf_insn *insn, struct bpf_reg_state *dst_reg,
				   struct bpf_reg_state *src_reg,
				   struct bpf_verifier_state *this_branch,
				   struct bpf_verifier_state *other_branch)
{
	if (BPF_SRC(insn->code) != BPF_X || BPF_CLASS(insn->code) == BPF_JMP32)
		return false;
	switch (BPF_OP(insn->code)) {
	case BPF_JGT:
		if (is_pkt_vs_end(dst_reg, src_reg)) {
			find_good_pkt_pointers(this_branch, dst_reg, dst_reg->type, false);
			mark_pkt_end(other_branch, insn->dst_reg, true);
		} else if (is_pkt_vs_end(src_reg, dst_reg)) {
			find_good_pkt_pointers(other_branch, src_reg, src_reg->type, true);
			mark_pkt_end(this_branch, insn->src_reg, false);
		} else {
			return false;
		}
		break;
	case BPF_JLT:
		if (is_pkt_vs_end(dst_reg, src_reg)) {
			find_good_pkt_pointers(other_branch, dst_reg, dst_reg->type, true);
			mark_pkt_end(this_branch, insn->dst_reg, false);
		} else if (is_pkt_vs_end(src_reg, dst_reg)) {
			find_good_pkt_pointers(this_branch, src_reg, src_reg->type, false);
			mark_pkt_end(other_branch, insn->src_reg, true);
		} else {
			return false;
		}
		break;
	case BPF_JGE:
		if (is_pkt_vs_end(dst_reg, src_reg)) {
			find_good_pkt_pointers(this_branch, dst_reg, dst_reg->type, true);
			mark_pkt_end(other_branch, insn->dst_reg, false);
		} else if (is_pkt_vs_end(src_reg, dst_reg)) {
			find_good_pkt_pointers(other_branch, src_reg, src_reg->type, false);
			mark_pkt_end(this_branch, insn->src_reg, true);
		} else {
			return false;
		}
		break;
	case BPF_JLE:
		if (is_pkt_vs_end(dst_reg, src_reg)) {
			find_good_pkt_pointers(other_branch, dst_reg, dst_reg->type, false);
			mark_pkt_end(this_branch, insn->dst_reg, true);
		} else if (is_pkt_vs_end(src_reg, dst_reg)) {
			find_good_pkt_pointers(this_branch, src_reg, src_reg->type, true);
			mark_pkt_end(other_branch, insn->src_reg, false);
		} else {
			return false;
		}
		break;
	default:
		return false;
	}
	return true;
}

static void release_reference_state(struct bpf_verifier_state *st, u32 id)
{
	u32 i;

	for (i = 0; i < st->acquired_refs; i++) {
		if (st->refs[i].id != id)
			continue;
		st->refs[i] = st->refs[--st->acquired_refs];
		return;
	}
}

static void mark_ptr_or_null_reg(struct bpf_reg_state *reg, u32 id, bool is_null)
{
	if (!type_may_be_null(reg->type) || reg->id != id)
		return;
	if (is_null) {
		reg->type = SCALAR_VALUE;
		reg->id = 0;
		reg->ref_obj_id = 0;
		return;
	}
	if (base_type(reg->type) == CONST_PTR_TO_MAP)
		reg->type = CONST_PTR_TO_MAP;
	else
		reg->type &= ~PTR_MAYBE_NULL;
	/* the id of a value with a bpf_spin_lock names its lock */
	if (!(base_type(reg->type) == PTR_TO_MAP_VALUE && btf_record_has_spin_lock(reg->map_ptr)))
		reg->id = 0;
}

/* A NULL check of R@regno: every copy (same id) is NULL or not in this branch. */
static void mark_ptr_or_null_regs(struct bpf_verifier_state *vstate, u32 regno, bool is_null)
{
	struct bpf_func_state *state = vstate->frame[vstate->curframe];
	struct bpf_reg_state *regs = state->regs, *reg;
	u32 ref_obj_id = regs[regno].ref_obj_id, id = regs[regno].id;

	if (ref_obj_id && ref_obj_id == id && is_null)
		release_reference_state(vstate, id);
	bpf_for_each_reg_in_vstate(vstate, state, reg, mark_ptr_or_null_reg(reg, id, is_null));
}

/* Scalars linked to @known_reg by a copy learn what the branch taught it. */
static void sync_linked_regs(struct bpf_verifier_state *vstate, const struct bpf_reg_state *known_reg)
{
	struct bpf_func_state *state;
	struct bpf_reg_state *reg;

	bpf_for_each_reg_in_vstate(vstate, state, reg, ({
		if (reg != known_reg && reg->type == SCALAR_VALUE && reg->id == known_reg->id)
			*reg = *known_reg;
	}));
	(void)state;
}

/* Kernel: the mark_chain_precision() calls of check_cond_jmp_op(). */
static int mark_jmp_operands_precise(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	int err;

	err = mark_chain_precision(env, insn->dst_reg);
	if (!err && BPF_SRC(insn->code) == BPF_X)
		err = mark_chain_precision(env, insn->src_reg);
	return err;
}

static void collect_linked_regs(struct bpf_verifier_state *vstate, u32 id,
				struct bpf_linked_reg *linked, u32 *cnt)
{
	struct bpf_func_state *func;
	u32 fr, i;

	for (fr = 0; fr <= vstate->curframe; fr++) {
		func = vstate->frame[fr];
		for (i = 0; i < MAX_BPF_REG; i++) {
			if (func->regs[i].type != SCALAR_VALUE || func->regs[i].id != id)
				continue;
			if (*cnt == BPF_MAX_LINKED_REGS)
				return;
			linked[(*cnt)++] = (struct bpf_linked_reg){ fr, i, true };
		}
		for (i = 0; i < STACK_SLOTS; i++) {
			if (!is_spilled_scalar_reg(&func->stack[i]) || func->stack[i].spilled_ptr.id != id)
				continue;
			if (*cnt == BPF_MAX_LINKED_REGS)
				return;
			linked[(*cnt)++] = (struct bpf_linked_reg){ fr, i, false };
		}
	}
}

/*
 * The scalars sharing an id with the jump's operands learn its bounds
 * (sync_linked_regs()): recorded before the branch is pushed, so both
 * branches see the link when precision is backtracked.
 */
static int push_linked_regs_history(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	struct bpf_verifier_state *vstate = env->cur_state;
	struct bpf_reg_state *regs = vstate->frame[vstate->curframe]->regs;
	struct bpf_linked_reg linked[BPF_MAX_LINKED_REGS];
	u32 cnt = 0;

	if (BPF_SRC(insn->code) == BPF_X && regs[insn->src_reg].type == SCALAR_VALUE &&
	    regs[insn->src_reg].id)
		collect_linked_regs(vstate, regs[insn->src_reg].id, linked, &cnt);
	if (regs[insn->dst_reg].type == SCALAR_VALUE && regs[insn->dst_reg].id &&
	    !(BPF_SRC(insn->code) == BPF_X && regs[insn->src_reg].id == regs[insn->dst_reg].id))
		collect_linked_regs(vstate, regs[insn->dst_reg].id, linked, &cnt);
	if (cnt < 2)
		return 0;
	return push_insn_history(env, 0, linked, cnt);
}

static bool branch_sane(const struct bpf_reg_state *a, const struct bpf_reg_state *b)
{
	return (a->type != SCALAR_VALUE || reg_bounds_sane(a)) &&
	       (b->type != SCALAR_VALUE || reg_bounds_sane(b));
}

static int check_cond_jmp_op(struct bpf_verifier_env *env, const struct bpf_insn *insn,
			     u32 *insn_idx)
{
	struct bpf_verifier_state *this_branch = env->cur_state, *other_branch;
	struct bpf_reg_state *regs = this_branch->frame[this_branch->curframe]->regs, *other_regs;
	struct bpf_reg_state *dst_reg, *src_reg = NULL, fake[2];
	u8 opcode = BPF_OP(insn->code);
	bool is_jmp32 = BPF_CLASS(insn->code) == BPF_JMP32;
	bool other_dead = false, this_dead = false;
	int pred, err;

	if (opcode == BPF_JCOND) {
		/* may_goto: the loop exit is walked later; this path counts one more pass */
		if (insn->src_reg != BPF_MAY_GOTO) {
			verr(env, "invalid may_goto imm %d", insn->imm);
			return -EINVAL;
		}
		other_branch = push_stack(env, *insn_idx + insn->off + 1, *insn_idx);
		if (!other_branch)
			return -ENOMEM;
		env->cur_state->may_goto_depth++;
		return 0;
	}
	if (opcode > BPF_JSLE || opcode == BPF_JA || opcode == BPF_CALL || opcode == BPF_EXIT) {
		verr(env, "invalid BPF_JMP/JMP32 opcode %x", opcode);
		return -EINVAL;
	}
	err = check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	dst_reg = &regs[insn->dst_reg];
	if (BPF_SRC(insn->code) == BPF_X) {
		err = check_reg_arg(env, insn->src_reg, SRC_OP);
		if (err)
			return err;
		src_reg = &regs[insn->src_reg];
		if (!(reg_is_pkt_pointer_any(dst_reg) && reg_is_pkt_pointer_any(src_reg)) &&
		    is_pointer_value(env, src_reg)) {
			verr(env, "R%d pointer comparison prohibited", insn->src_reg);
			return -EACCES;
		}
	} else {
		memset(&fake[0], 0, sizeof(fake[0]));
		fake[0].type = SCALAR_VALUE;
		__mark_reg_known(&fake[0], is_jmp32 ? (u64)(u32)insn->imm : (u64)(s64)insn->imm);
		fake[0].type = SCALAR_VALUE;
		src_reg = &fake[0];
	}

	pred = is_branch_taken(dst_reg, src_reg, opcode, is_jmp32);
	if (pred >= 0) {
		/* the scalars' values decided the branch */
		err = mark_jmp_operands_precise(env, insn);
		if (err)
			return err;
	}
	if (pred == 1) {
		env->aux[*insn_idx].edges |= BPF_EDGE_TAKEN;
		*insn_idx += insn->off;
		return 0;
	}
	if (pred == 0) {
		env->aux[*insn_idx].edges |= BPF_EDGE_FALL;
		return 0;
	}

	err = push_linked_regs_history(env, insn);
	if (err)
		return err;
	other_branch = push_stack(env, *insn_idx + insn->off + 1, *insn_idx);
	if (!other_branch)
		return -ENOMEM;
	other_regs = other_branch->frame[other_branch->curframe]->regs;
	if (BPF_SRC(insn->code) == BPF_X) {
		reg_set_min_max(env, &other_regs[insn->dst_reg], &other_regs[insn->src_reg], dst_reg,
				src_reg, opcode, is_jmp32);
		other_dead = !branch_sane(&other_regs[insn->dst_reg], &other_regs[insn->src_reg]);
		this_dead = !branch_sane(dst_reg, src_reg);
	} else {
		fake[1] = fake[0];
		reg_set_min_max(env, &other_regs[insn->dst_reg], &fake[0], dst_reg, &fake[1], opcode,
				is_jmp32);
		other_dead = !branch_sane(&other_regs[insn->dst_reg], &fake[0]);
		this_dead = !branch_sane(dst_reg, &fake[1]);
	}
	if (BPF_SRC(insn->code) == BPF_X && src_reg->type == SCALAR_VALUE && src_reg->id &&
	    src_reg->id == other_regs[insn->src_reg].id) {
		sync_linked_regs(this_branch, src_reg);
		sync_linked_regs(other_branch, &other_regs[insn->src_reg]);
	}
	if (dst_reg->type == SCALAR_VALUE && dst_reg->id &&
	    dst_reg->id == other_regs[insn->dst_reg].id) {
		sync_linked_regs(this_branch, dst_reg);
		sync_linked_regs(other_branch, &other_regs[insn->dst_reg]);
	}

	if (!is_jmp32 && BPF_SRC(insn->code) == BPF_K && insn->imm == 0 &&
	    (opcode == BPF_JEQ || opcode == BPF_JNE) && type_may_be_null(dst_reg->type)) {
		mark_ptr_or_null_regs(this_branch, insn->dst_reg, opcode == BPF_JNE);
		mark_ptr_or_null_regs(other_branch, insn->dst_reg, opcode == BPF_JEQ);
	} else if (!try_match_pkt_pointers(insn, dst_reg, &regs[insn->src_reg], this_branch,
					   other_branch) &&
		   is_pointer_value(env, dst_reg)) {
		verr(env, "R%d pointer comparison prohibited", insn->dst_reg);
		return -EACCES;
	}
	/* a branch whose bounds contradict each other is never taken */
	if (other_dead)
		env->pop_dead_branch = true;
	else
		env->aux[*insn_idx].edges |= BPF_EDGE_TAKEN;
	if (this_dead)
		env->this_branch_dead = true;
	else
		env->aux[*insn_idx].edges |= BPF_EDGE_FALL;
	if (other_dead || this_dead)
		return mark_jmp_operands_precise(env, insn);
	return 0;
}

/* ---- helper calls ------------------------------------------------------- */

static bool arg_type_is_release(u32 type)
{
	return type & OBJ_RELEASE;
}

struct bpf_call_arg_meta {
	struct bpf_map *map_ptr;
	bool raw_mode;
	int regno;		/* raw mode: the memory argument */
	int access_size;
	u64 msize_max_value;
	u32 ref_obj_id;
	int release_regno;
	u64 mem_size;		/* ARG_CONST_ALLOC_SIZE_OR_ZERO */
	s64 const_map_key;
	int func_id;
	u32 subprogno;		/* ARG_PTR_TO_FUNC */
	u32 dynptr_id;		/* ARG_PTR_TO_DYNPTR: the initialised dynptr's id */
};

static void record_arg_check(struct bpf_verifier_env *env, u32 arg, u32 region, u32 size,
			     u32 size_reg, bool or_null)
{
	struct bpf_insn_aux_data *aux = &env->aux[env->insn_idx];

	if (aux->arg_check[arg] && aux->arg_region[arg] != region)
		region = BPF_RGN(BPF_RGN_ANY, 0);
	aux->arg_check[arg] = true;
	aux->arg_region[arg] = region;
	aux->arg_or_null[arg] = aux->arg_or_null[arg] || or_null;
	aux->arg_size_reg[arg] = size_reg;
	if (!size_reg)
		aux->arg_size[arg] = size;
}

/* Memory a helper touches through R@regno: @access_size bytes. */
static int check_helper_mem_access(struct bpf_verifier_env *env, int regno, int access_size,
				   enum bpf_access_type access_type, bool zero_size_allowed,
				   struct bpf_call_arg_meta *meta)
{
	struct bpf_reg_state *regs = cur_regs(env), *reg = &regs[regno];
	int err;

	switch (base_type(reg->type)) {
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		return check_packet_access(env, regno, reg->off, access_size, zero_size_allowed);
	case PTR_TO_MAP_KEY:
		if (access_type == BPF_WRITE) {
			verr(env, "R%d cannot write into %s", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		return check_mem_region_access(env, regno, reg->off, access_size,
					       reg->map_ptr->key_size, false);
	case PTR_TO_MAP_VALUE:
		if (check_map_access_type(env, regno, reg->off, access_size, access_type))
			return -EACCES;
		return check_map_access(env, regno, reg->off, access_size, zero_size_allowed);
	case PTR_TO_MEM:
		if ((reg->type & MEM_RDONLY) && access_type == BPF_WRITE) {
			verr(env, "R%d cannot write into %s", regno, reg_type_str(reg->type));
			return -EACCES;
		}
		if (reg->mem_size == U32_MAX)
			return 0;	/* raw test memory: checked at run time */
		return check_mem_region_access(env, regno, reg->off, access_size, reg->mem_size,
					       zero_size_allowed);
	case PTR_TO_STACK:
		err = check_stack_range_initialized(env, regno, reg->off, access_size,
						    zero_size_allowed, access_type,
						    meta && meta->raw_mode);
		if (!err && meta && meta->raw_mode && tnum_is_const(reg->var_off)) {
			meta->access_size = access_size;
			meta->regno = regno;
		}
		return err;
	default:
		if (zero_size_allowed && access_size == 0 && register_is_null(reg))
			return 0;
		verr(env, "R%d type=%s expected=fp", regno, reg_type_str(reg->type));
		return -EACCES;
	}
}

static int check_mem_size_reg(struct bpf_verifier_env *env, struct bpf_reg_state *reg, u32 regno,
			      enum bpf_access_type access_type, bool zero_size_allowed,
			      struct bpf_call_arg_meta *meta)
{
	meta->msize_max_value = reg->umax_value;
	if (!tnum_is_const(reg->var_off))
		meta->raw_mode = false;
	if (reg->smin_value < 0) {
		verr(env, "R%d min value is negative, either use unsigned or 'var &= const'", regno);
		return -EACCES;
	}
	if (reg->umin_value == 0 && !zero_size_allowed) {
		verr(env, "R%d invalid zero-sized read: u64=[%lld,%lld]", regno,
		     (long long)reg->umin_value, (long long)reg->umax_value);
		return -EACCES;
	}
	if (reg->umax_value >= BPF_MAX_VAR_SIZ) {
		verr(env, "R%d unbounded memory access, use 'var &= const' or 'if (var < const)'",
		     regno);
		return -EACCES;
	}
	return check_helper_mem_access(env, regno - 1, reg->umax_value, access_type,
				       zero_size_allowed, meta) ?:
	       mark_chain_precision(env, regno);
}

/* Which register types an argument takes (kernel: compatible_reg_types). */
static int check_reg_type(struct bpf_verifier_env *env, u32 regno, u32 arg_type)
{
	static const u32 mem_types[] = { PTR_TO_STACK, PTR_TO_PACKET, PTR_TO_PACKET_META,
		PTR_TO_MAP_KEY, PTR_TO_MAP_VALUE, PTR_TO_MEM, PTR_TO_MEM | MEM_RINGBUF };
	static const u32 key_types[] = { PTR_TO_STACK, PTR_TO_PACKET, PTR_TO_PACKET_META,
		PTR_TO_MAP_KEY, PTR_TO_MAP_VALUE };
	static const u32 map_ptr_types[] = { CONST_PTR_TO_MAP };
	static const u32 ctx_types[] = { PTR_TO_CTX };
	static const u32 func_types[] = { PTR_TO_FUNC };
	static const u32 ringbuf_types[] = { PTR_TO_MEM | MEM_RINGBUF };
	static const u32 stack_types[] = { PTR_TO_STACK };
	static const u32 str_types[] = { PTR_TO_MAP_VALUE };
	static const u32 spin_lock_types[] = { PTR_TO_MAP_VALUE, PTR_TO_BTF_ID | MEM_ALLOC };
	static const u32 dynptr_types[] = { PTR_TO_STACK, CONST_PTR_TO_DYNPTR };
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	const u32 *types;
	u32 n, i, type = reg->type;
	char buf[160];
	int len = 0;

	switch (base_type(arg_type)) {
	case ARG_PTR_TO_MAP_KEY:
		types = key_types, n = ARRAY_SIZE(key_types);
		break;
	case ARG_PTR_TO_MAP_VALUE:
	case ARG_PTR_TO_MEM:
		types = mem_types, n = ARRAY_SIZE(mem_types);
		break;
	case ARG_CONST_MAP_PTR:
		types = map_ptr_types, n = 1;
		break;
	case ARG_PTR_TO_CTX:
		types = ctx_types, n = 1;
		break;
	case ARG_PTR_TO_FUNC:
		types = func_types, n = 1;
		break;
	case ARG_PTR_TO_RINGBUF_MEM:
		types = ringbuf_types, n = 1;
		break;
	case ARG_PTR_TO_STACK:
		types = stack_types, n = 1;
		break;
	case ARG_PTR_TO_CONST_STR:
		types = str_types, n = 1;
		break;
	case ARG_PTR_TO_SPIN_LOCK:
		types = spin_lock_types, n = ARRAY_SIZE(spin_lock_types);
		break;
	case ARG_PTR_TO_DYNPTR:
		types = dynptr_types, n = ARRAY_SIZE(dynptr_types);
		break;
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO:
	case ARG_CONST_ALLOC_SIZE_OR_ZERO: {
		static const u32 scalar_types[] = { SCALAR_VALUE };

		types = scalar_types, n = 1;
		break;
	}
	default:
		verr(env, "helper argument type %u is not supported", arg_type);
		return -EFAULT;
	}
	/* read-only memory may be passed where the helper only reads */
	if (base_type(arg_type) == ARG_PTR_TO_MEM && !(arg_type & MEM_WRITE))
		type &= ~MEM_RDONLY;
	/* a dynptr slice is memory to a helper */
	if (base_type(arg_type) == ARG_PTR_TO_MEM)
		type &= ~DYNPTR_TYPE_FLAG_MASK;
	for (i = 0; i < n; i++)
		if (type == types[i])
			return 0;
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "",
				reg_type_str(types[i]));
	verr(env, "R%d type=%s expected=%s", regno, reg_type_str(reg->type), buf);
	return -EACCES;
}

static int check_func_arg_reg_off(struct bpf_verifier_env *env, const struct bpf_reg_state *reg,
				  int regno, u32 arg_type)
{
	switch (base_type(reg->type)) {
	case PTR_TO_STACK:
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case SCALAR_VALUE:
		return 0;
	case PTR_TO_MEM:
		if (arg_type_is_release(arg_type))
			break;
		return 0;
	default:
		break;
	}
	return check_ptr_off_reg(env, reg, regno);
}

/* ARG_PTR_TO_CONST_STR: a NUL-terminated string in a frozen read-only map value. */
static int check_reg_const_str(struct bpf_verifier_env *env, struct bpf_reg_state *reg, u32 regno)
{
	struct bpf_map *map = reg->map_ptr;
	int map_off, err;
	u64 map_addr;
	const char *str;

	if (reg->type != PTR_TO_MAP_VALUE)
		return -EINVAL;
	if (!(map->rdonly_prog || (map->map_flags & BPF_F_RDONLY_PROG)) || !map->frozen) {
		verr(env, "R%d does not point to a readonly map'", regno);
		return -EACCES;
	}
	if (!tnum_is_const(reg->var_off)) {
		verr(env, "R%d is not a constant address'", regno);
		return -EACCES;
	}
	if (!map->ops->map_direct_value_addr) {
		verr(env, "no direct value access support for this map type");
		return -EACCES;
	}
	err = check_map_access(env, regno, reg->off, map->value_size - reg->off, false);
	if (err)
		return err;
	map_off = reg->off + reg->var_off.value;
	err = map->ops->map_direct_value_addr(map, &map_addr, map_off);
	if (err) {
		verr(env, "direct value access on string failed");
		return err;
	}
	str = (const char *)(uintptr_t)map_addr;
	if (!memchr(str + map_off, 0, map->value_size - map_off)) {
		verr(env, "string is not zero-terminated");
		return -EINVAL;
	}
	return 0;
}

static bool can_elide_value_nullness(u32 map_type)
{
	return map_type == BPF_MAP_TYPE_ARRAY || map_type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/*
 * The constant key on the stack of an array lookup, in @*value: 0, or
 * -EOPNOTSUPP when the key is not a known constant, or another negative
 * errno. The key comes back separately because a constant may be negative
 * as an s64 (a sign-extended BPF_ST imm), which must not read as an errno.
 */
static int get_constant_map_key(struct bpf_verifier_env *env, const struct bpf_reg_state *key,
				u32 key_size, s64 *value)
{
	struct bpf_func_state *state = func(env, key);
	int slot, spi, off, i, spill_size = 0, zero_size = 0, err;
	const struct bpf_reg_state *reg;
	s64 stack_off;
	u8 *stype;

	if (key->type != PTR_TO_STACK || !tnum_is_const(key->var_off))
		return -EOPNOTSUPP;
	stack_off = key->off + (s64)key->var_off.value;
	if (stack_off >= 0 || stack_off < -MAX_BPF_STACK)
		return -EOPNOTSUPP;
	slot = -stack_off - 1;
	spi = slot / BPF_REG_SIZE;
	off = slot % BPF_REG_SIZE;
	stype = state->stack[spi].slot_type;
	for (i = off; i >= 0 && stype[i] == STACK_ZERO; i--)
		zero_size++;
	if (zero_size >= (int)key_size) {
		*value = 0;
		return 0;
	}
	if (!is_spilled_scalar_reg(&state->stack[spi]))
		return -EOPNOTSUPP;
	for (i = off; i >= 0 && stype[i] == STACK_SPILL; i--)
		spill_size++;
	if (spill_size != (int)key_size)
		return -EOPNOTSUPP;
	reg = &state->stack[spi].spilled_ptr;
	if (!tnum_is_const(reg->var_off))
		return -EOPNOTSUPP;
	/* R0 is not NULL because of this value: it must be precise */
	err = mark_stack_slot_precise(env, state->frameno, spi);
	if (err)
		return err;
	*value = (s64)reg->var_off.value;
	return 0;
}

/*
 * bpf_spin_lock(@regno) or bpf_spin_unlock(): the argument is the
 * struct bpf_spin_lock of a map value at its constant offset; one lock is
 * held at a time, and an unlock releases the lock of the same value (map
 * and pointer id). Kernel: process_spin_lock()
 */
static int process_spin_lock(struct bpf_verifier_env *env, int regno, bool is_lock)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	struct bpf_verifier_state *cur = env->cur_state;
	struct bpf_map *map = reg->map_ptr;
	s64 val = (s64)reg->var_off.value + reg->off;

	if (!tnum_is_const(reg->var_off)) {
		verr(env, "R%d doesn't have constant offset. bpf_spin_lock has to be at the constant offset",
		     regno);
		return -EINVAL;
	}
	if (!btf_record_has_spin_lock(map)) {
		verr(env, "map '%s' has no valid bpf_spin_lock", map->name);
		return -EINVAL;
	}
	if (val != (s64)map->spin_lock_off) {
		verr(env, "off %lld doesn't point to 'struct bpf_spin_lock' that is at %d",
		     (long long)val, map->spin_lock_off);
		return -EINVAL;
	}
	if (is_lock) {
		if (cur->active_lock_ptr) {
			verr(env, "Locking two bpf_spin_locks are not allowed");
			return -EINVAL;
		}
		cur->active_lock_ptr = map;
		cur->active_lock_id = reg->id;
		return 0;
	}
	if (!cur->active_lock_ptr) {
		verr(env, "bpf_spin_unlock without taking a lock");
		return -EINVAL;
	}
	if (cur->active_lock_ptr != map || cur->active_lock_id != reg->id) {
		verr(env, "bpf_spin_unlock of different lock");
		return -EINVAL;
	}
	cur->active_lock_ptr = NULL;
	cur->active_lock_id = 0;
	return 0;
}

/*
 * A dynptr argument in R@regno: MEM_UNINIT, one the call constructs (of
 * @make's type) in stack that may hold anything but a live dynptr's
 * reference; otherwise an initialised one, of the type @arg_type's
 * DYNPTR_TYPE_* flag names, if any. Kernel: process_dynptr_func()
 */
static int process_dynptr_func(struct bpf_verifier_env *env, int regno, u32 arg_type,
			       enum bpf_dynptr_type make)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];
	enum bpf_dynptr_type want;
	int err, i;

	if (reg->type != PTR_TO_STACK && reg->type != CONST_PTR_TO_DYNPTR) {
		verr(env, "arg#%d expected pointer to stack or const struct bpf_dynptr", regno - 1);
		return -EINVAL;
	}
	if (arg_type & MEM_UNINIT) {
		if (!is_dynptr_reg_valid_uninit(env, reg)) {
			verr(env, "Dynptr has to be an uninitialized dynptr");
			return -EINVAL;
		}
		/* the constructor writes the 16 bytes, 8 at a time */
		for (i = 0; i < (int)BPF_DYNPTR_SIZE; i += BPF_REG_SIZE) {
			err = check_mem_access(env, regno, i, BPF_DW, BPF_WRITE, -1, false);
			if (err)
				return err;
		}
		return mark_stack_slots_dynptr(env, reg, make);
	}
	if (reg->type == CONST_PTR_TO_DYNPTR && !(arg_type & MEM_RDONLY)) {
		verr(env, "cannot pass pointer to const bpf_dynptr, the helper mutates it");
		return -EINVAL;
	}
	if (!is_dynptr_reg_valid_init(env, reg)) {
		verr(env, "Expected an initialized dynptr as arg #%d", regno - 1);
		return -EINVAL;
	}
	want = arg_type & DYNPTR_TYPE_XDP ? BPF_DYNPTR_TYPE_XDP : BPF_DYNPTR_TYPE_INVALID;
	if (want != BPF_DYNPTR_TYPE_INVALID && dynptr_get_type(env, reg) != want) {
		verr(env, "Expected a dynptr of type %s as arg #%d", dynptr_type_str(want),
		     regno - 1);
		return -EINVAL;
	}
	return 0;
}

static int check_func_arg(struct bpf_verifier_env *env, u32 arg, struct bpf_call_arg_meta *meta,
			  const struct bpf_func_proto *fn)
{
	u32 regno = BPF_REG_1 + arg;
	struct bpf_reg_state *regs = cur_regs(env), *reg = &regs[regno];
	u32 arg_type = fn->arg_type[arg];
	bool or_null = false;
	int err;

	if (arg_type == ARG_DONTCARE)
		return 0;
	err = check_reg_arg(env, regno, SRC_OP);
	if (err)
		return err;
	if (arg_type == ARG_ANYTHING) {
		if (is_pointer_value(env, reg)) {
			verr(env, "R%d leaks addr into helper function", regno);
			return -EACCES;
		}
		return 0;
	}
	if (is_pkt_type(reg->type) && !fn->pkt_access) {
		verr(env, "helper access to the packet is not allowed");
		return -EACCES;
	}
	if (register_is_null(reg) && type_may_be_null(arg_type))
		goto skip_type_check;
	err = check_reg_type(env, regno, arg_type);
	if (err)
		return err;
	err = check_func_arg_reg_off(env, reg, regno, arg_type);
	if (err)
		return err;
skip_type_check:
	if (arg_type_is_release(arg_type)) {
		if (!reg->ref_obj_id && !register_is_null(reg)) {
			verr(env, "R%d must be referenced when passed to release function", regno);
			return -EINVAL;
		}
		meta->release_regno = regno;
	}
	if (reg->ref_obj_id) {
		if (meta->ref_obj_id) {
			verr(env, "more than one arg with ref_obj_id R%d %u %u", regno,
			     reg->ref_obj_id, meta->ref_obj_id);
			return -EACCES;
		}
		meta->ref_obj_id = reg->ref_obj_id;
	}

	switch (base_type(arg_type)) {
	case ARG_CONST_MAP_PTR:
		meta->map_ptr = reg->map_ptr;
		break;
	case ARG_PTR_TO_MAP_KEY:
		if (!meta->map_ptr) {
			verr(env, "invalid map_ptr to access map->key");
			return -EFAULT;
		}
		err = check_helper_mem_access(env, regno, meta->map_ptr->key_size, BPF_READ, false,
					      NULL);
		if (err)
			return err;
		record_arg_check(env, arg, reg_region(env, reg), meta->map_ptr->key_size, 0, false);
		if (can_elide_value_nullness(meta->map_ptr->map_type)) {
			err = get_constant_map_key(env, reg, meta->map_ptr->key_size,
						   &meta->const_map_key);
			if (err < 0) {
				meta->const_map_key = -1;
				if (err != -EOPNOTSUPP)
					return err;
			}
		}
		break;
	case ARG_PTR_TO_MAP_VALUE:
		if (type_may_be_null(arg_type) && register_is_null(reg))
			return 0;
		if (!meta->map_ptr) {
			verr(env, "invalid map_ptr to access map->value");
			return -EFAULT;
		}
		meta->raw_mode = arg_type & MEM_UNINIT;
		err = check_helper_mem_access(env, regno, meta->map_ptr->value_size,
					      arg_type & MEM_WRITE ? BPF_WRITE : BPF_READ, false, meta);
		if (err)
			return err;
		record_arg_check(env, arg, reg_region(env, reg), meta->map_ptr->value_size, 0,
				 false);
		break;
	case ARG_PTR_TO_MEM:
		meta->raw_mode = arg_type & MEM_UNINIT;
		if (arg_type & MEM_FIXED_SIZE) {
			err = check_helper_mem_access(env, regno, fn->arg_size[arg],
						      arg_type & MEM_WRITE ? BPF_WRITE : BPF_READ,
						      false, meta);
			if (err)
				return err;
			if ((arg_type & MEM_ALIGNED) && reg->type == PTR_TO_STACK) {
				err = check_stack_alignment(env, reg, 0, fn->arg_size[arg]);
				if (err)
					return err;
			}
			record_arg_check(env, arg, reg_region(env, reg), fn->arg_size[arg], 0,
					 false);
		}
		break;
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO: {
		u32 mem_type = fn->arg_type[arg - 1];
		struct bpf_reg_state *mem = &regs[regno - 1];

		or_null = type_may_be_null(mem_type);
		err = check_mem_size_reg(env, reg, regno, mem_type & MEM_WRITE ? BPF_WRITE : BPF_READ,
					 base_type(arg_type) == ARG_CONST_SIZE_OR_ZERO, meta);
		if (err)
			return err;
		if (!register_is_null(mem) || !or_null)
			record_arg_check(env, arg - 1, reg_region(env, mem), 0, regno, or_null);
		else
			record_arg_check(env, arg - 1, BPF_RGN(BPF_RGN_ANY, 0), 0, regno, true);
		break;
	}
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
		if (!tnum_is_const(reg->var_off)) {
			verr(env, "R%d is not a known constant'", regno);
			return -EACCES;
		}
		meta->mem_size = reg->var_off.value;
		err = mark_chain_precision(env, regno);
		if (err)
			return err;
		break;
	case ARG_PTR_TO_CONST_STR:
		err = check_reg_const_str(env, reg, regno);
		if (err)
			return err;
		break;
	case ARG_PTR_TO_SPIN_LOCK:
		err = process_spin_lock(env, regno, meta->func_id == BPF_FUNC_spin_lock);
		if (err)
			return err;
		break;
	case ARG_PTR_TO_FUNC:
		meta->subprogno = reg->subprogno;
		break;
	case ARG_PTR_TO_DYNPTR:
		err = process_dynptr_func(env, regno, arg_type, BPF_DYNPTR_TYPE_INVALID);
		if (err)
			return err;
		if (!(arg_type & MEM_UNINIT))
			meta->dynptr_id = dynptr_id(env, reg);
		break;
	default:
		break;
	}
	return 0;
}

/* Which helpers may take which map types, both ways (kernel: check_map_func_compatibility()). */
static int check_map_func_compatibility(struct bpf_verifier_env *env, struct bpf_map *map,
					int func_id)
{
	if (!map)
		return 0;
	switch (map->map_type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		if (func_id != BPF_FUNC_tail_call)
			goto error;
		break;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		if (func_id != BPF_FUNC_perf_event_read && func_id != BPF_FUNC_perf_event_output &&
		    func_id != BPF_FUNC_skb_output && func_id != BPF_FUNC_perf_event_read_value &&
		    func_id != BPF_FUNC_xdp_output)
			goto error;
		break;
	case BPF_MAP_TYPE_RINGBUF:
		if (func_id != BPF_FUNC_ringbuf_output && func_id != BPF_FUNC_ringbuf_reserve &&
		    func_id != BPF_FUNC_ringbuf_query && func_id != BPF_FUNC_ringbuf_reserve_dynptr &&
		    func_id != BPF_FUNC_ringbuf_submit_dynptr &&
		    func_id != BPF_FUNC_ringbuf_discard_dynptr)
			goto error;
		break;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		if (func_id != BPF_FUNC_redirect_map && func_id != BPF_FUNC_map_lookup_elem)
			goto error;
		break;
	case BPF_MAP_TYPE_CPUMAP:
		if (func_id != BPF_FUNC_redirect_map)
			goto error;
		break;
	case BPF_MAP_TYPE_XSKMAP:
		if (func_id != BPF_FUNC_redirect_map && func_id != BPF_FUNC_map_lookup_elem)
			goto error;
		break;
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		if (func_id != BPF_FUNC_map_lookup_elem)
			goto error;
		break;
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		if (func_id != BPF_FUNC_map_peek_elem && func_id != BPF_FUNC_map_pop_elem &&
		    func_id != BPF_FUNC_map_push_elem)
			goto error;
		break;
	default:
		break;
	}
	switch (func_id) {
	case BPF_FUNC_tail_call:
		if (map->map_type != BPF_MAP_TYPE_PROG_ARRAY)
			goto error;
		break;
	case BPF_FUNC_perf_event_read:
	case BPF_FUNC_perf_event_output:
	case BPF_FUNC_perf_event_read_value:
	case BPF_FUNC_skb_output:
	case BPF_FUNC_xdp_output:
		if (map->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			goto error;
		break;
	case BPF_FUNC_ringbuf_output:
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_query:
		if (map->map_type != BPF_MAP_TYPE_RINGBUF)
			goto error;
		break;
	case BPF_FUNC_redirect_map:
		if (map->map_type != BPF_MAP_TYPE_DEVMAP && map->map_type != BPF_MAP_TYPE_DEVMAP_HASH &&
		    map->map_type != BPF_MAP_TYPE_CPUMAP && map->map_type != BPF_MAP_TYPE_XSKMAP)
			goto error;
		break;
	case BPF_FUNC_map_peek_elem:
	case BPF_FUNC_map_pop_elem:
	case BPF_FUNC_map_push_elem:
		if (map->map_type != BPF_MAP_TYPE_QUEUE && map->map_type != BPF_MAP_TYPE_STACK &&
		    map->map_type != BPF_MAP_TYPE_BLOOM_FILTER)
			goto error;
		break;
	default:
		break;
	}
	return 0;
error:
	verr(env, "cannot pass map_type %d into func %s#%d", map->map_type, func_id_name(func_id),
	     func_id);
	return -EINVAL;
}

static void clear_all_pkt_pointers(struct bpf_verifier_env *env)
{
	struct bpf_func_state *state;
	struct bpf_reg_state *reg;

	bpf_for_each_reg_in_vstate(env->cur_state, state, reg, ({
		if (reg_is_pkt_pointer_any(reg) || reg->type == (PTR_TO_MEM | MEM_RDONLY) ||
		    reg_is_dynptr_slice_pkt(reg))
			mark_reg_invalid(env, reg);
	}));
	(void)state;
}

static int acquire_reference(struct bpf_verifier_env *env)
{
	struct bpf_verifier_state *st = env->cur_state;

	if (st->acquired_refs >= BPF_MAX_REFS) {
		verr(env, "too many acquired references");
		return -ENOMEM;
	}
	st->refs[st->acquired_refs].id = ++env->id_gen;
	st->refs[st->acquired_refs].insn_idx = env->insn_idx;
	st->acquired_refs++;
	return env->id_gen;
}

static int release_reference(struct bpf_verifier_env *env, u32 ref_obj_id)
{
	struct bpf_verifier_state *st = env->cur_state;
	struct bpf_func_state *state;
	struct bpf_reg_state *reg;
	u32 i, n = st->acquired_refs;

	for (i = 0; i < n; i++)
		if (st->refs[i].id == ref_obj_id)
			break;
	if (i == n)
		return -EINVAL;
	release_reference_state(st, ref_obj_id);
	bpf_for_each_reg_in_vstate(st, state, reg, ({
		if (reg->ref_obj_id == ref_obj_id)
			mark_reg_invalid(env, reg);
	}));
	(void)state;
	return 0;
}

static int check_reference_leak(struct bpf_verifier_env *env, bool exception_exit)
{
	struct bpf_verifier_state *st = env->cur_state;
	u32 i;

	if (exception_exit || !st->acquired_refs)
		return 0;
	for (i = 0; i < st->acquired_refs; i++)
		verr(env, "Unreleased reference id=%d alloc_insn=%d", st->refs[i].id,
		     st->refs[i].insn_idx);
	return -EINVAL;
}

static int check_resource_leak(struct bpf_verifier_env *env, bool exception_exit, bool check_lock,
			       const char *prefix)
{
	if (check_lock && env->cur_state->active_lock_ptr) {
		verr(env, "%s cannot be used inside bpf_spin_lock-ed region", prefix);
		return -EINVAL;
	}
	if (env->cur_state->acquired_refs) {
		int err = check_reference_leak(env, exception_exit);

		if (err) {
			verr(env, "%s would lead to reference leak", prefix);
			return err;
		}
	}
	return 0;
}

static int nr_cpu_ids_cached;

static int nr_cpu_ids(void)
{
	if (!nr_cpu_ids_cached) {
		long n = sysconf(_SC_NPROCESSORS_CONF);

		nr_cpu_ids_cached = n > 0 ? (int)n : 1;
	}
	return nr_cpu_ids_cached;
}

/* A constant in-range tail-call index is a precise use. Kernel: record_func_key(). */
static int mark_tail_call_key_precise(struct bpf_verifier_env *env, const struct bpf_map *map)
{
	const struct bpf_reg_state *key = &cur_regs(env)[BPF_REG_3];

	if (!map || !is_reg_const(key, false) || key->var_off.value >= map->max_entries)
		return 0;
	return mark_chain_precision(env, BPF_REG_3);
}

static void clear_caller_saved_regs(struct bpf_reg_state *regs)
{
	u32 i;

	for (i = BPF_REG_0; i <= BPF_REG_5; i++)
		__mark_reg_not_init(&regs[i]);
}

/* Kernel: record_func_map(): the map this call site sees, poisoned when two differ. */
static void record_func_map(struct bpf_verifier_env *env, struct bpf_map *map)
{
	struct bpf_insn_aux_data *aux = &env->aux[env->insn_idx];

	if (aux->call_map_poison)
		return;
	if (!aux->call_map)
		aux->call_map = map;
	else if (aux->call_map != map)
		aux->call_map_poison = true;
}

/*
 * The key this lookup site sees, @key >= 0 when it is constant and in
 * range (R0 is then not NULL), poisoned when two visits differ or one
 * has no such key. The JIT turns an unpoisoned one into the value's address.
 */
static void record_func_key(struct bpf_verifier_env *env, s64 key)
{
	struct bpf_insn_aux_data *aux = &env->aux[env->insn_idx];

	if (aux->call_key_poison)
		return;
	if (key < 0 || (aux->call_key_seen && aux->call_key != key)) {
		aux->call_key_poison = true;
		return;
	}
	aux->call_key = key;
	aux->call_key_seen = true;
}

static int check_helper_call(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	const struct bpf_func_proto *fn = NULL;
	struct bpf_call_arg_meta meta;
	struct bpf_reg_state *regs;
	int func_id = insn->imm, i, err;
	bool changes_data;

	if (func_id < 0 || func_id >= __BPF_FUNC_MAX_ID) {
		verr(env, "invalid func %s#%d", func_id_name(func_id), func_id);
		return -EINVAL;
	}
	if (env->get_proto)
		fn = env->get_proto(func_id);
	/* the interpreter and the JIT perform tail calls themselves */
	if (!fn && func_id == BPF_FUNC_tail_call && env->prog->type == BPF_PROG_TYPE_XDP)
		fn = &bpf_tail_call_proto;
	if (!fn || (!fn->func && func_id != BPF_FUNC_tail_call)) {
		verr(env, "program of this type cannot use helper %s#%d", func_id_name(func_id),
		     func_id);
		return -EINVAL;
	}
	changes_data = fn->changes_pkt_data;
	memset(&meta, 0, sizeof(meta));
	meta.const_map_key = -1;
	meta.func_id = func_id;
	for (i = 0; i < 5; i++) {
		err = check_func_arg(env, i, &meta, fn);
		if (err)
			return err;
	}
	err = check_map_func_compatibility(env, meta.map_ptr, func_id);
	if (err)
		return err;
	if (meta.map_ptr)
		record_func_map(env, meta.map_ptr);
	/* uninitialised memory the helper fills: written byte by byte */
	for (i = 0; i < meta.access_size; i++) {
		err = check_mem_access(env, meta.regno, i, BPF_B, BPF_WRITE, -1, false);
		if (err)
			return err;
	}
	/* the accesses above are the helper's, not the call instruction's */
	env->aux[env->insn_idx].access = ACC_NONE;
	regs = cur_regs(env);
	if (meta.release_regno) {
		err = -EINVAL;
		if (meta.ref_obj_id)
			err = release_reference(env, meta.ref_obj_id);
		else if (register_is_null(&regs[meta.release_regno]))
			err = 0;
		if (err) {
			verr(env, "func %s#%d reference has not been acquired before",
			     func_id_name(func_id), func_id);
			return err;
		}
	}
	if (func_id == BPF_FUNC_tail_call) {
		err = check_resource_leak(env, false, true, "tail_call") ?:
		      mark_tail_call_key_precise(env, meta.map_ptr);
		if (err)
			return err;
		env->subprogs[cur_func(env)->subprogno].has_tail_call = true;
	}
	if (func_id == BPF_FUNC_snprintf) {
		/* data_len: a multiple of 8, at most 12 arguments */
		struct bpf_reg_state *dl = &regs[BPF_REG_5];

		if (tnum_is_const(dl->var_off) && (dl->var_off.value % 8 || dl->var_off.value > 96)) {
			verr(env, "Invalid format string");
			return -EINVAL;
		}
	}
	if (func_id == BPF_FUNC_loop) {
		err = check_bpf_loop_call(env, meta.subprogno);
		if (err)
			return err;
	}
	env->aux[env->insn_idx].call_seen = true;

	clear_caller_saved_regs(regs);
	switch (fn->ret_type) {
	case RET_INTEGER:
		mark_reg_unknown(regs, BPF_REG_0);
		break;
	case RET_VOID:
		regs[BPF_REG_0].type = NOT_INIT;
		break;
	case RET_PTR_TO_MAP_VALUE_OR_NULL: {
		u32 flag = PTR_MAYBE_NULL;

		mark_reg_known_zero(regs, BPF_REG_0);
		if (!meta.map_ptr) {
			verr(env, "unexpected null map_ptr");
			return -EFAULT;
		}
		if (func_id == BPF_FUNC_map_lookup_elem &&
		    can_elide_value_nullness(meta.map_ptr->map_type) && meta.const_map_key >= 0 &&
		    meta.const_map_key < meta.map_ptr->max_entries)
			flag = 0;
		if (func_id == BPF_FUNC_map_lookup_elem)
			record_func_key(env, flag ? -1 : meta.const_map_key);
		regs[BPF_REG_0].map_ptr = meta.map_ptr;
		if (meta.map_ptr->map_type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    meta.map_ptr->map_type == BPF_MAP_TYPE_HASH_OF_MAPS) {
			if (!meta.map_ptr->inner_map_meta) {
				verr(env, "map %s has no inner map shape", meta.map_ptr->name);
				return -EINVAL;
			}
			regs[BPF_REG_0].type = CONST_PTR_TO_MAP | flag;
			regs[BPF_REG_0].map_ptr = meta.map_ptr->inner_map_meta;
		} else {
			regs[BPF_REG_0].type = PTR_TO_MAP_VALUE | flag;
		}
		break;
	}
	case RET_PTR_TO_ALLOC_MEM_OR_NULL:
		mark_reg_known_zero(regs, BPF_REG_0);
		regs[BPF_REG_0].type = PTR_TO_MEM | MEM_RINGBUF | PTR_MAYBE_NULL;
		regs[BPF_REG_0].mem_size = meta.mem_size;
		regs[BPF_REG_0].map_ptr = meta.map_ptr;
		break;
	case RET_PTR_TO_DYNPTR_MEM_OR_NULL:
		mark_reg_known_zero(regs, BPF_REG_0);
		regs[BPF_REG_0].type = PTR_TO_MEM | PTR_MAYBE_NULL;
		regs[BPF_REG_0].mem_size = meta.mem_size;
		regs[BPF_REG_0].dynptr_id = meta.dynptr_id;
		break;
	default:
		verr(env, "unknown return type %u of func %s#%d", fn->ret_type,
		     func_id_name(func_id), func_id);
		return -EINVAL;
	}
	if (type_may_be_null(regs[BPF_REG_0].type))
		regs[BPF_REG_0].id = ++env->id_gen;
	if (fn->ret_type == RET_PTR_TO_ALLOC_MEM_OR_NULL) {
		int id = acquire_reference(env);

		if (id < 0)
			return id;
		regs[BPF_REG_0].id = id;
		regs[BPF_REG_0].ref_obj_id = id;
	}
	if (func_id == BPF_FUNC_get_smp_processor_id) {
		struct bpf_reg_state *r0 = &regs[BPF_REG_0];

		r0->umin_value = r0->u32_min_value = 0;
		r0->smin_value = r0->s32_min_value = 0;
		r0->umax_value = r0->u32_max_value = nr_cpu_ids() - 1;
		r0->smax_value = r0->s32_max_value = nr_cpu_ids() - 1;
		reg_bounds_sync(r0);
	}
	if (changes_data)
		clear_all_pkt_pointers(env);
	return 0;
}

/* ---- kfunc calls -------------------------------------------------------- */

struct bpf_kfunc_call_arg_meta {
	const struct bpf_kfunc_proto *fn;
	u32 ref_obj_id;
	int release_regno;
	struct {
		enum bpf_dynptr_type type;
		u32 id;
	} initialized_dynptr;
	struct {
		bool found;
		u64 value;
	} arg_constant;		/* the "__szk" size */
};

/* Memory a kfunc reads and writes through R@regno: @size bytes, or R@size_regno's. */
static int check_kfunc_mem(struct bpf_verifier_env *env, u32 arg, u32 regno, u32 size,
			   u32 size_regno)
{
	struct bpf_reg_state *regs = cur_regs(env);
	struct bpf_call_arg_meta hmeta = { 0 };
	int err;

	if (size_regno) {
		err = check_mem_size_reg(env, &regs[size_regno], size_regno, BPF_READ, true, &hmeta) ?:
		      check_mem_size_reg(env, &regs[size_regno], size_regno, BPF_WRITE, true, &hmeta);
	} else {
		err = check_helper_mem_access(env, regno, size, BPF_READ, false, NULL) ?:
		      check_helper_mem_access(env, regno, size, BPF_WRITE, false, NULL);
	}
	if (err)
		return err;
	record_arg_check(env, arg, reg_region(env, &regs[regno]), size, size_regno, false);
	return 0;
}

/* A pointer to kernel struct @want; nf_conn___init passes as nf_conn unless @strict. */
static int check_kfunc_btf_arg(struct bpf_verifier_env *env, u32 i, u32 regno, u32 want,
			       bool strict, const char *fname)
{
	struct bpf_reg_state *reg = &cur_regs(env)[regno];

	if (base_type(reg->type) != PTR_TO_BTF_ID) {
		verr(env, "arg#%u is %s expected %s or socket", i, reg_type_str(reg->type),
		     reg_type_str(PTR_TO_BTF_ID | (reg->type & PTR_TRUSTED)));
		return -EINVAL;
	}
	if (reg->btf_id != want &&
	    (strict || want != BTF_STRUCT_NF_CONN || reg->btf_id != BTF_STRUCT_NF_CONN_INIT)) {
		verr(env, "kernel function %s args#%u expected pointer to STRUCT %s but R%u has a pointer to STRUCT %s",
		     fname, i, btf_kernel_struct_name(want), regno,
		     btf_kernel_struct_name(reg->btf_id));
		return -EINVAL;
	}
	return check_ptr_off_reg(env, reg, regno);
}

/* Each argument against the kfunc's prototype. Kernel: check_kfunc_args() */
static int check_kfunc_args(struct bpf_verifier_env *env, struct bpf_kfunc_call_arg_meta *meta)
{
	const struct bpf_kfunc_proto *fn = meta->fn;
	struct bpf_reg_state *regs = cur_regs(env);
	u32 i;
	int err;

	for (i = 0; i < fn->nargs; i++) {
		const struct kfunc_arg *a = &fn->args[i];
		u32 regno = BPF_REG_1 + i;
		struct bpf_reg_state *reg = &regs[regno];

		err = check_reg_arg(env, regno, SRC_OP);
		if (err)
			return err;
		if (a->kind == KF_ARG_CONST_SIZE)
			continue;	/* checked with its memory */
		if (a->kind == KF_ARG_SCALAR) {
			if (reg->type != SCALAR_VALUE) {
				verr(env, "R%u is not a scalar", regno);
				return -EINVAL;
			}
			continue;
		}
		/* a release kfunc's arguments are trusted ones too */
		if ((fn->flags & (KF_TRUSTED_ARGS | KF_RELEASE)) &&
		    (register_is_null(reg) || type_may_be_null(reg->type)) &&
		    !(a->flags & KF_ARG_F_OPT)) {
			verr(env, "Possibly NULL pointer passed to trusted arg%u", i);
			return -EACCES;
		}
		if (reg->ref_obj_id) {
			if ((fn->flags & KF_RELEASE) && meta->ref_obj_id) {
				verr(env, "verifier internal error: more than one arg with ref_obj_id R%u %u %u",
				     regno, reg->ref_obj_id, meta->ref_obj_id);
				return -EFAULT;
			}
			meta->ref_obj_id = reg->ref_obj_id;
			if (fn->flags & KF_RELEASE)
				meta->release_regno = regno;
		}
		switch (a->kind) {
		case KF_ARG_PTR_TO_CTX:
			if (reg->type != PTR_TO_CTX) {
				verr(env, "arg#%u expected pointer to ctx, but got %s", i,
				     reg_type_str(reg->type));
				return -EINVAL;
			}
			err = check_ptr_off_reg(env, reg, regno);
			break;
		case KF_ARG_PTR_TO_MEM:
			err = check_kfunc_mem(env, i, regno, a->size, 0);
			break;
		case KF_ARG_PTR_TO_MEM_SIZE: {
			struct bpf_reg_state *size_reg = &regs[regno + 1];

			if ((a->flags & KF_ARG_F_OPT) && register_is_null(reg))
				err = 0;
			else
				err = check_kfunc_mem(env, i, regno, 0, regno + 1);
			if (!err && (fn->args[i + 1].flags & KF_ARG_F_CONST)) {
				if (!tnum_is_const(size_reg->var_off)) {
					verr(env, "R%u must be a known constant", regno + 1);
					return -EINVAL;
				}
				meta->arg_constant.found = true;
				meta->arg_constant.value = size_reg->var_off.value;
			}
			break;
		}
		case KF_ARG_PTR_TO_DYNPTR: {
			u32 arg_type = ARG_PTR_TO_DYNPTR;
			enum bpf_dynptr_type make = a->dynptr_type;

			if (reg->type == CONST_PTR_TO_DYNPTR)
				arg_type |= MEM_RDONLY;
			if (a->flags & KF_ARG_F_UNINIT) {
				arg_type |= MEM_UNINIT;
				if (make == BPF_DYNPTR_TYPE_INVALID)
					make = meta->initialized_dynptr.type;	/* a clone */
			}
			err = process_dynptr_func(env, regno, arg_type, make);
			if (!err && !(arg_type & MEM_UNINIT)) {
				meta->initialized_dynptr.id = dynptr_id(env, reg);
				meta->initialized_dynptr.type = dynptr_get_type(env, reg);
			}
			break;
		}
		case KF_ARG_PTR_TO_BTF_ID:
			err = check_kfunc_btf_arg(env, i, regno, a->btf_id,
						  (fn->flags & KF_RELEASE) && reg->ref_obj_id, fn->name);
			break;
		default:
			verr(env, "verifier internal error: kfunc %s arg#%u of kind %u", fn->name, i,
			     a->kind);
			return -EFAULT;
		}
		if (err)
			return err;
	}
	if ((fn->flags & KF_RELEASE) && !meta->release_regno) {
		verr(env, "release kernel function %s expects refcounted PTR_TO_BTF_ID", fn->name);
		return -EINVAL;
	}
	return 0;
}

/*
 * A call of a kfunc (BPF_PSEUDO_KFUNC_CALL, imm its BTF id): arguments as
 * its prototype says, a KF_RELEASE kfunc's reference released, R0 typed
 * from the return type (a KF_ACQUIRE kfunc's pointer is a new reference,
 * KF_RET_NULL's must be checked). A call of an unresolved __weak kfunc
 * (imm 0) is left for bpf_do_fixups() to refuse where reached, as the
 * kernel's fixup_kfunc_call() does. Kernel: check_kfunc_call()
 */
static int check_kfunc_call(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	struct bpf_kfunc_call_arg_meta meta = { 0 };
	struct bpf_reg_state *regs = cur_regs(env), *r0;
	const struct bpf_kfunc_proto *fn;
	int err;

	if (!insn->imm)
		return 0;
	fn = btf_kfunc_by_id((u32)insn->imm);
	if (!fn) {
		verr(env, "kernel btf_id %d is not a function", insn->imm);
		return -EINVAL;
	}
	meta.fn = fn;
	err = check_kfunc_args(env, &meta);
	if (err)
		return err;
	/* the accesses above are the kfunc's, not the call instruction's */
	env->aux[env->insn_idx].access = ACC_NONE;
	if (fn->flags & KF_RELEASE) {
		err = release_reference(env, regs[meta.release_regno].ref_obj_id);
		if (err) {
			verr(env, "kfunc %s#%d reference has not been acquired before", fn->name,
			     insn->imm);
			return err;
		}
	}
	env->aux[env->insn_idx].call_seen = true;
	clear_caller_saved_regs(regs);
	r0 = &regs[BPF_REG_0];
	switch (fn->ret) {
	case KF_RET_INT:
		mark_reg_unknown(regs, BPF_REG_0);
		break;
	case KF_RET_VOID:
		break;
	case KF_RET_DYNPTR_SLICE_RDONLY:
	case KF_RET_DYNPTR_SLICE_RDWR:
		mark_reg_ptr(r0, PTR_TO_MEM);
		if (meta.initialized_dynptr.type == BPF_DYNPTR_TYPE_XDP)
			r0->type |= DYNPTR_TYPE_XDP;
		r0->mem_size = meta.arg_constant.value;
		if (fn->ret == KF_RET_DYNPTR_SLICE_RDONLY)
			r0->type |= MEM_RDONLY;
		else
			env->seen_direct_write = true;
		r0->dynptr_id = meta.initialized_dynptr.id;
		r0->type |= PTR_MAYBE_NULL;
		r0->id = ++env->id_gen;
		break;
	case KF_RET_PTR_TO_BTF_ID:
		mark_reg_ptr(r0, PTR_TO_BTF_ID | PTR_TRUSTED);
		r0->btf_id = fn->ret_btf_id;
		if (fn->flags & KF_RET_NULL) {
			r0->type |= PTR_MAYBE_NULL;
			r0->id = ++env->id_gen;
		}
		if (fn->flags & KF_ACQUIRE) {
			int id = acquire_reference(env);

			if (id < 0)
				return id;
			if (fn->flags & KF_RET_NULL)
				r0->id = id;
			r0->ref_obj_id = id;
		}
		break;
	}
	return 0;
}

/* ---- bpf-to-bpf calls and exits ---------------------------------------- */

static void clear_all_pkt_pointers(struct bpf_verifier_env *env);

/* A bpf-to-bpf call: R1-R5 are the arguments. */
static int set_callee_state(struct bpf_verifier_env *env, struct bpf_func_state *caller,
			    struct bpf_func_state *callee, u32 insn_idx)
{
	u32 i;

	for (i = BPF_REG_1; i <= BPF_REG_5; i++)
		callee->regs[i] = caller->regs[i];
	return 0;
}

/*
 * A new frame for @subprog in @state, called from @callsite, its
 * registers set by @set_callee_state_cb. Kernel: setup_func_entry().
 */
int setup_func_entry(struct bpf_verifier_env *env, u32 subprog, u32 callsite,
		     set_callee_state_fn set_callee_state_cb, struct bpf_verifier_state *state)
{
	struct bpf_func_state *caller, *callee;
	int err;

	if (state->curframe + 1 >= MAX_CALL_FRAMES) {
		verr(env, "the call stack of %d frames is too deep", state->curframe + 2);
		return -E2BIG;
	}
	caller = state->frame[state->curframe];
	callee = calloc(1, sizeof(*callee));
	if (!callee)
		return -ENOMEM;
	state->frame[state->curframe + 1] = callee;
	init_func_state(callee, callsite, state->curframe + 1, subprog);
	err = set_callee_state_cb(env, caller, callee, callsite);
	if (err) {
		free(callee);
		state->frame[state->curframe + 1] = NULL;
		return err;
	}
	state->curframe++;
	return 0;
}

static int check_func_call(struct bpf_verifier_env *env, const struct bpf_insn *insn, u32 *insn_idx)
{
	struct bpf_verifier_state *state = env->cur_state;
	u32 target = *insn_idx + insn->imm + 1;
	struct bpf_func_state *caller;
	int subprog, err;

	if (state->curframe + 1 >= MAX_CALL_FRAMES) {
		verr(env, "the call stack of %d frames is too deep", state->curframe + 2);
		return -E2BIG;
	}
	subprog = bpf_find_subprog(env, target);
	if (subprog < 0 || env->subprogs[subprog].start != target) {
		verr(env, "function call to insn %u is not the start of a subprogram", target);
		return -EFAULT;
	}
	caller = state->frame[state->curframe];
	err = setup_func_entry(env, subprog, *insn_idx, set_callee_state, state);
	if (err)
		return err;
	clear_caller_saved_regs(caller->regs);
	env->aux[*insn_idx].call_seen = true;
	*insn_idx = target - 1;	/* the main loop steps to the callee's first insn */
	return 0;
}

static int prepare_func_exit(struct bpf_verifier_env *env, u32 *insn_idx)
{
	struct bpf_verifier_state *state = env->cur_state;
	struct bpf_func_state *caller, *callee = state->frame[state->curframe];
	struct bpf_reg_state *r0 = &callee->regs[BPF_REG_0];
	bool tail_call, in_callback_fn = callee->in_callback_fn;
	int err;

	if (r0->type == PTR_TO_STACK) {
		verr(env, "cannot return stack pointer to the caller");
		return -EINVAL;
	}
	caller = state->frame[state->curframe - 1];
	if (in_callback_fn) {
		err = check_callback_return(env, callee);
		if (err)
			return err;
	} else {
		caller->regs[BPF_REG_0] = *r0;
	}
	/*
	 * A tail call taken in the callee returns here with the target's
	 * return value: a scalar, whatever this path left in R0.
	 */
	tail_call = env->subprogs[callee->subprogno].tail_call_reachable;
	if (tail_call && !in_callback_fn && caller->regs[BPF_REG_0].type != SCALAR_VALUE)
		mark_reg_unknown(caller->regs, BPF_REG_0);
	/* the main loop steps past the call; a callback returns to the helper call */
	*insn_idx = callee->callsite - in_callback_fn;
	free(callee);
	state->frame[state->curframe--] = NULL;
	/* ... and the target may have changed the packet */
	if (tail_call)
		clear_all_pkt_pointers(env);
	return 0;
}

/* R0 at the exit of the main program. Kernel: check_return_code(). */
static int check_return_code(struct bpf_verifier_env *env)
{
	struct bpf_reg_state *reg = &cur_regs(env)[BPF_REG_0];
	int err;

	err = check_reg_arg(env, BPF_REG_0, SRC_OP);
	if (err)
		return err;
	if (is_pointer_value(env, reg)) {
		verr(env, "R0 leaks addr as return value");
		return -EACCES;
	}
	if (!env->allow_ptr_leaks && reg->type != SCALAR_VALUE) {
		verr(env, "At program exit the register R0 is not a known value (%s)",
		     reg_type_str(reg->type));
		return -EINVAL;
	}
	return 0;
}

/* ---- the walk ----------------------------------------------------------- */

static int check_ld_imm(struct bpf_verifier_env *env, const struct bpf_insn *insn)
{
	struct bpf_insn_aux_data *aux = &env->aux[env->insn_idx];
	struct bpf_reg_state *regs = cur_regs(env), *dst;
	int err;

	err = check_reg_arg(env, insn->dst_reg, DST_OP);
	if (err)
		return err;
	dst = &regs[insn->dst_reg];
	switch (aux->ldimm_type) {
	case SCALAR_VALUE:
		__mark_reg_known(dst, (u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32));
		dst->type = SCALAR_VALUE;
		break;
	case CONST_PTR_TO_MAP:
		mark_reg_ptr(dst, CONST_PTR_TO_MAP);
		dst->map_ptr = aux->map;
		break;
	case PTR_TO_MAP_VALUE:
		mark_reg_ptr(dst, PTR_TO_MAP_VALUE);
		dst->map_ptr = aux->map;
		dst->off = (s32)aux->ldimm_off;
		break;
	case PTR_TO_FUNC:
		if (!env->prog->aux->func_info_cnt) {
			verr(env, "missing btf func_info");
			return -EINVAL;
		}
		mark_reg_ptr(dst, PTR_TO_FUNC);
		dst->subprogno = bpf_find_subprog(env, env->insn_idx + insn->imm + 1);
		break;
	default:
		verr(env, "invalid ld_imm64 source");
		return -EINVAL;
	}
	return 0;
}

/* Discard the branch check_cond_jmp_op() just pushed: it cannot be taken. */
static void drop_pushed_branch(struct bpf_verifier_env *env)
{
	struct bpf_verifier_stack_elem *e;

	if (!env->work_cnt)
		return;
	e = &env->work[--env->work_cnt];
	update_branch_counts(env, &e->st);
	free_verifier_state(&e->st, false);
}

/*
 * An instruction with reserved fields set (cfg.c): refused here, when the
 * walk reaches it, as Linux's do_check() does; a conditional jump reads
 * its destination register first (check_cond_jmp_op()).
 */
static int check_reserved_fields(struct bpf_verifier_env *env)
{
	const struct bpf_insn *insn = &env->prog->insnsi[env->insn_idx];
	const char *msg = env->aux[env->insn_idx].reserved_msg;
	u8 op = BPF_OP(insn->code);
	int err;

	if (!msg)
		return 0;
	if ((BPF_CLASS(insn->code) == BPF_JMP || BPF_CLASS(insn->code) == BPF_JMP32) &&
	    op != BPF_JA && op != BPF_CALL && op != BPF_EXIT && op != BPF_JCOND) {
		err = check_reg_arg(env, insn->dst_reg, SRC_OP);
		if (err)
			return err;
	}
	verr(env, "%s", msg);
	return -EINVAL;
}

static int do_check_insn(struct bpf_verifier_env *env, bool *do_exit)
{
	struct bpf_insn *insn = &env->prog->insnsi[env->insn_idx];
	u8 class = BPF_CLASS(insn->code);
	int err;

	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu_op(env, insn);
	case BPF_LDX:
		return check_load_mem(env, insn);
	case BPF_STX:
		if (BPF_MODE(insn->code) == BPF_ATOMIC)
			return check_atomic(env, insn);
		return check_store_reg(env, insn);
	case BPF_ST:
		err = check_reg_arg(env, insn->dst_reg, SRC_OP);
		if (err)
			return err;
		return check_mem_access(env, insn->dst_reg, insn->off, BPF_SIZE(insn->code),
					BPF_WRITE, -1, false);
	case BPF_LD:
		err = check_ld_imm(env, insn);
		if (err)
			return err;
		env->insn_idx++;
		return 0;
	case BPF_JMP:
	case BPF_JMP32: {
		u8 opcode = BPF_OP(insn->code);

		env->jmps_processed++;
		if (opcode == BPF_CALL) {
			/* static subprograms may run under the lock, no helper or kfunc */
			if (env->cur_state->active_lock_ptr &&
			    ((insn->src_reg == 0 && insn->imm != BPF_FUNC_spin_unlock &&
			      insn->imm != BPF_FUNC_kptr_xchg) ||
			     insn->src_reg == BPF_PSEUDO_KFUNC_CALL)) {
				verr(env, "function calls are not allowed while holding a lock");
				return -EINVAL;
			}
			if (insn->src_reg == BPF_PSEUDO_CALL)
				return check_func_call(env, insn, &env->insn_idx);
			if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
				return check_kfunc_call(env, insn);
			return check_helper_call(env, insn);
		}
		if (opcode == BPF_JA) {
			if (class == BPF_JMP)
				env->insn_idx += insn->off;
			else
				env->insn_idx += insn->imm;
			return 0;
		}
		if (opcode == BPF_EXIT) {
			if (env->cur_state->curframe)
				return prepare_func_exit(env, &env->insn_idx);
			err = check_resource_leak(env, false, true, "BPF_EXIT instruction in main prog");
			if (err)
				return err;
			err = check_return_code(env);
			if (err)
				return err;
			*do_exit = true;
			return 0;
		}
		err = check_cond_jmp_op(env, insn, &env->insn_idx);
		if (err)
			return err;
		if (env->pop_dead_branch) {
			env->pop_dead_branch = false;
			drop_pushed_branch(env);
		}
		if (env->this_branch_dead) {
			env->this_branch_dead = false;
			*do_exit = true;
		}
		return 0;
	}
	}
	verr(env, "unknown insn class %d", class);
	return -EINVAL;
}

static int do_check(struct bpf_verifier_env *env)
{
	struct bpf_verifier_state *state;
	struct bpf_func_state *frame0;
	int err;

	state = calloc(1, sizeof(*state));
	frame0 = calloc(1, sizeof(*frame0));
	if (!state || !frame0) {
		free(state);
		free(frame0);
		return -ENOMEM;
	}
	state->frame[0] = frame0;
	state->branches = 1;
	state->last_insn_idx = U32_MAX;
	env->prev_insn_idx = U32_MAX;
	init_func_state(frame0, U32_MAX, 0, 0);
	if (env->prog->type == BPF_PROG_TYPE_UNSPEC) {
		/* raw test programs: R1 is memory of R2 bytes, known at run time */
		mark_reg_ptr(&frame0->regs[BPF_REG_1], PTR_TO_MEM);
		frame0->regs[BPF_REG_1].mem_size = U32_MAX;
		mark_reg_unknown(frame0->regs, BPF_REG_2);
	} else {
		mark_reg_ptr(&frame0->regs[BPF_REG_1], PTR_TO_CTX);
	}
	env->cur_state = state;
	env->insn_idx = 0;

	for (;;) {
		bool do_exit = false;
		u32 this_insn;

		env->cur_hist_ent = -1;
		if (env->insn_idx >= env->prog->len) {
			verbose(env, "invalid insn idx %d insn_cnt %d\n", env->insn_idx,
				env->prog->len);
			err = -EFAULT;
			goto out;
		}
		if (++env->insn_processed > BPF_COMPLEXITY_LIMIT_INSNS) {
			verr(env, "BPF program is too large. Processed %llu insn",
			     (unsigned long long)env->insn_processed);
			err = -E2BIG;
			goto out;
		}
		if (env->aux[env->insn_idx].prune_point) {
			err = is_state_visited(env, env->insn_idx);
			if (err < 0)
				goto out;
			if (err == 1) {
				/* an equivalent finished state exists */
				goto process_bpf_exit;
			}
		}
		err = push_jmp_history_if_needed(env);
		if (err)
			goto out;
		env->aux[env->insn_idx].seen = true;
		this_insn = env->insn_idx;
		err = check_reserved_fields(env) ?: do_check_insn(env, &do_exit);
		if (err)
			goto out;
		env->prev_insn_idx = this_insn;
		if (do_exit)
			goto process_bpf_exit;
		env->insn_idx++;
		continue;
process_bpf_exit:
		update_branch_counts(env, env->cur_state);
		err = pop_stack(env, &env->insn_idx);
		if (err == -ENOENT) {
			err = 0;
			break;
		}
		if (err)
			goto out;
	}
out:
	if (env->cur_state) {
		free_verifier_state(env->cur_state, true);
		env->cur_state = NULL;
	}
	return err;
}

/* Subprograms from which a tail call may be taken, directly or in a callee. */
static void mark_tail_call_reachable(struct bpf_verifier_env *env)
{
	const struct bpf_insn *insns = env->prog->insnsi;
	bool changed = true;
	u32 s, i;

	for (s = 0; s < env->subprog_cnt; s++)
		for (i = env->subprogs[s].start; i < env->subprogs[s].end; i++)
			if (insns[i].code == (BPF_JMP | BPF_CALL) && insns[i].src_reg == 0 &&
			    insns[i].imm == BPF_FUNC_tail_call)
				env->subprogs[s].tail_call_reachable = true;
	while (changed) {
		changed = false;
		for (s = 0; s < env->subprog_cnt; s++) {
			if (env->subprogs[s].tail_call_reachable)
				continue;
			for (i = env->subprogs[s].start; i < env->subprogs[s].end; i++) {
				int callee;

				/* a callback's address counts as a call */
				if ((insns[i].code != (BPF_JMP | BPF_CALL) ||
				     insns[i].src_reg != BPF_PSEUDO_CALL) &&
				    !(is_ldimm64(&insns[i]) && insns[i].src_reg == BPF_PSEUDO_FUNC))
					continue;
				callee = bpf_find_subprog(env, i + insns[i].imm + 1);
				if (callee >= 0 && env->subprogs[callee].tail_call_reachable) {
					env->subprogs[s].tail_call_reachable = true;
					changed = true;
					break;
				}
			}
		}
	}
}

static const struct bpf_func_proto *no_func_proto(enum bpf_func_id func_id)
{
	return NULL;
}

static bool env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

int bpf_check(struct bpf_prog **progp, char *log, u32 log_size)
{
	struct bpf_prog *prog = *progp;
	struct bpf_verifier_env *env;
	int err;

	if (log && log_size)
		log[0] = '\0';
	env = calloc(1, sizeof(*env));
	if (!env)
		return -ENOMEM;
	env->prog = prog;
	env->log = log;
	env->log_size = log_size;
	/* a privileged loader, as root is in the kernel */
	env->allow_ptr_leaks = !env_flag("UXDP_BPF_UNPRIV");
	env->bypass_spec_v1 = env->allow_ptr_leaks;
	env->allow_uninit_stack = env->allow_ptr_leaks;
	env->bpf_capable = env->allow_ptr_leaks;
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

	err = bpf_check_insns(env) ?: bpf_check_cfg(env) ?: bpf_compute_live_regs(env);
	if (!err) {
		mark_tail_call_reachable(env);
		err = do_check(env);
	}
	if (err)
		verbose(env, "processed %llu insns (limit %d) max_states_per_insn %u total_states %u peak_states %u mark_read 0\n",
			(unsigned long long)env->insn_processed, BPF_COMPLEXITY_LIMIT_INSNS,
			env->max_states_per_insn, env->total_states, env->peak_states);
	prog->aux->insn_processed = env->insn_processed;
	if (!err)
		err = check_max_stack_depth(env) ?: optimize_bpf_loop(env);
	*progp = prog = env->prog;	/* the bpf_loop rewrite may move it */
	if (!err)
		err = bpf_do_fixups(env);
	free_states(env);
	free_insn_hist(env);
	free(env->aux);
out_free_env:
	free(env);
	return err;
}
