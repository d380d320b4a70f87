/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topology scripts: the line reader and the commands it
 * dispatches to (iplink.c, map.c, run.c). A command handler gets the
 * tokens after its object name and returns 0, 1 (runtime failure) or 2
 * (bad input); it reports what is wrong with script_err(), which prefixes
 * SCRIPT:LINE.
 */
#ifndef _UXDP_TOOLS_SCRIPT_H
#define _UXDP_TOOLS_SCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include <uxdp_bpf.h>

#define SCRIPT_MAX_ARGS	64

struct script_cmd {
	const char *name;
	int (*handler)(int argc, char **argv);
	const char *usage;
};

extern const struct script_cmd iplink_cmds[];
extern const struct script_cmd map_cmds[];
extern const struct script_cmd run_cmds[];
/* ipaddress.c: addr, route, neigh, sysctl, snmp */
extern const struct script_cmd ipaddr_cmds[];
extern const struct script_cmd iproute_cmds[];
extern const struct script_cmd ipneigh_cmds[];
extern const struct script_cmd ipntable_cmds[];
extern const struct script_cmd ipv4_cmds[];
/* coverage.c: `coverage FILE`; every object opened is counted, written at the end */
extern const struct script_cmd coverage_cmds[];
void coverage_script_object_opened(struct uxdp_bpf_object *obj);
int coverage_script_end(void);
/* expect.c: expect */
extern const struct script_cmd expect_cmds[];

/* Run one tokenized script line (link, map, addr, ... ; run and stats too). */
int script_dispatch(int argc, char **argv);
void script_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * p_err() with -j while a script runs: keep @msg for the document (which
 * keeps the completed results) and return true; false outside a script.
 */
bool script_error(const char *msg);
/* Line of the script being run (1-based). */
unsigned int script_lineno(void);
/* Directory of the running script, for relative object paths. */
extern const char *script_dir;

/* map.c: objects opened by `link set ... xdp obj F` (kept until the end). */
struct uxdp_bpf_object *script_object_get(const char *path, char *err, size_t errlen);
struct uxdp_bpf_object *script_object_find(const char *name);
void script_objects_close(void);
unsigned int script_object_cnt(void);
struct uxdp_bpf_object *script_object_at(unsigned int i, const char **name);

struct btf;
/*
 * OBJ:MAP, or MAP in the first object that has it: the map's id and desc,
 * its object's BTF in @btf if not NULL. Reports and returns -ENOENT.
 */
int script_map_resolve(const char *spec, struct uxdp_bpf_map_desc *m, const struct btf **btf);

/* map.c: the BTF type `map record_type` gave map @map_id's records, or 0. */
uint32_t script_record_type(uint32_t map_id, const struct btf **btf);

/* expect.c: append JSON @elem to the array @key of the -j document. */
void script_json_add(const char *key, const char *elem);
/* End of a script: flush the arrays, print the expect tally; failed count. */
int script_expect_finish(void);

/* run.c */
void run_output_begin(void);
/*
 * Add "KEY":BODY (BODY is JSON) to the -j document: to the last run, or to
 * the top level before the first run; a later key of the same name wins
 * in most readers, so commands that repeat use distinct keys or arrays.
 */
void run_append_json(const char *key, const char *body);
struct json_writer;
/* The same with the JSON @w built (jsonw_open()); closes @w. 0, or 1 (memory). */
int run_append_writer(const char *key, struct json_writer *w);
/* Print the JSON document (-j) or the summary tables; free the runs. */
void run_output_end(void);
/* The first error of a script, kept for the -j document's "error". */
void run_set_error(unsigned int line, const char *msg);
/* SIGINT/SIGTERM end the run in progress and stop the script after it. */
void run_signals_install(void);
/* The signal that stopped the script, or 0; whether it ended a run. */
int run_stop_signal(void);
bool run_stopped_a_run(void);
/* bpf_printk messages of the last run, one per line ("" if none). */
const char *run_trace_lines(void);
/* UXDP_LEAK_CHECK=1: 1 and a message if datapath memory is still in use. */
int run_leak_check(void);

#endif
