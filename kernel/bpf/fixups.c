// SPDX-License-Identifier: GPL-2.0
/*
 * Pass 3 of the load-time checker: stack depth over every call chain, then
 * the rewrite into the interpreter's internal forms (<linux/bpf_verifier.h>):
 * struct xdp_md loads, run-time checked accesses and their regions, helper
 * and kfunc calls (index into the call table with pre-call argument
 * checks), tail
 * calls, bpf-to-bpf calls (caller frame size, callee length for the loop
 * budget), BPF_PSEUDO_FUNC addresses, and never-visited code replaced by a
 * self-jump.
 *
 * What gets a run-time check: the accesses the checker marked ACC_CHECKED
 * and, when env->legacy_checks, the helper arguments it recorded. A
 * hardened program (prog->aux->hardened, or bpf_hardened_enabled() at
 * load) gets it for every access with a region (ACC_PROVEN too) and every
 * recorded helper argument: the oracle that catches what a checker claimed
 * and got wrong. vi->needs_budget turns the instruction budget on for
 * hardened programs and for legacy output with a checked access or a
 * backward jump; verified programs run without it.
 *
 * Kernel: kernel/bpf/verifier.c convert_ctx_accesses(), do_misc_fixups(),
 *	   fixup_kfunc_call(), check_max_stack_depth(), sanitize_dead_code(),
 *	   opt_hard_wire_dead_code_branches();
 *	   net/core/filter.c xdp_convert_ctx_access()
 * Differs: no instruction is inserted or removed here (optimize_bpf_loop() in
 *	    callbacks.c inserts the inlined loops before): a hard-wired branch
 *	    stays as "goto +0" and dead code as a trap, where the kernel's
 *	    opt_remove_nops() and opt_remove_dead_code() drop them; multi-load
 *	    ctx fields use the internal BPF_CTX_FIELD load.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_coverage.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <net/xdp.h>

static bool callback_on_chain(struct bpf_verifier_env *env, const u8 *onstack)
{
	u32 s;

	for (s = 0; s < env->subprog_cnt; s++)
		if (onstack[s] && env->subprogs[s].is_cb)
			return true;
	return false;
}

/* Deepest stack over every call chain from @sp; recursion is rejected. */
static int max_chain_depth(struct bpf_verifier_env *env, u32 sp, u32 depth, u32 above,
			   u8 *onstack, u32 *out)
{
	const struct bpf_insn *insns = env->prog->insnsi;
	u32 own = ALIGN(env->subprogs[sp].stack_depth, 8), best = 0, i;
	/* the kernel rounds each frame to 16 bytes when it JIT-compiles */
	u32 jit_frames = above + ALIGN(env->subprogs[sp].stack_depth, 16);
	int err;

	/*
	 * A tail call unwinds only its own frame: with bpf-to-bpf calls the
	 * callers' stacks stay, so the kernel caps them (32 tail calls of
	 * 256 bytes at most).
	 */
	if (sp && env->subprogs[sp].has_tail_call && jit_frames >= 256) {
		bpf_verbose(env, "tail_calls are not allowed when call stack of previous frames is %u bytes. Too large\n",
			    jit_frames);
		return -EACCES;
	}

	if (onstack[sp]) {
		bpf_verbose(env, "recursive call from subprogram at insn %u\n", env->subprogs[sp].start);
		return -EINVAL;
	}
	/* nor from below a callback: the helper that calls it would be skipped */
	if (env->subprogs[sp].has_tail_call && callback_on_chain(env, onstack)) {
		bpf_verbose(env, "cannot tail call within callback\n");
		return -EINVAL;
	}
	if (depth > MAX_CALL_FRAMES) {
		bpf_verbose(env, "the call stack of %u frames is too deep\n", depth);
		return -E2BIG;
	}
	onstack[sp] = 1;
	for (i = env->subprogs[sp].start; i < env->subprogs[sp].end; i++) {
		u32 sub;

		/* a callback's address counts as a call of it, as in the kernel */
		if (!(insns[i].code == (BPF_JMP | BPF_CALL) && insns[i].src_reg == BPF_PSEUDO_CALL) &&
		    !(is_ldimm64(&insns[i]) && insns[i].src_reg == BPF_PSEUDO_FUNC))
			continue;
		if (!env->aux[i].seen)
			continue;
		err = max_chain_depth(env, bpf_find_subprog(env, i + insns[i].imm + 1), depth + 1,
				      jit_frames, onstack, &sub);
		if (err)
			return err;
		best = max(best, sub);
	}
	onstack[sp] = 0;
	*out = own + best;
	return 0;
}

