// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/verifier.c: what needs maps, helpers or a look at the patched
 * instructions (map value bounds, NULL checks, pointer leaks, read-only
 * maps, dead code, checked vs proven accesses, loops). Instruction-level
 * rejections without maps live in tests/bpf/data.
 */
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>

#include "uxdp_test.h"
#include "bpf_insn_macros.h"
#include "test_pkt.h"

static char log_buf[4096];

static int check(const struct bpf_insn *insns, u32 len, enum bpf_prog_type type)
{
	struct bpf_prog *prog;
	int err;

	prog = load_prog(insns, len, type, log_buf, sizeof(log_buf), &err);
	bpf_prog_put(prog);
	return err;
}

#define assert_rejected(insns, err, msg)					\
	do {									\
		ck_assert_int_eq(check(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP), err); \
		ck_assert_msg(strstr(log_buf, msg), "log '%s' lacks '%s'", log_buf, msg); \
	} while (0)

/* r0 = lookup(map, &(u32)0 on the stack) */
#define LOOKUP_KEY0(map_id)						\
	BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0),				\
	BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),				\
	BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),				\
	BPF_LD_MAP_FD(BPF_REG_1, map_id),				\
	BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem)

START_TEST(test_map_value_bounds)
{
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 4);
	struct bpf_insn ok[] = {
		LOOKUP_KEY0(a->map.id),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_ST_MEM(BPF_W, BPF_REG_0, 4, 1),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn oob[] = {
		LOOKUP_KEY0(a->map.id),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_ST_MEM(BPF_W, BPF_REG_0, 6, 1),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn no_null_check[] = {
		LOOKUP_KEY0(a->map.id),
		BPF_ST_MEM(BPF_W, BPF_REG_0, 0, 1),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn arith_or_null[] = {
		LOOKUP_KEY0(a->map.id),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 4),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn leak[] = {
		LOOKUP_KEY0(a->map.id),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_STX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn key_uninit[] = {
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn map_ptr_deref[] = {
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn caller_saved[] = {
		LOOKUP_KEY0(a->map.id),
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_1),
		BPF_EXIT_INSN(),
	};

	ck_assert_int_eq(check(ok, ARRAY_SIZE(ok), BPF_PROG_TYPE_XDP), 0);
	assert_rejected(oob, -EACCES, "insn 7: invalid access to map value, value_size=8 off=6 size=4");
	/* an ARRAY lookup with a constant key in range is never NULL (Linux 6.13+) */
	ck_assert_int_eq(check(no_null_check, ARRAY_SIZE(no_null_check), BPF_PROG_TYPE_XDP), 0);
	/* never NULL either (constant key of an ARRAY), so the arithmetic is fine */
	ck_assert_int_eq(check(arith_or_null, ARRAY_SIZE(arith_or_null), BPF_PROG_TYPE_XDP), 0);
	/* a privileged loader may store a pointer into a map value, as root in Linux */
	ck_assert_int_eq(check(leak, ARRAY_SIZE(leak), BPF_PROG_TYPE_XDP), 0);
	/* a privileged loader may read unwritten stack (uxdp zeroes it per run) */
	ck_assert_int_eq(check(key_uninit, ARRAY_SIZE(key_uninit), BPF_PROG_TYPE_XDP), 0);
	assert_rejected(map_ptr_deref, -EACCES, "insn 2: R1 invalid mem access 'map_ptr'");
	assert_rejected(caller_saved, -EACCES, "insn 6: R1 !read_ok");
	bpf_map_put(&a->map);
}
END_TEST

/* The call descriptor of the @n-th helper call of @prog. */
static const struct bpf_call_desc *nth_call(const struct bpf_prog *prog, u32 n)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;

	for (u32 i = 0; i < prog->len; i++)
		if (prog->insnsi[i].code == (BPF_JMP | BPF_CALL) && !n--)
			return &vi->calls[prog->insnsi[i].imm];
	return NULL;
}

/*
 * A map helper whose R1 is one map on every path calls the map's op
 * (do_misc_fixups()); when two maps reach the call it keeps the helper,
 * which finds the op per call. Both give the element.
 */
START_TEST(test_map_op_direct)
{
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 2);
	struct bpf_array *b = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 2);
	struct bpf_insn one_map[] = {
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 1),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn two_maps[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data)),
		BPF_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 1),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_4, BPF_REG_3),
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_JMP_IMM(BPF_JGT, BPF_REG_4, 20, 2),
		BPF_LD_MAP_FD(BPF_REG_1, b->map.id),
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *p1, *p2;
	struct test_pkt pkt;

	*(u64 *)(a->value + 8) = 11;
	*(u64 *)(b->value + 8) = 22;
	p1 = load_prog(one_map, ARRAY_SIZE(one_map), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	p2 = load_prog(two_maps, ARRAY_SIZE(two_maps), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(p1 && p2, "%s", log_buf);
	ck_assert_ptr_eq((void *)nth_call(p1, 0)->func, (void *)a->map.ops->map_lookup_elem);
	ck_assert_ptr_eq((void *)nth_call(p2, 0)->func, (void *)fake_map_lookup_elem);
	test_pkt_init(&pkt, 60);
	ck_assert_uint_eq(bpf_prog_run_interp(p1, &pkt.xdp, NULL, 0, NULL), 11);
	ck_assert_uint_eq(bpf_prog_run_interp(p2, &pkt.xdp, NULL, 0, NULL), 11);
	test_pkt_init(&pkt, 14);
	ck_assert_uint_eq(bpf_prog_run_interp(p2, &pkt.xdp, NULL, 0, NULL), 22);
	bpf_prog_put(p1);
	bpf_prog_put(p2);
	bpf_map_put(&a->map);
	bpf_map_put(&b->map);
}
END_TEST

/*
 * A lookup whose key is the same in-range constant on every path records
 * it for the JIT (call_key); a key that differs between paths, one past
 * max_entries or a HASH map's records none. A conditional jump one edge
 * of which no path takes is hard-wired: the NULL check of such a lookup
 * (into a return other paths reach) becomes "goto +0", a test the
 * checker decided becomes "goto L", and a data-dependent one stays.
 */
START_TEST(test_const_key_and_dead_branches)
{
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 5);
	/*
	 * Keys in an 8-byte aligned slot, stored from a register: the
	 * checker tracks a constant there (at fp-4 only a zero, as the kernel).
	 */
	struct bpf_insn null_check[] = {
		BPF_MOV64_IMM(BPF_REG_7, 3),
		BPF_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_7, -8),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 4),		/* 7: never taken */
		BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_0, 0),
		BPF_JMP_IMM(BPF_JGT, BPF_REG_1, 100, 2),	/* 9: data-dependent */
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_1),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 7),			/* 12: from 7 and 9 */
		BPF_EXIT_INSN(),
	};
	struct bpf_insn decided[] = {
		BPF_MOV64_IMM(BPF_REG_3, 5),
		BPF_JMP_IMM(BPF_JGT, BPF_REG_3, 3, 2),		/* 1: always taken */
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 2),
		BPF_EXIT_INSN(),
	};
	/* key 1 or 2 by the packet's length, or @k for both */
	struct bpf_insn two_keys[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data)),
		BPF_LDX_MEM(BPF_W, BPF_REG_4, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		BPF_ALU64_REG(BPF_SUB, BPF_REG_4, BPF_REG_3),
		BPF_MOV64_IMM(BPF_REG_5, 1),
		BPF_JMP_IMM(BPF_JGT, BPF_REG_4, 20, 1),
		BPF_MOV64_IMM(BPF_REG_5, 2),
		BPF_STX_MEM(BPF_W, BPF_REG_10, BPF_REG_5, -8),
		BPF_MOV64_REG(BPF_REG_2, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -8),
		BPF_LD_MAP_FD(BPF_REG_1, a->map.id),
		BPF_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),		/* 12 */
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	int h = uxdp_bpf_map_create(BPF_MAP_TYPE_HASH, "ck", 4, 8, 4, NULL);
	struct bpf_insn hash[] = {
		LOOKUP_KEY0(h),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	static const s32 same[] = { 2, 4, 5 };
	struct bpf_prog *p;
	struct test_pkt pkt;

	ck_assert_int_gt(h, 0);
	p = load_prog(null_check, ARRAY_SIZE(null_check), BPF_PROG_TYPE_XDP, log_buf,
		      sizeof(log_buf), NULL);
	ck_assert_msg(p, "%s", log_buf);
	ck_assert_int_eq(nth_call(p, 0)->const_key, 3);
	ck_assert_uint_eq(p->insnsi[7].code, BPF_JMP | BPF_JA);
	ck_assert_int_eq(p->insnsi[7].off, 0);
	ck_assert_uint_eq(p->insnsi[9].code, BPF_JMP | BPF_JGT | BPF_K);
	test_pkt_init(&pkt, 60);
	*(u64 *)(a->value + 3 * 8) = 50;
	ck_assert_uint_eq(bpf_prog_run_interp(p, &pkt.xdp, NULL, 0, NULL), 50);
	*(u64 *)(a->value + 3 * 8) = 200;
	ck_assert_uint_eq(bpf_prog_run_interp(p, &pkt.xdp, NULL, 0, NULL), 7);
	bpf_prog_put(p);

	p = load_prog(decided, ARRAY_SIZE(decided), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(p, "%s", log_buf);
	ck_assert_uint_eq(p->insnsi[1].code, BPF_JMP | BPF_JA);
	ck_assert_int_eq(p->insnsi[1].off, 2);
	ck_assert_uint_eq(bpf_prog_run_interp(p, &pkt.xdp, NULL, 0, NULL), 2);
	bpf_prog_put(p);

	p = load_prog(two_keys, ARRAY_SIZE(two_keys), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(p, "%s", log_buf);
	ck_assert_int_eq(nth_call(p, 0)->const_key, -1);
	ck_assert_uint_eq(p->insnsi[12].code, BPF_JMP | BPF_JA);	/* both keys in range */
	bpf_prog_put(p);
	for (u32 k = 0; k < ARRAY_SIZE(same); k++) {
		two_keys[3].imm = two_keys[5].imm = same[k];	/* the two MOVs */
		p = load_prog(two_keys, ARRAY_SIZE(two_keys), BPF_PROG_TYPE_XDP, log_buf,
			      sizeof(log_buf), NULL);
		ck_assert_msg(p, "%s", log_buf);
		/* 5 is past max_entries: no key, and the NULL check stays */
		ck_assert_int_eq(nth_call(p, 0)->const_key, same[k] < 5 ? same[k] : -1);
		ck_assert_uint_eq(p->insnsi[12].code,
				  same[k] < 5 ? BPF_JMP | BPF_JA : BPF_JMP | BPF_JEQ | BPF_K);
		bpf_prog_put(p);
	}

	p = load_prog(hash, ARRAY_SIZE(hash), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(p, "%s", log_buf);
	ck_assert_int_eq(nth_call(p, 0)->const_key, -1);
	ck_assert_uint_eq(p->insnsi[6].code, BPF_JMP | BPF_JEQ | BPF_K);
	bpf_prog_put(p);
	uxdp_bpf_map_close(h);
	bpf_map_put(&a->map);
}
END_TEST

START_TEST(test_map_refs)
{
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 1);
	struct bpf_insn bad_id[] = {
		BPF_LD_MAP_FD(BPF_REG_1, 4000),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn value_off_oob[] = {
		BPF_LD_MAP_VALUE(BPF_REG_1, a->map.id, 8),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn rodata_write[] = {
		BPF_LD_MAP_VALUE(BPF_REG_1, a->map.id, 4),
		BPF_ST_MEM(BPF_W, BPF_REG_1, 0, 1),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn btf_id[] = {
		BPF_LD_IMM64_RAW(BPF_REG_1, BPF_PSEUDO_BTF_ID, 1),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};

	assert_rejected(bad_id, -EBADF, "insn 0: fd 4000 is not pointing to valid bpf_map");
	assert_rejected(value_off_oob, -EINVAL,
			"insn 0: invalid access to map value pointer, value_size=8 off=8");
	ck_assert_int_eq(check(rodata_write, ARRAY_SIZE(rodata_write), BPF_PROG_TYPE_XDP), 0);
	a->map.rdonly_prog = true;
	assert_rejected(rodata_write, -EACCES, "insn 2: write into map forbidden");
	assert_rejected(btf_id, -EINVAL, "BPF_PSEUDO_BTF_ID) is not supported");
	ck_assert_int_eq(a->map.refcnt, 1);
	bpf_map_put(&a->map);
}
END_TEST

START_TEST(test_accesses_marked)
{
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 16, 1);
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),	/* 0 */
		BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		BPF_MOV64_REG(BPF_REG_4, BPF_REG_2),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 14),
		BPF_JMP_REG(BPF_JGT, BPF_REG_4, BPF_REG_3, 8),
		BPF_LDX_MEM(BPF_H, BPF_REG_5, BPF_REG_2, 12),	/* 5: packet, < data + 14: proven */
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_5, -8),	/* 6: stack: proven */
		BPF_LD_MAP_VALUE(BPF_REG_6, a->map.id, 0),
		BPF_STX_MEM(BPF_DW, BPF_REG_6, BPF_REG_5, 8),	/* 9: map, const: proven */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_6, BPF_REG_5),
		BPF_LDX_MEM(BPF_B, BPF_REG_0, BPF_REG_6, 0),	/* 11: map, var: checked */
		BPF_EXIT_INSN(),
		BPF_MOV64_IMM(BPF_REG_0, 1),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;

	/* a variable offset into a 16-byte value, bounded only by u16: refused at load */
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_ptr_null(prog);
	ck_assert_ptr_nonnull(strstr(log_buf, "insn 11: R6 max value is outside of the allowed memory range"));
	bpf_map_put(&a->map);
}
END_TEST

