// SPDX-License-Identifier: GPL-2.0
/*
 * arch/x86/net/bpf_jit_comp.c: the JIT against the interpreter. Every
 * program here is checked once and run on both runtimes (bpf_jit_prog_run()
 * and bpf_prog_run_interp() on the same struct bpf_prog); results, abort
 * reasons and abort counters must agree. Targeted cases: every ALU/JMP
 * opcode over register pairs that hit the JIT's special registers (rax,
 * rdx for division, rcx for shifts) with edge values, each abort reason,
 * the loop budget at its exact boundary, the tail-call limit, bpf-to-bpf
 * calls, helpers, the inlined ARRAY and PERCPU_ARRAY lookups, and the fallback when the
 * knob is off.
 */
#include <pthread.h>

#include <linux/bpf_verifier.h>
#include <linux/netdevice.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>

#include "uxdp_test.h"
#include "../../../kernel/bpf/test_pkt.h"
#include "../../../kernel/bpf/bpf_insn_macros.h"

static char log_buf[4096];

static struct bpf_prog *load_jit(const struct bpf_insn *insns, u32 len, enum bpf_prog_type type)
{
	struct bpf_prog *prog;

	bpf_jit_enable = 1;
	prog = load_prog(insns, len, type, log_buf, sizeof(log_buf), NULL);
	if (prog)
		ck_assert_msg(prog->jited, "not JITed: %s", prog->aux->jit_reason);
	return prog;
}

/* Run raw on both runtimes; they must agree. Returns R0, *reason set. */
static u64 run_raw_both(struct bpf_prog *prog, void *mem, u64 len, enum bpf_abort_reason *reason)
{
	enum bpf_abort_reason ri, rj;
	u8 copy[256];
	u64 vi, vj;

	ck_assert_uint_le(len, sizeof(copy));
	memcpy(copy, mem, len);
	vi = bpf_prog_run_interp(prog, NULL, mem, len, &ri);
	memcpy(mem, copy, len);
	vj = bpf_jit_prog_run(prog, NULL, mem, len, &rj);
	ck_assert_msg(vi == vj && ri == rj, "interp %#llx (%d) jit %#llx (%d)",
		      (unsigned long long)vi, ri, (unsigned long long)vj, rj);
	if (reason)
		*reason = rj;
	return vj;
}

static u64 run_xdp_both(struct bpf_prog *prog, struct test_pkt *pkt, enum bpf_abort_reason *reason)
{
	enum bpf_abort_reason ri, rj;
	struct test_pkt copy = *pkt;
	u64 vi, vj;

	vi = bpf_prog_run_interp(prog, &pkt->xdp, NULL, 0, &ri);
	*pkt = copy;	/* its pointers point into *pkt itself */
	vj = bpf_jit_prog_run(prog, &pkt->xdp, NULL, 0, &rj);
	ck_assert_msg(vi == vj && ri == rj, "interp %#llx (%d) jit %#llx (%d)",
		      (unsigned long long)vi, ri, (unsigned long long)vj, rj);
	if (reason)
		*reason = rj;
	return vj;
}

static u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static const u64 edge[] = {
	0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x8000, 0xffff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL,
	0x8000000000000000ULL, 0xffffffffffffffffULL, 0xfffffffffffffffeULL,
	0xffffffff80000000ULL,
};

static u64 pick(void)
{
	u64 r = rnd();

	return r % 3 ? edge[r % ARRAY_SIZE(edge)] : rnd();
}

/* dst/src pairs that meet rax, rdx (division) and rcx (shifts) */
static const u8 pairs[][2] = {
	{ 0, 4 }, { 4, 0 }, { 3, 4 }, { 4, 3 }, { 4, 4 }, { 0, 3 }, { 3, 0 }, { 0, 0 },
	{ 6, 7 }, { 9, 8 }, { 2, 5 }, { 5, 2 }, { 3, 3 },
};

/*
 * r0, r2..r9 from mem[0..8]; the @nr_ops instructions @ops on them; then
 * every register is folded into r0, so a clobbered register shows too.
 */
static int ops_run(const struct bpf_insn *ops, u32 nr_ops, u32 rounds)
{
	struct bpf_insn insns[40];
	struct bpf_prog *prog;
	u64 mem[9];
	u32 n = 0, r, k;
	static const u8 regs[9] = { 0, 2, 3, 4, 5, 6, 7, 8, 9 };

	for (k = 0; k < 9; k++)
		insns[n++] = BPF_LDX_MEM(BPF_DW, regs[k], BPF_REG_1, 8 * k);
	for (k = 0; k < nr_ops; k++)
		insns[n++] = ops[k];
	for (k = 1; k < 9; k++) {
		insns[n++] = BPF_ALU64_IMM(BPF_MUL, BPF_REG_0, 31);
		insns[n++] = BPF_ALU64_REG(BPF_ADD, BPF_REG_0, regs[k]);
	}
	insns[n++] = BPF_EXIT_INSN();
	prog = load_prog(insns, n, BPF_PROG_TYPE_UNSPEC, log_buf, sizeof(log_buf), NULL);
	if (!prog)
		return 0;
	ck_assert_msg(prog->jited, "op %#x not JITed: %s", ops[0].code, prog->aux->jit_reason);
	for (r = 0; r < rounds; r++) {
		enum bpf_abort_reason reason;

		for (k = 0; k < 9; k++)
			mem[k] = pick();
		run_raw_both(prog, mem, sizeof(mem), &reason);
		ck_assert_int_eq(reason, BPF_ABORT_NONE);
	}
	bpf_prog_put(prog);
	return 1;
}

static int one_op(struct bpf_insn op, u32 rounds)
{
	return ops_run(&op, 1, rounds);
}

/*
 * The pairs emit_fused() turns into one x86 instruction (mov + add/sub as
 * lea, in 64 and 32 bits; lsh 32 + rsh 32 as mov r32), over register
 * pairs and constants at the edges, and the near misses that must stay
 * two instructions (other shift counts, a different register, a mix of
 * widths).
 */
START_TEST(test_fused_pairs)
{
	static const s32 imms[] = { 0, 1, -1, 8, -8, 127, 128, -128, -129, 0x7fffffff,
				    S32_MIN, S32_MIN + 1 };
	static const u8 cls[][2] = {
		{ BPF_ALU64, BPF_ALU64 }, { BPF_ALU, BPF_ALU }, { BPF_ALU, BPF_ALU64 },
		{ BPF_ALU64, BPF_ALU },
	};
	u32 p, k, w, loaded = 0;

	bpf_jit_enable = 1;
	for (p = 0; p < ARRAY_SIZE(pairs); p++) {
		u8 d = pairs[p][0], sr = pairs[p][1];

		for (w = 0; w < ARRAY_SIZE(cls); w++)
			for (k = 0; k < ARRAY_SIZE(imms); k++) {
				struct bpf_insn add[] = {
					BPF_RAW_INSN(cls[w][0] | BPF_MOV | BPF_X, d, sr, 0, 0),
					BPF_RAW_INSN(cls[w][1] | BPF_ADD | BPF_K, d, 0, 0, imms[k]),
				};
				struct bpf_insn sub[] = {
					BPF_RAW_INSN(cls[w][0] | BPF_MOV | BPF_X, d, sr, 0, 0),
					BPF_RAW_INSN(cls[w][1] | BPF_SUB | BPF_K, d, 0, 0, imms[k]),
				};

				loaded += ops_run(add, 2, 8);
				loaded += ops_run(sub, 2, 8);
			}
		for (k = 31; k <= 33; k++) {
			struct bpf_insn zext[] = {
				BPF_ALU64_IMM(BPF_LSH, d, 32),
				BPF_ALU64_IMM(BPF_RSH, d, k),
			};
			struct bpf_insn other[] = {
				BPF_ALU64_IMM(BPF_LSH, d, 32),
				BPF_ALU64_IMM(BPF_RSH, sr, 32),
			};

			loaded += ops_run(zext, 2, 20);
			loaded += ops_run(other, 2, 20);
		}
	}
	ck_assert_uint_eq(loaded, ARRAY_SIZE(pairs) * (ARRAY_SIZE(cls) * ARRAY_SIZE(imms) * 2 + 6));
}
END_TEST

