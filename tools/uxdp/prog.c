// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp prog ...`: bpftool's prog object for XDP object files.
 *
 *   uxdp prog show OBJ [name PROG | sec SECTION] [type xdp] [btf FILE]
 *   uxdp prog run OBJ [name PROG | sec SECTION] [type xdp] [btf FILE]
 *                 data_in FILE [data_out FILE] [data_out_verdict PREFIX]
 *                 [record_type TYPE]
 *                 [data_size_out N] [ctx_in FILE] [ctx_out FILE] [repeat N]
 *                 [map NAME key HEX value HEX]... [dump-maps] [hardened]
 *                 [coverage FILE]
 *
 * `show` lists programs and maps as `bpftool prog show` / `map show` do,
 * with the programs that are not loaded (other types, unknown sections);
 * a program of a section libbpf does not know loads as XDP when named by
 * `name`/`sec` (iproute2) or with `type xdp` (bpftool prog load); `btf`
 * is the CO-RE target (libbpf's btf_custom_path);
 * `run` is `bpftool prog run` (BPF_PROG_TEST_RUN) plus map pre-loading and
 * a dump of every map after the run. '-' is stdin for data_in/ctx_in and
 * stdout for data_out/ctx_out. A pcap or pcapng data_in runs every packet
 * (prog_pcap.c) and prints a row per packet; maps are typed from BTF
 * (btf_dump.c). `hardened` loads the object with the
 * hardened runtime (net.core.bpf_hardened=1): every access checked at run
 * time, the instruction budget; a check that fires is reported as an abort.
 * `coverage FILE` runs the program on the interpreter counting what it
 * executes and writes an lcov tracefile (tools/uxdp/coverage.c).
 *
 * Kernel: tools/bpf/bpftool/prog.c do_show(), do_run()
 * Differs: works on object files, not on loaded programs; `-j` output of
 *	    run adds data_out as a hex string, the redirect target, the
 *	    run-time aborts by reason (uxdp_bpf_abort.h) and maps.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uxdp_bpf.h>
#include <uxdp_bpf_abort.h>
#include <uxdp_bpf_cov.h>

#include "btf_dump.h"
#include "json_writer.h"
#include "main.h"
#include "prog.h"
#include "prog_pcap.h"

#define PROG_RUN_MAX_INPUT	(1U << 20)
#define PROG_RUN_DATA_OUT	(128U << 10)
#define XDP_MD_SIZE		24	/* sizeof(struct xdp_md) */
#define MAX_PRELOADS		64

static void hex_print(const unsigned char *p, size_t n, bool spaced)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf(spaced && i ? " %02x" : "%02x", p[i]);
}

/* ---- input -------------------------------------------------------------- */

static int read_all(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0;
	unsigned char *p;

	if (!f) {
		p_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	p = malloc(cap);
	while (p) {
		size_t got;

		if (n == cap) {
			unsigned char *q;

			if (cap >= PROG_RUN_MAX_INPUT) {
				p_err("%s: larger than %u bytes", path, PROG_RUN_MAX_INPUT);
				free(p);
				p = NULL;
				break;
			}
			q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				p = NULL;
				break;
			}
			p = q;
			cap *= 2;
		}
		got = fread(p + n, 1, cap - n, f);
		n += got;
		if (!got)
			break;
	}
	if (f != stdin)
		fclose(f);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*len = n;
	return 0;
}

/*
 * bpftool's layout for `data_out -` on a terminal: offset, 16 bytes as hex
 * in pairs, then the printable ones.
 */
