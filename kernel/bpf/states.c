// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier states: copies, the pending-branch stack, and pruning. At each
 * prune point the current state is compared with the states kept there;
 * if a finished one (no path below it still being walked) covers it, the
 * path ends (states_equal(): every register and stack slot of the old
 * state admits the current one, ids corresponding one to one). A kept
 * state that is still being walked is an ancestor on the current path: a
 * loop. If it equals the current state exactly the loop can never end
 * ("infinite loop detected"); otherwise the loop is walked again, until it
 * exits or the processed-instruction limit is reached.
 *
 * A scalar of a kept state is compared only if it is precise (backtrack.c):
 * when a path is pruned, what the old state needed precise is propagated
 * into the current path's parents (propagate_precision()).
 *
 * Kernel: kernel/bpf/verifier.c is_state_visited(), states_equal(),
 *	   regsafe(), stacksafe(), refsafe(), check_ids(),
 *	   states_maybe_looping(), update_branch_counts(), push_stack(),
 *	   pop_stack(), copy_verifier_state(), propagate_precision()
 * Differs: liveness of registers comes from cfg.c's static analysis and
 *	    of stack slots from the slots a function may read; no read marks.
 *	    A may_goto loop pruned against a state still being walked takes
 *	    every scalar it compared as precise (the kernel revisits such
 *	    loops when they are done instead).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>

#define MAX_KEPT_STATES		65536	/* memory bound: beyond it no new state is kept */

enum exact_level {
	NOT_EXACT,
	EXACT,
	RANGE_WITHIN,
};

void free_verifier_state(struct bpf_verifier_state *st, bool free_self)
{
	u32 i;

	for (i = 0; i < MAX_CALL_FRAMES; i++) {
		free(st->frame[i]);
		st->frame[i] = NULL;
	}
	if (free_self)
		free(st);
}

static u32 used_slots(const struct bpf_func_state *fs)
{
	u32 n = STACK_SLOTS, j;

	while (n) {
		for (j = 0; j < BPF_REG_SIZE; j++)
			if (fs->stack[n - 1].slot_type[j] != STACK_INVALID)
				return n;
		n--;
	}
	return 0;
}

/* A kept state stores each frame's stack only up to its highest used slot. */
static int copy_kept_state(struct bpf_verifier_state *dst, const struct bpf_verifier_state *src)
{
	u32 i;

	memcpy(dst, src, sizeof(*dst));
	dst->all_precise = false;
	for (i = 0; i < MAX_CALL_FRAMES; i++)
		dst->frame[i] = NULL;
	for (i = 0; i <= src->curframe; i++) {
		u32 n = used_slots(src->frame[i]);
		size_t sz = offsetof(struct bpf_func_state, stack) + n * sizeof(struct bpf_stack_state);

		dst->frame[i] = malloc(sz);
		if (!dst->frame[i]) {
			free_verifier_state(dst, false);
			return -ENOMEM;
		}
		memcpy(dst->frame[i], src->frame[i], sz);
		dst->frame[i]->allocated_slots = n;
	}
	return 0;
}

int copy_verifier_state(struct bpf_verifier_state *dst, const struct bpf_verifier_state *src)
{
	u32 i;

	for (i = 0; i < MAX_CALL_FRAMES; i++) {
		free(dst->frame[i]);
		dst->frame[i] = NULL;
	}
	memcpy(dst, src, sizeof(*dst));
	dst->all_precise = false;
	for (i = 0; i < MAX_CALL_FRAMES; i++)
		dst->frame[i] = NULL;
	for (i = 0; i <= src->curframe; i++) {
		dst->frame[i] = malloc(sizeof(struct bpf_func_state));
		if (!dst->frame[i]) {
			free_verifier_state(dst, false);
			return -ENOMEM;
		}
		memcpy(dst->frame[i], src->frame[i], sizeof(struct bpf_func_state));
		dst->frame[i]->allocated_slots = STACK_SLOTS;
	}
	return 0;
}

