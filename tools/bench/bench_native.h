/* SPDX-License-Identifier: GPL-2.0 */
/* Native C twins of example programs for uxdp-bench-prog (bench_native.c). */
#ifndef _UXDP_BENCH_NATIVE_H
#define _UXDP_BENCH_NATIVE_H

struct bench_native_ctx {
	void *data;
	void *data_end;
};

#include <stdint.h>

/* What the C twins store where the programs use an ARRAY map. */
extern uint64_t bench_native_maps[3][2];

typedef unsigned int (*bench_native_fn)(struct bench_native_ctx *ctx);

/* The C twin of program @prog, or NULL. */
bench_native_fn bench_native_find(const char *prog);
/* Which compiler built them ("clang 14.0.6", ...). */
const char *bench_native_compiler(void);

#endif
