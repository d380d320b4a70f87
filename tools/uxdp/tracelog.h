/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf_trace_printk() output as `bpftool prog tracelog` shows it
 * (tracelog.c): used per packet by `prog run` and by scripts (live during
 * `run`, and `stats trace`).
 */
#ifndef _UXDP_TOOLS_TRACELOG_H
#define _UXDP_TOOLS_TRACELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*tracelog_fn)(void *ctx, const char *msg, size_t len);

/**
 * tracelog_drain() - hand each line of the trace pipe to @fn, oldest first
 *
 * @msg is the program's text without its '\n'. No allocation: lines go
 * through a static buffer. Return: lines handed to @fn.
 */
unsigned int tracelog_drain(tracelog_fn fn, void *ctx);

/**
 * tracelog_print() - one line as trace_pipe shows it
 * @ts_ns: the timestamp column (prog run: the packet's capture time)
 * @json: print the same line as a JSON string, without the newline
 *
 * "            uxdp-1234    [000] d.s1.   12.000345: bpf_trace_printk: MSG"
 */
void tracelog_print(FILE *f, const char *msg, size_t len, uint64_t ts_ns, bool json);

#endif
