/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Program lifecycle and run entry points (kernel/bpf/core.c section) and the
 * XDP redirect state shared by helpers and devmap (net/core/filter.c
 * section). The classic-BPF UAPI (struct sock_filter) comes from the system
 * header pulled in below.
 *
 * Kernel: include/linux/filter.h
 */
#ifndef _UXDP_LINUX_FILTER_H
#define _UXDP_LINUX_FILTER_H

#include_next <linux/filter.h>

#include <limits.h>
#include <stdint.h>

#include <linux/bpf.h>

/* ---- kernel/bpf/core.c, kernel/bpf/verifier.c --------------------------- */

/*
 * bpf_prog_alloc() - a program of @len instruction slots, zeroed, with its
 * aux allocated and one reference. Return: the program or ERR_PTR(-E2BIG /
 * -ENOMEM). bpf_prog_free() frees it and drops its map references; most
 * callers want bpf_prog_put() instead. Both accept NULL (free only).
 */
struct bpf_prog *bpf_prog_alloc(u32 len);
void bpf_prog_free(struct bpf_prog *fp);

/*
 * bpf_check() - the load-time checker. Validates (*prog)->insnsi as libbpf
 * hands them to the kernel after relocation (ld_imm64 BPF_PSEUDO_MAP_FD /
 * BPF_PSEUDO_MAP_VALUE carry map ids), resolves maps (taking references,
 * kept in aux->used_maps) and helpers, rewrites struct xdp_md accesses,
 * marks unproven memory accesses for run-time checks. It does not choose
 * how the program runs: bpf_prog_load() does, after it. Program types:
 * BPF_PROG_TYPE_XDP, and BPF_PROG_TYPE_UNSPEC as a raw test program (r1 =
 * memory, r2 = its length; accesses through r1 are checked against that
 * memory, see bpf_prog_run_raw()).
 * @log: if not NULL, receives "insn N: reason" lines (NUL-terminated,
 * truncated to @log_size).
 * Return: 0, or -EINVAL (malformed), -EACCES (unsafe access, pointer leak,
 * uninitialised read), -E2BIG (too large or too complex), -ENOMEM.
 */
int bpf_check(struct bpf_prog **prog, char *log, u32 log_size);

/*
 * bpf_prog_load() - the one way a program becomes runnable: bpf_check(),
 * then bpf_prog_select_runtime() (interpreter or JIT), in the order of the
 * kernel's BPF_PROG_LOAD (kernel/bpf/syscall.c). Used by the object loader,
 * the PTP classifier, the tests and the benchmarks. The caller allocates
 * an id (bpf_prog_alloc_id()) if user space is to see the program, and on
 * failure still owns *@prog (bpf_prog_put()). Return: as bpf_check(), or
 * -ENOMEM from the runtime.
 */
int bpf_prog_load(struct bpf_prog **prog, char *log, u32 log_size);

/*
 * Point prog->bpf_func at the interpreter and build its decoded copy of the
 * instructions (kernel/bpf/core.c); JIT-compile it where
 * net.core.bpf_jit_enable says so. Called by bpf_prog_load(), and again to rebuild the runtime of
 * a loaded program (coverage, benchmarks). Return: 0 or
 * -ENOMEM.
 */
int bpf_prog_select_runtime(struct bpf_prog *prog);

/*
 * bpf_prog_run_raw() - run a checked BPF_PROG_TYPE_UNSPEC program with r1 =
 * @mem, r2 = @len. Return: the full 64-bit R0, or 0 with *@reason set when
 * the run was aborted (@reason may be NULL).
 */
u64 bpf_prog_run_raw(const struct bpf_prog *prog, void *mem, u64 len,
		     enum bpf_abort_reason *reason);

/*
 * The JIT (arch/x86/net/bpf_jit_comp.c, x86-64 only). bpf_jit_enable is the
 * kernel's knob (sysctl net.core.bpf_jit_enable): -1 until first read, then
 * 0 or 1 (environment UXDP_BPF_JIT=0|1, else the default);
 * bpf_jit_enabled() reads it. bpf_int_jit_compile() returns the program,
 * JITed (prog->jited, bpf_func) or unchanged with aux->jit_reason saying
 * why. bpf_jit_prog_run() runs the image as __bpf_prog_run() runs the
 * interpreter (aborts counted, *@reason may be NULL); bpf_prog_run_interp()
 * always runs the interpreter, whatever bpf_func is (differential tests).
 */
