// SPDX-License-Identifier: GPL-2.0
/*
 * Object registries and the map syscalls: maps and programs by id, the ids
 * standing in for the file descriptors the kernel hands out; map creation
 * (BPF_MAP_CREATE) and element operations from user space
 * (BPF_MAP_{LOOKUP,UPDATE,DELETE}_ELEM, GET_NEXT_KEY, FREEZE) with the
 * kernel's checks, in the kernel's order, and its error codes; map
 * reference counting; the one program-load entry point (bpf_prog_load():
 * check, then choose the runtime); and the public uxdp_bpf_map_*() calls,
 * one per bpf command.
 *
 * Lifetime: a map has references (refcnt: the creator's id, programs using
 * it, outer maps holding it) and user references (usercnt: the creator's id,
 * loaded objects). The last user reference clears a PROG_ARRAY
 * (map_release_uref), breaking program <-> prog array cycles as the kernel
 * does; the last reference frees the map and its id.
 *
 * Kernel: kernel/bpf/syscall.c map_create(), map_lookup_elem(),
 *         map_update_elem(), map_delete_elem(), map_get_next_key(),
 *         map_freeze(), bpf_map_put(), bpf_obj_name_cpy(), bpf_map_get_info_by_fd(),
 *         bpf_prog_load()
 * Differs: ids are small integers from a table, not fds, and an id keeps
 *          naming its map until the map is freed; closing the creator's id is
 *          uxdp_bpf_map_close(). Only the object loader gives a map BTF
 *          (map_check_btf()); BPF_F_LOCK is -EINVAL, as the kernel's, for a
 *          map without a bpf_spin_lock in its value. bpf_prog_load() takes a
 *          filled-in program rather than a union bpf_attr and leaves the id
 *          (the kernel's fd) to callers that publish the program.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include <linux/bpf.h>
#include <linux/bug.h>
#include <linux/filter.h>
#include <linux/smp.h>
#include <uxdp/uxdp_bpf.h>

#define BPF_ID_MAX	4096

static pthread_mutex_t bpf_idr_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bpf_map *map_idr[BPF_ID_MAX];
static struct bpf_prog *prog_idr[BPF_ID_MAX];
static int bpf_maps_alive;

static const struct bpf_map_ops *const bpf_map_types[] = {
#define BPF_MAP_TYPE(_id, _ops) [_id] = &_ops,
#include <linux/bpf_types.h>
#undef BPF_MAP_TYPE
};

/* ---- registries ------------------------------------------------------- */

struct bpf_map *bpf_map_get(u32 id)
{
	struct bpf_map *map;

	if (!id || id >= BPF_ID_MAX)
		return NULL;
	pthread_mutex_lock(&bpf_idr_lock);
	map = map_idr[id];
	pthread_mutex_unlock(&bpf_idr_lock);
	return map;
}

struct bpf_prog *bpf_prog_get(u32 id)
{
	struct bpf_prog *prog;

	if (!id || id >= BPF_ID_MAX)
		return NULL;
	pthread_mutex_lock(&bpf_idr_lock);
	prog = prog_idr[id];
	pthread_mutex_unlock(&bpf_idr_lock);
	return prog;
}

/* Returns the new id (> 0) or -ENOSPC. */
int bpf_map_alloc_id(struct bpf_map *map)
{
	int ret = -ENOSPC;
	u32 id;

	pthread_mutex_lock(&bpf_idr_lock);
	for (id = 1; id < BPF_ID_MAX; id++) {
		if (!map_idr[id]) {
			map_idr[id] = map;
			map->id = id;
			ret = id;
			break;
		}
	}
	pthread_mutex_unlock(&bpf_idr_lock);
	return ret;
}

void bpf_map_free_id(struct bpf_map *map)
{
	pthread_mutex_lock(&bpf_idr_lock);
	if (map->id && map->id < BPF_ID_MAX && map_idr[map->id] == map)
		map_idr[map->id] = NULL;
	map->id = 0;
	pthread_mutex_unlock(&bpf_idr_lock);
}

u32 bpf_map_get_next_id(u32 id)
{
	u32 next = 0;

	pthread_mutex_lock(&bpf_idr_lock);
	for (id = id + 1; id < BPF_ID_MAX; id++) {
		if (map_idr[id]) {
			next = id;
			break;
		}
	}
	pthread_mutex_unlock(&bpf_idr_lock);
	return next;
}

