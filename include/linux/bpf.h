/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The eBPF object model shared by the interpreter, the load-time checker,
 * the maps, the helpers and the object loader: struct bpf_map and its ops,
 * struct bpf_prog, and helper prototypes. The UAPI (struct bpf_insn, enum
 * bpf_map_type, BPF_* opcodes and flags, union bpf_attr) comes from the
 * system's <linux/bpf.h>, pulled in below.
 *
 * Ownership: maps copy key and value on update; a lookup returns a pointer
 * into map storage that stays valid until that element is deleted (for
 * preallocated maps: until the map is freed). All values of one map live in
 * one contiguous arena [map->arena_lo, map->arena_hi): the interpreter's
 * run-time checks use it to keep a program's map-value accesses inside the
 * map's own memory.
 *
 * Kernel: include/linux/bpf.h
 */
#ifndef _UXDP_LINUX_BPF_H
#define _UXDP_LINUX_BPF_H

#include_next <linux/bpf.h>

#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/types.h>
#include <uxdp/uxdp_bpf_abort.h>

struct bpf_map;
struct bpf_prog;
struct btf;

/* ---- maps --------------------------------------------------------------- */

/*
 * One instance per map type, bound to its enum value in
 * include/linux/bpf_types.h. Return conventions are the kernel's: 0 or
 * -errno; lookups return NULL on a miss; map_alloc returns ERR_PTR.
 *
 * The *_sys variants are the syscall side (BPF_MAP_LOOKUP_ELEM and friends,
 * bpftool, `map update` in scripts): they copy whole values, which for
 * per-CPU maps is round_up(value_size, 8) * num_possible_cpus() bytes.
 * When a type leaves them NULL, the generic code copies value_size bytes
 * through map_lookup_elem/map_update_elem.
 */
struct bpf_map_ops {
	int (*map_alloc_check)(union bpf_attr *attr);
	struct bpf_map *(*map_alloc)(union bpf_attr *attr);
	void (*map_free)(struct bpf_map *map);
	int (*map_get_next_key)(struct bpf_map *map, void *key, void *next_key);

	/* program side (called by helpers from the interpreter) */
	void *(*map_lookup_elem)(struct bpf_map *map, void *key);
	long (*map_update_elem)(struct bpf_map *map, void *key, void *value, u64 flags);
	long (*map_delete_elem)(struct bpf_map *map, void *key);
	long (*map_push_elem)(struct bpf_map *map, void *value, u64 flags);
	long (*map_pop_elem)(struct bpf_map *map, void *value);
	long (*map_peek_elem)(struct bpf_map *map, void *value);
	long (*map_redirect)(struct bpf_map *map, u64 key, u64 flags);

	/* syscall side */
	int (*map_lookup_elem_sys)(struct bpf_map *map, void *key, void *value, u64 flags);
	int (*map_update_elem_sys)(struct bpf_map *map, void *key, void *value, u64 flags);
	int (*map_delete_elem_sys)(struct bpf_map *map, void *key);

	/* BPF_PSEUDO_MAP_VALUE (global data): address of element 0 + off */
	int (*map_direct_value_addr)(const struct bpf_map *map, u64 *imm, u32 off);
	/* fd maps (PROG_ARRAY, *_OF_MAPS, DEVMAP): what a slot holds */
	void *(*map_fd_get_ptr)(struct bpf_map *map, u32 fd);
	void (*map_fd_put_ptr)(struct bpf_map *map, void *ptr);

	/* may a map of this shape be an inner map of @meta0 (map_in_map.c) */
	bool (*map_meta_equal)(const struct bpf_map *meta0, const struct bpf_map *meta1);
	/* the last user reference is gone (PROG_ARRAY drops its programs) */
	void (*map_release_uref)(struct bpf_map *map);
};

