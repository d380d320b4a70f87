// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the load-time checker and the interpreter. The input is an
 * instruction stream with a small header; whatever bpf_prog_load() accepts
 * is run (as XDP through BPF_PROG_TEST_RUN's frame layout, or as a raw
 * program over a buffer of exactly the given length) and must finish
 * without touching memory it does not own (ASan) and without hanging (the
 * interpreter's instruction budget bounds every run).
 *
 * Input: byte 0 flags (bit 0: raw BPF_PROG_TYPE_UNSPEC, else XDP; bit 1:
 * metadata in front of the packet; bit 2: put the program into slot 0 of
 * the PROG_ARRAY, so a tail call reaches itself; bit 3: structured, see
 * below), byte 1 packet length selector, bytes 2-3 unused, then struct
 * bpf_insn slots (at most FUZZ_MAX_INSNS). ld_imm64 map references
 * (BPF_PSEUDO_MAP_FD/VALUE) are pointed at one of the harness's maps by imm
 * modulo their number, so the fuzzer does not have to guess map ids.
 *
 * Structured inputs (bit 3) spend 4 bytes per instruction: an opcode from
 * the table of valid ones, registers 0-10, a small offset and a small
 * immediate (helper ids and map references for calls and ld_imm64), after
 * a prologue that loads data and data_end (XDP) into r2 and r3, and with an
 * exit appended. Most such programs are well-formed, so the fuzzer spends
 * its time in the checker's reasoning and in the interpreter rather than in
 * the opcode decoder.
 *
 * With the JIT on (the default here; UXDP_BPF_JIT=0 turns it off) every
 * program that loads runs on both runtimes and any difference is a crash:
 * see diff_run(). Every program the checker accepts is also loaded a
 * second time hardened (prog->aux->hardened: every access and helper
 * argument with a region checked at run time, the instruction budget) and
 * run the same way: a run-time check that fires there and not in the
 * normal runtime, or any other difference, is a checker bug and a crash
 * (the oracle, see diff_run()).
 *
 * Kernel: kernel/bpf/verifier.c bpf_check(), kernel/bpf/core.c (run)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <net/xdp.h>
#include <uxdp/uxdp_bpf.h>

#include "fuzz.h"

#define FUZZ_MAX_INSNS	2048
#define FUZZ_HDR	4

static u32 map_ids[4];
static u32 prog_array_id;
static char log_buf[1024];

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int id;

	uxdp_set_print(fuzz_quiet);
	/* JIT on: loaded programs run on both runtimes (diff_run()) */
	if (!getenv("UXDP_BPF_JIT"))
		bpf_jit_enable = 1;
	id = uxdp_bpf_map_create(BPF_MAP_TYPE_ARRAY, "fz_array", 4, 16, 4, NULL);
	map_ids[0] = id > 0 ? id : 0;
	id = uxdp_bpf_map_create(BPF_MAP_TYPE_HASH, "fz_hash", 4, 8, 16, NULL);
	map_ids[1] = id > 0 ? id : 0;
	id = uxdp_bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "fz_progs", 4, 4, 2, NULL);
	map_ids[2] = id > 0 ? id : 0;
	prog_array_id = map_ids[2];
	id = uxdp_bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "fz_pcpu", 4, 8, 2, NULL);
	map_ids[3] = id > 0 ? id : 0;
	if (!map_ids[0] || !map_ids[1] || !map_ids[2] || !map_ids[3])
		fuzz_bug("cannot create the harness maps");
	return 0;
}

void fuzz_cleanup(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map_ids); i++)
		uxdp_bpf_map_close(map_ids[i]);
}

