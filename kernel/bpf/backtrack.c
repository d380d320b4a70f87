// SPDX-License-Identifier: GPL-2.0
/*
 * Precision tracking. A scalar is "precise" in a kept state when its value
 * decided something on a path from that state: a memory access offset or
 * size, a helper's constant argument, a branch its bounds settled. Only
 * precise scalars are compared by range when states are matched
 * (states.c regsafe()); any scalar covers an imprecise one. A privileged
 * program's scalars start imprecise; an unprivileged one's are all
 * precise.
 *
 * When a use needs a scalar's value, mark_chain_precision() walks the
 * current path backwards, instruction by instruction: through the current
 * state's steps, then its parent's, and so on up the chain of kept states.
 * backtrack_insn() turns "rX must be precise after insn i" into what must
 * be precise before it (rX = rY moves the need to rY, rX += rY adds rY, a
 * fill moves it to the stack slot, a spill from the slot back to the
 * register, a constant ends it, calls and exits move it between frames).
 * At each parent state on the way the register or slot is marked precise;
 * one already precise there ends the walk for it.
 *
 * The walk needs to know which instruction came before which: each state
 * records, in env->insn_hist, the steps that were not to the next
 * instruction (jumps taken, calls, returns, a popped branch), the spills
 * and fills of stack slots (which slot, which frame), and the linked
 * scalars a conditional jump refined together. The entries of the states
 * on the current path are a prefix of that array, kept as a stack: a
 * popped branch writes over the history of paths already finished.
 *
 * Kernel: kernel/bpf/verifier.c push_insn_history(), get_prev_insn_idx(),
 *	   backtrack_insn(), bt_sync_linked_regs(), __mark_chain_precision(),
 *	   mark_chain_precision(), mark_chain_precision_batch(),
 *	   mark_all_scalars_precise(), mark_all_scalars_imprecise()
 * Differs: the history records every non-linear step the walk makes
 *	    instead of the CFG pass's jump points (the same entries where it
 *	    matters); a step the backtracking cannot follow (a pointer in the
 *	    chain, an atomic on a spilled slot) falls back to marking every
 *	    scalar of the path precise, as the kernel does for its own
 *	    unsupported cases; no log_level 2 "mark_precise:" trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>

#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

u32 insn_stack_access_flags(u32 frameno, u32 spi)
{
	return INSN_F_STACK_ACCESS | (spi << INSN_F_SPI_SHIFT) | frameno;
}

static u32 insn_stack_access_spi(u32 flags)
{
	return (flags >> INSN_F_SPI_SHIFT) & INSN_F_SPI_MASK;
}

static u32 insn_stack_access_frameno(u32 flags)
{
	return flags & INSN_F_FRAMENO_MASK;
}

int push_insn_history(struct bpf_verifier_env *env, u32 flags,
		      const struct bpf_linked_reg *linked, u32 nr_linked)
{
	struct bpf_verifier_state *cur = env->cur_state;
	struct bpf_insn_hist_entry *p;

	if (nr_linked > BPF_MAX_LINKED_REGS)
		nr_linked = BPF_MAX_LINKED_REGS;
	/* a second record for the same instruction joins the first */
	if (env->cur_hist_ent >= 0) {
		p = &env->insn_hist[env->cur_hist_ent];
		p->flags |= flags;
		if (nr_linked) {
			memcpy(p->linked, linked, nr_linked * sizeof(*linked));
			p->nr_linked = nr_linked;
		}
		return 0;
	}
	if (cur->insn_hist_end >= env->insn_hist_cap) {
		u32 cap = env->insn_hist_cap ? env->insn_hist_cap * 2 : 256;
		void *h = realloc(env->insn_hist, (size_t)cap * sizeof(*p));

		if (!h)
			return -ENOMEM;
		env->insn_hist = h;
		env->insn_hist_cap = cap;
	}
	p = &env->insn_hist[cur->insn_hist_end];
	p->idx = env->insn_idx;
	p->prev_idx = env->prev_insn_idx;
	p->flags = flags;
	p->nr_linked = nr_linked;
	if (nr_linked)
		memcpy(p->linked, linked, nr_linked * sizeof(*linked));
	env->cur_hist_ent = cur->insn_hist_end++;
	return 0;
}

