// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands of the map object, and the objects a script opened:
 *
 *   map update OBJ:MAP key HEX... value HEX...
 *   map update OBJ:MAP key HEX... value dev IFNAME     (DEVMAP, DEVMAP_HASH)
 *
 * OBJ is an object a `link set ... xdp obj FILE` line opened, named by the
 * FILE as written, its base name, or the base name without ".o". HEX is
 * bpftool's: bytes as one word ("00000000") or several ("00 00 00 00").
 * Object files are looked up as given, next to the script, then by base
 * name in the example programs: $UXDP_PROGS_DIR, else the installed
 * share/uxdp/progs or the build tree's examples/progs, both found from
 * the executable's own location (no build path is baked in).
 *
 * Kernel: tools/bpf/bpftool/map.c do_update() (the grammar)
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uxdp_bpf.h>
#include <uxdp_link.h>

#include "main.h"
#include "script.h"

/* From the executable's directory: installed (bindir) and build tree. */
#ifndef UXDP_PROGS_REL
#define UXDP_PROGS_REL "../share/uxdp/progs"
#endif
#define UXDP_PROGS_BUILD_REL "../../examples/progs"

#define SCRIPT_MAX_OBJECTS	32

static struct {
	char *name;			/* as the script wrote it */
	struct uxdp_bpf_object *obj;
} objects[SCRIPT_MAX_OBJECTS];
static unsigned int nr_objects;

static bool name_matches(const char *written, const char *name)
{
	char buf[512], *base;
	size_t n;

	if (!strcmp(written, name))
		return true;
	snprintf(buf, sizeof(buf), "%s", written);
	base = basename(buf);
	if (!strcmp(base, name))
		return true;
	n = strlen(base);
	return n > 2 && !strcmp(base + n - 2, ".o") && strlen(name) == n - 2 &&
	       !strncmp(base, name, n - 2);
}

struct uxdp_bpf_object *script_object_find(const char *name)
{
	for (unsigned int i = 0; i < nr_objects; i++)
		if (name_matches(objects[i].name, name))
			return objects[i].obj;
	return NULL;
}

unsigned int script_object_cnt(void)
{
	return nr_objects;
}

struct uxdp_bpf_object *script_object_at(unsigned int i, const char **name)
{
	if (i >= nr_objects)
		return NULL;
	*name = objects[i].name;
	return objects[i].obj;
}

/* Where the example programs are (see the top of the file), or "." */
static const char *progs_dir(void)
{
	static const char *const rels[] = { UXDP_PROGS_REL, UXDP_PROGS_BUILD_REL };
	static char dir[1024];
	char exe[1024], try[2048], *exe_dir;
	ssize_t n;
	unsigned int i;

	if (getenv("UXDP_PROGS_DIR"))
		return getenv("UXDP_PROGS_DIR");
#ifdef UXDP_PROGS_DIR
	return UXDP_PROGS_DIR;	/* test harnesses that are never installed */
#endif
	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return ".";
	exe[n] = '\0';
	exe_dir = dirname(exe);
	for (i = 0; i < sizeof(rels) / sizeof(rels[0]); i++) {
		snprintf(try, sizeof(try), "%s/%s", exe_dir, rels[i]);
		if (realpath(try, dir))
			return dir;
		dir[0] = '\0';
	}
	return ".";
}

struct uxdp_bpf_object *script_object_get(const char *path, char *err, size_t errlen)
{
	char tries[3][1024], log[4096] = "", buf[512];
	struct uxdp_bpf_object_open_opts opts = {
		.sz = sizeof(opts),
		.log_buf = log,
		.log_size = sizeof(log),
	};
	struct uxdp_bpf_object *obj;
	const char *found = NULL;

	for (unsigned int i = 0; i < nr_objects; i++)
		if (!strcmp(objects[i].name, path))
			return objects[i].obj;
	if (nr_objects == SCRIPT_MAX_OBJECTS) {
		snprintf(err, errlen, "%s: too many objects", path);
		return NULL;
	}
	snprintf(buf, sizeof(buf), "%s", path);
	snprintf(tries[0], sizeof(tries[0]), "%s", path);
	snprintf(tries[1], sizeof(tries[1]), "%s/%s", script_dir, path);
	snprintf(tries[2], sizeof(tries[2]), "%s/%s", progs_dir(), basename(buf));
	for (int i = 0; i < 3 && !found; i++)
		if (!access(tries[i], R_OK))
			found = tries[i];
	if (!found) {
		snprintf(err, errlen, "%s: no such object file (also looked in %s and %s)", path,
			 script_dir, progs_dir());
		return NULL;
	}
	obj = uxdp_bpf_object_open(found, &opts);
	if (!obj) {
		snprintf(err, errlen, "%s: %s%s%s", path, strerror(errno), *log ? ": " : "", log);
		return NULL;
	}
	objects[nr_objects].name = strdup(path);
	objects[nr_objects++].obj = obj;
	coverage_script_object_opened(obj);
	return obj;
}

