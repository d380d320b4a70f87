// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench-prog: `uxdp prog run ... repeat N` next to the kernel's
 * bpf_prog_test_run_opts() with the same repeat and the same packet, in the
 * same process, for each example program, on both uxdp runtimes: the
 * interpreter and the x86-64 JIT (each object is loaded twice, with
 * net.core.bpf_jit_enable 0 and 1), and, for the programs that have one,
 * the same algorithm in C compiled natively (bench_native.c: the limit), and
 * DPDK's rte_bpf JIT where it can run the program (bench_dpdk.c).
 * Prints ns/run for each (gross), the same net of each runtime's cost for
 * the constant program xdp_pass (always measured first), the ratios
 * interpreter / JIT and kernel / JIT (above 1: the JIT is faster), JIT /
 * native and ns per executed instruction, as a table and (--json) as one
 * JSON object. Where the kernel cannot load programs (no root/CAP_BPF) its
 * column is left out and the other comparisons still run.
 *
 *   uxdp-bench-prog [--json] [--repeat N] [--rounds R] [--size BYTES] PROGS_DIR [NAME...]
 *
 * Each figure is the median of R rounds; kernel, interpreter, JIT and
 * native rounds alternate.
 * The executed instruction count comes from a small reference walker over
 * the program as libbpf loaded it into the kernel (subprograms appended):
 * it follows the same path for the same packet, with helper calls stubbed
 * (map lookups hit a zeroed value). It is exact for programs whose path
 * does not depend on map contents (pass, drop, xdp1, csum loop, ...).
 *
 * Kernel: tools/bpf/bpftool/prog.c do_run() (what is timed on each side)
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <uxdp_bpf.h>

#include "bench_native.h"
#ifdef BENCH_DPDK
#include "bench_dpdk.h"
#endif

struct bench_case {
	const char *obj;
	const char *prog;
};

static const struct bench_case cases[] = {
	{ "xdp_pass.o", "xdp_pass_prog" },
	{ "xdp_drop.o", "xdp_drop_prog" },
	{ "xdp1.o", "xdp_prog1" },
	{ "xdp_hdr_parse.o", "xdp_hdr_parse_prog" },
	{ "xdp_csum_loop.o", "xdp_csum_loop_prog" },
	{ "xdp_byte_scan.o", "xdp_byte_scan_prog" },
	{ "xdp_hash.o", "xdp_hash_prog" },
	{ "xdp_loop_csum.o", "xdp_loop_csum_prog" },
	{ "xdp_rxq_info.o", "xdp_prognum0" },
	{ "xdp_redirect_map.o", "xdp_redirect_map_prog" },
	{ "xdp_parse_v3.o", "xdp_parse_prog" },
	{ "xdp_globals.o", "xdp_globals_prog" },
	{ "xdp_maps.o", "xdp_maps_prog" },
	{ "xdp_helpers.o", "xdp_helpers_prog" },
	{ "xdp_tailcall.o", "xdp_tail_entry" },
	{ "xdp_frags.o", "xdp_linear_prog" },
	{ "xdp_adjust.o", "xdp_tail" },
};

/* ---- executed-instruction walker --------------------------------------- */

#define WALK_STACK	(512 * 9)
#define WALK_MAX	(1u << 24)

struct walk_ctx {
	uint64_t data, data_end, data_meta;
	uint32_t ingress_ifindex, rx_queue_index;
};

static unsigned char walk_value[1 << 16];	/* what every map lookup returns */

