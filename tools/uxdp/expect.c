// SPDX-License-Identifier: GPL-2.0
/*
 * `expect`: assertions in a script, so that a script is a test.
 *
 *   expect dev NAME COUNTER [OP] N        rx_packets rx_bytes tx_packets tx_bytes
 *                                         rx_dropped tx_dropped drops_total
 *                                         xdp_aborted xdp_drop xdp_pass xdp_tx xdp_redirect
 *   expect dev NAME drop REASON [OP] N    a drop reason's count (PEER_NO_XDP, ...)
 *   expect prog OBJ[:PROG] VERDICT [OP] N verdicts (aborted drop pass tx redirect) of
 *                                         the program, summed over the devices it runs on
 *   expect map MAP key HEX [FIELD] [OP] N the value (a struct's FIELD, from BTF) as an
 *                                         integer, summed over CPUs
 *   expect map MAP key HEX value HEX      the value's bytes
 *   expect map MAP key HEX missing        no such element
 *   expect map MAP count [OP] N           number of elements
 *   expect trace count [OP] N             bpf_printk lines of the last run
 *   expect trace contains TEXT            one of them contains TEXT
 *
 * OP is one of == != < <= > >= (default ==); counters are the last run's
 * (run zeroes them). A failed expectation prints "SCRIPT:LINE: expect
 * failed: ... is V, expected OP N", the script goes on, and the run exits
 * with status 1. With -j each expectation is an element of "expect" and
 * `map dump|lookup` results are in "map_dumps".
 *
 * Kernel: none (the kernel selftests' ASSERT_EQ() in a script)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <uxdp_bpf.h>
#include <uxdp_link.h>

#include "btf_dump.h"
#include "json_writer.h"
#include "main.h"
#include "script.h"

#define EXPECT_JSON_ARRAYS	4

static unsigned int expect_passed, expect_failed;

/* Named JSON arrays built up through the script, flushed into the document. */
static struct {
	const char *key;
	FILE *f;
	char *buf;
	size_t len;
	unsigned int n;
} arrays[EXPECT_JSON_ARRAYS];

void script_json_add(const char *key, const char *elem)
{
	int i;

	if (!json_output)
		return;
	for (i = 0; i < EXPECT_JSON_ARRAYS && arrays[i].key && strcmp(arrays[i].key, key); i++)
		;
	if (i == EXPECT_JSON_ARRAYS)
		return;
	if (!arrays[i].key) {
		arrays[i].f = open_memstream(&arrays[i].buf, &arrays[i].len);
		if (!arrays[i].f)
			return;
		arrays[i].key = key;
		fputc('[', arrays[i].f);
	}
	fprintf(arrays[i].f, "%s%s", arrays[i].n++ ? "," : "", elem);
}

int script_expect_finish(void)
{
	int failed = expect_failed;

	for (int i = 0; i < EXPECT_JSON_ARRAYS && arrays[i].key; i++) {
		fputc(']', arrays[i].f);
		fclose(arrays[i].f);
		run_append_json(arrays[i].key, arrays[i].buf);
		free(arrays[i].buf);
		arrays[i] = (typeof(arrays[i])){};
	}
	if (!json_output && (expect_passed || expect_failed))
		printf("expect: %u passed, %u failed\n", expect_passed, expect_failed);
	expect_passed = expect_failed = 0;
	return failed;
}

/* ---- comparison ---------------------------------------------------------- */

enum expect_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };
static const char *const op_names[] = { "==", "!=", "<", "<=", ">", ">=" };

/* [OP] N at argv[0..]: 0 and the comparison, or -EINVAL. */
static int parse_cmp(int argc, char **argv, enum expect_op *op, uint64_t *n)
{
	char *end;
	int i = 0;

	*op = OP_EQ;
	for (unsigned int k = 0; argc == 2 && k < sizeof(op_names) / sizeof(op_names[0]); k++)
		if (!strcmp(argv[0], op_names[k])) {
			*op = k;
			i = 1;
		}
	if (i + 1 != argc || !*argv[i])
		return -EINVAL;
	errno = 0;
	*n = strtoull(argv[i], &end, 0);
	return errno || *end || argv[i][0] == '-' ? -EINVAL : 0;
}

