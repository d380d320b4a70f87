/* SPDX-License-Identifier: GPL-2.0 */
/* DPDK's rte_bpf JIT as a peer of uxdp-bench-prog (bench_dpdk.c). */
#ifndef _UXDP_BENCH_DPDK_H
#define _UXDP_BENCH_DPDK_H

#include <stddef.h>
#include <stdint.h>

struct bench_dpdk;

/*
 * Load @cnt eBPF instructions of an XDP program (as clang wrote them) for
 * @size-byte frames. Return: 0, or -errno with why in @err (a call, other
 * ctx fields, or rte_bpf's validator).
 */
int bench_dpdk_load(const void *insns, uint32_t cnt, uint32_t size, struct bench_dpdk **out,
		    char *err, size_t errlen);
/* @repeat runs over the frame at @pkt (the caller times them); the last R0 in @retval */
void bench_dpdk_run(const struct bench_dpdk *d, void *pkt, uint32_t repeat, uint32_t *retval);
void bench_dpdk_free(struct bench_dpdk *d);

#endif
