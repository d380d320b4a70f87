// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_xdp_flow_lookup(), the flowtable kfunc: with the kernel's prototype
 * and flags (KF_TRUSTED_ARGS | KF_RET_NULL). uxdp has no flowtable on any
 * device, so a lookup with valid options ends as the kernel's does on a
 * device without one: NULL with opts->error = -ENOENT (-EINVAL for an
 * options size other than 4, -EAFNOSUPPORT for a family other than
 * AF_INET and AF_INET6).
 *
 * Kernel: net/netfilter/nf_flow_table_bpf.c
 */
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>

#include <linux/bpf.h>
#include <linux/btf.h>

#define NF_BPF_FLOWTABLE_OPTS_SZ	4

static u64 bpf_xdp_flow_lookup(u64 ctx, u64 fib_tuple, u64 opts, u64 opts_len, u64 r5)
{
	const struct bpf_fib_lookup *fib = (const void *)(uintptr_t)fib_tuple;
	s32 *error = (s32 *)(uintptr_t)opts;	/* struct bpf_flowtable_opts */

	(void)ctx, (void)r5;
	if ((u32)opts_len != NF_BPF_FLOWTABLE_OPTS_SZ)
		*error = -EINVAL;
	else if (fib->family != AF_INET && fib->family != AF_INET6)
		*error = -EAFNOSUPPORT;
	else
		*error = -ENOENT;
	return 0;
}

static const struct bpf_kfunc_proto nf_ft_kfuncs[] = {
	{ .name = "bpf_xdp_flow_lookup", .func = bpf_xdp_flow_lookup,
	  .flags = KF_TRUSTED_ARGS | KF_RET_NULL,
	  .ret = KF_RET_PTR_TO_BTF_ID, .ret_btf_id = BTF_STRUCT_FLOW_OFFLOAD_TUPLE_RHASH,
	  .nargs = 4, .args = {
		{ .kind = KF_ARG_PTR_TO_CTX },
		{ .kind = KF_ARG_PTR_TO_MEM, .size = sizeof(struct bpf_fib_lookup) },
		{ .kind = KF_ARG_PTR_TO_MEM, .size = NF_BPF_FLOWTABLE_OPTS_SZ },
		{ .kind = KF_ARG_SCALAR } } },
};

const struct btf_kfunc_id_set nf_flow_kfunc_set = {
	.set = nf_ft_kfuncs,
	.cnt = ARRAY_SIZE(nf_ft_kfuncs),
};
