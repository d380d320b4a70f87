// SPDX-License-Identifier: GPL-2.0
/*
 * The conntrack kfuncs XDP programs call (xdp_synproxy and friends):
 * bpf_xdp_ct_lookup(), bpf_xdp_ct_alloc(), bpf_ct_insert_entry(),
 * bpf_ct_release() and the bpf_ct_set_* / bpf_ct_change_* setters, with
 * the kernel's prototypes and flags, so the verifier holds programs to the
 * kernel's rules: a lookup or an alloc is a reference (KF_ACQUIRE) that
 * may be NULL (KF_RET_NULL) and must be released (bpf_ct_release(),
 * bpf_ct_insert_entry()) on every path, the setters take only trusted
 * pointers.
 *
 * uxdp has no connection tracking: there is no table to look up or insert
 * into. The options are checked as the kernel checks them (opts->error is
 * -EINVAL for a bad size, reserved bytes or netns_id, -EPROTO for an L4
 * protocol other than TCP or UDP, -EAFNOSUPPORT for a tuple of neither the
 * IPv4 nor the IPv6 size); a valid lookup then finds nothing (-ENOENT), as
 * the kernel's does for a connection it has not seen, and an alloc fails
 * (-ENOMEM). No nf_conn ever reaches a program, so the functions that take
 * one are never called with one.
 *
 * Kernel: net/netfilter/nf_conntrack_bpf.c
 * Differs: no conntrack table (above); netns_id is checked but any
 *	    namespace id >= 0 is the one namespace.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/btf.h>

/* struct bpf_ct_opts of the kernel: the 12 bytes the kfuncs read */
struct bpf_ct_opts {
	s32 netns_id;
	s32 error;
	u8 l4proto;
	u8 dir;
	u8 reserved[2];
};

#define NF_BPF_CT_OPTS_SZ	12
#define BPF_F_CURRENT_NETNS	(-1)
#define CT_TUPLE_IPV4_SZ	12	/* sizeof(bpf_sock_tuple.ipv4) */
#define CT_TUPLE_IPV6_SZ	36	/* sizeof(bpf_sock_tuple.ipv6) */

/* The kernel's option and tuple checks, in its order; 0 when they pass. */
static int bpf_nf_ct_check(const void *tuple, u32 tuple_len, const struct bpf_ct_opts *opts,
			   u32 opts_len, bool lookup)
{
	if (!opts || !tuple || opts->reserved[0] || opts->reserved[1] ||
	    opts_len != NF_BPF_CT_OPTS_SZ)
		return -EINVAL;
	if (lookup && opts->l4proto != 6 && opts->l4proto != 17)
		return -EPROTO;
	if (opts->netns_id < BPF_F_CURRENT_NETNS)
		return -EINVAL;
	if (opts->l4proto != 6 && opts->l4proto != 17)
		return -EPROTO;
	if (tuple_len != CT_TUPLE_IPV4_SZ && tuple_len != CT_TUPLE_IPV6_SZ)
		return -EAFNOSUPPORT;
	return 0;
}

static u64 bpf_nf_ct_fail(struct bpf_ct_opts *opts, int err)
{
	if (opts)
		opts->error = err;
	return 0;
}

static u64 bpf_xdp_ct_lookup(u64 ctx, u64 tuple, u64 tuple_sz, u64 opts, u64 opts_sz)
{
	struct bpf_ct_opts *o = (struct bpf_ct_opts *)(uintptr_t)opts;
	int err;

	(void)ctx;
	err = bpf_nf_ct_check((void *)(uintptr_t)tuple, (u32)tuple_sz, o, (u32)opts_sz, true);
	return bpf_nf_ct_fail(o, err ?: -ENOENT);
}

static u64 bpf_xdp_ct_alloc(u64 ctx, u64 tuple, u64 tuple_sz, u64 opts, u64 opts_sz)
{
	struct bpf_ct_opts *o = (struct bpf_ct_opts *)(uintptr_t)opts;
	int err;

	(void)ctx;
	err = bpf_nf_ct_check((void *)(uintptr_t)tuple, (u32)tuple_sz, o, (u32)opts_sz, false);
	return bpf_nf_ct_fail(o, err ?: -ENOMEM);
}

