// SPDX-License-Identifier: GPL-2.0
/*
 * Script commands of the map object, and the objects a script opened:
 *
 *   map update OBJ:MAP key HEX... value HEX...
 *   map update OBJ:MAP key HEX... value dev IFNAME     (DEVMAP, DEVMAP_HASH)
 *   map dump OBJ:MAP | MAP
 *   map lookup OBJ:MAP | MAP key HEX...
 *   map delete OBJ:MAP | MAP key HEX...
 *   map record_type OBJ:MAP | MAP TYPE     (PERF_EVENT_ARRAY, RINGBUF)
 *
 * A MAP alone names the map of that name in whichever object the script
 * opened (the first one that has it). dump and lookup print keys and
 * values typed from the object's BTF, as `bpftool map dump` (btf_dump.c);
 * with -j the elements go to "map_dumps" in the document. record_type
 * names the BTF type that decodes the records of a perf event array or
 * ringbuf when a run ends (run_trace.c).
 * OBJ is an object a `link set ... xdp obj FILE` line opened, named by the
 * FILE as written, its base name, or the base name without ".o". HEX is
 * bpftool's: bytes as one word ("00000000") or several ("00 00 00 00").
 * Object files are looked up as given, next to the script, then by base
 * name in the example programs: $UXDP_PROGS_DIR, else the installed
 * share/uxdp/progs or the build tree's examples/progs, both found from
 * the executable's own location (no build path is baked in).
 *
 * Kernel: tools/bpf/bpftool/map.c do_update(), do_dump(), do_lookup(),
 *	   do_delete() (the grammar)
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <uxdp_bpf.h>
#include <uxdp_link.h>

#include "btf_dump.h"
#include "json_writer.h"
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

static unsigned int nr_record_types;	/* `map record_type`: their BTF goes with the objects */

void script_objects_close(void)
{
	nr_record_types = 0;
	for (unsigned int i = 0; i < nr_objects; i++) {
		uxdp_bpf_object_close(objects[i].obj);
		free(objects[i].name);
	}
	nr_objects = 0;
}

int script_map_resolve(const char *spec, struct uxdp_bpf_map_desc *m, const struct btf **btf)
{
	const char *colon = strrchr(spec, ':'), *mname = colon ? colon + 1 : spec;
	struct uxdp_bpf_object *obj = NULL;
	char objname[256];
	int id = -ENOENT;

	if (colon) {
		snprintf(objname, sizeof(objname), "%.*s", (int)(colon - spec), spec);
		obj = script_object_find(objname);
		if (!obj) {
			script_err("no object '%s' (open it first with link set dev X xdp obj FILE)",
				   objname);
			return -ENOENT;
		}
		id = uxdp_bpf_object_find_map(obj, mname);
	} else {
		const char *oname;

		for (unsigned int o = 0; o < script_object_cnt() && id < 0; o++) {
			obj = script_object_at(o, &oname);
			id = uxdp_bpf_object_find_map(obj, mname);
		}
	}
	if (id < 0) {
		script_err("%s%s a map '%s'", colon ? objname : "no object",
			   colon ? " has no" : " opened so far has", mname);
		return -ENOENT;
	}
	for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++)
		if (!uxdp_bpf_object_map(obj, k, m) && (int)m->id == id)
			break;
	if (btf)
		*btf = uxdp_bpf_object_btf(obj);
	return id;
}

