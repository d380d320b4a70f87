// SPDX-License-Identifier: GPL-2.0
/*
 * Callbacks: helpers that call a subprogram of the program (bpf_loop), how
 * the verifier walks them, and how the fix-ups turn a bpf_loop call into a
 * plain loop of bpf-to-bpf calls.
 *
 * Verification (the kernel's since 6.8): at the helper call a copy of the
 * state is pushed that enters the callback in a new frame (R1 the index,
 * R2 the context the caller passed, R3-R5 not initialised); the current
 * path goes on after the call as if the loop were over. The callback's
 * exit checks R0 against its range ([0, 1]) and returns to the helper call
 * itself, which is walked again: a new callback entry is pushed from
 * there, until either the state at the callsite equals one seen on an
 * earlier iteration (is_state_visited() compares them with RANGE_WITHIN:
 * the loop converged) or the caller frame's callback_depth reaches the
 * largest nr_loops R1 may hold.
 *
 * Run time: optimize_bpf_loop() rewrites each bpf_loop call whose flags
 * are known 0 and whose callback is the same on every path into an inline
 * loop that calls the callback as a bpf-to-bpf call, R6-R8 (the loop's
 * counter, bound and context) spilled to 24 extra bytes of the caller's
 * stack, so both the interpreter and the JIT run it with no helper
 * re-entering the program. Other bpf_loop calls stay helper calls; the
 * interpreter runs them (bpf_loop(), kernel/bpf/bpf_iter.c).
 *
 * Kernel: kernel/bpf/verifier.c push_callback_call(), setup_func_entry(),
 *	   set_loop_callback_state(), prepare_func_exit() (callback part),
 *	   update_loop_inline_state(), optimize_bpf_loop(), inline_bpf_loop(),
 *	   bpf_patch_insn_data(), adjust_subprog_starts();
 *	   kernel/bpf/core.c bpf_patch_insn_single(), bpf_adj_branches()
 * Differs: no widening of imprecise scalars at a callback's return
 *	    (widen_imprecise_scalars()): uxdp has no precision marks, so
 *	    every scalar counts as precise, as everywhere else in its state
 *	    comparisons, and a context that changes on every iteration is
 *	    walked up to nr_loops times, as the kernel walks a precise one
 *	    (a counter tested in a branch). The kernel's rejection of a tail
 *	    call made in a callback itself is a failure of its precision
 *	    backtracking; uxdp gives the same message at the callback's exit.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>

#define S16_MIN	(-32768)
#define S16_MAX	32767

bool is_callback_calling_function(s32 func_id)
{
	return func_id == BPF_FUNC_loop;
}

bool is_sync_callback_calling_insn(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == 0 &&
	       is_callback_calling_function(insn->imm);
}

static bool is_bpf_loop_call(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == 0 &&
	       insn->imm == BPF_FUNC_loop;
}

/*
 * bpf_loop(u32 nr_loops, void *callback_fn, void *callback_ctx, u64 flags)
 * calls long callback_fn(u64 index, void *callback_ctx).
 */
static int set_loop_callback_state(struct bpf_verifier_env *env, struct bpf_func_state *caller,
				   struct bpf_func_state *callee, u32 insn_idx)
{
	/* the index: any scalar (the kernel does not bound it by nr_loops) */
	__mark_reg_unknown(&callee->regs[BPF_REG_1]);
	callee->regs[BPF_REG_2] = caller->regs[BPF_REG_3];
	__mark_reg_not_init(&callee->regs[BPF_REG_3]);
	__mark_reg_not_init(&callee->regs[BPF_REG_4]);
	__mark_reg_not_init(&callee->regs[BPF_REG_5]);
	callee->in_callback_fn = true;
	callee->callback_ret_range = (struct bpf_retval_range){ 0, 1 };
	return 0;
}

/*
 * Push the entry into callback @subprog of the helper call at @insn_idx;
 * the current path continues after the call.
 */