struct bpf_map {
	const struct bpf_map_ops *ops;
	enum bpf_map_type map_type;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u64 map_extra;
	u32 map_flags;
	u32 id;
	int refcnt;
	bool frozen;			/* BPF_MAP_FREEZE / .rodata: no syscall writes */
	bool rdonly_prog;		/* BPF_F_RDONLY_PROG: programs cannot write */
	struct bpf_map *inner_map_meta;	/* *_OF_MAPS: shape every inner map must have */
	void *arena_lo;			/* all element values live in [arena_lo, arena_hi) */
	void *arena_hi;
	char name[BPF_OBJ_NAME_LEN];
	int usercnt;			/* user references ("fds"): last one calls map_release_uref */
	u32 fd_flags;			/* BPF_F_RDONLY / BPF_F_WRONLY: what the syscall side may do */
	bool id_handle;			/* map_create()'s user reference not yet dropped by id */
	bool has_spin_lock;		/* a struct bpf_spin_lock in the value ... */
	u32 spin_lock_off;		/* ... at this offset */
};

/* ARRAY, PERCPU_ARRAY, PROG_ARRAY, *_OF_MAPS share this layout (kernel's). */
struct bpf_array {
	struct bpf_map map;
	u32 elem_size;
	u32 index_mask;
	union {
		char value[0] __aligned(8);	/* ARRAY: max_entries * elem_size */
		void *ptrs[0] __aligned(8);	/* PROG_ARRAY: struct bpf_prog *; *_OF_MAPS */
		void *pptrs[0] __aligned(8);	/* PERCPU_ARRAY: per-CPU value blocks */
	};
};

/* Map registry ("fd table"): maps are referred to by small ids. */
struct bpf_map *bpf_map_get(u32 id);		/* borrowed; NULL if none */
void bpf_map_inc(struct bpf_map *map);
void bpf_map_put(struct bpf_map *map);		/* last put frees; NULL ok */

int bpf_map_alloc_id(struct bpf_map *map);	/* new id > 0, or -ENOSPC */
void bpf_map_free_id(struct bpf_map *map);
int bpf_prog_alloc_id(struct bpf_prog *prog);
void bpf_prog_free_id(struct bpf_prog *prog);

/* Common init of the fields above from @attr (kernel: bpf_map_init_from_attr). */
void bpf_map_init_from_attr(struct bpf_map *map, const union bpf_attr *attr);

/* One ops instance per map type, bound in <linux/bpf_types.h>. */
#define BPF_MAP_TYPE(_id, _ops) extern const struct bpf_map_ops _ops;
#include <linux/bpf_types.h>
#undef BPF_MAP_TYPE

/*
 * BPF_MAP_CREATE (kernel/bpf/syscall.c map_create()): checks, allocates,
 * names and registers a map. Returns the new id (> 0; holding one user
 * reference, dropped with bpf_map_put_with_uref()) or -errno.
 */
int map_create(union bpf_attr *attr);
/* As map_create() but returns the map (one user reference) or ERR_PTR. */
struct bpf_map *bpf_map_new(union bpf_attr *attr);
void bpf_map_inc_with_uref(struct bpf_map *map);
void bpf_map_put_with_uref(struct bpf_map *map);	/* NULL ok */
/* Maps allocated and not yet freed (tests end with this at 0). */
int bpf_map_alive_count(void);
/* Next registered map id after @id, or 0. */
u32 bpf_map_get_next_id(u32 id);

/*
 * The syscall side (BPF_MAP_LOOKUP_ELEM, ..._UPDATE_ELEM, ..._DELETE_ELEM,
 * ..._GET_NEXT_KEY, BPF_MAP_FREEZE) with the kernel's checks and error
 * codes. Values are bpf_map_value_size() bytes: round_up(value_size, 8) *
 * num_possible_cpus() for per-CPU maps, a u32 id for PROG_ARRAY and
 * *_OF_MAPS (a program id, an inner map id), value_size otherwise.
 */
