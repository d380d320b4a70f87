/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kfuncs uxdp implements: each one's name, the kernel's flags and the
 * meaning of its BTF prototype, as check_kfunc_call() reads it. The kernel
 * derives an argument's kind from vmlinux BTF (a pointer to struct xdp_md
 * is the ctx, a pointer followed by an argument named "*__sz" is memory of
 * that size, a name ending in "__opt" may be NULL ...); uxdp has no
 * vmlinux, so each prototype spells the kinds the kernel would derive.
 *
 * Ids: the loader resolves an `extern ... __ksym` call to the id of the
 * kfunc of that name, as libbpf resolves it to its vmlinux BTF id. uxdp's
 * ids live in their own space (BTF_KFUNC_ID_BASE + index), so an id taken
 * from the kernel's BTF is refused rather than misread.
 *
 * The UAPI <linux/btf.h> (BTF's format) comes from the system, pulled in
 * below.
 *
 * Kernel: include/linux/btf.h (KF_* flags, struct btf_kfunc_id_set),
 *	   kernel/bpf/btf.c register_btf_kfunc_id_set(), btf_kfunc_id_set_contains()
 */
#ifndef _UXDP_LINUX_BTF_H
#define _UXDP_LINUX_BTF_H

#include_next <linux/btf.h>	/* the UAPI: struct btf_type, BTF_KIND_* */

#include <linux/types.h>

/* kfunc flags, the kernel's values */
#define KF_ACQUIRE	(1 << 0)	/* returns a reference */
#define KF_RELEASE	(1 << 1)	/* releases its referenced argument */
#define KF_RET_NULL	(1 << 2)	/* may return NULL */
#define KF_TRUSTED_ARGS	(1 << 4)	/* pointer arguments must be trusted (not NULL) */
/* uxdp: a device-bound kfunc (the kernel's bpf_dev_bound_kfunc_id()) */
#define KF_DEV_BOUND	(1u << 31)

#define BTF_KFUNC_ID_BASE	(1u << 20)
#define BTF_KFUNC_MAX_ARGS	5

/* What an argument is, as get_kfunc_ptr_arg_type() would classify it. */
enum kfunc_arg_kind {
	KF_ARG_SCALAR,		/* an integer */
	KF_ARG_PTR_TO_CTX,	/* struct xdp_md * */
	KF_ARG_PTR_TO_MEM,	/* pointer to a scalar type of @size bytes */
	KF_ARG_PTR_TO_MEM_SIZE,	/* memory whose size is the next argument ("__sz") */
	KF_ARG_CONST_SIZE,	/* that size */
	KF_ARG_PTR_TO_BTF_ID,	/* pointer to the kernel struct @btf_id */
	KF_ARG_PTR_TO_DYNPTR,	/* struct bpf_dynptr * on the stack */
};

/* argument annotations (parameter name suffixes in the kernel) */
#define KF_ARG_F_OPT	(1 << 0)	/* "__opt": NULL allowed (with size 0) */
#define KF_ARG_F_UNINIT	(1 << 1)	/* "__uninit": a dynptr the kfunc constructs */
#define KF_ARG_F_CONST	(1 << 2)	/* "__szk": the size must be a known constant */

/* Kernel structs kfuncs hand out (PTR_TO_BTF_ID), uxdp's own numbering. */
enum btf_kernel_struct {
	BTF_STRUCT_NONE,
	BTF_STRUCT_NF_CONN,		/* struct nf_conn */
	BTF_STRUCT_NF_CONN_INIT,	/* struct nf_conn___init */
	BTF_STRUCT_FLOW_OFFLOAD_TUPLE_RHASH,	/* struct flow_offload_tuple_rhash */
};

enum kfunc_ret_kind {
	KF_RET_INT,		/* a scalar */
	KF_RET_VOID,
	KF_RET_PTR_TO_BTF_ID,	/* pointer to the kernel struct ret_btf_id */
	/* a slice of the dynptr argument, of the constant size argument's
	 * bytes (bpf_dynptr_slice, bpf_dynptr_slice_rdwr) */
	KF_RET_DYNPTR_SLICE_RDONLY,
	KF_RET_DYNPTR_SLICE_RDWR,
};

struct kfunc_arg {
	u8 kind;		/* enum kfunc_arg_kind */
	u8 flags;		/* KF_ARG_F_* */
	u16 size;		/* KF_ARG_PTR_TO_MEM */
	union {
		u32 btf_id;	/* KF_ARG_PTR_TO_BTF_ID: enum btf_kernel_struct */
		/* KF_ARG_PTR_TO_DYNPTR with KF_ARG_F_UNINIT: the enum
		 * bpf_dynptr_type made, BPF_DYNPTR_TYPE_INVALID for the type
		 * of the kfunc's initialised dynptr argument (a clone) */
		u32 dynptr_type;
	};
};

/*
 * One kfunc. @func is called as a helper is: R1..R5 as u64, result in R0.
 * The kernel's name of the kfunc is @name; BTF's prototype is @args
 * (@nargs of them) and @ret.
 */
struct bpf_kfunc_proto {
	const char *name;
	u64 (*func)(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5);
	u32 flags;		/* KF_* */
	u8 ret;			/* enum kfunc_ret_kind */
	u32 ret_btf_id;		/* KF_RET_PTR_TO_BTF_ID: enum btf_kernel_struct */
	u8 nargs;
	struct kfunc_arg args[BTF_KFUNC_MAX_ARGS];
};

/* A set of kfuncs one subsystem registers (kernel: struct btf_kfunc_id_set). */
struct btf_kfunc_id_set {
	const struct bpf_kfunc_proto *set;
	u32 cnt;
};

/* The sets (net/core/xdp.c, net/core/filter.c, kernel/bpf/helpers.c,
 * net/netfilter/nf_conntrack_bpf.c, ...). */
extern const struct btf_kfunc_id_set xdp_metadata_kfunc_set;
extern const struct btf_kfunc_id_set xdp_kfunc_set;
extern const struct btf_kfunc_id_set common_kfunc_set;
extern const struct btf_kfunc_id_set nf_conntrack_kfunc_set;
extern const struct btf_kfunc_id_set nf_flow_kfunc_set;

/* The id of the kfunc named @name, or 0 when uxdp has none. */
u32 btf_kfunc_id_by_name(const char *name);
/* The kfunc of id @btf_id, or NULL. */
const struct bpf_kfunc_proto *btf_kfunc_by_id(u32 btf_id);
/* The id of the kfunc implemented by @func (bpf_insn_prepare_dump()), or 0. */
u32 btf_kfunc_id_by_func(const void *func);
/* The kernel name of struct @id ("nf_conn"), for messages. */
const char *btf_kernel_struct_name(u32 id);
/* Its size in bytes: what a program may read through a pointer to it. */
u32 btf_kernel_struct_size(u32 id);

#endif