static int walk_size(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

/* Only the packet (with its headroom), the stack, map values and ctx. */
static bool walk_addr_ok(uint64_t addr, int size, const struct walk_ctx *ctx,
			 uint64_t ctx_addr, const unsigned char *stack)
{
	uint64_t s = (uintptr_t)stack, v = (uintptr_t)walk_value;

	if (addr >= ctx->data && addr + size <= ctx->data_end)
		return true;
	if (addr >= s && addr + size <= s + WALK_STACK)
		return true;
	if (addr >= v && addr + size <= v + sizeof(walk_value))
		return true;
	return addr >= ctx_addr && addr + size <= ctx_addr + 24;
}

static uint64_t walk_load(uint64_t addr, int size, const struct walk_ctx *ctx, uint64_t ctx_addr)
{
	uint64_t v = 0;

	if (addr >= ctx_addr && addr < ctx_addr + 24 && size == 4) {
		switch (addr - ctx_addr) {
		case 0: return ctx->data;
		case 4: return ctx->data_end;
		case 8: return ctx->data_meta;
		case 12: return ctx->ingress_ifindex;
		case 16: return ctx->rx_queue_index;
		default: return 0;
		}
	}
	memcpy(&v, (void *)(uintptr_t)addr, size);
	return v;
}

static bool walk_cond(uint8_t op, uint64_t a, uint64_t b, bool is32)
{
	if (is32) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
#define S(x) (is32 ? (int64_t)(int32_t)(x) : (int64_t)(x))
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return a & b;
	case BPF_JSGT: return S(a) > S(b);
	case BPF_JSGE: return S(a) >= S(b);
	case BPF_JSLT: return S(a) < S(b);
	case BPF_JSLE: return S(a) <= S(b);
	}
#undef S
	return false;
}

static uint64_t walk_alu(uint8_t op, uint64_t d, uint64_t s, bool is32)
{
	if (is32) {
		d = (uint32_t)d;
		s = (uint32_t)s;
	}
	switch (op) {
	case BPF_ADD: d += s; break;
	case BPF_SUB: d -= s; break;
	case BPF_MUL: d *= s; break;
	case BPF_DIV: d = s ? (is32 ? (uint32_t)d / (uint32_t)s : d / s) : 0; break;
	case BPF_MOD: d = s ? (is32 ? (uint32_t)d % (uint32_t)s : d % s) : d; break;
	case BPF_OR: d |= s; break;
	case BPF_AND: d &= s; break;
	case BPF_XOR: d ^= s; break;
	case BPF_LSH: d = is32 ? (uint32_t)d << (s & 31) : d << (s & 63); break;
	case BPF_RSH: d = is32 ? (uint32_t)d >> (s & 31) : d >> (s & 63); break;
	case BPF_ARSH: d = is32 ? (uint32_t)((int32_t)d >> (s & 31)) : (uint64_t)((int64_t)d >> (s & 63)); break;
	case BPF_NEG: d = -d; break;
	case BPF_MOV: d = s; break;
	case BPF_END: break;	/* byte order does not change the path of the examples */
	}
	return is32 ? (uint32_t)d : d;
}

/*
 * Executed instructions of one run over @pkt, or 0 if the walker met
 * something it does not model (then the column says n/a).
 */
