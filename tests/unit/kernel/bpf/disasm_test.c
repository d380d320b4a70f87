// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/disasm.c: print_bpf_insn() on one instruction of each form,
 * against the text the kernel's disassembler (and so bpftool) prints for
 * it: ALU in both widths, byte swaps, ISA v4 (movsx, sdiv/smod, sign-
 * extending loads, gotol, may_goto), every atomic, ld_imm64 through the
 * immediate callback, helper, kfunc and bpf-to-bpf calls, packet loads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../../../kernel/bpf/disasm.h"
#include "uxdp_test.h"

static char out[256];

static void print(void *priv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, sizeof(out), fmt, ap);
	va_end(ap);
}

static const char *call_name(void *priv, const struct bpf_insn *insn)
{
	return insn->src_reg == BPF_PSEUDO_KFUNC_CALL ? "bpf_xdp_ct_lookup" : NULL;
}

static const char *imm_name(void *priv, const struct bpf_insn *insn, __u64 imm)
{
	static char buf[32];

	if (insn->src_reg == BPF_PSEUDO_MAP_FD)
		snprintf(buf, sizeof(buf), "map[id:%d]", insn->imm);
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)imm);
	return buf;
}

static const char *dis(struct bpf_insn a, struct bpf_insn b)
{
	const struct bpf_insn_cbs cbs = { .cb_print = print, .cb_call = call_name,
					  .cb_imm = imm_name };
	struct bpf_insn two[2] = { a, b };

	out[0] = '\0';
	print_bpf_insn(&cbs, two, true);
	return out;
}

#define I(c, d, s, o, i) ((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
					    .off = (o), .imm = (i) })
#define Z I(0, 0, 0, 0, 0)
#define EQ(insn, text) ck_assert_str_eq(dis(insn, Z), text "\n")

START_TEST(test_alu)
{
	EQ(I(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 2), "(b7) r0 = 2");
	EQ(I(BPF_ALU | BPF_MOV | BPF_X, 1, 2, 0, 0), "(bc) w1 = w2");
	EQ(I(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4), "(07) r2 += -4");
	EQ(I(BPF_ALU64 | BPF_AND | BPF_K, 5, 0, 0, 65535), "(57) r5 &= 65535");
	EQ(I(BPF_ALU64 | BPF_ARSH | BPF_X, 3, 4, 0, 0), "(cf) r3 s>>= r4");
	EQ(I(BPF_ALU64 | BPF_NEG, 3, 0, 0, 0), "(87) r3 = -r3");
	EQ(I(BPF_ALU | BPF_END | BPF_TO_BE, 1, 0, 0, 16), "(dc) r1 = be16 r1");
	EQ(I(BPF_ALU | BPF_END | BPF_TO_LE, 1, 0, 0, 32), "(d4) r1 = le32 r1");
	EQ(I(BPF_ALU64 | BPF_END, 1, 0, 0, 64), "(d7) r1 = bswap64 r1");
	EQ(I(BPF_ALU64 | BPF_MOV | BPF_X, 1, 2, 8, 0), "(bf) r1 = (s8)r2");
	EQ(I(BPF_ALU64 | BPF_DIV | BPF_X, 1, 2, 1, 0), "(3f) r1 s/= r2");
	EQ(I(BPF_ALU | BPF_MOD | BPF_K, 1, 0, 1, 3), "(94) w1 s%= 3");
}
END_TEST

