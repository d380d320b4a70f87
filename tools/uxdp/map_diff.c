// SPDX-License-Identifier: GPL-2.0
/*
 * What a run did to the maps of a script's objects: every element created,
 * deleted or changed, with the old and the new value typed from BTF
 * (btf_dump.c). The maps are copied before the run (up to
 * MAP_DIFF_MAX_ELEMS elements each) and compared after it; `stats maps`
 * prints the result as
 *
 *   stats key "PROTO_TCP": {"packets":0,"bytes":0} -> {"packets":3,"bytes":182}
 *   flows + key: {...} value: {...}
 *   flows - key: {...} value: {...}
 *
 * and, with -j, "map_changes":[{"map","change":"created|deleted|changed",
 * "key","old","new"}].
 *
 * Kernel: none (bpftool map dump, twice, and diff)
 * Differs: per-CPU values are compared CPU by CPU and shown summed per
 *	    CPU as bpftool shows them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp_bpf.h>

#include "btf_dump.h"
#include "json_writer.h"
#include "main.h"
#include "map_diff.h"
#include "script.h"

#define MAP_DIFF_MAX_MAPS	64
#define MAP_DIFF_MAX_ELEMS	65536
#define MAP_DIFF_MAX_KEY	256

struct map_copy {
	struct uxdp_bpf_map_desc m;
	const struct btf *btf;
	unsigned char *elems;	/* key | value, each elem_size bytes */
	size_t elem_size;
	unsigned int n;
	bool truncated;
};

static struct map_copy copies[MAP_DIFF_MAX_MAPS];
static unsigned int nr_copies;
static char *text_buf, *json_buf;
static size_t text_len, json_len;

static bool diffable(const struct uxdp_bpf_map_desc *m)
{
	return m->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY && m->type != BPF_MAP_TYPE_RINGBUF &&
	       m->type != BPF_MAP_TYPE_PROG_ARRAY && m->key_size && m->key_size <= MAP_DIFF_MAX_KEY &&
	       m->value_size_sys <= 65536 && !(m->map_flags & BPF_F_RDONLY_PROG);
}

static void map_copy(struct map_copy *c)
{
	unsigned char key[MAP_DIFF_MAX_KEY], next[MAP_DIFF_MAX_KEY];
	bool have = false;
	size_t cap = 0;

	c->elem_size = c->m.key_size + c->m.value_size_sys;
	while (!uxdp_bpf_map_get_next_key(c->m.id, have ? key : NULL, next)) {
		unsigned char *e;

		memcpy(key, next, c->m.key_size);
		have = true;
		if (c->n == MAP_DIFF_MAX_ELEMS) {
			c->truncated = true;
			break;
		}
		if (c->n == cap) {
			void *p = realloc(c->elems, (cap ? cap * 2 : 64) * c->elem_size);

			if (!p)
				break;
			c->elems = p;
			cap = cap ? cap * 2 : 64;
		}
		e = c->elems + c->n * c->elem_size;
		memcpy(e, key, c->m.key_size);
		if (!uxdp_bpf_map_lookup_elem(c->m.id, key, e + c->m.key_size))
			c->n++;
	}
}

static void copies_free(void)
{
	for (unsigned int i = 0; i < nr_copies; i++)
		free(copies[i].elems);
	nr_copies = 0;
}

void map_diff_begin(void)
{
	const char *oname;

	copies_free();
	for (unsigned int o = 0; o < script_object_cnt(); o++) {
		struct uxdp_bpf_object *obj = script_object_at(o, &oname);

		for (unsigned int k = 0; k < uxdp_bpf_object_map_cnt(obj); k++) {
			struct map_copy *c = &copies[nr_copies];

			if (nr_copies == MAP_DIFF_MAX_MAPS)
				return;
			memset(c, 0, sizeof(*c));
			if (uxdp_bpf_object_map(obj, k, &c->m) || !diffable(&c->m))
				continue;
			c->btf = uxdp_bpf_object_btf(obj);
			map_copy(c);
			nr_copies++;
		}
	}
}

