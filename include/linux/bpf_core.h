/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CO-RE relocations: resolve one struct bpf_core_relo record of a
 * program's .BTF.ext against a target BTF and patch its instruction.
 *
 * Kernel: tools/lib/bpf/relo_core.h
 */
#ifndef _UXDP_LINUX_BPF_CORE_H
#define _UXDP_LINUX_BPF_CORE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/bpf.h>

struct btf;

/*
 * The .BTF.ext header (tools/lib/bpf/libbpf_internal.h struct
 * btf_ext_header): CO-RE records (tools/lib/bpf/object.c) and line_info (line_info.c)
 * sit at the offsets it gives, counted from its end (hdr_len).
 */
struct btf_ext_hdr {
	__u16 magic;
	__u8 version;
	__u8 flags;
	__u32 hdr_len;
	__u32 func_info_off;
	__u32 func_info_len;
	__u32 line_info_off;
	__u32 line_info_len;
	__u32 core_relo_off;
	__u32 core_relo_len;
};

/* libbpf's poisoned-instruction marker: call to helper 0xbad2310 */
#define BPF_CORE_POISON_IMM	195896080

/*
 * What a relocation resolves to: the value the compiler assumed (local BTF)
 * and the one the target BTF gives; @poison when the target has no match
 * and the kind needs one. @desc names the type, field or enumerator.
 */
struct bpf_core_relo_res {
	__u64 orig_val;
	__u64 new_val;
	__u32 orig_sz;
	__u32 new_sz;
	bool poison;
	bool validate;
	bool fail_memsz_adjust;
	char desc[192];
};

/** bpf_core_kind_str() - "byte_off", "field_exists", ... as libbpf names kinds. */
const char *bpf_core_kind_str(__u32 kind);

/**
 * bpf_core_calc_relo() - resolve @relo of @local against @targ
 * @err: on failure, why (malformed record, ambiguous candidates)
 *
 * Return: 0 (see @res, possibly poisoned) or -errno.
 */
int bpf_core_calc_relo(const struct btf *local, const struct btf *targ,
		       const struct bpf_core_relo *relo, struct bpf_core_relo_res *res,
		       char *err, size_t errlen);

/**
 * bpf_core_patch_insn() - apply @res to @insn (@left instructions from it on)
 *
 * Poisoned: the instruction (and the second half of an ld_imm64) becomes a
 * call to helper BPF_CORE_POISON_IMM, which the checker reports if reached.
 * Return: 0 or -errno with @err set (instruction does not hold the value
 * the compiler wrote, unsupported opcode, value too large).
 */
int bpf_core_patch_insn(struct bpf_insn *insn, __u32 left, __u32 kind,
			const struct bpf_core_relo_res *res, char *err, size_t errlen);

#endif