/*
 * clang's 32-bit rotate in 64-bit registers and "and; rsh" as a 32-bit
 * shift (emit_rotate(), emit_and_shr()): against the interpreter with the
 * high half read later (ops_run() folds every register into r0, so a
 * 64-bit OR must stay as it is) and with it truncated, where the image
 * must hold the rol.
 */
/* test r/m, imm32 with @imm in @code: f7 /0 (mod 11) then the four bytes */
static bool image_has_test_imm(const u8 *code, int len, s32 imm)
{
	for (int k = 0; k + 6 <= len; k++)
		if (code[k] == 0xf7 && (code[k + 1] & 0xf8) == 0xc0 &&
		    !memcmp(&code[k + 2], &imm, 4))
			return true;
	return false;
}

/*
 * Flag tests (emit_test_branch()): "rT = rX; rT &= K; if rT ==/!= 0"
 * with rT overwritten on both sides of the jump (so a test of rX can
 * stand for the three slots) and with rT read later (it must hold the
 * AND), and "rX &= K; if rX ==/!= 0" on the AND's flags, in every mix of
 * 32- and 64-bit move, AND and jump, over constants whose sign extension
 * and high bits matter. The folded registers show a clobbered rX or a
 * wrong branch.
 */
START_TEST(test_flag_test_branch)
{
	static const s32 imms[] = { 1, 4, 0x80, -1, S32_MIN, 0x7fffffff, 0x10040, -256 };
	static const u8 alu[] = { BPF_ALU64, BPF_ALU };
	static const u8 jmp[] = { BPF_JMP, BPF_JMP32 };
	static const u8 ops[] = { BPF_JEQ, BPF_JNE };
	u32 p, a, b, j, o, k, loaded = 0, want = 0;

	bpf_jit_enable = 1;
	for (p = 0; p < ARRAY_SIZE(pairs); p++) {
		u8 t = pairs[p][0], x = pairs[p][1];

		if (!t)
			continue;	/* r0 is the fold's accumulator */
		for (a = 0; a < 2; a++)
			for (b = 0; b < 2; b++)
				for (j = 0; j < 2; j++)
					for (o = 0; o < 2; o++)
						for (k = 0; k < ARRAY_SIZE(imms); k++) {
			u8 jc = jmp[j] | ops[o] | BPF_K;
			struct bpf_insn dead[] = {
				BPF_RAW_INSN(alu[a] | BPF_MOV | BPF_X, t, x, 0, 0),
				BPF_RAW_INSN(alu[b] | BPF_AND | BPF_K, t, 0, 0, imms[k]),
				BPF_RAW_INSN(jc, t, 0, 2, 0),
				BPF_MOV64_IMM(t, 7),
				BPF_JMP_A(1),
				BPF_MOV64_IMM(t, 9),
			};
			struct bpf_insn live[] = {
				BPF_RAW_INSN(alu[a] | BPF_MOV | BPF_X, t, x, 0, 0),
				BPF_RAW_INSN(alu[b] | BPF_AND | BPF_K, t, 0, 0, imms[k]),
				BPF_RAW_INSN(jc, t, 0, 1, 0),
				BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 3),
			};
			struct bpf_insn in_place[] = {
				BPF_RAW_INSN(alu[b] | BPF_AND | BPF_K, x, 0, 0, imms[k]),
				BPF_RAW_INSN(jc, x, 0, 1, 0),
				BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 3),
			};

			loaded += ops_run(dead, ARRAY_SIZE(dead), 6);
			loaded += ops_run(live, ARRAY_SIZE(live), 6);
			loaded += ops_run(in_place, ARRAY_SIZE(in_place), 6);
			want += 3;
		}
	}
	ck_assert_uint_eq(loaded, want);

	/* the dead form is a test of rX, with the branch taken as the value says */
	for (a = 0; a < 2; a++) {
		struct bpf_insn insns[] = {
			BPF_LDX_MEM(BPF_DW, BPF_REG_7, BPF_REG_1, 0),
			BPF_MOV64_REG(BPF_REG_6, BPF_REG_7),
			BPF_ALU64_IMM(BPF_AND, BPF_REG_6, 0x10040),
			BPF_RAW_INSN((a ? BPF_JMP32 : BPF_JMP) | BPF_JNE | BPF_K, BPF_REG_6, 0, 2, 0),
			BPF_MOV64_IMM(BPF_REG_0, 1),
			BPF_EXIT_INSN(),
			BPF_MOV64_IMM(BPF_REG_0, 2),
			BPF_EXIT_INSN(),
		};
		struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_UNSPEC);
		u8 code[256];
		u64 mem[1];
		int len;

		ck_assert_msg(prog, "%s", log_buf);
		mem[0] = 0x40;
		ck_assert_uint_eq(run_raw_both(prog, mem, sizeof(mem), NULL), 2);
		mem[0] = 0xfffffffffffeffbfULL;	/* every bit but the two tested */
		ck_assert_uint_eq(run_raw_both(prog, mem, sizeof(mem), NULL), 1);
		mem[0] = 0x10000;
		ck_assert_uint_eq(run_raw_both(prog, mem, sizeof(mem), NULL), 2);
		ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
		len = uxdp_bpf_prog_jited_insns(prog->aux->id, code, sizeof(code));
		ck_assert_msg(image_has_test_imm(code, len, 0x10040),
			      "no test r13, 0x10040 in the image (%s)", a ? "jmp32" : "jmp");
		bpf_prog_put(prog);
	}
}
END_TEST

/*
 * Two-slot forms: "rX = rY; rX += rZ" as one lea (rZ another register, or
 * rX itself, read before the move; 64 and 32 bits, the 32-bit sum
 * wrapping), and a loop latch "if cond goto out; goto head" emitted as
 * "if !cond goto head; goto out". The loop runs 10 times, summing.
 */
START_TEST(test_lea_and_latch)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_2, 5),
		BPF_LD_IMM64_RAW(BPF_REG_3, 0, 0x1fffffff7ULL),
		BPF_MOV64_IMM(BPF_REG_5, 1000),
		BPF_MOV64_REG(BPF_REG_4, BPF_REG_2),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_4, BPF_REG_3),	/* 0x1fffffffc */
		BPF_MOV64_REG(BPF_REG_5, BPF_REG_3),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_5, BPF_REG_5),	/* r3 + r3 */
		BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_3, 0, 0),
		BPF_RAW_INSN(BPF_ALU | BPF_ADD | BPF_X, BPF_REG_6, BPF_REG_2, 0, 0),	/* (u32)(0xfffffff7 + 5) */
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_MOV64_IMM(BPF_REG_1, 0),
		/* head: */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_4),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_1, 10, 1),
		BPF_JMP_A(-4),
		/* out: */
		BPF_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_5),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
		BPF_EXIT_INSN(),
	};
	u64 want = (10 * 0x1fffffffcULL ^ (2 * 0x1fffffff7ULL)) + (u32)(0xfffffff7u + 5);
	struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	struct test_pkt pkt;

	ck_assert_msg(prog, "%s", log_buf);
	test_pkt_init(&pkt, 14);
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), want);
	bpf_prog_put(prog);
}
END_TEST

