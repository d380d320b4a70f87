// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF instruction printer (disasm.h): the text bpftool's `prog dump
 * xlated` and the verifier log show, one line per instruction, for the
 * whole ISA (v4 included: sign-extending loads and moves, signed division,
 * byte swaps, gotol, may_goto, atomics, load-acquire/store-release,
 * addr_space_cast). Kept free of the library's headers so that the CLI
 * builds it with the UAPI <linux/bpf.h> alone.
 *
 * Kernel: kernel/bpf/disasm.c print_bpf_insn()
 */
#include <stdio.h>

#include "disasm.h"

/* ISA v4 names a system UAPI header may predate. */
#ifndef BPF_MEMSX
#define BPF_MEMSX		0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND		0xe0
#endif
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ		0x100
#endif
#ifndef BPF_STORE_REL
#define BPF_STORE_REL		0x110
#endif
#ifndef BPF_ADDR_SPACE_CAST
#define BPF_ADDR_SPACE_CAST	1
#endif
#define BPF_NOSPEC_MODE		0xc0	/* BPF_ST | BPF_NOSPEC */

/* The 6.1+ UAPI list has no commas between entries, older ones have. */
#ifdef ___BPF_FUNC_MAPPER
#define __BPF_FUNC_NAME(x, ...)	[BPF_FUNC_ ## x] = "bpf_" #x,
#else
#define __BPF_FUNC_NAME(x, ...)	[BPF_FUNC_ ## x] = "bpf_" #x
#endif
static const char *const func_id_str[] = {
	__BPF_FUNC_MAPPER(__BPF_FUNC_NAME)
};
#undef __BPF_FUNC_NAME

const char *func_id_name(int id)
{
	if (id > 0 && (size_t)id < sizeof(func_id_str) / sizeof(func_id_str[0]))
		return func_id_str[id];
	return NULL;
}

static const char *const bpf_class_string[8] = {
	"ld", "ldx", "st", "stx", "alu", "jmp", "jmp32", "alu64",
};

static const char *const bpf_alu_string[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
	"neg", "%=", "^=", "=", "s>>=", "endian", "?", "?",
};

static const char *const bpf_atomic_alu_string[16] = {
	[BPF_ADD >> 4] = "add", [BPF_AND >> 4] = "and",
	[BPF_OR >> 4] = "or", [BPF_XOR >> 4] = "xor",
};

static const char *const bpf_ldst_string[4] = { "u32", "u16", "u8", "u64" };
static const char *const bpf_ldsx_string[4] = { "s32", "s16", "s8", "s64" };

static const char *const bpf_jmp_string[16] = {
	"jmp", "==", ">", ">=", "&", "!=", "s>", "s>=",
	"call", "exit", "<", "<=", "s<", "s<=", "?", "?",
};

static char reg_prefix(__u8 cls)
{
	return cls == BPF_ALU || cls == BPF_JMP32 ? 'w' : 'r';
}

static const char *size_str(const struct bpf_insn *insn)
{
	return bpf_ldst_string[BPF_SIZE(insn->code) >> 3];
}

/* movsx: (s8), (s16), (s32); "" for a plain move. */
static const char *movsx_str(const struct bpf_insn *insn)
{
	if (BPF_OP(insn->code) != BPF_MOV || BPF_SRC(insn->code) != BPF_X)
		return "";
	switch (insn->off) {
	case 8:
		return "(s8)";
	case 16:
		return "(s16)";
	case 32:
		return "(s32)";
	}
	return "";
}

static const char *alu_op_str(const struct bpf_insn *insn)
{
	__u8 op = BPF_OP(insn->code);

	if (insn->off == 1 && (op == BPF_DIV || op == BPF_MOD))
		return op == BPF_DIV ? "s/=" : "s%=";
	return bpf_alu_string[op >> 4];
}

static void print_alu(const struct bpf_insn_cbs *cbs, const struct bpf_insn *insn)
{
	bpf_insn_print_t p = cbs->cb_print;
	void *pd = cbs->private_data;
	__u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	char r = reg_prefix(cls);

	if (op == BPF_END) {
		if (cls == BPF_ALU64)
			p(pd, "(%02x) r%d = bswap%d r%d\n", insn->code, insn->dst_reg, insn->imm,
			  insn->dst_reg);
		else
			p(pd, "(%02x) r%d = %s%d r%d\n", insn->code, insn->dst_reg,
			  BPF_SRC(insn->code) == BPF_TO_BE ? "be" : "le", insn->imm, insn->dst_reg);
	} else if (op == BPF_NEG) {
		p(pd, "(%02x) %c%d = -%c%d\n", insn->code, r, insn->dst_reg, r, insn->dst_reg);
	} else if (cls == BPF_ALU64 && op == BPF_MOV && BPF_SRC(insn->code) == BPF_X &&
		   insn->off == BPF_ADDR_SPACE_CAST) {
		p(pd, "(%02x) r%d = addr_space_cast(r%d, %u, %u)\n", insn->code, insn->dst_reg,
		  insn->src_reg, (__u32)insn->imm >> 16, (__u16)insn->imm);
	} else if (BPF_SRC(insn->code) == BPF_X) {
		p(pd, "(%02x) %c%d %s %s%c%d\n", insn->code, r, insn->dst_reg, alu_op_str(insn),
		  movsx_str(insn), r, insn->src_reg);
	} else {
		p(pd, "(%02x) %c%d %s %d\n", insn->code, r, insn->dst_reg, alu_op_str(insn),
		  insn->imm);
	}
}

static void print_atomic(const struct bpf_insn_cbs *cbs, const struct bpf_insn *insn)
{
	bpf_insn_print_t p = cbs->cb_print;
	void *pd = cbs->private_data;
	const char *w = BPF_SIZE(insn->code) == BPF_DW ? "64" : "";
	__s32 op = insn->imm & ~BPF_FETCH;

	if (insn->imm == BPF_ADD || insn->imm == BPF_AND || insn->imm == BPF_OR ||
	    insn->imm == BPF_XOR) {
		p(pd, "(%02x) lock *(%s *)(r%d %+d) %s r%d\n", insn->code, size_str(insn),
		  insn->dst_reg, insn->off, bpf_alu_string[insn->imm >> 4], insn->src_reg);
	} else if ((insn->imm & BPF_FETCH) &&
		   (op == BPF_ADD || op == BPF_AND || op == BPF_OR || op == BPF_XOR)) {
		p(pd, "(%02x) r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)\n", insn->code,
		  insn->src_reg, w, bpf_atomic_alu_string[op >> 4], size_str(insn),
		  insn->dst_reg, insn->off, insn->src_reg);
	} else if (insn->imm == BPF_XCHG) {
		p(pd, "(%02x) r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)\n", insn->code,
		  insn->src_reg, w, size_str(insn), insn->dst_reg, insn->off, insn->src_reg);
	} else if (insn->imm == BPF_CMPXCHG) {
		p(pd, "(%02x) r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)\n", insn->code, w,
		  size_str(insn), insn->dst_reg, insn->off, insn->src_reg);
	} else if (insn->imm == BPF_LOAD_ACQ) {
		p(pd, "(%02x) r%d = load_acquire((%s *)(r%d %+d))\n", insn->code, insn->dst_reg,
		  size_str(insn), insn->src_reg, insn->off);
	} else if (insn->imm == BPF_STORE_REL) {
		p(pd, "(%02x) store_release((%s *)(r%d %+d), r%d)\n", insn->code, size_str(insn),
		  insn->dst_reg, insn->off, insn->src_reg);
	} else {
		p(pd, "BUG_%02x\n", insn->code);
	}
}

static void print_ld_imm64(const struct bpf_insn_cbs *cbs, const struct bpf_insn *insn,
			   bool allow_ptr_leaks)
{
	__u64 imm = ((__u64)(__u32)insn[1].imm << 32) | (__u32)insn[0].imm;
	bool is_ptr = insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_VALUE;
	char tmp[32];
	const char *s;

	if (is_ptr && !allow_ptr_leaks)
		imm = 0;
	if (cbs->cb_imm) {
		s = cbs->cb_imm(cbs->private_data, insn, imm);
	} else {
		snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)imm);
		s = tmp;
	}
	cbs->cb_print(cbs->private_data, "(%02x) r%d = %s\n", insn->code, insn->dst_reg, s);
}

static void print_jmp(const struct bpf_insn_cbs *cbs, const struct bpf_insn *insn)
{
	bpf_insn_print_t p = cbs->cb_print;
	void *pd = cbs->private_data;
	__u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	char r = reg_prefix(cls);

	if (op == BPF_CALL) {
		const char *name = cbs->cb_call ? cbs->cb_call(pd, insn) : NULL;
		char tmp[16];

		if (insn->src_reg == BPF_PSEUDO_CALL) {
			if (!name) {
				snprintf(tmp, sizeof(tmp), "%+d", insn->imm);
				name = tmp;
			}
			p(pd, "(%02x) call pc%s\n", insn->code, name);
		} else {
			if (!name && insn->src_reg != BPF_PSEUDO_KFUNC_CALL)
				name = func_id_name(insn->imm);
			p(pd, "(%02x) call %s#%d\n", insn->code, name ? name : "unknown", insn->imm);
		}
	} else if (insn->code == (BPF_JMP | BPF_JA)) {
		p(pd, "(%02x) goto pc%+d\n", insn->code, insn->off);
	} else if (insn->code == (BPF_JMP32 | BPF_JA)) {
		p(pd, "(%02x) gotol pc%+d\n", insn->code, insn->imm);
	} else if (insn->code == (BPF_JMP | BPF_JCOND) && insn->src_reg == 0) {
		p(pd, "(%02x) may_goto pc%+d\n", insn->code, insn->off);
	} else if (insn->code == (BPF_JMP | BPF_EXIT)) {
		p(pd, "(%02x) exit\n", insn->code);
	} else if (op == BPF_JCOND || op == BPF_CALL || op == BPF_EXIT || op == BPF_JA) {
		p(pd, "(%02x) %s\n", insn->code, bpf_class_string[cls]);
	} else if (BPF_SRC(insn->code) == BPF_X) {
		p(pd, "(%02x) if %c%d %s %c%d goto pc%+d\n", insn->code, r, insn->dst_reg,
		  bpf_jmp_string[op >> 4], r, insn->src_reg, insn->off);
	} else {
		p(pd, "(%02x) if %c%d %s 0x%x goto pc%+d\n", insn->code, r, insn->dst_reg,
		  bpf_jmp_string[op >> 4], (__u32)insn->imm, insn->off);
	}
}

void print_bpf_insn(const struct bpf_insn_cbs *cbs, const struct bpf_insn *insn,
		    bool allow_ptr_leaks)
{
	bpf_insn_print_t p = cbs->cb_print;
	void *pd = cbs->private_data;
	__u8 cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		print_alu(cbs, insn);
		break;
	case BPF_STX:
		if (mode == BPF_MEM)
			p(pd, "(%02x) *(%s *)(r%d %+d) = r%d\n", insn->code, size_str(insn),
			  insn->dst_reg, insn->off, insn->src_reg);
		else if (mode == BPF_ATOMIC)
			print_atomic(cbs, insn);
		else
			p(pd, "BUG_%02x\n", insn->code);
		break;
	case BPF_ST:
		if (mode == BPF_MEM)
			p(pd, "(%02x) *(%s *)(r%d %+d) = %d\n", insn->code, size_str(insn),
			  insn->dst_reg, insn->off, insn->imm);
		else if (insn->code == (BPF_ST | BPF_NOSPEC_MODE))
			p(pd, "(%02x) nospec\n", insn->code);
		else
			p(pd, "BUG_st_%02x\n", insn->code);
		break;
	case BPF_LDX:
		if (mode != BPF_MEM && mode != BPF_MEMSX) {
			p(pd, "BUG_ldx_%02x\n", insn->code);
			break;
		}
		p(pd, "(%02x) r%d = *(%s *)(r%d %+d)\n", insn->code, insn->dst_reg,
		  mode == BPF_MEM ? size_str(insn) : bpf_ldsx_string[BPF_SIZE(insn->code) >> 3],
		  insn->src_reg, insn->off);
		break;
	case BPF_LD:
		if (mode == BPF_ABS)
			p(pd, "(%02x) r0 = *(%s *)skb[%d]\n", insn->code, size_str(insn), insn->imm);
		else if (mode == BPF_IND)
			p(pd, "(%02x) r0 = *(%s *)skb[r%d + %d]\n", insn->code, size_str(insn),
			  insn->src_reg, insn->imm);
		else if (mode == BPF_IMM && BPF_SIZE(insn->code) == BPF_DW)
			print_ld_imm64(cbs, insn, allow_ptr_leaks);
		else
			p(pd, "BUG_ld_%02x\n", insn->code);
		break;
	default:
		print_jmp(cbs, insn);
		break;
	}
}
