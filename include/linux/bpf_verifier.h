/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the load-time checker (kernel/bpf/verifier.c) leaves behind for the
 * interpreter (kernel/bpf/core.c): the internal opcodes it patches into
 * prog->insnsi, the per-instruction memory region of every access that
 * needs a run-time check, and the helper call table.
 *
 * Internal opcodes (never accepted from user space; bpf_check() rejects
 * them on input because their modes are invalid in the UAPI):
 *
 *   BPF_LDX | BPF_PROBE_MEM | size	load checked against insn_region[pc]
 *   BPF_LDX | BPF_PROBE_MEMSX | size	sign-extending load, checked
 *   BPF_LDX | BPF_CTX_FIELD | BPF_W	struct xdp_md field that needs more
 *					than one load (imm = enum bpf_ctx_field)
 *   BPF_ST  | BPF_PROBE_MEM | size	store of imm, checked
 *   BPF_STX | BPF_PROBE_MEM | size	store of src, checked
 *   BPF_STX | BPF_PROBE_ATOMIC | size	atomic op (imm as BPF_ATOMIC), checked
 *   BPF_JMP | BPF_TAIL_CALL		patched helper 12 (bpf_tail_call)
 *   BPF_JMP32 | BPF_CALL			bpf-to-bpf call: imm relative as in the
 *					UAPI, off = caller frame size in bytes
 *   BPF_JMP | BPF_CALL (src 0)		helper call, imm = index in calls[]
 *   ld_imm64				pseudo sources resolved to plain constants
 *
 * Kernel: include/linux/bpf_verifier.h, include/linux/filter.h
 *	   (BPF_PROBE_MEM, BPF_TAIL_CALL, BPF_CALL_ARGS)
 * Differs: the kernel patches multi-instruction sequences and proves every
 *	    access; uxdp keeps the instruction count and checks at run time
 *	    what it does not prove.
 */
#ifndef _UXDP_LINUX_BPF_VERIFIER_H
#define _UXDP_LINUX_BPF_VERIFIER_H

#include <linux/bpf.h>

#define BPF_PROBE_MEM		0x20	/* LDX/ST/STX: run-time checked access */
#define BPF_PROBE_MEMSX		0xa0	/* LDX: checked sign-extending load */
#define BPF_PROBE_ATOMIC	0xe0	/* STX: checked atomic */
#define BPF_CTX_FIELD		0xe0	/* LDX W: multi-load ctx field */
/* ISA v4 / 6.x UAPI names the system header may predate. */
#ifndef BPF_MEMSX
#define BPF_MEMSX		0x80
#endif
#ifndef BPF_JCOND
#define BPF_JCOND		0xe0
#endif
#ifndef BPF_MAY_GOTO
#define BPF_MAY_GOTO		0
#endif
#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ		0x100
#define BPF_STORE_REL		0x110
#endif
#define BPF_MAX_LOOPS		(8 * 1024 * 1024)	/* may_goto budget */
/* Run-time budget for loops the checker does not bound (see core.c). */
#define BPF_INSN_BUDGET		(1 << 24)

#ifndef BPF_TAIL_CALL
#define BPF_TAIL_CALL		0xf0
#endif

/* Hidden scratch register, as the kernel's BPF_REG_AX. */
#define BPF_REG_AX		MAX_BPF_REG
#define MAX_BPF_EXT_REG		(MAX_BPF_REG + 1)

enum bpf_ctx_field {
	BPF_CTX_INGRESS_IFINDEX,	/* xdp->rxq->dev->ifindex */
	BPF_CTX_RX_QUEUE_INDEX,		/* xdp->rxq->queue_index */
	BPF_CTX_EGRESS_IFINDEX,		/* xdp->txq->dev->ifindex */
};

/*
 * Memory regions a checked access is held to. The low 4 bits are the kind,
 * the rest the index in aux->used_maps for BPF_RGN_MAP.
 */
enum bpf_region_kind {
	BPF_RGN_NONE,
	BPF_RGN_STACK,		/* the whole call-chain stack */
	BPF_RGN_PKT,		/* [data_meta, data_end) of the xdp_buff */
	BPF_RGN_MAP,		/* [arena_lo, arena_hi) of used_maps[idx] */
	BPF_RGN_MEM,		/* raw test program memory [r1, r1 + r2) */
	BPF_RGN_ANY,		/* any of the above (paths disagree) */
};
#define BPF_RGN(kind, idx)	((u32)((kind) | ((idx) << 4)))
#define BPF_RGN_KIND(r)		((r) & 0xf)
#define BPF_RGN_IDX(r)		((r) >> 4)

/* A helper pointer argument checked before the call. */
struct bpf_mem_check {
	u8 ptr_reg;
	u8 size_reg;		/* 0: @size is the size */
	bool or_null;		/* NULL with size 0 is fine */
	u32 region;
	u32 size;
};

#define BPF_CALL_MAX_CHECKS	3

struct bpf_call_desc {
	u64 (*func)(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5);
	u32 func_id;
	u32 nr_checks;
	struct bpf_mem_check checks[BPF_CALL_MAX_CHECKS];
};

/* prog->aux->verifier_info after bpf_check(). */
struct bpf_verifier_info {
	u32 *insn_aux;			/* per insn: region of a checked access;
					 * insn count of the callee at a
					 * bpf-to-bpf call */
	struct bpf_call_desc *calls;
	u32 nr_calls;
	bool zero_stack;		/* variable-offset stack reads exist */
};

void bpf_verifier_info_free(struct bpf_verifier_info *vi);

#endif