START_TEST(test_rotate_idioms)
{
	static const u32 masks[] = { 0xfff80000, 0xfff00000, 0xfffc0000, 0x7ff80000 };
	u32 m, w, loaded = 0;
	u8 code[512];
	int len, k;
	bool rol;

	bpf_jit_enable = 1;
	for (m = 0; m < ARRAY_SIZE(masks); m++)
		for (w = 0; w < 2; w++) {
			u8 oc = w ? BPF_ALU : BPF_ALU64;
			struct bpf_insn rot[] = {
				BPF_LD_IMM64_RAW(BPF_REG_5, 0, masks[m]),
				BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
				BPF_ALU64_REG(BPF_AND, BPF_REG_6, BPF_REG_5),
				BPF_ALU64_IMM(BPF_LSH, BPF_REG_0, 13),
				BPF_ALU64_IMM(BPF_RSH, BPF_REG_6, 19),
				BPF_RAW_INSN(oc | BPF_OR | BPF_X, BPF_REG_0, BPF_REG_6, 0, 0),
			};
			struct bpf_insn shr[] = {
				BPF_LD_IMM64_RAW(BPF_REG_5, 0, masks[m]),
				BPF_ALU64_REG(BPF_AND, BPF_REG_3, BPF_REG_5),
				BPF_RAW_INSN(oc | BPF_RSH | BPF_K, BPF_REG_3, 0, 0, 19),
			};

			loaded += ops_run(rot, ARRAY_SIZE(rot), 50);
			loaded += ops_run(shr, ARRAY_SIZE(shr), 50);
		}
	ck_assert_uint_eq(loaded, ARRAY_SIZE(masks) * 4);

	/* the high half unread: rol eax, 13 (c1 c0 0d) in the image */
	for (m = 0; m < 2; m++) {
		struct bpf_insn insns[] = {
			BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
			BPF_LD_IMM64_RAW(BPF_REG_5, 0, 0xfff80000),
			BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
			BPF_ALU64_REG(BPF_AND, BPF_REG_6, BPF_REG_5),
			BPF_ALU64_IMM(BPF_LSH, BPF_REG_0, 13),
			BPF_ALU64_IMM(BPF_RSH, BPF_REG_6, 19),
			BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_6),
			/* m == 1: r6 still read, so it must hold low32(r0) >> 19 */
			m ? BPF_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_6) : BPF_MOV64_IMM(BPF_REG_6, 0),
			BPF_ALU64_IMM(BPF_LSH, BPF_REG_0, 32),
			BPF_ALU64_IMM(BPF_RSH, BPF_REG_0, 32),
			BPF_EXIT_INSN(),
		};
		struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_UNSPEC);
		u64 mem[1];

		ck_assert_msg(prog, "%s", log_buf);
		for (k = 0; k < 200; k++) {
			mem[0] = pick();
			run_raw_both(prog, mem, sizeof(mem), NULL);
		}
		ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
		len = uxdp_bpf_prog_jited_insns(prog->aux->id, code, sizeof(code));
		ck_assert_int_gt(len, 3);
		rol = false;
		for (k = 0; k + 2 < len; k++)
			rol |= code[k] == 0xc1 && code[k + 1] == 0xc0 && code[k + 2] == 13;
		ck_assert_msg(rol, "no rol eax, 13 in the image (m %u)", m);
		bpf_prog_put(prog);
	}
}
END_TEST

START_TEST(test_alu_ops)
{
	static const u8 ops[] = { BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND, BPF_LSH,
				  BPF_RSH, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH };
	static const s16 offs[] = { 0, 1, 8, 16, 32 };
	static const s32 imms[] = { 0, 1, -1, 3, 31, 32, 63, 0x7fffffff, (s32)0x80000000, -7,
				    5, 9, 2, 8, 0x40000000 };
	u32 loaded = 0, tried = 0, o, p, f, c, k;

	bpf_jit_enable = 1;
	for (c = 0; c < 2; c++) {
		u8 cls = c ? BPF_ALU64 : BPF_ALU;

		for (o = 0; o < ARRAY_SIZE(ops); o++) {
			for (f = 0; f < ARRAY_SIZE(offs); f++) {
				for (p = 0; p < ARRAY_SIZE(pairs); p++, tried++)
					loaded += one_op(BPF_RAW_INSN(cls | ops[o] | BPF_X, pairs[p][0],
								      pairs[p][1], offs[f], 0), 40);
				for (k = 0; k < ARRAY_SIZE(imms); k++, tried++)
					loaded += one_op(BPF_RAW_INSN(cls | ops[o] | BPF_K,
								      pairs[k % ARRAY_SIZE(pairs)][0],
								      0, offs[f], imms[k]), 40);
			}
		}
		for (p = 0; p < ARRAY_SIZE(pairs); p++, tried++)
			loaded += one_op(BPF_RAW_INSN(cls | BPF_NEG, pairs[p][0], 0, 0, 0), 20);
		for (k = 0; k < 3; k++)
			for (p = 0; p < 4; p++, tried++) {
				s32 bits = 16 << k;

				loaded += one_op(BPF_RAW_INSN(cls | BPF_END | BPF_TO_LE, pairs[p][0],
							      0, 0, bits), 20);
				if (cls == BPF_ALU)
					loaded += one_op(BPF_RAW_INSN(cls | BPF_END | BPF_TO_BE,
								      pairs[p][0], 0, 0, bits), 20);
			}
	}
	/* most of the grid is valid ISA; the checker refuses the rest for both */
	ck_assert_uint_gt(loaded, 600);
	ck_assert_uint_gt(tried, 2000);
}
END_TEST

START_TEST(test_jmp_ops)
{
	static const u8 ops[] = { BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
				  BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET };
	static const s32 imms[] = { 0, 1, -1, 0x7fffffff, (s32)0x80000000, 255 };
	u32 o, c, p, k, r;

	for (c = 0; c < 2; c++) {
		for (o = 0; o < ARRAY_SIZE(ops); o++) {
			for (p = 0; p < ARRAY_SIZE(pairs) + ARRAY_SIZE(imms); p++) {
				bool x = p < ARRAY_SIZE(pairs);
				u8 d = x ? pairs[p][0] : 3, s = x ? pairs[p][1] : 0;
				struct bpf_insn insns[] = {
					BPF_LDX_MEM(BPF_DW, d, BPF_REG_1, 0),
					BPF_LDX_MEM(BPF_DW, s, BPF_REG_1, d == s ? 0 : 8),
					BPF_RAW_INSN((c ? BPF_JMP32 : BPF_JMP) | ops[o] |
						     (x ? BPF_X : BPF_K), d, s, 2,
						     x ? 0 : imms[p - ARRAY_SIZE(pairs)]),
					BPF_MOV64_IMM(BPF_REG_0, 1),
					BPF_EXIT_INSN(),
					BPF_MOV64_IMM(BPF_REG_0, 2),
					BPF_EXIT_INSN(),
				};
				struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns),
								 BPF_PROG_TYPE_UNSPEC);
				u64 mem[2];

				ck_assert_msg(prog, "%s", log_buf);
				for (r = 0; r < 60; r++) {
					mem[0] = pick();
					mem[1] = r % 4 ? pick() : mem[0];
					run_raw_both(prog, mem, sizeof(mem), NULL);
				}
				bpf_prog_put(prog);
				(void)k;
			}
		}
	}
}
END_TEST

