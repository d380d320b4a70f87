// SPDX-License-Identifier: GPL-2.0
/*
 * Program coverage from the CLI: `prog run ... coverage FILE` and the
 * script command `coverage FILE`. Both turn counting on for every loaded
 * program of the objects involved (the programs then run on the
 * interpreter) and write one lcov tracefile (uxdp_bpf_cov.h) at the end:
 * after the run for `prog run`, when the script ends for a script, with
 * every object the script opened before or after the command.
 *
 * Kernel: none.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp.h>
#include <uxdp_bpf.h>
#include <uxdp_bpf_cov.h>

#include "main.h"
#include "script.h"

/* The script's `coverage FILE`, or NULL. */
static char *script_cov_path;

int coverage_start(struct uxdp_bpf_object *obj)
{
	unsigned int i;

	for (i = 0; i < uxdp_bpf_object_prog_cnt(obj); i++) {
		struct uxdp_bpf_prog_desc d;
		int err;

		if (uxdp_bpf_object_prog(obj, i, &d) || !d.loaded)
			continue;
		err = uxdp_bpf_prog_coverage_enable(d.id);
		if (err) {
			p_err("coverage: prog '%s': %s", d.name, uxdp_errmsg());
			return err;
		}
	}
	return 0;
}

/* The ids of every loaded program of @objs, for the tracefile. */
static int coverage_ids(struct uxdp_bpf_object *const *objs, unsigned int nr, __u32 **ids)
{
	unsigned int i, j, n = 0, cap = 0;
	__u32 *out = NULL;

	for (i = 0; i < nr; i++)
		cap += uxdp_bpf_object_prog_cnt(objs[i]);
	out = calloc(cap ? cap : 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		for (j = 0; j < uxdp_bpf_object_prog_cnt(objs[i]); j++) {
			struct uxdp_bpf_prog_desc d;

			if (!uxdp_bpf_object_prog(objs[i], j, &d) && d.loaded)
				out[n++] = d.id;
		}
	*ids = out;
	return (int)n;
}

static int coverage_write_objs(struct uxdp_bpf_object *const *objs, unsigned int nr,
			       const char *path)
{
	__u32 *ids = NULL;
	int n, err;

	n = coverage_ids(objs, nr, &ids);
	if (n < 0)
		return n;
	err = n ? uxdp_bpf_coverage_write_lcov(path, ids, (unsigned int)n, NULL) : -ENOENT;
	if (err)
		p_err("coverage: %s", n ? uxdp_errmsg() : "no program is loaded");
	free(ids);
	return err;
}

int coverage_write(struct uxdp_bpf_object *obj, const char *path)
{
	return coverage_write_objs(&obj, 1, path);
}

void coverage_script_object_opened(struct uxdp_bpf_object *obj)
{
	if (script_cov_path)
		coverage_start(obj);
}

int coverage_script_end(void)
{
	struct uxdp_bpf_object **objs;
	unsigned int i, nr = script_object_cnt();
	const char *name;
	int err;

	if (!script_cov_path)
		return 0;
	objs = calloc(nr ? nr : 1, sizeof(*objs));
	err = objs ? 0 : -ENOMEM;
	for (i = 0; objs && i < nr; i++)
		objs[i] = script_object_at(i, &name);
	if (!err && !nr) {
		p_err("coverage: %s: the script opened no object", script_cov_path);
		err = -ENOENT;
	}
	if (!err)
		err = coverage_write_objs(objs, nr, script_cov_path);
	free(objs);
	free(script_cov_path);
	script_cov_path = NULL;
	return err ? 1 : 0;
}

static int cmd_coverage(int argc, char **argv)
{
	const char *name;
	unsigned int i;

	if (argc != 1) {
		script_err("usage: coverage FILE");
		return EXIT_USAGE;
	}
	if (script_cov_path) {
		script_err("coverage: already written to %s", script_cov_path);
		return EXIT_USAGE;
	}
	script_cov_path = strdup(argv[0]);
	if (!script_cov_path)
		return 1;
	for (i = 0; i < script_object_cnt(); i++)
		if (coverage_start(script_object_at(i, &name)))
			return 1;
	return 0;
}

const struct script_cmd coverage_cmds[] = {
	{ "coverage", cmd_coverage,
	  "coverage FILE (count what the programs run; lcov tracefile at the end)" },
	{ 0 }
};
