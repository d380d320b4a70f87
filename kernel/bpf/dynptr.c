// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's dynptrs: a struct bpf_dynptr lives in two stack slots of
 * type STACK_DYNPTR, made by a constructor (bpf_dynptr_from_xdp, a clone)
 * whose argument must be an uninitialised dynptr, used by helpers and
 * kfuncs whose argument must be an initialised one. Each dynptr has an id
 * (its first slot's spilled_ptr.id); slices (bpf_dynptr_slice/_rdwr,
 * bpf_dynptr_data) carry it as dynptr_id. Overwriting either slot ends the
 * dynptr: both slots become STACK_INVALID and slices typed exactly
 * PTR_TO_MEM (or its _or_null) that carry its id are invalidated; packet
 * slices keep their flags and so survive, as in the kernel, until a
 * helper changes the packet (clear_all_pkt_pointers()).
 *
 * Kernel: kernel/bpf/verifier.c stack_slot_obj_get_spi(), dynptr_get_spi(),
 *	   is_dynptr_reg_valid_uninit(), is_dynptr_reg_valid_init(),
 *	   mark_stack_slots_dynptr(), __mark_dynptr_reg(),
 *	   destroy_if_dynptr_stack_slot(), dynptr_id(), dynptr_get_type(),
 *	   dynptr_type_str()
 * Differs: no referenced (ringbuf) dynptrs: "cannot overwrite referenced
 *	    dynptr" cannot arise; every stack slot is always allocated, so
 *	    -ERANGE means past the 512-byte stack only.
 */
#include <errno.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>

#define verr(env, fmt, ...)	vinsn(env, (env)->insn_idx, fmt, ##__VA_ARGS__)

static struct bpf_func_state *func(struct bpf_verifier_env *env, const struct bpf_reg_state *reg)
{
	return env->cur_state->frame[reg->frameno];
}

/* The higher slot of the dynptr @reg points to, or -errno. */
int dynptr_get_spi(struct bpf_verifier_env *env, struct bpf_reg_state *reg)
{
	int off, spi;

	if (!tnum_is_const(reg->var_off)) {
		verr(env, "dynptr has to be at a constant offset");
		return -EINVAL;
	}
	off = reg->off + (int)reg->var_off.value;
	if (off % BPF_REG_SIZE) {
		verr(env, "cannot pass in dynptr at an offset=%d", off);
		return -EINVAL;
	}
	spi = (-off - 1) / BPF_REG_SIZE;
	if (spi + 1 < (int)BPF_DYNPTR_NR_SLOTS) {
		verr(env, "cannot pass in dynptr at an offset=%d", off);
		return -EINVAL;
	}
	if (spi >= STACK_SLOTS)
		return -ERANGE;
	return spi;
}

bool is_dynptr_reg_valid_uninit(struct bpf_verifier_env *env, struct bpf_reg_state *reg)
{
	int spi;

	if (reg->type == CONST_PTR_TO_DYNPTR)
		return false;
	spi = dynptr_get_spi(env, reg);
	/* past the stack: the write that follows reports it */
	return spi >= 0 || spi == -ERANGE;
}

bool is_dynptr_reg_valid_init(struct bpf_verifier_env *env, struct bpf_reg_state *reg)
{
	struct bpf_func_state *state = func(env, reg);
	int i, spi;

	if (reg->type == CONST_PTR_TO_DYNPTR)
		return true;
	spi = dynptr_get_spi(env, reg);
	if (spi < 0)
		return false;
	if (!state->stack[spi].spilled_ptr.dynptr.first_slot)
		return false;
	for (i = 0; i < BPF_REG_SIZE; i++)
		if (state->stack[spi].slot_type[i] != STACK_DYNPTR ||
		    state->stack[spi - 1].slot_type[i] != STACK_DYNPTR)
			return false;
	return true;
}