struct bpf_verifier_state *push_stack(struct bpf_verifier_env *env, u32 insn_idx, u32 prev_insn_idx)
{
	struct bpf_verifier_stack_elem *elem;

	if (env->work_cnt + 1 > BPF_COMPLEXITY_LIMIT_JMP_SEQ) {
		vinsn(env, env->insn_idx, "The sequence of %d jumps is too complex.", env->work_cnt + 1);
		return NULL;
	}
	if (env->work_cnt == env->work_cap) {
		u32 cap = env->work_cap ? env->work_cap * 2 : 64;
		void *w = realloc(env->work, cap * sizeof(*env->work));

		if (!w)
			return NULL;
		env->work = w;
		env->work_cap = cap;
	}
	elem = &env->work[env->work_cnt];
	memset(elem, 0, sizeof(*elem));
	if (copy_verifier_state(&elem->st, env->cur_state))
		return NULL;
	elem->insn_idx = insn_idx;
	elem->prev_insn_idx = prev_insn_idx;
	env->work_cnt++;
	if (elem->st.parent)
		elem->st.parent->branches++;
	return &elem->st;
}

int pop_stack(struct bpf_verifier_env *env, u32 *insn_idx)
{
	struct bpf_verifier_stack_elem *elem;
	struct bpf_verifier_state *cur = env->cur_state;

	if (!env->work_cnt)
		return -ENOENT;
	elem = &env->work[--env->work_cnt];
	free_verifier_state(cur, false);
	*cur = elem->st;	/* the frames move over */
	*insn_idx = elem->insn_idx;
	env->prev_insn_idx = elem->prev_insn_idx;
	return 0;
}

void update_branch_counts(struct bpf_verifier_env *env, struct bpf_verifier_state *st)
{
	while (st) {
		u32 br = --st->branches;

		if (br)
			break;
		st = st->parent;
	}
}

/* ids of the old state map one to one to ids of the current state */
struct bpf_idmap {
	u32 cnt;
	u32 old[2 * (MAX_BPF_REG + STACK_SLOTS) * MAX_CALL_FRAMES + BPF_MAX_REFS];
	u32 cur[2 * (MAX_BPF_REG + STACK_SLOTS) * MAX_CALL_FRAMES + BPF_MAX_REFS];
};

static bool check_ids(u32 old_id, u32 cur_id, struct bpf_idmap *idmap)
{
	u32 i;

	if (!old_id)
		return true;	/* the old state did not rely on a relation */
	if (!cur_id)
		return false;
	for (i = 0; i < idmap->cnt; i++) {
		if (idmap->old[i] == old_id)
			return idmap->cur[i] == cur_id;
		if (idmap->cur[i] == cur_id)
			return false;
	}
	if (idmap->cnt >= ARRAY_SIZE(idmap->old))
		return false;
	idmap->old[idmap->cnt] = old_id;
	idmap->cur[idmap->cnt] = cur_id;
	idmap->cnt++;
	return true;
}

static bool check_scalar_ids(struct bpf_verifier_env *env, u32 old_id, u32 cur_id,
			     struct bpf_idmap *idmap)
{
	/* a missing id is a unique one: it may not match an id used elsewhere */
	old_id = old_id ? old_id : ++env->tmp_id_gen;
	cur_id = cur_id ? cur_id : ++env->tmp_id_gen;
	return check_ids(old_id, cur_id, idmap);
}

static bool regs_exact(const struct bpf_reg_state *rold, const struct bpf_reg_state *rcur,
		       struct bpf_idmap *idmap)
{
	return !memcmp(rold, rcur, offsetof(struct bpf_reg_state, id)) &&
	       check_ids(rold->id, rcur->id, idmap) &&
	       check_ids(rold->ref_obj_id, rcur->ref_obj_id, idmap);
}

