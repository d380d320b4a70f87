// SPDX-License-Identifier: GPL-2.0
/*
 * DPDK's rte_bpf as a peer of uxdp-bench-prog: the same program, loaded
 * with rte_bpf_load() and run on its JIT (rte_bpf_get_jit()), where its
 * validator accepts it. rte_bpf has no XDP context, maps or XDP helpers,
 * and its validator refuses backward jumps, so only programs that read
 * ctx->data and ctx->data_end and call nothing can run there: the
 * context is the packet itself (an RTE_BPF_ARG_PTR of the frame's size),
 * the two ctx loads become "rX = packet" and "rX = packet + size"
 * (bench_dpdk_load()), and the frame size is fixed at load.
 *
 * Its own file: DPDK's headers bring their own eBPF definitions and
 * compiler flags (-march), kept out of the rest of the benchmark.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bpf.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "bench_dpdk.h"

#define CLS(c)		((c) & 0x07)
#define CLS_LD		0x00
#define CLS_LDX		0x01
#define CLS_ST		0x02
#define CLS_STX		0x03
#define CLS_ALU		0x04
#define CLS_JMP		0x05
#define CLS_JMP32	0x06
#define CLS_ALU64	0x07
#define OP(c)		((c) & 0xf0)
#define OP_MOV		0xb0
#define OP_CALL		0x80
#define OP_EXIT		0x90
#define OP_JA		0x00
#define OP_NEG		0x80
#define OP_END		0xd0
#define SRC_X		0x08
#define LDX_W		(CLS_LDX | 0x00 | 0x60)	/* BPF_LDX | BPF_W | BPF_MEM */
#define MOV64_X		(CLS_ALU64 | OP_MOV | 0x08)
#define ADD64_K		(CLS_ALU64 | 0x00)
#define XDP_MD_DATA	0
#define XDP_MD_DATA_END	4

struct bench_dpdk {
	struct rte_bpf *bpf;
	uint64_t (*func)(void *);
};

static bool reads_src(uint8_t c)
{
	switch (CLS(c)) {
	case CLS_LDX:
	case CLS_STX:
		return true;
	case CLS_ALU:
	case CLS_ALU64:
		return (c & SRC_X) && OP(c) != OP_END && OP(c) != OP_NEG;
	case CLS_JMP:
	case CLS_JMP32:
		return (c & SRC_X) && OP(c) != OP_CALL && OP(c) != OP_EXIT && OP(c) != OP_JA;
	}
	return false;
}

static bool reads_dst(uint8_t c)
{
	switch (CLS(c)) {
	case CLS_ST:
	case CLS_STX:
		return true;	/* the address */
	case CLS_ALU:
	case CLS_ALU64:
		return OP(c) != OP_MOV;
	case CLS_JMP:
	case CLS_JMP32:
		return OP(c) != OP_CALL && OP(c) != OP_EXIT && OP(c) != OP_JA;
	}
	return false;
}

static bool is_ctx_load(const struct ebpf_insn *x, uint16_t ctx)
{
	return x->code == LDX_W && (ctx >> x->src_reg & 1) &&
	       (x->off == XDP_MD_DATA || x->off == XDP_MD_DATA_END);
}

/* The context registers after @x: copies by MOV join, any other write leaves. */
static uint16_t ctx_step(uint16_t ctx, const struct ebpf_insn *x)
{
	uint8_t c = x->code;

	if (c == MOV64_X && (ctx >> x->src_reg & 1))
		return ctx | 1u << x->dst_reg;
	if (CLS(c) == CLS_ALU || CLS(c) == CLS_ALU64 || CLS(c) == CLS_LDX || CLS(c) == CLS_LD)
		return ctx & ~(1u << x->dst_reg);
	return ctx;
}

/*
 * The context registers are found by a straight scan: R1 at entry, copies
 * of it by MOV, any other write ends one. That holds only without control
 * flow into the middle of the scan, which the programs that qualify
 * respect (ctx loads at the top, no backward jumps: rte_bpf refuses them
 * anyway); any other use of a context register is refused, so is a call.
 */