/*
 * ---- differential: the JIT against the interpreter ----------------------
 * With the JIT on (LLVMFuzzerInitialize sets bpf_jit_enable), every program
 * that loads runs on both runtimes from the same state: maps restored to
 * the snapshot taken before the first run, the same packet or memory, the
 * same bpf_get_prandom_u32() seed. Return value, abort reason and counters,
 * packet or memory bytes (and the XDP ctx_out), map contents, redirect info
 * and the trace pipe must be identical, else the input is a crash.
 * Programs calling a clock helper run on both but are not compared. The
 * checker lets programs turn pointers into scalars (w0 = w10, as the
 * privileged kernel), so a result may depend on where the stack, packet or
 * memory is: when the runtimes disagree, the interpreter runs a third time
 * with its stack and memory elsewhere, and a program whose results move
 * with them is not reported.
 */
#define DIFF_MAX_VAL	4096

/* the instructions as loaded, before the checker rewrote them: packet bytes */
static struct bpf_insn pkt_src[FUZZ_MAX_INSNS];
static u32 pkt_src_len;

struct diff_state {
	u64 ret;
	u32 reason;
	u64 aborts[__BPF_ABORT_MAX];
	u8 arena[2][DIFF_MAX_VAL];	/* fz_array, fz_pcpu */
	u32 nr_keys;
	u32 keys[16];
	u64 vals[16];
	struct bpf_redirect_info ri;
	char trace[1024];
	size_t trace_len;
	u8 out[8 + 4096];
	u32 out_len;
	struct xdp_md ctx_out;
};

static size_t diff_arena_len(const struct bpf_map *map)
{
	size_t n = (size_t)((u8 *)map->arena_hi - (u8 *)map->arena_lo);

	return n < DIFF_MAX_VAL ? n : DIFF_MAX_VAL;
}

static void diff_snap_maps(struct diff_state *d)
{
	u32 key, next, i;
	int err;

	for (i = 0; i < 2; i++) {
		const struct bpf_map *map = bpf_map_get(map_ids[i ? 3 : 0]);

		memcpy(d->arena[i], map->arena_lo, diff_arena_len(map));
	}
	d->nr_keys = 0;
	err = uxdp_bpf_map_get_next_key(map_ids[1], NULL, &next);
	while (!err && d->nr_keys < ARRAY_SIZE(d->keys)) {
		key = next;
		d->keys[d->nr_keys] = key;
		fuzz_assert(!uxdp_bpf_map_lookup_elem(map_ids[1], &key, &d->vals[d->nr_keys]),
			    "hash lookup");
		d->nr_keys++;
		err = uxdp_bpf_map_get_next_key(map_ids[1], &key, &next);
	}
}

static void diff_restore_maps(const struct diff_state *d)
{
	u32 key, next, i;

	for (i = 0; i < 2; i++) {
		const struct bpf_map *map = bpf_map_get(map_ids[i ? 3 : 0]);

		memcpy(map->arena_lo, d->arena[i], diff_arena_len(map));
	}
	while (!uxdp_bpf_map_get_next_key(map_ids[1], NULL, &next)) {
		key = next;
		fuzz_assert(!uxdp_bpf_map_delete_elem(map_ids[1], &key), "hash delete");
	}
	for (i = 0; i < d->nr_keys; i++)
		fuzz_assert(!uxdp_bpf_map_update_elem(map_ids[1], &d->keys[i], &d->vals[i],
						      BPF_ANY), "hash restore");
}

/* hash contents in key order, so two states compare whatever the order of insertion */
static int diff_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static void diff_sort_hash(struct diff_state *d)
{
	u64 pairs[16][2];
	u32 i;

	for (i = 0; i < d->nr_keys; i++) {
		pairs[i][0] = d->keys[i];
		pairs[i][1] = d->vals[i];
	}
	qsort(pairs, d->nr_keys, sizeof(pairs[0]), diff_cmp_u32);
	for (i = 0; i < d->nr_keys; i++) {
		d->keys[i] = (u32)pairs[i][0];
		d->vals[i] = pairs[i][1];
	}
}

static unsigned int diff_interp_xdp(const void *ctx, const struct bpf_prog *prog)
{
	return (unsigned int)bpf_prog_run_interp(prog, ctx, NULL, 0, NULL);
}