START_TEST(test_mem)
{
	EQ(I(BPF_LDX | BPF_MEM | BPF_DW, 2, 1, 8, 0), "(79) r2 = *(u64 *)(r1 +8)");
	EQ(I(BPF_LDX | BPF_MEM | BPF_B, 3, 1, 12, 0), "(71) r3 = *(u8 *)(r1 +12)");
	EQ(I(BPF_LDX | 0x80 | BPF_H, 3, 1, 2, 0), "(89) r3 = *(s16 *)(r1 +2)");
	EQ(I(BPF_STX | BPF_MEM | BPF_W, 10, 3, -4, 0), "(63) *(u32 *)(r10 -4) = r3");
	EQ(I(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -8, 7), "(7a) *(u64 *)(r10 -8) = 7");
	EQ(I(BPF_LD | BPF_ABS | BPF_H, 0, 0, 0, 12), "(28) r0 = *(u16 *)skb[12]");
	EQ(I(BPF_LD | BPF_IND | BPF_B, 0, 2, 0, 1), "(50) r0 = *(u8 *)skb[r2 + 1]");
	ck_assert_str_eq(dis(I(BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_FD, 0, 4), Z),
			 "(18) r1 = map[id:4]\n");
	ck_assert_str_eq(dis(I(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 1), I(0, 0, 0, 0, 2)),
			 "(18) r1 = 0x200000001\n");
}
END_TEST

START_TEST(test_atomic)
{
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD), "(db) lock *(u64 *)(r0 +0) += r1");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_W, 4, 5, 0, BPF_OR), "(c3) lock *(u32 *)(r4 +0) |= r5");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_DW, 9, 2, 0, BPF_OR | BPF_FETCH),
	   "(db) r2 = atomic64_fetch_or((u64 *)(r9 +0), r2)");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_W, 5, 4, 0, BPF_ADD | BPF_FETCH),
	   "(c3) r4 = atomic_fetch_add((u32 *)(r5 +0), r4)");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_DW, 4, 5, 0, BPF_XCHG),
	   "(db) r5 = atomic64_xchg((u64 *)(r4 +0), r5)");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_DW, 4, 6, 0, BPF_CMPXCHG),
	   "(db) r0 = atomic64_cmpxchg((u64 *)(r4 +0), r0, r6)");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_W, 1, 2, 0, 0x100),
	   "(c3) r1 = load_acquire((u32 *)(r2 +0))");
	EQ(I(BPF_STX | BPF_ATOMIC | BPF_DW, 1, 2, 8, 0x110),
	   "(db) store_release((u64 *)(r1 +8), r2)");
}
END_TEST

START_TEST(test_jmp)
{
	EQ(I(BPF_JMP | BPF_JGT | BPF_X, 3, 2, 62, 0), "(2d) if r3 > r2 goto pc+62");
	EQ(I(BPF_JMP | BPF_JEQ | BPF_K, 4, 0, 2, 0x81), "(15) if r4 == 0x81 goto pc+2");
	EQ(I(BPF_JMP32 | BPF_JSLT | BPF_K, 1, 0, -3, -1), "(c6) if w1 s< 0xffffffff goto pc-3");
	EQ(I(BPF_JMP | BPF_JA, 0, 0, -1, 0), "(05) goto pc-1");
	EQ(I(BPF_JMP32 | BPF_JA, 0, 0, 0, 70000), "(06) gotol pc+70000");
	EQ(I(BPF_JMP | 0xe0, 0, 0, 4, 0), "(e5) may_goto pc+4");
	EQ(I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0), "(95) exit");
	EQ(I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
	   "(85) call bpf_map_lookup_elem#1");
	EQ(I(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_xdp_adjust_head),
	   "(85) call bpf_xdp_adjust_head#44");
	EQ(I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 1048588),
	   "(85) call bpf_xdp_ct_lookup#1048588");
	EQ(I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 67), "(85) call pc+67");
	EQ(I(BPF_JMP | BPF_CALL, 0, 0, 0, 100000), "(85) call unknown#100000");
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/disasm");
	TCase *tc = tcase_create("print_bpf_insn");

	tcase_add_test(tc, test_alu);
	tcase_add_test(tc, test_mem);
	tcase_add_test(tc, test_atomic);
	tcase_add_test(tc, test_jmp);
	suite_add_tcase(s, tc);
	return s;
}