static bool regsafe(struct bpf_verifier_env *env, const struct bpf_reg_state *rold,
		    const struct bpf_reg_state *rcur, struct bpf_idmap *idmap,
		    enum exact_level exact)
{
	if (exact == EXACT)
		return regs_exact(rold, rcur, idmap);
	if (rold->type == NOT_INIT) {
		if (exact == NOT_EXACT || rcur->type == NOT_INIT)
			return true;
	}
	if (rold->type != rcur->type)
		return false;
	switch (base_type(rold->type)) {
	case SCALAR_VALUE:
		/* nothing on the old state's paths needed its value */
		if (!rold->precise && env->bpf_capable && exact == NOT_EXACT)
			return true;
		return range_within(rold, rcur) && tnum_in(rold->var_off, rcur->var_off) &&
		       check_scalar_ids(env, rold->id, rcur->id, idmap);
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
		return !memcmp(rold, rcur, offsetof(struct bpf_reg_state, var_off)) &&
		       range_within(rold, rcur) && tnum_in(rold->var_off, rcur->var_off) &&
		       check_ids(rold->id, rcur->id, idmap) &&
		       check_ids(rold->ref_obj_id, rcur->ref_obj_id, idmap);
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET:
		if (rold->range < 0 || rcur->range < 0) {
			if (rold->range != rcur->range)
				return false;
		} else if (rold->range > rcur->range) {
			return false;
		}
		if (rold->off != rcur->off)
			return false;
		if (!check_ids(rold->id, rcur->id, idmap))
			return false;
		return range_within(rold, rcur) && tnum_in(rold->var_off, rcur->var_off);
	case PTR_TO_STACK:
		return regs_exact(rold, rcur, idmap) && rold->frameno == rcur->frameno;
	default:
		return regs_exact(rold, rcur, idmap);
	}
}

static bool is_stack_all_misc(struct bpf_verifier_env *env, const struct bpf_stack_state *stack)
{
	u32 i;

	for (i = 0; i < BPF_REG_SIZE; i++) {
		if (stack->slot_type[i] == STACK_MISC ||
		    (stack->slot_type[i] == STACK_INVALID && env->allow_uninit_stack))
			continue;
		return false;
	}
	return true;
}

static const struct bpf_reg_state *scalar_reg_for_stack(struct bpf_verifier_env *env,
							const struct bpf_stack_state *stack,
							struct bpf_reg_state *unbound)
{
	if (is_spilled_scalar_reg(stack))
		return &stack->spilled_ptr;
	if (is_stack_all_misc(env, stack)) {
		__mark_reg_unknown(unbound);
		return unbound;
	}
	return NULL;
}

static bool stacksafe(struct bpf_verifier_env *env, const struct bpf_func_state *old,
		      const struct bpf_func_state *cur, struct bpf_idmap *idmap,
		      enum exact_level exact)
{
	u64 live = env->subprogs[old->subprogno].live_slots;
	u32 i, spi;

	/* in exact mode, slots the current state uses beyond the old ones differ */
	if (exact != NOT_EXACT && used_slots(cur) > old->allocated_slots)
		return false;