u32 bpf_map_value_size(const struct bpf_map *map);
int bpf_map_copy_value(struct bpf_map *map, void *key, void *value, u64 flags);
int bpf_map_update_value(struct bpf_map *map, void *key, void *value, u64 flags);
int bpf_map_delete_value(struct bpf_map *map, void *key);
int bpf_map_get_next_key_sys(struct bpf_map *map, void *key, void *next_key);
int bpf_map_freeze(struct bpf_map *map);

/* Shared by the map implementations (kernel: include/linux/bpf.h). */
/* Keys and values may come from a program at any alignment (packet data). */
static inline u32 bpf_get_u32(const void *p)
{
	u32 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * bpf_spin_lock in map values (kernel/bpf/helpers.c). The lock is the
 * value's 4-byte struct bpf_spin_lock word (0 free, 1 held), a real
 * spinlock shared by every worker thread. Values are copied around it:
 * copy_map_value() never writes the destination's lock word (another
 * thread may hold it), copy_map_value_locked() copies under the lock of
 * the map's element (@lock_src: the source is that element), and
 * check_and_init_map_value() zeroes the lock word of a copy handed out.
 * Kernel: include/linux/bpf.h copy_map_value(), kernel/bpf/helpers.c
 */
void __bpf_spin_lock(u32 *lock);
void __bpf_spin_unlock(u32 *lock);
void copy_map_value(const struct bpf_map *map, void *dst, const void *src);
void copy_map_value_locked(const struct bpf_map *map, void *dst, const void *src,
			   bool lock_src);
void check_and_init_map_value(const struct bpf_map *map, void *dst);

static inline bool btf_record_has_spin_lock(const struct bpf_map *map)
{
	return map->has_spin_lock;
}

/*
 * BTF checks of map creation (kernel/bpf/syscall.c map_check_btf()): the
 * value type @value_type_id of @btf (a struct, or a DATASEC for global
 * data) is searched for a struct bpf_spin_lock; the map records where it
 * is. Returns 0 or -errno: -E2BIG for two locks, -EINVAL for an array of
 * them, -EOPNOTSUPP for a lock in a map type other than ARRAY and HASH.
 * A lock not aligned to 4 bytes is no lock, as in the kernel.
 */
int map_check_btf(struct bpf_map *map, const struct btf *btf, u32 value_type_id);

/* get_next_key of index-keyed maps (ARRAY family, DEVMAP, CPUMAP, XSKMAP). */
int array_map_get_next_key(struct bpf_map *map, void *key, void *next_key);

static inline bool bpf_map_flags_access_ok(u32 access_flags)
{
	return (access_flags & (BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG)) !=
	       (BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG);
}

#define BPF_F_ACCESS_MASK	(BPF_F_RDONLY | BPF_F_RDONLY_PROG | \
				 BPF_F_WRONLY | BPF_F_WRONLY_PROG)
#define PCPU_MIN_UNIT_SIZE	(32 << 10)
#define KMALLOC_MAX_SIZE	(1UL << 22)	/* uxdp's stand-in for the slab limit */

/* *_OF_MAPS (kernel/bpf/map_in_map.c) */
struct bpf_map *bpf_map_meta_alloc(u32 inner_map_id);
void bpf_map_meta_free(struct bpf_map *map_meta);
bool bpf_map_meta_equal(const struct bpf_map *meta0, const struct bpf_map *meta1);
void *bpf_map_fd_get_ptr(struct bpf_map *map, u32 inner_map_id);
void bpf_map_fd_put_ptr(struct bpf_map *map, void *ptr);
u32 bpf_map_fd_sys_lookup_elem(void *ptr);

/*
 * Records programs produce (kernel/bpf/ringbuf.c, arraymap.c
 * PERF_EVENT_ARRAY) are kept until a consumer takes them.
 * bpf_event_output_store() is bpf_perf_event_output()'s body: @flags holds
 * the slot (BPF_F_INDEX_MASK, or BPF_F_CURRENT_CPU); the record is @data
 * followed by @ctx_size bytes of @ctx_data. Returns 0, -EINVAL (bad flags),
 * -E2BIG (index >= max_entries), -ENOENT (empty slot), -ENOSPC (store full,
 * record counted as lost).
 */