static bool diff_uses_clock(const struct bpf_prog *prog)
{
	const struct bpf_verifier_info *vi = prog->aux->verifier_info;
	u32 i;

	for (i = 0; i < vi->nr_calls; i++) {
		switch (vi->calls[i].func_id) {
		case BPF_FUNC_ktime_get_ns:
		case BPF_FUNC_ktime_get_boot_ns:
		case BPF_FUNC_ktime_get_coarse_ns:
		case BPF_FUNC_ktime_get_tai_ns:
			return true;
		}
	}
	return false;
}

/* One run on @jit or the interpreter from the current maps; results into @d. */
static void diff_one(struct bpf_prog *prog, u8 flags, u8 sel, bool jit, struct diff_state *d,
		     u8 *mem)
{
	unsigned int (*saved)(const void *ctx, const struct bpf_prog *prog) = prog->bpf_func;
	u64 before[__BPF_ABORT_MAX];
	char drain[256];
	u32 i;

	memset(d, 0, sizeof(*d));
	memcpy(before, prog->aux->abort_cnt, sizeof(before));
	memset(&bpf_redirect_info, 0, sizeof(bpf_redirect_info));
	bpf_user_rnd_seed(0x5eed);
	if (flags & 1) {
		enum bpf_abort_reason reason = BPF_ABORT_NONE;

		memset(mem, 0x5a, sel ? sel : 1);
		d->ret = jit ? bpf_jit_prog_run(prog, NULL, mem, sel, &reason) :
			       bpf_prog_run_interp(prog, NULL, mem, sel, &reason);
		d->reason = reason;
		memcpy(d->out, mem, sel);
		d->out_len = sel;
	} else {
		const struct bpf_insn *insns = pkt_src;
		u32 pkt_len = ETH_HLEN + (u32)sel * 16;
		u32 meta = flags & 2 ? 8 : 0;
		struct xdp_md ctx = { .data = meta, .data_end = meta + pkt_len };
		union bpf_attr attr = {};
		u8 *pkt;
		int err;

		if (pkt_len > 3000)
			ctx.data_end = meta + 3000;
		pkt = malloc(meta + pkt_len);
		fuzz_assert(pkt, "malloc");
		for (i = 0; i < meta + pkt_len; i++)
			pkt[i] = ((const u8 *)insns)[i % (pkt_src_len * sizeof(*insns))];
		attr.test.data_in = (u64)(uintptr_t)pkt;
		attr.test.data_size_in = meta + pkt_len;
		attr.test.data_out = (u64)(uintptr_t)d->out;
		attr.test.data_size_out = sizeof(d->out);
		attr.test.repeat = 1;
		if (meta || pkt_len > 3000) {
			attr.test.ctx_in = (u64)(uintptr_t)&ctx;
			attr.test.ctx_size_in = sizeof(ctx);
			attr.test.ctx_out = (u64)(uintptr_t)&d->ctx_out;
			attr.test.ctx_size_out = sizeof(d->ctx_out);
		}
		prog->bpf_func = jit ? bpf_prog_run_xdp_jit : diff_interp_xdp;
		err = bpf_prog_test_run_xdp(prog, &attr, &attr, NULL);
		prog->bpf_func = saved;
		fuzz_assert(!err || err == -ENOMEM || err == -ENOSPC, "test run: %d", err);
		d->ret = attr.test.retval | (u64)(err == -ENOMEM) << 40;
		d->out_len = attr.test.data_size_out;
		d->ri = bpf_redirect_info;
		free(pkt);
	}
	for (i = 0; i < __BPF_ABORT_MAX; i++) {
		d->aborts[i] = prog->aux->abort_cnt[i] - before[i];
		if (d->aborts[i] && !d->reason)
			d->reason = i;
	}
	d->trace_len = bpf_trace_pipe_read(d->trace, sizeof(d->trace));
	while (bpf_trace_pipe_read(drain, sizeof(drain)))
		;	/* the rest is not compared */
	diff_snap_maps(d);
	diff_sort_hash(d);
}