int bpf_prog_alloc_id(struct bpf_prog *prog)
{
	int ret = -ENOSPC;
	u32 id;

	pthread_mutex_lock(&bpf_idr_lock);
	for (id = 1; id < BPF_ID_MAX; id++) {
		if (!prog_idr[id]) {
			prog_idr[id] = prog;
			prog->aux->id = id;
			ret = id;
			break;
		}
	}
	pthread_mutex_unlock(&bpf_idr_lock);
	return ret;
}

void bpf_prog_free_id(struct bpf_prog *prog)
{
	u32 id = prog->aux->id;

	pthread_mutex_lock(&bpf_idr_lock);
	if (id && id < BPF_ID_MAX && prog_idr[id] == prog)
		prog_idr[id] = NULL;
	prog->aux->id = 0;
	pthread_mutex_unlock(&bpf_idr_lock);
}

/* ---- BPF_PROG_LOAD ---------------------------------------------------- */

int bpf_prog_load(struct bpf_prog **progp, char *log, u32 log_size)
{
	int err = bpf_check(progp, log, log_size);

	return err ?: bpf_prog_select_runtime(*progp);
}

/* ---- map references --------------------------------------------------- */

int bpf_map_alive_count(void)
{
	return __atomic_load_n(&bpf_maps_alive, __ATOMIC_RELAXED);
}

void bpf_map_inc(struct bpf_map *map)
{
	__atomic_fetch_add(&map->refcnt, 1, __ATOMIC_RELAXED);
}

void bpf_map_inc_with_uref(struct bpf_map *map)
{
	__atomic_fetch_add(&map->refcnt, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&map->usercnt, 1, __ATOMIC_RELAXED);
}

void bpf_map_put(struct bpf_map *map)
{
	if (!map)
		return;
	if (__atomic_sub_fetch(&map->refcnt, 1, __ATOMIC_ACQ_REL) == 0) {
		bpf_map_free_id(map);
		map->ops->map_free(map);
		__atomic_fetch_sub(&bpf_maps_alive, 1, __ATOMIC_RELAXED);
	}
}

void bpf_map_put_with_uref(struct bpf_map *map)
{
	if (!map)
		return;
	if (__atomic_sub_fetch(&map->usercnt, 1, __ATOMIC_ACQ_REL) == 0 &&
	    map->ops->map_release_uref)
		map->ops->map_release_uref(map);
	bpf_map_put(map);
}

/* ---- BPF_MAP_CREATE --------------------------------------------------- */

void bpf_map_init_from_attr(struct bpf_map *map, const union bpf_attr *attr)
{
	map->map_type = attr->map_type;
	map->key_size = attr->key_size;
	map->value_size = attr->value_size;
	map->max_entries = attr->max_entries;
	/* RDONLY/WRONLY restrict the "fd", not the map (kernel: retain_permanent) */
	map->map_flags = attr->map_flags & ~(BPF_F_RDONLY | BPF_F_WRONLY);
	map->fd_flags = attr->map_flags & (BPF_F_RDONLY | BPF_F_WRONLY);
	map->rdonly_prog = attr->map_flags & BPF_F_RDONLY_PROG;
	map->map_extra = attr->map_extra;
}

/* Kernel: bpf_obj_name_cpy(): [A-Za-z0-9_.] and NUL-terminated in the field. */
static int bpf_obj_name_cpy(char *dst, const char *src, unsigned int size)
{
	const char *end = src + size;
	const char *orig_src = src;

	memset(dst, 0, size);
	while (src < end && *src) {
		if (!isalnum((unsigned char)*src) && *src != '_' && *src != '.')
			return -EINVAL;
		*dst++ = *src++;
	}
	if (src == end)
		return -EINVAL;
	return src - orig_src;
}

