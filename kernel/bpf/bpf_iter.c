// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_loop(): call a subprogram of the program nr_loops times, or until it
 * returns 1. The verifier walks the callback (kernel/bpf/callbacks.c); at
 * run time the call never reaches this function: optimize_bpf_loop()
 * turns it into an inline loop, or, when it cannot (flags or callback not
 * known at load), the fix-ups hand it to the interpreter as the internal
 * BPF_CALL_LOOP (kernel/bpf/core.c bpf_interp_loop()), which has the
 * program's frames and stack to call the callback with.
 *
 * Kernel: kernel/bpf/bpf_iter.c bpf_loop(), bpf_loop_proto
 * Differs: the callback is an instruction address, not native code, so
 *	    the helper itself only has the argument checks.
 */
#include <errno.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>

BPF_CALL_4(bpf_loop, u32, nr_loops, void *, callback_fn, void *, callback_ctx, u64, flags)
{
	if (flags)
		return -EINVAL;
	if (nr_loops > BPF_MAX_LOOPS)
		return -E2BIG;
	return -EOPNOTSUPP;
}

const struct bpf_func_proto bpf_loop_proto = {
	.func		= bpf_loop,
	.name		= "bpf_loop",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_ANYTHING, ARG_PTR_TO_FUNC, ARG_PTR_TO_STACK_OR_NULL, ARG_ANYTHING },
};