static int push_callback_call(struct bpf_verifier_env *env, u32 insn_idx, u32 subprog,
			      set_callee_state_fn set_callee_state_cb)
{
	struct bpf_func_state *caller = cur_func(env);
	struct bpf_verifier_state *callback_state;
	int err;

	env->subprogs[subprog].is_cb = true;
	callback_state = push_stack(env, env->subprogs[subprog].start, insn_idx);
	if (!callback_state)
		return -ENOMEM;
	err = setup_func_entry(env, subprog, insn_idx, set_callee_state_cb, callback_state);
	if (err)
		return err;
	callback_state->callback_unroll_depth++;
	callback_state->frame[callback_state->curframe - 1]->callback_depth++;
	caller->callback_depth = 0;
	return 0;
}

static bool loop_flag_is_zero(struct bpf_verifier_env *env)
{
	return register_is_null(&cur_regs(env)[BPF_REG_4]);
}

static void update_loop_inline_state(struct bpf_verifier_env *env, u32 subprogno)
{
	struct bpf_loop_inline_state *state = &env->aux[env->insn_idx].loop_inline_state;

	if (!state->initialized) {
		state->initialized = true;
		state->fit_for_inline = loop_flag_is_zero(env);
		state->callback_subprogno = subprogno;
		return;
	}
	if (!state->fit_for_inline)
		return;
	state->fit_for_inline = loop_flag_is_zero(env) && state->callback_subprogno == subprogno;
}

/*
 * The bpf_loop call at env->insn_idx, its arguments checked, the callback
 * @subprogno: schedule one more callback entry unless the caller has been
 * around the loop as many times as nr_loops may be.
 */
int check_bpf_loop_call(struct bpf_verifier_env *env, u32 subprogno)
{
	struct bpf_func_state *caller = cur_func(env);

	update_loop_inline_state(env, subprogno);
	if (caller->callback_depth < cur_regs(env)[BPF_REG_1].umax_value)
		return push_callback_call(env, env->insn_idx, subprogno, set_loop_callback_state);
	caller->callback_depth = 0;
	return 0;
}

/* Kernel: verbose_invalid_scalar(). */
static void verbose_invalid_scalar(struct bpf_verifier_env *env, const struct bpf_reg_state *reg,
				   struct bpf_retval_range range, const char *ctx,
				   const char *reg_name)
{
	char smin[32] = "", smax[32] = "";

	if (reg->smin_value > S64_MIN)
		snprintf(smin, sizeof(smin), " smin=%lld", (long long)reg->smin_value);
	if (reg->smax_value < S64_MAX)
		snprintf(smax, sizeof(smax), " smax=%lld", (long long)reg->smax_value);
	vinsn(env, env->insn_idx, "%s the register %s has%s%s%s should have been in [%d, %d]", ctx,
	      reg_name, smin, smax, *smin || *smax ? "" : " unknown scalar value", range.minval,
	      range.maxval);
}

/* R0 at the exit of callback frame @callee (kernel: prepare_func_exit()). */
int check_callback_return(struct bpf_verifier_env *env, const struct bpf_func_state *callee)
{
	const struct bpf_reg_state *r0 = &callee->regs[BPF_REG_0];
	struct bpf_retval_range range = callee->callback_ret_range;

	if (r0->type != SCALAR_VALUE) {
		vinsn(env, env->insn_idx, "R0 not a scalar value");
		return -EACCES;
	}
	/* where the kernel's backtracking from the callsite fails */
	if (env->subprogs[callee->subprogno].has_tail_call) {
		vinsn(env, env->insn_idx, "verifier bug: callback unexpected regs 1");
		return -EFAULT;
	}
	/* bpf_callback_t returns 64 bits */
	if (r0->smin_value < range.minval || r0->smax_value > range.maxval) {
		verbose_invalid_scalar(env, r0, range, "At callback return", "R0");
		return -EINVAL;
	}
	return 0;
}