/* div/mod by 0 and -1 as the interpreter: x/0 = 0, x%0 = x, sdiv -1 = -x, smod -1 = 0 */
START_TEST(test_div_special)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_1, 8),
		BPF_RAW_INSN(BPF_ALU64 | BPF_MOD | BPF_X, BPF_REG_0, BPF_REG_3, 1, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn div0[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_1, 8),
		BPF_RAW_INSN(BPF_ALU | BPF_DIV | BPF_X, BPF_REG_0, BPF_REG_3, 1, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_UNSPEC);
	struct bpf_prog *p32 = load_jit(div0, ARRAY_SIZE(div0), BPF_PROG_TYPE_UNSPEC);
	u64 mem[2] = { 0x8000000000000000ULL, (u64)-1 };

	ck_assert_uint_eq(run_raw_both(prog, mem, sizeof(mem), NULL), 0);
	mem[1] = 0;
	ck_assert_uint_eq(run_raw_both(prog, mem, sizeof(mem), NULL), 0x8000000000000000ULL);
	mem[1] = 0;
	mem[0] = 0xffffffff80000000ULL;
	ck_assert_uint_eq(run_raw_both(p32, mem, sizeof(mem), NULL), 0);
	mem[1] = (u64)-1;
	ck_assert_uint_eq(run_raw_both(p32, mem, sizeof(mem), NULL), 0x80000000ULL);
	mem[0] = 7;
	ck_assert_uint_eq(run_raw_both(p32, mem, sizeof(mem), NULL), (u32)-7);
	bpf_prog_put(prog);
	bpf_prog_put(p32);
}
END_TEST

/*
 * Inlined ARRAY and PERCPU_ARRAY lookups (real maps, so the JIT inlines
 * them): every index, one past the end and far out, on two CPUs; both
 * runtimes agree with the value each CPU's copy holds.
 */
/* A direct image run on a thread of its own, bound to a CPU other than the caller's. */
struct cpu_thread_run {
	struct bpf_prog *prog;
	int cpu;
	u64 ret;
};

static void *cpu_thread_run(void *arg)
{
	struct cpu_thread_run *r = arg;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 60);
	uxdp_worker_bind_cpu(r->cpu);
	r->ret = bpf_prog_run(r->prog, &pkt.xdp);
	return NULL;
}

static u64 run_on_thread(struct bpf_prog *prog, int cpu)
{
	struct cpu_thread_run r = { .prog = prog, .cpu = cpu };
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, cpu_thread_run, &r), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	return r.ret;
}

/*
 * The lookup of map @id and a ctx field in a callee of a direct image, a
 * ctx field in the main program: the slots found through r12 from the
 * callee's lower rsp.
 */
static void direct_callee_lookup(int id, bool percpu)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_6, BPF_REG_1, offsetof(struct xdp_md, rx_queue_index)),
		BPF_CALL_REL(3),
		BPF_ALU64_IMM(BPF_LSH, BPF_REG_6, 16),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
		BPF_EXIT_INSN(),
		/* sub(ctx): value[2] + ingress_ifindex */
		BPF_LDX_MEM(BPF_W, BPF_REG_6, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		BPF_ST_MEM(BPF_W, BPF_REG_10, -8, 2),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
		BPF_LD_MAP_FD(BPF_REG_1, id),
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 3),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 0xdead),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	u32 cpu;

	ck_assert_msg(prog, "load: %s", log_buf);
	ck_assert_ptr_nonnull(prog->aux->jit_direct);
	for (cpu = 0; cpu < 2 && cpu < num_possible_cpus(); cpu++) {
		u64 want = 3000 + (percpu ? cpu : 0) + 7 + (3 << 16);
		struct test_pkt pkt;

		test_pkt_init(&pkt, 60);
		uxdp_worker_bind_cpu(cpu);
		ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), want);
		ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), want);
	}
	uxdp_worker_bind_cpu(0);
	bpf_prog_put(prog);
}

/* r0 = the second u64 of map @id's element whose key is at fp + @off, or 0xdead */
#define LOOKUP_WORD1(id, off)						\
	BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),				\
	BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, off),				\
	BPF_LD_MAP_FD(BPF_REG_1, id),					\
	BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),			\
	BPF_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 2),				\
	BPF_MOV64_IMM(BPF_REG_0, 0xdead),				\
	BPF_EXIT_INSN(),						\
	BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 8),			\
	BPF_EXIT_INSN()

/*
 * A key the checker finds constant and in range (0 at fp-4, or any key
 * spilled at fp-8) is folded into the element's address, and the NULL
 * check is gone: each key's element on each CPU, in the image with the
 * C entry and in the direct one.
 */
static void const_key_lookups(int id, bool percpu, u32 entries)
{
	const u32 ncpus = num_possible_cpus();
	u32 k, cpu, t;

	for (k = 0; k < entries; k++)
		for (t = 0; t < 2; t++) {
			struct bpf_insn insns[] = {
				BPF_MOV64_IMM(BPF_REG_2, k),
				BPF_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_2, k ? -8 : -4),
				LOOKUP_WORD1(id, k ? -8 : -4),
			};
			struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns),
							 t ? BPF_PROG_TYPE_XDP : BPF_PROG_TYPE_UNSPEC);
			const struct bpf_verifier_info *vi;
			struct test_pkt pkt;
			u32 idx = 0;

			ck_assert_msg(prog, "load: %s", log_buf);
			vi = prog->aux->verifier_info;
			ck_assert_int_eq(vi->calls[prog->insnsi[6].imm].const_key, k);
			ck_assert_uint_eq(prog->insnsi[7].code, BPF_JMP | BPF_JA);	/* always taken */
			for (cpu = 0; cpu < 2 && cpu < ncpus; cpu++) {
				u64 want = 1000 * (k + 1) + (percpu ? cpu : 0);

				uxdp_worker_bind_cpu(cpu);
				if (t) {
					test_pkt_init(&pkt, 60);
					ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), want);
					ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), want);
				} else {
					ck_assert_uint_eq(run_raw_both(prog, &idx, sizeof(idx), NULL), want);
				}
			}
			uxdp_worker_bind_cpu(0);
			bpf_prog_put(prog);
		}
}

START_TEST(test_inline_array_lookups)
{
	static const enum bpf_map_type types[] = { BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY };
	const u32 ncpus = num_possible_cpus(), entries = 5;
	u32 t, k, cpu;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		bool percpu = types[t] == BPF_MAP_TYPE_PERCPU_ARRAY;
		int id = uxdp_bpf_map_create(types[t], "lk", 4, 16, entries, NULL);
		struct bpf_insn insns[] = {
			BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, 0),
			BPF_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_2, -4),
			LOOKUP_WORD1(id, -4),
		};
		struct bpf_prog *prog;

		ck_assert_int_gt(id, 0);
		for (k = 0; k < entries; k++) {
			u64 vals[NR_CPUS][2] = { { 0 } };

			for (cpu = 0; cpu < ncpus; cpu++)
				vals[cpu][1] = 1000 * (k + 1) + (percpu ? cpu : 0);
			ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &k, vals, BPF_ANY), 0);
		}
		prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_UNSPEC);
		ck_assert_msg(prog, "load: %s", log_buf);
		for (cpu = 0; cpu < 2 && cpu < ncpus; cpu++) {
			uxdp_worker_bind_cpu(cpu);
			for (k = 0; k < entries + 3; k++) {
				u32 idx = k < entries + 2 ? k : 0x80000000u;
				u64 want = idx < entries ? 1000 * (idx + 1) + (percpu ? cpu : 0) : 0xdead;

				ck_assert_uint_eq(run_raw_both(prog, &idx, sizeof(idx), NULL), want);
			}
		}
		uxdp_worker_bind_cpu(0);
		bpf_prog_put(prog);
		/* XDP: the direct image reads the worker's CPU number (%fs) at the lookup */
		insns[0] = BPF_MOV64_IMM(BPF_REG_2, 2);
		prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
		ck_assert_msg(prog, "load: %s", log_buf);
		ck_assert_ptr_nonnull(prog->aux->jit_direct);
		for (cpu = 0; cpu < 2 && cpu < ncpus; cpu++) {
			struct test_pkt pkt;

			test_pkt_init(&pkt, 60);
			uxdp_worker_bind_cpu(cpu);
			ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), 3000 + (percpu ? cpu : 0));
			ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 3000 + (percpu ? cpu : 0));
		}
		uxdp_worker_bind_cpu(0);
		/* the same image on another thread finds that thread's CPU */
		if (ncpus > 1)
			ck_assert_uint_eq(run_on_thread(prog, 1), 3000 + (percpu ? 1 : 0));
		bpf_prog_put(prog);
		direct_callee_lookup(id, percpu);
		const_key_lookups(id, percpu, entries);
		uxdp_bpf_map_close(id);
	}
}
END_TEST