int bpf_event_output_store(struct bpf_map *map, u64 flags, void *data, u64 size,
			   const void *ctx_data, u64 ctx_size);
typedef int (*bpf_record_cb)(void *ctx, int cpu, void *data, u32 size);
/* Hand each stored record to @cb in order, oldest first, and drop it; a
 * non-zero return from @cb stops early. Returns the number of records or
 * -EINVAL for a map of another type. */
int perf_event_array_consume(struct bpf_map *map, bpf_record_cb cb, void *ctx);
u64 perf_event_array_lost(struct bpf_map *map);
/*
 * DEVMAP/DEVMAP_HASH redirect target: bpf_redirect_map() leaves the slot's
 * entry in bpf_redirect_info.tgt_value; this is its device (NULL when the
 * slot's ifindex names no uxdp device). kernel/bpf/devmap.c
 */
struct net_device;
struct net_device *dev_map_entry_dev(const void *tgt_value);
/* The entry's devmap program (BPF_XDP_DEVMAP), or NULL. */
struct bpf_prog *dev_map_entry_prog(const void *tgt_value);
/*
 * A DEVMAP's slots (max_entries entry pointers, NULL for an empty slot),
 * fixed for the map's life: the JIT's inline bpf_redirect_map() reads them
 * as dev_map_redirect() does. NULL for other map types.
 */
void *const *dev_map_slots(const struct bpf_map *map);
/*
 * BPF_F_BROADCAST: call @fn for every filled slot of a DEVMAP/DEVMAP_HASH
 * (entry as for dev_map_entry_dev(), its key) until @fn returns non-zero,
 * which is returned; 0 after the last slot, -EINVAL for other map types.
 */
int dev_map_for_each_entry(struct bpf_map *map, int (*fn)(void *entry, u32 key, void *ctx), void *ctx);

/* Submitted RINGBUF records, oldest first; discarded ones are skipped. */
int ringbuf_consume(struct bpf_map *map, bpf_record_cb cb, void *ctx);

/* ---- helpers ------------------------------------------------------------ */

/*
 * Helper prototypes as the kernel's struct bpf_func_proto: the verifier
 * types R0 from ret_type and checks each argument against its arg_type.
 * An argument type is a base type (low BPF_BASE_TYPE_BITS bits) with the
 * kernel's flags: MEM_RDONLY memory is only read, MEM_WRITE memory is
 * written by the helper (spilled registers under it are gone), MEM_UNINIT
 * memory need not be initialised before the call, PTR_MAYBE_NULL accepts
 * NULL (with a zero size), MEM_FIXED_SIZE memory is arg_size[] bytes,
 * MEM_ALIGNED memory is aligned to that size. R1..R5 are passed as u64.
 * The protos spell each argument as the kernel 6.18 does.
 * Kernel: include/linux/bpf.h enum bpf_arg_type, enum bpf_type_flag
 */
#define BPF_BASE_TYPE_BITS	8
#define BPF_BASE_TYPE_MASK	((1u << BPF_BASE_TYPE_BITS) - 1)

enum bpf_type_flag {
	PTR_MAYBE_NULL		= 1u << (0 + BPF_BASE_TYPE_BITS),
	MEM_RDONLY		= 1u << (1 + BPF_BASE_TYPE_BITS),
	MEM_RINGBUF		= 1u << (2 + BPF_BASE_TYPE_BITS),
	MEM_UNINIT		= 1u << (7 + BPF_BASE_TYPE_BITS),
	DYNPTR_TYPE_LOCAL	= 1u << (8 + BPF_BASE_TYPE_BITS),
	DYNPTR_TYPE_RINGBUF	= 1u << (9 + BPF_BASE_TYPE_BITS),
	MEM_FIXED_SIZE		= 1u << (10 + BPF_BASE_TYPE_BITS),
	MEM_ALLOC		= 1u << (11 + BPF_BASE_TYPE_BITS),
	PTR_TRUSTED		= 1u << (12 + BPF_BASE_TYPE_BITS),
	DYNPTR_TYPE_SKB		= 1u << (15 + BPF_BASE_TYPE_BITS),
	DYNPTR_TYPE_XDP		= 1u << (16 + BPF_BASE_TYPE_BITS),
	MEM_ALIGNED		= 1u << (17 + BPF_BASE_TYPE_BITS),
	MEM_WRITE		= 1u << (18 + BPF_BASE_TYPE_BITS),
	OBJ_RELEASE		= 1u << (5 + BPF_BASE_TYPE_BITS),
};

