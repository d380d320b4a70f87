// SPDX-License-Identifier: GPL-2.0
/*
 * Verifier states: copies, the "covers" relation used to prune a path whose
 * state an earlier one already covers, and widening (join) so that loops
 * whose counters keep changing converge: once an instruction holds
 * WIDEN_STATES states, a new state is joined with them (constants become
 * unknown, offsets variable; states whose registers differ in type are
 * not joined but kept apart, as the kernel walks both). ids of
 * NULL-able pointers must correspond one to one (struct idmap), as the
 * kernel's check_ids().
 *
 * Kernel: kernel/bpf/verifier.c is_state_visited(), states_equal(),
 *	   regsafe(), stacksafe(), check_ids(), push_stack()
 * Differs: no liveness or precision tracking; widening instead of
 *	    exhaustive unrolling (loops are bounded at run time).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <net/xdp.h>

void bpf_free_vstate(struct bpf_verifier_state *st)
{
	u32 i;

	for (i = 0; i <= st->curframe && i < MAX_CALL_FRAMES; i++) {
		free(st->frame[i]);
		st->frame[i] = NULL;
	}
}

int bpf_copy_vstate(struct bpf_verifier_state *dst, const struct bpf_verifier_state *src)
{
	u32 i;

	memset(dst, 0, sizeof(*dst));
	dst->curframe = src->curframe;
	for (i = 0; i <= src->curframe; i++) {
		dst->frame[i] = malloc(sizeof(struct bpf_func_state));
		if (!dst->frame[i]) {
			dst->curframe = i ? i - 1 : 0;
			if (i)
				bpf_free_vstate(dst);
			return -ENOMEM;
		}
		memcpy(dst->frame[i], src->frame[i], sizeof(struct bpf_func_state));
	}
	return 0;
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

static bool reg_covers(const struct bpf_reg_state *o, const struct bpf_reg_state *n, struct idmap *m)
{
	if (o->type == NOT_INIT)
		return true;
	if (o->type != n->type)
		return false;
	if (o->type != SCALAR_VALUE &&
	    (o->frameno != n->frameno || o->map != n->map || o->mem_size != n->mem_size ||
	     !check_ids(o->id, n->id, m)))
		return false;
	/* the old path proved packet accesses with its range only */
	if (o->range > n->range)
		return false;
	if (o->var)
		return true;
	return !n->var && o->off == n->off;
}

static bool slot_covers(const struct bpf_stack_state *o, const struct bpf_stack_state *n, struct idmap *m)
{
	if ((o->init & n->init) != o->init)
		return false;
	if (o->spilled)
		return n->spilled && reg_covers(&o->spill, &n->spill, m);
	if (o->init && n->spilled && is_ptr(&n->spill))
		return false;
	return true;
}