static int rewrite(const struct ebpf_insn *in, uint32_t n, uint32_t size, struct ebpf_insn *out,
		   uint32_t *nout, char *err, size_t errlen)
{
	uint32_t *map = calloc(n + 1, sizeof(*map));
	uint16_t ctx = 1u << 1;
	uint32_t i, o = 0;

	if (!map)
		return -ENOMEM;
	/* where each instruction goes: a data_end load takes two */
	for (i = 0; i < n; i++) {
		map[i] = o;
		o += is_ctx_load(&in[i], ctx) && in[i].off == XDP_MD_DATA_END ? 2 : 1;
		ctx = ctx_step(ctx, &in[i]);
	}
	map[n] = o;
	ctx = 1u << 1;
	for (i = 0, o = 0; i < n; i++) {
		struct ebpf_insn x = in[i];
		uint8_t c = x.code;

		if (is_ctx_load(&x, ctx)) {
			out[o++] = (struct ebpf_insn){ .code = MOV64_X, .dst_reg = x.dst_reg,
						       .src_reg = x.src_reg };
			if (x.off == XDP_MD_DATA_END)
				out[o++] = (struct ebpf_insn){ .code = ADD64_K, .dst_reg = x.dst_reg,
							       .imm = (int32_t)size };
			ctx = ctx_step(ctx, &x);
			continue;
		}
		if ((CLS(c) == CLS_JMP && OP(c) == OP_CALL) ||
		    (c != MOV64_X && reads_src(c) && (ctx >> x.src_reg & 1)) ||
		    (reads_dst(c) && (ctx >> x.dst_reg & 1))) {
			snprintf(err, errlen, "insn %u: %s", i,
				 OP(c) == OP_CALL && CLS(c) == CLS_JMP ?
				 "a call (rte_bpf has no XDP helpers or maps)" :
				 "uses the context beyond data and data_end");
			free(map);
			return -EOPNOTSUPP;
		}
		if ((CLS(c) == CLS_JMP || CLS(c) == CLS_JMP32) && OP(c) != OP_CALL &&
		    OP(c) != OP_EXIT && !(CLS(c) == CLS_JMP32 && OP(c) == OP_JA))
			x.off = (int16_t)(map[i + 1 + x.off] - (o + 1));
		out[o++] = x;
		ctx = ctx_step(ctx, &x);
	}
	*nout = o;
	free(map);
	return 0;
}

/* rte_bpf_load() with what its validator says kept in @log, last line, not on stderr */
static struct rte_bpf *bench_dpdk_load_logged(const struct rte_bpf_prm *prm, char *log,
					      size_t len)
{
	FILE *old = rte_log_get_stream(), *f;
	struct rte_bpf *bpf;
	size_t sz = 0;
	char *buf = NULL, *nl;

	log[0] = '\0';
	f = open_memstream(&buf, &sz);
	if (f)
		rte_openlog_stream(f);
	bpf = rte_bpf_load(prm);
	if (!f)
		return bpf;
	rte_openlog_stream(old);
	fclose(f);
	while (sz && buf[sz - 1] == '\n')
		buf[--sz] = '\0';
	nl = strrchr(buf, '\n');
	snprintf(log, len, "%s", nl ? nl + 1 : buf);
	free(buf);
	return bpf;
}

int bench_dpdk_load(const void *insns, uint32_t cnt, uint32_t size, struct bench_dpdk **out,
		    char *err, size_t errlen)
{
	struct rte_bpf_prm prm = { .prog_arg = { .type = RTE_BPF_ARG_PTR, .size = size } };
	struct ebpf_insn *x = calloc(2 * (size_t)cnt, sizeof(*x));
	struct rte_bpf_jit jit = { 0 };
	struct bench_dpdk *d;
	char log[160];
	uint32_t n;
	int ret;

	*out = NULL;
	if (!x)
		return -ENOMEM;
	ret = rewrite(insns, cnt, size, x, &n, err, errlen);
	if (ret) {
		free(x);
		return ret;
	}
	prm.ins = x;
	prm.nb_ins = n;
	d = calloc(1, sizeof(*d));
	if (!d) {
		free(x);
		return -ENOMEM;
	}
	d->bpf = bench_dpdk_load_logged(&prm, log, sizeof(log));
	free(x);
	if (!d->bpf) {
		snprintf(err, errlen, "rte_bpf_load: %s", log[0] ? log : strerror(rte_errno));
		free(d);
		return -EINVAL;
	}
	if (rte_bpf_get_jit(d->bpf, &jit) || !jit.func) {
		snprintf(err, errlen, "rte_bpf has no JIT for it");
		rte_bpf_destroy(d->bpf);
		free(d);
		return -EOPNOTSUPP;
	}
	d->func = jit.func;
	*out = d;
	return 0;
}

void bench_dpdk_run(const struct bench_dpdk *d, void *pkt, uint32_t repeat, uint32_t *retval)
{
	uint64_t (*volatile func)(void *) = d->func;

	for (uint32_t i = 0; i < repeat; i++)
		*retval = (uint32_t)func(pkt);
}

void bench_dpdk_free(struct bench_dpdk *d)
{
	if (!d)
		return;
	rte_bpf_destroy(d->bpf);
	free(d);
}