/* Kernel: check_max_stack_depth(); before optimize_bpf_loop() adds stack. */
int check_max_stack_depth(struct bpf_verifier_env *env)
{
	u8 onstack[MAX_SUBPROGS] = { 0 };
	u32 depth = 0;
	int err;

	err = max_chain_depth(env, 0, 1, 0, onstack, &depth);
	if (err)
		return err;
	if (depth > MAX_BPF_STACK) {
		bpf_verbose(env, "combined stack size of calls is %u. Too large\n", depth);
		return -EACCES;
	}
	env->max_stack_depth = depth;
	return 0;
}

/*
 * The map's own op for a map helper at @i whose R1 is one map of the
 * program on every path (its ops then are the same on every run): the
 * kernel's do_misc_fixups() calls ops->map_lookup_elem and the others
 * directly, without the helper that would look them up per call. The
 * helpers only add a NULL check, and a map reaches a helper only when its
 * type has the op (check_map_func_compatibility()); the ops return long,
 * as helpers return u64. An inner map's shape (maps of maps) is not one of
 * the program's maps: its call keeps the helper.
 */
static u64 (*map_op_func(struct bpf_verifier_env *env, u32 i, s32 func_id))(u64, u64, u64, u64, u64)
{
	const struct bpf_insn_aux_data *aux = &env->aux[i];
	const struct bpf_map_ops *ops;
	const void *fn = NULL;
	u32 m;

	if (!aux->call_map || aux->call_map_poison)
		return NULL;
	for (m = 0; m < env->prog->aux->used_map_cnt; m++)
		if (env->prog->aux->used_maps[m] == aux->call_map)
			break;
	if (m == env->prog->aux->used_map_cnt)
		return NULL;
	ops = aux->call_map->ops;
	switch (func_id) {
	case BPF_FUNC_map_lookup_elem:
		fn = ops->map_lookup_elem;
		break;
	case BPF_FUNC_map_update_elem:
		fn = ops->map_update_elem;
		break;
	case BPF_FUNC_map_delete_elem:
		fn = ops->map_delete_elem;
		break;
	case BPF_FUNC_map_push_elem:
		fn = ops->map_push_elem;
		break;
	case BPF_FUNC_map_pop_elem:
		fn = ops->map_pop_elem;
		break;
	case BPF_FUNC_map_peek_elem:
		fn = ops->map_peek_elem;
		break;
	case BPF_FUNC_redirect_map:
		fn = ops->map_redirect;
		break;
	}
	return (u64 (*)(u64, u64, u64, u64, u64))fn;
}

/*
 * Append the call at @i to the call table (@func, with the argument checks
 * the hardened runtime makes when @args) and point the instruction at it.
 */
static int add_call_desc(struct bpf_verifier_env *env, struct bpf_verifier_info *vi,
			 struct bpf_insn *insn, u32 i,
			 u64 (*func)(u64, u64, u64, u64, u64), u32 func_id, u8 nr_args,
			 bool args)
{
	const struct bpf_insn_aux_data *aux = &env->aux[i];
	struct bpf_call_desc *d, *calls;
	u32 a;

	calls = realloc(vi->calls, (vi->nr_calls + 1) * sizeof(*calls));
	if (!calls)
		return -ENOMEM;
	vi->calls = calls;
	d = &calls[vi->nr_calls];
	memset(d, 0, sizeof(*d));
	d->func = func;
	d->func_id = func_id;
	d->nr_args = nr_args;
	if (aux->call_map && !aux->call_map_poison)
		d->map = aux->call_map;
	d->const_key = aux->call_key_seen && !aux->call_key_poison ? aux->call_key : -1;
	for (a = 0; a < 5; a++) {
		struct bpf_mem_check *c;

		if (!aux->arg_check[a] || !args)
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
	return 0;
}

/*
 * A kfunc call becomes a call-table entry like a helper's (src_reg 0, so
 * the interpreter and the JIT call it as one), func_id BPF_FUNC_unspec.
 * A reached call of an unresolved __weak kfunc (imm 0) is refused.
 * Kernel: fixup_kfunc_call()
 */
static int fixup_kfunc_call(struct bpf_verifier_env *env, struct bpf_verifier_info *vi,
			    struct bpf_insn *insn, u32 i, bool args)
{
	const struct bpf_kfunc_proto *fn;

	if (!insn->imm) {
		vinsn(env, i, "invalid kernel function call not eliminated in verifier pass");
		return -EINVAL;
	}
	fn = btf_kfunc_by_id((u32)insn->imm);
	if (!fn) {
		vinsn(env, i, "verifier internal error: kernel function descriptor not found for func_id %d",
		      insn->imm);
		return -EFAULT;
	}
	insn->src_reg = 0;
	return add_call_desc(env, vi, insn, i, fn->func, BPF_FUNC_unspec,
			     fn->nargs < 5 ? fn->nargs : 5, args);
}

/*
 * A conditional jump one edge of which no path took (a NULL check of a
 * lookup the checker proved non-NULL, a bounds test it decided) becomes
 * an unconditional one: "goto +0" when it is never taken, "goto L" when
 * it always is. The kernel's opt_hard_wire_dead_code_branches() goes by
 * whether the edge's first instruction was ever reached; the edges the
 * checker took (check_cond_jmp_op()) also catch a dead edge into code
 * other paths reach, such as a shared "return XDP_ABORTED". Privileged
 * programs only, as the kernel; the JIT emits nothing for "goto +0".
 */
static void hard_wire_dead_branch(struct bpf_verifier_env *env, struct bpf_insn *insn, u32 i)
{
	u8 op = BPF_OP(insn->code), edges = env->aux[i].edges;

	if (!env->bpf_capable || !has_jmp_target(insn) || op == BPF_JA || op == BPF_JCOND ||
	    !insn->off)
		return;
	/* no edge recorded: not walked by check_cond_jmp_op(), keep it */
	if (edges == BPF_EDGE_FALL)
		*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = 0 };
	else if (edges == BPF_EDGE_TAKEN)
		*insn = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = insn->off };
}