static bool bpf_map_type_is_percpu(enum bpf_map_type type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

struct bpf_map *bpf_map_new(union bpf_attr *attr)
{
	const struct bpf_map_ops *ops;
	struct bpf_map *map;
	int err;

	/* kernel: bpf_get_file_flag() */
	if ((attr->map_flags & BPF_F_RDONLY) && (attr->map_flags & BPF_F_WRONLY))
		return ERR_PTR(-EINVAL);
	if (attr->map_type != BPF_MAP_TYPE_BLOOM_FILTER && attr->map_type != 33 /* ARENA */ &&
	    attr->map_extra != 0)
		return ERR_PTR(-EINVAL);
	if (attr->map_type >= ARRAY_SIZE(bpf_map_types))
		return ERR_PTR(-EINVAL);
	ops = bpf_map_types[attr->map_type];
	if (!ops)
		return ERR_PTR(-EINVAL);
	if (ops->map_alloc_check) {
		err = ops->map_alloc_check(attr);
		if (err)
			return ERR_PTR(err);
	}
	if (attr->map_ifindex)
		return ERR_PTR(-EOPNOTSUPP);	/* no offload devices */
	if (bpf_map_type_is_percpu(attr->map_type))
		uxdp_percpu_frozen = true;	/* num_possible_cpus() is now part of value shapes */

	map = ops->map_alloc(attr);
	if (IS_ERR(map))
		return map;
	map->ops = ops;
	map->map_type = attr->map_type;
	map->refcnt = 1;
	map->usercnt = 1;
	__atomic_fetch_add(&bpf_maps_alive, 1, __ATOMIC_RELAXED);

	err = bpf_obj_name_cpy(map->name, attr->map_name, sizeof(attr->map_name));
	if (err < 0)
		goto out_free;
	err = bpf_map_alloc_id(map);
	if (err < 0)
		goto out_free;
	return map;

out_free:
	map->ops->map_free(map);
	__atomic_fetch_sub(&bpf_maps_alive, 1, __ATOMIC_RELAXED);
	return ERR_PTR(err);
}

int map_create(union bpf_attr *attr)
{
	struct bpf_map *map = bpf_map_new(attr);

	if (IS_ERR(map))
		return PTR_ERR(map);
	/* the id is the handle: uxdp_bpf_map_close(id) drops this reference once */
	map->id_handle = true;
	return map->id;
}

/* ---- element operations from user space ------------------------------- */

static bool bpf_map_is_fd_map(const struct bpf_map *map)
{
	switch (map->map_type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return true;
	default:
		return false;
	}
}

u32 bpf_map_value_size(const struct bpf_map *map)
{
	if (bpf_map_type_is_percpu(map->map_type))
		return ALIGN(map->value_size, 8) * num_possible_cpus();
	if (bpf_map_is_fd_map(map))
		return sizeof(u32);
	return map->value_size;
}

static bool bpf_map_sys_can_read(const struct bpf_map *map)
{
	return !(map->fd_flags & BPF_F_WRONLY);
}

static bool bpf_map_sys_can_write(const struct bpf_map *map)
{
	return !(map->fd_flags & BPF_F_RDONLY) && !READ_ONCE(map->frozen);
}

int bpf_map_copy_value(struct bpf_map *map, void *key, void *value, u64 flags)
{
	void *ptr;

	if (flags & ~BPF_F_LOCK)
		return -EINVAL;
	if (!bpf_map_sys_can_read(map))
		return -EPERM;
	if ((flags & BPF_F_LOCK) && !btf_record_has_spin_lock(map))
		return -EINVAL;
	if (map->ops->map_lookup_elem_sys)
		return map->ops->map_lookup_elem_sys(map, key, value, flags);
	if (!map->ops->map_lookup_elem)
		return -ENOTSUPP;
	ptr = map->ops->map_lookup_elem(map, key);
	if (IS_ERR(ptr))
		return PTR_ERR(ptr);
	if (!ptr)
		return -ENOENT;
	if (flags & BPF_F_LOCK)
		copy_map_value_locked(map, value, ptr, true);
	else
		copy_map_value(map, value, ptr);
	check_and_init_map_value(map, value);
	return 0;
}

int bpf_map_update_value(struct bpf_map *map, void *key, void *value, u64 flags)
{
	if (!bpf_map_sys_can_write(map))
		return -EPERM;
	if ((flags & BPF_F_LOCK) && !btf_record_has_spin_lock(map))
		return -EINVAL;
	if (map->ops->map_update_elem_sys)
		return map->ops->map_update_elem_sys(map, key, value, flags);
	if (!map->ops->map_update_elem)
		return -ENOTSUPP;
	return map->ops->map_update_elem(map, key, value, flags);
}

int bpf_map_delete_value(struct bpf_map *map, void *key)
{
	if (!bpf_map_sys_can_write(map))
		return -EPERM;
	if (map->ops->map_delete_elem_sys)
		return map->ops->map_delete_elem_sys(map, key);
	if (!map->ops->map_delete_elem)
		return -ENOTSUPP;
	return map->ops->map_delete_elem(map, key);
}

int bpf_map_get_next_key_sys(struct bpf_map *map, void *key, void *next_key)
{
	if (!bpf_map_sys_can_read(map))
		return -EPERM;
	if (!map->ops->map_get_next_key)
		return -ENOTSUPP;
	return map->ops->map_get_next_key(map, key, next_key);
}

int bpf_map_freeze(struct bpf_map *map)
{
	/* a frozen map is not writable: freezing again is -EPERM, as in the kernel */
	if (!bpf_map_sys_can_write(map))
		return -EPERM;
	if (__atomic_exchange_n(&map->frozen, true, __ATOMIC_ACQ_REL))
		return -EBUSY;
	return 0;
}

/* ---- map BTF ------------------------------------------------------------ */

/*
 * The kernel's BTF has no loop and no reference chain deeper than
 * MAX_RESOLVE_DEPTH (btf_resolve()); the BTF here was not verified by it, so
 * a chain that goes on longer ends as "no type".
 */
#define BTF_MAX_RESOLVE_DEPTH	32

static const struct btf_type *btf_skip_modifiers(const struct btf *btf, u32 id, u32 *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		if (++depth > BTF_MAX_RESOLVE_DEPTH)
			return NULL;
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/*
 * Find the struct bpf_spin_lock of type @id placed at @off: in a struct
 * member, a nested struct or a DATASEC variable. *lock_off is the one
 * found (-1 none); returns 0 or -errno (kernel: btf_find_field()).
 */
static int btf_find_spin_lock(const struct btf *btf, u32 id, u32 off, int depth, s64 *lock_off)
{
	const struct btf_type *t = btf_skip_modifiers(btf, id, &id);
	u32 nelems = 1, i;
	const char *name;
	int err, dims = 0;

	if (!t || depth > BTF_MAX_RESOLVE_DEPTH)
		return depth > BTF_MAX_RESOLVE_DEPTH ? -E2BIG : 0;
	while (btf_is_array(t)) {
		if (++dims > BTF_MAX_RESOLVE_DEPTH)
			return -E2BIG;
		nelems *= btf_array(t)->nelems;
		t = btf_skip_modifiers(btf, btf_array(t)->type, &id);
		if (!t)
			return 0;
	}
	if (!nelems)
		return 0;
	if (btf_is_datasec(t)) {
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);

		for (i = 0; i < btf_vlen(t); i++, vs++) {
			const struct btf_type *v = btf__type_by_id(btf, vs->type);

			if (!v || !btf_is_var(v))
				continue;
			err = btf_find_spin_lock(btf, v->type, off + vs->offset, depth + 1, lock_off);
			if (err)
				return err;
		}
		return 0;
	}
	if (!btf_is_struct(t))
		return 0;
	name = btf__name_by_offset(btf, t->name_off);
	if (depth && name && !strcmp(name, "bpf_spin_lock") && t->size == sizeof(u32)) {
		if (off % sizeof(u32))
			return 0;		/* not aligned: not a lock */
		if (*lock_off >= 0)
			return -E2BIG;
		if (nelems > 1)
			return -EINVAL;		/* locks do not repeat */
		*lock_off = off;
		return 0;
	}
	if (depth) {
		s64 inner = -1;
		const struct btf_member *m = btf_members(t);

		/* a struct member of a struct: its lock, if any, at off */
		for (i = 0; i < btf_vlen(t); i++, m++) {
			err = btf_find_spin_lock(btf, m->type, off + btf_member_bit_offset(t, i) / 8,
						 depth + 1, &inner);
			if (err)
				return err;
		}
		if (inner < 0)
			return 0;
		if (*lock_off >= 0 || nelems > 1)
			return *lock_off >= 0 ? -E2BIG : -EINVAL;
		*lock_off = inner;
		return 0;
	}
	for (i = 0; i < btf_vlen(t); i++) {
		err = btf_find_spin_lock(btf, btf_members(t)[i].type,
					 off + btf_member_bit_offset(t, i) / 8, depth + 1, lock_off);
		if (err)
			return err;
	}
	return 0;
}

int map_check_btf(struct bpf_map *map, const struct btf *btf, u32 value_type_id)
{
	s64 off = -1;
	int err;

	if (!btf || !value_type_id)
		return 0;
	err = btf_find_spin_lock(btf, value_type_id, 0, 0, &off);
	if (err)
		return err;
	if (off < 0)
		return 0;
	if (off + sizeof(u32) > map->value_size)
		return -EINVAL;
	if (map->map_type != BPF_MAP_TYPE_HASH && map->map_type != BPF_MAP_TYPE_ARRAY)
		return -EOPNOTSUPP;
	map->has_spin_lock = true;
	map->spin_lock_off = (u32)off;
	return 0;
}

/* ---- public API (include/uxdp/uxdp_bpf.h) ----------------------------- */

UXDP_API int uxdp_bpf_map_create(enum bpf_map_type map_type, const char *map_name,
				 __u32 key_size, __u32 value_size, __u32 max_entries,
				 const struct uxdp_bpf_map_create_opts *opts)
{
	union bpf_attr attr;

	if (opts && opts->sz < sizeof(size_t))
		return -EINVAL;
	memset(&attr, 0, sizeof(attr));
	attr.map_type = map_type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	if (map_name) {
		size_t n = strnlen(map_name, BPF_OBJ_NAME_LEN);

		/* libbpf truncates; so do we */
		memcpy(attr.map_name, map_name, n < BPF_OBJ_NAME_LEN ? n : BPF_OBJ_NAME_LEN - 1);
	}
	if (opts) {
		attr.map_flags = opts->map_flags;
		attr.inner_map_fd = opts->inner_map_id;
		attr.map_extra = opts->map_extra;
		attr.numa_node = opts->numa_node;
	}
	return map_create(&attr);
}

UXDP_API int uxdp_bpf_map_close(__u32 id)
{
	struct bpf_map *map = bpf_map_get(id);

	/* like closing an fd twice: the second close finds nothing */
	if (!map || !__atomic_exchange_n(&map->id_handle, false, __ATOMIC_ACQ_REL))
		return -EBADF;
	bpf_map_put_with_uref(map);
	return 0;
}

UXDP_API int uxdp_bpf_map_lookup_elem_flags(__u32 id, const void *key, void *value, __u64 flags)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return bpf_map_copy_value(map, (void *)key, value, flags);
}