/* data + 14 <= data_end proves [data, data + 14) and nothing more */
START_TEST(test_pkt_range)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, offsetof(struct xdp_md, data)),
		BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, data_end)),
		BPF_MOV64_REG(BPF_REG_4, BPF_REG_2),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_4, 14),
		BPF_JMP_REG(BPF_JGE, BPF_REG_3, BPF_REG_4, 2),	/* end >= data + 14 */
		BPF_MOV64_IMM(BPF_REG_0, XDP_DROP),
		BPF_EXIT_INSN(),
		BPF_LDX_MEM(BPF_H, BPF_REG_0, BPF_REG_2, 12),	/* 7: proven */
		BPF_LDX_MEM(BPF_B, BPF_REG_5, BPF_REG_4, -1),	/* 8: proven (data + 13) */
		BPF_LDX_MEM(BPF_H, BPF_REG_5, BPF_REG_2, 13),	/* 9: checked */
		BPF_LDX_MEM(BPF_B, BPF_REG_5, BPF_REG_2, -1),	/* 10: checked */
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;

	/* [data, data + 14) is proven; two bytes at data + 13 are not: refused */
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_ptr_null(prog);
	ck_assert_ptr_nonnull(strstr(log_buf,
				     "insn 9: invalid access to packet, off=13 size=2, R2(id=0,off=13,r=14)"));
	ck_assert_ptr_nonnull(strstr(log_buf, "insn 9: R2 offset is outside of the packet"));
}
END_TEST

