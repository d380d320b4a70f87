/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kfuncs the example and test programs call, declared as the kernel
 * defines them (what vmlinux.h would give). libbpf and uxdp match each
 * prototype against the kernel's, so the structs are complete types.
 */
#ifndef _UXDP_EXAMPLES_BPF_KFUNCS_H
#define _UXDP_EXAMPLES_BPF_KFUNCS_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* newer than the system's libbpf headers */
#ifndef bpf_ksym_exists
#define bpf_ksym_exists(sym)	(!!(sym))
#endif

struct bpf_ct_opts {
	__s32 netns_id;
	__s32 error;
	__u8 l4proto;
	__u8 dir;
	__u8 reserved[2];
};

/* a field read from it is relocated to the kernel's offset (CO-RE) */
struct nf_conn {
	unsigned long status;
} __attribute__((preserve_access_index));

extern struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *ctx, struct bpf_sock_tuple *tuple,
					 __u32 tuple__sz, struct bpf_ct_opts *opts,
					 __u32 opts__sz) __ksym;
struct nf_conn___init {
	struct nf_conn ct;
};

extern struct nf_conn___init *bpf_xdp_ct_alloc(struct xdp_md *ctx, struct bpf_sock_tuple *tuple,
					       __u32 tuple__sz, struct bpf_ct_opts *opts,
					       __u32 opts__sz) __ksym;
extern void bpf_ct_release(struct nf_conn *ct) __ksym;
/* kernel-internal (include/net/xdp.h): complete, as libbpf matches it */
enum xdp_rss_hash_type {
	XDP_RSS_TYPE_NONE = 0,
};

extern int bpf_xdp_metadata_rx_timestamp(const struct xdp_md *ctx, __u64 *timestamp) __ksym;
extern int bpf_xdp_metadata_rx_hash(const struct xdp_md *ctx, __u32 *hash,
				    enum xdp_rss_hash_type *rss_type) __ksym;
extern int bpf_xdp_metadata_rx_vlan_tag(const struct xdp_md *ctx, __be16 *vlan_proto,
					__u16 *vlan_tci) __ksym;

/* dynptrs (kernel/bpf/helpers.c, net/core/filter.c) */
extern int bpf_dynptr_from_xdp(struct xdp_md *x, __u64 flags,
			       struct bpf_dynptr *ptr__uninit) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *p, __u32 offset, void *buffer__opt,
			      __u32 buffer__szk) __ksym;
extern void *bpf_dynptr_slice_rdwr(const struct bpf_dynptr *p, __u32 offset,
				   void *buffer__opt, __u32 buffer__szk) __ksym;
extern int bpf_dynptr_adjust(const struct bpf_dynptr *p, __u32 start, __u32 end) __ksym;
extern bool bpf_dynptr_is_null(const struct bpf_dynptr *p) __ksym;
extern bool bpf_dynptr_is_rdonly(const struct bpf_dynptr *p) __ksym;
extern __u32 bpf_dynptr_size(const struct bpf_dynptr *p) __ksym;
extern int bpf_dynptr_clone(const struct bpf_dynptr *p, struct bpf_dynptr *clone__uninit) __ksym;

#endif