static int map_update(int argc, char **argv)
{
	unsigned char key[256], val[4096];
	struct uxdp_bpf_map_desc m;
	int id, klen, vlen, i = 1, ret;
	const char *name;

	if (argc < 5 || strcmp(argv[1], "key")) {
		script_err("usage: map update OBJ:MAP key HEX value HEX | value dev IFNAME");
		return EXIT_USAGE;
	}
	id = script_map_resolve(argv[0], &m, NULL);
	if (id < 0)
		return EXIT_USAGE;
	name = m.name;
	i = 2;
	klen = parse_hex_words(argc, argv, &i, key, sizeof(key));
	if (klen != (int)m.key_size) {
		script_err("map '%s': key is not %u bytes of hex", name, m.key_size);
		return EXIT_USAGE;
	}
	if (i >= argc || strcmp(argv[i], "value")) {
		script_err("map '%s': expected 'value'", name);
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
			script_err("map '%s': 'value dev' needs a DEVMAP value (4 or 8 bytes)", name);
			return EXIT_USAGE;
		}
		memset(val, 0, sizeof(val));
		memcpy(val, &ifindex, 4);
		vlen = m.value_size;
		i += 2;
	} else {
		vlen = parse_hex_words(argc, argv, &i, val, sizeof(val));
		if (vlen != (int)m.value_size_sys && vlen != (int)m.value_size) {
			script_err("map '%s': value is not %u bytes of hex", name, m.value_size);
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
		script_err("map '%s': update failed: %s", name, strerror(-ret));
		return 1;
	}
	return 0;
}

/* `map lookup|delete SPEC key HEX...`: the map and its key. */
static int map_key_args(int argc, char **argv, const char *cmd, struct uxdp_bpf_map_desc *m,
			const struct btf **btf, unsigned char *key, size_t max)
{
	int i = 2, klen;

	if (argc < 3 || strcmp(argv[1], "key")) {
		script_err("usage: map %s OBJ:MAP key HEX", cmd);
		return -EINVAL;
	}
	if (script_map_resolve(argv[0], m, btf) < 0)
		return -ENOENT;
	klen = parse_hex_words(argc, argv, &i, key, max);
	if (klen != (int)m->key_size || i != argc) {
		script_err("map '%s': key is not %u bytes of hex", m->name, m->key_size);
		return -EINVAL;
	}
	return 0;
}

/* One element to stdout (text) and to the "map_dumps" entry @j (-j). */
static void map_print_elem(FILE *j, const struct uxdp_bpf_map_desc *m, const struct btf *btf,
			   const void *key, const void *val, bool first)
{
	if (!json_output) {
		fputs("  ", stdout);
		btf_dump_elem(stdout, m, btf, key, val, false);
	}
	if (!first)
		fputc(',', j);
	btf_dump_elem(j, m, btf, key, val, true);
}

static int map_show(int argc, char **argv, bool dump)
{
	unsigned char key[256], next[256], *val = NULL;
	struct uxdp_bpf_map_desc m;
	const struct btf *btf;
	unsigned int n = 0;
	bool have = false;
	char *buf = NULL;
	size_t len = 0;
	int ret = 0;
	FILE *j;

	if (dump) {
		if (argc != 1) {
			script_err("usage: map dump OBJ:MAP");
			return EXIT_USAGE;
		}
		if (script_map_resolve(argv[0], &m, &btf) < 0)
			return EXIT_USAGE;
	} else if (map_key_args(argc, argv, "lookup", &m, &btf, key, sizeof(key))) {
		return EXIT_USAGE;
	}
	if (m.key_size > sizeof(key)) {
		script_err("map '%s': keys of %u bytes are not supported", m.name, m.key_size);
		return EXIT_USAGE;
	}
	val = calloc(1, m.value_size_sys + 8);
	j = open_memstream(&buf, &len);
	if (!val || !j) {
		free(val);
		return 1;
	}
	fprintf(j, "{\"map\":");
	json_escape(j, m.name, strlen(m.name));
	fprintf(j, ",\"elements\":[");
	if (!json_output)
		printf("map %s (%s):\n", m.name, uxdp_bpf_map_type_name(m.type) ?: "?");
	if (!dump) {
		ret = uxdp_bpf_map_lookup_elem(m.id, key, val);
		if (!ret) {
			map_print_elem(j, &m, btf, key, val, true);
			n++;
		} else if (!json_output) {
			printf("  key: ");
			btf_dump_value(stdout, btf, m.btf_key_type_id, key, m.key_size);
			printf(": %s\n", strerror(-ret));
		}
	}
	while (dump && n < 1000000 && !uxdp_bpf_map_get_next_key(m.id, have ? key : NULL, next)) {
		memcpy(key, next, m.key_size);
		have = true;
		if (uxdp_bpf_map_lookup_elem(m.id, key, val))
			continue;
		map_print_elem(j, &m, btf, key, val, !n);
		n++;
	}
	fprintf(j, "]}");
	fclose(j);
	if (!json_output && dump)
		printf("Found %u element%s\n", n, n == 1 ? "" : "s");
	script_json_add("map_dumps", buf);
	free(buf);
	free(val);
	return 0;
}