#define DYNPTR_TYPE_FLAG_MASK	(DYNPTR_TYPE_LOCAL | DYNPTR_TYPE_RINGBUF | DYNPTR_TYPE_SKB | \
				 DYNPTR_TYPE_XDP)

enum bpf_arg_type {
	ARG_DONTCARE = 0,
	ARG_CONST_MAP_PTR,		/* const argument used as pointer to bpf_map */
	ARG_PTR_TO_MAP_KEY,		/* pointer to stack/packet/map value, key_size bytes */
	ARG_PTR_TO_MAP_VALUE,		/* pointer to value_size bytes */
	ARG_PTR_TO_MEM,			/* memory of the size in the next argument */
	ARG_CONST_SIZE,			/* number of bytes accessed from memory */
	ARG_CONST_SIZE_OR_ZERO,
	ARG_PTR_TO_CTX,
	ARG_ANYTHING,
	ARG_PTR_TO_SPIN_LOCK,		/* struct bpf_spin_lock in a map value */
	ARG_PTR_TO_RINGBUF_MEM,		/* ringbuf record from bpf_ringbuf_reserve (| OBJ_RELEASE) */
	ARG_CONST_ALLOC_SIZE_OR_ZERO,
	ARG_PTR_TO_FUNC,		/* callback (bpf_loop, bpf_for_each_map_elem) */
	ARG_PTR_TO_STACK,
	ARG_PTR_TO_CONST_STR,		/* NUL-terminated string in a read-only map value (.rodata) */
	ARG_PTR_TO_DYNPTR,
	__BPF_ARG_TYPE_MAX,

	ARG_PTR_TO_MAP_VALUE_OR_NULL	= PTR_MAYBE_NULL | ARG_PTR_TO_MAP_VALUE,
	ARG_PTR_TO_MEM_OR_NULL		= PTR_MAYBE_NULL | ARG_PTR_TO_MEM,
	ARG_PTR_TO_CTX_OR_NULL		= PTR_MAYBE_NULL | ARG_PTR_TO_CTX,
	ARG_PTR_TO_STACK_OR_NULL	= PTR_MAYBE_NULL | ARG_PTR_TO_STACK,
	/* written by the helper, need not be initialised */
	ARG_PTR_TO_UNINIT_MEM		= MEM_UNINIT | MEM_WRITE | ARG_PTR_TO_MEM,
	ARG_PTR_TO_FIXED_SIZE_MEM	= MEM_FIXED_SIZE | ARG_PTR_TO_MEM,
	/* kept for the map helpers: value_size bytes the helper fills */
	ARG_PTR_TO_UNINIT_MAP_VALUE	= MEM_UNINIT | MEM_WRITE | ARG_PTR_TO_MAP_VALUE,
	/* uxdp's old name of the record bpf_ringbuf_submit/discard release */
	ARG_PTR_TO_ALLOC_MEM		= OBJ_RELEASE | ARG_PTR_TO_RINGBUF_MEM,
};

static inline unsigned int base_type(unsigned int t)
{
	return t & BPF_BASE_TYPE_MASK;
}

static inline unsigned int type_flag(unsigned int t)
{
	return t & ~BPF_BASE_TYPE_MASK;
}

