/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uxdp side of verdict_diff that needs uxdp's internal headers: the
 * test assembler (tests/bpf/asm.c) and bpf_check() on raw instructions.
 * Kept apart so verdict_diff.c sees only the UAPI, libbpf and uxdp's
 * public header.
 */
#ifndef _UXDP_TESTS_BPF_VERDICT_UXDP_H
#define _UXDP_TESTS_BPF_VERDICT_UXDP_H

#include <stddef.h>

#include <linux/bpf.h>

/* bpf_asm(): slots assembled, or -errno with "line N: ..." in @err. */
int vu_assemble(const char *src, struct bpf_insn *out, unsigned int max, char *err,
		size_t errlen);

/*
 * vu_check_raw() - load @cnt slots as BPF_PROG_TYPE_XDP through
 * bpf_prog_load() (ld_imm64 map references carry uxdp map ids), as BPF_PROG_LOAD would.
 * Return: 0 (accepted) or -errno, the checker's log in @log.
 */
int vu_check_raw(const struct bpf_insn *insns, unsigned int cnt,
		 unsigned int expected_attach_type, int frags, char *log, size_t log_size);

/* uxdp's id of the kfunc named @name, 0 when uxdp has none. */
unsigned int vu_kfunc_id(const char *name);

/*
 * vu_map_check_btf() - give uxdp map @id the value BTF the kernel's map
 * was created with (@value_type_id of @btf), as the object loader does:
 * a struct bpf_spin_lock in it is recorded. Return: 0 or -errno.
 */
struct btf;
int vu_map_check_btf(unsigned int id, const struct btf *btf, unsigned int value_type_id);

#endif
