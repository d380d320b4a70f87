/* SPDX-License-Identifier: GPL-2.0 */
/* prog.c's object opening, shared by the `prog` verbs (prog_dump.c). */
#ifndef _UXDP_TOOLS_PROG_H
#define _UXDP_TOOLS_PROG_H

#include <stdbool.h>

struct uxdp_bpf_object;

/* How to open: which unknown sections load as XDP, the CO-RE target. */
struct open_args {
	const char *name;
	const char *sec;
	const char *btf;
	bool type_xdp;
};

/* `name P`, `sec S`, `type xdp`, `btf FILE` at argv[*i]; 1: consumed, 0: not ours, <0: error */
int parse_open_arg(int argc, char **argv, int *i, struct open_args *o);
/* Open @path as @o says; NULL after p_err() with the loader's log. */
struct uxdp_bpf_object *open_obj(const char *path, const struct open_args *o);
/* The id of the program @o names (the first without name/sec); <0 after p_err(). */
int find_prog(struct uxdp_bpf_object *obj, const char *path, const struct open_args *o);
/* prog_dump.c: `prog dump xlated|jited` */
int do_dump(int argc, char **argv);

#endif