/* The interpreter again, from a deeper stack (its stack array moves). */
static noinline void diff_one_moved(struct bpf_prog *prog, u8 flags, u8 sel,
				    struct diff_state *d, u8 *mem)
{
	volatile u8 *pad = __builtin_alloca(1000 + sel);

	pad[0] = 0;
	diff_one(prog, flags, sel, false, d, mem);
	pad[1] = pad[0];
}

/* NULL when @a and @b agree, else what differs */
static const char *diff_what(const struct diff_state *a, const struct diff_state *b)
{
	u32 i;

	if (a->ret != b->ret)
		return "r0";
	if (a->reason != b->reason)
		return "abort reason";
	for (i = 0; i < __BPF_ABORT_MAX; i++)
		if (a->aborts[i] != b->aborts[i])
			return "abort counters";
	if (a->out_len != b->out_len || memcmp(a->out, b->out, a->out_len))
		return "packet/memory bytes";
	if (memcmp(&a->ctx_out, &b->ctx_out, sizeof(a->ctx_out)))
		return "ctx_out";
	if (memcmp(a->arena, b->arena, sizeof(a->arena)))
		return "array map values";
	if (a->nr_keys != b->nr_keys || memcmp(a->keys, b->keys, sizeof(a->keys)) ||
	    memcmp(a->vals, b->vals, sizeof(a->vals)))
		return "hash map contents";
	if (memcmp(&a->ri, &b->ri, sizeof(a->ri)))
		return "redirect info";
	if (a->trace_len != b->trace_len || memcmp(a->trace, b->trace, a->trace_len))
		return "trace output";
	return NULL;
}

/* the checked program, for the report of a difference */
static void diff_dump(const struct bpf_prog *prog)
{
	u32 i;

	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];

		fprintf(stderr, "  %3u: code %02x dst r%u src r%u off %d imm %d\n", i, insn->code,
			insn->dst_reg, insn->src_reg, insn->off, insn->imm);
	}
}

/* Aborts of a failed run-time region check (not the budget or limits). */
static bool diff_region_abort(u32 reason)
{
	switch (reason) {
	case BPF_ABORT_PKT_OOB:
	case BPF_ABORT_MAP_OOB:
	case BPF_ABORT_STACK_OOB:
	case BPF_ABORT_MEM_OOB:
	case BPF_ABORT_HELPER_ARG_OOB:
	case BPF_ABORT_MISALIGNED_ATOMIC:
		return true;
	}
	return false;
}

/* PROG_ARRAY slot 0 holds @prog (flags bit 2: the program tail-calls itself) */
static void diff_slot(struct bpf_prog *prog, u8 flags)
{
	u32 key = 0, id = prog->aux->id;

	if (flags & 4)
		fuzz_assert(!uxdp_bpf_map_update_elem(prog_array_id, &key, &id, BPF_ANY),
			    "prog array slot");
}

/*
 * @prog on the interpreter (a) and, when JITed, on the JIT (b); the same
 * for its hardened twin @hard (h, hj). a/b and h/hj must agree, and so
 * must a/h: the hardened runtime only adds checks, so an abort or any
 * other difference it shows is an access the checker accepted wrongly.
 * Differences that move with the interpreter's stack and memory (a
 * program that computes with addresses) are not reported.
 */
