/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uxdp eBPF public API: what tools/ may use to open clang-compiled XDP
 * objects, look at their programs and maps, and run a program over a packet
 * the way BPF_PROG_TEST_RUN does. Shaped like libbpf's syscall wrappers:
 * programs and maps are referred to by ids (the kernel's fds), int
 * functions return 0 or -errno, pointer functions return NULL and set
 * errno.
 *
 * Kernel: include/uapi/linux/bpf.h (BPF_PROG_TEST_RUN), tools/lib/bpf/bpf.h
 */
#ifndef _UXDP_UXDP_BPF_H
#define _UXDP_UXDP_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/bpf.h>
#include <linux/types.h>

#include "uxdp.h"

/* ---- maps (kernel/bpf/syscall.c) ---------------------------------------- */
/*
 * One call per bpf(2) map command, with the kernel's checks and error
 * codes (-errno). Maps are named by ids; an id stays valid until the map
 * is freed, which happens when its creator has closed it and no program
 * or outer map holds it any more.
 */

/**
 * struct uxdp_bpf_map_create_opts - optional BPF_MAP_CREATE attributes
 * @sz: sizeof(struct uxdp_bpf_map_create_opts)
 * @map_flags: BPF_F_NO_PREALLOC, BPF_F_RDONLY_PROG, BPF_F_INNER_MAP,
 *	BPF_F_ZERO_SEED, BPF_F_RDONLY/BPF_F_WRONLY (limit this side), ...
 * @inner_map_id: *_OF_MAPS: a map shaped like the inner maps
 * @map_extra: BLOOM_FILTER only; must be 0 otherwise
 * @numa_node: with BPF_F_NUMA_NODE; accepted and ignored
 */
struct uxdp_bpf_map_create_opts {
	size_t sz;
	__u32 map_flags;
	__u32 inner_map_id;
	__u64 map_extra;
	__u32 numa_node;
};

/**
 * typedef uxdp_bpf_record_fn - receives one record a program produced
 * @ctx: the consumer's context
 * @cpu: PERF_EVENT_ARRAY: the slot the record was written to; RINGBUF: -1
 * @data: the record, valid during the call only
 * @size: its length in bytes
 *
 * Return: 0 to go on, non-zero to stop after this record.
 */
typedef int (*uxdp_bpf_record_fn)(void *ctx, int cpu, void *data, __u32 size);

/**
 * uxdp_bpf_map_create() - BPF_MAP_CREATE
 * @map_type: ARRAY, PERCPU_ARRAY, PROG_ARRAY, PERF_EVENT_ARRAY, HASH,
 *	PERCPU_HASH, LRU_HASH, LRU_PERCPU_HASH, LPM_TRIE, ARRAY_OF_MAPS,
 *	HASH_OF_MAPS, DEVMAP, DEVMAP_HASH, CPUMAP, XSKMAP or RINGBUF
 * @map_name: up to 15 of [A-Za-z0-9_.] (longer names are truncated), or NULL
 * @key_size: bytes per key
 * @value_size: bytes per value (per CPU for per-CPU maps)
 * @max_entries: capacity (RINGBUF: data bytes, a power-of-2 multiple of 4096)
 * @opts: NULL or optional attributes
 *
 * Return: the new map id (> 0), holding the reference uxdp_bpf_map_close()
 * drops; -EINVAL (sizes or flags the kernel refuses for the type, unknown
 * type, bad name), -E2BIG, -ENOTSUPP (524: e.g. LRU with BPF_F_NO_PREALLOC,
 * an inner map type that cannot be nested), -EBADF (no such inner map),
 * -ENOMEM.
 */
UXDP_API int uxdp_bpf_map_create(enum bpf_map_type map_type, const char *map_name,
				 __u32 key_size, __u32 value_size, __u32 max_entries,
				 const struct uxdp_bpf_map_create_opts *opts);

/**
 * uxdp_bpf_map_close() - drop the creator's reference (the kernel's close(map_fd))
 * @id: map id
 *
 * A PROG_ARRAY drops its programs now. Return: 0, or -EBADF.
 */
UXDP_API int uxdp_bpf_map_close(__u32 id);

/**
 * uxdp_bpf_map_lookup_elem() - BPF_MAP_LOOKUP_ELEM
 * @id: map id
 * @key: key_size bytes (LPM_TRIE: the longest stored prefix matching it)
 * @value: receives uxdp_bpf_map_value_size(@id) bytes
 *
 * Return: 0; -ENOENT (no element), -EPERM (created BPF_F_WRONLY),
 * -ENOTSUPP (RINGBUF, PERF_EVENT_ARRAY), -EOPNOTSUPP (XSKMAP), -EBADF.
 */
UXDP_API int uxdp_bpf_map_lookup_elem(__u32 id, const void *key, void *value);
/* As above with flags: BPF_F_LOCK is -EINVAL (no BTF spin locks), others -EINVAL. */
UXDP_API int uxdp_bpf_map_lookup_elem_flags(__u32 id, const void *key, void *value, __u64 flags);

/**
 * uxdp_bpf_map_update_elem() - BPF_MAP_UPDATE_ELEM
 * @id: map id
 * @key: key_size bytes
 * @value: uxdp_bpf_map_value_size(@id) bytes, copied. PROG_ARRAY: a program
 *	id; *_OF_MAPS: a map id; DEVMAP: struct bpf_devmap_val (bpf_prog.fd is
 *	a program id); CPUMAP: struct bpf_cpumap_val
 * @flags: BPF_ANY, BPF_NOEXIST or BPF_EXIST
 *
 * Return: 0; -EEXIST (BPF_NOEXIST and the element exists; arrays always),
 * -ENOENT (BPF_EXIST and it does not), -E2BIG (index out of range, hash map
 * full), -ENOSPC (LPM trie full), -EINVAL (bad flags; fd maps take only
 * BPF_ANY), -EPERM (frozen, or created BPF_F_RDONLY), -EBADF (unknown map,
 * program or inner map id).
 */
UXDP_API int uxdp_bpf_map_update_elem(__u32 id, const void *key, const void *value, __u64 flags);

/**
 * uxdp_bpf_map_delete_elem() - BPF_MAP_DELETE_ELEM
 *
 * Return: 0; -ENOENT; -EINVAL (ARRAY and PERCPU_ARRAY cannot delete; DEVMAP,
 * CPUMAP, XSKMAP index out of range); -E2BIG (fd arrays out of range);
 * -EPERM; -EBADF.
 */
UXDP_API int uxdp_bpf_map_delete_elem(__u32 id, const void *key);

/**
 * uxdp_bpf_map_get_next_key() - BPF_MAP_GET_NEXT_KEY
 * @key: NULL or a key not in the map for the first key
 * @next_key: receives the key after @key (arrays: the next index; LPM_TRIE:
 *	postorder, more specific prefixes first; hash maps: bucket order)
 *
 * Return: 0, -ENOENT after the last key, -EPERM, -EBADF.
 */
UXDP_API int uxdp_bpf_map_get_next_key(__u32 id, const void *key, void *next_key);

/* BPF_MAP_FREEZE: no more writes from this side. 0, -EPERM (already frozen), -EBADF. */
UXDP_API int uxdp_bpf_map_freeze(__u32 id);
/* BPF_OBJ_GET_INFO_BY_FD: type, id, key_size, value_size, max_entries, map_flags, name. */
UXDP_API int uxdp_bpf_map_get_info(__u32 id, struct bpf_map_info *info);
/* BPF_MAP_GET_NEXT_ID: the first map id after @start_id. 0 or -ENOENT. */
UXDP_API int uxdp_bpf_map_get_next_id(__u32 start_id, __u32 *next_id);
/* Bytes a lookup copies: per-CPU maps round_up(value_size, 8) * CPUs; fd maps 4. 0: no map. */
UXDP_API __u32 uxdp_bpf_map_value_size(__u32 id);
/* CPUs (workers) a per-CPU value has slots for. */
UXDP_API int uxdp_bpf_num_possible_cpus(void);
/* Maps allocated and not yet freed; 0 when nothing leaked. */
UXDP_API int uxdp_bpf_map_alive_count(void);

/**
 * uxdp_bpf_ringbuf_consume() - take the submitted records of a RINGBUF
 *
 * Like libbpf's ring_buffer__consume(); discarded records are skipped.
 * Return: records handed to @fn, -EINVAL (not a RINGBUF), -EBADF.
 */
UXDP_API int uxdp_bpf_ringbuf_consume(__u32 id, uxdp_bpf_record_fn fn, void *ctx);

/**
 * uxdp_bpf_perf_event_consume() - take what bpf_perf_event_output() stored
 *
 * A PERF_EVENT_ARRAY slot takes records once it was updated with any value
 * (uxdp has no perf events; the kernel wants a perf event fd). Records are
 * kept, oldest first, until consumed; a full store loses new ones.
 * Return: records handed to @fn, -EINVAL (not a PERF_EVENT_ARRAY), -EBADF.
 */
UXDP_API int uxdp_bpf_perf_event_consume(__u32 id, uxdp_bpf_record_fn fn, void *ctx);

/**
 * uxdp_bpf_trace_pipe_read() - take bpf_trace_printk() output
 * @buf: where to copy whole lines, '\n'-terminated, oldest first
 * @size: bytes of @buf
 *
 * One trace buffer for the process (the kernel's trace_pipe), 64 KiB:
 * what every program printed since the last read, from any worker. Lines
 * are removed as they are read.
 * Return: bytes copied (0: nothing printed).
 */
UXDP_API size_t uxdp_bpf_trace_pipe_read(char *buf, size_t size);
/** uxdp_bpf_trace_pipe_dropped() - messages lost to a full trace buffer */
UXDP_API uint64_t uxdp_bpf_trace_pipe_dropped(void);

/* ---- objects and programs (tools/lib/bpf/object.c, net/bpf/test_run.c) */

struct uxdp_bpf_object;

struct uxdp_bpf_object_open_opts {
	size_t sz;		/* sizeof(struct uxdp_bpf_object_open_opts) */
	/* On failure: why, naming the program, instruction and feature, then
	 * the checker's log if the checker rejected the program. */
	char *log_buf;
	size_t log_size;
	/*
	 * Programs of sections libbpf does not know (SEC("xdp_prog"), ...) are
	 * not loaded unless asked for: by function name (@xdp_prog), by
	 * section (@xdp_sec), or all of them (@xdp_any, bpftool's `type xdp`).
	 * Programs of other types (tc, tp_btf, ...) are never loaded; naming
	 * one is an error. Failing to load a program asked for fails the open.
	 */
	const char *xdp_prog;
	const char *xdp_sec;
	bool xdp_any;
	/* With @xdp_prog/@xdp_sec: load only that program (iproute2 turns
	 * autoload off for the others); the rest stay loadable later. */
	bool xdp_only;
	/*
	 * CO-RE target BTF (libbpf's btf_custom_path): raw BTF or an ELF file
	 * with .BTF. NULL: /sys/kernel/btf/vmlinux when readable, else the BTF
	 * uxdp ships (struct xdp_md, the net headers, the kernel structs XDP
	 * programs read).
	 */
	const char *btf_custom_path;
	/*
	 * Bind the XDP programs to device @prog_ifindex, as libbpf's
	 * bpf_program__set_ifindex() with BPF_F_XDP_DEV_BOUND_ONLY does: the
	 * RX metadata kfuncs (bpf_xdp_metadata_rx_*) answer from the device's
	 * driver. 0: not bound; a program calling them is refused, as the
	 * kernel refuses it.
	 */
	__u32 prog_ifindex;
};

/**
 * uxdp_bpf_object_open() - read a clang -target bpf object and load it
 * @path: ELF file (libbpf conventions: SEC("xdp"), SEC("xdp.frags"),
 *	  SEC("xdp/devmap"), SEC("xdp/cpumap") and their .frags forms,
 *	  BTF-defined maps, .data/.rodata/.bss, bpf-to-bpf calls, CO-RE)
 * @opts: optional, see struct uxdp_bpf_object_open_opts
 *
 * Creates every map of the object (global data initialised, .rodata
 * frozen), relocates each XDP program to uxdp's map ids and its CO-RE
 * records to the target BTF, appends the subprograms it calls and passes
 * it through the load-time checker. Loaded programs are registered and get
 * ids; the others (other program types, unknown sections) are listed as
 * not loaded, as libbpf's autoload off.
 *
 * Return: the object, or NULL with errno set (ENOENT, EINVAL for a
 * malformed object, EOPNOTSUPP for an unsupported feature, ESRCH for a
 * kfunc uxdp does not have (libbpf's code), EACCES when the
 * checker rejects a program, ENOMEM).
 */
UXDP_API struct uxdp_bpf_object *
uxdp_bpf_object_open(const char *path, const struct uxdp_bpf_object_open_opts *opts);

/**
 * uxdp_bpf_object_close() - release the object's programs and maps
 * @obj: object or NULL
 */
UXDP_API void uxdp_bpf_object_close(struct uxdp_bpf_object *obj);

struct uxdp_bpf_prog_desc {
	const char *name;	/* function name */
	const char *sec;	/* ELF section, e.g. "xdp.frags" */
	uint32_t id;		/* program id */
	uint32_t insn_cnt;	/* after relocation, subprograms included */
	bool frags;		/* SEC("xdp.frags"): xdp_has_frags */
	uint32_t nr_map_ids;	/* maps the program uses (first 32 in map_ids) */
	uint32_t map_ids[32];
	bool loaded;		/* false: id, insn_cnt and maps are 0 */
	const char *type;	/* "xdp" when loaded, else libbpf's type ("sched_cls", "unspec") */
	const char *attach;	/* expected attach type ("xdp", "xdp_devmap", "xdp_cpumap") or "" */
	const char *not_loaded;	/* why not, or NULL */
	uint32_t verified_insns;	/* instructions the checker walked (bpf_prog_info's) */
};

struct uxdp_bpf_map_desc {
	const char *name;	/* as libbpf names it (".rodata" maps get the object prefix) */
	uint32_t id;		/* map id */
	uint32_t type;		/* enum bpf_map_type */
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t map_flags;
	uint32_t value_size_sys;	/* bytes a lookup copies (per-CPU: all CPUs; fd maps: an id) */
	uint32_t nr_cpus;		/* per-CPU maps: CPUs in a value; else 1 */
	uint32_t btf_key_type_id;	/* types in uxdp_bpf_object_btf(), 0: none */
	uint32_t btf_value_type_id;	/* global data maps: their DATASEC */
};

/** uxdp_bpf_object_prog_cnt() - number of programs in @obj. */
UXDP_API unsigned int uxdp_bpf_object_prog_cnt(const struct uxdp_bpf_object *obj);
/** uxdp_bpf_object_prog() - program @idx. Return: 0 or -ENOENT. */
UXDP_API int uxdp_bpf_object_prog(const struct uxdp_bpf_object *obj, unsigned int idx,
				  struct uxdp_bpf_prog_desc *desc);
/**
 * uxdp_bpf_object_find_prog() - program by function name or section
 * @name: function name, or NULL
 * @sec: section name, or NULL (with both NULL: the first program)
 *
 * Loaded programs only. Return: the program's id, -ENOENT, -EOPNOTSUPP (it
 * exists but is not loaded), or -EINVAL if @sec matches several.
 */
UXDP_API int uxdp_bpf_object_find_prog(const struct uxdp_bpf_object *obj, const char *name,
				       const char *sec);
/**
 * uxdp_bpf_object_load_xdp() - load programs of unknown sections as XDP
 * @name: function name, or NULL
 * @sec: section, or NULL (both NULL: every program of an unknown section)
 * @log: on failure, why (program, instruction, reason); may be NULL
 *
 * What iproute2's `sec` and bpftool's `type xdp` do after the open, for an
 * object already open. Programs of other types are refused by name.
 * Return: how many programs were loaded (0: already loaded), or -errno.
 */
UXDP_API int uxdp_bpf_object_load_xdp(struct uxdp_bpf_object *obj, const char *name,
				      const char *sec, char *log, size_t log_size);
/** uxdp_bpf_object_map_cnt() - number of maps in @obj (inner map templates excluded). */
UXDP_API unsigned int uxdp_bpf_object_map_cnt(const struct uxdp_bpf_object *obj);
/** uxdp_bpf_object_map() - map @idx. Return: 0 or -ENOENT. */
UXDP_API int uxdp_bpf_object_map(const struct uxdp_bpf_object *obj, unsigned int idx,
				 struct uxdp_bpf_map_desc *desc);
struct btf;
/**
 * uxdp_bpf_object_btf() - the object's .BTF, as libbpf's struct btf
 *
 * Read it with libbpf's btf.h (btf__type_by_id(), ...); the types of a map
 * are its desc's btf_key_type_id and btf_value_type_id.
 * Return: borrowed, valid until the object is closed; NULL without .BTF.
 */
UXDP_API const struct btf *uxdp_bpf_object_btf(const struct uxdp_bpf_object *obj);
/** uxdp_bpf_object_find_map() - map id by name (exact, or the part after the object prefix for global data). Return: id or -ENOENT. */
UXDP_API int uxdp_bpf_object_find_map(const struct uxdp_bpf_object *obj, const char *name);

/** uxdp_bpf_map_type_name() - "hash", "percpu_array", ... as bpftool prints it; NULL if unknown. */
UXDP_API const char *uxdp_bpf_map_type_name(uint32_t type);

/* How a REDIRECT verdict was aimed (from bpf_redirect_info). */
struct uxdp_bpf_redirect {
	bool valid;		/* the run ended in XDP_REDIRECT */
	uint32_t ifindex;	/* bpf_redirect(): target ifindex; map redirects: 0 */
	uint32_t map_id;	/* bpf_redirect_map(): map id, else 0 */
	uint32_t map_type;	/* enum bpf_map_type, 0 for an ifindex redirect */
	uint32_t key;		/* bpf_redirect_map() key */
	uint32_t flags;		/* BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS */
};

/*
 * BPF_PROG_TEST_RUN for XDP, as libbpf's struct bpf_test_run_opts. In:
 * data_in/data_size_in (at least 14 bytes after the metadata; beyond the
 * linear part, 3520 bytes or ctx_in's data_end, the rest goes into 4 KiB
 * fragments), data_out/data_size_out (buffer
 * size; 0 with data_out set is -EINVAL here, where the kernel would copy
 * blindly), ctx_in/ctx_size_in and ctx_out/ctx_size_out (struct xdp_md),
 * repeat. Out: data_size_out (full output size, even when clipped:
 * -ENOSPC), ctx_size_out, retval, duration (average ns per run), redirect.
 */
struct uxdp_bpf_test_run_opts {
	size_t sz;		/* sizeof(struct uxdp_bpf_test_run_opts) */
	const void *data_in;
	void *data_out;
	uint32_t data_size_in;
	uint32_t data_size_out;
	const void *ctx_in;
	void *ctx_out;
	uint32_t ctx_size_in;
	uint32_t ctx_size_out;
	uint32_t retval;
	uint32_t repeat;
	uint32_t duration;
	struct uxdp_bpf_redirect redirect;
};

/**
 * uxdp_bpf_prog_test_run() - run program @prog_id over one packet
 * @opts: see struct uxdp_bpf_test_run_opts
 *
 * The frame is laid out as the kernel's bpf_prog_test_run_xdp() does: 256
 * bytes of headroom in a 4096-byte frame, the metadata of ctx_in in front
 * of the data, ingress_ifindex 1 and rx_queue_index 0 unless ctx_in says
 * otherwise. XDP_TX and XDP_REDIRECT are verdicts only.
 *
 * Return: 0, or -EINVAL (frame under 14 bytes, bad ctx_in), -E2BIG,
 * -ENOSPC (output clipped; outputs are still filled in), -ENOENT (no such
 * program), -ENOMEM.
 */
UXDP_API int uxdp_bpf_prog_test_run(uint32_t prog_id, struct uxdp_bpf_test_run_opts *opts);

/**
 * uxdp_bpf_jit_enable_set() - sysctl net.core.bpf_jit_enable: 1 runs programs
 * loaded from now on through the x86-64 JIT, 0 through the interpreter
 * (programs already loaded keep their runtime). The environment's
 * UXDP_BPF_JIT=0|1 sets the start value. Return: 0 or -EINVAL (@on not 0/1).
 * uxdp_bpf_jit_enable_get() returns the current value.
 */
UXDP_API int uxdp_bpf_jit_enable_set(int on);
UXDP_API int uxdp_bpf_jit_enable_get(void);

/**
 * uxdp_bpf_hardened_set() - sysctl net.core.bpf_hardened: 1 loads programs
 * from now on with the hardened runtime (every memory access and helper
 * memory argument checked at run time, the instruction budget), the test
 * oracle for the checker: a check that fires on an accepted program is a
 * checker bug. The environment's UXDP_BPF_HARDENED=0|1 sets the start
 * value (0). Return: 0 or -EINVAL. uxdp_bpf_hardened_get() returns it.
 */
UXDP_API int uxdp_bpf_hardened_set(int on);
UXDP_API int uxdp_bpf_hardened_get(void);
/** uxdp_bpf_prog_hardened() - 1 if @prog_id was loaded hardened, 0 if not, -ENOENT. */
UXDP_API int uxdp_bpf_prog_hardened(uint32_t prog_id);

/**
 * uxdp_bpf_prog_jit_info() - whether program @prog_id runs JITed
 * @jited_len: bytes of native code (0 when not JITed)
 * @reason: receives why it is not JITed ("" when it is), @len bytes
 *
 * Return: 1 (JITed), 0 (interpreted) or -ENOENT.
 */
UXDP_API int uxdp_bpf_prog_jit_info(uint32_t prog_id, uint32_t *jited_len, char *reason,
				    size_t len);
/**
 * uxdp_bpf_prog_jited_insns() - the native code of program @prog_id
 * @buf: receives up to @len bytes of it (NULL: only the size)
 *
 * The image the program is entered at: the direct image where it has one
 * (see Documentation/bpf.rst), else the image with the C entry. Read it
 * with `objdump -D -b binary -mi386:x86-64 FILE`.
 *
 * Return: its size in bytes (0 when not JITed) or -ENOENT.
 */
UXDP_API int uxdp_bpf_prog_jited_insns(uint32_t prog_id, void *buf, uint32_t len);
/**
 * uxdp_bpf_prog_jited_insn_offs() - where each instruction's code starts
 * @offs: receives up to @cnt offsets into the image of
 *	uxdp_bpf_prog_jited_insns(), one per slot of
 *	uxdp_bpf_prog_xlated_insns() and one for the end (NULL: only the count)
 *
 * What the kernel's jited_line_info gives per line_info record, for every
 * slot: with uxdp_bpf_prog_line_info() the source line of native code.
 * The second slot of a 64-bit immediate load starts where the next
 * instruction does.
 *
 * Return: the number of offsets (slots + 1; 0 when not JITed) or -ENOENT.
 */
UXDP_API int uxdp_bpf_prog_jited_insn_offs(uint32_t prog_id, uint32_t *offs, uint32_t cnt);
/**
 * uxdp_bpf_prog_xlated_insns() - the instructions of program @prog_id as
 * loaded (bpftool's `prog dump xlated`, from xlated_prog_insns)
 * @buf: receives up to @cnt of them (NULL: only the count)
 *
 * The program after the checker's rewrites (xdp_md loads, dead code as
 * `goto pc-1`, inlined bpf_loop()), in UAPI form: helper calls carry
 * their BPF_FUNC_* id, kfunc calls (src_reg BPF_PSEUDO_KFUNC_CALL) the id
 * uxdp_bpf_kfunc_name() names, bpf-to-bpf calls (BPF_PSEUDO_CALL) and
 * BPF_PSEUDO_FUNC loads their relative offset, map loads the map id in
 * imm (BPF_PSEUDO_MAP_VALUE: the value offset in the second slot's imm).
 *
 * Return: the program's instruction count, -ENOENT or -ENOMEM.
 */
UXDP_API int uxdp_bpf_prog_xlated_insns(uint32_t prog_id, struct bpf_insn *buf, uint32_t cnt);
/** uxdp_bpf_kfunc_name() - the name of kfunc @btf_id (a kfunc call's imm), or NULL. */
UXDP_API const char *uxdp_bpf_kfunc_name(__u32 btf_id);


#endif