/*
 * bpf_redirect_map() on a DEVMAP is inlined (a DEVMAP_HASH keeps the
 * call): for every index and flags word the verdict and the whole
 * bpf_redirect_info must be the interpreter's (which calls the helper):
 * hits, empty slots, indexes past max_entries and with high bits, the
 * verdict flags, and the flags the inline code leaves to the helper
 * (broadcast, bad bits). Index and flags come from the packet.
 */
START_TEST(test_inline_redirect_map)
{
	static const enum bpf_map_type types[] = { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH };
	static const u8 inline_test[] = { 0x48, 0xf7, 0xc2, 0xfc, 0xff, 0xff, 0xff };
	static const u64 idx[] = { 0, 1, 2, 5, 7, 8, 1000, 0x100000002ULL, 0xffffffffULL };
	static const u64 flags[] = {
		0, XDP_DROP, XDP_PASS, XDP_TX, 4, BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS | XDP_PASS,
		BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS, 1ULL << 40, 1ULL << 63 | XDP_PASS,
	};
	u32 t, k, f;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		int id = uxdp_bpf_map_create(types[t], "tx", 4, 4, 8, NULL);
		struct bpf_insn insns[] = {
			BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
			BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
			BPF_MOV64_REG(BPF_REG_4, BPF_REG_2),
			BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 16),
			BPF_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 7),
			BPF_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_2, 0),
			BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 8),
			BPF_MOV64_REG(BPF_REG_2, BPF_REG_6),
			BPF_LD_MAP_FD(BPF_REG_1, id),
			BPF_CALL_HELPER(BPF_FUNC_redirect_map),
			BPF_EXIT_INSN(),
			BPF_MOV64_IMM(BPF_REG_0, 99),
			BPF_EXIT_INSN(),
		};
		struct bpf_redirect_info *ri = bpf_net_ctx_get_ri(), want;
		u32 keys[] = { 1, 5, 7 }, ifindex = 3;
		struct bpf_prog *prog;
		u8 code[1024];
		int n;

		ck_assert_int_gt(id, 0);
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			ck_assert_int_eq(uxdp_bpf_map_update_elem(id, &keys[k], &ifindex, BPF_ANY), 0);
		prog = bpf_prog_alloc(ARRAY_SIZE(insns));
		memcpy(prog->insnsi, insns, sizeof(insns));
		prog->type = BPF_PROG_TYPE_XDP;
		prog->aux->func_proto = xdp_func_proto;	/* the real helpers */
		ck_assert_msg(!bpf_prog_load(&prog, log_buf, sizeof(log_buf)), "load: %s", log_buf);
		ck_assert_msg(prog->jited, "not JITed: %s", prog->aux->jit_reason);
		ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
		n = uxdp_bpf_prog_jited_insns(prog->aux->id, code, sizeof(code));
		ck_assert_int_gt(n, 0);
		ck_assert_msg(!!memmem(code, n, inline_test, sizeof(inline_test)) ==
			      (types[t] == BPF_MAP_TYPE_DEVMAP), "map type %u: inlined or not", types[t]);
		for (k = 0; k < ARRAY_SIZE(idx); k++) {
			for (f = 0; f < ARRAY_SIZE(flags); f++) {
				enum bpf_abort_reason ra, rb;
				struct test_pkt pkt, copy;
				u64 vi, vj;

				test_pkt_init(&pkt, 60);
				memcpy(pkt.xdp.data, &idx[k], 8);
				memcpy((u8 *)pkt.xdp.data + 8, &flags[f], 8);
				copy = pkt;
				memset(ri, 0x5a, sizeof(*ri));
				vi = bpf_prog_run_interp(prog, &pkt.xdp, NULL, 0, &ra);
				want = *ri;
				pkt = copy;
				memset(ri, 0x5a, sizeof(*ri));
				vj = bpf_jit_prog_run(prog, &pkt.xdp, NULL, 0, &rb);
				ck_assert_msg(vi == vj && ra == rb && !memcmp(ri, &want, sizeof(want)),
					      "type %u index %#llx flags %#llx: interp %llu jit %llu, "
					      "redirect info %s", types[t], (unsigned long long)idx[k],
					      (unsigned long long)flags[f], (unsigned long long)vi,
					      (unsigned long long)vj,
					      memcmp(ri, &want, sizeof(want)) ? "differs" : "same");
				pkt = copy;
				ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), vj);
			}
		}
		bpf_prog_put(prog);
		uxdp_bpf_map_close(id);
	}
}
END_TEST

START_TEST(test_tail_call_limit)
{
	struct bpf_array *jt = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 1);
	struct bpf_array *cnt = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	struct bpf_insn insns[] = {
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_LD_MAP_VALUE(BPF_REG_2, cnt->map.id, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 0),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, 1),
		BPF_STX_MEM(BPF_DW, BPF_REG_2, BPF_REG_3, 0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
		BPF_TAIL_CALL_INSNS(jt->map.id, 0),
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	struct test_pkt pkt;

	ck_assert_msg(prog, "%s", log_buf);
	/* a tail call in the main program: the direct image, into itself */
	ck_assert_ptr_nonnull(prog->aux->jit_direct);
	ck_assert_ptr_nonnull(prog->jit_tail);
	test_pkt_init(&pkt, 14);
	jt->ptrs[0] = prog;
	ck_assert_uint_eq(bpf_jit_prog_run(prog, &pkt.xdp, NULL, 0, NULL), 1);
	ck_assert_uint_eq(*(u64 *)cnt->value, 1 + MAX_TAIL_CALL_CNT);
	jt->ptrs[0] = NULL;
	ck_assert_uint_eq(bpf_jit_prog_run(prog, &pkt.xdp, NULL, 0, NULL), 1);
	ck_assert_uint_eq(*(u64 *)cnt->value, 2 + MAX_TAIL_CALL_CNT);
	bpf_prog_put(prog);
	bpf_map_put(&jt->map);
	bpf_map_put(&cnt->map);
}
END_TEST

/*
 * A direct image tail-calls (slot 0) a program that has only the C-entry
 * image (a bpf-to-bpf call next to its tail call), which tail-calls itself
 * (slot 1) until the limit: it must start from the caller's count, so it
 * runs MAX_TAIL_CALL_CNT times, not one more; the interpreter agrees.
 */