/* Never handed an object (none exists): the kernel's result for a failure. */
static u64 bpf_ct_insert_entry(u64 nfct, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)nfct, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

static u64 bpf_ct_noop(u64 nfct, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)nfct, (void)r2, (void)r3, (void)r4, (void)r5;
	return 0;
}

static u64 bpf_ct_change_einval(u64 nfct, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)nfct, (void)r2, (void)r3, (void)r4, (void)r5;
	return (u64)-EINVAL;
}

#define CT_ARG_CTX	{ .kind = KF_ARG_PTR_TO_CTX }
#define CT_ARG_MEM_SZ	{ .kind = KF_ARG_PTR_TO_MEM_SIZE }, { .kind = KF_ARG_CONST_SIZE }
#define CT_ARG(s)	{ .kind = KF_ARG_PTR_TO_BTF_ID, .btf_id = (s) }
#define CT_ARG_U32	{ .kind = KF_ARG_SCALAR }

static const struct bpf_kfunc_proto nf_ct_kfuncs[] = {
	{ .name = "bpf_xdp_ct_alloc", .func = bpf_xdp_ct_alloc,
	  .flags = KF_ACQUIRE | KF_RET_NULL,
	  .ret = KF_RET_PTR_TO_BTF_ID, .ret_btf_id = BTF_STRUCT_NF_CONN_INIT,
	  .nargs = 5, .args = { CT_ARG_CTX, CT_ARG_MEM_SZ, CT_ARG_MEM_SZ } },
	{ .name = "bpf_xdp_ct_lookup", .func = bpf_xdp_ct_lookup,
	  .flags = KF_ACQUIRE | KF_RET_NULL,
	  .ret = KF_RET_PTR_TO_BTF_ID, .ret_btf_id = BTF_STRUCT_NF_CONN,
	  .nargs = 5, .args = { CT_ARG_CTX, CT_ARG_MEM_SZ, CT_ARG_MEM_SZ } },
	{ .name = "bpf_ct_insert_entry", .func = bpf_ct_insert_entry,
	  .flags = KF_ACQUIRE | KF_RET_NULL | KF_RELEASE,
	  .ret = KF_RET_PTR_TO_BTF_ID, .ret_btf_id = BTF_STRUCT_NF_CONN,
	  .nargs = 1, .args = { CT_ARG(BTF_STRUCT_NF_CONN_INIT) } },
	{ .name = "bpf_ct_release", .func = bpf_ct_noop, .flags = KF_RELEASE,
	  .ret = KF_RET_VOID, .nargs = 1, .args = { CT_ARG(BTF_STRUCT_NF_CONN) } },
	{ .name = "bpf_ct_set_timeout", .func = bpf_ct_noop, .flags = KF_TRUSTED_ARGS,
	  .ret = KF_RET_VOID, .nargs = 2, .args = { CT_ARG(BTF_STRUCT_NF_CONN_INIT), CT_ARG_U32 } },
	{ .name = "bpf_ct_change_timeout", .func = bpf_ct_change_einval, .flags = KF_TRUSTED_ARGS,
	  .ret = KF_RET_INT, .nargs = 2, .args = { CT_ARG(BTF_STRUCT_NF_CONN), CT_ARG_U32 } },
	{ .name = "bpf_ct_set_status", .func = bpf_ct_change_einval, .flags = KF_TRUSTED_ARGS,
	  .ret = KF_RET_INT, .nargs = 2, .args = { CT_ARG(BTF_STRUCT_NF_CONN_INIT), CT_ARG_U32 } },
	{ .name = "bpf_ct_change_status", .func = bpf_ct_change_einval, .flags = KF_TRUSTED_ARGS,
	  .ret = KF_RET_INT, .nargs = 2, .args = { CT_ARG(BTF_STRUCT_NF_CONN), CT_ARG_U32 } },
};

const struct btf_kfunc_id_set nf_conntrack_kfunc_set = {
	.set = nf_ct_kfuncs,
	.cnt = ARRAY_SIZE(nf_ct_kfuncs),
};