static void __mark_dynptr_reg(struct bpf_reg_state *reg, enum bpf_dynptr_type type,
			      bool first_slot, u32 id)
{
	memset(reg, 0, sizeof(*reg));
	__mark_reg_known_zero(reg);
	reg->type = CONST_PTR_TO_DYNPTR;
	reg->id = id;
	reg->dynptr.type = type;
	reg->dynptr.first_slot = first_slot;
}

int destroy_if_dynptr_stack_slot(struct bpf_verifier_env *env, struct bpf_func_state *state,
				 int spi)
{
	struct bpf_func_state *fstate;
	struct bpf_reg_state *dreg;
	u32 id;
	int i;

	/* STACK_DYNPTR is never set partially: byte 0 tells */
	if (state->stack[spi].slot_type[0] != STACK_DYNPTR)
		return 0;
	if (!state->stack[spi].spilled_ptr.dynptr.first_slot)
		spi++;
	for (i = 0; i < BPF_REG_SIZE; i++) {
		state->stack[spi].slot_type[i] = STACK_INVALID;
		state->stack[spi - 1].slot_type[i] = STACK_INVALID;
	}
	id = state->stack[spi].spilled_ptr.id;
	bpf_for_each_reg_in_vstate(env->cur_state, fstate, dreg, ({
		if ((dreg->type == PTR_TO_MEM || dreg->type == (PTR_TO_MEM | PTR_MAYBE_NULL)) &&
		    dreg->dynptr_id == id)
			mark_reg_invalid(env, dreg);
	}));
	(void)fstate;
	__mark_reg_not_init(&state->stack[spi].spilled_ptr);
	__mark_reg_not_init(&state->stack[spi - 1].spilled_ptr);
	return 0;
}

int mark_stack_slots_dynptr(struct bpf_verifier_env *env, struct bpf_reg_state *reg,
			    enum bpf_dynptr_type type)
{
	struct bpf_func_state *state = func(env, reg);
	int spi, i, err;
	u32 id;

	spi = dynptr_get_spi(env, reg);
	if (spi < 0)
		return spi;
	/* [d1][d1][d2][d2]: marking the middle two ends both */
	err = destroy_if_dynptr_stack_slot(env, state, spi) ?:
	      destroy_if_dynptr_stack_slot(env, state, spi - 1);
	if (err)
		return err;
	for (i = 0; i < BPF_REG_SIZE; i++) {
		state->stack[spi].slot_type[i] = STACK_DYNPTR;
		state->stack[spi - 1].slot_type[i] = STACK_DYNPTR;
	}
	if (type == BPF_DYNPTR_TYPE_INVALID)
		return -EINVAL;
	id = ++env->id_gen;
	__mark_dynptr_reg(&state->stack[spi].spilled_ptr, type, true, id);
	__mark_dynptr_reg(&state->stack[spi - 1].spilled_ptr, type, false, id);
	return 0;
}

int dynptr_id(struct bpf_verifier_env *env, struct bpf_reg_state *reg)
{
	int spi;

	if (reg->type == CONST_PTR_TO_DYNPTR)
		return (int)reg->id;
	spi = dynptr_get_spi(env, reg);
	if (spi < 0)
		return spi;
	return (int)func(env, reg)->stack[spi].spilled_ptr.id;
}

enum bpf_dynptr_type dynptr_get_type(struct bpf_verifier_env *env, struct bpf_reg_state *reg)
{
	int spi;

	if (reg->type == CONST_PTR_TO_DYNPTR)
		return reg->dynptr.type;
	spi = dynptr_get_spi(env, reg);
	if (spi < 0)
		return BPF_DYNPTR_TYPE_INVALID;
	return func(env, reg)->stack[spi].spilled_ptr.dynptr.type;
}

const char *dynptr_type_str(enum bpf_dynptr_type type)
{
	switch (type) {
	case BPF_DYNPTR_TYPE_LOCAL:
		return "local";
	case BPF_DYNPTR_TYPE_RINGBUF:
		return "ringbuf";
	case BPF_DYNPTR_TYPE_SKB:
		return "skb";
	case BPF_DYNPTR_TYPE_XDP:
		return "xdp";
	default:
		return "<unknown>";
	}
}