static bool cmp_ok(uint64_t v, enum expect_op op, uint64_t n)
{
	switch (op) {
	case OP_EQ: return v == n;
	case OP_NE: return v != n;
	case OP_LT: return v < n;
	case OP_LE: return v <= n;
	case OP_GT: return v > n;
	case OP_GE: return v >= n;
	}
	return false;
}

/* Report one expectation; @what names it ("dev cap0 xdp_pass"). */
static int report(const char *what, bool ok, const char *got, const char *want)
{
	char elem[1024], *buf = NULL;
	size_t len = 0;
	FILE *j;

	if (ok) {
		expect_passed++;
		if (!json_output && !quiet)
			printf("  ok: %s %s\n", what, want);
	} else {
		expect_failed++;
		script_err("expect failed: %s is %s, expected %s", what, got, want);
	}
	j = open_memstream(&buf, &len);
	if (!j)
		return 0;
	fprintf(j, "{\"line\":%u,\"what\":", script_lineno());
	json_escape(j, what, strlen(what));
	fprintf(j, ",\"ok\":%s,\"got\":", ok ? "true" : "false");
	json_escape(j, got, strlen(got));
	fprintf(j, ",\"want\":");
	json_escape(j, want, strlen(want));
	fprintf(j, "}");
	fclose(j);
	snprintf(elem, sizeof(elem), "%s", buf);
	free(buf);
	script_json_add("expect", elem);
	return 0;	/* a failed expectation does not stop the script */
}

static int report_cmp(const char *what, uint64_t v, enum expect_op op, uint64_t n)
{
	char got[32], want[48];

	snprintf(got, sizeof(got), "%" PRIu64, v);
	snprintf(want, sizeof(want), "%s %" PRIu64, op_names[op], n);
	return report(what, cmp_ok(v, op, n), got, want);
}

static int usage(void)
{
	script_err("usage: expect dev NAME COUNTER [OP] N | dev NAME drop REASON [OP] N | prog OBJ[:PROG] VERDICT [OP] N | map MAP key HEX [FIELD] [OP] N | map MAP key HEX value HEX | map MAP key HEX missing | map MAP count [OP] N | trace count [OP] N | trace contains TEXT");
	return EXIT_USAGE;
}

/* ---- devices and programs ------------------------------------------------ */

static const char *const verdicts[] = { "aborted", "drop", "pass", "tx", "redirect" };

static int verdict_index(const char *s)
{
	if (!strncmp(s, "xdp_", 4))
		s += 4;
	for (int i = 0; i < 5; i++)
		if (!strcmp(s, verdicts[i]))
			return i;
	return -1;
}

static uint64_t info_verdict(const struct uxdp_link_info *li, int v)
{
	const uint64_t c[] = { li->xdp_aborted, li->xdp_drop, li->xdp_pass, li->xdp_tx,
			       li->xdp_redirect };

	return c[v];
}

static int info_counter(const struct uxdp_link_info *li, const char *name, uint64_t *v)
{
	static const struct {
		const char *name;
		size_t off;
	} counters[] = {
#define C(f) { #f, offsetof(struct uxdp_link_info, f) }
		C(rx_packets), C(rx_bytes), C(tx_packets), C(tx_bytes), C(rx_dropped),
		C(tx_dropped), C(rx_nohandler), C(drops_total), C(devmap_xmit_sent),
		C(devmap_xmit_drops), C(xdp_invalid),
#undef C
	};
	int vi = verdict_index(name);

	if (vi >= 0 && !strncmp(name, "xdp_", 4)) {
		*v = info_verdict(li, vi);
		return 0;
	}
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		if (!strcmp(name, counters[i].name)) {
			memcpy(v, (const char *)li + counters[i].off, sizeof(*v));
			return 0;
		}
	return -ENOENT;
}