/* The step from env->prev_insn_idx to env->insn_idx was not a fallthrough. */
int push_jmp_history_if_needed(struct bpf_verifier_env *env)
{
	u32 prev = env->prev_insn_idx, idx = env->insn_idx;

	if (prev == U32_MAX || idx == prev + 1)
		return 0;
	if (idx == prev + 2 && is_ldimm64(&env->prog->insnsi[prev]))
		return 0;
	return push_insn_history(env, 0, NULL, 0);
}

void free_insn_hist(struct bpf_verifier_env *env)
{
	free(env->insn_hist);
	env->insn_hist = NULL;
	env->insn_hist_cap = 0;
}

static bool bt_empty(const struct backtrack_state *bt)
{
	u64 m = 0;
	u32 i;

	for (i = 0; i <= bt->frame; i++)
		m |= bt->reg_masks[i] | bt->stack_masks[i];
	return !m;
}

static bool bt_is_frame_reg_set(const struct backtrack_state *bt, u32 frame, u32 reg)
{
	return bt->reg_masks[frame] & (1u << reg);
}

static bool bt_is_frame_slot_set(const struct backtrack_state *bt, u32 frame, u32 spi)
{
	return bt->stack_masks[frame] & (1ull << spi);
}

static bool bt_is_reg_set(const struct backtrack_state *bt, u32 reg)
{
	return bt_is_frame_reg_set(bt, bt->frame, reg);
}

static void bt_set_reg(struct backtrack_state *bt, u32 reg)
{
	bt_set_frame_reg(bt, bt->frame, reg);
}

static void bt_clear_reg(struct backtrack_state *bt, u32 reg)
{
	bt->reg_masks[bt->frame] &= ~(1u << reg);
}

/* A jump refined linked scalars together: one precise makes all precise. */
static void bt_sync_linked_regs(struct backtrack_state *bt, const struct bpf_insn_hist_entry *hist)
{
	bool some = false;
	u32 i;

	if (!hist || hist->nr_linked < 2)
		return;
	for (i = 0; i < hist->nr_linked && !some; i++) {
		const struct bpf_linked_reg *e = &hist->linked[i];

		some = e->is_reg ? bt_is_frame_reg_set(bt, e->frameno, e->regno) :
				   bt_is_frame_slot_set(bt, e->frameno, e->regno);
	}
	if (!some)
		return;
	for (i = 0; i < hist->nr_linked; i++) {
		const struct bpf_linked_reg *e = &hist->linked[i];

		if (e->is_reg)
			bt_set_frame_reg(bt, e->frameno, e->regno);
		else
			bt_set_frame_slot(bt, e->frameno, e->regno);
	}
}

/* Atomics: the loaded register, if any, comes from memory. */
static int backtrack_atomic(const struct bpf_insn *insn, const struct bpf_insn_hist_entry *hist,
			    struct backtrack_state *bt)
{
	bool on_stack = hist && (hist->flags & INSN_F_STACK_ACCESS);
	s32 load_reg = -1;

	if (insn->imm == BPF_LOAD_ACQ)
		load_reg = insn->dst_reg;
	else if (insn->imm == BPF_CMPXCHG)
		load_reg = BPF_REG_0;
	else if (insn->imm & BPF_FETCH)
		load_reg = insn->src_reg;
	if (insn->imm != BPF_LOAD_ACQ && bt_is_reg_set(bt, insn->dst_reg))
		return -ENOTSUPP;	/* a pointer in the chain */
	if (on_stack) {
		u32 fr = insn_stack_access_frameno(hist->flags);
		u32 spi = insn_stack_access_spi(hist->flags);

		if (bt_is_frame_slot_set(bt, fr, spi) || (load_reg >= 0 && bt_is_reg_set(bt, load_reg)))
			return -ENOTSUPP;
		return 0;
	}
	if (load_reg >= 0)
		bt_clear_reg(bt, load_reg);
	return 0;
}