START_TEST(test_dead_code_sanitized)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_0, 0),	/* never runs */
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;

	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(prog->insnsi[2].code, BPF_JMP | BPF_JA);
	ck_assert_int_eq(prog->insnsi[2].off, -1);
	bpf_prog_put(prog);
}
END_TEST

START_TEST(test_spill_fill_keeps_type)
{
	/* ctx spilled and filled still reads as ctx; a 32-bit copy does not */
	struct bpf_insn ok[] = {
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_1, -8),
		BPF_MOV64_IMM(BPF_REG_1, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_10, -8),
		BPF_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_6, offsetof(struct xdp_md, rx_queue_index)),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn partial[] = {
		BPF_RAW_INSN(BPF_ALU | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0),
		BPF_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_6, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn overwritten[] = {
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_1, -8),
		BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_10, -8),
		BPF_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_6, 0),
		BPF_EXIT_INSN(),
	};

	ck_assert_int_eq(check(ok, ARRAY_SIZE(ok), BPF_PROG_TYPE_XDP), 0);
	assert_rejected(partial, -EACCES, "insn 1: R6 invalid mem access 'scalar'");
	assert_rejected(overwritten, -EACCES, "insn 3: R6 invalid mem access 'scalar'");
}
END_TEST

START_TEST(test_loops_converge)
{
	/* 100000 iterations with a constant counter: the walk widens */
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_MOV64_IMM(BPF_REG_1, 0),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_1),		/* 3 */
		BPF_STX_MEM(BPF_DW, BPF_REG_10, BPF_REG_0, -8),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, 1),
		BPF_JMP_IMM(BPF_JLT, BPF_REG_1, 100000, -4),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_ALU64_IMM(BPF_AND, BPF_REG_0, 0xffff),
		BPF_EXIT_INSN(),
	};
	struct bpf_prog *prog;
	struct xdp_buff xdp = { 0 };

	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(bpf_prog_run(prog, &xdp), (99999ULL * 100000 / 2) & 0xffff);
	ck_assert_uint_eq(prog->aux->abort_cnt[BPF_ABORT_INSN_BUDGET], 0);
	bpf_prog_put(prog);
}
END_TEST

