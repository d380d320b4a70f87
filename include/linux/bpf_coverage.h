/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program coverage (kernel/bpf/coverage.c) and the source lines it maps
 * instructions to (kernel/bpf/line_info.c). Shared by the object loader,
 * the interpreter (core.c) and the checker's teardown, so it sits with the
 * internal headers rather than next to one of them.
 *
 * Kernel: include/linux/bpf.h struct bpf_prog_aux linfo, nr_linfo;
 *	   kernel/bpf/core.c bpf_prog_alloc_linfo()
 * Differs: strings are copied out of the object's BTF (the program outlives
 *	    it); function names come from the ELF symbols of the linked
 *	    functions; the counters have no kernel counterpart.
 */
#ifndef _UXDP_LINUX_BPF_COVERAGE_H
#define _UXDP_LINUX_BPF_COVERAGE_H

#include <linux/bpf.h>

/* A function of the linked program (the main one first, then subprograms). */
struct bpf_linfo_func {
	u32 insn_off;		/* first slot */
	u32 cnt;		/* slots */
	u32 name_off;		/* in strs */
};

/*
 * The BTF line_info of a loaded program: linfo[] sorted by insn_off (a slot
 * of the linked program; a record covers the slots up to the next one),
 * file_name_off into strs, line_col as in BTF (BPF_LINE_INFO_LINE_NUM()).
 */
struct bpf_prog_linfo {
	struct bpf_line_info *linfo;
	u32 nr_linfo;
	struct bpf_linfo_func *funcs;
	u32 nr_funcs;
	char *strs;
	u32 strs_len;
};

/* What the loader hands over per linked function. */
struct bpf_linfo_chunk {
	const char *sec;	/* ELF section of the function */
	const char *func;	/* its symbol */
	u32 sec_insn_off;	/* first instruction in the section */
	u32 cnt;
	u32 out_off;		/* first slot in the linked program */
};

/*
 * bpf_prog_linfo_build() - read .BTF.ext line_info for a linked program
 * @ext: the .BTF.ext section, @ext_size its bytes (NULL: functions only)
 * @btf: the object's .BTF (string offsets of the records), or NULL
 * @obj_dir: the object file's directory, to resolve relative file names
 *
 * Return: the table (free with bpf_prog_linfo_free()), NULL on -ENOMEM or
 * a malformed .BTF.ext (no line info then: coverage counts instructions).
 */
struct bpf_prog_linfo *bpf_prog_linfo_build(const void *ext, size_t ext_size,
					    const struct btf *btf, const char *obj_dir,
					    const struct bpf_linfo_chunk *chunks, u32 nr_chunks);
void bpf_prog_linfo_free(struct bpf_prog_linfo *li);
/* The record covering slot @insn, or NULL. */
const struct bpf_line_info *bpf_prog_linfo_find(const struct bpf_prog_linfo *li, u32 insn);

/*
 * Counters of a program with coverage on, one per slot. cond[i]: slot i is
 * a conditional jump, branch[2 * i] counts its fall-throughs and
 * branch[2 * i + 1] its taken jumps. ops[i] is slot i's own handler (the
 * interpreter's COVER handler runs it after counting).
 */
struct bpf_prog_cov {
	u64 *cnt;
	u64 *branch;
	u8 *cond;
	const void **ops;
	unsigned int (*saved_func)(const void *ctx, const struct bpf_prog *prog);
	bool on;
};

/*
 * bpf_prog_coverage_set() - point every slot of @prog's interpreter image
 * at the counting handler and bpf_func at the interpreter (@cov), or put
 * the image and runtime back (@cov NULL). kernel/bpf/core.c.
 * Return: 0, or -EINVAL when @prog has no interpreter image.
 */
int bpf_prog_coverage_set(struct bpf_prog *prog, struct bpf_prog_cov *cov);
void bpf_prog_cov_free(struct bpf_prog_cov *cov);

#endif