static void diff_run(struct bpf_prog *prog, struct bpf_prog *hard, u8 flags, u8 sel)
{
	static struct diff_state start, a, a2, b, h, hj;
	u8 *mem = malloc(sel ? sel : 1), *mem2 = malloc(sel ? sel : 1);
	const char *what = NULL, *vs = NULL;
	const struct diff_state *x = NULL;
	char drain[256];

	fuzz_assert(mem && mem2, "malloc");
	while (bpf_trace_pipe_read(drain, sizeof(drain)))
		;
	diff_snap_maps(&start);
	diff_slot(prog, flags);
	diff_one(prog, flags, sel, false, &a, mem);
	if (prog->jited) {
		diff_restore_maps(&start);
		diff_one(prog, flags, sel, true, &b, mem);
		if ((what = diff_what(&a, &b)))
			x = &b, vs = "normal interpreter and normal JIT";
	}
	diff_restore_maps(&start);
	diff_slot(hard, flags);
	diff_one(hard, flags, sel, false, &h, mem);
	if (!what && (what = diff_what(&a, &h)))
		x = &h, vs = "normal and hardened interpreter";
	if (hard->jited) {
		diff_restore_maps(&start);
		diff_one(hard, flags, sel, true, &hj, mem);
		if (!what && (what = diff_what(&h, &hj)))
			x = &hj, vs = "hardened interpreter and hardened JIT";
	}
	if (what && !diff_uses_clock(prog)) {
		/* the interpreter again with its stack and memory moved */
		diff_restore_maps(&start);
		diff_slot(prog, flags);
		diff_one_moved(prog, flags, sel, &a2, mem2);
		if (!diff_what(&a, &a2)) {
			diff_dump(prog);
			fprintf(stderr, "hardened:\n");
			diff_dump(hard);
			if (x == &h && diff_region_abort(h.reason) && h.reason != a.reason)
				fuzz_bug("hardened run: %s check fired on an accepted program (checker bug)",
					 bpf_abort_reason_str(h.reason));
			fuzz_bug("%s differ in %s: r0 %#llx vs %#llx, abort %u vs %u", vs, what,
				 (unsigned long long)(x == &hj ? h.ret : a.ret),
				 (unsigned long long)x->ret, x == &hj ? h.reason : a.reason,
				 x->reason);
		}
	}
	diff_restore_maps(&start);
	free(mem);
	free(mem2);
}

static const u8 valid_codes[] = {
	/* ALU64 / ALU K and X */
	0x07, 0x0f, 0x17, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x47, 0x4f, 0x57, 0x5f, 0x67, 0x6f,
	0x77, 0x7f, 0x87, 0x97, 0x9f, 0xa7, 0xaf, 0xb7, 0xbf, 0xc7, 0xcf, 0xd4, 0xdc, 0xd7,
	0x04, 0x0c, 0x14, 0x1c, 0x24, 0x2c, 0x34, 0x3c, 0x44, 0x4c, 0x54, 0x5c, 0x64, 0x6c,
	0x74, 0x7c, 0x84, 0x94, 0x9c, 0xa4, 0xac, 0xb4, 0xbc, 0xc4, 0xcc,
	/* JMP, JMP32 */
	0x05, 0x15, 0x1d, 0x25, 0x2d, 0x35, 0x3d, 0x45, 0x4d, 0x55, 0x5d, 0x65, 0x6d,
	0xa5, 0xad, 0xb5, 0xbd, 0xc5, 0xcd, 0xd5, 0xdd, 0x16, 0x1e, 0x26, 0x2e, 0x56, 0x5e,
	0xa6, 0xae, 0xb6, 0xbe,
	/* LDX, ST, STX, atomics, sign-extending loads */
	0x61, 0x69, 0x71, 0x79, 0x62, 0x6a, 0x72, 0x7a, 0x63, 0x6b, 0x73, 0x7b, 0xc3, 0xdb, 0xd3, 0xcb,
	0x81, 0x89, 0x91,
	/* call, exit, ld_imm64 (several weights) */
	0x85, 0x85, 0x85, 0x95, 0x18, 0x18,
};
static const s32 valid_atomics[] = { 0x00, 0x01, 0x40, 0x41, 0x50, 0x51, 0xa0, 0xa1, 0xe1, 0xf1,
				     BPF_LOAD_ACQ, BPF_STORE_REL };
