// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/core.c: program lifecycle, the interpreter's kernel semantics
 * that need maps or a context (tail calls, ctx field loads, run-time
 * checks and their per-program abort counters). ISA semantics are covered
 * by tests/bpf (conformance and tests/bpf/data).
 */
#include <linux/netdevice.h>
#include <net/xdp.h>

#include "uxdp_test.h"
#include "test_pkt.h"
#include "bpf_insn_macros.h"

static char log_buf[4096];

START_TEST(test_prog_alloc)
{
	struct bpf_prog *prog;
	u32 i;

	ck_assert_int_eq(PTR_ERR(bpf_prog_alloc(0)), -E2BIG);
	ck_assert_int_eq(PTR_ERR(bpf_prog_alloc(BPF_MAX_INSNS + 1)), -E2BIG);
	prog = bpf_prog_alloc(16);
	ck_assert(!IS_ERR(prog));
	ck_assert_ptr_nonnull(prog->aux);
	ck_assert_uint_eq(prog->len, 16);
	ck_assert_int_eq(prog->refcnt, 1);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(prog->insnsi[i].code, 0);
	bpf_prog_inc(prog);
	ck_assert_int_eq(prog->refcnt, 2);
	bpf_prog_put(prog);
	ck_assert_int_eq(prog->refcnt, 1);
	bpf_prog_put(prog);
	bpf_prog_put(NULL);
	bpf_prog_free(NULL);
}
END_TEST

START_TEST(test_prog_put_drops_map_refs)
{
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	struct bpf_insn insns[] = {
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_LD_MAP_FD(BPF_REG_2, a->map.id),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;

	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(prog->aux->used_map_cnt, 1);
	ck_assert_int_eq(a->map.refcnt, 2);
	/* ld_imm64 now holds the map pointer as a plain constant */
	ck_assert_uint_eq(prog->insnsi[0].src_reg, 0);
	ck_assert_uint_eq((u64)(u32)prog->insnsi[0].imm | (u64)(u32)prog->insnsi[1].imm << 32,
			  (u64)(uintptr_t)&a->map);
	bpf_prog_put(prog);
	ck_assert_int_eq(a->map.refcnt, 1);
	bpf_map_put(&a->map);
}
END_TEST

/* r0 = 7 unless the tail call to jmp_table[@index] happens */
static struct bpf_prog *tail_caller(struct bpf_array *jt, s32 index)
{
	struct bpf_insn insns[] = {
		BPF_LD_MAP_FD(BPF_REG_2, jt->map.id),
		BPF_MOV64_IMM(BPF_REG_3, index),
		BPF_CALL_HELPER(BPF_FUNC_tail_call),
		BPF_MOV64_IMM(BPF_REG_0, 7),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;

	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(prog->insnsi[3].code, BPF_JMP | BPF_TAIL_CALL);
	return prog;
}

START_TEST(test_tail_call)
{
	struct bpf_array *jt = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 4);
	struct bpf_insn tgt_insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 42),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *tgt, *hit, *miss_range, *miss_empty, *miss_neg;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 14);
	tgt = load_prog(tgt_insns, 2, BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_ptr_nonnull(tgt);
	jt->ptrs[1] = tgt;
	hit = tail_caller(jt, 1);
	miss_range = tail_caller(jt, 4);
	miss_empty = tail_caller(jt, 2);
	miss_neg = tail_caller(jt, -1);
	ck_assert_uint_eq(bpf_prog_run(hit, &pkt.xdp), 42);
	/* misses fall through to the next instruction */
	ck_assert_uint_eq(bpf_prog_run(miss_range, &pkt.xdp), 7);
	ck_assert_uint_eq(bpf_prog_run(miss_empty, &pkt.xdp), 7);
	ck_assert_uint_eq(bpf_prog_run(miss_neg, &pkt.xdp), 7);
	jt->ptrs[1] = NULL;
	bpf_prog_put(hit);
	bpf_prog_put(miss_range);
	bpf_prog_put(miss_empty);
	bpf_prog_put(miss_neg);
	bpf_prog_put(tgt);
	bpf_map_put(&jt->map);
}
END_TEST

START_TEST(test_tail_call_limit)
{
	struct bpf_array *jt = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 1);
	struct bpf_array *cnt = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	/* counts its runs in cnt[0], then tail-calls itself */
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
	struct bpf_prog *prog;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 14);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	jt->ptrs[0] = prog;
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 1);
	/* the first run plus MAX_TAIL_CALL_CNT (33) tail calls, as the kernel */
	ck_assert_uint_eq(*(u64 *)cnt->value, 1 + MAX_TAIL_CALL_CNT);
	jt->ptrs[0] = NULL;
	bpf_prog_put(prog);
	bpf_map_put(&jt->map);
	bpf_map_put(&cnt->map);
}
END_TEST

