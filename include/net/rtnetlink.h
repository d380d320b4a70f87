/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link kinds: one X-macro line per driver (`link add NAME type KIND`).
 * Adding a kind = its drivers/net/<kind>.c defining <kind>_link_ops + one
 * line here.
 *
 * Kernel: include/net/rtnetlink.h struct rtnl_link_ops, rtnl_link_register()
 */
#ifndef _UXDP_NET_RTNETLINK_H
#define _UXDP_NET_RTNETLINK_H

#include <linux/netdevice.h>

#define RTNL_LINK_KINDS(FN)	\
	FN(veth)		\
	FN(gen)			\
	FN(sink)		\
	FN(dsa_switch)		\
	FN(afpacket)		\
	FN(tap)		\
	FN(pcap)		\
	FN(afxdp)		\
	FN(dummy)

#define __RTNL_LINK_DECLARE(kind)	extern const struct rtnl_link_ops kind##_link_ops;
RTNL_LINK_KINDS(__RTNL_LINK_DECLARE)
#undef __RTNL_LINK_DECLARE

/*
 * A kind's arguments, one row each: `link add NAME type KIND NAME VALUE ...`.
 * rtnl_link_args_parse() is the only parser of them and rtnl_link_usage()
 * prints the usage from the same rows, so help and parser cannot drift.
 * A value lands at @off in the struct the kind passes (its priv, or a
 * config struct): RTNL_ARG_UINT in an unsigned field of @size bytes within
 * [@min, @max]; RTNL_ARG_STR as a pointer into argv (valid during
 * newlink; with @max, a name of 1..@max characters without '/' or blanks,
 * described by @what); RTNL_ARG_CHOICE as the index of the word in @choices() in an
 * unsigned field of @size bytes; RTNL_ARG_FN through @parse, which returns
 * 0 or -EINVAL. A @name of two words ("peer name") matches two tokens.
 */
enum rtnl_arg_type {
	RTNL_ARG_UINT,
	RTNL_ARG_STR,
	RTNL_ARG_CHOICE,
	RTNL_ARG_FN,
};

#define RTNL_ARG_REQUIRED	0x1	/* printed without brackets; newlink fails without it */

struct rtnl_link_arg {
	const char *name;
	enum rtnl_arg_type type;
	const char *meta;		/* the value in the usage: N, FILE, MIN-MAX; CHOICE: the words */
	size_t off;
	size_t size;
	unsigned long long min, max;
	const char *const *(*choices)(void);	/* CHOICE: NULL-terminated words */
	int (*parse)(void *base, const char *v);
	const char *what;		/* FN, STR: "port range": "'v' is not a valid port range" */
	const char *example;		/* a value that parses (the drift test) */
	unsigned int flags;
};

#define __RTNL_ARG_FIELD(st, fld)	.off = offsetof(st, fld), .size = sizeof(((st *)0)->fld)
/* The rows; more designated initializers may follow (.flags = RTNL_ARG_REQUIRED). */
#define RTNL_ARG_U(st, n, fld, lo, hi, m, ...)					\
	{ .name = n, .type = RTNL_ARG_UINT, __RTNL_ARG_FIELD(st, fld),		\
	  .min = lo, .max = hi, .meta = m, __VA_ARGS__ }
#define RTNL_ARG_S(st, n, fld, m, ex, ...)					\
	{ .name = n, .type = RTNL_ARG_STR, .off = offsetof(st, fld), .meta = m,	\
	  .example = ex, __VA_ARGS__ }
#define RTNL_ARG_N(st, n, fld, m, maxlen, w, ex, ...)				\
	{ .name = n, .type = RTNL_ARG_STR, .off = offsetof(st, fld), .meta = m,	\
	  .max = maxlen, .what = w, .example = ex, __VA_ARGS__ }
#define RTNL_ARG_C(st, n, fld, words, ...)					\
	{ .name = n, .type = RTNL_ARG_CHOICE, __RTNL_ARG_FIELD(st, fld),	\
	  .choices = words, __VA_ARGS__ }
#define RTNL_ARG_F(n, fn, m, w, ex, ...)					\
	{ .name = n, .type = RTNL_ARG_FN, .parse = fn, .meta = m, .what = w,	\
	  .example = ex, __VA_ARGS__ }

/*
 * Parse @argv against the rows of @ops->args into @base. Unknown words,
 * missing values, values out of range and missing RTNL_ARG_REQUIRED rows
 * are reported in @err as "KIND: what is wrong (usage)". Returns 0 or
 * -EINVAL.
 */
int rtnl_link_args_parse(const struct rtnl_link_ops *ops, void *base, int argc, char **argv,
			 char *err, size_t errlen);
/* The usage of @ops's arguments (from its rows, or its fixed .usage). */
const char *rtnl_link_usage(const struct rtnl_link_ops *ops);
/* "veth, gen, ..." : every registered kind. */
const char *rtnl_link_kind_list(void);

/* newlink of a kind that takes no arguments: register @dev or say why not. */
int rtnl_newlink_noargs(struct net_device *dev, int argc, char **argv, char *err, size_t errlen);

/* The ops of @kind, or NULL. */
const struct rtnl_link_ops *rtnl_link_ops_get(const char *kind);

#endif
