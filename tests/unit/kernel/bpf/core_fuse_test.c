// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/core.c superinstructions (bpf_fuse_at()): each fused sequence
 * must do exactly what its slots do one by one, including the registers it
 * leaves behind, jumps into the middle of a sequence, and the inlined
 * ARRAY/PERCPU_ARRAY lookups (real arraymap.c maps: hit, miss, this
 * worker's per-CPU copy). Expected values are computed here, not by
 * another run of the interpreter.
 */
#include <linux/netdevice.h>
#include <linux/smp.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>

#include "uxdp_test.h"
#include "test_pkt.h"
#include "bpf_insn_macros.h"

static char log_buf[4096];

/* The shared packet (test_pkt.h), refilled with a pattern of its own. */
static void fuse_pkt_init(struct test_pkt *p, u32 len)
{
	test_pkt_init(p, len);
	for (u32 i = 0; i < sizeof(p->buf); i++)
		p->buf[i] = (u8)(i * 7 + 3);
}

static u32 run_xdp(const struct bpf_insn *insns, u32 len, u32 pkt_len)
{
	struct bpf_prog *prog;
	struct test_pkt pkt;
	u32 ret;

	fuse_pkt_init(&pkt, pkt_len);
	prog = load_prog(insns, len, BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ret = bpf_prog_run(prog, &pkt.xdp);
	bpf_prog_put(prog);
	return ret;
}

#define LD_DATA(R)	BPF_LDX_MEM(BPF_W, R, BPF_REG_1, offsetof(struct xdp_md, data))
#define LD_DATA_END(R)	BPF_LDX_MEM(BPF_W, R, BPF_REG_1, offsetof(struct xdp_md, data_end))

/* r4 = r2 + 14 vs data_end, then return r4 - r2 + 1000 * (taken) */
START_TEST(test_fuse_pkt_check)
{
	struct bpf_insn insns[] = {
		LD_DATA(BPF_REG_2),
		LD_DATA_END(BPF_REG_3),
		BPF_MOV64_IMM(BPF_REG_9, 0),
		BPF_MOV64_REG(BPF_REG_4, BPF_REG_2),		/* fused: 3 slots */
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 14),
		BPF_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 3),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_4),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2),
		BPF_EXIT_INSN(),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_4),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_2),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1000),
		BPF_EXIT_INSN(),
	};

	ck_assert_uint_eq(run_xdp(insns, ARRAY_SIZE(insns), 14), 14);
	ck_assert_uint_eq(run_xdp(insns, ARRAY_SIZE(insns), 13), 1014);
	ck_assert_uint_eq(run_xdp(insns, ARRAY_SIZE(insns), 60), 14);
}
END_TEST

/* A jump to the second slot of "r5 = r4; r5 += 3" must skip the move. */
START_TEST(test_fuse_jump_into_middle)
{
	struct bpf_insn insns[] = {
		LD_DATA(BPF_REG_2),
		LD_DATA_END(BPF_REG_3),
		BPF_MOV64_REG(BPF_REG_6, BPF_REG_3),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_6, BPF_REG_2),	/* len */
		BPF_MOV64_IMM(BPF_REG_4, 10),
		BPF_MOV64_IMM(BPF_REG_5, 100),
		BPF_JMP_IMM(BPF_JGT, BPF_REG_6, 20, 1),		/* long: into the middle */
		BPF_MOV64_REG(BPF_REG_5, BPF_REG_4),		/* fused head */
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_5, 3),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_5),
		BPF_EXIT_INSN(),
	};

	ck_assert_uint_eq(run_xdp(insns, ARRAY_SIZE(insns), 14), 13);
	ck_assert_uint_eq(run_xdp(insns, ARRAY_SIZE(insns), 60), 103);
}
END_TEST

/*
 * xdp1's h_proto idiom: two byte loads, shift, or; then mask and compare.
 * Returns the 16-bit value, or 0xdead0000 | value when the compare hits.
 */
static u32 run_proto(u32 pkt_len, s32 want, bool jne, bool mov)
{
	struct bpf_insn insns[] = {
		LD_DATA(BPF_REG_2),
		LD_DATA_END(BPF_REG_3),
		BPF_MOV64_REG(BPF_REG_4, BPF_REG_2),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 14),
		BPF_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 12),
		BPF_LDX_MEM(BPF_B, BPF_REG_5, BPF_REG_2, 12),	/* fused: 4 slots */
		BPF_LDX_MEM(BPF_B, BPF_REG_6, BPF_REG_2, 13),
		BPF_ALU64_IMM(BPF_LSH, BPF_REG_6, 8),
		BPF_ALU64_REG(BPF_OR, BPF_REG_6, BPF_REG_5),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_6),
		/* fused: 2 slots, or 3 with the move */
		mov ? BPF_MOV64_REG(BPF_REG_7, BPF_REG_6) : BPF_MOV64_IMM(BPF_REG_7, 0),
		BPF_ALU64_IMM(BPF_AND, mov ? BPF_REG_7 : BPF_REG_6, 0xffff),
		BPF_JMP_IMM(jne ? BPF_JNE : BPF_JEQ, mov ? BPF_REG_7 : BPF_REG_6, want, 2),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_5),	/* r5 = low byte */
		BPF_EXIT_INSN(),
		BPF_ALU64_IMM(BPF_OR, BPF_REG_0, 0x0eadbeef),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};

	return run_xdp(insns, ARRAY_SIZE(insns), pkt_len);
}

