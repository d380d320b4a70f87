/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why the eBPF interpreter ended a program early. A run-time violation
 * (an access outside the program's packet, stack, map values or ctx, a loop
 * that exhausts the instruction budget, ...) ends the program with
 * XDP_ABORTED and bumps one per-program counter per reason. The list is the
 * one source for the enum, the names the CLI prints and the JSON keys.
 *
 * Kernel: none (the kernel verifier rejects these programs at load time or
 * relies on the program being proven safe).
 */
#ifndef _UXDP_UXDP_BPF_ABORT_H
#define _UXDP_UXDP_BPF_ABORT_H

#define UXDP_BPF_ABORT_REASONS(FN)				\
	FN(NONE,		"none")				\
	FN(STACK_OOB,		"stack access out of bounds")	\
	FN(PKT_OOB,		"packet access out of bounds")	\
	FN(MAP_OOB,		"map value access out of bounds") \
	FN(MEM_OOB,		"memory access out of bounds")	\
	FN(MISALIGNED_ATOMIC,	"misaligned atomic access")	\
	FN(HELPER_ARG_OOB,	"helper memory argument out of bounds") \
	FN(INSN_BUDGET,		"insn budget exceeded")		\
	FN(TAIL_CALL_STACK,	"tail call stack overflow")	\
	FN(CALL_DEPTH,		"call depth exceeded")

#define __UXDP_BPF_ABORT_ENUM(name, str)	BPF_ABORT_##name,
enum bpf_abort_reason {
	UXDP_BPF_ABORT_REASONS(__UXDP_BPF_ABORT_ENUM)
	__BPF_ABORT_MAX
};
#undef __UXDP_BPF_ABORT_ENUM

#endif
