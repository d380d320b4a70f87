// SPDX-License-Identifier: GPL-2.0
/*
 * The limit for uxdp-bench-prog: the algorithms of the loop, hash and
 * header-parse example programs (examples/progs/xdp_csum_loop.c,
 * xdp_byte_scan.c, xdp_hash.c, xdp_hdr_parse.c) and xdp_pass written in C and compiled natively (by clang
 * when it is installed, as the BPF programs are), over the same frame,
 * with their ARRAY maps as plain arrays and the same packet writes. Each
 * runs behind a function pointer, as bpf_func is called.
 *
 * Kernel: none (a benchmark baseline)
 */
#include <stdint.h>
#include <string.h>

#include "bench_native.h"
#include "murmur3.h"	/* examples/progs */

#define NOINLINE __attribute__((noinline))
/* real loops, as the BPF programs keep them */
#if defined(__clang__)
#define NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define NO_UNROLL _Pragma("GCC unroll 1")
#endif

/* The programs' ARRAY maps; visible, so their stores are kept. */
uint64_t bench_native_maps[3][2];
#define csum_result bench_native_maps[0]
#define scan_result bench_native_maps[1]
#define hash_result bench_native_maps[2]

static NOINLINE unsigned int native_pass(struct bench_native_ctx *ctx)
{
	return 2;	/* XDP_PASS */
}

static NOINLINE unsigned int native_csum_loop(struct bench_native_ctx *ctx)
{
	uint8_t *data = ctx->data, *data_end = ctx->data_end;
	uint16_t *p = (uint16_t *)data;
	uint32_t sum = 0;
	int i, words = 0;

	NO_UNROLL
	for (i = 0; i < 64; i++) {
		if ((uint8_t *)(p + i + 1) > data_end)
			break;
		sum += p[i];
		words++;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	csum_result[0] = ~sum & 0xffff;
	csum_result[1] += words;
	if (data + 62 <= data_end) {
		uint16_t v = (uint16_t)~sum;

		memcpy(data + 60, &v, sizeof(v));
	}
	return 2;
}

static NOINLINE unsigned int native_byte_scan(struct bench_native_ctx *ctx)
{
	uint8_t *p = ctx->data, *data_end = ctx->data_end;
	uint32_t found = 0xffff, i;
	uint8_t want;

	if (p + 43 > data_end)
		return 2;
	want = p[42];
	NO_UNROLL
	for (i = 43; i < 256; i++) {
		if (p + i + 1 > data_end)
			break;
		if (p[i] == want) {
			found = i;
			break;
		}
	}
	scan_result[0] = found;
	scan_result[1] += i - 43;
	return 2;
}

static NOINLINE unsigned int native_hash(struct bench_native_ctx *ctx)
{
	uint8_t *data = ctx->data, *data_end = ctx->data_end;
	uint32_t h = MURMUR3_SEED, k;
	int i;

	NO_UNROLL
	for (i = 0; i < 16; i++) {
		if (data + 4 * (i + 1) > data_end)
			break;
		memcpy(&k, data + 4 * i, sizeof(k));
		h = murmur3_round(h, k);
	}
	h = murmur3_fmix(h, i * 4);
	hash_result[0] = h;
	hash_result[1] += i;
	return 2;
}

/* Big-endian 16 bits at @p. */
static inline uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static NOINLINE unsigned int native_hdr_parse(struct bench_native_ctx *ctx)
{
	uint8_t *data = ctx->data, *data_end = ctx->data_end, *l4;
	uint16_t proto;
	uint8_t l4proto;
	int i;

	if (data + 14 > data_end)
		return 2;
	proto = be16_at(data + 12);
	l4 = data + 14;
	for (i = 0; i < 2 && (proto == 0x8100 || proto == 0x88a8); i++) {
		if (l4 + 4 > data_end)
			return 2;
		proto = be16_at(l4 + 2);
		l4 += 4;
	}
	if (proto == 0x0800) {
		uint8_t ihl;

		if (l4 + 20 > data_end)
			return 1;
		ihl = l4[0] & 0xf;
		if (ihl < 5 || l4[8] <= 1)
			return 1;
		l4proto = l4[9];
		l4 += ihl * 4;
	} else if (proto == 0x86dd) {
		if (l4 + 40 > data_end || l4[7] <= 1)
			return 1;
		l4proto = l4[6];
		l4 += 40;
	} else {
		return 2;
	}
	if (l4proto == 17 || l4proto == 6) {
		if (l4 + (l4proto == 17 ? 8 : 20) > data_end)
			return 1;
		return be16_at(l4 + 2) < 16 ? 1 : 2;
	}
	return 2;
}

static const struct {
	const char *prog;
	bench_native_fn fn;
} natives[] = {
	{ "xdp_hdr_parse_prog", native_hdr_parse },
	{ "xdp_pass_prog", native_pass },
	{ "xdp_csum_loop_prog", native_csum_loop },
	{ "xdp_byte_scan_prog", native_byte_scan },
	{ "xdp_hash_prog", native_hash },
};

bench_native_fn bench_native_find(const char *prog)
{
	size_t i;

	for (i = 0; i < sizeof(natives) / sizeof(natives[0]); i++)
		if (!strcmp(natives[i].prog, prog))
			return natives[i].fn;
	return NULL;
}

const char *bench_native_compiler(void)
{
#define STR_(x) #x
#define STR(x) STR_(x)
#if defined(__clang__)
	return "clang " STR(__clang_major__) "." STR(__clang_minor__) "." STR(__clang_patchlevel__);
#else
	return "gcc " __VERSION__;
#endif
}
