// SPDX-License-Identifier: GPL-2.0
/*
 * ptp_classify_raw(): the kernel's classic-BPF PTP classifier (PTP event
 * messages over UDP/IPv4, UDP/IPv6, 802.1Q and plain Ethernet), converted
 * to eBPF once at init and run per packet like any program (the JIT's
 * direct image on x86-64), so its per-packet cost is the real cost of
 * running a BPF program.
 *
 * The converter maps A to R0 and X to R7 as bpf_convert_filter() does,
 * with ctx->data in R6 and ctx->data_end in R8: the program is an XDP one
 * over the linear frame. Classic BPF packet loads (LD ABS/IND) become the
 * packet bounds check XDP programs make plus a direct load and a byte
 * swap, so the verifier proves every load; an out-of-bounds load returns 0
 * (PTP_CLASS_NONE), which is what the kernel's bpf_skb_load_helper path
 * does. Jumps are resolved in a second pass over the per-instruction
 * output lengths.
 *
 * Kernel: net/core/ptp_classifier.c ptp_classifier_init(),
 *	   ptp_classify_raw(); net/core/filter.c bpf_convert_filter()
 * Differs: an XDP-context program over the linear frame (data, data_end)
 *	    instead of an skb context with LD_ABS instructions; the PTP
 *	    version test (V1/V2) of newer kernels' ptp_classify_raw callers
 *	    is left to them, as in the kernel.
 */
#include <errno.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/printk.h>
#include <linux/filter.h>
#include <linux/skbuff.h>
#include <net/dsa.h>
#include <net/xdp.h>

/* The classifier, as net/core/ptp_classifier.c writes it. */
static const struct sock_filter ptp_filter[] = {
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0800, 0, 12),	/* -> test_ipv6 */
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 23),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 9),		/* -> drop_ipv4 */
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 20),
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1fff, 7, 0),	/* fragments -> drop */
	BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 14),
	BPF_STMT(BPF_LD | BPF_H | BPF_IND, 16),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTP_EV_PORT, 0, 4),
	BPF_STMT(BPF_LD | BPF_H | BPF_IND, 22),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PTP_CLASS_VMASK),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, PTP_CLASS_IPV4),
	BPF_STMT(BPF_RET | BPF_A, 0),
	BPF_STMT(BPF_RET | BPF_K, PTP_CLASS_NONE),		/* drop_ipv4 */
	/* test_ipv6 (14) */
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x86dd, 0, 9),	/* -> test_8021q */
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 20),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 6),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 56),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTP_EV_PORT, 0, 4),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 62),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PTP_CLASS_VMASK),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, PTP_CLASS_IPV6),
	BPF_STMT(BPF_RET | BPF_A, 0),
	BPF_STMT(BPF_RET | BPF_K, PTP_CLASS_NONE),		/* drop_ipv6 */
	/* test_8021q (24) */
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x8100, 0, 31),	/* -> test_ieee1588 */
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 16),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88f7, 0, 6),	/* -> test_8021q_ipv4 */
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 18),
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x8, 34, 0),	/* general msg -> drop_ieee1588 */
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 18),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PTP_CLASS_VMASK),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, PTP_CLASS_VLAN | PTP_CLASS_L2),
	BPF_STMT(BPF_RET | BPF_A, 0),
	/* test_8021q_ipv4 (33) */
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0800, 0, 12),	/* -> test_8021q_ipv6 */
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 27),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 9),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 24),
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1fff, 7, 0),
	BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 18),
	BPF_STMT(BPF_LD | BPF_H | BPF_IND, 20),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTP_EV_PORT, 0, 4),
	BPF_STMT(BPF_LD | BPF_H | BPF_IND, 26),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PTP_CLASS_VMASK),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, PTP_CLASS_VLAN | PTP_CLASS_IPV4),
	BPF_STMT(BPF_RET | BPF_A, 0),
	BPF_STMT(BPF_RET | BPF_K, PTP_CLASS_NONE),		/* drop_8021q_ipv4 */
	/* test_8021q_ipv6 (46) */
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x86dd, 0, 8),
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 24),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 17, 0, 6),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 60),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PTP_EV_PORT, 0, 4),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 66),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PTP_CLASS_VMASK),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, PTP_CLASS_VLAN | PTP_CLASS_IPV6),
	BPF_STMT(BPF_RET | BPF_A, 0),
	BPF_STMT(BPF_RET | BPF_K, PTP_CLASS_NONE),		/* drop_8021q_ipv6 */
	/* test_ieee1588 (56) */
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88f7, 0, 6),	/* -> drop_ieee1588 */
	BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 14),
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x8, 4, 0),
	BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 14),
	BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PTP_CLASS_VMASK),
	BPF_STMT(BPF_ALU | BPF_OR | BPF_K, PTP_CLASS_L2),
	BPF_STMT(BPF_RET | BPF_A, 0),
	BPF_STMT(BPF_RET | BPF_K, PTP_CLASS_NONE),		/* drop_ieee1588 (63) */
};

