/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why the eBPF interpreter ended a program early. A run-time violation
 * (an access outside the program's packet, stack, map values or ctx, a loop
 * that exhausts the instruction budget, ...) ends the program with
 * XDP_ABORTED and bumps one per-program counter per reason. The list is the
 * one source for the enum, the JSON keys and the descriptions the CLI
 * prints.
 *
 * Kernel: none (the kernel verifier rejects these programs at load time or
 * relies on the program being proven safe).
 */
#ifndef _UXDP_UXDP_BPF_ABORT_H
#define _UXDP_UXDP_BPF_ABORT_H

#include "uxdp.h"

/* FN(ENUM_SUFFIX, json_key, "description") */
#define UXDP_BPF_ABORT_REASONS(FN)						\
	FN(NONE,		none,			"none")				\
	FN(STACK_OOB,		stack_oob,		"stack access out of bounds")	\
	FN(PKT_OOB,		pkt_oob,		"packet access out of bounds")	\
	FN(MAP_OOB,		map_oob,		"map value access out of bounds") \
	FN(MEM_OOB,		mem_oob,		"memory access out of bounds")	\
	FN(MISALIGNED_ATOMIC,	misaligned_atomic,	"misaligned atomic access")	\
	FN(HELPER_ARG_OOB,	helper_arg_oob,		"helper memory argument out of bounds") \
	FN(INSN_BUDGET,		insn_budget,		"insn budget exceeded")		\
	FN(TAIL_CALL_STACK,	tail_call_stack,	"tail call stack overflow")	\
	FN(CALL_DEPTH,		call_depth,		"call depth exceeded")

#define __UXDP_BPF_ABORT_ENUM(name, key, str)	BPF_ABORT_##name,
enum bpf_abort_reason {
	UXDP_BPF_ABORT_REASONS(__UXDP_BPF_ABORT_ENUM)
	__BPF_ABORT_MAX
};
#undef __UXDP_BPF_ABORT_ENUM

/**
 * uxdp_bpf_prog_aborts() - run-time abort counters of a loaded program
 * @prog_id: program id (as from the program registry)
 * @cnt: receives min(@n, __BPF_ABORT_MAX) counters indexed by enum
 *	 bpf_abort_reason (cnt[BPF_ABORT_NONE] is always 0)
 * @n: entries in @cnt
 *
 * Return: the number of counters written, or -ENOENT when no program has
 * @prog_id.
 */
UXDP_API int uxdp_bpf_prog_aborts(unsigned int prog_id, unsigned long long *cnt, unsigned int n);

/**
 * uxdp_bpf_abort_reason_key() - snake_case JSON key of @reason ("pkt_oob")
 * uxdp_bpf_abort_reason_str() - human description ("packet access out of bounds")
 *
 * Return: a static string; "unknown" for values outside the enum.
 */
UXDP_API const char *uxdp_bpf_abort_reason_key(unsigned int reason);
UXDP_API const char *uxdp_bpf_abort_reason_str(unsigned int reason);

#endif
