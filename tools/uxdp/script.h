/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topology scripts (design.md §6): the line reader and the commands it
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

/* Run one tokenized script line (link, map, addr, ... ; run and stats too). */
int script_dispatch(int argc, char **argv);
void script_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Directory of the running script, for relative object paths. */
extern const char *script_dir;

/* map.c: objects opened by `link set ... xdp obj F` (kept until the end). */
struct uxdp_bpf_object *script_object_get(const char *path, char *err, size_t errlen);
struct uxdp_bpf_object *script_object_find(const char *name);
void script_objects_close(void);
unsigned int script_object_cnt(void);
struct uxdp_bpf_object *script_object_at(unsigned int i, const char **name);

/* run.c */
void run_output_begin(void);
/* Print the JSON document (-j) or the summary table if @print; free the runs. */
void run_output_end(bool print);
/* Add "KEY":BODY to the last run's JSON (nothing before the first run). */
void run_append_json(const char *key, const char *body);
/* UXDP_LEAK_CHECK=1: 1 and a message if datapath memory is still in use. */
int run_leak_check(void);

#endif