UXDP_API int uxdp_bpf_map_lookup_elem(__u32 id, const void *key, void *value)
{
	return uxdp_bpf_map_lookup_elem_flags(id, key, value, 0);
}

UXDP_API int uxdp_bpf_map_update_elem(__u32 id, const void *key, const void *value, __u64 flags)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return bpf_map_update_value(map, (void *)key, (void *)value, flags);
}

UXDP_API int uxdp_bpf_map_delete_elem(__u32 id, const void *key)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return bpf_map_delete_value(map, (void *)key);
}

UXDP_API int uxdp_bpf_map_get_next_key(__u32 id, const void *key, void *next_key)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return bpf_map_get_next_key_sys(map, (void *)key, next_key);
}

UXDP_API int uxdp_bpf_map_freeze(__u32 id)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return bpf_map_freeze(map);
}

UXDP_API int uxdp_bpf_map_get_info(__u32 id, struct bpf_map_info *info)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	memset(info, 0, sizeof(*info));
	info->type = map->map_type;
	info->id = map->id;
	info->key_size = map->key_size;
	info->value_size = map->value_size;
	info->max_entries = map->max_entries;
	info->map_flags = map->map_flags;
	info->map_extra = map->map_extra;
	memcpy(info->name, map->name, sizeof(info->name));
	return 0;
}