void script_objects_close(void)
{
	for (unsigned int i = 0; i < nr_objects; i++) {
		uxdp_bpf_object_close(objects[i].obj);
		free(objects[i].name);
	}
	nr_objects = 0;
}

/* Parse hex words from argv[*i] on until a non-hex word; returns bytes or -1. */
static int parse_hex_words(int argc, char **argv, int *i, unsigned char *out, size_t max)
{
	size_t n = 0;

	for (; *i < argc; (*i)++) {
		const char *s = argv[*i];
		size_t len = strlen(s);

		if (!len || len % 2)
			break;
		for (size_t k = 0; k < len; k++)
			if (!isxdigit((unsigned char)s[k]))
				return n ? (int)n : -1;
		for (size_t k = 0; k < len; k += 2) {
			unsigned int b;

			if (n == max)
				return -1;
			sscanf(s + k, "%2x", &b);
			out[n++] = b;
		}
	}
	return n ? (int)n : -1;
}

static int map_update(int argc, char **argv)
{
	unsigned char key[256], val[4096];
	struct uxdp_bpf_map_desc m;
	struct uxdp_bpf_object *obj;
	char objname[256], *colon;
	int id, klen, vlen, i = 1, ret;

	if (argc < 5 || !(colon = strrchr(argv[0], ':')) || strcmp(argv[1], "key")) {
		script_err("usage: map update OBJ:MAP key HEX value HEX | value dev IFNAME");
		return EXIT_USAGE;
	}
	snprintf(objname, sizeof(objname), "%.*s", (int)(colon - argv[0]), argv[0]);
	obj = script_object_find(objname);
	if (!obj) {
		script_err("no object '%s' (open it first with link set dev X xdp obj FILE)", objname);
		return EXIT_USAGE;
	}
	id = uxdp_bpf_object_find_map(obj, colon + 1);
	if (id < 0) {
		script_err("%s has no map '%s'", objname, colon + 1);
		return EXIT_USAGE;
	}
	for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++)
		if (!uxdp_bpf_object_map(obj, k, &m) && (int)m.id == id)
			break;
	i = 2;
	klen = parse_hex_words(argc, argv, &i, key, sizeof(key));
	if (klen != (int)m.key_size) {
		script_err("map '%s': key is not %u bytes of hex", colon + 1, m.key_size);
		return EXIT_USAGE;
	}
	if (i >= argc || strcmp(argv[i], "value")) {
		script_err("map '%s': expected 'value'", colon + 1);
		return EXIT_USAGE;
	}
	i++;
	if (i + 1 < argc + 1 && i < argc && !strcmp(argv[i], "dev")) {
		int ifindex = i + 1 < argc ? uxdp_link_ifindex(argv[i + 1]) : -ENODEV;

		if (ifindex < 0) {
			script_err("device '%s' does not exist", i + 1 < argc ? argv[i + 1] : "");
			return EXIT_USAGE;
		}
		if (m.value_size != 4 && m.value_size != 8) {
			script_err("map '%s': 'value dev' needs a DEVMAP value (4 or 8 bytes)", colon + 1);
			return EXIT_USAGE;
		}
		memset(val, 0, sizeof(val));
		memcpy(val, &ifindex, 4);
		vlen = m.value_size;
		i += 2;
	} else {
		vlen = parse_hex_words(argc, argv, &i, val, sizeof(val));
		if (vlen != (int)m.value_size_sys && vlen != (int)m.value_size) {
			script_err("map '%s': value is not %u bytes of hex", colon + 1, m.value_size);
			return EXIT_USAGE;
		}
		if (vlen != (int)m.value_size_sys) {
			/* Per-CPU map given one value: the same on every CPU. */
			for (unsigned int c = 1; c < m.nr_cpus; c++)
				memcpy(val + c * ((m.value_size + 7) & ~7u), val, m.value_size);
		}
	}
	if (i != argc) {
		script_err("unexpected '%s'", argv[i]);
		return EXIT_USAGE;
	}
	ret = uxdp_bpf_map_update_elem(id, key, val, 0);
	if (ret) {
		script_err("map '%s': update failed: %s", colon + 1, strerror(-ret));
		return 1;
	}
	return 0;
}

const struct script_cmd map_cmds[] = {
	{ "update", map_update, "update OBJ:MAP key HEX value HEX | value dev IFNAME" },
	{ 0 }
};