/* bpf-to-bpf call reached from the callee's first insn: back to the caller. */
static int backtrack_subprog_call(struct backtrack_state *bt)
{
	u32 i;

	if (!bt->frame || (bt->reg_masks[bt->frame] & ~BPF_REGMASK_ARGS) ||
	    bt->stack_masks[bt->frame])
		return -ENOTSUPP;
	for (i = BPF_REG_1; i <= BPF_REG_5; i++)
		if (bt_is_reg_set(bt, i))
			bt_set_frame_reg(bt, bt->frame - 1, i);
	bt->reg_masks[bt->frame] = 0;
	bt->frame--;
	return 0;
}

/* A subprogram's exit reached from the insn after its call: into the callee. */
static int backtrack_exit(struct bpf_verifier_env *env, s64 subseq_idx, struct backtrack_state *bt)
{
	const struct bpf_insn *insns = env->prog->insnsi;
	bool r0_precise;

	if (subseq_idx < 1 || (bt->reg_masks[bt->frame] & BPF_REGMASK_ARGS) ||
	    bt->frame + 1 >= MAX_CALL_FRAMES)
		return -ENOTSUPP;
	r0_precise = bt_is_reg_set(bt, BPF_REG_0) &&
		     insns[subseq_idx - 1].code == (BPF_JMP | BPF_CALL) &&
		     insns[subseq_idx - 1].src_reg == BPF_PSEUDO_CALL;
	bt_clear_reg(bt, BPF_REG_0);
	bt->frame++;
	bt->reg_masks[bt->frame] = 0;
	bt->stack_masks[bt->frame] = 0;
	if (r0_precise)
		bt_set_reg(bt, BPF_REG_0);
	return 0;
}

static int backtrack_jmp(struct bpf_verifier_env *env, u32 idx, s64 subseq_idx,
			 struct backtrack_state *bt)
{
	const struct bpf_insn *insn = &env->prog->insnsi[idx];
	u8 opcode = BPF_OP(insn->code);
	u32 dreg = insn->dst_reg, sreg = insn->src_reg;

	switch (opcode) {
	case BPF_CALL:
		if (BPF_CLASS(insn->code) == BPF_JMP && sreg == BPF_PSEUDO_CALL)
			return backtrack_subprog_call(bt);
		if (sreg != 0)
			return -ENOTSUPP;
		/* a helper sets R0; R1-R5 were found before the call */
		bt_clear_reg(bt, BPF_REG_0);
		if (bt->reg_masks[bt->frame] & BPF_REGMASK_ARGS)
			return -ENOTSUPP;
		return 0;
	case BPF_EXIT:
		return backtrack_exit(env, subseq_idx, bt);
	case BPF_JA:
	case BPF_JCOND:
		return 0;
	}
	/* dreg <cond> sreg: both decided the branch, so both need precision */
	if (BPF_SRC(insn->code) == BPF_X && (bt_is_reg_set(bt, dreg) || bt_is_reg_set(bt, sreg))) {
		bt_set_reg(bt, dreg);
		bt_set_reg(bt, sreg);
	}
	return 0;
}

/*
 * What must be precise before insn @idx for what env->bt holds after it.
 * @subseq_idx: the insn walked after @idx (-1: none). 0, or -ENOTSUPP
 * when the chain cannot be followed. Kernel: backtrack_insn().
 */
