/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's one JSON writer: every command builds its JSON through it
 * (compact, into a memory stream), and every document leaves through
 * json_print() (-p reindents it). The conventions, bpftool's, are in
 * Documentation/output.rst: numbers (counts, ids, ifindex, rates) are
 * JSON numbers in decimal; raw bytes are strings of hex digits; names and
 * reasons are strings as the text output spells them.
 *
 * Kernel: none (bpftool's json_writer is the model of the interface)
 */
#ifndef _UXDP_TOOLS_JSON_WRITER_H
#define _UXDP_TOOLS_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH	32

struct json_writer {
	FILE *f;
	char *buf;		/* jsonw_open(): the memory stream's buffer */
	size_t len;
	unsigned int depth;
	bool first[JSONW_MAX_DEPTH];	/* no member/element yet at this depth */
	bool named;		/* jsonw_name() printed; the value comes next */
};

/* Write into a memory stream; jsonw_close() returns the text (caller frees). */
int jsonw_open(struct json_writer *w);
char *jsonw_close(struct json_writer *w);
/* Write to @f directly. */
void jsonw_init(struct json_writer *w, FILE *f);

void jsonw_start_object(struct json_writer *w);
void jsonw_end_object(struct json_writer *w);
void jsonw_start_array(struct json_writer *w);
void jsonw_end_array(struct json_writer *w);
void jsonw_name(struct json_writer *w, const char *name);

void jsonw_string(struct json_writer *w, const char *s);
/* At most @n bytes of @s, up to its first NUL. */
void jsonw_string_n(struct json_writer *w, const char *s, size_t n);
void jsonw_uint(struct json_writer *w, uint64_t v);
void jsonw_int(struct json_writer *w, int64_t v);
/* @fmt is a printf format for one double ("%.3f"); NaN and inf give null. */
void jsonw_float(struct json_writer *w, const char *fmt, double v);
void jsonw_bool(struct json_writer *w, bool v);
void jsonw_null(struct json_writer *w);
/* A value that is JSON already (built by another writer). */
void jsonw_raw(struct json_writer *w, const char *json);
/*
 * One value the caller writes itself, as JSON, onto the returned stream
 * (the BTF, hex and trace printers, which write to a FILE).
 */
FILE *jsonw_value_stream(struct json_writer *w);
/* Members "a":1,"b":2 built by another writer, into the open object. */
void jsonw_members(struct json_writer *w, const char *members);

void jsonw_string_field(struct json_writer *w, const char *name, const char *s);
void jsonw_uint_field(struct json_writer *w, const char *name, uint64_t v);
void jsonw_int_field(struct json_writer *w, const char *name, int64_t v);
void jsonw_float_field(struct json_writer *w, const char *name, const char *fmt, double v);
void jsonw_bool_field(struct json_writer *w, const char *name, bool v);

/* The one string escaper: @s (at most @n bytes) quoted for JSON onto @f. */
void json_escape(FILE *f, const char *s, size_t n);

/*
 * Print the compact document @doc and a newline to @f: as it is, or
 * reindented by two spaces per level if @pretty (-p).
 */
void json_print(FILE *f, const char *doc, bool pretty);

#endif
