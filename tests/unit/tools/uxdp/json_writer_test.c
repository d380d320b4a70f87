// SPDX-License-Identifier: GPL-2.0
/*
 * tools/uxdp/json_writer.c: separators at every depth, names, every value
 * type, members spliced from another writer, escaping of quotes,
 * backslashes, control and non-ASCII bytes, NaN as null, and -p's
 * reindentation (brackets and commas inside strings are not structure).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

#include "uxdp_test.h"

static char *pretty(const char *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	json_print(f, doc, true);
	fclose(f);
	return buf;
}

START_TEST(test_nesting)
{
	struct json_writer w;
	char *s;

	ck_assert_int_eq(jsonw_open(&w), 0);
	jsonw_start_object(&w);
	jsonw_uint_field(&w, "a", 18446744073709551615ULL);
	jsonw_int_field(&w, "b", -3);
	jsonw_name(&w, "c");
	jsonw_start_array(&w);
	jsonw_bool(&w, true);
	jsonw_null(&w);
	jsonw_start_object(&w);
	jsonw_end_object(&w);
	jsonw_start_array(&w);
	jsonw_end_array(&w);
	jsonw_float(&w, "%.1f", 2.25);
	jsonw_float(&w, "%.1f", NAN);
	jsonw_end_array(&w);
	jsonw_string_field(&w, "d", "x");
	jsonw_members(&w, "\"e\":1,\"f\":[2]");
	jsonw_members(&w, "");
	jsonw_name(&w, "g");
	jsonw_raw(&w, "{\"h\":0}");
	jsonw_end_object(&w);
	s = jsonw_close(&w);
	ck_assert_str_eq(s, "{\"a\":18446744073709551615,\"b\":-3,\"c\":[true,null,{},[],2.2,null],"
			 "\"d\":\"x\",\"e\":1,\"f\":[2],\"g\":{\"h\":0}}");
	free(s);
}
END_TEST

START_TEST(test_top_level_members)
{
	struct json_writer w;
	char *s;

	/* a run's members without braces: the document adds to them */
	ck_assert_int_eq(jsonw_open(&w), 0);
	jsonw_uint_field(&w, "a", 1);
	jsonw_name(&w, "b");
	jsonw_start_object(&w);
	jsonw_bool_field(&w, "c", false);
	jsonw_end_object(&w);
	s = jsonw_close(&w);
	ck_assert_str_eq(s, "\"a\":1,\"b\":{\"c\":false}");
	free(s);
}
END_TEST

START_TEST(test_escape)
{
	struct json_writer w;
	char *s;

	ck_assert_int_eq(jsonw_open(&w), 0);
	jsonw_start_array(&w);
	jsonw_string(&w, "q\"b\\n\nt\t\x01\x7f\xc3\xa9");
	jsonw_string_n(&w, "abcdef", 3);
	jsonw_string(&w, NULL);
	jsonw_end_array(&w);
	s = jsonw_close(&w);
	ck_assert_str_eq(s, "[\"q\\\"b\\\\n\\u000at\\u0009\\u0001\\u007f\\u00c3\\u00a9\",\"abc\",\"\"]");
	free(s);
}
END_TEST

START_TEST(test_pretty)
{
	char *s = pretty("{\"a\":[1,{\"b\":\"x,{y}[\\\"\"}],\"c\":{},\"d\":[]}");

	ck_assert_str_eq(s, "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x,{y}[\\\"\"\n    }\n  ],\n"
			 "  \"c\": {},\n  \"d\": []\n}\n");
	free(s);
	/* JSON lines, blanks, a scalar document */
	s = pretty("{\"a\": 1}\n[ ]\nnull\n{\"b\":\" x \"}\n");
	ck_assert_str_eq(s, "{\n  \"a\": 1\n}\n[]\nnull\n{\n  \"b\": \" x \"\n}\n");
	free(s);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("json_writer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_nesting);
	tcase_add_test(tc, test_top_level_members);
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_pretty);
	suite_add_tcase(s, tc);
	return s;
}
