// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the load-time checker and the interpreter. The input is an
 * instruction stream with a small header; whatever bpf_check() accepts is
 * run (as XDP through BPF_PROG_TEST_RUN's frame layout, or as a raw
 * program over a buffer of exactly the given length) and must finish
 * without touching memory it does not own (ASan) and without hanging (the
 * interpreter's instruction budget bounds every run).
 *
 * Input: byte 0 flags (bit 0: raw BPF_PROG_TYPE_UNSPEC, else XDP; bit 1:
 * metadata in front of the packet; bit 2: put the program into slot 0 of
 * the PROG_ARRAY, so a tail call reaches itself), byte 1 packet length
 * selector, bytes 2-3 unused, then struct bpf_insn slots (at most
 * FUZZ_MAX_INSNS). ld_imm64 map references (BPF_PSEUDO_MAP_FD/VALUE) are
 * pointed at one of the harness's maps by imm modulo their number, so the
 * fuzzer does not have to guess map ids.
 *
 * Kernel: kernel/bpf/verifier.c bpf_check(), kernel/bpf/core.c (run)
 */
#include <errno.h>
#include <string.h>

#include <linux/bpf.h>
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

static void run_xdp(struct bpf_prog *prog, u8 flags, u8 sel, const struct bpf_insn *insns)
{
	u32 pkt_len = ETH_HLEN + (u32)sel * 16;	/* up to 4094: linear and frags */
	u32 meta = flags & 2 ? 8 : 0;
	struct xdp_md ctx = { .data = meta, .data_end = meta + pkt_len };
	union bpf_attr attr = {};
	u8 *pkt;
	u32 i;
	int err;

	if (pkt_len > 3000)
		ctx.data_end = meta + 3000;
	pkt = malloc(meta + pkt_len);
	if (!pkt)
		return;
	/* packet bytes from the instructions: programs can branch on them */
	for (i = 0; i < meta + pkt_len; i++)
		pkt[i] = ((const u8 *)insns)[i % (prog->len * sizeof(*insns))];
	attr.test.data_in = (u64)(uintptr_t)pkt;
	attr.test.data_size_in = meta + pkt_len;
	attr.test.repeat = 1;
	if (meta || pkt_len > 3000) {
		attr.test.ctx_in = (u64)(uintptr_t)&ctx;
		attr.test.ctx_size_in = sizeof(ctx);
	}
	err = bpf_prog_test_run_xdp(prog, &attr, &attr, NULL);
	fuzz_assert(!err || err == -ENOMEM, "test run: %d", err);
	free(pkt);
}

static void run_raw(struct bpf_prog *prog, u8 sel)
{
	enum bpf_abort_reason reason = BPF_ABORT_NONE;
	u8 *mem = malloc(sel ? sel : 1);

	if (!mem)
		return;
	memset(mem, 0x5a, sel ? sel : 1);
	bpf_prog_run_raw(prog, mem, sel, &reason);
	fuzz_assert(reason < __BPF_ABORT_MAX, "reason %d", reason);
	free(mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bpf_prog *prog;
	u8 flags, sel;
	u32 len, i, key = 0;
	int err;

	if (size < FUZZ_HDR + sizeof(struct bpf_insn))
		return 0;
	flags = data[0];
	sel = data[1];
	len = (size - FUZZ_HDR) / sizeof(struct bpf_insn);
	if (len > FUZZ_MAX_INSNS)
		len = FUZZ_MAX_INSNS;
	prog = bpf_prog_alloc(len);
	if (IS_ERR_OR_NULL(prog))
		return 0;
	memcpy(prog->insnsi, data + FUZZ_HDR, len * sizeof(struct bpf_insn));
	for (i = 0; i < len; i++) {
		struct bpf_insn *insn = &prog->insnsi[i];

		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_VALUE))
			insn->imm = map_ids[(u32)insn->imm % ARRAY_SIZE(map_ids)];
	}
	prog->type = flags & 1 ? BPF_PROG_TYPE_UNSPEC : BPF_PROG_TYPE_XDP;
	err = bpf_check(&prog, log_buf, sizeof(log_buf));
	if (err) {
		fuzz_assert(err == -EINVAL || err == -EACCES || err == -E2BIG ||
			    err == -ENOMEM || err == -ENOTSUPP || err == -EFAULT ||
			    err == -EPERM || err == -ENOENT || err == -EBADF,
			    "bpf_check: unexpected error %d (%s)", err, log_buf);
		bpf_prog_put(prog);
		return 0;
	}
	if (flags & 4 && !(flags & 1) && bpf_prog_alloc_id(prog) > 0) {
		u32 id = prog->aux->id;

		if (uxdp_bpf_map_update_elem(prog_array_id, &key, &id, BPF_ANY))
			flags &= ~4;
	} else {
		flags &= ~4;
	}
	if (flags & 1)
		run_raw(prog, sel);
	else
		run_xdp(prog, flags, sel, prog->insnsi);
	if (flags & 4)
		uxdp_bpf_map_delete_elem(prog_array_id, &key);
	bpf_prog_put(prog);
	return 0;
}