	for (i = 0; i < old->allocated_slots * BPF_REG_SIZE; i++) {
		const struct bpf_reg_state *old_reg, *cur_reg;
		struct bpf_reg_state fake_old, fake_cur;
		u8 ot, ct;

		spi = i / BPF_REG_SIZE;
		ot = old->stack[spi].slot_type[i % BPF_REG_SIZE];
		ct = cur->stack[spi].slot_type[i % BPF_REG_SIZE];
		if (exact != NOT_EXACT && ot != ct)
			return false;
		if (exact == NOT_EXACT && !(live & (1ULL << spi))) {
			i += BPF_REG_SIZE - 1;	/* nobody reads this slot */
			continue;
		}
		if (ot == STACK_INVALID)
			continue;
		if (env->allow_uninit_stack && ot == STACK_MISC)
			continue;
		old_reg = scalar_reg_for_stack(env, &old->stack[spi], &fake_old);
		cur_reg = scalar_reg_for_stack(env, &cur->stack[spi], &fake_cur);
		if (old_reg && cur_reg) {
			if (!regsafe(env, old_reg, cur_reg, idmap, exact))
				return false;
			i += BPF_REG_SIZE - 1;
			continue;
		}
		if (ot == STACK_MISC && ct == STACK_ZERO)
			continue;
		if (ot != ct)
			return false;
		if (i % BPF_REG_SIZE != BPF_REG_SIZE - 1)
			continue;
		switch (old->stack[spi].slot_type[BPF_REG_SIZE - 1]) {
		case STACK_SPILL:
			if (!regsafe(env, &old->stack[spi].spilled_ptr, &cur->stack[spi].spilled_ptr,
				     idmap, exact))
				return false;
			break;
		case STACK_DYNPTR: {
			const struct bpf_reg_state *o = &old->stack[spi].spilled_ptr;
			const struct bpf_reg_state *c = &cur->stack[spi].spilled_ptr;

			if (o->dynptr.type != c->dynptr.type ||
			    o->dynptr.first_slot != c->dynptr.first_slot ||
			    !check_ids(o->ref_obj_id, c->ref_obj_id, idmap))
				return false;
			break;
		}
		case STACK_MISC:
		case STACK_ZERO:
		case STACK_INVALID:
			continue;
		default:
			return false;
		}
	}
	return true;
}

static bool refsafe(const struct bpf_verifier_state *old, const struct bpf_verifier_state *cur,
		    struct bpf_idmap *idmap)
{
	u32 i;

	if (old->acquired_refs != cur->acquired_refs)
		return false;
	if (!!old->active_lock_id != !!cur->active_lock_id ||
	    old->active_lock_ptr != cur->active_lock_ptr)
		return false;
	if (old->active_lock_id && !check_ids(old->active_lock_id, cur->active_lock_id, idmap))
		return false;
	for (i = 0; i < old->acquired_refs; i++)
		if (!check_ids(old->refs[i].id, cur->refs[i].id, idmap))
			return false;
	return true;
}

/* Registers live in frame @fr of @st at the instruction it resumes at. */
static u16 frame_live_regs(struct bpf_verifier_env *env, const struct bpf_verifier_state *st,
			   u32 fr, u32 insn_idx)
{
	u32 callsite;

	if (fr == st->curframe)
		return env->aux[insn_idx].live_regs;
	/* a caller resumes after the call of the next frame, or at a
	 * callback-calling helper call, walked again */
	callsite = st->frame[fr + 1]->callsite;
	if (env->aux[callsite].calls_callback)
		return env->aux[callsite].live_regs;
	return env->aux[callsite + 1].live_regs;
}

static bool func_states_equal(struct bpf_verifier_env *env, const struct bpf_verifier_state *sold,
			      const struct bpf_verifier_state *scur, u32 fr,
			      struct bpf_idmap *idmap, enum exact_level exact)
{
	const struct bpf_func_state *old = sold->frame[fr], *cur = scur->frame[fr];
	u16 live = exact == NOT_EXACT ? frame_live_regs(env, sold, fr, sold->insn_idx) : 0xffff;
	u32 i;

	if (old->callback_depth > cur->callback_depth)
		return false;
	for (i = 0; i < MAX_BPF_REG; i++) {
		if (!(live & (1u << i)))
			continue;
		if (!regsafe(env, &old->regs[i], &cur->regs[i], idmap, exact))
			return false;
	}
	return stacksafe(env, old, cur, idmap, exact);
}

static bool states_equal(struct bpf_verifier_env *env, const struct bpf_verifier_state *old,
			 const struct bpf_verifier_state *cur, enum exact_level exact)
{
	static __thread struct bpf_idmap idmap;
	u32 i;

	if (old->curframe != cur->curframe)
		return false;
	idmap.cnt = 0;
	env->tmp_id_gen = env->id_gen;
	if (!refsafe(old, cur, &idmap))
		return false;
	for (i = 0; i <= old->curframe; i++) {
		if (old->frame[i]->callsite != cur->frame[i]->callsite)
			return false;
		if (!func_states_equal(env, old, cur, i, &idmap, exact))
			return false;
	}
	return true;
}

