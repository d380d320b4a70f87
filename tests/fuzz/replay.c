// SPDX-License-Identifier: GPL-2.0
/*
 * Plain-main driver for the fuzz harnesses: feeds every file named on the
 * command line (directories: every regular file in them, sorted) to the
 * harness's LLVMFuzzerTestOneInput(), once. Builds under any compiler, so
 * the seed corpora and the regression inputs of tests/fuzz/regress/ run as
 * ordinary meson tests (suite 'fuzz'); under libFuzzer the same harness is
 * linked with -fsanitize=fuzzer instead of this file.
 *
 * A missing path is skipped with a note (seed directories that exist only
 * when clang built examples/progs). Exit: 0, or 1 when no input was run
 * although inputs were required (--min N).
 *
 * Fault injection: with FUZZ_FAULT set (UXDP_FAULT syntax, e.g.
 * "slab:1/20,page:1/20") allocations fail at that rate while the inputs
 * run (not while the harness sets itself up); afterwards the harness's
 * fuzz_cleanup() releases what it holds and every slab object and page
 * must be back (uxdp_mem_leak_check()), and at least one fault must have
 * been injected.
 *
 * Kernel: none (test infrastructure).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/slab.h>

#include "fuzz.h"

#define REPLAY_MAX_FILES	100000
#define REPLAY_MAX_SIZE		(16U << 20)

static unsigned long replayed;

static int replay_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t got;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > REPLAY_MAX_SIZE)
		return 0;
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		fclose(f);
		return -1;
	}
	got = fread(buf, 1, st.st_size, f);
	fclose(f);
	if (getenv("FUZZ_REPLAY_VERBOSE"))
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, got);
	LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	replayed++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir)
{
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < REPLAY_MAX_FILES) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*names));
			if (!nn) {
				err = -1;
				break;
			}
			names = nn;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			err = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		if (!err) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			err = replay_file(path);
		}
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	const char *fault = getenv("FUZZ_FAULT");
	unsigned long min = 0, injected;
	struct stat st;
	char why[512];
	int i;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (fault && uxdp_fault_parse(fault)) {
		fprintf(stderr, "replay: bad FUZZ_FAULT '%s'\n", fault);
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--min") && i + 1 < argc) {
			min = strtoul(argv[++i], NULL, 0);
			continue;
		}
		if (stat(argv[i], &st)) {
			printf("replay: %s: absent, skipped\n", argv[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]))
			return 1;
	}
	printf("replay: %lu inputs\n", replayed);
	if (fault) {
		injected = uxdp_fault_injected(UXDP_FAULT_SLAB) +
			   uxdp_fault_injected(UXDP_FAULT_PAGE);
		uxdp_fault_clear();
		if (fuzz_cleanup)
			fuzz_cleanup();
		printf("replay: %lu allocation failures injected\n", injected);
		if (!uxdp_mem_leak_check(why, sizeof(why))) {
			fprintf(stderr, "replay: leak after fault injection: %s\n", why);
			return 1;
		}
		if (!injected && replayed) {
			fprintf(stderr, "replay: FUZZ_FAULT set but no fault injected\n");
			return 1;
		}
	}
	if (replayed < min) {
		fprintf(stderr, "replay: %lu inputs, at least %lu expected\n", replayed, min);
		return 1;
	}
	return 0;
}