UXDP_API int uxdp_bpf_map_get_next_id(__u32 start_id, __u32 *next_id)
{
	u32 id = bpf_map_get_next_id(start_id);

	if (!id)
		return -ENOENT;
	*next_id = id;
	return 0;
}

UXDP_API __u32 uxdp_bpf_map_value_size(__u32 id)
{
	struct bpf_map *map = bpf_map_get(id);

	return map ? bpf_map_value_size(map) : 0;
}

UXDP_API int uxdp_bpf_num_possible_cpus(void)
{
	return num_possible_cpus();
}

UXDP_API int uxdp_bpf_map_alive_count(void)
{
	return bpf_map_alive_count();
}

UXDP_API size_t uxdp_bpf_trace_pipe_read(char *buf, size_t size)
{
	return bpf_trace_pipe_read(buf, size);
}

UXDP_API uint64_t uxdp_bpf_trace_pipe_dropped(void)
{
	return bpf_trace_pipe_dropped();
}

UXDP_API int uxdp_bpf_ringbuf_consume(__u32 id, uxdp_bpf_record_fn fn, void *ctx)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return ringbuf_consume(map, fn, ctx);
}

UXDP_API int uxdp_bpf_perf_event_consume(__u32 id, uxdp_bpf_record_fn fn, void *ctx)
{
	struct bpf_map *map = bpf_map_get(id);

	if (!map)
		return -EBADF;
	return perf_event_array_consume(map, fn, ctx);
}