static int backtrack_insn(struct bpf_verifier_env *env, u32 idx, s64 subseq_idx,
			  const struct bpf_insn_hist_entry *hist, struct backtrack_state *bt)
{
	const struct bpf_insn *insn = &env->prog->insnsi[idx];
	u8 class = BPF_CLASS(insn->code), opcode = BPF_OP(insn->code);
	u32 dreg = insn->dst_reg, sreg = insn->src_reg, fr, spi;
	int err = 0;

	if (insn->code == 0)
		return 0;	/* second half of ld_imm64 */
	if (bad_reg(insn))
		return -ENOTSUPP;
	bt_sync_linked_regs(bt, hist);
	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		if (!bt_is_reg_set(bt, dreg) || opcode == BPF_END || opcode == BPF_NEG)
			break;
		if (opcode == BPF_MOV) {
			/* dreg = sreg (or a sign extension of it), or dreg = K */
			bt_clear_reg(bt, dreg);
			if (BPF_SRC(insn->code) == BPF_X && sreg != BPF_REG_10)
				bt_set_reg(bt, sreg);
		} else if (BPF_SRC(insn->code) == BPF_X) {
			/* dreg op= sreg: both make the result */
			bt_set_reg(bt, sreg);
		}
		break;
	case BPF_LDX:
		if (!bt_is_reg_set(bt, dreg))
			break;
		bt_clear_reg(bt, dreg);
		/* only a fill of a spilled scalar carries its value on */
		if (hist && (hist->flags & INSN_F_STACK_ACCESS))
			bt_set_frame_slot(bt, insn_stack_access_frameno(hist->flags),
					  insn_stack_access_spi(hist->flags));
		break;
	case BPF_STX:
	case BPF_ST:
		if (class == BPF_STX && BPF_MODE(insn->code) == BPF_ATOMIC) {
			err = backtrack_atomic(insn, hist, bt);
			break;
		}
		if (bt_is_reg_set(bt, dreg))
			return -ENOTSUPP;	/* a scalar used as a store base */
		if (!hist || !(hist->flags & INSN_F_STACK_ACCESS))
			break;
		fr = insn_stack_access_frameno(hist->flags);
		spi = insn_stack_access_spi(hist->flags);
		if (!bt_is_frame_slot_set(bt, fr, spi))
			break;
		bt->stack_masks[fr] &= ~(1ull << spi);
		if (class == BPF_STX)
			bt_set_reg(bt, sreg);
		break;
	case BPF_JMP:
	case BPF_JMP32:
		err = backtrack_jmp(env, idx, subseq_idx, bt);
		break;
	case BPF_LD:
		if (BPF_MODE(insn->code) != BPF_IMM)
			return -ENOTSUPP;
		bt_clear_reg(bt, dreg);	/* ld_imm64: a constant */
		break;
	}
	if (err)
		return err;
	bt_sync_linked_regs(bt, hist);
	return 0;
}

/* The history entry of insn @i at the end of what is left of @st's, or NULL. */
static const struct bpf_insn_hist_entry *hist_entry(struct bpf_verifier_env *env,
						    const struct bpf_verifier_state *st,
						    u32 i, u32 hist_end)
{
	if (hist_end > st->insn_hist_start && env->insn_hist[hist_end - 1].idx == i)
		return &env->insn_hist[hist_end - 1];
	return NULL;
}

/* The insn walked before @i in @st: 0, or -ENOENT at the state's first one. */
static int get_prev_insn_idx(struct bpf_verifier_env *env, const struct bpf_verifier_state *st,
			     u32 i, u32 *hist_end, u32 *prev)
{
	u32 start = st->insn_hist_start;

	if (i == st->first_insn_idx) {
		if (*hist_end == start)
			return -ENOENT;
		if (*hist_end == start + 1 && env->insn_hist[start].idx == i)
			return -ENOENT;
	}
	if (*hist_end > start && env->insn_hist[*hist_end - 1].idx == i) {
		(*hist_end)--;
		*prev = env->insn_hist[*hist_end].prev_idx;
	} else {
		*prev = i - 1;
	}
	return 0;
}

static void mark_all_scalars(struct bpf_verifier_state *st, bool precise)
{
	struct bpf_func_state *func;
	u32 fr, i;

	for (fr = 0; fr <= st->curframe; fr++) {
		func = st->frame[fr];
		for (i = 0; i < MAX_BPF_REG; i++)
			if (func->regs[i].type == SCALAR_VALUE)
				func->regs[i].precise = precise;
		for (i = 0; i < func->allocated_slots; i++)
			if (is_spilled_scalar_reg(&func->stack[i]))
				func->stack[i].spilled_ptr.precise = precise;
	}
}

/*
 * The fallback: every scalar of @st's parents is precise (marks in @st
 * itself would be forgotten at its next checkpoint anyway). Kept states do
 * not change but for precise marks, so a parent an earlier fallback
 * marked, and all above it, are precise already: stop there. Without
 * that, a walk that falls back at every step (a callback iterated up to
 * the instruction limit) costs the square of its length.
 */
static void mark_all_scalars_precise(struct bpf_verifier_state *st)
{
	for (st = st->parent; st && !st->all_precise; st = st->parent) {
		mark_all_scalars(st, true);
		st->all_precise = true;
	}
}

void mark_all_scalars_imprecise(struct bpf_verifier_state *st)
{
	mark_all_scalars(st, false);
}