/* Base return types with the same flags (kernel: enum bpf_return_type). */
enum bpf_return_type {
	RET_INTEGER,
	RET_VOID,
	RET_PTR_TO_MAP_VALUE,
	RET_PTR_TO_MEM,
	__BPF_RET_TYPE_MAX,

	RET_PTR_TO_MAP_VALUE_OR_NULL	= PTR_MAYBE_NULL | RET_PTR_TO_MAP_VALUE,
	/* a ringbuf record of the size in the size argument */
	RET_PTR_TO_RINGBUF_MEM_OR_NULL	= PTR_MAYBE_NULL | MEM_RINGBUF | RET_PTR_TO_MEM,
	RET_PTR_TO_ALLOC_MEM_OR_NULL	= RET_PTR_TO_RINGBUF_MEM_OR_NULL,	/* uxdp's old name */
	/* memory of a dynptr (bpf_dynptr_data), of the size in the size argument */
	RET_PTR_TO_DYNPTR_MEM_OR_NULL	= PTR_MAYBE_NULL | RET_PTR_TO_MEM,
};

struct bpf_func_proto {
	u64 (*func)(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5);
	const char *name;
	bool gpl_only;
	bool pkt_access;		/* may read packet pointers passed in */
	bool changes_pkt_data;		/* adjust_head/tail/meta: packet pointers are invalid after */
	enum bpf_return_type ret_type;
	enum bpf_arg_type arg_type[5];
	u32 arg_size[5];		/* ARG_PTR_TO_FIXED_SIZE_MEM: bytes accessed */
};

/*
 * Helper table for XDP programs: proto for helper id @func_id, or NULL when
 * uxdp does not implement it (the loader then rejects the program naming the
 * helper id). Kernel: xdp_func_proto() in net/core/filter.c.
 */
const struct bpf_func_proto *xdp_func_proto(enum bpf_func_id func_id);

/*
 * kernel/bpf/helpers.c: the generic helpers every program type may call.
 * bpf_tail_call_proto has no body worth calling: the interpreter performs
 * the jump itself for helper id 12 (its func returns -EINVAL if reached).
 */
extern const struct bpf_func_proto bpf_map_lookup_elem_proto;
extern const struct bpf_func_proto bpf_map_update_elem_proto;
extern const struct bpf_func_proto bpf_map_delete_elem_proto;
extern const struct bpf_func_proto bpf_map_push_elem_proto;
extern const struct bpf_func_proto bpf_map_pop_elem_proto;
extern const struct bpf_func_proto bpf_map_peek_elem_proto;
extern const struct bpf_func_proto bpf_get_prandom_u32_proto;
extern const struct bpf_func_proto bpf_get_smp_processor_id_proto;
extern const struct bpf_func_proto bpf_get_numa_node_id_proto;
extern const struct bpf_func_proto bpf_ktime_get_ns_proto;
extern const struct bpf_func_proto bpf_ktime_get_boot_ns_proto;
extern const struct bpf_func_proto bpf_ktime_get_coarse_ns_proto;
extern const struct bpf_func_proto bpf_ktime_get_tai_ns_proto;
extern const struct bpf_func_proto bpf_tail_call_proto;
extern const struct bpf_func_proto bpf_trace_printk_proto;
extern const struct bpf_func_proto bpf_trace_vprintk_proto;
extern const struct bpf_func_proto bpf_snprintf_proto;
extern const struct bpf_func_proto bpf_strtol_proto;
extern const struct bpf_func_proto bpf_spin_lock_proto;
extern const struct bpf_func_proto bpf_spin_unlock_proto;

/*
 * Dynptrs (kernel/bpf/helpers.c): the program's 16-byte struct bpf_dynptr
 * is the kernel's struct bpf_dynptr_kern: @data the object (an xdp_buff
 * for BPF_DYNPTR_TYPE_XDP), @size its low 24 bits the size, bits 28-30 the
 * type, bit 31 "read-only"; @offset where the view starts. uxdp makes XDP
 * dynptrs only (bpf_dynptr_from_xdp); the verifier refuses the other
 * constructors as unknown helpers or kfuncs.
 */