static int expect_dev(int argc, char **argv)
{
	struct uxdp_link_info li = { .sz = sizeof(li) };
	char what[256];
	enum expect_op op;
	int ifindex, cmp;
	uint64_t n, v = 0;

	if (argc < 3)
		return usage();
	ifindex = uxdp_link_ifindex(argv[0]);
	if (ifindex < 0 || uxdp_link_get_info(ifindex, &li)) {
		script_err("device '%s' does not exist", argv[0]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "drop")) {
		struct uxdp_link_drop d[64];
		int nd = uxdp_link_get_drops(ifindex, d, 64);

		if (argc < 4 || parse_cmp(argc - 3, argv + 3, &op, &n))
			return usage();
		for (int k = 0; k < nd && k < 64; k++)
			if (!strcmp(d[k].name, argv[2]))
				v = d[k].count;
		snprintf(what, sizeof(what), "dev %s drop %s", argv[0], argv[2]);
		return report_cmp(what, v, op, n);
	}
	cmp = parse_cmp(argc - 2, argv + 2, &op, &n);
	if (cmp)
		return usage();
	if (info_counter(&li, argv[1], &v)) {
		script_err("'%s' is not a device counter (rx_packets, tx_packets, xdp_pass, ...)",
			   argv[1]);
		return EXIT_USAGE;
	}
	snprintf(what, sizeof(what), "dev %s %s", argv[0], argv[1]);
	return report_cmp(what, v, op, n);
}

static int expect_prog(int argc, char **argv)
{
	const char *colon = strchr(argv[0], ':');
	struct uxdp_bpf_object *obj;
	char objname[256], what[320];
	enum expect_op op;
	uint64_t n, v = 0;
	int id, vi;

	if (argc < 3 || parse_cmp(argc - 2, argv + 2, &op, &n))
		return usage();
	snprintf(objname, sizeof(objname), "%.*s", colon ? (int)(colon - argv[0]) : (int)strlen(argv[0]),
		 argv[0]);
	obj = script_object_find(objname);
	if (!obj) {
		script_err("no object '%s' (open it first with link set dev X xdp obj FILE)", objname);
		return EXIT_USAGE;
	}
	id = uxdp_bpf_object_find_prog(obj, colon ? colon + 1 : NULL, NULL);
	if (id < 0) {
		script_err("%s has no program '%s'", objname, colon ? colon + 1 : "");
		return EXIT_USAGE;
	}
	vi = verdict_index(argv[1]);
	if (vi < 0) {
		script_err("'%s' is not a verdict (aborted, drop, pass, tx, redirect)", argv[1]);
		return EXIT_USAGE;
	}
	for (int i = uxdp_link_next(0); i; i = uxdp_link_next(i)) {
		struct uxdp_link_info li = { .sz = sizeof(li) };

		if (!uxdp_link_get_info(i, &li) &&
		    (li.xdp_prog_id == (uint32_t)id || li.xdpgeneric_prog_id == (uint32_t)id))
			v += info_verdict(&li, vi);
	}
	snprintf(what, sizeof(what), "prog %s %s", argv[0], verdicts[vi]);
	return report_cmp(what, v, op, n);
}

/* ---- maps ---------------------------------------------------------------- */

/* A struct member of the value by name: its offset and size in bytes. */
static int value_field(const struct btf *btf, uint32_t type_id, const char *field, uint32_t *off,
		       uint32_t *size)
{
	const struct btf_type *t;
	const struct btf_member *m;

	if (!btf || !type_id)
		return -ENOENT;
	t = btf__type_by_id(btf, btf__resolve_type(btf, type_id));
	if (!t || !btf_is_composite(t))
		return -ENOENT;
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		int64_t sz = btf__resolve_size(btf, m->type);

		if (!name || strcmp(name, field))
			continue;
		if (btf_member_bitfield_size(t, i) || btf_member_bit_offset(t, i) % 8 || sz <= 0 ||
		    sz > 8)
			return -EOPNOTSUPP;
		*off = btf_member_bit_offset(t, i) / 8;
		*size = sz;
		return 0;
	}
	return -ENOENT;
}