static void hexdump(FILE *f, const unsigned char *p, size_t n)
{
	for (size_t row = 0; row < n; row += 16) {
		size_t j;

		fprintf(f, "%07zx\t", row);
		for (j = row; j < row + 16; j++) {
			if (j < n)
				fprintf(f, "%02x", p[j]);
			else
				fputs("  ", f);
			if (j % 2)
				fputc(' ', f);
		}
		fputs("| ", f);
		for (j = row; j < row + 16 && j < n; j++) {
			fputc(p[j] >= ' ' && p[j] <= '~' ? p[j] : '.', f);
			if (j == row + 7)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
}

/* @path "-" is stdout: raw bytes into a pipe or file, a hexdump on a terminal. */
static int write_all(const char *path, const void *buf, size_t len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
	int err = 0;

	if (!f) {
		p_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (f == stdout && isatty(STDOUT_FILENO)) {
		hexdump(f, buf, len);
		fflush(f);
		return 0;
	}
	if (len && fwrite(buf, 1, len, f) != len)
		err = -EIO;
	if (f != stdout) {
		if (fclose(f))
			err = -EIO;
	} else {
		fflush(f);
	}
	if (err)
		p_err("%s: write failed", path);
	return err;
}

static int parse_u32(const char *s, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *end || !*s || x > UINT32_MAX || s[0] == '-')
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

/* ---- show --------------------------------------------------------------- */

int parse_open_arg(int argc, char **argv, int *i, struct open_args *o)
{
	const char *kw = argv[*i];

	if (strcmp(kw, "name") && strcmp(kw, "sec") && strcmp(kw, "type") && strcmp(kw, "btf"))
		return 0;
	if (*i + 1 >= argc) {
		p_err("'%s' needs an argument", kw);
		return -EINVAL;
	}
	if ((!strcmp(kw, "name") || !strcmp(kw, "sec")) && (o->name || o->sec)) {
		p_err("give one of 'name PROG' and 'sec SECTION'");
		return -EINVAL;
	}
	if (!strcmp(kw, "name"))
		o->name = argv[*i + 1];
	else if (!strcmp(kw, "sec"))
		o->sec = argv[*i + 1];
	else if (!strcmp(kw, "btf"))
		o->btf = argv[*i + 1];
	else if (!strcmp(argv[*i + 1], "xdp"))
		o->type_xdp = true;
	else {
		p_err("type '%s': only 'type xdp' is supported", argv[*i + 1]);
		return -EINVAL;
	}
	*i += 1;
	return 1;
}

struct uxdp_bpf_object *open_obj(const char *path, const struct open_args *o)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	struct uxdp_bpf_object *obj;
	static char log[16384];

	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.xdp_prog = o->name;
	opts.xdp_sec = o->sec;
	opts.xdp_any = o->type_xdp;
	opts.btf_custom_path = o->btf;
	obj = uxdp_bpf_object_open(path, &opts);
	if (!obj)
		p_err("%s", log[0] ? log : strerror(errno));
	return obj;
}

int find_prog(struct uxdp_bpf_object *obj, const char *path, const struct open_args *o)
{
	int id = uxdp_bpf_object_find_prog(obj, o->name, o->sec);

	if (id == -EINVAL)
		p_err("%s: section '%s' holds several programs; use 'name PROG'", path, o->sec);
	else if (id == -EOPNOTSUPP && !o->name && !o->sec)
		p_err("%s: no XDP program is loaded (see 'uxdp prog show'; 'type xdp' loads the programs of unknown sections)",
		      path);
	else if (id < 0)
		p_err("%s: no program %s '%s'", path, o->name ? "named" : "in section",
		      o->name ? o->name : o->sec ? o->sec : "");
	return id;
}

static const char *map_type_str(uint32_t type)
{
	const char *s = uxdp_bpf_map_type_name(type);

	return s ? s : "unknown";
}

/* jited true|false, jited_len and, when not JITed, why (net.core.bpf_jit_enable, ...) */
static void show_jit(uint32_t id, struct json_writer *w)
{
	char reason[128] = "";
	uint32_t len = 0;
	int jited = uxdp_bpf_prog_jit_info(id, &len, reason, sizeof(reason));

	int hardened = uxdp_bpf_prog_hardened(id) > 0;

	if (w) {
		jsonw_bool_field(w, "jited", jited > 0);
		jsonw_uint_field(w, "jited_len", len);
		if (jited <= 0)
			jsonw_string_field(w, "jit_reason", reason);
		jsonw_bool_field(w, "hardened", hardened);
		return;
	}
	if (jited > 0)
		printf("\tjited true  jited_len %uB%s\n", len, hardened ? "  hardened" : "");
	else
		printf("\tjited false  (%s)%s\n", reason, hardened ? "  hardened" : "");
}

static int do_show(int argc, char **argv)
{
	struct open_args o = {};
	struct uxdp_bpf_object *obj;
	struct json_writer jw, *w = NULL;
	unsigned int i, j;
	int k;

	for (k = 1; k < argc; k++)
		if (parse_open_arg(argc, argv, &k, &o) <= 0)
			break;
	if (argc < 1 || k < argc) {
		p_err("usage: uxdp prog show OBJ [name PROG | sec SECTION] [type xdp] [btf FILE]");
		return EXIT_USAGE;
	}
	obj = open_obj(argv[0], &o);
	if (!obj)
		return EXIT_USAGE;

	if (json_output && !jsonw_open(&jw)) {
		w = &jw;
		jsonw_start_object(w);
		jsonw_name(w, "programs");
		jsonw_start_array(w);
	}
	for (i = 0; i < uxdp_bpf_object_prog_cnt(obj); i++) {
		struct uxdp_bpf_prog_desc d;

		uxdp_bpf_object_prog(obj, i, &d);
		if (w && !d.loaded) {
			jsonw_start_object(w);
			jsonw_bool_field(w, "loaded", false);
			jsonw_string_field(w, "type", d.type);
			jsonw_string_field(w, "name", d.name);
			jsonw_string_field(w, "sec", d.sec);
			jsonw_string_field(w, "reason", d.not_loaded);
			jsonw_end_object(w);
			continue;
		}
		if (!d.loaded) {
			printf("-: %s  name %s  sec %s  not loaded (%s)\n", d.type, d.name, d.sec,
			       d.not_loaded);
			continue;
		}
		if (w) {
			jsonw_start_object(w);
			jsonw_uint_field(w, "id", d.id);
			jsonw_bool_field(w, "loaded", true);
			jsonw_string_field(w, "type", "xdp");
			jsonw_string_field(w, "name", d.name);
			jsonw_string_field(w, "sec", d.sec);
			jsonw_string_field(w, "attach", d.attach);
			jsonw_uint_field(w, "insns", d.insn_cnt);
			jsonw_uint_field(w, "verified_insns", d.verified_insns);
			jsonw_bool_field(w, "frags", d.frags);
			jsonw_name(w, "map_ids");
			jsonw_start_array(w);
			for (j = 0; j < d.nr_map_ids && j < 32; j++)
				jsonw_uint(w, d.map_ids[j]);
			jsonw_end_array(w);
			show_jit(d.id, w);
			jsonw_end_object(w);
			continue;
		}
		printf("%u: xdp  name %s  sec %s  insns %u  verified_insns %u%s%s%s\n", d.id, d.name,
		       d.sec, d.insn_cnt, d.verified_insns,
		       d.frags ? "  frags" : "", strcmp(d.attach, "xdp") && *d.attach ? "  attach " : "",
		       strcmp(d.attach, "xdp") ? d.attach : "");
		show_jit(d.id, NULL);
		if (d.nr_map_ids) {
			printf("\tmap_ids ");
			for (j = 0; j < d.nr_map_ids && j < 32; j++)
				printf("%s%u", j ? "," : "", d.map_ids[j]);
			printf("\n");
		}
	}
	if (w) {
		jsonw_end_array(w);
		jsonw_name(w, "maps");
		jsonw_start_array(w);
	}
	for (i = 0; i < uxdp_bpf_object_map_cnt(obj); i++) {
		struct uxdp_bpf_map_desc m;

		uxdp_bpf_object_map(obj, i, &m);
		if (w) {
			jsonw_start_object(w);
			jsonw_uint_field(w, "id", m.id);
			jsonw_string_field(w, "type", map_type_str(m.type));
			jsonw_string_field(w, "name", m.name);
			jsonw_uint_field(w, "flags", m.map_flags);
			jsonw_uint_field(w, "bytes_key", m.key_size);
			jsonw_uint_field(w, "bytes_value", m.value_size);
			jsonw_uint_field(w, "max_entries", m.max_entries);
			jsonw_end_object(w);
			continue;
		}
		printf("%u: %s  name %s  flags 0x%x\n", m.id, map_type_str(m.type), m.name,
		       m.map_flags);
		printf("\tkey %uB  value %uB  max_entries %u\n", m.key_size, m.value_size,
		       m.max_entries);
	}
	if (w) {
		jsonw_end_array(w);
		jsonw_end_object(w);
		json_doc_print(jsonw_close(w));
	}
	uxdp_bpf_object_close(obj);
	return 0;
}

/* ---- run ---------------------------------------------------------------- */

struct preload {
	const char *map;
	char **argv;			/* key and value: parse_hex_words() from argv[key_at], argv[value_at] */
	int argc, key_at, value_at;
	const char *value_prog;		/* `value prog NAME` */
};

struct run_args {
	const char *obj;
	struct open_args o;
	const char *data_in;
	const char *data_out;
	const char *data_out_verdict;	/* captures: one pcap per verdict */
	const char *record_type;	/* captures: BTF type of the records */
	const char *ctx_in;
	const char *ctx_out;
	uint32_t data_size_out;
	uint32_t repeat;
	bool dump_maps;
	bool hardened;
	const char *coverage;
	struct preload preloads[MAX_PRELOADS];
	unsigned int nr_preloads;
};

static int parse_run_args(int argc, char **argv, struct run_args *a)
{
	unsigned char scratch[4096];
	int i, j;

	if (argc < 1) {
		p_err("usage: uxdp prog run OBJ [name PROG | sec SECTION] [type xdp] [btf FILE] data_in FILE ...");
		return -EINVAL;
	}
	a->obj = argv[0];
	for (i = 1; i < argc; i++) {
		const char *kw = argv[i];
		bool has_arg = i + 1 < argc;

		if (!strcmp(kw, "dump-maps")) {
			a->dump_maps = true;
			continue;
		}
		if (!strcmp(kw, "hardened")) {
			a->hardened = true;
			continue;
		}
		if (!strcmp(kw, "map")) {
			struct preload *p;

			if (a->nr_preloads == MAX_PRELOADS) {
				p_err("more than %d 'map' preloads", MAX_PRELOADS);
				return -EINVAL;
			}
			p = &a->preloads[a->nr_preloads++];
			j = i + 3;
			if (i + 2 >= argc || strcmp(argv[i + 2], "key") ||
			    parse_hex_words(argc, argv, &j, scratch, sizeof(scratch)) < 0 ||
			    j + 1 >= argc || strcmp(argv[j], "value")) {
				p_err("expected 'map NAME key HEX value HEX' (HEX: 0a000001, 0a 00 00 01 or hex 0a 00 00 01)");
				return -EINVAL;
			}
			p->map = argv[i + 1];
			p->argv = argv;
			p->argc = argc;
			p->key_at = i + 3;
			if (!strcmp(argv[j + 1], "prog")) {
				if (j + 2 >= argc) {
					p_err("expected 'value prog PROGNAME'");
					return -EINVAL;
				}
				p->value_prog = argv[j + 2];
				i = j + 2;
				continue;
			}
			p->value_at = ++j;
			if (parse_hex_words(argc, argv, &j, scratch, sizeof(scratch)) < 0) {
				p_err("map '%s': value '%s' is not hex", p->map, argv[p->value_at]);
				return -EINVAL;
			}
			i = j - 1;
			continue;
		}
		int r = parse_open_arg(argc, argv, &i, &a->o);

		if (r < 0)
			return -EINVAL;
		if (r)
			continue;
		if (!has_arg) {
			p_err("'%s' needs an argument", kw);
			return -EINVAL;
		}
		if (!strcmp(kw, "data_in")) {
			a->data_in = argv[++i];
		} else if (!strcmp(kw, "data_out")) {
			a->data_out = argv[++i];
		} else if (!strcmp(kw, "data_out_verdict")) {
			a->data_out_verdict = argv[++i];
		} else if (!strcmp(kw, "record_type")) {
			a->record_type = argv[++i];
		} else if (!strcmp(kw, "ctx_in")) {
			a->ctx_in = argv[++i];
		} else if (!strcmp(kw, "ctx_out")) {
			a->ctx_out = argv[++i];
		} else if (!strcmp(kw, "coverage")) {
			a->coverage = argv[++i];
		} else if (!strcmp(kw, "data_size_out") || !strcmp(kw, "repeat")) {
			uint32_t v;

			if (parse_u32(argv[i + 1], &v)) {
				p_err("'%s' is not a valid %s", argv[i + 1], kw);
				return -EINVAL;
			}
			if (kw[0] == 'r')
				a->repeat = v;
			else
				a->data_size_out = v;
			i++;
		} else {
			p_err("unknown or repeated keyword '%s'", kw);
			return -EINVAL;
		}
	}
	if (!a->data_in) {
		p_err("data_in FILE is required");
		return -EINVAL;
	}
	return 0;
}

static int apply_preload(struct uxdp_bpf_object *obj, const struct preload *p)
{
	unsigned char key[512], val[512], *full = NULL;
	struct uxdp_bpf_map_desc m;
	int id, err, klen, vlen, k = p->key_at;
	unsigned int i;

	id = uxdp_bpf_object_find_map(obj, p->map);
	if (id < 0) {
		p_err("map '%s' is not in %s", p->map, "the object");
		return -ENOENT;
	}
	for (i = 0; i < uxdp_bpf_object_map_cnt(obj); i++) {
		uxdp_bpf_object_map(obj, i, &m);
		if ((int)m.id == id)
			break;
	}
	klen = parse_hex_words(p->argc, p->argv, &k, key, sizeof(key));
	if (klen != (int)m.key_size) {
		p_err("map '%s': key '%s' is not %u bytes of hex", p->map, p->argv[p->key_at],
		      m.key_size);
		return -EINVAL;
	}
	if (p->value_prog) {
		int pid = uxdp_bpf_object_find_prog(obj, p->value_prog, NULL);
		uint32_t v;

		if (m.type != 3 /* BPF_MAP_TYPE_PROG_ARRAY */) {
			p_err("map '%s': 'value prog' needs a prog_array", p->map);
			return -EINVAL;
		}
		if (pid < 0) {
			p_err("map '%s': program '%s' is not in the object", p->map, p->value_prog);
			return -ENOENT;
		}
		v = (uint32_t)pid;
		memcpy(val, &v, sizeof(v));
		vlen = sizeof(v);
	} else {
		k = p->value_at;
		vlen = parse_hex_words(p->argc, p->argv, &k, val, sizeof(val));
		if (vlen != (int)m.value_size) {
			p_err("map '%s': value '%s' is not %u bytes of hex", p->map,
			      p->argv[p->value_at], m.value_size);
			return -EINVAL;
		}
	}
	if (m.nr_cpus > 1) {
		uint32_t stride = (m.value_size + 7) & ~7U;

		full = calloc(m.nr_cpus, stride);
		if (!full)
			return -ENOMEM;
		for (i = 0; i < m.nr_cpus; i++)
			memcpy(full + i * stride, val, vlen);
	}
	err = uxdp_bpf_map_update_elem(m.id, key, full ? full : val, 0);
	free(full);
	if (err)
		p_err("map '%s': update key %s: %s", p->map, p->argv[p->key_at], strerror(-err));
	return err;
}

static bool map_dumpable(uint32_t type)
{
	/* RINGBUF (27) and PERF_EVENT_ARRAY (4) hold records, not elements. */
	return type != 27 && type != 4;
}

struct record_dump {
	unsigned int n;
	bool perf;
	struct json_writer *w;
};

static int dump_record(void *ctx, int cpu, void *data, __u32 size)
{
	struct record_dump *rd = ctx;

	if (rd->w) {
		jsonw_start_object(rd->w);
		if (rd->perf)
			jsonw_int_field(rd->w, "cpu", cpu);
		jsonw_name(rd->w, "record");
		btf_dump_hex(jsonw_value_stream(rd->w), data, size, true);
		jsonw_end_object(rd->w);
	} else {
		if (rd->perf)
			printf("cpu %d ", cpu);
		printf("record: ");
		hex_print(data, size, true);
		printf("\n");
	}
	rd->n++;
	return 0;
}

/* RINGBUF and PERF_EVENT_ARRAY: the records the run produced, oldest first. */
static void dump_records(const struct uxdp_bpf_map_desc *m, struct json_writer *w)
{
	struct record_dump rd = { .perf = m->type == 4, .w = w };

	if (m->type == 4)
		uxdp_bpf_perf_event_consume(m->id, dump_record, &rd);
	else
		uxdp_bpf_ringbuf_consume(m->id, dump_record, &rd);
	if (!w)
		printf("Found %u record%s\n", rd.n, rd.n == 1 ? "" : "s");
}

/* One map: text, or with @w its "NAME":[elements or records] member. */
static void dump_map(const struct uxdp_bpf_map_desc *m, const struct btf *btf,
		     struct json_writer *w)
{
	unsigned char *key, *next, *val;
	unsigned int n = 0;
	bool have = false;

	key = calloc(1, m->key_size + 1);
	next = calloc(1, m->key_size + 1);
	val = calloc(1, m->value_size_sys + 8);
	if (!key || !next || !val)
		goto out;
	if (w) {
		jsonw_name(w, m->name);
		jsonw_start_array(w);
	} else {
		printf("map %s (%s):\n", m->name, map_type_str(m->type));
	}
	if (!map_dumpable(m->type)) {
		dump_records(m, w);
		if (w)
			jsonw_end_array(w);
		goto out;
	}
	while (n < 1000000 &&
	       !uxdp_bpf_map_get_next_key(m->id, have ? key : NULL, next)) {
		memcpy(key, next, m->key_size);
		have = true;
		if (uxdp_bpf_map_lookup_elem(m->id, key, val))
			continue;
		n++;
		btf_dump_elem(w ? jsonw_value_stream(w) : stdout, m, btf, key, val, w != NULL);
	}
	if (w)
		jsonw_end_array(w);
	else
		printf("Found %u element%s\n", n, n == 1 ? "" : "s");
out:
	free(key);
	free(next);
	free(val);
}

/* dump-maps: every map of the object, after the run; with @w "maps":{...}. */
static void dump_maps(struct uxdp_bpf_object *obj, struct json_writer *w)
{
	const struct btf *btf = uxdp_bpf_object_btf(obj);

	if (w) {
		jsonw_name(w, "maps");
		jsonw_start_object(w);
	}
	for (unsigned int i = 0; i < uxdp_bpf_object_map_cnt(obj); i++) {
		struct uxdp_bpf_map_desc m;

		uxdp_bpf_object_map(obj, i, &m);
		dump_map(&m, btf, w);
	}
	if (w)
		jsonw_end_object(w);
}

/* data_in is a capture: every packet, a row each (prog_pcap.c). */
static int run_capture(struct uxdp_bpf_object *obj, uint32_t id, const struct run_args *a,
		       const unsigned char *ctx_in, size_t ctx_len)
{
	struct prog_capture_opts o = {
		.obj = obj,
		.prog_id = id,
		.data_in = a->data_in,
		.data_out = a->data_out,
		.data_out_verdict = a->data_out_verdict,
		.record_type = a->record_type,
		.ctx_in = ctx_in,
		.ctx_size_in = (uint32_t)ctx_len,
		.repeat = a->repeat,
		.data_size_out = a->data_size_out,
	};
	struct prog_capture_summary sum;
	int ret;

	if (a->data_out && !strcmp(a->data_out, "-")) {
		p_err("data_out of a capture is a file (FILE.pcap or FILE.pcapng)");
		return EXIT_USAGE;
	}
	ret = prog_capture_run(&o, &sum);
	prog_capture_print_summary(&sum);
	if (a->dump_maps && json_output) {
		struct json_writer w;

		if (!jsonw_open(&w)) {
			jsonw_start_object(&w);
			dump_maps(obj, &w);
			jsonw_end_object(&w);
			json_doc_print(jsonw_close(&w));
		}
	} else if (a->dump_maps) {
		dump_maps(obj, NULL);
	}
	return ret;
}

static const char *map_name_by_id(struct uxdp_bpf_object *obj, uint32_t id)
{
	struct uxdp_bpf_map_desc m;
	unsigned int i;

	for (i = 0; i < uxdp_bpf_object_map_cnt(obj); i++)
		if (!uxdp_bpf_object_map(obj, i, &m) && m.id == id)
			return m.name;
	return "?";
}

/*
 * Run-time aborts of the program over all repeats, by reason: with @w
 * "aborts":{"pkt_oob":N,...} (always present, non-zero reasons only);
 * text: one "Aborted: N x REASON" line per reason, to @f.
 */
static void print_aborts(uint32_t id, FILE *f, struct json_writer *w)
{
	unsigned long long cnt[__BPF_ABORT_MAX] = {};
	int i, n;

	n = uxdp_bpf_prog_aborts(id, cnt, __BPF_ABORT_MAX);
	if (w) {
		jsonw_name(w, "aborts");
		jsonw_start_object(w);
	}
	for (i = 1; i < n; i++) {
		if (!cnt[i])
			continue;
		if (w)
			jsonw_uint_field(w, uxdp_bpf_abort_reason_key(i), cnt[i]);
		else
			fprintf(f, "Aborted: %llu x %s\n", cnt[i], uxdp_bpf_abort_reason_str(i));
	}
	if (w)
		jsonw_end_object(w);
}

static int do_run(int argc, char **argv)
{
	struct uxdp_bpf_test_run_opts topts = { .sz = sizeof(topts) };
	unsigned char *data_in = NULL, *ctx_in = NULL, *data_out = NULL;
	unsigned char ctx_out[XDP_MD_SIZE];
	struct uxdp_bpf_object *obj = NULL;
	size_t data_len = 0, ctx_len = 0;
	struct run_args a = {};
	int ret = EXIT_USAGE, err, id;
	unsigned int i;
	bool out_json_data, capture;

	if (parse_run_args(argc, argv, &a))
		return EXIT_USAGE;
	capture = prog_capture_is(a.data_in);
	if ((a.data_out_verdict || a.record_type) && !capture) {
		p_err("%s: data_out_verdict and record_type need a pcap or pcapng data_in",
		      a.data_in);
		return EXIT_USAGE;
	}
	if (!capture && read_all(a.data_in, &data_in, &data_len))
		goto out;
	if (a.ctx_in && read_all(a.ctx_in, &ctx_in, &ctx_len))
		goto out;
	if (a.hardened)
		uxdp_bpf_hardened_set(1);	/* for the programs of this object */
	obj = open_obj(a.obj, &a.o);
	if (!obj)
		goto out;
	id = find_prog(obj, a.obj, &a.o);
	if (id < 0)
		goto out;
	for (i = 0; i < a.nr_preloads; i++)
		if (apply_preload(obj, &a.preloads[i]))
			goto out;
	if (a.coverage && coverage_start(obj))
		goto out;
	if (capture) {
		ret = run_capture(obj, (uint32_t)id, &a, ctx_in, ctx_len);
		if (a.coverage && coverage_write(obj, a.coverage) && !ret)
			ret = 1;
		goto out;
	}

	topts.data_in = data_in;
	topts.data_size_in = (uint32_t)data_len;
	topts.data_size_out = a.data_size_out ? a.data_size_out : PROG_RUN_DATA_OUT;
	data_out = calloc(1, topts.data_size_out);
	if (!data_out) {
		ret = 1;
		goto out;
	}
	topts.data_out = data_out;
	if (ctx_in) {
		topts.ctx_in = ctx_in;
		topts.ctx_size_in = (uint32_t)ctx_len;
	}
	if (a.ctx_out) {
		topts.ctx_out = ctx_out;
		topts.ctx_size_out = sizeof(ctx_out);
	}
	topts.repeat = a.repeat;
	err = uxdp_bpf_prog_test_run((uint32_t)id, &topts);
	if (err) {
		p_err("%s: prog run: %s%s", a.obj, strerror(-err),
		      err == -EINVAL && data_len < 14 ? " (frame under 14 bytes)" :
		      err == -EINVAL && ctx_in ? " (ctx_in rejected)" : "");
		ret = err == -EINVAL || err == -E2BIG ? EXIT_USAGE : 1;
		goto out;
	}
	ret = 1;
	if (a.coverage && coverage_write(obj, a.coverage))
		goto out;
	out_json_data = json_output;
	if (a.data_out && !(json_output && !strcmp(a.data_out, "-")) &&
	    write_all(a.data_out, data_out, topts.data_size_out))
		goto out;
	if (a.ctx_out && !(json_output && !strcmp(a.ctx_out, "-")) &&
	    write_all(a.ctx_out, ctx_out, topts.ctx_size_out))
		goto out;

	if (json_output) {
		struct json_writer w;

		if (jsonw_open(&w))
			goto out;
		jsonw_start_object(&w);
		jsonw_uint_field(&w, "retval", topts.retval);
		jsonw_uint_field(&w, "duration", topts.duration);
		if (out_json_data) {
			jsonw_name(&w, "data_out");
			btf_dump_hex(jsonw_value_stream(&w), data_out, topts.data_size_out, true);
		}
		if (a.ctx_out) {
			jsonw_name(&w, "ctx_out");
			btf_dump_hex(jsonw_value_stream(&w), ctx_out, topts.ctx_size_out, true);
		}
		if (topts.redirect.valid) {
			jsonw_name(&w, "redirect");
			jsonw_start_object(&w);
			if (topts.redirect.map_id) {
				jsonw_string_field(&w, "map", map_name_by_id(obj, topts.redirect.map_id));
				jsonw_uint_field(&w, "map_id", topts.redirect.map_id);
				jsonw_string_field(&w, "map_type", map_type_str(topts.redirect.map_type));
				jsonw_uint_field(&w, "key", topts.redirect.key);
				jsonw_uint_field(&w, "flags", topts.redirect.flags);
			} else {
				jsonw_uint_field(&w, "ifindex", topts.redirect.ifindex);
			}
			jsonw_end_object(&w);
		}
		print_aborts((uint32_t)id, NULL, &w);
		if (a.dump_maps)
			dump_maps(obj, &w);
		jsonw_end_object(&w);
		json_doc_print(jsonw_close(&w));
	} else {
		FILE *f = a.data_out && !strcmp(a.data_out, "-") ? stderr : stdout;

		fprintf(f, "Return value: %u, duration (average): %u ns\n", topts.retval,
			topts.duration);
		if (topts.redirect.valid) {
			if (topts.redirect.map_id)
				fprintf(f, "Redirect: map %s (%s) key %u flags 0x%x\n",
					map_name_by_id(obj, topts.redirect.map_id),
					map_type_str(topts.redirect.map_type), topts.redirect.key,
					topts.redirect.flags);
			else
				fprintf(f, "Redirect: ifindex %u\n", topts.redirect.ifindex);
		}
		print_aborts((uint32_t)id, f, NULL);
		if (a.dump_maps)
			dump_maps(obj, NULL);
	}
	ret = 0;
out:
	uxdp_bpf_object_close(obj);
	free(data_in);
	free(ctx_in);
	free(data_out);
	return ret;
}

const struct cmd prog_cmds[] = {
	{ "show", do_show, "show OBJ [name PROG | sec SECTION] [type xdp] [btf FILE]",
	  "list the programs (loaded or not) and maps of an object file" },
	{ "list", do_show, "list OBJ ...", "alias of show" },
	{ "run", do_run,
	  "run OBJ [name PROG | sec SECTION] [type xdp] [btf FILE] data_in FILE [data_out FILE] [data_out_verdict PREFIX] [record_type TYPE] [data_size_out N] [ctx_in FILE] [ctx_out FILE] [repeat N] [map NAME key HEX value HEX]... [dump-maps] [hardened] [coverage FILE]",
	  "run a program over one packet, or every packet of a pcap/pcapng file (BPF_PROG_TEST_RUN)" },
	{ "dump", do_dump,
	  "dump { xlated | jited } OBJ [name PROG | sec SECTION] [type xdp] [btf FILE] [linum] [opcodes]",
	  "print a program as loaded: its instructions with source lines (xlated), its JIT image (jited)" },
	{ 0 }
};

int do_prog(int argc, char **argv)
{
	return cmd_select(prog_cmds, argc, argv, "prog");
}