START_TEST(test_ctx_fields)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		BPF_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, offsetof(struct xdp_md, ingress_ifindex)),
		BPF_LDX_MEM(BPF_W, BPF_REG_5, BPF_REG_1, offsetof(struct xdp_md, rx_queue_index)),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_3, BPF_REG_2),	/* len */
		BPF_ALU64_IMM(BPF_LSH, BPF_REG_3, 16),
		BPF_ALU64_IMM(BPF_LSH, BPF_REG_4, 8),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_3),
		BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_4),
		BPF_ALU64_REG(BPF_OR, BPF_REG_0, BPF_REG_5),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 60);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	/* data/data_end are rewritten to the 64-bit xdp_buff loads */
	ck_assert_uint_eq(prog->insnsi[0].code, BPF_LDX | BPF_MEM | BPF_DW);
	ck_assert_int_eq(prog->insnsi[0].off, offsetof(struct xdp_buff, data));
	ck_assert_int_eq(prog->insnsi[1].off, offsetof(struct xdp_buff, data_end));
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), (60u << 16) | (7u << 8) | 3u);
	bpf_prog_put(prog);
}
END_TEST

START_TEST(test_subprog_writes_caller_stack)
{
	/* f(&fp[-8]) stores 9 through the pointer into the caller's frame */
	struct bpf_insn insns[] = {
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, -8),
		BPF_CALL_REL(2),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_EXIT_INSN(),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -16, 1),
		BPF_ST_MEM(BPF_DW, BPF_REG_1, 0, 9),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 14);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(prog->aux->stack_depth, 8);
	ck_assert_uint_eq(prog->aux->max_stack_depth, 24);
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 9);
	bpf_prog_put(prog);
}
END_TEST

START_TEST(test_raw_mem)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_2),
		BPF_EXIT_INSN(),
	};
	u64 mem = 0x1122334455667788ULL;
	enum bpf_abort_reason r;
	struct bpf_prog *prog;

	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_UNSPEC, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(bpf_prog_run_raw(prog, &mem, 8, &r), 0x1122334455667788ULL + 8);
	ck_assert_int_eq(r, BPF_ABORT_NONE);
	ck_assert_uint_eq(bpf_prog_run_raw(prog, &mem, 4, &r), 0);
	ck_assert_int_eq(r, BPF_ABORT_MEM_OOB);
	bpf_prog_put(prog);
}
END_TEST

/*
 * The hardened runtime: proven accesses get the checked forms and the
 * budget is on, so an access a checker proved wrongly aborts instead of
 * touching memory. The "wrong proof" is made by moving the load's offset
 * out of the stack after the check.
 */
START_TEST(test_hardened_checks_proven)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_1, 5),
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_1, -8),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_EXIT_INSN(),
	};
	struct bpf_verifier_info *vi;
	struct bpf_prog *prog, *hard;
	struct test_pkt pkt;

	test_pkt_init(&pkt, 14);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	vi = prog->aux->verifier_info;
	ck_assert(!prog->aux->hardened);
	ck_assert(!vi->needs_budget);
	ck_assert_uint_eq(prog->insnsi[1].code, BPF_STX | BPF_MEM | BPF_DW);
	ck_assert_uint_eq(prog->insnsi[2].code, BPF_LDX | BPF_MEM | BPF_DW);

	bpf_hardened = 1;	/* net.core.bpf_hardened for the next load */
	hard = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	bpf_hardened = 0;
	ck_assert_msg(hard, "%s", log_buf);
	vi = hard->aux->verifier_info;
	ck_assert(hard->aux->hardened);
	ck_assert(vi->needs_budget);
	ck_assert_uint_eq(hard->insnsi[1].code, BPF_STX | BPF_PROBE_MEM | BPF_DW);
	ck_assert_uint_eq(hard->insnsi[2].code, BPF_LDX | BPF_PROBE_MEM | BPF_DW);
	ck_assert_uint_eq(BPF_RGN_KIND(vi->insn_aux[2]), BPF_RGN_STACK);
	ck_assert_uint_eq(bpf_prog_run(prog, &pkt.xdp), 5);
	ck_assert_uint_eq(bpf_prog_run(hard, &pkt.xdp), 5);

	/* a proof that was wrong: the load now reads above the stack */
	hard->insnsi[2].off = 8;
	ck_assert_int_eq(bpf_prog_select_runtime(hard), 0);
	ck_assert_uint_eq(bpf_prog_run(hard, &pkt.xdp), XDP_ABORTED);
	ck_assert_uint_eq(hard->aux->abort_cnt[BPF_ABORT_STACK_OOB], 1);
	ck_assert_uint_eq(prog->aux->abort_cnt[BPF_ABORT_STACK_OOB], 0);
	bpf_prog_put(hard);
	bpf_prog_put(prog);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/core");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_prog_alloc);
	tcase_add_test(tc, test_prog_put_drops_map_refs);
	tcase_add_test(tc, test_tail_call);
	tcase_add_test(tc, test_tail_call_limit);
	tcase_add_test(tc, test_ctx_fields);
	tcase_add_test(tc, test_subprog_writes_caller_stack);
	tcase_add_test(tc, test_raw_mem);
	tcase_add_test(tc, test_hardened_checks_proven);
	suite_add_tcase(s, tc);
	return s;
}