/*
 * bpf_loop(10, cb, &sum, flags): cb adds its index to the sum; a jump before
 * the call and a bpf-to-bpf call after it cross the inlined loop. Returns
 * sum + R6 (kept across the loop) + bpf_loop's R0 + 100 (the subprogram).
 */
static void bpf_loop_prog(struct bpf_insn *insns, s32 flags)
{
	const struct bpf_insn prog[] = {
		BPF_MOV64_IMM(BPF_REG_6, 7),
		BPF_ST_MEM(BPF_DW, BPF_REG_10, -8, 0),
		BPF_MOV64_IMM(BPF_REG_1, 10),
		BPF_JMP_IMM(BPF_JEQ, BPF_REG_6, 0, 8),
		BPF_LD_IMM64_RAW(BPF_REG_2, BPF_PSEUDO_FUNC, 12),	/* 4: cb at 17 */
		BPF_MOV64_REG(BPF_REG_3, BPF_REG_10),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, -8),
		BPF_MOV64_IMM(BPF_REG_4, flags),
		BPF_CALL_HELPER(BPF_FUNC_loop),				/* 9 */
		BPF_MOV64_REG(BPF_REG_7, BPF_REG_0),
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_10, -8),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_6),		/* 12 */
		BPF_ALU64_REG(BPF_ADD, BPF_REG_0, BPF_REG_7),
		BPF_MOV64_REG(BPF_REG_1, BPF_REG_0),
		BPF_CALL_REL(6),					/* 15: add100 at 22 */
		BPF_EXIT_INSN(),
		/* cb(index, ctx) */
		BPF_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_2, 0),
		BPF_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_1),
		BPF_STX_MEM(BPF_DW, BPF_REG_2, BPF_REG_3, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
		/* add100(x) */
		BPF_MOV64_REG(BPF_REG_0, BPF_REG_1),
		BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 100),
		BPF_EXIT_INSN(),
	};

	memcpy(insns, prog, sizeof(prog));
}