enum bpf_dynptr_type {
	BPF_DYNPTR_TYPE_INVALID,
	BPF_DYNPTR_TYPE_LOCAL,
	BPF_DYNPTR_TYPE_RINGBUF,
	BPF_DYNPTR_TYPE_SKB,
	BPF_DYNPTR_TYPE_XDP,
};

struct bpf_dynptr_kern {
	void *data;
	u32 size;
	u32 offset;
} __aligned(8);

#define BPF_DYNPTR_SIZE		sizeof(struct bpf_dynptr_kern)
#define BPF_DYNPTR_NR_SLOTS	(BPF_DYNPTR_SIZE / 8)

void bpf_dynptr_init(struct bpf_dynptr_kern *ptr, void *data, enum bpf_dynptr_type type,
		     u32 offset, u32 size);
void bpf_dynptr_set_null(struct bpf_dynptr_kern *ptr);

extern const struct bpf_func_proto bpf_dynptr_read_proto;
extern const struct bpf_func_proto bpf_dynptr_write_proto;
extern const struct bpf_func_proto bpf_dynptr_data_proto;

/* Provided by kernel/bpf/ringbuf.c (maps work). */
extern const struct bpf_func_proto bpf_ringbuf_output_proto;
extern const struct bpf_func_proto bpf_ringbuf_reserve_proto;
extern const struct bpf_func_proto bpf_loop_proto;
extern const struct bpf_func_proto bpf_ringbuf_submit_proto;
extern const struct bpf_func_proto bpf_ringbuf_discard_proto;
extern const struct bpf_func_proto bpf_ringbuf_query_proto;

/*
 * PERF_EVENT_ARRAY output (kernel: kernel/trace/bpf_trace.c), provided by
 * the perf event array map: append one record made of @meta_size bytes of
 * @meta followed by @ctx_size bytes copied out of @ctx with @ctx_copy.
 * Returns 0 or -errno (-E2BIG, -ENOENT for an empty slot, -EINVAL ...).
 */
typedef unsigned long (*bpf_ctx_copy_t)(void *dst, const void *src,
					unsigned long off, unsigned long len);
u64 bpf_event_output(struct bpf_map *map, u64 flags, void *meta, u64 meta_size,
		     void *ctx, u64 ctx_size, bpf_ctx_copy_t ctx_copy);

/*
 * bpf_get_prandom_u32(): per-worker Tausworthe generator (the kernel's
 * prandom_u32_state). Seeded from getrandom() unless bpf_user_rnd_seed()
 * was called, after which every worker restarts from (seed, cpu): runs are
 * reproducible.
 */
void bpf_user_rnd_seed(u64 seed);

/*
 * Set by the interpreter for the duration of a run: how many bytes starting
 * at @ptr the running program may read (stack, ctx, packet, map values,
 * read-only data); 0 when @ptr is none of these. bpf_trace_printk() and
 * friends follow "%s" and "%pI4" pointers only that far; without the hook
 * every such pointer reads as faulting (empty string, zero address), as
 * the kernel does for a bad pointer.
 */
extern __thread size_t (*bpf_probe_read_limit)(const void *ptr);

/*
 * The trace buffer behind bpf_trace_printk()/bpf_trace_vprintk(), one for
 * the process (the kernel's trace_pipe). Each message is stored as one line; a
 * message that does not end in '\n' gets one. bpf_trace_pipe_read() moves up
 * to @size bytes of whole lines of the buffer into @buf
 * and returns how many; bpf_trace_pipe_dropped() counts messages lost to a
 * full buffer.
 */
#define BPF_TRACE_PIPE_SIZE	(64 * 1024)
size_t bpf_trace_pipe_read(char *buf, size_t size);
u64 bpf_trace_pipe_dropped(void);

