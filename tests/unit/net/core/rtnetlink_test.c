// SPDX-License-Identifier: GPL-2.0
/*
 * The link kinds' argument tables against their usage text (the drift
 * test): no kind parses its arguments by hand; every argument the usage
 * of a kind names parses with a value of its form, every row the parser
 * accepts is in the usage, words the usage does not name are refused with
 * the usage in the message, and the kind lists come from the
 * registrations ("dsa-switch", not "dsa_switch").
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netdevice.h>
#include <net/rtnetlink.h>

#include <uxdp/uxdp_link.h>

#include "uxdp_test.h"

/* Large and aligned enough for any kind's priv or argument struct. */
static char arg_base[1 << 16] __attribute__((aligned(64)));

/* The value a row's usage form asks for: its example, its range ends, its words. */
static void row_values(const struct rtnl_link_arg *a, char vals[][64], int *n)
{
	const char *const *w;

	*n = 0;
	switch (a->type) {
	case RTNL_ARG_UINT:
		snprintf(vals[(*n)++], 64, "%llu", a->min);
		snprintf(vals[(*n)++], 64, "%llu", a->max);
		break;
	case RTNL_ARG_CHOICE:
		for (w = a->choices(); *w && *n < 16; w++)
			snprintf(vals[(*n)++], 64, "%s", *w);
		break;
	default:
		ck_assert_msg(a->example, "row '%s' has no example value", a->name);
		snprintf(vals[(*n)++], 64, "%s", a->example);
	}
}

/* argv: the required rows with a valid value, then @extra (NULL: none). */
static int parse_with(const struct rtnl_link_ops *ops, char **extra, int nextra,
		      char *err, size_t errlen)
{
	char *argv[64], vals[16][64], words[64][64];
	const struct rtnl_link_arg *a;
	int argc = 0, n;

	for (a = ops->args; a->name; a++) {
		if (!(a->flags & RTNL_ARG_REQUIRED))
			continue;
		row_values(a, vals, &n);
		snprintf(words[argc], 64, "%s", a->name);
		/* "peer name": two tokens */
		if (strchr(words[argc], ' ')) {
			*strchr(words[argc], ' ') = 0;
			argv[argc] = words[argc];
			argc++;
			snprintf(words[argc], 64, "%s", strchr(a->name, ' ') + 1);
		}
		argv[argc] = words[argc];
		argc++;
		snprintf(words[argc], 64, "%s", vals[0]);
		argv[argc] = words[argc];
		argc++;
	}
	for (int i = 0; i < nextra; i++)
		argv[argc++] = extra[i];
	memset(arg_base, 0, sizeof(arg_base));
	return rtnl_link_args_parse(ops, arg_base, argc, argv, err, errlen);
}

/* The usage text as words, brackets dropped: "[queues N] peer name NAME" -> 5 words. */
static int usage_words(const char *usage, char words[][64], int max)
{
	char buf[1024], *tok, *save;
	int n = 0;

	int inner = 0;

	/* '[' opening a word opens a group; inside a word ("A[-B]") it is the value's */
	snprintf(buf, sizeof(buf), "%s", usage);
	for (char *c = buf; *c; c++) {
		if (*c == '[' && (c == buf || c[-1] == ' '))
			*c = ' ';
		else if (*c == '[')
			inner++;
		else if (*c == ']' && inner)
			inner--;
		else if (*c == ']')
			*c = ' ';
	}
	for (tok = strtok_r(buf, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save))
		snprintf(words[n++], 64, "%s", tok);
	return n;
}

/* The row whose name is at @w (one or two words), or NULL; its word count in @nw. */
static const struct rtnl_link_arg *row_at(const struct rtnl_link_ops *ops, char words[][64],
					  int w, int nwords, int *nw)
{
	for (const struct rtnl_link_arg *a = ops->args; a->name; a++) {
		char two[130];

		if (!strcmp(a->name, words[w])) {
			*nw = 1;
			return a;
		}
		snprintf(two, sizeof(two), "%s %s", words[w], w + 1 < nwords ? words[w + 1] : "");
		if (!strcmp(a->name, two)) {
			*nw = 2;
			return a;
		}
	}
	return NULL;
}