/* The per-CPU or plain value, typed: JSON in @f. */
static void value_json(FILE *f, const struct map_copy *c, const unsigned char *v)
{
	uint32_t stride = (c->m.value_size + 7) & ~7U;

	if (c->m.nr_cpus <= 1) {
		btf_dump_value(f, c->btf, c->m.btf_value_type_id, v, c->m.value_size);
		return;
	}
	fputc('[', f);
	for (uint32_t cpu = 0; cpu < c->m.nr_cpus; cpu++) {
		fprintf(f, "%s{\"cpu\":%u,\"value\":", cpu ? "," : "", cpu);
		btf_dump_value(f, c->btf, c->m.btf_value_type_id, v + cpu * stride, c->m.value_size);
		fputc('}', f);
	}
	fputc(']', f);
}

static void change(FILE *t, FILE *j, bool *first, const struct map_copy *c, const char *what,
		   const unsigned char *key, const unsigned char *old, const unsigned char *new)
{
	fprintf(j, "%s{\"map\":", *first ? "" : ",");
	*first = false;
	json_escape(j, c->m.name, strlen(c->m.name));
	fprintf(j, ",\"change\":\"%s\",\"key\":", what);
	btf_dump_value(j, c->btf, c->m.btf_key_type_id, key, c->m.key_size);
	fprintf(t, "  %s %s key ", c->m.name, what[0] == 'c' && what[1] == 'r' ? "+" :
					      what[0] == 'd' ? "-" : "~");
	btf_dump_value(t, c->btf, c->m.btf_key_type_id, key, c->m.key_size);
	fputs(": ", t);
	if (old) {
		fprintf(j, ",\"old\":");
		value_json(j, c, old);
		value_json(t, c, old);
	}
	if (old && new)
		fputs(" -> ", t);
	if (new) {
		fprintf(j, ",\"new\":");
		value_json(j, c, new);
		value_json(t, c, new);
	}
	fputs("}", j);
	fputc('\n', t);
}

void map_diff_end(void)
{
	unsigned char key[MAP_DIFF_MAX_KEY], next[MAP_DIFF_MAX_KEY], *cur = NULL, *seen = NULL;
	unsigned int nchanges = 0;
	bool first = true;
	FILE *t, *j;

	free(text_buf);
	free(json_buf);
	text_buf = json_buf = NULL;
	t = open_memstream(&text_buf, &text_len);
	j = open_memstream(&json_buf, &json_len);
	if (!t || !j)
		goto out;
	fputc('[', j);
	for (unsigned int i = 0; i < nr_copies; i++) {
		struct map_copy *c = &copies[i];
		size_t vsz = c->m.value_size_sys;
		bool have = false;

		free(cur);
		free(seen);
		cur = malloc(vsz + 8);
		seen = calloc(c->n + 1, 1);
		if (!cur || !seen)
			break;
		while (!uxdp_bpf_map_get_next_key(c->m.id, have ? key : NULL, next)) {
			const unsigned char *old = NULL;

			memcpy(key, next, c->m.key_size);
			have = true;
			if (uxdp_bpf_map_lookup_elem(c->m.id, key, cur))
				continue;
			for (unsigned int e = 0; e < c->n; e++) {
				unsigned char *el = c->elems + e * c->elem_size;

				if (!seen[e] && !memcmp(el, key, c->m.key_size)) {
					seen[e] = 1;
					old = el + c->m.key_size;
					break;
				}
			}
			if (old && !memcmp(old, cur, vsz))
				continue;
			if (!old && c->truncated)
				continue;	/* beyond the copy: unknown */
			change(t, j, &first, c, old ? "changed" : "created", key, old, cur);
			nchanges++;
		}
		for (unsigned int e = 0; e < c->n; e++) {
			unsigned char *el = c->elems + e * c->elem_size;

			if (seen[e])
				continue;
			change(t, j, &first, c, "deleted", el, el + c->m.key_size, NULL);
			nchanges++;
		}
	}
	fputc(']', j);
	if (!nchanges)
		fputs("  no map element changed\n", t);
out:
	free(cur);
	free(seen);
	if (t)
		fclose(t);
	if (j)
		fclose(j);
	copies_free();
}

void map_diff_print(void)
{
	if (!json_output && text_buf)
		fputs(text_buf, stdout);
	run_append_json("map_changes", json_buf ? json_buf : "[]");
}

void map_diff_free(void)
{
	copies_free();
	free(text_buf);
	free(json_buf);
	text_buf = json_buf = NULL;
}