static uint64_t walk_count(const struct bpf_insn *insns, size_t cnt, unsigned char *pkt,
			   uint32_t len)
{
	static unsigned char stack[WALK_STACK];
	struct walk_ctx ctx = {
		.data = (uintptr_t)pkt, .data_end = (uintptr_t)pkt + len,
		.data_meta = (uintptr_t)pkt, .ingress_ifindex = 1,
	};
	uint64_t regs[11] = {}, n = 0, ctx_addr = (uintptr_t)&ctx;
	struct { size_t pc; uint64_t saved[4]; uint64_t fp; } frames[8];
	int depth = 0;
	size_t pc = 0;

	memset(walk_value, 0, sizeof(walk_value));
	regs[1] = ctx_addr;
	regs[10] = (uintptr_t)stack + WALK_STACK;
	while (pc < cnt && n < WALK_MAX) {
		const struct bpf_insn *in = &insns[pc];
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
		uint64_t src = BPF_SRC(in->code) == BPF_X ? regs[in->src_reg] : (uint64_t)(int64_t)in->imm;

		n++;
		switch (cls) {
		case BPF_ALU:
		case BPF_ALU64:
			regs[in->dst_reg] = walk_alu(op, regs[in->dst_reg], src, cls == BPF_ALU);
			pc++;
			break;
		case BPF_LD:
			if (in->code != (BPF_LD | BPF_IMM | BPF_DW) || pc + 1 >= cnt)
				return 0;
			if (in->src_reg == BPF_PSEUDO_MAP_VALUE || in->src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
				regs[in->dst_reg] = (uintptr_t)walk_value + (uint32_t)in[1].imm;
			else
				regs[in->dst_reg] = (uint32_t)in->imm | ((uint64_t)(uint32_t)in[1].imm << 32);
			pc += 2;
			break;
		case BPF_LDX: {
			uint64_t addr = regs[in->src_reg] + in->off, v;
			int sz = walk_size(in->code);

			if (!walk_addr_ok(addr, sz, &ctx, ctx_addr, stack))
				return 0;
			v = walk_load(addr, sz, &ctx, ctx_addr);
			if (sz < 8 && !(addr >= ctx_addr && addr < ctx_addr + 24))
				v &= (1ULL << (sz * 8)) - 1;
			regs[in->dst_reg] = v;
			pc++;
			break;
		}
		case BPF_ST:
		case BPF_STX: {
			uint64_t addr = regs[in->dst_reg] + in->off;
			uint64_t v = cls == BPF_ST ? (uint64_t)(int64_t)in->imm : regs[in->src_reg];
			int sz = walk_size(in->code);

			if (!walk_addr_ok(addr, sz, &ctx, ctx_addr, stack) ||
			    (addr >= ctx_addr && addr < ctx_addr + 24))
				return 0;

			if (BPF_MODE(in->code) == BPF_ATOMIC) {
				uint64_t old = 0;

				memcpy(&old, (void *)(uintptr_t)addr, sz);
				if (in->imm & BPF_FETCH)
					regs[in->imm == BPF_CMPXCHG ? 0 : in->src_reg] = old;
				v = old + v;
				if ((in->imm & ~BPF_FETCH) != BPF_ADD)
					v = old;
			}
			memcpy((void *)(uintptr_t)addr, &v, sz);
			pc++;
			break;
		}
		case BPF_JMP:
		case BPF_JMP32:
			if (op == BPF_EXIT) {
				if (!depth)
					return n;
				depth--;
				pc = frames[depth].pc;
				memcpy(&regs[6], frames[depth].saved, sizeof(frames[depth].saved));
				regs[10] = frames[depth].fp;
				break;
			}
			if (op == BPF_CALL) {
				if (in->src_reg == BPF_PSEUDO_CALL) {
					if (depth == 8)
						return 0;
					frames[depth].pc = pc + 1;
					memcpy(frames[depth].saved, &regs[6], sizeof(frames[depth].saved));
					frames[depth].fp = regs[10];
					depth++;
					regs[10] -= 512;
					pc += in->imm + 1;
					break;
				}
				switch (in->imm) {
				case BPF_FUNC_map_lookup_elem:
					regs[0] = (uintptr_t)walk_value;
					break;
				case BPF_FUNC_redirect_map:
					regs[0] = XDP_REDIRECT;
					break;
				case BPF_FUNC_tail_call:
				case BPF_FUNC_loop:	/* callbacks are not walked */
					return 0;
				default:
					regs[0] = 0;
				}
				pc++;
				break;
			}
			if (op == BPF_JA) {
				pc += (cls == BPF_JMP32 ? in->imm : in->off) + 1;
				break;
			}
			pc += walk_cond(op, regs[in->dst_reg], src, cls == BPF_JMP32) ? in->off + 1 : 1;
			break;
		default:
			return 0;
		}
	}
	return 0;
}

/* ---- timing ---------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void build_packet(unsigned char *p, uint32_t len)
{
	struct iphdr ip = {};
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 13 + 1);
	memset(p, 0x02, 12);
	p[5] = 2;
	p[12] = 0x08;
	p[13] = 0x00;
	ip.version = 4;
	ip.ihl = 5;
	ip.tot_len = htons(len - 14);
	ip.ttl = 64;
	ip.protocol = IPPROTO_UDP;
	ip.saddr = htonl(0x0a000001);
	ip.daddr = htonl(0x0a000002);
	memcpy(p + 14, &ip, sizeof(ip));
}

struct result {
	const char *name;
	double kernel_ns, uxdp_ns, interp_ns, native_ns, dpdk_ns;	/* uxdp_ns: the JIT */
	uint32_t retval_k, retval_u, retval_i, retval_n, retval_d;
	char dpdk_why[160];	/* why rte_bpf does not run it, if !dpdk_ok */
	bool dpdk_ok;
	uint64_t insns;
	bool ok, kernel_ok, jited, native_ok;
};

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * One runtime's call of @repeat runs over the frame, timed from outside
 * in thread CPU time; < 0 if it failed. test_run's own duration is whole
 * nanoseconds, too coarse for programs of a few; its fixed cost per call
 * (the kernel's swaps the XDP dispatcher's program in and out, ~0.7 ms
 * here) is taken out by per_run_ns().
 */