START_TEST(every_usage_argument_parses)
{
	const char *const *k;
	int kinds = 0;

	for (k = uxdp_link_kinds(); *k; k++) {
		const struct rtnl_link_ops *ops = rtnl_link_ops_get(*k);
		int nwords, nw = 0, rows = 0, named = 0;
		char words[128][64], err[512];
		const char *usage;

		ck_assert_msg(ops, "kind '%s' in the list but not registered", *k);
		ck_assert_ptr_nonnull(uxdp_link_kind_usage(*k));
		/* no kind parses by hand: a table, no arguments, or compiled out */
		ck_assert_msg(ops->args || ops->newlink == rtnl_newlink_noargs ||
			      strstr(ops->usage, "without"), "%s: arguments without a table", *k);
		if (!ops->args)
			continue;
		kinds++;
		usage = rtnl_link_usage(ops);
		nwords = usage_words(usage, words, 128);
		for (const struct rtnl_link_arg *a = ops->args; a->name; a++)
			rows++;
		/* The usage, word by word: a row's name, then its value form. */
		for (int w = 0; w < nwords; w += nw + 1, named++) {
			const struct rtnl_link_arg *a = row_at(ops, words, w, nwords, &nw);
			char vals[16][64], *extra[3];
			int nv;

			ck_assert_msg(a, "%s: usage '%s' names '%s', which the parser refuses", *k,
				      usage, words[w]);
			ck_assert_msg(w + nw < nwords, "%s: '%s' has no value in the usage", *k,
				      a->name);
			row_values(a, vals, &nv);
			for (int v = 0; v < nv; v++) {
				char w1[64];
				int ne = 0;

				snprintf(w1, sizeof(w1), "%s", words[w]);
				extra[ne++] = w1;
				if (nw == 2)
					extra[ne++] = words[w + 1];
				extra[ne++] = vals[v];
				ck_assert_msg(!parse_with(ops, extra, ne, err, sizeof(err)),
					      "%s: usage '%s' but '%s %s' is refused: %s", *k,
					      usage, a->name, vals[v], err);
			}
		}
		ck_assert_msg(named == rows, "%s: usage '%s' names %d arguments, the table has %d",
			      *k, usage, named, rows);
	}
	ck_assert_int_ge(kinds, 5);
}
END_TEST

START_TEST(every_parsed_argument_in_usage)
{
	for (const char *const *k = uxdp_link_kinds(); *k; k++) {
		const struct rtnl_link_ops *ops = rtnl_link_ops_get(*k);
		char *bogus[] = { "no_such_argument", "1" }, err[512];
		const char *usage;

		if (!ops->args)
			continue;
		usage = rtnl_link_usage(ops);
		for (const struct rtnl_link_arg *a = ops->args; a->name; a++) {
			char needle[128], meta[64] = "WORD";

			if (a->type != RTNL_ARG_CHOICE)
				snprintf(meta, sizeof(meta), "%s", a->meta ? a->meta : "N");
			else
				snprintf(meta, sizeof(meta), "%s", a->choices()[0]);
			snprintf(needle, sizeof(needle), "%s %s", a->name, meta);
			ck_assert_msg(strstr(usage, needle), "%s: '%s' parses but usage '%s' omits it",
				      *k, needle, usage);
		}
		ck_assert_int_eq(parse_with(ops, bogus, 2, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, "unknown argument 'no_such_argument'") && strstr(err, usage),
			      "%s: '%s'", *k, err);
	}
}
END_TEST

