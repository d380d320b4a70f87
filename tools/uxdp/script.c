// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp run SCRIPT|-` and `uxdp shell`: read topology commands one per
 * line (`#` starts a comment, tokens split on blanks, "double quotes" keep
 * blanks), dispatch them by their first word to the link, map, run and
 * stats handlers. In a script the first bad line stops it with
 * `SCRIPT:LINE: what is wrong` and exit status 2 (1 for a runtime
 * failure), with -j as the document's "error" next to what completed;
 * the shell reports and goes on. SIGINT/SIGTERM stop a script after the
 * line (or run) in progress.
 *
 * Kernel: none (iproute2's batch mode, ip -batch, is the model)
 */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef CONFIG_UXDP_LIBEDIT
#include <editline/readline.h>
#endif

#include <uxdp_link.h>

#include "main.h"
#include "script.h"

static const char *script_name = "-";
static unsigned int script_line;
static bool in_shell;		/* uxdp shell: quit and exit end it, a terminal or not */
static bool script_batch;	/* a script (not the shell) is running */
const char *script_dir = ".";

static const struct {
	const char *object;
	const struct script_cmd *cmds;
} script_objects[] = {
	{ "link", iplink_cmds },
	{ "map", map_cmds },
	{ NULL, run_cmds },	/* run, stats: no object word */
	{ "addr", ipaddr_cmds },
	{ "route", iproute_cmds },
	{ "neigh", ipneigh_cmds },
	{ "ntable", ipntable_cmds },
	{ NULL, ipv4_cmds },	/* sysctl, snmp */
	{ NULL, coverage_cmds },
	{ NULL, expect_cmds },	/* expect */
};

void script_err(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!json_output || !script_error(msg))
		p_err("%s:%u: %s", script_name, script_line, msg);
}

bool script_error(const char *msg)
{
	if (!script_batch)
		return false;
	run_set_error(script_line, msg);
	return true;
}

unsigned int script_lineno(void)
{
	return script_line;
}

static int tokenize(char *line, char **argv, int max)
{
	int argc = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (argc == max)
			return -E2BIG;
		if (*p == '"') {
			argv[argc++] = ++p;
			while (*p && *p != '"')
				p++;
			if (*p != '"')
				return -EINVAL;
			*p++ = 0;
			continue;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = 0;
	}
	return argc;
}

#define NR_SCRIPT_OBJECTS	(sizeof(script_objects) / sizeof(script_objects[0]))

/* Every script command (@object NULL), or those of one object or command word. */
void script_help(FILE *f, const char *object)
{
	bool any = false;

	for (size_t i = 0; i < NR_SCRIPT_OBJECTS; i++) {
		const char *obj = script_objects[i].object;

		for (const struct script_cmd *c = script_objects[i].cmds; c->name; c++) {
			if (object && (obj ? strcmp(obj, object) : strcmp(c->name, object)))
				continue;
			if (!any)
				fprintf(f, "Script commands (uxdp run, uxdp shell):\n");
			any = true;
			fprintf(f, "  %s%s%s\n", obj ? obj : "", obj ? " " : "", c->usage);
		}
	}
	if (!object || !any)
		fprintf(f, "  help [OBJECT|COMMAND]\n");
}

static int script_help_cmd(int argc, char **argv)
{
	if (argc > 1) {
		script_err("usage: help [OBJECT|COMMAND]");
		return EXIT_USAGE;
	}
	script_help(stdout, argc ? argv[0] : NULL);
	return 0;
}

static int dispatch(int argc, char **argv)
{
	if (!strcmp(argv[0], "help"))
		return script_help_cmd(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(script_objects) / sizeof(script_objects[0]); i++) {
		const struct script_cmd *c = script_objects[i].cmds;
		const char *obj = script_objects[i].object;
		int skip = 0;

		if (obj) {
			if (strcmp(argv[0], obj))
				continue;
			if (argc < 2) {
				script_err("'%s' needs a command:", obj);
				for (; c->name; c++)
					fprintf(stderr, "  %s %s\n", obj, c->usage);
				return EXIT_USAGE;
			}
			skip = 1;
		}
		for (; c->name; c++) {
			if (strcmp(c->name, argv[skip]))
				continue;
			/* `OBJECT COMMAND help`: its usage (a command with its own help row keeps it) */
			if (cmd_is_help(argc - skip - 1, argv + skip + 1) && strcmp(c->name, "help")) {
				printf("  %s%s%s\n", obj ? obj : "", obj ? " " : "", c->usage);
				return 0;
			}
			return c->handler(argc - skip - 1, argv + skip + 1);
		}
		if (obj && cmd_is_help(argc - 1, argv + 1)) {
			script_help(stdout, obj);
			return 0;
		}
		if (obj) {
			script_err("unknown command '%s %s'", obj, argv[1]);
			return EXIT_USAGE;
		}
	}
	script_err("unknown command '%s' (link, map, addr, route, neigh, sysctl, run, stats, expect; try 'help')",
		   argv[0]);
	return EXIT_USAGE;
}