/* ---- programs ----------------------------------------------------------- */

#define MAX_TAIL_CALL_CNT	33
#define MAX_BPF_STACK		512
#define MAX_CALL_FRAMES		8
#define BPF_MAX_INSNS		(1 << 20)	/* BPF_COMPLEXITY_LIMIT_INSNS-like cap on program size */

struct bpf_prog_aux {
	struct bpf_map **used_maps;	/* references held by the program */
	u32 used_map_cnt;
	u32 id;
	u32 stack_depth;		/* main frame, from the checker */
	bool xdp_has_frags;		/* loaded from SEC("xdp.frags") */
	u32 dev_bound_ifindex;		/* device-bound program (BPF_F_XDP_DEV_BOUND_ONLY): its device */
	u32 func_info_cnt;		/* BTF func records of the object (callbacks need them) */
	bool hardened;			/* run-time checks of every access and the
					 * insn budget (set before or at load:
					 * bpf_hardened_enabled()) */
	char name[BPF_OBJ_NAME_LEN];
	void *verifier_info;		/* owned by kernel/bpf/verifier.c */
	/* kernel/bpf/core.c, verifier.c (uxdp additions): */
	const struct bpf_func_proto *(*func_proto)(enum bpf_func_id func_id);
					/* helper table; NULL: by prog type */
	u32 max_stack_depth;		/* deepest call chain, bytes */
	u64 insn_processed;		/* the verifier's processed-instruction count */
	u64 abort_cnt[__BPF_ABORT_MAX];	/* run-time aborts per enum bpf_abort_reason */
	/* arch/x86/net/bpf_jit_comp.c (uxdp additions): */
	void *jit_image;		/* mmap'd executable image, or NULL */
	void *jit_direct;		/* its direct entry (bpf_func), or NULL */
	size_t jit_alloc;		/* its mapping size */
	u32 *jit_insn_off;		/* per slot (and one past the last): where its
					 * code starts in the image bpf_func enters */
	char jit_reason[96];		/* why the program is not JITed ("" when it is) */
	/* kernel/bpf/line_info.c: source lines from BTF, or NULL */
	struct bpf_prog_linfo *linfo;
};

struct bpf_prog {
	u32 len;			/* number of struct bpf_insn slots */
	enum bpf_prog_type type;
	enum bpf_attach_type expected_attach_type;
	int refcnt;
	struct bpf_prog_aux *aux;
	/* The entry the datapath calls: the interpreter (or a JIT later). */
	unsigned int (*bpf_func)(const void *ctx, const struct bpf_prog *prog);
	u16 jited:1;			/* bpf_func runs a JIT image */
	u32 jited_len;			/* bytes of native code */
	void *jit_body;			/* the image's body: where tail calls land */
	void *jit_tail;			/* direct image's entry for tail calls, or NULL */
	struct bpf_insn insnsi[];	/* after load-time fix-ups */
};

/* Program registry: programs are referred to by small ids, like fds. */
struct bpf_prog *bpf_prog_get(u32 id);		/* borrowed; NULL if none */
void bpf_prog_inc(struct bpf_prog *prog);
void bpf_prog_put(struct bpf_prog *prog);	/* last put frees; NULL ok */

static __always_inline unsigned int bpf_prog_run(const struct bpf_prog *prog, const void *ctx)
{
	return prog->bpf_func(ctx, prog);
}


/*
 * BPF_PROG_TEST_RUN for XDP (net/bpf/test_run.c), with the kernel's user
 * pointers as plain pointers in @kattr; outputs go to @uattr (may be
 * @kattr). @ri, if not NULL, receives the redirect state the last run left
 * (read it when retval is XDP_REDIRECT). Returns 0 or -errno as the kernel.
 */
struct bpf_redirect_info;
int bpf_prog_test_run_xdp(struct bpf_prog *prog, const union bpf_attr *kattr,
			  union bpf_attr *uattr, struct bpf_redirect_info *ri);

#endif
