/* SPDX-License-Identifier: GPL-2.0 */
/* A script run's bpf_printk lines and records (run_trace.c), for run.c. */
#ifndef _UXDP_TOOLS_RUN_TRACE_H
#define _UXDP_TOOLS_RUN_TRACE_H

#include <stdbool.h>
#include <stdio.h>

/* Before a run: forget the last run's lines and records, open record slots. */
void run_trace_begin(void);
/* During a run (main thread): print and keep the lines printed so far. */
void run_trace_poll(void);
/* After a run: the rest of the lines, the records; ,"trace":[..],"records":[..] to @j. */
void run_trace_end(FILE *j);
/* `stats trace` / `stats records`: the last run's again. */
void run_trace_stats(bool trace, bool records);
/* End of a script. */
void run_trace_free(void);

#endif
