// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp command line: `uxdp [OPTIONS] OBJECT COMMAND ...`, bpftool/iproute2
 * grammar. Each object lives in its own file with one command table; help
 * is printed from the tables, so usage text cannot drift from the code.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp.h>

#include "json_writer.h"
#include "main.h"
#include "script.h"

bool json_output;
bool pretty_output;
bool quiet;

static int do_help(int argc, char **argv);
static int do_version(int argc, char **argv);

const struct cmd uxdp_objects[] = {
	{ "prog", do_prog, "prog { show | run | dump } ...", "load and run XDP objects (bpftool syntax)",
	  prog_cmds },
	{ "run", do_run_script, "run SCRIPT|-", "run a topology script (link, map, run, stats)" },
	{ "test", do_test, "test DIR|FILE...", "run scripts as tests: pass when their expect lines hold" },
	{ "ab", do_ab, "ab A.uxdp B.uxdp | SCRIPT --vary SPEC", "A/B rounds, 95 % CI, verdict, report" },
	{ "shell", do_shell, "shell", "the script commands, interactively" },
	{ "completion", do_completion, "completion bash", "print the bash completion of uxdp" },
	{ "version", do_version, "version", "print the version" },
	{ "help", do_help, "help [OBJECT [COMMAND]]", "this text, or the usage of one command" },
	{ 0 }
};

void json_doc_print(char *doc)
{
	if (doc)
		json_print(stdout, doc, false);	/* -p reindents all of stdout: main() */
	free(doc);
}

/* {"KEY":"VALUE"} as the whole -j output. */
static void print_string_object(const char *key, const char *value)
{
	struct json_writer w;

	if (jsonw_open(&w))
		return;
	jsonw_start_object(&w);
	jsonw_string_field(&w, key, value);
	jsonw_end_object(&w);
	json_doc_print(jsonw_close(&w));
}

void p_err(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* A script's -j document keeps its completed results and the error. */
	if (json_output && script_error(buf))
		return;
	if (json_output)
		print_string_object("error", buf);
	else
		fprintf(stderr, "Error: %s\n", buf);
}

/* Digits of one hex word: "0a000001", "0x0a000001", "0a 00 00 01" (quoted); -1 if not hex. */
static int hex_word_digits(const char *s)
{
	int n = 0;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	for (; *s; s++) {
		if (*s == ' ' || *s == ':')
			continue;
		if (!isxdigit((unsigned char)*s))
			return -1;
		n++;
	}
	return n && !(n % 2) ? n : -1;
}

int parse_hex_words(int argc, char **argv, int *i, unsigned char *out, size_t max)
{
	size_t n = 0;

	if (*i < argc && !strcmp(argv[*i], "hex"))
		(*i)++;
	for (; *i < argc && hex_word_digits(argv[*i]) > 0; (*i)++) {
		const char *s = argv[*i];
		int hi = -1;

		if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
			s += 2;
		for (; *s; s++) {
			int v;

			if (*s == ' ' || *s == ':')
				continue;
			v = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
			if (hi < 0) {
				hi = v;
				continue;
			}
			if (n == max)
				return -1;
			out[n++] = (unsigned char)(hi << 4 | v);
			hi = -1;
		}
	}
	return n ? (int)n : -1;
}

static void print_usage(FILE *f, const struct cmd *cmds, const char *object)
{
	const struct cmd *c;

	for (c = cmds; c->name; c++)
		fprintf(f, "  uxdp %s%s%-40s %s\n", object ? object : "", object ? " " : "", c->usage,
			c->summary);
}

bool cmd_is_help(int argc, char **argv)
{
	return argc == 1 && (!strcmp(argv[0], "help") || !strcmp(argv[0], "--help") ||
			     !strcmp(argv[0], "-h"));
}

static const struct cmd *cmd_find(const struct cmd *cmds, const char *name)
{
	for (const struct cmd *c = cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* `uxdp [OBJECT] COMMAND help`: the command's usage and what it does. */
static int cmd_help(const struct cmd *c, const char *object)
{
	if (json_output) {
		printf("null\n");
		return 0;
	}
	printf("Usage: uxdp %s%s%s\n  %s\n", object ? object : "", object ? " " : "", c->usage,
	       c->summary);
	if (!object && (!strcmp(c->name, "run") || !strcmp(c->name, "shell")))
		script_help(stdout, NULL);
	return 0;
}

int cmd_select(const struct cmd *cmds, int argc, char **argv, const char *object)
{
	const struct cmd *c;

	if (argc < 1 || (cmd_is_help(1, argv) && !cmd_find(cmds, argv[0]))) {
		if (json_output) {
			printf("null\n");
			return 0;
		}
		printf("Usage:\n");
		print_usage(stdout, cmds, object);
		return argc < 1 ? EXIT_USAGE : 0;
	}
	c = cmd_find(cmds, argv[0]);
	if (c && !c->sub && cmd_is_help(argc - 1, argv + 1))
		return cmd_help(c, object);
	if (c)
		return c->handler(argc - 1, argv + 1);
	p_err("unknown command '%s'%s%s; try 'uxdp %s%shelp'", argv[0],
	      object ? " for " : "", object ? object : "", object ? object : "", object ? " " : "");
	return EXIT_USAGE;
}

static int do_help(int argc, char **argv)
{
	const struct cmd *c = argc ? cmd_find(uxdp_objects, argv[0]) : NULL;

	if (argc && !c) {
		p_err("unknown command '%s'; try 'uxdp help'", argv[0]);
		return EXIT_USAGE;
	}
	if (c && c->sub)
		return cmd_select(c->sub, argc > 1 ? 2 : 1,
				  argc > 1 ? (char *[]){ argv[1], "help" } : (char *[]){ "help" },
				  c->name);
	if (c)
		return cmd_help(c, NULL);
	if (json_output) {
		printf("null\n");
		return 0;
	}
	printf("Usage: uxdp [-j|--json] [-p|--pretty] [-q] OBJECT COMMAND ...\n\n");
	print_usage(stdout, uxdp_objects, NULL);
	return 0;
}

static int do_version(int argc, char **argv)
{
	if (json_output)
		print_string_object("version", uxdp_version());
	else
		printf("uxdp %s\n", uxdp_version());
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	FILE *real_stdout;
	char *out = NULL;
	size_t len = 0;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+jpqVh", opts, NULL)) >= 0) {
		switch (opt) {
		case 'j':
			json_output = true;
			break;
		case 'p':
			json_output = pretty_output = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'V':
			return do_version(0, NULL);
		case 'h':
			return do_help(0, NULL);
		default:
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		do_help(0, NULL);
		return EXIT_USAGE;
	}
	if (!pretty_output)
		return cmd_select(uxdp_objects, argc, argv, NULL);
	/*
	 * -p: every command's JSON goes to stdout compact; it is kept here and
	 * reindented in one place at the end.
	 */
	real_stdout = stdout;
	stdout = open_memstream(&out, &len);
	if (!stdout) {
		stdout = real_stdout;
		return cmd_select(uxdp_objects, argc, argv, NULL);
	}
	ret = cmd_select(uxdp_objects, argc, argv, NULL);
	fclose(stdout);
	stdout = real_stdout;
	json_print(stdout, out, true);
	free(out);
	return ret;
}