static int map_dump(int argc, char **argv)
{
	return map_show(argc, argv, true);
}

static int map_lookup(int argc, char **argv)
{
	return map_show(argc, argv, false);
}

static int map_delete(int argc, char **argv)
{
	struct uxdp_bpf_map_desc m;
	unsigned char key[256];
	int err;

	if (map_key_args(argc, argv, "delete", &m, NULL, key, sizeof(key)))
		return EXIT_USAGE;
	err = uxdp_bpf_map_delete_elem(m.id, key);
	if (err) {
		script_err("map '%s': delete failed: %s", m.name, strerror(-err));
		return 1;
	}
	return 0;
}

#define SCRIPT_MAX_RECORD_TYPES	16

static struct {
	uint32_t map_id;
	uint32_t type_id;
	const struct btf *btf;
} record_types[SCRIPT_MAX_RECORD_TYPES];

uint32_t script_record_type(uint32_t map_id, const struct btf **btf)
{
	for (unsigned int i = 0; i < nr_record_types; i++)
		if (record_types[i].map_id == map_id) {
			*btf = record_types[i].btf;
			return record_types[i].type_id;
		}
	return 0;
}

static int map_record_type(int argc, char **argv)
{
	struct uxdp_bpf_map_desc m;
	const struct btf *btf;
	int id;

	if (argc != 2) {
		script_err("usage: map record_type OBJ:MAP TYPE");
		return EXIT_USAGE;
	}
	if (script_map_resolve(argv[0], &m, &btf) < 0)
		return EXIT_USAGE;
	if (m.type != BPF_MAP_TYPE_PERF_EVENT_ARRAY && m.type != BPF_MAP_TYPE_RINGBUF) {
		script_err("map '%s': records come from perf_event_array and ringbuf maps only", m.name);
		return EXIT_USAGE;
	}
	id = btf ? btf__find_by_name(btf, argv[1]) : -ENOENT;
	if (id <= 0) {
		script_err("map '%s': no type '%s' in the object's BTF", m.name, argv[1]);
		return EXIT_USAGE;
	}
	for (unsigned int i = 0; i <= nr_record_types; i++) {
		if (i == SCRIPT_MAX_RECORD_TYPES) {
			script_err("more than %d record types", SCRIPT_MAX_RECORD_TYPES);
			return EXIT_USAGE;
		}
		if (i == nr_record_types || record_types[i].map_id == m.id) {
			record_types[i].map_id = m.id;
			record_types[i].type_id = id;
			record_types[i].btf = btf;
			nr_record_types += i == nr_record_types;
			break;
		}
	}
	return 0;
}

const struct script_cmd map_cmds[] = {
	{ "record_type", map_record_type, "record_type OBJ:MAP TYPE" },
	{ "update", map_update, "update OBJ:MAP key HEX value HEX | value dev IFNAME" },
	{ "dump", map_dump, "dump OBJ:MAP | MAP" },
	{ "lookup", map_lookup, "lookup OBJ:MAP | MAP key HEX" },
	{ "delete", map_delete, "delete OBJ:MAP | MAP key HEX" },
	{ 0 }
};