/* For uxdp ab (ab.c), which runs a script's set-up lines itself. */
int script_dispatch(int argc, char **argv)
{
	return dispatch(argc, argv);
}

#ifdef CONFIG_UXDP_LIBEDIT
/* ~/.uxdp_history, or NULL without $HOME. */
static const char *shell_history_path(void)
{
	static char path[4096];
	const char *home = getenv("HOME");

	if (!home || !*home)
		return NULL;
	snprintf(path, sizeof(path), "%s/.uxdp_history", home);
	return path;
}

/*
 * TAB in the shell completes by position, from the tables help prints:
 * the first word from the objects and the commands without one, after an
 * object its commands, after a command the keywords of its usage, after
 * `link add NAME type` the kinds, then that kind's keywords. Where no
 * keyword fits (a FILE, a NAME) the line editor completes file names.
 */
static struct {
	const char *text;	/* the word being completed */
	size_t len;
	char *match[256];
	unsigned int nr, next;
} shell_comp;

static void shell_comp_add(const char *word, size_t len)
{
	char *m;

	if (len < shell_comp.len || strncmp(word, shell_comp.text, shell_comp.len) ||
	    shell_comp.nr == sizeof(shell_comp.match) / sizeof(shell_comp.match[0]))
		return;
	for (unsigned int i = 0; i < shell_comp.nr; i++)
		if (strlen(shell_comp.match[i]) == len && !strncmp(shell_comp.match[i], word, len))
			return;
	m = strndup(word, len);
	if (m)
		shell_comp.match[shell_comp.nr++] = m;
}

static void shell_comp_word(const char *word, size_t len, void *arg)
{
	(void)arg;
	shell_comp_add(word, len);
}

/* The generator: hands each match to the line editor, which frees it. */
static char *shell_comp_next(const char *text, int state)
{
	(void)text;
	(void)state;
	if (shell_comp.next < shell_comp.nr)
		return shell_comp.match[shell_comp.next++];
	return NULL;
}

/* The candidates for word @n after the @n words in @w. */
static void shell_comp_args(char **w, int n)
{
	const char *const *k;

	if (!n || (n == 1 && !strcmp(w[0], "help"))) {
		if (!n) {
			shell_comp_add("help", 4);
			shell_comp_add("quit", 4);
			shell_comp_add("exit", 4);
		}
		for (size_t i = 0; i < NR_SCRIPT_OBJECTS; i++) {
			const char *obj = script_objects[i].object;

			if (obj) {
				shell_comp_add(obj, strlen(obj));
				continue;
			}
			for (const struct script_cmd *c = script_objects[i].cmds; c->name; c++)
				shell_comp_add(c->name, strlen(c->name));
		}
		return;
	}
	if (!strcmp(w[0], "link") && n >= 4 && !strcmp(w[1], "add") && !strcmp(w[3], "type")) {
		if (n == 4) {
			for (k = uxdp_link_kinds(); *k; k++)
				shell_comp_add(*k, strlen(*k));
		} else if (uxdp_link_kind_usage(w[4])) {
			usage_keywords(uxdp_link_kind_usage(w[4]), shell_comp_word, NULL);
		}
		return;
	}
	for (size_t i = 0; i < NR_SCRIPT_OBJECTS; i++) {
		const char *obj = script_objects[i].object;
		int skip = !!obj;

		if (obj && strcmp(obj, w[0]))
			continue;
		for (const struct script_cmd *c = script_objects[i].cmds; c->name; c++) {
			if (obj && n == 1) {
				shell_comp_add(c->name, strlen(c->name));
				continue;
			}
			if (strcmp(c->name, w[skip]))
				continue;
			/* the usage repeats the command's name: its keywords follow it */
			usage_keywords(c->usage + strlen(c->name), shell_comp_word, NULL);
		}
		if (obj && n == 1)
			shell_comp_add("help", 4);
	}
}