static int expect_map(int argc, char **argv)
{
	unsigned char key[256], want[4096], *val = NULL;
	uint32_t stride, off = 0, fsize;
	struct uxdp_bpf_map_desc m;
	const struct btf *btf;
	char what[512], got[64];
	enum expect_op op;
	int i = 2, klen, err, ret = EXIT_USAGE;
	uint64_t n, v = 0;

	if (argc < 3 || script_map_resolve(argv[0], &m, &btf) < 0)
		return argc < 3 ? usage() : EXIT_USAGE;
	if (!strcmp(argv[1], "count")) {
		unsigned char k[256], next[256];
		bool have = false;

		if (parse_cmp(argc - 2, argv + 2, &op, &n) || m.key_size > sizeof(k))
			return usage();
		while (!uxdp_bpf_map_get_next_key(m.id, have ? k : NULL, next) && v < 10000000) {
			memcpy(k, next, m.key_size);
			have = true;
			v++;
		}
		snprintf(what, sizeof(what), "map %s count", m.name);
		return report_cmp(what, v, op, n);
	}
	if (strcmp(argv[1], "key"))
		return usage();
	klen = parse_hex_words(argc, argv, &i, key, sizeof(key));
	if (klen != (int)m.key_size) {
		script_err("map '%s': key is not %u bytes of hex", m.name, m.key_size);
		return EXIT_USAGE;
	}
	snprintf(what, sizeof(what), "map %s key", m.name);
	for (int k = 2; k < i; k++)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s", argv[k]);
	val = calloc(1, m.value_size_sys + 8);
	if (!val)
		return 1;
	err = uxdp_bpf_map_lookup_elem(m.id, key, val);
	if (i < argc && !strcmp(argv[i], "missing") && i + 1 == argc) {
		ret = report(what, err == -ENOENT, err ? "missing" : "present", "missing");
		goto out;
	}
	if (i < argc && !strcmp(argv[i], "value")) {
		int wlen;

		i++;
		wlen = parse_hex_words(argc, argv, &i, want, sizeof(want));
		if (wlen != (int)m.value_size || i != argc) {
			script_err("map '%s': value is not %u bytes of hex", m.name, m.value_size);
			goto out;
		}
		snprintf(got, sizeof(got), "%s", err ? "missing" : "");
		for (uint32_t b = 0; !err && b < m.value_size && b < 24; b++)
			snprintf(got + 2 * b, sizeof(got) - 2 * b, "%02x", val[b]);
		ret = report(what, !err && !memcmp(val, want, m.value_size), got, argv[i - 1]);
		goto out;
	}
	fsize = m.value_size;
	if (i < argc && argc - i != 1 && strcmp(argv[i], "==") && strcmp(argv[i], "!=") &&
	    argv[i][0] != '<' && argv[i][0] != '>') {
		if (value_field(btf, m.btf_value_type_id, argv[i], &off, &fsize)) {
			script_err("map '%s': '%s' is not an integer field of the value (BTF)", m.name,
				   argv[i]);
			goto out;
		}
		snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s", argv[i]);
		i++;
	} else if (fsize > 8) {
		script_err("map '%s': a %u-byte value: name a field, or give 'value HEX'", m.name,
			   m.value_size);
		goto out;
	}
	if (parse_cmp(argc - i, argv + i, &op, &n)) {
		ret = usage();
		goto out;
	}
	if (err) {
		ret = report(what, false, "missing", op_names[op]);
		goto out;
	}
	stride = (m.value_size + 7) & ~7U;
	for (uint32_t c = 0; c < m.nr_cpus; c++) {
		uint64_t x = 0;

		memcpy(&x, val + (m.nr_cpus > 1 ? c * stride : 0) + off, fsize);
		v += x;
	}
	ret = report_cmp(what, v, op, n);
out:
	free(val);
	return ret;
}

/* ---- trace --------------------------------------------------------------- */

static int expect_trace(int argc, char **argv)
{
	const char *lines = run_trace_lines();
	enum expect_op op;
	char what[256];
	uint64_t n, v = 0;

	if (argc >= 2 && !strcmp(argv[0], "contains")) {
		if (argc != 2)
			return usage();
		snprintf(what, sizeof(what), "trace contains \"%s\"", argv[1]);
		return report(what, lines && strstr(lines, argv[1]), "not found", "found");
	}
	if (argc < 2 || strcmp(argv[0], "count") || parse_cmp(argc - 1, argv + 1, &op, &n))
		return usage();
	for (const char *p = lines; p && *p; p++)
		v += *p == '\n';
	return report_cmp("trace count", v, op, n);
}

static int cmd_expect(int argc, char **argv)
{
	if (argc < 1)
		return usage();
	if (!strcmp(argv[0], "dev"))
		return expect_dev(argc - 1, argv + 1);
	if (!strcmp(argv[0], "prog") && argc > 1)
		return expect_prog(argc - 1, argv + 1);
	if (!strcmp(argv[0], "map"))
		return expect_map(argc - 1, argv + 1);
	if (!strcmp(argv[0], "trace"))
		return expect_trace(argc - 1, argv + 1);
	return usage();
}

const struct script_cmd expect_cmds[] = {
	{ "expect", cmd_expect, "expect dev|prog|map|trace ... (see Documentation/testing-programs.rst)" },
	{ 0 }
};