int bpf_do_fixups(struct bpf_verifier_env *env)
{
	struct bpf_prog *prog = env->prog;
	struct bpf_insn *insns = prog->insnsi;
	struct bpf_verifier_info *vi;
	bool hardened, args, loops = false, checked = false;
	u32 i;
	int err;

	prog->aux->stack_depth = env->subprogs[0].stack_depth;
	/* each subprogram of a chain may have the bpf_loop spill area */
	prog->aux->max_stack_depth = env->max_stack_depth + env->loop_stack_extra;

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
	hardened = prog->aux->hardened || bpf_hardened_enabled();
	prog->aux->hardened = hardened;
	args = hardened || env->legacy_checks;

	for (i = 0; i < prog->len; i++) {
		struct bpf_insn *insn = &insns[i];
		struct bpf_insn_aux_data *aux = &env->aux[i];
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
		hard_wire_dead_branch(env, insn, i);
		if (has_jmp_target(insn) && jmp_target(insn, i) <= i)
			loops = true;
		if (is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC) {
			bpf_ldimm_set(insn, (u64)(uintptr_t)&insns[i + insn->imm + 1]);
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
		if (aux->access == ACC_CHECKED ||
		    (hardened && aux->access == ACC_PROVEN && BPF_RGN_KIND(aux->region))) {
			u8 mode = BPF_MODE(insn->code);

			checked = true;
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
			u32 caller = bpf_find_subprog(env, i);
			u32 callee = bpf_find_subprog(env, i + insn->imm + 1);

			insn->code = BPF_JMP32 | BPF_CALL;
			insn->src_reg = 0;
			insn->off = (s16)ALIGN(env->subprogs[caller].stack_depth, 8);
			vi->insn_aux[i] = env->subprogs[callee].end - env->subprogs[callee].start;
			continue;
		}
		if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			err = fixup_kfunc_call(env, vi, insn, i, args);
			if (err)
				return err;
			continue;
		}
		if (insn->code == (BPF_JMP | BPF_CALL)) {
			const struct bpf_func_proto *proto;
			u8 nr_args;

			if (insn->imm == BPF_FUNC_tail_call && prog->type == BPF_PROG_TYPE_XDP) {
				insn->code = BPF_JMP | BPF_TAIL_CALL;
				insn->imm = 0;
				continue;
			}
			if (insn->imm == BPF_FUNC_loop) {
				/* not inlined: the interpreter calls the callback */
				insn->code = BPF_CALL_LOOP;
				insn->off = (s16)ALIGN(env->subprogs[bpf_find_subprog(env, i)].stack_depth, 8);
				insn->imm = 0;
				continue;
			}
			proto = env->get_proto(insn->imm);
			for (nr_args = 5; nr_args && proto->arg_type[nr_args - 1] == ARG_DONTCARE;)
				nr_args--;
			err = add_call_desc(env, vi, insn, i, map_op_func(env, i, insn->imm) ?: proto->func,
					    insn->imm, nr_args, args);
			if (err)
				return err;
		}
	}
	vi->needs_budget = hardened || (env->legacy_checks && (checked || loops));
	return 0;
}

void bpf_verifier_info_free(struct bpf_verifier_info *vi)
{
	if (!vi)
		return;
	free(vi->insn_aux);
	free(vi->calls);
	free(vi->image);
	bpf_prog_cov_free(vi->cov);
	free(vi);
}