START_TEST(test_tail_call_direct_to_entry)
{
	struct bpf_array *jt = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 2);
	struct bpf_array *cnt = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	struct bpf_insn caller[] = {
		BPF_TAIL_CALL_INSNS(jt->map.id, 0),
		BPF_MOV64_IMM(BPF_REG_0, 7),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn tgt_insns[] = {
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_CALL_REL(12),
		BPF_LD_MAP_VALUE(BPF_REG_2, cnt->map.id, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 0),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, 1),
		BPF_STX_MEM(BPF_DW, BPF_REG_2, BPF_REG_3, 0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_6),
		BPF_TAIL_CALL_INSNS(jt->map.id, 1),
		BPF_MOV64_IMM(BPF_REG_0, 5),
		BPF_EXIT_INSN(),
		/* sub() */
		BPF_MOV64_IMM(BPF_REG_0, 2),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog, *tgt;
	struct test_pkt pkt;

	prog = load_jit(caller, ARRAY_SIZE(caller), BPF_PROG_TYPE_XDP);
	ck_assert_msg(prog, "%s", log_buf);
	tgt = load_jit(tgt_insns, ARRAY_SIZE(tgt_insns), BPF_PROG_TYPE_XDP);
	ck_assert_msg(tgt, "%s", log_buf);
	ck_assert_ptr_nonnull(prog->aux->jit_direct);
	ck_assert_ptr_null(tgt->aux->jit_direct);
	ck_assert_ptr_null(tgt->jit_tail);
	test_pkt_init(&pkt, 14);
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), 7);	/* empty slot */
	jt->ptrs[0] = tgt;
	jt->ptrs[1] = tgt;
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), 5);
	ck_assert_uint_eq(*(u64 *)cnt->value, 2 * MAX_TAIL_CALL_CNT);
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 5);
	ck_assert_uint_eq(*(u64 *)cnt->value, 3 * MAX_TAIL_CALL_CNT);
	jt->ptrs[0] = NULL;
	jt->ptrs[1] = NULL;
	bpf_prog_put(prog);
	bpf_prog_put(tgt);
	bpf_map_put(&jt->map);
	bpf_map_put(&cnt->map);
}
END_TEST

/*
 * main -> sub -> tail call main -> sub -> ...: the call depth grows with
 * each round (CALL_DEPTH); with a big frame the stack runs out first
 * (TAIL_CALL_STACK).
 */
static void call_chain(s16 frame, enum bpf_abort_reason want)
{
	struct bpf_array *jt = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 1);
	struct bpf_insn insns[] = {
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -frame, 0),
		BPF_CALL_REL(3),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -frame),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
		BPF_EXIT_INSN(),
		/* sub(ctx) */
		BPF_TAIL_CALL_INSNS(jt->map.id, 0),
		BPF_MOV64_IMM(BPF_REG_0, 5),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	enum bpf_abort_reason reason;
	struct test_pkt pkt;

	ck_assert_msg(prog, "%s", log_buf);
	test_pkt_init(&pkt, 14);
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, &reason), 5);	/* empty slot: a miss */
	jt->ptrs[0] = prog;
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, &reason), 0);
	ck_assert_int_eq(reason, want);
	ck_assert_uint_eq(prog->aux->abort_cnt[want], 2);
	jt->ptrs[0] = NULL;
	bpf_prog_put(prog);
	bpf_map_put(&jt->map);
}

START_TEST(test_call_depth)
{
	call_chain(8, BPF_ABORT_CALL_DEPTH);
}
END_TEST

START_TEST(test_tail_call_stack)
{
	/* under the 256 bytes the verifier allows above a tail call, but two
	 * rounds of it no longer fit uxdp's 512-byte stack area */
	call_chain(240, BPF_ABORT_TAIL_CALL_STACK);
}
END_TEST

START_TEST(test_subprog_and_ctx)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_6, 100),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
		BPF_CALL_REL(3),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),	/* r6 kept across the call */
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_6, 1),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -16, 1),
		BPF_ST_MEM(BPF_DW, BPF_REG_1, 0, 9),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn ctx_insns[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		BPF_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		BPF_LDX_MEM(BPF_W, BPF_REG_5, BPF_REG_1, offsetof(struct xdp_md, rx_queue_index)),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2),
		BPF_ALU64_IMM(BPF_LSH, BPF_REG_3, 16),
		BPF_ALU64_IMM(BPF_LSH, BPF_REG_4, 8),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_3),
		BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_4),
		BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog, *pc;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 60);
	prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), 109);
	pc = load_jit(ctx_insns, ARRAY_SIZE(ctx_insns), BPF_PROG_TYPE_XDP);
	ck_assert_msg(pc, "%s", log_buf);
	ck_assert_uint_eq(run_xdp_both(pc, &pkt, NULL), (60u << 16) | (7u << 8) | 3u);
	pkt.xdp.rxq = NULL;
	ck_assert_uint_eq(run_xdp_both(pc, &pkt, NULL), 60u << 16);
	bpf_prog_put(prog);
	bpf_prog_put(pc);
}
END_TEST

/* @insns as XDP in the direct image (bpf_func is the image): @want on both runtimes */
static void run_direct(const struct bpf_insn *insns, u32 len, u64 want)
{
	struct bpf_prog *prog;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 60);
	prog = load_jit(insns, len, BPF_PROG_TYPE_XDP);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_ptr_nonnull(prog->aux->jit_direct);
	ck_assert_ptr_eq((void *)prog->bpf_func, prog->aux->jit_direct);
	ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), want);
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), want);
	bpf_prog_put(prog);
}

/*
 * A direct image's call site saves only the R6..R9 its callee writes:
 * main keeps R6 and R7 across a call to sub1, which writes neither but
 * calls sub2, which writes R7 (so sub1's call site saves R7); sub1 keeps
 * its own R8 across that call (sub2 leaves R8 alone).
 */
START_TEST(test_direct_call_saves)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_6, 1000),
		BPF_MOV64_IMM(BPF_REG_7, 200),
		BPF_CALL_REL(3),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
		BPF_EXIT_INSN(),
		/* sub1: r0 = sub2() + 30 + r8 (r8 = 5, kept across the call) */
		BPF_MOV64_IMM(BPF_REG_8, 5),
		BPF_CALL_REL(3),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 30),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_8),
		BPF_EXIT_INSN(),
		/* sub2: writes R7 */
		BPF_MOV64_IMM(BPF_REG_7, 7),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_7),
		BPF_EXIT_INSN(),
	};

	run_direct(insns, ARRAY_SIZE(insns), 7 + 30 + 5 + 1000 + 200);
}
END_TEST

/*
 * A program that can neither abort nor count runs in the direct image
 * (bpf_func is the image): stack, R6..R9 across a helper call that needs
 * an aligned stack, multiplies turned into lea and shifts (r13 as the
 * base), an aligned loop; the same result as the interpreter.
 */
START_TEST(test_direct_image)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_6, 5),
		BPF_MOV64_IMM(BPF_REG_7, 7),
		BPF_MOV64_IMM(BPF_REG_8, 11),
		BPF_MOV64_IMM(BPF_REG_9, 13),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 3),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -64, 4),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
		BPF_MOV64_IMM(BPF_REG_2, 8),
		BPF_CALL_HELPER(28),				/* fake_sum: 3 */
		BPF_ALU64_IMM(BPF_MUL, BPF_REG_0, 9),
		BPF_ALU64_IMM(BPF_MUL, BPF_REG_6, 5),
		BPF_ALU32_IMM(BPF_MUL, BPF_REG_7, 3),
		BPF_ALU64_IMM(BPF_MUL, BPF_REG_8, 8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_9),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -64),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
		BPF_MOV64_IMM(BPF_REG_2, 10),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_2),	/* loop: += 10..1 */
		BPF_ALU64_IMM(BPF_SUB, BPF_REG_2, 1),
		BPF_JMP_IMM(BPF_JNE, BPF_REG_2, 0, -3),
		BPF_EXIT_INSN(),
	};
	const u64 want = 27 + 25 + 21 + 88 + 13 + 3 + 4 + 55;
	run_direct(insns, ARRAY_SIZE(insns), want);
}
END_TEST

/*
 * bpf-to-bpf calls in the direct image: R6..R9 kept across two levels of
 * calls, each callee's stack below its caller's (a pointer into the
 * caller's frame written by the callee), a helper called from a callee
 * (the aligned rsp), a callee's own EXIT returning into its caller.
 */
