/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program coverage: which instructions, conditional branches and source
 * lines of a loaded program the packets it ran on exercised, counted by
 * the interpreter and written as an lcov tracefile (genhtml renders it).
 * Source lines come from the BTF line_info clang writes with -g.
 *
 * Counting costs nothing per instruction while it is off: a program with
 * coverage on runs on the interpreter (not the JIT) with every slot of its
 * image pointing at a handler that counts the slot, then runs the slot's
 * own handler. See Documentation/libuxdp.rst.
 *
 * Kernel: none (the kernel has no BPF program coverage; the lcov format is
 * gcov's, as geninfo(1) writes it).
 */
#ifndef _UXDP_UXDP_BPF_COV_H
#define _UXDP_UXDP_BPF_COV_H

#include <linux/types.h>

#include "uxdp.h"

/**
 * uxdp_bpf_prog_coverage_enable() - start counting for program @prog_id
 *
 * Counters start at 0 (and are reset when counting was on already). The
 * program runs on the interpreter until uxdp_bpf_prog_coverage_disable().
 * Tail calls count in the target when the target has coverage on too.
 *
 * Return: 0, -ENOENT (no such program), -ENOMEM.
 */
UXDP_API int uxdp_bpf_prog_coverage_enable(__u32 prog_id);

/**
 * uxdp_bpf_prog_coverage_disable() - stop counting, back to the program's
 * runtime (JIT or interpreter); the counters are kept for reading.
 *
 * Return: 0, -ENOENT.
 */
UXDP_API int uxdp_bpf_prog_coverage_disable(__u32 prog_id);

/**
 * uxdp_bpf_prog_coverage_get() - execution counts per instruction slot
 * @cnt: receives min(@n, slots) counters, slot order (ld_imm64 takes two
 *	 slots, the second never counts), or NULL to ask for the size
 * @branch: NULL, or receives 2 * min(@n, slots) counters: for a
 *	 conditional jump at slot i, [2i] its fall-throughs and [2i+1] its
 *	 taken jumps; 0 for other slots
 *
 * Return: the program's slot count, -ENOENT, -ENODATA (coverage was never
 * enabled for it).
 */
UXDP_API int uxdp_bpf_prog_coverage_get(__u32 prog_id, __u64 *cnt, __u64 *branch, __u32 n);

/**
 * struct uxdp_bpf_line - where an instruction comes from
 * @file: source file as clang recorded it (made absolute when it was
 *	  found next to the object file), valid while the program lives
 * @func: the function (symbol) the instruction belongs to
 * @line: 1-based line; @col: column (0: unknown)
 * @src: the source text of the line as clang recorded it ("" if none)
 * @insn_off: the first slot the line_info record covers (bpftool prints
 *	      the source line before that slot)
 */
struct uxdp_bpf_line {
	const char *file;
	const char *func;
	__u32 line;
	__u32 col;
	const char *src;
	__u32 insn_off;
};

/**
 * uxdp_bpf_prog_line_info() - source line of slot @insn of @prog_id
 *
 * Return: 0, -ENOENT (no program), -ERANGE (no such slot), -ENODATA (no
 * line info: the object was built without -g, or the slot precedes the
 * first record).
 */
UXDP_API int uxdp_bpf_prog_line_info(__u32 prog_id, __u32 insn, struct uxdp_bpf_line *line);

/**
 * uxdp_bpf_coverage_write_lcov() - write the counters as an lcov tracefile
 * @path: file to write (replaced)
 * @prog_ids: programs to include, each with coverage enabled at some point
 * @n: how many
 * @test_name: the TN: record ([A-Za-z0-9_] only, as lcov wants), or NULL
 *
 * One SF record per source file, with FN/FNDA per function (hits: runs of
 * its first instruction), DA per line (hits: the most any instruction of
 * the line ran), BRDA per conditional jump (branch 0 falls through,
 * branch 1 is taken; "-" when the jump never ran), and the LF/LH, FNF/FNH,
 * BRF/BRH totals. Programs sharing a file (several programs of one
 * object, a subprogram linked into each) add up.
 *
 * Return: 0; -ENOENT (a program is missing), -ENODATA (coverage never
 * enabled for a program, or no program has line info), -EINVAL (@n is 0,
 * bad @test_name), or -errno of the write. uxdp_errmsg() says which.
 */
UXDP_API int uxdp_bpf_coverage_write_lcov(const char *path, const __u32 *prog_ids,
					  unsigned int n, const char *test_name);

#endif