/* Mark what env->bt holds in parent state @st; leave in bt what was not yet precise. */
static void mark_in_parent(struct backtrack_state *bt, struct bpf_verifier_state *st)
{
	struct bpf_func_state *func;
	struct bpf_reg_state *reg;
	u32 fr, i;

	for (fr = 0; fr <= bt->frame; fr++) {
		func = st->frame[fr];
		for (i = 0; i < MAX_BPF_REG; i++) {
			if (!bt_is_frame_reg_set(bt, fr, i))
				continue;
			reg = &func->regs[i];
			if (reg->type != SCALAR_VALUE || reg->precise)
				bt->reg_masks[fr] &= ~(1u << i);
			else
				reg->precise = true;
		}
		for (i = 0; i < STACK_SLOTS; i++) {
			if (!bt_is_frame_slot_set(bt, fr, i))
				continue;
			if (i >= func->allocated_slots || !is_spilled_scalar_reg(&func->stack[i])) {
				bt->stack_masks[fr] &= ~(1ull << i);
				continue;
			}
			reg = &func->stack[i].spilled_ptr;
			if (reg->precise)
				bt->stack_masks[fr] &= ~(1ull << i);
			else
				reg->precise = true;
		}
	}
}

/*
 * Walk back from the current insn through the current state and its
 * parents until env->bt is empty. Kernel: __mark_chain_precision().
 */
static int __mark_chain_precision(struct bpf_verifier_env *env)
{
	struct backtrack_state *bt = &env->bt;
	struct bpf_verifier_state *st = env->cur_state;
	u32 first_idx = st->first_insn_idx, last_idx = env->insn_idx;
	u32 hist_end = st->insn_hist_end, i, steps = 0;
	bool skip_first = true;
	s64 subseq_idx = -1;
	int err;

	env->mark_precise_calls++;
	if (bt_empty(bt))
		return 0;
	for (;;) {
		for (i = last_idx; last_idx != U32_MAX;) {
			if (skip_first) {
				skip_first = false;
			} else {
				err = backtrack_insn(env, i, subseq_idx,
						     hist_entry(env, st, i, hist_end), bt);
				if (err == -ENOTSUPP)
					goto fallback;
				if (err)
					return err;
			}
			if (bt_empty(bt))
				return 0;
			subseq_idx = i;
			if (get_prev_insn_idx(env, st, i, &hist_end, &i))
				break;
			/* a history that does not lead back: give up on it */
			if (i >= env->prog->len || ++steps > BPF_COMPLEXITY_LIMIT_INSNS)
				goto fallback;
		}
		st = st->parent;
		if (!st)
			break;
		if (st->curframe != bt->frame)
			goto fallback;
		mark_in_parent(bt, st);
		if (bt_empty(bt))
			return 0;
		subseq_idx = first_idx;
		last_idx = st->last_insn_idx;
		first_idx = st->first_insn_idx;
		hist_end = st->insn_hist_end;
	}
	if (bt_empty(bt))
		return 0;
fallback:
	/* something was not found (e.g. a value from the program's entry) */
	mark_all_scalars_precise(env->cur_state);
	bt_init(bt, env->cur_state->curframe);
	return 0;
}

int mark_chain_precision_batch(struct bpf_verifier_env *env)
{
	if (!env->bpf_capable)
		return 0;
	return __mark_chain_precision(env);
}

int mark_chain_precision(struct bpf_verifier_env *env, u32 regno)
{
	struct bpf_verifier_state *cur = env->cur_state;

	if (!env->bpf_capable || regno >= MAX_BPF_REG)
		return 0;
	if (cur->frame[cur->curframe]->regs[regno].type != SCALAR_VALUE)
		return 0;
	bt_init(&env->bt, cur->curframe);
	bt_set_frame_reg(&env->bt, cur->curframe, regno);
	return __mark_chain_precision(env);
}

int mark_stack_slot_precise(struct bpf_verifier_env *env, u32 frameno, u32 spi)
{
	if (!env->bpf_capable || frameno > env->cur_state->curframe || spi >= STACK_SLOTS)
		return 0;
	bt_init(&env->bt, env->cur_state->curframe);
	bt_set_frame_slot(&env->bt, frameno, spi);
	return __mark_chain_precision(env);
}