START_TEST(test_direct_subprog_calls)
{
	struct bpf_insn insns[] = {
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 3),
		BPF_MOV64_IMM(BPF_REG_9, 13),
		BPF_MOV64_IMM(BPF_REG_8, 11),
		BPF_MOV64_IMM(BPF_REG_7, 7),
		BPF_MOV64_IMM(BPF_REG_6, 5),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
		BPF_CALL_REL(8),				/* sub1(fp - 8) */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_9),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -8),	/* 40, from sub1 */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
		BPF_ALU64_IMM(BPF_MUL, BPF_REG_0, 3),
		BPF_EXIT_INSN(),
		/* sub1(p): *p = 40; return sum([fp - 16], 8) + sub2(fp - 16) */
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_1),
		BPF_MOV64_IMM(BPF_REG_7, 1000),
		BPF_MOV64_IMM(BPF_REG_8, 2000),
		BPF_MOV64_IMM(BPF_REG_9, 3000),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -16, 2),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -16),
		BPF_MOV64_IMM(BPF_REG_2, 8),
		BPF_CALL_HELPER(28),				/* fake_sum: 2 */
		BPF_MOV64_REG(BPF_REG_7, BPF_REG_0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -16),
		BPF_CALL_REL(5),				/* sub2(fp - 16): 6 */
		BPF_ST_MEM(BPF_DW, BPF_REG_6, 0, 40),		/* r6 kept across sub2 */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_10, -16),	/* 2, kept */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),
		BPF_EXIT_INSN(),
		/* sub2(p): [fp - 8] = *p; return [fp - 8] * 3 */
		BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 0),
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_2, -8),
		BPF_MOV64_IMM(BPF_REG_6, 77),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_ALU64_IMM(BPF_MUL, BPF_REG_0, 3),
		BPF_EXIT_INSN(),
	};
	const u64 want = 3 * ((2 + 6 + 2) + 5 + 7 + 11 + 13 + 40);
	run_direct(insns, ARRAY_SIZE(insns), want);
}
END_TEST

/* Leaves @v in the native stack below the caller, where a direct image's frame goes. */
static noinline void dirty_native_stack(u64 v)
{
	volatile u64 junk[256];
	u32 k;

	for (k = 0; k < ARRAY_SIZE(junk); k++)
		junk[k] = v;
}

/*
 * A program that reads stack it never wrote (vi->zero_stack) still runs
 * in the direct image and reads zeros there, in the main program's frame
 * and in a callee's, whatever the native stack held before; 24 bytes of
 * main frame: the 16-byte stores and the 8-byte tail.
 */
START_TEST(test_direct_zero_stack)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -24),
		BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_10, -8),
		BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_2),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -24, 0x1234),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 0x5678),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -16, 1),
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_0),
		BPF_CALL_REL(3),
		BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_6),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1),
		BPF_EXIT_INSN(),
		/* sub: [fp - 8] read before it is written */
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 0x9abc),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	struct test_pkt pkt;
	u32 r;

	test_pkt_init(&pkt, 60);
	prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert(((const struct bpf_verifier_info *)prog->aux->verifier_info)->zero_stack);
	ck_assert_ptr_nonnull(prog->aux->jit_direct);
	for (r = 0; r < 3; r++) {
		dirty_native_stack(0xdeadbeefcafeULL + r);
		ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 1);
		ck_assert_uint_eq(run_xdp_both(prog, &pkt, NULL), 1);
	}
	bpf_prog_put(prog);
}
END_TEST

/* may_goto, gotol, load-acquire/store-release: whatever the verifier takes, both agree */
START_TEST(test_misc_ops)
{
	struct bpf_insn may_goto[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_RAW_INSN(BPF_JMP | BPF_JCOND, 0, 0, 3, 0),	/* may_goto +3 */
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_JMP_REG(BPF_JNE, BPF_REG_0, BPF_REG_2, -4),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn gotol[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_RAW_INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, 2),	/* gotol +2 */
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 100),
		BPF_EXIT_INSN(),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1),
		BPF_JMP_REG(BPF_JGT, BPF_REG_2, BPF_REG_0, -2),
		BPF_RAW_INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, -5),	/* gotol -5 */
	};
	struct bpf_insn acq_rel[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 0),
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_2, -8),
		BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
		/* r4 = load_acquire((u64 *)(r3 + 0)): the address is src */
		BPF_RAW_INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_4, BPF_REG_3, 0, BPF_LOAD_ACQ),
		BPF_MOV64_REG(BPF_REG_3, BPF_REG_4),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, 5),
		BPF_RAW_INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_10, BPF_REG_2, -8,
			     BPF_STORE_REL),
		BPF_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_10, -8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_3),
		BPF_EXIT_INSN(),
	};
	struct {
		const struct bpf_insn *insns;
		u32 len;
	} progs[] = {
		{ may_goto, ARRAY_SIZE(may_goto) },
		{ gotol, ARRAY_SIZE(gotol) },
		{ acq_rel, ARRAY_SIZE(acq_rel) },
	};
	static const u64 inputs[] = { 0, 1, 5, 1000, 3000000, 9000000, (u64)-1 };
	u32 p, k, loaded = 0;

	bpf_jit_enable = 1;
	for (p = 0; p < ARRAY_SIZE(progs); p++) {
		struct bpf_prog *prog = load_prog(progs[p].insns, progs[p].len, BPF_PROG_TYPE_UNSPEC,
						  log_buf, sizeof(log_buf), NULL);

		if (!prog)
			continue;
		loaded++;
		ck_assert_msg(prog->jited, "%s", prog->aux->jit_reason);
		for (k = 0; k < ARRAY_SIZE(inputs); k++) {
			u64 in = inputs[k];

			run_raw_both(prog, &in, sizeof(in), NULL);
		}
		bpf_prog_put(prog);
	}
	/* acq_rel is straight-line; the two loops count to a value from memory,
	 * which the verifier (as Linux's) may refuse as too complex */
	ck_assert_msg(loaded >= 1, "loaded %u: %s", loaded, log_buf);
}
END_TEST

/*
 * A JITed program's tail call into a program loaded with the knob at 0
 * (no image) is a miss, counted as a tail call; the interpreter runs the
 * same target (the documented difference; the kernel refuses the mix).
 */
START_TEST(test_tail_call_to_interpreted)
{
	struct bpf_array *jt = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 1);
	struct bpf_insn caller[] = {
		BPF_TAIL_CALL_INSNS(jt->map.id, 0),
		BPF_MOV64_IMM(BPF_REG_0, 7),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn tgt_insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 42),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *jited, *interp, *tgt_jit, *tgt_interp;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 14);
	jited = load_jit(caller, ARRAY_SIZE(caller), BPF_PROG_TYPE_XDP);
	tgt_jit = load_jit(tgt_insns, ARRAY_SIZE(tgt_insns), BPF_PROG_TYPE_XDP);
	bpf_jit_enable = 0;
	interp = load_prog(caller, ARRAY_SIZE(caller), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf),
			   NULL);
	tgt_interp = load_prog(tgt_insns, ARRAY_SIZE(tgt_insns), BPF_PROG_TYPE_XDP, log_buf,
			       sizeof(log_buf), NULL);
	bpf_jit_enable = 1;
	ck_assert(jited && tgt_jit && interp && tgt_interp);
	ck_assert(!interp->jited && !tgt_interp->jited);
	ck_assert_ptr_nonnull(jited->aux->jit_direct);
	jt->ptrs[0] = tgt_jit;
	ck_assert_uint_eq(bpf_prog_run(jited, &pkt.xdp), 42);
	ck_assert_uint_eq(bpf_prog_run(interp, &pkt.xdp), 42);	/* interpreted -> JITed */
	jt->ptrs[0] = tgt_interp;
	ck_assert_uint_eq(bpf_prog_run(interp, &pkt.xdp), 42);
	ck_assert_uint_eq(bpf_prog_run(jited, &pkt.xdp), 7);	/* JITed -> no image: a miss */
	jt->ptrs[0] = NULL;
	bpf_prog_put(jited);
	bpf_prog_put(interp);
	bpf_prog_put(tgt_jit);
	bpf_prog_put(tgt_interp);
	bpf_map_put(&jt->map);
}
END_TEST

