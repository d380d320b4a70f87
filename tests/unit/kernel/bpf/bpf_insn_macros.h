/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction builders for the core/verifier unit tests, named as the
 * kernel's (include/linux/filter.h BPF_MOV64_IMM() and friends), plus fake
 * maps (array, prog array) registered in the map registry and fake helper
 * protos, so the tests depend on nothing but kernel/bpf/{core,verifier}.c.
 */
#ifndef _UXDP_TESTS_BPF_INSN_MACROS_H
#define _UXDP_TESTS_BPF_INSN_MACROS_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <net/xdp.h>

#define BPF_RAW_INSN(CODE, DST, SRC, OFF, IMM) \
	((struct bpf_insn){ .code = (CODE), .dst_reg = (DST), .src_reg = (SRC), .off = (OFF), .imm = (IMM) })
#define BPF_ALU64_IMM(OP, DST, IMM)	BPF_RAW_INSN(BPF_ALU64 | (OP) | BPF_K, DST, 0, 0, IMM)
#define BPF_ALU64_REG(OP, DST, SRC)	BPF_RAW_INSN(BPF_ALU64 | (OP) | BPF_X, DST, SRC, 0, 0)
#define BPF_ALU32_IMM(OP, DST, IMM)	BPF_RAW_INSN(BPF_ALU | (OP) | BPF_K, DST, 0, 0, IMM)
#define BPF_MOV64_IMM(DST, IMM)		BPF_ALU64_IMM(BPF_MOV, DST, IMM)
#define BPF_MOV64_REG(DST, SRC)		BPF_ALU64_REG(BPF_MOV, DST, SRC)
#define BPF_LDX_MEM(SZ, DST, SRC, OFF)	BPF_RAW_INSN(BPF_LDX | BPF_MEM | (SZ), DST, SRC, OFF, 0)
#define BPF_STX_MEM(SZ, DST, SRC, OFF)	BPF_RAW_INSN(BPF_STX | BPF_MEM | (SZ), DST, SRC, OFF, 0)
#define BPF_ST_MEM(SZ, DST, OFF, IMM)	BPF_RAW_INSN(BPF_ST | BPF_MEM | (SZ), DST, 0, OFF, IMM)
#define BPF_JMP_IMM(OP, DST, IMM, OFF)	BPF_RAW_INSN(BPF_JMP | (OP) | BPF_K, DST, 0, OFF, IMM)
#define BPF_JMP_REG(OP, DST, SRC, OFF)	BPF_RAW_INSN(BPF_JMP | (OP) | BPF_X, DST, SRC, OFF, 0)
#define BPF_JMP_A(OFF)			BPF_RAW_INSN(BPF_JMP | BPF_JA, 0, 0, OFF, 0)
#define BPF_CALL_HELPER(ID)		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, ID)
#define BPF_CALL_REL(IMM)		BPF_RAW_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, IMM)
#define BPF_EXIT_INSN()			BPF_RAW_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define BPF_LD_IMM64_RAW(DST, SRC, IMM)					\
	BPF_RAW_INSN(BPF_LD | BPF_DW | BPF_IMM, DST, SRC, 0, (u32)(IMM)),	\
	BPF_RAW_INSN(0, 0, 0, 0, (u32)((u64)(IMM) >> 32))
#define BPF_LD_MAP_FD(DST, ID)		BPF_LD_IMM64_RAW(DST, BPF_PSEUDO_MAP_FD, ID)
/* bpf_tail_call(ctx in R1, prog array ID, INDEX): R2 and R3 set, then the call */
#define BPF_TAIL_CALL_INSNS(ID, INDEX)				\
	BPF_LD_MAP_FD(BPF_REG_2, ID),					\
	BPF_MOV64_IMM(BPF_REG_3, INDEX),				\
	BPF_CALL_HELPER(BPF_FUNC_tail_call)
#define BPF_LD_MAP_VALUE(DST, ID, OFF)					\
	BPF_RAW_INSN(BPF_LD | BPF_DW | BPF_IMM, DST, BPF_PSEUDO_MAP_VALUE, 0, ID), \
	BPF_RAW_INSN(0, 0, 0, 0, OFF)

/* ---- fake maps ---------------------------------------------------------- */