START_TEST(test_fuse_ld_be16_and_jcc)
{
	/* bytes 12/13 of the frame: (256 + 12) * 7 + 3, (256 + 13) * 7 + 3 */
	u32 lo = (u8)((XDP_PACKET_HEADROOM + 12) * 7 + 3);
	u32 hi = (u8)((XDP_PACKET_HEADROOM + 13) * 7 + 3);
	u32 v = hi << 8 | lo;
	int jne, mov;

	for (mov = 0; mov < 2; mov++) {
		for (jne = 0; jne < 2; jne++) {
			ck_assert_uint_eq(run_proto(14, (s32)v, jne, mov),
					  jne ? v + lo : (v | 0x0eadbeef));
			ck_assert_uint_eq(run_proto(14, (s32)v + 1, jne, mov),
					  jne ? (v | 0x0eadbeef) : v + lo);
			ck_assert_uint_eq(run_proto(10, (s32)v, jne, mov), 1);
		}
	}
}
END_TEST

/*
 * r0 = lookup(map, key); if hit: *(T *)r0 += 5 (ldx/add/stx), return the
 * new value + 1000; on a miss return 77.
 */
static u32 run_lookup(struct bpf_map *map, u32 key, bool dw)
{
	u32 id = map->id;
	struct bpf_insn insns[] = {
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, key),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_LD_MAP_FD(BPF_REG_1, id),			/* fused: 3 slots */
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 7),
		BPF_LDX_MEM(dw ? BPF_DW : BPF_W, BPF_REG_3, BPF_REG_0, 0),	/* fused: 3 */
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, 5),
		BPF_STX_MEM(dw ? BPF_DW : BPF_W, BPF_REG_0, BPF_REG_3, 0),
		BPF_LDX_MEM(dw ? BPF_DW : BPF_W, BPF_REG_0, BPF_REG_0, 0),
		BPF_MOV64_IMM(BPF_REG_9, 0),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1000),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 77),			/* fused: r0 = K; exit */
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	struct test_pkt pkt;
	u32 ret;

	fuse_pkt_init(&pkt, 14);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ret = bpf_prog_run(prog, &pkt.xdp);
	bpf_prog_put(prog);
	return ret;
}

static struct bpf_map *create_map(enum bpf_map_type type, u32 value_size, u32 max_entries,
				  int *id)
{
	*id = uxdp_bpf_map_create(type, "fuse", 4, value_size, max_entries, NULL);
	ck_assert_int_gt(*id, 0);
	return bpf_map_get((u32)*id);
}

START_TEST(test_fuse_array_lookup_inc)
{
	u32 key, run;
	int id;
	struct bpf_map *map = create_map(BPF_MAP_TYPE_ARRAY, 8, 3, &id);
	u64 *p;

	for (run = 1; run <= 2; run++) {
		for (key = 0; key < 3; key++) {
			ck_assert_uint_eq(run_lookup(map, key, true), 1000 + 5 * run);
			p = map->ops->map_lookup_elem(map, &key);
			ck_assert_ptr_nonnull(p);
			ck_assert_uint_eq(*p, 5 * run);
		}
		/* keys past max_entries miss, even below the rounded-up size */
		ck_assert_uint_eq(run_lookup(map, 3, true), 77);
		ck_assert_uint_eq(run_lookup(map, 0xffffffffu, true), 77);
	}
	/* the 32-bit increment writes 4 bytes only */
	key = 1;
	p = map->ops->map_lookup_elem(map, &key);
	*p = 0xaaaaaaaa00000001ull;
	ck_assert_uint_eq(run_lookup(map, 1, false), 1006);
	ck_assert_uint_eq(*p, 0xaaaaaaaa00000006ull);
	uxdp_bpf_map_close((u32)id);
}
END_TEST

START_TEST(test_fuse_percpu_array_lookup)
{
	u64 vals[NR_CPUS];
	u32 key = 2, run;
	struct bpf_map *map;
	int id, cpu;

	ck_assert_int_eq(uxdp_set_nr_cpus(4), 0);
	map = create_map(BPF_MAP_TYPE_PERCPU_ARRAY, 8, 4, &id);
	for (run = 1; run <= 2; run++) {
		uxdp_worker_bind_cpu(2);
		ck_assert_uint_eq(run_lookup(map, 2, true), 1000 + 5 * run);
		uxdp_worker_bind_cpu(3);
		ck_assert_uint_eq(run_lookup(map, 4, true), 77);
	}
	uxdp_worker_bind_cpu(0);
	memset(vals, 0xff, sizeof(vals));
	ck_assert_int_eq(map->ops->map_lookup_elem_sys(map, &key, vals, 0), 0);
	for (cpu = 0; cpu < 4; cpu++)
		ck_assert_uint_eq(vals[cpu], cpu == 2 ? 10 : 0);
	uxdp_bpf_map_close((u32)id);
}
END_TEST

/* "r0 = K; exit" programs get a bpf_func that returns K (sign: u32 of K) */
START_TEST(test_fuse_ret_k)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, -2),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn later[] = {
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 1, 1),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 3),			/* fused in the middle */
		BPF_EXIT_INSN(),
	};

	ck_assert_uint_eq(run_xdp(insns, ARRAY_SIZE(insns), 14), 0xfffffffeu);
	ck_assert_uint_eq(run_xdp(later, ARRAY_SIZE(later), 14), 3);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("bpf_core_fuse");
	TCase *tc = tcase_create("fuse");

	tcase_add_test(tc, test_fuse_pkt_check);
	tcase_add_test(tc, test_fuse_jump_into_middle);
	tcase_add_test(tc, test_fuse_ld_be16_and_jcc);
	tcase_add_test(tc, test_fuse_array_lookup_inc);
	tcase_add_test(tc, test_fuse_percpu_array_lookup);
	tcase_add_test(tc, test_fuse_ret_k);
	suite_add_tcase(s, tc);
	return s;
}