START_TEST(test_bpf_loop_inline)
{
	struct xdp_buff xdp = { 0 };
	struct bpf_insn insns[25];
	struct bpf_prog *prog;

	/* flags 0: inlined, 18 more instructions, the JIT runs it */
	bpf_loop_prog(insns, 0);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(prog->len, ARRAY_SIZE(insns) + 18);
	ck_assert_uint_eq(prog->aux->stack_depth, 8 + 24);
	ck_assert_int_eq(prog->jited, !!bpf_jit_enable);
	ck_assert_uint_eq(bpf_prog_run(prog, &xdp), 45 + 7 + 10 + 100);
	ck_assert_uint_eq(bpf_prog_run_interp(prog, &xdp, NULL, 0, NULL), 45 + 7 + 10 + 100);
	bpf_prog_put(prog);

	/* flags 1: not inlined; the interpreter's bpf_loop says -EINVAL */
	bpf_loop_prog(insns, 1);
	prog = load_prog(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	ck_assert_uint_eq(prog->len, ARRAY_SIZE(insns));
	ck_assert_uint_eq(bpf_prog_run(prog, &xdp), (u32)(7 - EINVAL + 100));
	ck_assert_int_eq(prog->jited, 0);
	bpf_prog_put(prog);
}
END_TEST

START_TEST(test_bpf_loop_callback_checks)
{
	struct bpf_insn insns[25];

	/* the callback returns 2 */
	bpf_loop_prog(insns, 0);
	insns[20] = BPF_MOV64_IMM(BPF_REG_0, 2);
	assert_rejected(insns, -EINVAL,
			"insn 21: At callback return the register R0 has smin=2 smax=2 should have been in [0, 1]");
	/* R2 a stack pointer, not a function */
	bpf_loop_prog(insns, 0);
	insns[7] = BPF_MOV64_REG(BPF_REG_2, BPF_REG_3);
	assert_rejected(insns, -EACCES, "insn 9: R2 type=fp expected=func");
	/* the callback reads R3 */
	bpf_loop_prog(insns, 0);
	insns[17] = BPF_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_3);
	assert_rejected(insns, -EACCES, "insn 17: R3 !read_ok");
}
END_TEST