struct runner {
	enum { RUN_KERNEL, RUN_UXDP, RUN_NATIVE, RUN_DPDK } kind;
	int fd_or_id;
	bench_native_fn native;
	struct bench_dpdk *dpdk;
	unsigned char *pkt;
	uint32_t size;
	uint32_t retval;
	uint32_t duration;	/* RUN_KERNEL: what test_run reported, ns per run */
};

#define CLAMP_D(v, lo, hi)	((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

static int64_t run_once(struct runner *r, uint32_t repeat)
{
	uint64_t t0 = thread_ns();

	switch (r->kind) {
	case RUN_KERNEL: {
		LIBBPF_OPTS(bpf_test_run_opts, ko, .data_in = r->pkt, .data_size_in = r->size,
			    .repeat = repeat);

		if (bpf_prog_test_run_opts(r->fd_or_id, &ko))
			return -1;
		r->retval = ko.retval;
		r->duration = ko.duration;
		break;
	}
	case RUN_UXDP: {
		struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o), .data_in = r->pkt,
						    .data_size_in = r->size, .repeat = repeat };

		if (uxdp_bpf_prog_test_run(r->fd_or_id, &o))
			return -1;
		r->retval = o.retval;
		break;
	}
	case RUN_NATIVE: {
		bench_native_fn volatile call = r->native;
		struct bench_native_ctx ctx = { .data = r->pkt, .data_end = r->pkt + r->size };

		for (uint32_t i = 0; i < repeat; i++)
			r->retval = call(&ctx);
		break;
	}
	case RUN_DPDK:
#ifdef BENCH_DPDK
		bench_dpdk_run(r->dpdk, r->pkt, repeat, &r->retval);
#endif
		break;
	}
	return (int64_t)(thread_ns() - t0);
}

/*
 * ns per run: the difference between a call of @repeat runs and one of
 * half as many, over the runs between them, so that what a call costs
 * once, whatever the runtime, is not spread over its runs. < 0: failed.
 */
