// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp test DIR|FILE...`: run scripts as tests. Each FILE, and each
 * *.uxdp of each DIR (in name order), runs in a child process of its own,
 * in the script's directory (so the captures and objects it names are
 * found next to it), with its output kept; a script passes when it exits
 * 0 (its `expect` lines held), is skipped when it exits 77, and fails
 * otherwise, with its output shown. Ends with "N passed, M failed[, K
 * skipped]"; exit status 1 on any failure. With -j one JSON object:
 * {"tests":[{"script","result","exit","duration_s"}],"passed","failed","skipped"}.
 *
 * Kernel: none (meson test / kselftest's runner are the models)
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "btf_dump.h"
#include "json_writer.h"
#include "main.h"

#define TEST_MAX_SCRIPTS	4096
#define TEST_EXIT_SKIP		77

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* FILE, or DIR's *.uxdp sorted: appended to @list. */
static int collect(const char *arg, char **list, unsigned int *n)
{
	unsigned int first = *n;
	struct dirent *de;
	DIR *d = opendir(arg);

	if (!d) {
		if (errno != ENOTDIR || access(arg, R_OK)) {
			p_err("%s: %s", arg, strerror(errno));
			return -ENOENT;
		}
		if (*n == TEST_MAX_SCRIPTS || !(list[(*n)++] = strdup(arg)))
			return -ENOMEM;
		return 0;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l < 6 || strcmp(de->d_name + l - 5, ".uxdp"))
			continue;
		if (*n == TEST_MAX_SCRIPTS ||
		    asprintf(&list[*n], "%s/%s", arg, de->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
		(*n)++;
	}
	closedir(d);
	qsort(list + first, *n - first, sizeof(*list), cmp_str);
	return 0;
}

/* Run @path in a child; its output in @out. Return: exit status (128+sig). */
static int run_one(const char *path, FILE *out)
{
	char *dup = strdup(path), *base = strdup(path);
	int status = 0, fd = fileno(out);
	pid_t pid;

	if (!dup || !base) {
		free(dup);
		free(base);
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		char *args[] = { basename(base), NULL };

		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fileno(stdout) != STDOUT_FILENO)	/* -p keeps stdout in memory */
			stdout = fdopen(STDOUT_FILENO, "w");
		if (chdir(dirname(dup))) {
			perror(path);
			_exit(EXIT_USAGE);
		}
		status = do_run_script(1, args);
		fflush(NULL);	/* _exit() would drop what stdio still holds */
		_exit(status);
	}
	free(dup);
	free(base);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		p_err("%s: cannot run: %s", path, strerror(errno));
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void show_output(FILE *out)
{
	char line[1024];

	rewind(out);
	while (fgets(line, sizeof(line), out))
		fprintf(stderr, "    | %s", line);
}

int do_test(int argc, char **argv)
{
	unsigned int n = 0, passed = 0, failed = 0, skipped = 0;
	struct json_writer jw, *w = NULL;
	char **list;
	int ret = 0;

	if (argc < 1) {
		p_err("usage: uxdp test DIR|FILE...");
		return EXIT_USAGE;
	}
	list = calloc(TEST_MAX_SCRIPTS, sizeof(*list));
	if (!list)
		return 1;
	for (int i = 0; i < argc; i++)
		if (collect(argv[i], list, &n)) {
			ret = EXIT_USAGE;
			goto out;
		}
	if (json_output && !jsonw_open(&jw)) {
		w = &jw;
		jsonw_start_object(w);
		jsonw_name(w, "tests");
		jsonw_start_array(w);
	}
	for (unsigned int i = 0; i < n; i++) {
		struct timespec t0, t1;
		FILE *out = tmpfile();
		const char *res;
		double secs;
		int rc;

		if (!out) {
			p_err("tmpfile: %s", strerror(errno));
			ret = 1;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		rc = run_one(list[i], out);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		res = !rc ? "pass" : rc == TEST_EXIT_SKIP ? "skip" : "fail";
		passed += !rc;
		skipped += rc == TEST_EXIT_SKIP;
		failed += rc && rc != TEST_EXIT_SKIP;
		if (w) {
			jsonw_start_object(w);
			jsonw_string_field(w, "script", list[i]);
			jsonw_string_field(w, "result", res);
			jsonw_int_field(w, "exit", rc);
			jsonw_float_field(w, "duration_s", "%.3f", secs);
			jsonw_end_object(w);
		} else if (!json_output) {
			printf("%-4s %s (%.2f s)\n", !rc ? "PASS" : rc == TEST_EXIT_SKIP ? "SKIP" : "FAIL",
			       list[i], secs);
			if (rc && rc != TEST_EXIT_SKIP) {
				fflush(stdout);
				fprintf(stderr, "  %s: exit status %d; its output:\n", list[i], rc);
				show_output(out);
			}
		}
		fclose(out);
	}
	if (w) {
		jsonw_end_array(w);
		jsonw_uint_field(w, "passed", passed);
		jsonw_uint_field(w, "failed", failed);
		jsonw_uint_field(w, "skipped", skipped);
		jsonw_end_object(w);
		json_doc_print(jsonw_close(w));
	} else if (!json_output)
		printf("%u passed, %u failed%s", passed, failed, skipped ? "" : "\n");
	if (!json_output && skipped)
		printf(", %u skipped\n", skipped);
	if (failed)
		ret = 1;
out:
	for (unsigned int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	return ret;
}