START_TEST(test_xdp_return_pointer)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_W, BPF_REG_0, BPF_REG_1, offsetof(struct xdp_md, data)),
		BPF_EXIT_INSN(),
	};

	/* a privileged loader may return a pointer, as root in Linux (the
	 * action is then invalid: XDP_ABORTED at run time) */
	ck_assert_int_eq(check(insns, ARRAY_SIZE(insns), BPF_PROG_TYPE_XDP), 0);
}
END_TEST

START_TEST(test_unsupported_prog_type)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};

	ck_assert_int_eq(check(insns, 2, BPF_PROG_TYPE_SOCKET_FILTER), -EINVAL);
	ck_assert_ptr_nonnull(strstr(log_buf, "program type 1 is not supported"));
}
END_TEST

START_TEST(test_map_func_compat)
{
	struct bpf_array *pa = fake_array_create(BPF_MAP_TYPE_PROG_ARRAY, 4, 2);
	struct bpf_array *a = fake_array_create(BPF_MAP_TYPE_ARRAY, 8, 2);
	/* a prog array's slots must never reach a program as a map value */
	struct bpf_insn lookup_prog_array[] = {
		LOOKUP_KEY0(pa->map.id),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	struct bpf_insn tail_call_array[] = {
		BPF_TAIL_CALL_INSNS(a->map.id, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};

	struct bpf_insn r0_after_tail_call[] = {
		BPF_MOV64_IMM(BPF_REG_0, 2),
		BPF_TAIL_CALL_INSNS(pa->map.id, 0),
		BPF_EXIT_INSN(),
	};

	/* bpf_tail_call is RET_VOID: after a miss R0 must be set again */
	assert_rejected(r0_after_tail_call, -EACCES, "insn 5: R0 !read_ok");
	assert_rejected(lookup_prog_array, -EINVAL,
			"insn 5: cannot pass map_type 3 into func bpf_map_lookup_elem#1");
	assert_rejected(tail_call_array, -EINVAL, "insn 3: cannot pass map_type 2 into func bpf_tail_call#12");
	bpf_map_put(&pa->map);
	bpf_map_put(&a->map);
}
END_TEST

START_TEST(test_oversized)
{
	struct bpf_prog *prog = bpf_prog_alloc(1);

	/* bpf_prog_alloc() already refuses; bpf_check() must not trust len */
	prog->len = BPF_MAX_INSNS + 1;
	ck_assert_int_eq(bpf_check(&prog, log_buf, sizeof(log_buf)), -E2BIG);
	ck_assert_ptr_nonnull(strstr(log_buf, "program of 1048577 insns"));
	prog->len = 1;
	bpf_prog_put(prog);
}
END_TEST

/*
 * Hostile programs at random: instruction streams biased toward valid
 * opcodes. Whatever bpf_check() accepts must run to completion on a packet
 * without touching memory outside it (ASan build) and without hanging.
 */
static u32 rnd_state = 12345;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return rnd_state >> 8;
}

START_TEST(test_random_programs)
{
	static const u8 codes[] = {
		0x07, 0x0f, 0x17, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x47, 0x4f, 0x57, 0x5f, 0x67, 0x6f,
		0x77, 0x7f, 0x87, 0x97, 0x9f, 0xa7, 0xaf, 0xb7, 0xbf, 0xc7, 0xcf, 0xd4, 0xdc, 0xd7,
		0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x3c, 0x44, 0x4c, 0x54, 0x5c, 0x64, 0x6c,
		0x74, 0x7c, 0x84, 0x94, 0x9c, 0xa4, 0xac, 0xb4, 0xbc, 0xc4, 0xcc,
		0x05, 0x15, 0x1d, 0x25, 0x2d, 0x35, 0x3d, 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d,
		0xa5, 0xad, 0xb5, 0xbd, 0x16, 0x1e, 0x26, 0x56, 0x5e, 0xa6, 0xae,
		0x61, 0x69, 0x71, 0x79, 0x81, 0x89, 0x91, 0x62, 0x6a, 0x72, 0x7a,
		0x63, 0x6b, 0x73, 0x7b, 0xc3, 0xdb, 0x85, 0x95, 0x18,
	};
	static const s32 atomics[] = { 0x00, 0x01, 0x40, 0x41, 0x50, 0x51, 0xa0, 0xa1, 0xe1, 0xf1 };
	struct bpf_insn insns[40];
	u8 pkt[XDP_PACKET_HEADROOM + 64];
	u32 loaded = 0, n, k, len;

	for (n = 0; n < 20000; n++) {
		struct bpf_prog *prog;
		struct xdp_buff xdp = { 0 };

		len = 4 + rnd() % 30;
		insns[0] = BPF_MOV64_IMM(BPF_REG_0, 0);
		insns[1] = BPF_LDX_MEM(BPF_W, BPF_REG_2, BPF_REG_1, 0);
		insns[2] = BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, 4);
		for (k = 3; k < len - 1; k++) {
			struct bpf_insn *insn = &insns[k];
			u8 code = codes[rnd() % sizeof(codes)];

			*insn = BPF_RAW_INSN(code, rnd() % 11, rnd() % 11, 0, 0);
			switch (BPF_CLASS(code)) {
			case BPF_JMP:
			case BPF_JMP32:
				insn->off = (s16)(rnd() % 9) - 4;
				if (BPF_SRC(code) == BPF_K)
					insn->src_reg = 0;
				if (BPF_SRC(code) == BPF_X)
					insn->imm = 0;
				insn->imm = BPF_SRC(code) == BPF_K ? (s32)(rnd() % 64) - 8 : 0;
				if (BPF_OP(code) == BPF_JA || BPF_OP(code) == BPF_CALL ||
				    BPF_OP(code) == BPF_EXIT) {
					insn->dst_reg = insn->src_reg = 0;
					insn->imm = BPF_OP(code) == BPF_CALL ? (rnd() % 2 ? 28 : 1) : 0;
					if (BPF_OP(code) != BPF_JA)
						insn->off = 0;
				}
				break;
			case BPF_LDX:
				insn->off = (s16)(rnd() % 80) - 40;
				break;
			case BPF_ST:
				insn->src_reg = 0;
				insn->off = (s16)(rnd() % 80) - 40;
				insn->imm = (s32)rnd();
				break;
			case BPF_STX:
				insn->off = (s16)(rnd() % 80) - 40;
				if (BPF_MODE(code) == BPF_ATOMIC)
					insn->imm = atomics[rnd() % ARRAY_SIZE(atomics)];
				break;
			case BPF_LD:
				if (k + 2 >= len) {
					*insn = BPF_MOV64_IMM(BPF_REG_4, 1);
					break;
				}
				insn->src_reg = 0;
				insn->imm = (s32)rnd();
				insns[++k] = BPF_RAW_INSN(0, 0, 0, 0, (s32)rnd());
				break;
			default:	/* ALU */
				if (BPF_OP(code) == BPF_END)
					insn->imm = 16 << (rnd() % 3);
				else if (BPF_SRC(code) == BPF_K)
					insn->imm = (s32)(rnd() % 128) - 16;
				if (BPF_SRC(code) == BPF_K || BPF_OP(code) == BPF_NEG)
					insn->src_reg = 0;
				if (BPF_OP(code) == BPF_NEG)
					insn->imm = 0;
				break;
			}
		}
		insns[len - 1] = BPF_EXIT_INSN();
		prog = load_prog(insns, len, BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
		if (!prog)
			continue;
		loaded++;
		memset(pkt, 0xab, sizeof(pkt));
		xdp.data_hard_start = pkt;
		xdp.data = pkt + XDP_PACKET_HEADROOM;
		xdp.data_meta = xdp.data;
		xdp.data_end = pkt + sizeof(pkt);
		bpf_prog_run(prog, &xdp);
		bpf_prog_put(prog);
	}
	/* the generator must exercise the interpreter, not only the checker */
	ck_assert_uint_gt(loaded, 500);
}
END_TEST

/* 10000 pending branches: refused as too complex, never a crash */
START_TEST(test_branch_stack_limit)
{
	u32 n = 10000, len = 2 + 2 * n + 1, k;
	struct bpf_insn *insns = calloc(len, sizeof(*insns));
	struct bpf_prog *prog;
	int err;

	insns[0] = BPF_MOV64_IMM(BPF_REG_0, 0);
	insns[1] = BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, rx_queue_index));
	for (k = 0; k < n; k++) {
		insns[2 + 2 * k] = BPF_JMP_IMM(BPF_JEQ, BPF_REG_3, k % 50, 1);
		insns[3 + 2 * k] = BPF_ALU64_IMM(BPF_ADD, BPF_REG_0, 1);
	}
	insns[len - 1] = BPF_EXIT_INSN();
	prog = load_prog(insns, len, BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), &err);
	ck_assert_ptr_null(prog);
	/* refined bounds decide most branches (r3 >= 50 after 50 misses), so the
	 * walk ends at the instruction limit before the pending-branch limit */
	ck_assert_msg(err == -E2BIG && (strstr(log_buf, "jumps is too complex.") ||
					strstr(log_buf, "BPF program is too large.")),
		      "err %d: %s", err, log_buf);
	free(insns);
}
END_TEST