static double per_run_ns(struct runner *r, uint32_t repeat)
{
	int64_t half, full;

	if (r->kind == RUN_KERNEL) {
		/*
		 * The kernel's fixed cost varies by tenths of a millisecond
		 * (a grace period): enough runs that N/2 of them take ~20 ms
		 * keep that jitter under 2 % of the difference.
		 */
		if (run_once(r, repeat) < 0)
			return -1;
		repeat = (uint32_t)CLAMP_D(40000000.0 / (r->duration ? r->duration : 1), repeat,
					    100000000.0);
	}
	half = run_once(r, repeat / 2);
	full = run_once(r, repeat);

	if (half < 0 || full < 0)
		return -1;
	return full > half ? (double)(full - half) / (repeat - repeat / 2) : 0;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int run_case(const char *dir, const struct bench_case *c, uint32_t repeat, int rounds,
		    uint32_t size, struct result *r)
{
	struct uxdp_bpf_object_open_opts uo = { .sz = sizeof(uo) };
	double kt[64], ut[64], it[64], nt[64], dt[64];
	struct runner kr, ir, jr, nr, dr;
	static unsigned char pkt[9000], walk_pkt[9000], native_pkt[9000], dpdk_pkt[9000];
	struct bench_dpdk *dpdk = NULL;
	bench_native_fn native = bench_native_find(c->prog);
	struct uxdp_bpf_object *uobj = NULL, *iobj = NULL;
	struct bpf_object *kobj = NULL;
	struct bpf_program *kp = NULL;
	char path[4096], log[8192] = "";
	int i, uid, iid, err = -1, jit = uxdp_bpf_jit_enable_get();

	r->name = c->prog;
	snprintf(path, sizeof(path), "%s/%s", dir, c->obj);
	build_packet(pkt, size);
	kobj = bpf_object__open_file(path, NULL);
	if (!kobj || bpf_object__load(kobj))
		fprintf(stderr, "%s: the kernel cannot load it (root/CAP_BPF needed)\n", path);
	else
		kp = bpf_object__find_program_by_name(kobj, c->prog);
	uo.log_buf = log;
	uo.log_size = sizeof(log);
	/* the same object on each runtime: the knob applies at load */
	uxdp_bpf_jit_enable_set(0);
	iobj = uxdp_bpf_object_open(path, &uo);
	uxdp_bpf_jit_enable_set(1);
	uobj = uxdp_bpf_object_open(path, &uo);
	uxdp_bpf_jit_enable_set(jit);
	if (!uobj || !iobj) {
		fprintf(stderr, "%s: uxdp cannot load it: %s\n", path, log);
		goto out;
	}
	uid = uxdp_bpf_object_find_prog(uobj, c->prog, NULL);
	iid = uxdp_bpf_object_find_prog(iobj, c->prog, NULL);
	if (uid < 0 || iid < 0)
		goto out;
	r->jited = uxdp_bpf_prog_jit_info(uid, NULL, NULL, 0) > 0;
	build_packet(native_pkt, size);
	build_packet(dpdk_pkt, size);
#ifdef BENCH_DPDK
	if (kobj) {
		const struct bpf_program *p = bpf_object__find_program_by_name(kobj, c->prog);

		if (!p)
			snprintf(r->dpdk_why, sizeof(r->dpdk_why), "not in the object");
		else
			bench_dpdk_load(bpf_program__insns(p), bpf_program__insn_cnt(p), size, &dpdk,
					r->dpdk_why, sizeof(r->dpdk_why));
	} else {
		snprintf(r->dpdk_why, sizeof(r->dpdk_why), "libbpf cannot open it");
	}
#else
	snprintf(r->dpdk_why, sizeof(r->dpdk_why), "built without DPDK (libdpdk-dev)");
#endif
	kr = (struct runner){ RUN_KERNEL, kp ? bpf_program__fd(kp) : -1, .pkt = pkt, .size = size };
	ir = (struct runner){ RUN_UXDP, iid, .pkt = pkt, .size = size };
	jr = (struct runner){ RUN_UXDP, uid, .pkt = pkt, .size = size };
	nr = (struct runner){ RUN_NATIVE, .native = native, .pkt = native_pkt, .size = size };
	dr = (struct runner){ RUN_DPDK, .dpdk = dpdk, .pkt = dpdk_pkt, .size = size };
	for (i = 0; i < rounds; i++) {
		if (kp && (kt[i] = per_run_ns(&kr, repeat)) < 0)
			kp = NULL;
		it[i] = per_run_ns(&ir, repeat);
		ut[i] = per_run_ns(&jr, repeat);
		if (it[i] < 0 || ut[i] < 0)
			goto out;
		if (native)
			nt[i] = per_run_ns(&nr, repeat);
		if (dpdk)
			dt[i] = per_run_ns(&dr, repeat);
	}
	r->retval_k = kr.retval;
	r->retval_i = ir.retval;
	r->retval_u = jr.retval;
	r->retval_n = nr.retval;
	r->retval_d = dr.retval;
	r->dpdk_ok = dpdk != NULL;
	if (dpdk)
		r->dpdk_ns = median(dt, rounds);
	r->native_ok = native != NULL;
	if (native)
		r->native_ns = median(nt, rounds);
	r->kernel_ok = kp != NULL;
	if (kp)
		r->kernel_ns = median(kt, rounds);
	r->uxdp_ns = median(ut, rounds);
	r->interp_ns = median(it, rounds);
	build_packet(walk_pkt, size);
	if (kp)
		r->insns = walk_count(bpf_program__insns(kp), bpf_program__insn_cnt(kp), walk_pkt,
				      size);
	r->ok = true;
	err = 0;
out:
#ifdef BENCH_DPDK
	bench_dpdk_free(dpdk);
#endif
	uxdp_bpf_object_close(uobj);
	uxdp_bpf_object_close(iobj);
	bpf_object__close(kobj);
	return err;
}

/* @gross minus the constant program's time (0 when faster) */
static double net_ns(double gross, double constant)
{
	return gross > constant ? gross - constant : 0;
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

/* A table cell: the number, or n/a; @slot keeps the buffers of one row apart. */
static const char *col(int slot, bool ok, double v)
{
	static char buf[8][16];

	if (!ok)
		return "n/a";
	snprintf(buf[slot], sizeof(buf[slot]), "%.1f", v);
	return buf[slot];
}

static const char *colf(int slot, bool ok, double v)
{
	static char buf[4][16];

	if (!ok || v <= 0)
		return "n/a";
	snprintf(buf[slot], sizeof(buf[slot]), "%.2f", v);
	return buf[slot];
}

/*
 * A peer's figures in JSON: PEER_ns, RATIO_ratio (jit/peer if @jit_over,
 * else peer/jit), PEER_retval_match, and net of the constant program
 * (@pass_ns < 0: none) PEER_net_ns and RATIO_net_ratio.
 */
static void json_peer(const char *peer, const char *ratio_key, double ns, uint32_t retval,
		      bool jit_over, const struct result *r, double pass_ns, double pass_jit)
{
	double jn = net_ns(r->uxdp_ns, pass_jit), pn = net_ns(ns, pass_ns);

	printf(",\"%s_ns\":%.2f,\"%s_ratio\":%.3f,\"%s_retval_match\":%s", peer, ns, ratio_key,
	       jit_over ? ratio(r->uxdp_ns, ns) : ratio(ns, r->uxdp_ns), peer,
	       retval == r->retval_u ? "true" : "false");
	if (pass_ns >= 0)
		printf(",\"%s_net_ns\":%.2f,\"%s_net_ratio\":%.3f", peer, pn, ratio_key,
		       jit_over ? ratio(jn, pn) : ratio(pn, jn));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "rounds", required_argument, NULL, 'R' },
		{ "size", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct result res[sizeof(cases) / sizeof(cases[0])] = {};
	const struct result *pass;
	uint32_t repeat = 1000000, size = 64;
	unsigned int i, n = 0;
	int rounds = 5, opt, j;
	bool json = false;
	cpu_set_t set;

	while ((opt = getopt_long(argc, argv, "jr:R:s:h", opts, NULL)) >= 0) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'r':
			repeat = strtoul(optarg, NULL, 0);
			break;
		case 'R':
			rounds = atoi(optarg);
			break;
		case 's':
			size = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [--json] [--repeat N] [--rounds R] [--size BYTES] PROGS_DIR [PROG...]\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc || rounds < 1 || rounds > 64 || size < 34 || size > 3520 || !repeat) {
		fprintf(stderr, "usage: %s [--json] [--repeat N] [--rounds 1..64] [--size 34..3520] PROGS_DIR [PROG...]\n",
			argv[0]);
		return 2;
	}
	libbpf_set_print(libbpf_quiet);
	uxdp_set_print(NULL);
	/* same CPU for both sides */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* cases[0], xdp_pass, is the constant program: always measured */
		bool want = optind + 1 >= argc || !i;

		for (j = optind + 1; j < argc; j++)
			if (!strcmp(argv[j], cases[i].prog) || !strcmp(argv[j], cases[i].obj))
				want = true;
		if (!want)
			continue;
		run_case(argv[optind], &cases[i], repeat, rounds, size, &res[n]);
		res[n].name = cases[i].prog;
		n++;
	}

	pass = n && !strcmp(res[0].name, cases[0].prog) && res[0].ok ? &res[0] : NULL;
	if (json) {
		printf("{\"repeat\":%u,\"rounds\":%d,\"size\":%u,\"constant\":\"%s\",\"native_compiler\":\"%s\",\"programs\":[",
		       repeat, rounds, size, cases[0].prog, bench_native_compiler());
		for (i = 0; i < n; i++) {
			const struct result *r = &res[i];

			printf("%s{\"name\":\"%s\",\"ok\":%s", i ? "," : "", r->name, r->ok ? "true" : "false");
			if (r->ok)
				printf(",\"jited\":%s,\"interp_ns\":%.2f,\"jit_ns\":%.2f,\"interp_jit_ratio\":%.3f,\"interp_retval\":%u,\"interp_retval_match\":%s",
				       r->jited ? "true" : "false", r->interp_ns, r->uxdp_ns,
				       ratio(r->interp_ns, r->uxdp_ns), r->retval_i,
				       r->retval_i == r->retval_u ? "true" : "false");
			if (r->ok && pass)
				printf(",\"interp_net_ns\":%.2f,\"jit_net_ns\":%.2f",
				       net_ns(r->interp_ns, pass->interp_ns), net_ns(r->uxdp_ns, pass->uxdp_ns));
			if (r->ok && r->native_ok)
				json_peer("native", "jit_native", r->native_ns, r->retval_n, true, r,
					  pass && pass->native_ok && r != pass ? pass->native_ns : -1,
					  pass ? pass->uxdp_ns : 0);
			if (r->ok && r->dpdk_ok)
				json_peer("dpdk", "dpdk_jit", r->dpdk_ns, r->retval_d, false, r,
					  pass && pass->dpdk_ok && r != pass ? pass->dpdk_ns : -1,
					  pass ? pass->uxdp_ns : 0);
			else if (r->ok) {
				printf(",\"dpdk_refused\":\"%s\"", r->dpdk_why);
			}
			if (r->ok && r->kernel_ok) {
				printf(",\"kernel_ns\":%.2f,\"uxdp_ns\":%.2f,\"ratio\":%.3f,\"retval\":%u,\"retval_match\":%s",
				       r->kernel_ns, r->uxdp_ns, ratio(r->kernel_ns, r->uxdp_ns), r->retval_u,
				       r->retval_k == r->retval_u ? "true" : "false");
				if (pass && pass->kernel_ok && r != pass)
					printf(",\"kernel_net_ns\":%.2f,\"ratio_net\":%.3f",
					       net_ns(r->kernel_ns, pass->kernel_ns),
					       ratio(net_ns(r->kernel_ns, pass->kernel_ns),
						     net_ns(r->uxdp_ns, pass->uxdp_ns)));
				if (r->insns)
					printf(",\"insns_executed\":%llu,\"uxdp_ns_per_insn\":%.3f,\"kernel_ns_per_insn\":%.3f",
					       (unsigned long long)r->insns, r->uxdp_ns / r->insns,
					       r->kernel_ns / r->insns);
			}
			printf("}");
		}
		printf("]}\n");
		return 0;
	}
	printf("uxdp-bench-prog: repeat %u, %d rounds (median), %u-byte IPv4/UDP frame, CPU 0\n",
	       repeat, rounds, size);
	printf("ns/run: kernel = its JIT, jit = uxdp's JIT, interp = uxdp's interpreter, native = the\n"
	       "algorithm in C (%s), dpdk = DPDK's rte_bpf JIT (where it runs the program);\n"
	       "net = minus that runtime's %s; k/j = kernel/jit, i/j = interp/jit,\n"
	       "j/n = jit/native (net), d/j = dpdk/jit (net)\n", bench_native_compiler(), cases[0].prog);
	printf("%-20s %6s %6s %6s %6s %6s | %5s %5s %6s %5s %5s | %5s %5s %6s %5s %5s %6s %6s\n",
	       "program", "kernel", "jit", "interp", "native", "dpdk", "net k", "net j", "net i",
	       "net n", "net d", "k/j", "net", "i/j", "j/n", "d/j", "insns", "ns/ins");
	for (i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (!r->ok) {
			printf("%-20s %6s\n", r->name, "failed");
			continue;
		}
		printf("%-20.20s %6s %6.1f %6.1f %6s %6s |", r->name, col(0, r->kernel_ok, r->kernel_ns),
		       r->uxdp_ns, r->interp_ns, col(1, r->native_ok, r->native_ns),
		       col(6, r->dpdk_ok, r->dpdk_ns));
		printf(" %5s %5s %6s %5s %5s |",
		       col(2, r->kernel_ok && pass && pass->kernel_ok,
			   net_ns(r->kernel_ns, pass ? pass->kernel_ns : 0)),
		       col(3, pass, net_ns(r->uxdp_ns, pass ? pass->uxdp_ns : 0)),
		       col(4, pass, net_ns(r->interp_ns, pass ? pass->interp_ns : 0)),
		       col(5, r->native_ok && pass && pass->native_ok,
			   net_ns(r->native_ns, pass ? pass->native_ns : 0)),
		       col(7, r->dpdk_ok && pass && pass->dpdk_ok,
			   net_ns(r->dpdk_ns, pass ? pass->dpdk_ns : 0)));
		printf(" %5s", colf(0, r->kernel_ok, ratio(r->kernel_ns, r->uxdp_ns)));
		printf(" %5s", colf(1, r->kernel_ok && pass && pass->kernel_ok && r != pass,
				    ratio(net_ns(r->kernel_ns, pass ? pass->kernel_ns : 0),
					  net_ns(r->uxdp_ns, pass ? pass->uxdp_ns : 0))));
		printf(" %6.2f", ratio(r->interp_ns, r->uxdp_ns));
		printf(" %5s", colf(2, r->native_ok && pass && pass->native_ok && r != pass,
				    ratio(net_ns(r->uxdp_ns, pass ? pass->uxdp_ns : 0),
					  net_ns(r->native_ns, pass ? pass->native_ns : 0))));
		printf(" %5s", colf(3, r->dpdk_ok && pass && pass->dpdk_ok && r != pass,
				    ratio(net_ns(r->dpdk_ns, pass ? pass->dpdk_ns : 0),
					  net_ns(r->uxdp_ns, pass ? pass->uxdp_ns : 0))));
		if (r->insns)
			printf(" %6llu %6.3f\n", (unsigned long long)r->insns,
			       r->uxdp_ns / r->insns);
		else
			printf(" %6s %6s\n", "n/a", "n/a");
		if (r->kernel_ok && r->retval_k != r->retval_u)
			printf("  WARNING: verdicts differ (kernel %u, uxdp %u)\n", r->retval_k, r->retval_u);
		if (r->retval_i != r->retval_u)
			printf("  WARNING: verdicts differ (interpreter %u, JIT %u)\n", r->retval_i,
			       r->retval_u);
		if (r->dpdk_ok && r->retval_d != r->retval_u)
			printf("  WARNING: verdicts differ (DPDK %u, JIT %u)\n", r->retval_d, r->retval_u);
		if (r->native_ok && r->retval_n != r->retval_u)
			printf("  WARNING: verdicts differ (native %u, JIT %u)\n", r->retval_n,
			       r->retval_u);
		if (!r->jited)
			printf("  note: not JITed (see uxdp prog show)\n");
	}
	return 0;
}