/* ---- the bpf_loop inlining ---------------------------------------------- */

/* Jump or call offset of @insn at @curr after @delta insns replaced [pos, pos + 1). */
static int adj_off(s32 *off, u32 curr, u32 pos, u32 delta)
{
	s64 t = (s64)curr + *off + 1;
	s64 o = *off;

	if (curr < pos && t > pos)
		o += delta;
	else if (curr > pos + delta && t <= pos + delta)
		o -= delta;
	if (o < S16_MIN || o > S16_MAX)
		return -ERANGE;
	*off = (s32)o;
	return 0;
}

/*
 * Replace the instruction at @pos by the @cnt of @patch: the program grows,
 * jumps, calls and function addresses that cross @pos are moved, and so
 * are env->aux and the subprogram bounds. The new instructions are marked
 * seen. Kernel: bpf_patch_insn_data().
 */
static int bpf_patch_insn_data(struct bpf_verifier_env *env, u32 pos,
			       const struct bpf_insn *patch, u32 cnt)
{
	struct bpf_prog *prog = env->prog;
	u32 len = prog->len, new_len = len + cnt - 1, delta = cnt - 1, i;
	struct bpf_insn_aux_data *aux;
	struct bpf_insn *insns;

	if (new_len > BPF_MAX_INSNS)
		return -E2BIG;
	prog = realloc(prog, sizeof(*prog) + (size_t)new_len * sizeof(struct bpf_insn));
	if (!prog)
		return -ENOMEM;
	env->prog = prog;
	aux = realloc(env->aux, (size_t)new_len * sizeof(*aux));
	if (!aux)
		return -ENOMEM;
	env->aux = aux;
	insns = prog->insnsi;
	memmove(&insns[pos + cnt], &insns[pos + 1], (len - pos - 1) * sizeof(*insns));
	memcpy(&insns[pos], patch, cnt * sizeof(*insns));
	memmove(&aux[pos + cnt], &aux[pos + 1], (len - pos - 1) * sizeof(*aux));
	memset(&aux[pos + 1], 0, delta * sizeof(*aux));
	prog->len = new_len;

	for (i = 0; i < new_len; i++) {
		struct bpf_insn *insn = &insns[i];
		int err = 0;

		if (i >= pos && i < pos + cnt) {
			aux[i].seen = true;
			continue;
		}
		if (aux[i].is_ldimm_second)
			continue;
		if (is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC) {
			err = adj_off(&insn->imm, i, pos, delta);
		} else if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_CALL) {
			err = adj_off(&insn->imm, i, pos, delta);
		} else if (insn->code == (BPF_JMP32 | BPF_JA)) {
			err = adj_off(&insn->imm, i, pos, delta);
		} else if (has_jmp_target(insn)) {
			s32 off = insn->off;

			err = adj_off(&off, i, pos, delta);
			insn->off = (s16)off;
		}
		if (err) {
			/* the kernel's bpf_patch_insn_data(): the load fails as out of memory */
			bpf_verbose(env, "insn %u cannot be patched due to 16-bit range\n", pos);
			return -ENOMEM;
		}
	}
	for (i = 0; i < env->subprog_cnt; i++) {
		if (env->subprogs[i].start > pos)
			env->subprogs[i].start += delta;
		if (env->subprogs[i].end > pos)
			env->subprogs[i].end += delta;
	}
	return 0;
}

#define INLINE_LOOP_CALL	12	/* index of the callback call in the patch */

/*
 * The loop that replaces the bpf_loop call at @pos; R6-R8 are spilled at
 * @stack_base (R6), + 8 (R7), + 16 (R8) below the caller's R10.
 * Kernel: inline_bpf_loop().
 */