/*
 * 5000 branches that differ only in dead stores and dead registers: with
 * liveness the walk stays linear (the kernel accepts this quickly too).
 */
START_TEST(test_dead_state_differences_merge)
{
	u32 n = 5000, len = 0, k;
	struct bpf_insn *insns = calloc(2 * n + 8, sizeof(*insns));
	struct bpf_prog *prog;

	insns[len++] = BPF_MOV64_IMM(BPF_REG_0, 0);
	insns[len++] = BPF_LDX_MEM(BPF_W, BPF_REG_3, BPF_REG_1, offsetof(struct xdp_md, rx_queue_index));
	for (k = 0; k < n; k++) {
		insns[len++] = BPF_JMP_IMM(BPF_JEQ, BPF_REG_3, k % 50, 1);
		insns[len++] = k % 2 ? BPF_ST_MEM(BPF_DW, BPF_REG_10, -8 * (1 + (k % 64)), k) :
				       BPF_MOV64_IMM(BPF_REG_5, k);
	}
	insns[len++] = BPF_EXIT_INSN();
	prog = load_prog(insns, len, BPF_PROG_TYPE_XDP, log_buf, sizeof(log_buf), NULL);
	ck_assert_msg(prog, "%s", log_buf);
	bpf_prog_put(prog);
	free(insns);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/verifier");
	TCase *tc = tcase_create("verifier");

	tcase_add_test(tc, test_map_value_bounds);
	tcase_add_test(tc, test_map_refs);
	tcase_add_test(tc, test_map_op_direct);
	tcase_add_test(tc, test_const_key_and_dead_branches);
	tcase_add_test(tc, test_map_func_compat);
	tcase_add_test(tc, test_accesses_marked);
	tcase_add_test(tc, test_pkt_range);
	tcase_add_test(tc, test_dead_code_sanitized);
	tcase_add_test(tc, test_spill_fill_keeps_type);
	tcase_add_test(tc, test_loops_converge);
	tcase_add_test(tc, test_bpf_loop_inline);
	tcase_add_test(tc, test_bpf_loop_callback_checks);
	tcase_add_test(tc, test_xdp_return_pointer);
	tcase_add_test(tc, test_unsupported_prog_type);
	tcase_add_test(tc, test_oversized);
	tcase_add_test(tc, test_random_programs);
	tcase_add_test(tc, test_branch_stack_limit);
	tcase_add_test(tc, test_dead_state_differences_merge);
	suite_add_tcase(s, tc);
	return s;
}