extern int bpf_jit_enable;
bool bpf_jit_enabled(void);
/*
 * The hardened runtime (net.core.bpf_hardened, environment
 * UXDP_BPF_HARDENED=0|1): programs loaded while it is 1 get the run-time
 * check of every memory access and helper memory argument and the
 * instruction budget (kernel/bpf/fixups.c). -1 until first read.
 */
extern int bpf_hardened;
bool bpf_hardened_enabled(void);
struct xdp_buff;
struct bpf_prog *bpf_int_jit_compile(struct bpf_prog *prog);
void bpf_jit_free(struct bpf_prog *prog);
u64 bpf_jit_prog_run(const struct bpf_prog *prog, const struct xdp_buff *xdp, void *mem,
		     u64 mem_len, enum bpf_abort_reason *reason);
unsigned int bpf_prog_run_xdp_jit(const void *ctx, const struct bpf_prog *prog);
unsigned int bpf_prog_run_raw_jit(const void *ctx, const struct bpf_prog *prog);
u64 bpf_prog_run_interp(const struct bpf_prog *prog, const struct xdp_buff *xdp, void *mem,
			u64 mem_len, enum bpf_abort_reason *reason);

/* Human-readable name of an abort reason (the X-macro's string). */
const char *bpf_abort_reason_str(enum bpf_abort_reason reason);

/* ---- net/core/filter.c -------------------------------------------------- */

/*
 * Where bpf_redirect()/bpf_redirect_map() leave their decision for
 * xdp_do_redirect(). One per worker (the kernel keeps it per CPU before
 * 6.11, on the NAPI poll's stack since); consumed by xdp_do_redirect().
 */
struct bpf_redirect_info {
	u64 tgt_index;
	void *tgt_value;
	struct bpf_map *map;
	u32 flags;
	u32 map_id;		/* INT_MAX with map_type UNSPEC: redirect by ifindex */
	enum bpf_map_type map_type;
	int nh_family;
	u32 kern_flags;
};

extern __thread struct bpf_redirect_info bpf_redirect_info;

/*
 * BPF_CALL_n(name, type1, arg1, ...): define helper @name with the calling
 * convention of struct bpf_func_proto (five u64 registers) around a body
 * that sees typed arguments. The generated functions are static: helper
 * names such as bpf_map_lookup_elem would otherwise collide with libbpf's.
 */
#define __BPF_MAP_0(m, v, ...) v
#define __BPF_MAP_1(m, v, t, a, ...) m(t, a)
#define __BPF_MAP_2(m, v, t, a, ...) m(t, a), __BPF_MAP_1(m, v, __VA_ARGS__)
#define __BPF_MAP_3(m, v, t, a, ...) m(t, a), __BPF_MAP_2(m, v, __VA_ARGS__)
#define __BPF_MAP_4(m, v, t, a, ...) m(t, a), __BPF_MAP_3(m, v, __VA_ARGS__)
#define __BPF_MAP_5(m, v, t, a, ...) m(t, a), __BPF_MAP_4(m, v, __VA_ARGS__)
#define __BPF_MAP(n, ...) __BPF_MAP_##n(__VA_ARGS__)

#define __BPF_PAD_5
#define __BPF_PAD_4 , u64 __ur_5
#define __BPF_PAD_3 , u64 __ur_4, u64 __ur_5
#define __BPF_PAD_2 , u64 __ur_3, u64 __ur_4, u64 __ur_5
#define __BPF_PAD_1 , u64 __ur_2, u64 __ur_3, u64 __ur_4, u64 __ur_5

#define __BPF_CAST(t, a)	(t)(uintptr_t)a
#define __BPF_DECL_ARGS(t, a)	t a
#define __BPF_DECL_REGS(t, a)	u64 a
#define __BPF_V			void
#define __BPF_N

