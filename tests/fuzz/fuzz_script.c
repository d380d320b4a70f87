// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the topology script reader of `uxdp run` and every command
 * it dispatches to (link add/set/del/show, map update, run, stats), through
 * the tool's own main() (tools/uxdp built with main renamed). The input is
 * a script. To keep each input short, the harness rewrites what would make
 * it run for long: a `run ...` line becomes `run count 16` followed by its
 * options, and the value after a `rate` word becomes 0 (as fast as
 * possible). The word after `out` (a pcap device's file) becomes
 * /dev/null, so that no input writes files. Every device and object a
 * script made must be gone after it.
 *
 * Kernel: none (iproute2's batch mode is the model of the scripts)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uxdp/uxdp.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_link.h>

#include "fuzz.h"

#define SCRIPT_MAX_SIZE	8192

int uxdp_tool_main(int argc, char **argv);

static int memfd = -1, devnull = -1, saved_out = -1;
static char memfd_path[64];
/* rewrite_line() grows a line at most 13/4 times ("run\n" -> "run count 16\n") */
static char out[SCRIPT_MAX_SIZE * 4 + 64];

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uxdp_set_print(fuzz_quiet);
	memfd = memfd_create("fuzz-script", MFD_CLOEXEC);
	if (memfd < 0)
		fuzz_bug("memfd_create: %s", strerror(errno));
	snprintf(memfd_path, sizeof(memfd_path), "/proc/self/fd/%d", memfd);
	/*
	 * The tool's reports on stdout are not what is being tested. Its
	 * error messages on stderr stay: sanitizer reports go there too
	 * (scripts/fuzz.sh runs this target with -close_fd_mask=2, which
	 * keeps the reports and drops the rest).
	 */
	if (!getenv("FUZZ_SCRIPT_VERBOSE")) {
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		saved_out = dup(STDOUT_FILENO);
		if (devnull < 0 || saved_out < 0)
			fuzz_bug("cannot silence the tool");
	}
	return 0;
}

void fuzz_cleanup(void)
{
	close(memfd);
	if (devnull >= 0) {
		close(devnull);
		close(saved_out);
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Copy one line (without its '\n') to @o, bounding run and rate. */
static size_t rewrite_line(const char *l, size_t n, char *o)
{
	const char *tok[SCRIPT_MAX_SIZE / 2];
	size_t tlen[SCRIPT_MAX_SIZE / 2], nt = 0, i = 0, w = 0, first = 0, k;
	bool zero_next = false, null_next = false;

	while (i < n && nt < ARRAY_SIZE(tok)) {
		while (i < n && is_blank(l[i]))
			i++;
		if (i == n)
			break;
		tok[nt] = l + i;
		while (i < n && !is_blank(l[i]))
			i++;
		tlen[nt] = l + i - tok[nt];
		nt++;
	}
	if (nt && tlen[0] == 3 && !memcmp(tok[0], "run", 3)) {
		w += sprintf(o, "run count 16");
		first = nt > 1 && tlen[1] == 5 && !memcmp(tok[1], "count", 5) ? 3 : 2;
	}
	for (k = first; k < nt; k++) {
		if (w)
			o[w++] = ' ';
		if (zero_next) {
			o[w++] = '0';
			zero_next = false;
			continue;
		}
		if (null_next) {
			w += sprintf(o + w, "/dev/null");
			null_next = false;
			continue;
		}
		memcpy(o + w, tok[k], tlen[k]);
		w += tlen[k];
		zero_next = tlen[k] == 4 && !memcmp(tok[k], "rate", 4);
		/* a pcap device's `out FILE` would create or truncate any file */
		null_next = tlen[k] == 3 && !memcmp(tok[k], "out", 3);
	}
	o[w++] = '\n';
	return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[5] = { "uxdp", "-q", "run", memfd_path, NULL };
	char *argv_j[5] = { "uxdp", "-j", "run", memfd_path, NULL };
	const char *p = (const char *)data, *e = p + size;
	int maps = uxdp_bpf_map_alive_count();
	size_t w = 0;

	if (size > SCRIPT_MAX_SIZE || memchr(data, 0, size))
		return 0;
	while (p < e) {
		const char *nl = memchr(p, '\n', e - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);

		w += rewrite_line(p, n, out + w);
		p += n + 1;
	}
	if (ftruncate(memfd, 0) || pwrite(memfd, out, w, 0) != (ssize_t)w)
		fuzz_bug("memfd write: %s", strerror(errno));
	optind = 0;	/* full getopt reset for the tool's main() */
	fflush(stdout);
	fflush(stderr);
	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	uxdp_tool_main(4, size & 1 ? argv_j : argv);
	fflush(stdout);
	fflush(stderr);
	if (devnull >= 0)
		dup2(saved_out, STDOUT_FILENO);
	fuzz_assert(uxdp_link_next(0) <= 0, "a device outlived its script");
	fuzz_assert(uxdp_bpf_map_alive_count() == maps, "maps outlived their script");
	return 0;
}