START_TEST(values_out_of_range_refused)
{
	for (const char *const *k = uxdp_link_kinds(); *k; k++) {
		const struct rtnl_link_ops *ops = rtnl_link_ops_get(*k);

		if (!ops->args)
			continue;
		for (const struct rtnl_link_arg *a = ops->args; a->name; a++) {
			char v[32], err[512], *extra[] = { (char *)a->name, v };

			if (a->type != RTNL_ARG_UINT || strchr(a->name, ' '))
				continue;
			if (a->max < UINT64_MAX) {
				snprintf(v, sizeof(v), "%llu", a->max + 1);
				ck_assert_msg(parse_with(ops, extra, 2, err, sizeof(err)) == -EINVAL &&
					      strstr(err, "out of range"), "%s %s %s: '%s'", *k,
					      a->name, v, err);
			}
			snprintf(v, sizeof(v), "x1");
			ck_assert_int_eq(parse_with(ops, extra, 2, err, sizeof(err)), -EINVAL);
			ck_assert_ptr_nonnull(strstr(err, "is not a number"));
			/* a name without its value */
			ck_assert_int_eq(parse_with(ops, extra, 1, err, sizeof(err)), -EINVAL);
			ck_assert_ptr_nonnull(strstr(err, "needs a value"));
		}
	}
}
END_TEST

START_TEST(required_argument_missing)
{
	const struct rtnl_link_ops *ops = rtnl_link_ops_get("veth");
	char *argv[] = { "queues", "2" }, err[256];

	ck_assert_int_eq(rtnl_link_args_parse(ops, arg_base, 2, argv, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "veth: 'peer name NAME' is required ([queues N] peer name NAME)");
}
END_TEST

/* iproute2's `peer [name] NAME`: both forms name the peer; `peer` alone needs one. */
START_TEST(veth_peer_name_optional)
{
	char *bare[] = { "queues", "2", "peer", "rt_p1" }, *full[] = { "peer", "name", "rt_p2" };
	char *alone[] = { "peer" }, err[256];

	ck_assert_int_gt(uxdp_link_add("rt_v1", "veth", 4, bare, err, sizeof(err)), 0);
	ck_assert_int_gt(uxdp_link_add("rt_v2", "veth", 3, full, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(dev_get_by_name("rt_p1"));
	ck_assert_ptr_nonnull(dev_get_by_name("rt_p2"));
	ck_assert_int_eq(uxdp_link_add("rt_v3", "veth", 1, alone, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "veth: 'peer name' needs a value (peer name NAME)");
	ck_assert_ptr_null(dev_get_by_name("rt_v3"));
	ck_assert_int_eq(uxdp_link_del("rt_v1"), 0);
	ck_assert_int_eq(uxdp_link_del("rt_v2"), 0);
	ck_assert_ptr_null(dev_get_by_name("rt_p1"));
}
END_TEST

START_TEST(kind_lists_from_registrations)
{
	char err[512];
	int n = 0;

	for (const char *const *k = uxdp_link_kinds(); *k; k++, n++)
		ck_assert_ptr_eq(rtnl_link_ops_get(*k)->kind, *k);
	ck_assert_int_ge(n, 9);
	ck_assert_int_eq(uxdp_link_add("x0", "afpackt", 0, NULL, err, sizeof(err)), -EOPNOTSUPP);
	for (const char *const *k = uxdp_link_kinds(); *k; k++)
		ck_assert_msg(strstr(err, *k), "'%s' not in '%s'", *k, err);
	/* the DSA taggers, as their registrations spell them */
	ck_assert_ptr_nonnull(strstr(uxdp_link_kind_usage("dsa-switch"),
				     "tag sja1105|dsa|edsa|ocelot-8021q"));
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("net/core/rtnetlink");
	TCase *tc = tcase_create("args");

	tcase_add_test(tc, every_usage_argument_parses);
	tcase_add_test(tc, every_parsed_argument_in_usage);
	tcase_add_test(tc, values_out_of_range_refused);
	tcase_add_test(tc, required_argument_missing);
	tcase_add_test(tc, veth_peer_name_optional);
	tcase_add_test(tc, kind_lists_from_registrations);
	suite_add_tcase(s, tc);
	return s;
}