static bool state_covers(const struct bpf_verifier_state *o, const struct bpf_verifier_state *n)
{
	struct idmap m = { 0 };
	u32 f, i;

	if (o->curframe != n->curframe)
		return false;
	for (f = 0; f <= o->curframe; f++) {
		const struct bpf_func_state *a = o->frame[f], *b = n->frame[f];

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

/*
 * Would a join keep every register both states initialise? A register that
 * is a scalar on one path and a pointer on the other (or pointers to
 * different things) would become NOT_INIT, rejecting a later read the
 * kernel accepts, since it walks both paths. Such states stay apart.
 */
static bool reg_joinable(const struct bpf_reg_state *n, const struct bpf_reg_state *o,
			 struct idmap *m)
{
	if (n->type == NOT_INIT || o->type == NOT_INIT)
		return true;	/* a read is an error on one path anyway */
	if (n->type != o->type)
		return false;
	return n->type == SCALAR_VALUE ||
	       (o->frameno == n->frameno && o->map == n->map && o->mem_size == n->mem_size &&
		check_ids(o->id, n->id, m));
}

static void reg_join(struct bpf_reg_state *n, const struct bpf_reg_state *o, struct idmap *m)
{
	if (n->type == NOT_INIT || o->type == NOT_INIT || !reg_joinable(n, o, m))
		goto not_init;
	if (o->var || n->var || o->off != n->off) {
		n->var = true;
		n->off = 0;
	}
	n->range = min(n->range, o->range);
	return;
not_init:
	memset(n, 0, sizeof(*n));
}

static bool state_joinable(const struct bpf_verifier_state *n, const struct bpf_verifier_state *o)
{
	struct idmap m = { 0 };
	u32 f, i;

	if (o->curframe != n->curframe)
		return false;
	for (f = 0; f <= o->curframe; f++) {
		const struct bpf_func_state *a = n->frame[f];
		const struct bpf_func_state *b = o->frame[f];

		if (a->callsite != b->callsite)
			return false;
		for (i = 0; i < MAX_BPF_REG; i++)
			if (!reg_joinable(&a->regs[i], &b->regs[i], &m))
				return false;
		for (i = 0; i < STACK_SLOTS; i++)
			if (a->stack[i].spilled && b->stack[i].spilled &&
			    !reg_joinable(&a->stack[i].spill, &b->stack[i].spill, &m))
				return false;
	}
	return true;
}

/* Joins @o into @n; state_joinable(n, o) holds (same call chain). */
static void state_join(struct bpf_verifier_state *n, const struct bpf_verifier_state *o)
{
	struct idmap m = { 0 };
	u32 f, i;

	for (f = 0; f <= o->curframe; f++) {
		struct bpf_func_state *a = n->frame[f];
		const struct bpf_func_state *b = o->frame[f];

		for (i = 0; i < MAX_BPF_REG; i++)
			reg_join(&a->regs[i], &b->regs[i], &m);
		for (i = 0; i < STACK_SLOTS; i++) {
			struct bpf_stack_state *s = &a->stack[i];
			const struct bpf_stack_state *t = &b->stack[i];

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

int bpf_push_work(struct bpf_verifier_env *env, const struct bpf_verifier_state *st, u32 insn)
{
	struct bpf_verifier_stack_elem *e;
	int err;

	if (env->work_cnt == env->work_cap) {
		u32 cap = env->work_cap ? env->work_cap * 2 : 64;

		if (cap > 8192) {
			bpf_verbose(env, "The sequence of %u jumps is too complex.\n", env->work_cnt + 1);
			return -E2BIG;
		}
		e = realloc(env->work, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		env->work = e;
		env->work_cap = cap;
	}
	e = &env->work[env->work_cnt];
	err = bpf_copy_vstate(&e->st, st);
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
/*
 * Forget registers no path from here reads before writing (kernel:
 * clean_live_states()): in the current frame by liveness at @insn, in a
 * caller frame by liveness after its call returns (R0-R5 are rewritten by
 * the return then); and stack slots the frame's function never reads.
 */
static void clean_dead_regs(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 insn)
{
	u32 f, r;

	for (f = 0; f <= st->curframe; f++) {
		u16 live = f == st->curframe ? env->aux[insn].live_regs :
			   env->aux[st->frame[f + 1]->callsite + 1].live_regs & 0x7c0;

		u64 slots = env->subprogs[st->frame[f]->subprog].live_slots;

		for (r = 0; r < MAX_BPF_REG; r++)
			if (!(live & (1u << r)))
				memset(&st->frame[f]->regs[r], 0, sizeof(st->frame[f]->regs[r]));
		for (r = 0; slots != ~0ULL && r < STACK_SLOTS; r++)
			if (!(slots & (1ULL << r)))
				memset(&st->frame[f]->stack[r], 0, sizeof(st->frame[f]->stack[r]));
	}
}

int bpf_is_state_visited(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 insn)
{
	struct bpf_insn_aux_data *aux = &env->aux[insn];
	struct bpf_verifier_state_list *sl;
	int err;

	clean_dead_regs(env, st, insn);

	for (sl = aux->states; sl; sl = sl->next)
		if (state_covers(&sl->st, st))
			return 1;
	/*
	 * Past WIDEN_ALL_AFTER processed instructions every miss widens: the
	 * walk gives up constants (the kernel's precision tracking keeps them
	 * only where they matter; uxdp has none) rather than go quadratic.
	 */
	if (aux->nr_states >= WIDEN_STATES || aux->widened ||
	    (aux->nr_states && env->insn_processed > WIDEN_ALL_AFTER)) {
		struct bpf_verifier_state_list **pp = &aux->states;

		aux->widened = true;
		/*
		 * Widen: join @st with every state of the same call chain and
		 * keep only the join, which is above all of them; the dropped
		 * states' paths were already walked.
		 */
		while ((sl = *pp)) {
			if (state_joinable(st, &sl->st)) {
				state_join(st, &sl->st);
				*pp = sl->next;
				bpf_free_vstate(&sl->st);
				free(sl);
				aux->nr_states--;
				env->total_states--;
			} else {
				pp = &sl->next;
			}
		}
		for (sl = aux->states; sl; sl = sl->next)
			if (state_covers(&sl->st, st))
				return 1;
	}
	if (aux->nr_states >= MAX_STATES || env->total_states >= MAX_TOTAL_STATES)
		return 0;
	sl = malloc(sizeof(*sl));
	if (!sl)
		return -ENOMEM;
	err = bpf_copy_vstate(&sl->st, st);
	if (err) {
		free(sl);
		return err;
	}
	sl->next = aux->states;
	aux->states = sl;
	aux->nr_states++;
	env->total_states++;
	return 0;
}