static bool states_maybe_looping(const struct bpf_verifier_state *old,
				 const struct bpf_verifier_state *cur)
{
	const struct bpf_func_state *fold, *fcur;
	u32 i, fr = cur->curframe;

	if (old->curframe != fr)
		return false;
	fold = old->frame[fr];
	fcur = cur->frame[fr];
	for (i = 0; i < MAX_BPF_REG; i++)
		if (memcmp(&fold->regs[i], &fcur->regs[i], offsetof(struct bpf_reg_state, precise)))
			return false;
	return true;
}

/*
 * @old covers the current state: a scalar the old state's paths needed
 * precise is needed precise on this path too, so the current state's
 * parents learn it. @all: every scalar @old compared counts (a state still
 * being walked, whose marks are not final yet). Only what the current
 * state holds as a scalar, and is live, is followed.
 * Kernel: propagate_precision().
 */
static int propagate_precision(struct bpf_verifier_env *env, const struct bpf_verifier_state *old,
			       bool all)
{
	const struct bpf_verifier_state *cur = env->cur_state;
	struct backtrack_state *bt = &env->bt;
	u32 fr, i;

	if (!env->bpf_capable)
		return 0;
	bt_init(bt, old->curframe);
	for (fr = 0; fr <= old->curframe; fr++) {
		const struct bpf_func_state *fo = old->frame[fr], *fc = cur->frame[fr];
		u16 live = frame_live_regs(env, old, fr, old->insn_idx);
		u64 live_slots = env->subprogs[fo->subprogno].live_slots;

		for (i = 0; i < BPF_REG_10; i++) {
			if (!(live & (1u << i)) || fo->regs[i].type != SCALAR_VALUE ||
			    fc->regs[i].type != SCALAR_VALUE || !(all || fo->regs[i].precise))
				continue;
			bt_set_frame_reg(bt, fr, i);
		}
		for (i = 0; i < fo->allocated_slots; i++) {
			if (!(live_slots & (1ull << i)) || !is_spilled_scalar_reg(&fo->stack[i]) ||
			    !is_spilled_scalar_reg(&fc->stack[i]) ||
			    !(all || fo->stack[i].spilled_ptr.precise))
				continue;
			bt_set_frame_slot(bt, fr, i);
		}
	}
	return mark_chain_precision_batch(env);
}

/* Pruned: the step into this insn and what @old needed precise go into the history. */
static int prune_hit(struct bpf_verifier_env *env, struct bpf_verifier_state_list *sl, bool all)
{
	sl->hit_cnt++;
	return push_jmp_history_if_needed(env) ?: propagate_precision(env, &sl->state, all) ?: 1;
}

static bool is_may_goto_insn(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_JCOND) && insn->src_reg == BPF_MAY_GOTO;
}

