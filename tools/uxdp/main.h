/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the CLI's object files: global options and the command table. */
#ifndef _UXDP_TOOLS_MAIN_H
#define _UXDP_TOOLS_MAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cmd {
	const char *name;
	int (*handler)(int argc, char **argv);
	const char *usage;
	const char *summary;
	const struct cmd *sub;		/* an object's verbs: help lists them */
};

extern bool json_output;
extern bool pretty_output;
extern bool quiet;

/* Exit codes: 0 ok, 1 runtime failure, 2 bad usage or input. */
#define EXIT_USAGE 2

void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the compact JSON document @doc (reindented with -p) and free it. */
void json_doc_print(char *doc);
int cmd_select(const struct cmd *cmds, int argc, char **argv, const char *object);
/*
 * Bytes in hex from argv[*i] on, in every form bpftool, iproute2 and the
 * scripts use: "0a000001", "0x0a000001", "0a 00 00 01" as one quoted word
 * or as four, after an optional "hex" word; stops at the first word that is
 * not hex (*i is left there). Returns the byte count, or -1 when there is
 * none or more than @max.
 */
int parse_hex_words(int argc, char **argv, int *i, unsigned char *out, size_t max);
/* "help", "--help" or "-h" as the only argument. */
bool cmd_is_help(int argc, char **argv);
/* The objects (uxdp help) and the script commands (script.c), for help and completion. */
extern const struct cmd uxdp_objects[];
struct script_cmd;
void script_help(FILE *f, const char *object);

/* One entry point per object file. */
int do_prog(int argc, char **argv);
extern const struct cmd prog_cmds[];
/* script.c: `uxdp run SCRIPT|-`, `uxdp shell` */
int do_run_script(int argc, char **argv);
int do_shell(int argc, char **argv);
/* test.c: `uxdp test DIR|FILE...` */
int do_test(int argc, char **argv);
/* completion.c: `uxdp completion bash` */
int do_completion(int argc, char **argv);
/*
 * Call @fn for each keyword of the usage text @usage: its lowercase words
 * (placeholders such as FILE or N left out), as completion offers them.
 */
void usage_keywords(const char *usage, void (*fn)(const char *word, size_t len, void *arg), void *arg);
/* ab.c: `uxdp ab` (the lab) */
int do_ab(int argc, char **argv);
/* coverage.c: `prog run ... coverage FILE` */
struct uxdp_bpf_object;
int coverage_start(struct uxdp_bpf_object *obj);
int coverage_write(struct uxdp_bpf_object *obj, const char *path);

#endif