static void fake_map_free(struct bpf_map *map)
{
	free(map);
}

static void *fake_array_lookup(struct bpf_map *map, void *key)
{
	struct bpf_array *array = container_of(map, struct bpf_array, map);
	u32 k = *(u32 *)key;

	return k < map->max_entries ? array->value + (size_t)k * array->elem_size : NULL;
}

static int fake_array_direct_value_addr(const struct bpf_map *map, u64 *imm, u32 off)
{
	struct bpf_array *array = container_of(map, struct bpf_array, map);

	*imm = (u64)(uintptr_t)array->value;
	return 0;
}

static const struct bpf_map_ops fake_array_ops = {
	.map_free = fake_map_free,
	.map_lookup_elem = fake_array_lookup,
	.map_direct_value_addr = fake_array_direct_value_addr,
};

static const struct bpf_map_ops fake_prog_array_ops = {
	.map_free = fake_map_free,
};

/* An ARRAY (or PROG_ARRAY) map with one reference, registered by id. */
static inline struct bpf_array *fake_array_create(enum bpf_map_type type, u32 value_size,
						  u32 max_entries)
{
	u32 elem = type == BPF_MAP_TYPE_PROG_ARRAY ? sizeof(void *) : ALIGN(value_size, 8);
	struct bpf_array *a = calloc(1, sizeof(*a) + (size_t)elem * max_entries);

	a->map.ops = type == BPF_MAP_TYPE_PROG_ARRAY ? &fake_prog_array_ops : &fake_array_ops;
	a->map.map_type = type;
	a->map.key_size = 4;
	a->map.value_size = type == BPF_MAP_TYPE_PROG_ARRAY ? 4 : value_size;
	a->map.max_entries = max_entries;
	a->map.refcnt = 1;
	a->elem_size = elem;
	a->map.arena_lo = a->value;
	a->map.arena_hi = a->value + (size_t)elem * max_entries;
	bpf_map_alloc_id(&a->map);
	return a;
}

/* ---- fake helpers ------------------------------------------------------- */

static u64 fake_map_lookup_elem(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	struct bpf_map *map = (struct bpf_map *)(uintptr_t)r1;

	return (u64)(uintptr_t)map->ops->map_lookup_elem(map, (void *)(uintptr_t)r2);
}

static const struct bpf_func_proto fake_map_lookup_elem_proto = {
	.func = fake_map_lookup_elem,
	.name = "bpf_map_lookup_elem",
	.ret_type = RET_PTR_TO_MAP_VALUE_OR_NULL,
	.arg_type = { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY },
};

/* id 28 stands in for a helper reading (ptr, size): returns the byte sum */
static u64 fake_sum(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	const u8 *p = (const u8 *)(uintptr_t)r1;
	u64 s = 0, i;

	for (i = 0; i < r2; i++)
		s += p[i];
	return s;
}

static const struct bpf_func_proto fake_sum_proto = {
	.func = fake_sum,
	.name = "fake_sum",
	.ret_type = RET_INTEGER,
	.arg_type = { ARG_PTR_TO_MEM, ARG_CONST_SIZE_OR_ZERO },
};

static inline const struct bpf_func_proto *fake_func_proto(enum bpf_func_id id)
{
	switch ((int)id) {
	case BPF_FUNC_map_lookup_elem:
		return &fake_map_lookup_elem_proto;
	case 28:
		return &fake_sum_proto;
	case BPF_FUNC_loop:
		return &bpf_loop_proto;
	}
	return NULL;
}

/* A checked program from @insns, or NULL with the log in @log. */
static inline struct bpf_prog *load_prog(const struct bpf_insn *insns, u32 len,
					 enum bpf_prog_type type, char *log, u32 log_size,
					 int *errp)
{
	struct bpf_prog *prog = bpf_prog_alloc(len);
	int err;

	memcpy(prog->insnsi, insns, len * sizeof(*insns));
	prog->type = type;
	prog->aux->func_proto = fake_func_proto;
	prog->aux->func_info_cnt = 1;	/* as if loaded with BTF (callbacks) */
	err = bpf_prog_load(&prog, log, log_size);
	if (errp)
		*errp = err;
	if (err) {
		bpf_prog_put(prog);
		return NULL;
	}
	return prog;
}

#endif