int is_state_visited(struct bpf_verifier_env *env, u32 insn_idx)
{
	struct bpf_insn_aux_data *aux = &env->aux[insn_idx];
	struct bpf_verifier_state *cur = env->cur_state, *new;
	struct bpf_verifier_state_list *sl, *new_sl;
	/* a forced checkpoint, or one that keeps the history short: a long
	 * one would make every backtrack_insn() walk of it long too */
	bool force_new_state = aux->force_checkpoint ||
			       cur->insn_hist_end - cur->insn_hist_start > 40;
	bool add_new_state = force_new_state;
	struct bpf_verifier_state_list **pprev;
	u32 n = 0;
	int err;

	/* a new state only every few jumps and instructions, as the kernel */
	if (env->jmps_processed - env->prev_jmps_processed >= 2 &&
	    env->insn_processed - env->prev_insn_processed >= 8)
		add_new_state = true;

	pprev = &aux->states;
	while ((sl = *pprev) != NULL) {
		n++;
		if (sl->state.branches) {
			/* an ancestor on this path: we are in a loop */
			if (aux->calls_callback) {
				/* a callback's iterations converged */
				if (states_equal(env, &sl->state, cur, RANGE_WITHIN)) {
					sl->hit_cnt++;
					return 1;
				}
				goto skip_inf_loop_check;
			}
			if (is_may_goto_insn(&env->prog->insnsi[insn_idx]) &&
			    sl->state.may_goto_depth != cur->may_goto_depth &&
			    states_equal(env, &sl->state, cur, RANGE_WITHIN))
				return prune_hit(env, sl, true);
			if (states_maybe_looping(&sl->state, cur) &&
			    states_equal(env, &sl->state, cur, EXACT) &&
			    sl->state.may_goto_depth == cur->may_goto_depth &&
			    sl->state.callback_unroll_depth == cur->callback_unroll_depth) {
				vinsn(env, insn_idx, "infinite loop detected at insn %d", insn_idx);
				return -EINVAL;
			}
skip_inf_loop_check:
			if (!force_new_state &&
			    env->jmps_processed - env->prev_jmps_processed < 20 &&
			    env->insn_processed - env->prev_insn_processed < 100)
				add_new_state = false;
			goto miss;
		}
		if (states_equal(env, &sl->state, cur, NOT_EXACT))
			return prune_hit(env, sl, false);
miss:
		/* a state that keeps missing is dropped from the list, as the kernel */
		if (++sl->miss_cnt > sl->hit_cnt * 3 + 3) {
			*pprev = sl->next;
			aux->nr_states--;
			if (sl->state.branches) {
				sl->in_free_list = true;
				sl->next = env->free_list;
				env->free_list = sl;
			} else {
				free_verifier_state(&sl->state, false);
				free(sl);
			}
			env->total_states--;
			continue;
		}
		pprev = &sl->next;
	}
	if (n > env->max_states_per_insn)
		env->max_states_per_insn = n;
	if (!add_new_state || env->total_states >= MAX_KEPT_STATES)
		return 0;

	new_sl = calloc(1, sizeof(*new_sl));
	if (!new_sl)
		return -ENOMEM;
	new = &new_sl->state;
	cur->last_insn_idx = env->prev_insn_idx;
	err = copy_kept_state(new, cur);
	if (err) {
		free(new_sl);
		return err;
	}
	new->insn_idx = insn_idx;
	cur->parent = new;
	/* the current state's history starts here; its marks are the new state's */
	cur->first_insn_idx = insn_idx;
	cur->insn_hist_start = cur->insn_hist_end;
	if (env->bpf_capable)
		mark_all_scalars_imprecise(cur);
	new_sl->next = aux->states;
	aux->states = new_sl;
	aux->nr_states++;
	env->total_states++;
	if (env->total_states > env->peak_states)
		env->peak_states = env->total_states;
	env->prev_jmps_processed = env->jmps_processed;
	env->prev_insn_processed = env->insn_processed;
	return 0;
}

void free_states(struct bpf_verifier_env *env)
{
	u32 i;

	while (env->work_cnt) {
		env->work_cnt--;
		free_verifier_state(&env->work[env->work_cnt].st, false);
	}
	free(env->work);
	env->work = NULL;
	while (env->free_list) {
		struct bpf_verifier_state_list *sl = env->free_list;

		env->free_list = sl->next;
		free_verifier_state(&sl->state, false);
		free(sl);
	}
	env->work_cap = 0;
	for (i = 0; i < env->prog->len; i++) {
		struct bpf_verifier_state_list *sl = env->aux[i].states, *n;

		for (; sl; sl = n) {
			n = sl->next;
			free_verifier_state(&sl->state, false);
			free(sl);
		}
		env->aux[i].states = NULL;
	}
}