#define R0 BPF_REG_0
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R6 BPF_REG_6
#define R7 BPF_REG_7
#define R8 BPF_REG_8

static struct bpf_insn I(u8 code, u8 dst, u8 src, s16 off, s32 imm)
{
	return (struct bpf_insn){ .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };
}

/* Emit into @out at @n (if @out), return the new count. */
#define EMIT(...) do { if (out) out[n] = I(__VA_ARGS__); n++; } while (0)

/* eBPF length of each cBPF instruction (pass 1) and the conversion (pass 2). */
static int convert_one(const struct sock_filter *f, struct bpf_insn *out, int n, int self,
		       const int *addr, int ret0)
{
#define TO_RET0(at)	((s16)(ret0 - ((at) + 1)))
	u32 size;

	switch (f->code) {
	case BPF_LD | BPF_H | BPF_ABS:
	case BPF_LD | BPF_B | BPF_ABS:
		size = BPF_SIZE(f->code) == BPF_H ? 2 : 1;
		/* if (data + k + size > data_end) return 0 */
		EMIT(BPF_ALU64 | BPF_MOV | BPF_X, R2, R6, 0, 0);
		EMIT(BPF_ALU64 | BPF_ADD | BPF_K, R2, 0, 0, f->k + size);
		EMIT(BPF_JMP | BPF_JGT | BPF_X, R2, R8, TO_RET0(n), 0);
		EMIT(BPF_LDX | BPF_MEM | BPF_SIZE(f->code), R0, R6, f->k, 0);
		if (size == 2)
			EMIT(BPF_ALU | BPF_END | BPF_TO_BE, R0, 0, 0, 16);
		return n;
	case BPF_LD | BPF_H | BPF_IND:
		/* R3 = data + X; if (R3 + k + 2 > data_end) return 0 */
		EMIT(BPF_ALU64 | BPF_MOV | BPF_X, R3, R6, 0, 0);
		EMIT(BPF_ALU64 | BPF_ADD | BPF_X, R3, R7, 0, 0);
		EMIT(BPF_ALU64 | BPF_MOV | BPF_X, R2, R3, 0, 0);
		EMIT(BPF_ALU64 | BPF_ADD | BPF_K, R2, 0, 0, f->k + 2);
		EMIT(BPF_JMP | BPF_JGT | BPF_X, R2, R8, TO_RET0(n), 0);
		EMIT(BPF_LDX | BPF_MEM | BPF_H, R0, R3, f->k, 0);
		EMIT(BPF_ALU | BPF_END | BPF_TO_BE, R0, 0, 0, 16);
		return n;
	case BPF_LDX | BPF_B | BPF_MSH:
		EMIT(BPF_ALU64 | BPF_MOV | BPF_X, R2, R6, 0, 0);
		EMIT(BPF_ALU64 | BPF_ADD | BPF_K, R2, 0, 0, f->k + 1);
		EMIT(BPF_JMP | BPF_JGT | BPF_X, R2, R8, TO_RET0(n), 0);
		EMIT(BPF_LDX | BPF_MEM | BPF_B, R7, R6, f->k, 0);
		EMIT(BPF_ALU | BPF_AND | BPF_K, R7, 0, 0, 0xf);
		EMIT(BPF_ALU | BPF_LSH | BPF_K, R7, 0, 0, 2);
		return n;
	case BPF_ALU | BPF_AND | BPF_K:
	case BPF_ALU | BPF_OR | BPF_K:
		EMIT(BPF_ALU | BPF_OP(f->code) | BPF_K, R0, 0, 0, f->k);
		return n;
	case BPF_JMP | BPF_JEQ | BPF_K:
	case BPF_JMP | BPF_JSET | BPF_K: {
		int t = self + 1 + f->jt, e = self + 1 + f->jf;

		/* As bpf_convert_filter(): one insn when a branch falls through. */
		if (f->jf == 0) {
			EMIT(BPF_JMP | BPF_OP(f->code) | BPF_K, R0, 0,
			     addr ? addr[t] - (n + 1) : 0, f->k);
		} else if (f->jt == 0 && BPF_OP(f->code) == BPF_JEQ) {
			EMIT(BPF_JMP | BPF_JNE | BPF_K, R0, 0, addr ? addr[e] - (n + 1) : 0, f->k);
		} else {
			EMIT(BPF_JMP | BPF_OP(f->code) | BPF_K, R0, 0,
			     addr ? addr[t] - (n + 1) : 0, f->k);
			EMIT(BPF_JMP | BPF_JA, 0, 0, addr ? addr[e] - (n + 1) : 0, 0);
		}
		return n;
	}
	case BPF_RET | BPF_A:
		EMIT(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		return n;
	case BPF_RET | BPF_K:
		EMIT(BPF_ALU | BPF_MOV | BPF_K, R0, 0, 0, f->k);
		EMIT(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
		return n;
	default:
		return -EINVAL;
	}
#undef TO_RET0
}

int bpf_convert_filter_ptp(const struct sock_filter *prog, int len, struct bpf_insn *out)
{
	int addr[256], n, i;

	if (len <= 0 || len > 255)
		return -EINVAL;
	/* Pass 1: lengths; the prologue is 4 insns. */
	for (n = 4, i = 0; i < len; i++) {
		addr[i] = n;
		n = convert_one(&prog[i], NULL, n, i, NULL, 0);
		if (n < 0)
			return n;
	}
	addr[len] = n;		/* the shared "return 0" */
	if (!out)
		return n + 2;
	/* Pass 2. Prologue: R6 = ctx->data, R8 = ctx->data_end, A = X = 0. */
	n = 0;
	EMIT(BPF_LDX | BPF_MEM | BPF_W, R6, BPF_REG_1, offsetof(struct xdp_md, data), 0);
	EMIT(BPF_LDX | BPF_MEM | BPF_W, R8, BPF_REG_1, offsetof(struct xdp_md, data_end), 0);
	EMIT(BPF_ALU64 | BPF_MOV | BPF_K, R0, 0, 0, 0);
	EMIT(BPF_ALU64 | BPF_MOV | BPF_K, R7, 0, 0, 0);
	for (i = 0; i < len; i++)
		n = convert_one(&prog[i], out, n, i, addr, addr[len]);
	EMIT(BPF_ALU | BPF_MOV | BPF_K, R0, 0, 0, 0);
	EMIT(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static struct bpf_prog *ptp_insns;
static int ptp_users;

int ptp_classifier_init(void)
{
	int len = sizeof(ptp_filter) / sizeof(ptp_filter[0]);
	struct bpf_prog *prog;
	char log[256] = "";
	int n, err;

	if (ptp_users++)
		return 0;
	n = bpf_convert_filter_ptp(ptp_filter, len, NULL);
	if (n < 0)
		goto out_err;
	prog = bpf_prog_alloc(n);
	if (IS_ERR(prog)) {
		n = PTR_ERR(prog);
		goto out_err;
	}
	prog->type = BPF_PROG_TYPE_XDP;
	bpf_convert_filter_ptp(ptp_filter, len, prog->insnsi);
	err = bpf_prog_load(&prog, log, sizeof(log));
	if (err) {
		pr_warn("ptp_classify: converted program refused: %s\n", log);
		bpf_prog_free(prog);
		n = err;
		goto out_err;
	}
	ptp_insns = prog;
	return 0;

out_err:
	ptp_users--;
	return n;
}

void ptp_classifier_exit(void)
{
	if (ptp_users && !--ptp_users) {
		bpf_prog_put(ptp_insns);
		ptp_insns = NULL;
	}
}

unsigned int ptp_classify_raw(const struct sk_buff *skb)
{
	struct xdp_buff xdp = { 0 };

	if (unlikely(!ptp_insns))
		return PTP_CLASS_NONE;
	/* the linear frame as the program's packet; nothing else is read */
	xdp.data_hard_start = xdp.data_meta = xdp.data = skb->data;
	xdp.data_end = skb->data + skb_headlen(skb);
	return bpf_prog_run(ptp_insns, &xdp);
}