static const s32 helper_ids[] = {
	BPF_FUNC_map_lookup_elem, BPF_FUNC_map_update_elem, BPF_FUNC_map_delete_elem,
	BPF_FUNC_tail_call, BPF_FUNC_xdp_adjust_head, BPF_FUNC_xdp_adjust_tail,
	BPF_FUNC_xdp_adjust_meta, BPF_FUNC_redirect, BPF_FUNC_redirect_map, BPF_FUNC_csum_diff,
	BPF_FUNC_ktime_get_ns, BPF_FUNC_get_smp_processor_id, BPF_FUNC_xdp_load_bytes,
	BPF_FUNC_xdp_store_bytes, BPF_FUNC_xdp_get_buff_len, BPF_FUNC_loop,
	BPF_FUNC_get_prandom_u32, BPF_FUNC_trace_printk, BPF_FUNC_map_peek_elem,
	BPF_FUNC_fib_lookup, BPF_FUNC_check_mtu, BPF_FUNC_ringbuf_output,
};

/* Decode a structured input into @insns; returns the slot count. */
static u32 build_structured(const u8 *p, size_t n, bool xdp, struct bpf_insn *insns, u32 max)
{
	u32 len = 0;
	size_t i;

	if (xdp) {
		insns[len++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_W,
						   .dst_reg = 2, .src_reg = 1, .off = 0 };
		insns[len++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_W,
						   .dst_reg = 3, .src_reg = 1, .off = 4 };
	}
	insns[len++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 };
	for (i = 0; i + 4 <= n && len + 3 < max; i += 4) {
		u8 code = valid_codes[p[i] % sizeof(valid_codes)];
		struct bpf_insn *insn = &insns[len++];

		*insn = (struct bpf_insn){ .code = code, .dst_reg = (p[i + 1] & 0xf) % 11,
					   .src_reg = (p[i + 1] >> 4) % 11 };
		switch (BPF_CLASS(code)) {
		case BPF_JMP:
		case BPF_JMP32:
			if (BPF_OP(code) == BPF_CALL) {
				insn->dst_reg = insn->src_reg = 0;
				/* 1 in 8: a bpf-to-bpf call (src 1) forward */
				if (p[i + 2] % 8 == 0) {
					insn->src_reg = BPF_PSEUDO_CALL;
					insn->imm = p[i + 3] % 16;
				} else {
					insn->imm = helper_ids[p[i + 3] % ARRAY_SIZE(helper_ids)];
				}
				break;
			}
			if (BPF_OP(code) == BPF_EXIT) {
				insn->dst_reg = insn->src_reg = 0;
				break;
			}
			insn->off = (s8)p[i + 2] % 12;
			if (BPF_OP(code) == BPF_JA) {
				insn->dst_reg = insn->src_reg = 0;
				break;
			}
			if (BPF_SRC(code) == BPF_K) {
				insn->src_reg = 0;
				insn->imm = (s8)p[i + 3];
			}
			break;
		case BPF_LDX:
			insn->off = (s8)p[i + 2];
			if (BPF_MODE(code) == BPF_MEMSX && BPF_SIZE(code) == BPF_DW)
				insn->code = BPF_LDX | BPF_MEM | BPF_DW;
			break;
		case BPF_ST:
			insn->src_reg = 0;
			insn->off = (s8)p[i + 2];
			insn->imm = (s8)p[i + 3];
			break;
		case BPF_STX:
			insn->off = (s8)p[i + 2];
			if (BPF_MODE(code) == BPF_ATOMIC)
				insn->imm = valid_atomics[p[i + 3] % ARRAY_SIZE(valid_atomics)];
			break;
		case BPF_LD:	/* ld_imm64: a constant, or a map (pointer or value) */
			insn->src_reg = p[i + 3] % 3;
			insn->imm = insn->src_reg ? map_ids[p[i + 2] % ARRAY_SIZE(map_ids)] :
						    (s8)p[i + 2];
			insns[len++] = (struct bpf_insn){ .imm = insn->src_reg == BPF_PSEUDO_MAP_VALUE ?
									p[i + 2] % 16 : 0 };
			break;
		default:	/* ALU */
			if (BPF_OP(code) == BPF_END) {
				insn->src_reg = 0;
				insn->imm = 16 << (p[i + 3] % 3);
			} else if (BPF_OP(code) == BPF_NEG) {
				insn->src_reg = 0;
			} else if (BPF_SRC(code) == BPF_K) {
				insn->src_reg = 0;
				insn->imm = (s8)p[i + 3];
				/* MOVSX/SDIV forms live in off */
				if (BPF_OP(code) == BPF_MOV || BPF_OP(code) == BPF_DIV ||
				    BPF_OP(code) == BPF_MOD)
					insn->off = p[i + 2] % 4 == 0 ? 1 : 0;
			}
			break;
		}
	}
	insns[len++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpf_prog *prog, *hard;
	u8 flags, sel;
	u32 len, i, key = 0;
	int err;

	if (size < FUZZ_HDR + 4)
		return 0;
	flags = data[0];
	sel = data[1];
	if (flags & 8) {
		static struct bpf_insn built[FUZZ_MAX_INSNS];

		len = build_structured(data + FUZZ_HDR, size - FUZZ_HDR, !(flags & 1), built,
				       FUZZ_MAX_INSNS);
		prog = bpf_prog_alloc(len);
		if (IS_ERR_OR_NULL(prog))
			return 0;
		memcpy(prog->insnsi, built, len * sizeof(struct bpf_insn));
	} else {
		len = (size - FUZZ_HDR) / sizeof(struct bpf_insn);
		if (!len)
			return 0;
		if (len > FUZZ_MAX_INSNS)
			len = FUZZ_MAX_INSNS;
		prog = bpf_prog_alloc(len);
		if (IS_ERR_OR_NULL(prog))
			return 0;
		memcpy(prog->insnsi, data + FUZZ_HDR, len * sizeof(struct bpf_insn));
	}
	for (i = 0; i < len; i++) {
		struct bpf_insn *insn = &prog->insnsi[i];

		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_VALUE))
			insn->imm = map_ids[(u32)insn->imm % ARRAY_SIZE(map_ids)];
	}
	prog->type = flags & 1 ? BPF_PROG_TYPE_UNSPEC : BPF_PROG_TYPE_XDP;
	/* as if loaded with BTF func_info: callbacks (bpf_loop) may be taken */
	prog->aux->func_info_cnt = 1;
	/* the hardened twin, from the same instructions */
	hard = bpf_prog_alloc(len);
	if (IS_ERR_OR_NULL(hard)) {
		bpf_prog_put(prog);
		return 0;
	}
	memcpy(hard->insnsi, prog->insnsi, len * sizeof(struct bpf_insn));
	memcpy(pkt_src, prog->insnsi, len * sizeof(struct bpf_insn));
	pkt_src_len = len;
	hard->type = prog->type;
	hard->aux->hardened = true;
	hard->aux->func_info_cnt = 1;
	err = bpf_prog_load(&prog, log_buf, sizeof(log_buf));
	if (err) {
		fuzz_assert(err == -EINVAL || err == -EACCES || err == -E2BIG ||
			    err == -ENOMEM || err == -ENOTSUPP || err == -EFAULT ||
			    err == -EPERM || err == -ENOENT || err == -EBADF ||
			    err == -EPROTO,
			    "bpf_prog_load: unexpected error %d (%s)", err, log_buf);
		bpf_prog_put(prog);
		bpf_prog_put(hard);
		return 0;
	}
	err = bpf_prog_load(&hard, log_buf, sizeof(log_buf));
	if (err == -ENOMEM) {
		bpf_prog_put(prog);
		bpf_prog_put(hard);
		return 0;
	}
	fuzz_assert(!err, "accepted, but not when hardened: %d (%s)", err, log_buf);
	fuzz_assert(hard->aux->hardened && !prog->aux->hardened, "hardened flag");
	if (!(flags & 4) || flags & 1 || bpf_prog_alloc_id(prog) <= 0 ||
	    bpf_prog_alloc_id(hard) <= 0)
		flags &= ~4;
	diff_run(prog, hard, flags, sel);	/* both runtimes, normal and hardened, compared */
	if (flags & 4)
		uxdp_bpf_map_delete_elem(prog_array_id, &key);
	bpf_prog_put(prog);
	bpf_prog_put(hard);
	return 0;
}