static char **shell_complete(const char *text, int start, int end)
{
	char *line, *w[SCRIPT_MAX_ARGS];
	char **matches = NULL;
	int n;

	(void)end;
	line = strndup(rl_line_buffer, start);
	if (!line)
		return NULL;
	n = tokenize(line, w, SCRIPT_MAX_ARGS);
	shell_comp.text = text;
	shell_comp.len = strlen(text);
	shell_comp.nr = shell_comp.next = 0;
	if (n >= 0)
		shell_comp_args(w, n);
	if (shell_comp.nr)
		matches = rl_completion_matches(text, shell_comp_next);
	/* matches the generator did not hand over */
	while (shell_comp.next < shell_comp.nr)
		free(shell_comp.match[shell_comp.next++]);
	free(line);
	return matches;
}
#endif

/*
 * One line into *@line: from the line editor when the shell runs on a
 * terminal (history kept across sessions), else as a script reads it.
 */
static ssize_t read_line(FILE *f, bool interactive, char **line, size_t *cap)
{
#ifdef CONFIG_UXDP_LIBEDIT
	if (interactive) {
		char *l = readline("uxdp> ");
		size_t n;

		if (!l)
			return -1;
		if (*l)
			add_history(l);
		n = strlen(l) + 1;
		if (n > *cap) {
			char *p = realloc(*line, n);

			if (!p) {
				free(l);
				return -1;
			}
			*line = p;
			*cap = n;
		}
		memcpy(*line, l, n);
		free(l);
		return n - 1;
	}
#endif
	if (interactive) {
		fputs("uxdp> ", stdout);
		fflush(stdout);
	}
	return getline(line, cap, f);
}

static int run_stream(FILE *f, bool interactive)
{
	char *line = NULL, *argv[SCRIPT_MAX_ARGS];
	size_t cap = 0;
	int ret = 0, argc;

#ifdef CONFIG_UXDP_LIBEDIT
	if (interactive)
		rl_attempted_completion_function = shell_complete;
	if (interactive && shell_history_path()) {
		using_history();
		read_history(shell_history_path());
	}
#endif
	for (script_line = 1;; script_line++) {
		if (run_stop_signal() || read_line(f, interactive, &line, &cap) < 0)
			break;
		argc = tokenize(line, argv, SCRIPT_MAX_ARGS);
		if (argc < 0) {
			script_err(argc == -E2BIG ? "too many words" : "unterminated quote");
			ret = EXIT_USAGE;
		} else if (argc) {
			if (in_shell && (!strcmp(argv[0], "quit") || !strcmp(argv[0], "exit")))
				break;
			ret = dispatch(argc, argv);
		}
		if (interactive && run_stop_signal())
			run_signals_install();	/* the shell goes on after a stopped run */
		else if ((ret && !interactive) || run_stop_signal())
			break;
		if (interactive)
			ret = 0;
	}
#ifdef CONFIG_UXDP_LIBEDIT
	if (interactive && shell_history_path()) {
		stifle_history(1000);
		write_history(shell_history_path());
	}
#endif
	free(line);
	return ret;
}

static int run_script(const char *path, bool interactive)
{
	char *dup = NULL;
	FILE *f = stdin;
	int ret;

	script_name = interactive ? "shell" : path;
	if (strcmp(path, "-")) {
		f = fopen(path, "r");
		if (!f) {
			p_err("%s: %s", path, strerror(errno));
			return EXIT_USAGE;
		}
		dup = strdup(path);
		script_dir = dup ? dirname(dup) : ".";
	}
	run_output_begin();
	run_signals_install();
	script_batch = !interactive;
	ret = run_stream(f, interactive);
	/* A failed expectation fails the script, after the rest of it ran. */
	if (script_expect_finish() && !ret)
		ret = 1;
	if (coverage_script_end() && !ret)
		ret = 1;
	/* With -j one document: the completed results, and the error if any. */
	run_output_end();
	script_batch = false;
	/* a signal that ended a run ends the script cleanly; elsewhere 128 + N */
	if (run_stop_signal() && !ret && !run_stopped_a_run())
		ret = 128 + run_stop_signal();
	uxdp_link_del_all();
	uxdp_ip_reset();
	script_objects_close();
	if (f != stdin)
		fclose(f);
	free(dup);
	return ret ? ret : run_leak_check();
}

int do_run_script(int argc, char **argv)
{
	if (argc != 1) {
		p_err("usage: uxdp run SCRIPT|-");
		return EXIT_USAGE;
	}
	return run_script(argv[0], false);
}

int do_shell(int argc, char **argv)
{
	if (argc) {
		p_err("usage: uxdp shell");
		return EXIT_USAGE;
	}
	in_shell = true;
	return run_script("-", isatty(STDIN_FILENO));
}
