/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF instruction printer shared by the verifier's log syntax and
 * `uxdp prog dump xlated`: one instruction of a UAPI program per call, in
 * the kernel's text form ("(b7) r0 = 2", "(85) call bpf_map_lookup_elem#1",
 * "(18) r1 = map[id:4]"), without the slot number and with '\n' at the end.
 *
 * Kernel: kernel/bpf/disasm.h
 */
#ifndef _UXDP_KERNEL_BPF_DISASM_H
#define _UXDP_KERNEL_BPF_DISASM_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/bpf.h>

typedef void (*bpf_insn_print_t)(void *private_data, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A call's target: helper or kfunc name, or "+N" for a bpf-to-bpf call. */
typedef const char *(*bpf_insn_revmap_call_t)(void *private_data, const struct bpf_insn *insn);
/* A 64-bit immediate load's operand ("map[id:4]", "0x2a"). */
typedef const char *(*bpf_insn_print_imm_t)(void *private_data, const struct bpf_insn *insn,
					    __u64 full_imm);

struct bpf_insn_cbs {
	bpf_insn_print_t cb_print;
	bpf_insn_revmap_call_t cb_call;	/* NULL: helper names from the UAPI list */
	bpf_insn_print_imm_t cb_imm;	/* NULL: the value in hex */
	void *private_data;
};

/* The name of helper @func_id as the kernel's log prints it ("bpf_xdp_adjust_head"), or NULL. */
const char *func_id_name(int id);
/*
 * Print @insn (its second slot follows for a 64-bit immediate load);
 * @allow_ptr_leaks false zeroes map pointers of ld_imm64, as the kernel.
 */
void print_bpf_insn(const struct bpf_insn_cbs *cbs, const struct bpf_insn *insn,
		    bool allow_ptr_leaks);

#endif
