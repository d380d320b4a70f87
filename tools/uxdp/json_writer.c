// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's JSON writer (json_writer.h): members and elements separated
 * by the writer, strings escaped in one place, documents printed compact
 * or reindented.
 *
 * Kernel: none (bpftool's json_writer is the model of the interface)
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

void json_escape(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			/*
			 * bytes, not UTF-8 (always valid JSON); \u form even for
			 * \n and \t, which a POSIX sh's echo would expand
			 */
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void jsonw_init(struct json_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

int jsonw_open(struct json_writer *w)
{
	FILE *f;

	memset(w, 0, sizeof(*w));
	f = open_memstream(&w->buf, &w->len);
	if (!f)
		return -1;
	jsonw_init(w, f);
	return 0;
}

char *jsonw_close(struct json_writer *w)
{
	char *buf;

	fclose(w->f);
	buf = w->buf;
	w->f = NULL;
	w->buf = NULL;
	return buf;
}

/* Before any value: the comma that separates it from the previous one. */
static void jsonw_sep(struct json_writer *w)
{
	if (w->named) {
		w->named = false;
		return;
	}
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
}

static void jsonw_open_level(struct json_writer *w, char c)
{
	jsonw_sep(w);
	fputc(c, w->f);
	if (w->depth + 1 < JSONW_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void jsonw_close_level(struct json_writer *w, char c)
{
	fputc(c, w->f);
	if (w->depth)
		w->depth--;
}

void jsonw_start_object(struct json_writer *w)
{
	jsonw_open_level(w, '{');
}

void jsonw_end_object(struct json_writer *w)
{
	jsonw_close_level(w, '}');
}

void jsonw_start_array(struct json_writer *w)
{
	jsonw_open_level(w, '[');
}

void jsonw_end_array(struct json_writer *w)
{
	jsonw_close_level(w, ']');
}

void jsonw_name(struct json_writer *w, const char *name)
{
	jsonw_sep(w);
	json_escape(w->f, name, SIZE_MAX);
	fputc(':', w->f);
	w->named = true;
}

void jsonw_string_n(struct json_writer *w, const char *s, size_t n)
{
	jsonw_sep(w);
	json_escape(w->f, s ? s : "", n);
}

void jsonw_string(struct json_writer *w, const char *s)
{
	jsonw_string_n(w, s, SIZE_MAX);
}

void jsonw_uint(struct json_writer *w, uint64_t v)
{
	jsonw_sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jsonw_int(struct json_writer *w, int64_t v)
{
	jsonw_sep(w);
	fprintf(w->f, "%" PRId64, v);
}

void jsonw_float(struct json_writer *w, const char *fmt, double v)
{
	jsonw_sep(w);
	if (isfinite(v))
		fprintf(w->f, fmt, v);
	else
		fputs("null", w->f);
}

void jsonw_bool(struct json_writer *w, bool v)
{
	jsonw_sep(w);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_null(struct json_writer *w)
{
	jsonw_sep(w);
	fputs("null", w->f);
}

void jsonw_raw(struct json_writer *w, const char *json)
{
	jsonw_sep(w);
	fputs(json && *json ? json : "null", w->f);
}

FILE *jsonw_value_stream(struct json_writer *w)
{
	jsonw_sep(w);
	return w->f;
}

void jsonw_members(struct json_writer *w, const char *members)
{
	if (!members || !*members)
		return;
	jsonw_sep(w);
	fputs(members, w->f);
}

void jsonw_string_field(struct json_writer *w, const char *name, const char *s)
{
	jsonw_name(w, name);
	jsonw_string(w, s);
}

void jsonw_uint_field(struct json_writer *w, const char *name, uint64_t v)
{
	jsonw_name(w, name);
	jsonw_uint(w, v);
}

void jsonw_int_field(struct json_writer *w, const char *name, int64_t v)
{
	jsonw_name(w, name);
	jsonw_int(w, v);
}

void jsonw_float_field(struct json_writer *w, const char *name, const char *fmt, double v)
{
	jsonw_name(w, name);
	jsonw_float(w, fmt, v);
}

void jsonw_bool_field(struct json_writer *w, const char *name, bool v)
{
	jsonw_name(w, name);
	jsonw_bool(w, v);
}

static void json_indent(FILE *f, unsigned int depth)
{
	fputc('\n', f);
	for (unsigned int i = 0; i < depth; i++)
		fputs("  ", f);
}

/*
 * -p: a newline and indentation after every opening bracket and comma and
 * before every closing one, a blank after a colon; strings are copied as
 * they are (their brackets and commas are not structure); empty objects
 * and arrays stay "{}" and "[]". Blanks between tokens are dropped, so
 * @doc may be compact or not; several documents in a row (JSON lines)
 * stay one per line group.
 */
void json_print(FILE *f, const char *doc, bool pretty)
{
	unsigned int depth = 0;
	bool in_str = false;

	if (!pretty) {
		fprintf(f, "%s\n", doc);
		return;
	}
	for (const char *p = doc; *p; p++) {
		char c = *p;

		if (in_str) {
			fputc(c, f);
			if (c == '\\' && p[1])
				fputc(*++p, f);
			else if (c == '"')
				in_str = false;
			continue;
		}
		switch (c) {
		case ' ':
		case '\t':
		case '\r':
		case '\n':
			break;
		case '"':
			in_str = true;
			fputc(c, f);
			break;
		case '{':
		case '[': {
			const char *q = p + 1;

			while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')
				q++;
			fputc(c, f);
			if (*q == (c == '{' ? '}' : ']')) {
				fputc(*q, f);
				p = q;
				if (!depth)
					fputc('\n', f);
				break;
			}
			json_indent(f, ++depth);
			break;
		}
		case '}':
		case ']':
			json_indent(f, depth ? --depth : 0);
			fputc(c, f);
			if (!depth)
				fputc('\n', f);	/* the end of a document */
			break;
		case ',':
			fputc(c, f);
			json_indent(f, depth);
			break;
		case ':':
			fputs(": ", f);
			break;
		default:
			fputc(c, f);
			/* a scalar document (null): its own line */
			if (!depth && (p[1] == '\n' || !p[1]))
				fputc('\n', f);
		}
	}
}