static int inline_bpf_loop(struct bpf_verifier_env *env, u32 pos, s32 stack_base,
			   u32 callback_subprogno)
{
	const u32 reg_loop_max = BPF_REG_6, reg_loop_cnt = BPF_REG_7, reg_loop_ctx = BPF_REG_8;
	s16 r6_off = stack_base, r7_off = stack_base + 8, r8_off = stack_base + 16;
#define I(c, d, s, o, k)	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (k) }
	struct bpf_insn patch[] = {
		/* too many iterations: -E2BIG, past the loop */
		I(BPF_JMP | BPF_JLE | BPF_K, BPF_REG_1, 0, 2, BPF_MAX_LOOPS),
		I(BPF_ALU | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, -E2BIG),
		I(BPF_JMP | BPF_JA, 0, 0, 16, 0),
		/* R6-R8 become the loop's bound, counter and context */
		I(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_6, r6_off, 0),
		I(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_7, r7_off, 0),
		I(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_8, r8_off, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_X, reg_loop_max, BPF_REG_1, 0, 0),
		I(BPF_ALU | BPF_MOV | BPF_K, reg_loop_cnt, 0, 0, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_X, reg_loop_ctx, BPF_REG_3, 0, 0),
		/* while (cnt < max) */
		I(BPF_JMP | BPF_JGE | BPF_X, reg_loop_cnt, reg_loop_max, 5, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, reg_loop_cnt, 0, 0),
		I(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, reg_loop_ctx, 0, 0),
		/* the callback; its offset is set once the patch is in */
		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, reg_loop_cnt, 0, 0, 1),
		/* go on while the callback returns 0 */
		I(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, -6, 0),
		/* bpf_loop returns the number of iterations */
		I(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, reg_loop_cnt, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_6, BPF_REG_10, r6_off, 0),
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_10, r7_off, 0),
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_8, BPF_REG_10, r8_off, 0),
	};
#undef I
	u32 cnt = ARRAY_SIZE(patch), i, call;
	int err;

	err = bpf_patch_insn_data(env, pos, patch, cnt);
	if (err)
		return err;
	call = pos + INLINE_LOOP_CALL;
	env->prog->insnsi[call].imm = (s32)env->subprogs[callback_subprogno].start - (s32)call - 1;
	/* the spills and fills are stack accesses (the hardened runtime checks them) */
	for (i = pos; i < pos + cnt; i++) {
		u8 cls = BPF_CLASS(env->prog->insnsi[i].code);

		if (cls == BPF_STX || cls == BPF_LDX) {
			env->aux[i].access = ACC_PROVEN;
			env->aux[i].region = BPF_RGN(BPF_RGN_STACK, 0);
		}
	}
	env->aux[call].call_seen = true;
	return (int)cnt;
}

/*
 * Every bpf_loop call fit for it becomes an inline loop. The calls of one
 * subprogram share its 24 extra bytes of stack (after rounding its depth
 * up to 8). Kernel: optimize_bpf_loop().
 */
int optimize_bpf_loop(struct bpf_verifier_env *env)
{
	u32 s, i;
	int cnt;

	for (s = 0; s < env->subprog_cnt; s++) {
		struct bpf_subprog_info *sp = &env->subprogs[s];
		u32 depth = ALIGN(sp->stack_depth, 8);
		bool extra = false;

		for (i = sp->start; i < sp->end; i++) {
			struct bpf_loop_inline_state *st = &env->aux[i].loop_inline_state;

			if (!is_bpf_loop_call(&env->prog->insnsi[i]) || !env->aux[i].seen ||
			    !st->fit_for_inline)
				continue;
			cnt = inline_bpf_loop(env, i, -(s32)(depth + 3 * BPF_REG_SIZE),
					      st->callback_subprogno);
			if (cnt < 0)
				return cnt;
			extra = true;
			i += cnt - 1;
		}
		if (extra) {
			env->loop_stack_extra += depth + 3 * BPF_REG_SIZE - sp->stack_depth;
			sp->stack_depth = depth + 3 * BPF_REG_SIZE;
		}
	}
	return 0;
}