#define BPF_CALL_x(x, name, ...)						\
	static __always_inline u64 ____##name(__BPF_MAP(x, __BPF_DECL_ARGS, __BPF_V, __VA_ARGS__)); \
	static u64 name(__BPF_MAP(x, __BPF_DECL_REGS, u64 __ur_1, __VA_ARGS__) __BPF_PAD_##x) \
	{									\
		return ____##name(__BPF_MAP(x, __BPF_CAST, __BPF_N, __VA_ARGS__)); \
	}									\
	static __always_inline u64 ____##name(__BPF_MAP(x, __BPF_DECL_ARGS, __BPF_V, __VA_ARGS__))

#define __BPF_PAD_0 , u64 __ur_2, u64 __ur_3, u64 __ur_4, u64 __ur_5
#define BPF_CALL_0(name, ...)	BPF_CALL_x(0, name, __VA_ARGS__)
#define BPF_CALL_1(name, ...)	BPF_CALL_x(1, name, __VA_ARGS__)
#define BPF_CALL_2(name, ...)	BPF_CALL_x(2, name, __VA_ARGS__)
#define BPF_CALL_3(name, ...)	BPF_CALL_x(3, name, __VA_ARGS__)
#define BPF_CALL_4(name, ...)	BPF_CALL_x(4, name, __VA_ARGS__)
#define BPF_CALL_5(name, ...)	BPF_CALL_x(5, name, __VA_ARGS__)

/*
 * IPv4/IPv6 route lookup behind bpf_fib_lookup(). Until uxdp has a FIB the
 * hook is NULL and the helper answers BPF_FIB_LKUP_RET_NOT_FWDED after the
 * kernel's argument checks; the routing work sets it to its
 * bpf_ipv4_fib_lookup()-like function, which gets the validated params and
 * flags and returns a BPF_FIB_LKUP_RET_* code or -errno.
 */
struct bpf_fib_lookup;
struct xdp_buff;
extern int (*bpf_fib_lookup_hook)(struct xdp_buff *xdp, struct bpf_fib_lookup *params,
				  u32 flags);

/*
 * Device lookup by ifindex for bpf_check_mtu() (kernel: dev_get_by_index_rcu
 * in the ingress device's netns). NULL until the device layer exists; the
 * helper then only knows xdp->rxq->dev.
 */
struct net_device;
extern struct net_device *(*bpf_dev_get_by_index_hook)(int ifindex);

/*
 * Byte access to an xdp_buff across its frags (net/core/filter.c), for the
 * XDP dynptr: a direct pointer to [offset, offset + len) when it lies in
 * one piece, NULL when it spans pieces, ERR_PTR on a bad range; the copy
 * in (@flush) or out of @buf; the load and store of the helpers.
 */
void *bpf_xdp_pointer(struct xdp_buff *xdp, u32 offset, u32 len);
void bpf_xdp_copy_buf(struct xdp_buff *xdp, unsigned long off, void *buf, unsigned long len,
		      bool flush);
int __bpf_xdp_load_bytes(struct xdp_buff *xdp, u32 offset, void *buf, u32 len);
/* Does [addr, addr + size) lie in one frag of @xdp? (a dynptr slice may) */
bool bpf_xdp_frags_contain(const struct xdp_buff *xdp, u64 addr, u64 size);
int __bpf_xdp_store_bytes(struct xdp_buff *xdp, u32 offset, void *buf, u32 len);

extern const struct bpf_func_proto bpf_xdp_redirect_proto;
extern const struct bpf_func_proto bpf_xdp_redirect_map_proto;
extern const struct bpf_func_proto bpf_csum_diff_proto;
extern const struct bpf_func_proto bpf_xdp_adjust_head_proto;
extern const struct bpf_func_proto bpf_xdp_adjust_tail_proto;
extern const struct bpf_func_proto bpf_xdp_adjust_meta_proto;
extern const struct bpf_func_proto bpf_xdp_get_buff_len_proto;
extern const struct bpf_func_proto bpf_xdp_load_bytes_proto;
extern const struct bpf_func_proto bpf_xdp_store_bytes_proto;
extern const struct bpf_func_proto bpf_xdp_fib_lookup_proto;
extern const struct bpf_func_proto bpf_xdp_check_mtu_proto;
extern const struct bpf_func_proto bpf_xdp_event_output_proto;

static __always_inline struct bpf_redirect_info *bpf_net_ctx_get_ri(void)
{
	return &bpf_redirect_info;
}

/*
 * The body of every map type's map_redirect: look @index up; on a miss
 * without BPF_F_BROADCAST the low two flag bits are the verdict; flags
 * outside those bits and @flag_mask abort. The last call wins.
 */
static __always_inline long
__bpf_xdp_redirect_map(struct bpf_map *map, u64 index, u64 flags, const u64 flag_mask,
		       void *(*lookup_elem)(struct bpf_map *map, u32 key))
{
	struct bpf_redirect_info *ri = bpf_net_ctx_get_ri();
	const u64 verdict_mask = XDP_ABORTED | XDP_DROP | XDP_PASS | XDP_TX;

	if (unlikely(flags & ~(verdict_mask | flag_mask)))
		return XDP_ABORTED;

	ri->tgt_value = lookup_elem(map, (u32)index);
	if (unlikely(!ri->tgt_value) && !(flags & BPF_F_BROADCAST)) {
		ri->map_id = INT_MAX;
		ri->map_type = BPF_MAP_TYPE_UNSPEC;
		return flags & verdict_mask;
	}
	ri->tgt_index = index;
	ri->map_id = map->id;
	ri->map_type = map->map_type;
	if (flags & BPF_F_BROADCAST) {
		ri->map = map;
		ri->flags = (u32)flags;
	} else {
		ri->map = NULL;
		ri->flags = 0;
	}
	return XDP_REDIRECT;
}


/* ---- XDP redirect engine (net/core/dev_xdp.c, kernel/bpf/devmap_xmit.c) -- */

struct xdp_buff;
struct xdp_frame;

/*
 * xdp_do_redirect() - send @xdp where the program's last bpf_redirect*()
 * call aimed it, consuming the redirect info. The buffer becomes an
 * xdp_frame in its own headroom and goes onto a bulk queue.
 * Return: 0 (the frame is queued and no longer the caller's), or -errno
 * and the caller frees the buffer and counts the drop: -EOVERFLOW (no
 * headroom for the frame), -EINVAL (no target), -EOPNOTSUPP, -ENETDOWN,
 * -EMSGSIZE, -EBADRQC (unknown map type).
 */
int xdp_do_redirect(struct net_device *dev, struct xdp_buff *xdp, struct bpf_prog *prog);
/*
 * Count @n frames a driver dropped after xdp_do_redirect() returned @err:
 * on the target device when one refused them (veth without an XDP program
 * on its peer: PEER_NO_XDP), else on @dev.
 */
void xdp_do_redirect_count_drop(struct net_device *dev, int err, unsigned int n);
/* Transmit every bulk queue this CPU filled in the current poll (XDP_XMIT_FLUSH). */
void xdp_do_flush(void);
/* The kernel's xdp_ok_fwd_dev(): -ENETDOWN, -EMSGSIZE (len > mtu + hard_header_len + 4) or 0. */
int xdp_ok_fwd_dev(const struct net_device *fwd, unsigned int pktlen);
int dev_map_enqueue(struct net_device *dev, struct xdp_frame *xdpf, struct net_device *dev_rx);
int dev_xdp_enqueue(struct net_device *dev, struct xdp_frame *xdpf, struct net_device *dev_rx);
/* dev_map_enqueue() for an entry with a devmap program (run at bq_xmit_all()). */
int dev_map_enqueue_prog(struct net_device *dev, struct xdp_frame *xdpf,
			 struct net_device *dev_rx, struct bpf_prog *xdp_prog);
void __dev_flush(void);
/* Frames waiting on this CPU's flush list (a poll forgot xdp_do_flush()). */
bool dev_check_flush(void);

#endif