/*
 * Jumps of every distance around the rel8/rel32 boundary, forward over
 * fillers of different encoded sizes and backward over the whole body: the
 * passes must converge on offsets that land where the interpreter lands.
 */
START_TEST(test_jump_sizes)
{
	static struct bpf_insn insns[4096];
	struct bpf_prog *prog;
	u32 n = 0, k, f, r, loop;

	insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0);
	insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 8);
	insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_4, BPF_REG_1, 16);
	insns[n++] = BPF_ALU64_IMM(BPF_AND, BPF_REG_4, 3);
	insns[n++] = BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 1);
	/* unknown to the verifier, so the 2^120 paths through the blocks
	 * end in equal states and are pruned */
	insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_1, 16);
	loop = n;
	for (k = 0; k < 120; k++) {
		u32 d = (k * 7) % 37 + 1;

		/* a 64-bit op at every target: a landing one byte off shows */
		insns[n++] = BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, (s32)k + 1);
		/* reloaded: what a test taught the verifier about r2 is dead at the joins */
		insns[n++] = BPF_LDX_MEM(BPF_DW, BPF_REG_2, BPF_REG_1, 8);
		insns[n++] = BPF_JMP_IMM(BPF_JSET, BPF_REG_2, 1 << (k % 31), d);
		for (f = 0; f < d; f++) {
			switch ((k + f) % 5) {
			case 0: insns[n++] = BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, (s32)(k + f)); break;
			case 1: insns[n++] = BPF_ALU64_IMM(BPF_XOR, BPF_REG_3, 0x12345 * (s32)(f + 1)); break;
			case 2: insns[n++] = BPF_ALU64_IMM(BPF_MUL, BPF_REG_0, 3); break;
			case 3: insns[n++] = BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_3); break;
			default: insns[n++] = BPF_ALU64_IMM(BPF_RSH, BPF_REG_3, 1); break;
			}
		}
		/* a short backward jump inside the block: taken once */
		if (k % 9 == 0) {
			insns[n++] = BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, 1);
			insns[n++] = BPF_JMP_IMM(BPF_JSET, BPF_REG_3, 1, 1);
			insns[n++] = BPF_JMP_A(-3);
		}
	}
	insns[n++] = BPF_ALU64_IMM(BPF_SUB, BPF_REG_4, 1);
	insns[n] = BPF_JMP_IMM(BPF_JNE, BPF_REG_4, 0, (s16)(loop - n - 1));
	n++;
	insns[n++] = BPF_ALU64_REG(BPF_XOR, BPF_REG_0, BPF_REG_3);
	insns[n++] = BPF_EXIT_INSN();
	ck_assert_uint_lt(n, ARRAY_SIZE(insns));
	prog = load_jit(insns, n, BPF_PROG_TYPE_UNSPEC);
	ck_assert_msg(prog, "%s", log_buf);
	for (r = 0; r < 300; r++) {
		u64 mem[3] = { pick(), r < 2 ? (u64)-(s64)r : rnd(), rnd() };

		run_raw_both(prog, mem, sizeof(mem), NULL);
	}
	bpf_prog_put(prog);
}
END_TEST

/* the knob off: the interpreter, and why */
START_TEST(test_jit_disabled)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 2),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 14);
	bpf_jit_enable = 0;
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_ptr_nonnull(prog);
	ck_assert(!prog->jited);
	ck_assert_ptr_null(prog->aux->jit_image);
	ck_assert_str_eq(prog->aux->jit_reason, "net.core.bpf_jit_enable is 0");
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 3);
	bpf_prog_put(prog);
	bpf_jit_enable = 1;
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert(prog->jited);
	ck_assert_uint_gt(prog->jited_len, 0);
	ck_assert_str_eq(prog->aux->jit_reason, "");
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 3);
	bpf_prog_put(prog);
}
END_TEST

/*
 * uxdp_bpf_prog_jited_insns(): the code bpf_func enters, as bpftool's
 * `prog dump jited`; XDP "r0 = 2; exit" is mov eax, 2; ret. A raw
 * program has only the C entry (push rbx first); an interpreted one none.
 */
START_TEST(test_jited_insns)
{
	static const u8 pass[] = { 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3 };
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 2),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog, *raw;
	u8 code[64];

	prog = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
	ck_assert_int_eq(uxdp_bpf_prog_jited_insns(prog->aux->id, NULL, 0), sizeof(pass));
	memset(code, 0, sizeof(code));
	ck_assert_int_eq(uxdp_bpf_prog_jited_insns(prog->aux->id, code, 3), sizeof(pass));
	ck_assert_mem_eq(code, pass, 3);
	ck_assert_uint_eq(code[3], 0);
	ck_assert_int_eq(uxdp_bpf_prog_jited_insns(prog->aux->id, code, sizeof(code)), sizeof(pass));
	ck_assert_mem_eq(code, pass, sizeof(pass));
	raw = load_jit(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_UNSPEC);
	ck_assert_int_gt(bpf_prog_alloc_id(raw), 0);
	ck_assert_ptr_null(raw->aux->jit_direct);
	ck_assert_int_eq(uxdp_bpf_prog_jited_insns(raw->aux->id, code, sizeof(code)),
			 (int)raw->jited_len);
	ck_assert_uint_eq(code[0], 0x53);
	bpf_prog_put(raw);
	ck_assert_int_eq(uxdp_bpf_prog_jited_insns(0xfffffff0u, code, sizeof(code)), -ENOENT);
	bpf_prog_put(prog);
	bpf_jit_enable = 0;
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_int_gt(bpf_prog_alloc_id(prog), 0);
	ck_assert_int_eq(uxdp_bpf_prog_jited_insns(prog->aux->id, code, sizeof(code)), 0);
	bpf_prog_put(prog);
	bpf_jit_enable = 1;
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("arch/x86/net/bpf_jit_comp");
	TCase *tc = tcase_create("jit");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_alu_ops);
	tcase_add_test(tc, test_jmp_ops);
	tcase_add_test(tc, test_div_special);
	tcase_add_test(tc, test_direct_image);
	tcase_add_test(tc, test_fused_pairs);
	tcase_add_test(tc, test_rotate_idioms);
	tcase_add_test(tc, test_lea_and_latch);
	tcase_add_test(tc, test_flag_test_branch);
	tcase_add_test(tc, test_direct_subprog_calls);
	tcase_add_test(tc, test_direct_zero_stack);
	tcase_add_test(tc, test_tail_call_limit);
	tcase_add_test(tc, test_tail_call_direct_to_entry);
	tcase_add_test(tc, test_call_depth);
	tcase_add_test(tc, test_tail_call_stack);
	tcase_add_test(tc, test_subprog_and_ctx);
	tcase_add_test(tc, test_direct_call_saves);
	tcase_add_test(tc, test_misc_ops);
	tcase_add_test(tc, test_jump_sizes);
	tcase_add_test(tc, test_tail_call_to_interpreted);
	tcase_add_test(tc, test_jit_disabled);
	tcase_add_test(tc, test_jited_insns);
	tcase_add_test(tc, test_inline_array_lookups);
	tcase_add_test(tc, test_inline_redirect_map);
	suite_add_tcase(s, tc);
	return s;
}
