// SPDX-License-Identifier: GPL-2.0
/*
 * Array maps: ARRAY and PERCPU_ARRAY (values indexed by a u32 key), and the
 * "fd arrays" whose slots hold objects: PROG_ARRAY (programs, for tail
 * calls), PERF_EVENT_ARRAY (output slots for bpf_perf_event_output()) and
 * ARRAY_OF_MAPS (inner maps).
 *
 * Layout: one struct bpf_array. ARRAY values follow the struct
 * (array->value, elem_size = round_up(value_size, 8) apart); PERCPU_ARRAY
 * values live in one separate block, CPU-major so that workers do not share
 * cache lines: CPU c's copy of element i is at
 * pptrs[i] + c * max_entries * elem_size. Either way [arena_lo, arena_hi)
 * spans every value. Fd arrays keep pointers in array->ptrs; a
 * PERF_EVENT_ARRAY has one hidden extra slot, ptrs[max_entries], pointing to
 * its record store.
 *
 * PERF_EVENT_ARRAY: there are no perf events in uxdp. A slot is filled by
 * an update with any value (the kernel wants a perf event fd) and then
 * accepts bpf_perf_event_output() records, which go to a per-map store of
 * PERF_STORE_SIZE bytes until perf_event_array_consume() takes them; a
 * full store loses the record (counted), as a full perf buffer does.
 *
 * Kernel: kernel/bpf/arraymap.c, kernel/trace/bpf_trace.c __bpf_perf_event_output()
 * Differs: PROG_ARRAY does not record an owner program type (every uxdp
 *          program is XDP); perf event slots take any value and are not
 *          bound to a CPU, so an output to another CPU's slot succeeds where
 *          the kernel gives -EOPNOTSUPP; BPF_F_LOCK is -EINVAL without a
 *          bpf_spin_lock in the value.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bug.h>
#include <linux/filter.h>
#include <linux/smp.h>

#define ARRAY_CREATE_FLAG_MASK \
	(BPF_F_NUMA_NODE | BPF_F_MMAPABLE | BPF_F_ACCESS_MASK | BPF_F_PRESERVE_ELEMS | \
	 BPF_F_INNER_MAP)

#define PERF_STORE_SIZE	(256 * 1024)

static u32 roundup_pow_of_two(u32 n)
{
	u32 r = 1;

	while (r < n && r)
		r <<= 1;
	return r;
}

static inline struct bpf_array *to_array(const struct bpf_map *map)
{
	return container_of(map, struct bpf_array, map);
}

/* CPU @cpu's copy of PERCPU_ARRAY element @index. */
static inline void *percpu_array_ptr(const struct bpf_array *array, u32 index, int cpu)
{
	return (char *)array->pptrs[index] +
	       (size_t)cpu * array->map.max_entries * array->elem_size;
}

/* ---- ARRAY, PERCPU_ARRAY ----------------------------------------------- */

static int array_map_alloc_check(union bpf_attr *attr)
{
	bool percpu = attr->map_type == BPF_MAP_TYPE_PERCPU_ARRAY;

	if (attr->max_entries == 0 || attr->key_size != 4 || attr->value_size == 0 ||
	    attr->map_flags & ~ARRAY_CREATE_FLAG_MASK ||
	    !bpf_map_flags_access_ok(attr->map_flags) ||
	    (percpu && (attr->map_flags & BPF_F_NUMA_NODE) && attr->numa_node != (u32)-1))
		return -EINVAL;
	if (attr->map_type != BPF_MAP_TYPE_ARRAY &&
	    attr->map_flags & (BPF_F_MMAPABLE | BPF_F_INNER_MAP))
		return -EINVAL;
	if (attr->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
	    attr->map_flags & BPF_F_PRESERVE_ELEMS)
		return -EINVAL;
	if (attr->value_size > INT_MAX)
		return -E2BIG;
	if (percpu && ALIGN(attr->value_size, 8) > PCPU_MIN_UNIT_SIZE)
		return -E2BIG;
	return 0;
}

static struct bpf_map *array_map_alloc(union bpf_attr *attr)
{
	bool percpu = attr->map_type == BPF_MAP_TYPE_PERCPU_ARRAY;
	u32 elem_size = ALIGN(attr->value_size, 8);
	u32 index_mask, max_entries;
	struct bpf_array *array;
	u64 array_size;

	max_entries = attr->max_entries;
	index_mask = roundup_pow_of_two(max_entries) - 1;
	/* the kernel rounds up so that index & index_mask stays in bounds */
	max_entries = index_mask + 1;
	if (max_entries < attr->max_entries)
		return ERR_PTR(-E2BIG);

	array_size = sizeof(*array);
	if (percpu)
		array_size += (u64)max_entries * sizeof(void *);
	else
		array_size += (u64)max_entries * elem_size;
	if (array_size > (1ULL << 32) * 8 || (u64)attr->max_entries * elem_size > (1ULL << 34))
		return ERR_PTR(-ENOMEM);
	/*
	 * Per-CPU values come from the kernel's per-CPU allocator, which runs
	 * out at a small fraction of memory; uxdp refuses more than 1 GiB of
	 * them (writing a slot pointer per entry would touch 8 bytes of each).
	 */
	if (percpu && (u64)attr->max_entries * elem_size * num_possible_cpus() > (1ULL << 30))
		return ERR_PTR(-ENOMEM);

	array = calloc(1, array_size);
	if (!array)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&array->map, attr);
	array->elem_size = elem_size;
	array->index_mask = index_mask;

	if (percpu) {
		size_t stride = (size_t)attr->max_entries * elem_size;
		char *base = calloc(num_possible_cpus(), stride);
		u32 i;

		if (!base) {
			free(array);
			return ERR_PTR(-ENOMEM);
		}
		for (i = 0; i < attr->max_entries; i++)
			array->pptrs[i] = base + (size_t)i * elem_size;
		array->map.arena_lo = base;
		array->map.arena_hi = base + stride * num_possible_cpus();
	} else {
		array->map.arena_lo = array->value;
		array->map.arena_hi = array->value + (size_t)max_entries * elem_size;
	}
	return &array->map;
}

static void array_map_free(struct bpf_map *map)
{
	struct bpf_array *array = to_array(map);

	if (map->map_type == BPF_MAP_TYPE_PERCPU_ARRAY)
		free(array->pptrs[0]);
	free(array);
}

static void *array_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);

	if (unlikely(index >= array->map.max_entries))
		return NULL;
	return array->value + (size_t)array->elem_size * (index & array->index_mask);
}

static void *percpu_array_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);

	if (unlikely(index >= array->map.max_entries))
		return NULL;
	return percpu_array_ptr(array, index, smp_processor_id());
}

/* Program side; for PERCPU_ARRAY this CPU's copy only. */
static long array_map_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);
	void *val;

	if (unlikely((map_flags & ~BPF_F_LOCK) > BPF_EXIST))
		return -EINVAL;
	if (unlikely(index >= array->map.max_entries))
		return -E2BIG;
	if (unlikely(map_flags & BPF_NOEXIST))
		return -EEXIST;
	if (unlikely((map_flags & BPF_F_LOCK) && !btf_record_has_spin_lock(map)))
		return -EINVAL;

	if (map->map_type == BPF_MAP_TYPE_PERCPU_ARRAY)
		val = percpu_array_ptr(array, index, smp_processor_id());
	else
		val = array->value + (size_t)array->elem_size * (index & array->index_mask);
	if (map_flags & BPF_F_LOCK)
		copy_map_value_locked(map, val, value, false);
	else
		copy_map_value(map, val, value);
	return 0;
}

static long array_map_delete_elem(struct bpf_map *map, void *key)
{
	return -EINVAL;
}

/*
 * Index-keyed walk shared by every map whose keys are 0..max_entries-1
 * (the ARRAY family, DEVMAP, CPUMAP, XSKMAP): a missing or out-of-range
 * key starts at 0, the last index ends the walk with -ENOENT.
 */
int array_map_get_next_key(struct bpf_map *map, void *key, void *next_key)
{
	u32 index = key ? bpf_get_u32(key) : UINT32_MAX;
	u32 *next = next_key;

	if (index >= map->max_entries) {
		*next = 0;
		return 0;
	}
	if (index == map->max_entries - 1)
		return -ENOENT;
	*next = index + 1;
	return 0;
}

static int array_map_direct_value_addr(const struct bpf_map *map, u64 *imm, u32 off)
{
	struct bpf_array *array = to_array(map);

	if (map->max_entries != 1)
		return -ENOTSUPP;
	if (off >= map->value_size)
		return -EINVAL;
	*imm = (unsigned long)array->value;
	return 0;
}

static bool array_map_meta_equal(const struct bpf_map *meta0, const struct bpf_map *meta1)
{
	if (!bpf_map_meta_equal(meta0, meta1))
		return false;
	return meta0->map_flags & BPF_F_INNER_MAP ? true :
	       meta0->max_entries == meta1->max_entries;
}

/* kernel: bpf_percpu_array_copy() */
static int percpu_array_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);
	int cpu;

	if (unlikely(index >= map->max_entries))
		return -ENOENT;
	for_each_possible_cpu(cpu)
		memcpy((char *)value + (size_t)cpu * array->elem_size,
		       percpu_array_ptr(array, index, cpu), array->elem_size);
	return 0;
}

/* kernel: bpf_percpu_array_update() */
static int percpu_array_map_update_elem_sys(struct bpf_map *map, void *key, void *value,
					    u64 map_flags)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);
	int cpu;

	if (unlikely(map_flags > BPF_EXIST))
		return -EINVAL;
	if (unlikely(index >= map->max_entries))
		return -E2BIG;
	if (unlikely(map_flags == BPF_NOEXIST))
		return -EEXIST;
	for_each_possible_cpu(cpu)
		memcpy(percpu_array_ptr(array, index, cpu),
		       (char *)value + (size_t)cpu * array->elem_size, array->elem_size);
	return 0;
}

const struct bpf_map_ops array_map_ops = {
	.map_alloc_check = array_map_alloc_check,
	.map_alloc = array_map_alloc,
	.map_free = array_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = array_map_lookup_elem,
	.map_update_elem = array_map_update_elem,
	.map_delete_elem = array_map_delete_elem,
	.map_direct_value_addr = array_map_direct_value_addr,
	.map_meta_equal = array_map_meta_equal,
};

const struct bpf_map_ops percpu_array_map_ops = {
	.map_alloc_check = array_map_alloc_check,
	.map_alloc = array_map_alloc,
	.map_free = array_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = percpu_array_map_lookup_elem,
	.map_update_elem = array_map_update_elem,
	.map_delete_elem = array_map_delete_elem,
	.map_lookup_elem_sys = percpu_array_map_lookup_elem_sys,
	.map_update_elem_sys = percpu_array_map_update_elem_sys,
	.map_meta_equal = array_map_meta_equal,
};

/* ---- fd arrays: PROG_ARRAY, PERF_EVENT_ARRAY, ARRAY_OF_MAPS ------------ */

struct perf_event_store {
	pthread_mutex_t lock;
	u64 lost;
	size_t head, tail;		/* byte offsets, tail - head bytes queued */
	u8 ring[PERF_STORE_SIZE];
	/* a record that wraps around the ring's end, made contiguous for the callback */
	u8 wrapped[PERF_STORE_SIZE / 2];
};

static int fd_array_map_alloc_check(union bpf_attr *attr)
{
	/* only file descriptors can be stored in this type of map */
	if (attr->value_size != sizeof(u32))
		return -EINVAL;
	/* program read-only/write-only not supported for special maps yet */
	if (attr->map_flags & (BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG))
		return -EINVAL;
	return array_map_alloc_check(attr);
}

static struct bpf_map *fd_array_map_alloc(union bpf_attr *attr)
{
	bool perf = attr->map_type == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	struct bpf_array *array;
	u32 max_entries = attr->max_entries;
	u32 index_mask = roundup_pow_of_two(max_entries) - 1;

	if (index_mask + 1 < max_entries)
		return ERR_PTR(-E2BIG);
	/* ptrs[index_mask + 1] and, for PERF_EVENT_ARRAY, the store pointer */
	array = calloc(1, sizeof(*array) + ((size_t)index_mask + 2) * sizeof(void *));
	if (!array)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&array->map, attr);
	array->elem_size = sizeof(void *);
	array->index_mask = index_mask;

	if (perf) {
		struct perf_event_store *store;

		store = calloc(1, sizeof(*store));
		if (!store) {
			free(array);
			return ERR_PTR(-ENOMEM);
		}
		pthread_mutex_init(&store->lock, NULL);
		array->ptrs[max_entries] = store;
	}
	return &array->map;
}

static void fd_array_map_free(struct bpf_map *map)
{
	struct bpf_array *array = to_array(map);
	u32 i;

	for (i = 0; i < map->max_entries; i++) {
		if (array->ptrs[i] && map->ops->map_fd_put_ptr)
			map->ops->map_fd_put_ptr(map, array->ptrs[i]);
	}
	if (map->map_type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		struct perf_event_store *store = array->ptrs[map->max_entries];

		pthread_mutex_destroy(&store->lock);
		free(store);
	}
	if (map->inner_map_meta)
		bpf_map_meta_free(map->inner_map_meta);
	free(array);
}

/* Programs cannot look into PROG_ARRAY or PERF_EVENT_ARRAY slots. */
static void *fd_array_map_lookup_elem(struct bpf_map *map, void *key)
{
	return NULL;
}

static long fd_array_map_update_elem(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return -EOPNOTSUPP;
}

/* kernel: bpf_fd_array_map_update_elem() */
static int fd_array_map_update_elem_sys(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key), ufd;
	void *new_ptr, *old_ptr;

	if (map_flags != BPF_ANY)
		return -EINVAL;
	if (index >= map->max_entries)
		return -E2BIG;
	ufd = bpf_get_u32(value);
	new_ptr = map->ops->map_fd_get_ptr(map, ufd);
	if (IS_ERR(new_ptr))
		return PTR_ERR(new_ptr);
	old_ptr = __atomic_exchange_n(&array->ptrs[index], new_ptr, __ATOMIC_ACQ_REL);
	if (old_ptr)
		map->ops->map_fd_put_ptr(map, old_ptr);
	return 0;
}

/* kernel: fd_array_map_delete_elem() */
static long fd_array_map_delete_elem(struct bpf_map *map, void *key)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);
	void *old_ptr;

	if (index >= map->max_entries)
		return -E2BIG;
	old_ptr = __atomic_exchange_n(&array->ptrs[index], NULL, __ATOMIC_ACQ_REL);
	if (!old_ptr)
		return -ENOENT;
	map->ops->map_fd_put_ptr(map, old_ptr);
	return 0;
}

/* kernel: bpf_fd_array_map_lookup_elem() with map_fd_sys_lookup_elem */
static int fd_array_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);
	void *ptr;

	if (map->map_type == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		return -ENOTSUPP;
	if (index >= map->max_entries)
		return -ENOENT;
	ptr = READ_ONCE(array->ptrs[index]);
	if (!ptr)
		return -ENOENT;
	if (map->map_type == BPF_MAP_TYPE_PROG_ARRAY)
		*(u32 *)value = ((struct bpf_prog *)ptr)->aux->id;
	else
		*(u32 *)value = bpf_map_fd_sys_lookup_elem(ptr);
	return 0;
}

static void *prog_fd_array_get_ptr(struct bpf_map *map, u32 fd)
{
	struct bpf_prog *prog = bpf_prog_get(fd);

	if (!prog)
		return ERR_PTR(-EBADF);
	bpf_prog_inc(prog);
	return prog;
}

static void prog_fd_array_put_ptr(struct bpf_map *map, void *ptr)
{
	bpf_prog_put(ptr);
}

/* The last user reference is gone: drop the programs (kernel: prog_array_map_clear). */
static void prog_array_map_clear(struct bpf_map *map)
{
	struct bpf_array *array = to_array(map);
	void *old;
	u32 i;

	for (i = 0; i < map->max_entries; i++) {
		old = __atomic_exchange_n(&array->ptrs[i], NULL, __ATOMIC_ACQ_REL);
		if (old)
			bpf_prog_put(old);
	}
}

const struct bpf_map_ops prog_array_map_ops = {
	.map_alloc_check = fd_array_map_alloc_check,
	.map_alloc = fd_array_map_alloc,
	.map_free = fd_array_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = fd_array_map_lookup_elem,
	.map_update_elem = fd_array_map_update_elem,
	.map_delete_elem = fd_array_map_delete_elem,
	.map_lookup_elem_sys = fd_array_map_lookup_elem_sys,
	.map_update_elem_sys = fd_array_map_update_elem_sys,
	.map_fd_get_ptr = prog_fd_array_get_ptr,
	.map_fd_put_ptr = prog_fd_array_put_ptr,
	.map_release_uref = prog_array_map_clear,
};

/* ---- PERF_EVENT_ARRAY --------------------------------------------------- */

static inline struct perf_event_store *perf_store(const struct bpf_map *map)
{
	return to_array(map)->ptrs[map->max_entries];
}

/*
 * A slot only needs to be non-NULL: records carry the slot index and go to
 * the map's one store, so every filled slot points at that store.
 */
static void *perf_event_fd_array_get_ptr(struct bpf_map *map, u32 fd)
{
	return perf_store(map);
}

static void perf_event_fd_array_put_ptr(struct bpf_map *map, void *ptr)
{
}

static inline u8 *perf_store_ring(struct perf_event_store *store)
{
	return store->ring;
}

/* Record header in the store: length of the record bytes, the slot index. */
struct perf_record_hdr {
	u32 size;
	u32 index;
};

static void perf_ring_copy_in(u8 *ring, size_t pos, const void *src, size_t len)
{
	size_t off = pos % PERF_STORE_SIZE, first = min_t(size_t, len, PERF_STORE_SIZE - off);

	memcpy(ring + off, src, first);
	memcpy(ring, (const u8 *)src + first, len - first);
}

static void perf_ring_copy_out(const u8 *ring, size_t pos, void *dst, size_t len)
{
	size_t off = pos % PERF_STORE_SIZE, first = min_t(size_t, len, PERF_STORE_SIZE - off);

	memcpy(dst, ring + off, first);
	memcpy((u8 *)dst + first, ring, len - first);
}

struct linear_ctx {
	const void *data;
};

static unsigned long linear_ctx_copy(void *dst, const void *src, unsigned long off,
				     unsigned long len)
{
	memcpy(dst, (const u8 *)((const struct linear_ctx *)src)->data + off, len);
	return 0;
}

/* kernel: bpf_event_output() -> __bpf_perf_event_output() */
u64 bpf_event_output(struct bpf_map *map, u64 flags, void *meta, u64 meta_size,
		     void *ctx, u64 ctx_size, bpf_ctx_copy_t ctx_copy)
{
	struct bpf_array *array = to_array(map);
	u64 index = flags & BPF_F_INDEX_MASK;
	struct perf_event_store *store;
	struct perf_record_hdr hdr;
	size_t need;
	u8 *ring;
	int err = 0;

	if (map->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		return -EINVAL;
	if (unlikely(flags & ~(BPF_F_INDEX_MASK | BPF_F_CTXLEN_MASK)))
		return -EINVAL;
	if (index == BPF_F_CURRENT_CPU)
		index = smp_processor_id();
	if (unlikely(index >= map->max_entries))
		return -E2BIG;
	if (!READ_ONCE(array->ptrs[index]))
		return -ENOENT;
	if (meta_size + ctx_size > PERF_STORE_SIZE / 2)
		return -E2BIG;

	store = perf_store(map);
	ring = perf_store_ring(store);
	hdr.size = meta_size + ctx_size;
	hdr.index = index;
	need = ALIGN(sizeof(hdr) + hdr.size, 8);

	pthread_mutex_lock(&store->lock);
	if (store->tail - store->head + need > PERF_STORE_SIZE) {
		store->lost++;
		err = -ENOSPC;
		goto out_unlock;
	}
	perf_ring_copy_in(ring, store->tail, &hdr, sizeof(hdr));
	perf_ring_copy_in(ring, store->tail + sizeof(hdr), meta, meta_size);
	if (ctx_size) {
		size_t pos = (store->tail + sizeof(hdr) + meta_size) % PERF_STORE_SIZE;
		size_t first = min_t(size_t, ctx_size, PERF_STORE_SIZE - pos);

		ctx_copy(ring + pos, ctx, 0, first);
		if (first < ctx_size)
			ctx_copy(ring, ctx, first, ctx_size - first);
	}
	store->tail += need;
out_unlock:
	pthread_mutex_unlock(&store->lock);
	return (u64)(s64)err;
}

int bpf_event_output_store(struct bpf_map *map, u64 flags, void *data, u64 size,
			   const void *ctx_data, u64 ctx_size)
{
	struct linear_ctx lc = { .data = ctx_data };

	return (int)(s64)bpf_event_output(map, flags, data, size, &lc, ctx_size, linear_ctx_copy);
}

int perf_event_array_consume(struct bpf_map *map, bpf_record_cb cb, void *ctx)
{
	struct perf_event_store *store;
	struct perf_record_hdr hdr;
	int n = 0, stop = 0;
	size_t off;
	void *buf;
	u8 *ring;

	if (!map || map->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		return -EINVAL;
	store = perf_store(map);
	ring = perf_store_ring(store);

	/*
	 * No allocation: a capture consumes after every packet. The callback
	 * runs under the lock, so a record read in place cannot be overwritten.
	 */
	pthread_mutex_lock(&store->lock);
	while (store->head != store->tail && !stop) {
		perf_ring_copy_out(ring, store->head, &hdr, sizeof(hdr));
		off = (store->head + sizeof(hdr)) % PERF_STORE_SIZE;
		if (off + hdr.size <= PERF_STORE_SIZE) {
			buf = ring + off;
		} else {
			perf_ring_copy_out(ring, store->head + sizeof(hdr), store->wrapped, hdr.size);
			buf = store->wrapped;
		}
		store->head += ALIGN(sizeof(hdr) + hdr.size, 8);
		n++;
		stop = cb(ctx, hdr.index, buf, hdr.size);
	}
	pthread_mutex_unlock(&store->lock);
	return n;
}

u64 perf_event_array_lost(struct bpf_map *map)
{
	struct perf_event_store *store = perf_store(map);
	u64 lost;

	pthread_mutex_lock(&store->lock);
	lost = store->lost;
	pthread_mutex_unlock(&store->lock);
	return lost;
}

const struct bpf_map_ops perf_event_array_map_ops = {
	.map_alloc_check = fd_array_map_alloc_check,
	.map_alloc = fd_array_map_alloc,
	.map_free = fd_array_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = fd_array_map_lookup_elem,
	.map_update_elem = fd_array_map_update_elem,
	.map_delete_elem = fd_array_map_delete_elem,
	.map_lookup_elem_sys = fd_array_map_lookup_elem_sys,
	.map_update_elem_sys = fd_array_map_update_elem_sys,
	.map_fd_get_ptr = perf_event_fd_array_get_ptr,
	.map_fd_put_ptr = perf_event_fd_array_put_ptr,
	.map_meta_equal = bpf_map_meta_equal,
};

/* ---- ARRAY_OF_MAPS ------------------------------------------------------ */

static struct bpf_map *array_of_map_alloc(union bpf_attr *attr)
{
	struct bpf_map *map, *inner_map_meta;

	inner_map_meta = bpf_map_meta_alloc(attr->inner_map_fd);
	if (IS_ERR(inner_map_meta))
		return inner_map_meta;
	map = fd_array_map_alloc(attr);
	if (IS_ERR(map)) {
		bpf_map_meta_free(inner_map_meta);
		return map;
	}
	map->inner_map_meta = inner_map_meta;
	return map;
}

/* Programs get the inner struct bpf_map * (then used as a map argument). */
static void *array_of_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_array *array = to_array(map);
	u32 index = bpf_get_u32(key);

	if (unlikely(index >= map->max_entries))
		return NULL;
	return READ_ONCE(array->ptrs[index & array->index_mask]);
}

const struct bpf_map_ops array_of_maps_map_ops = {
	.map_alloc_check = fd_array_map_alloc_check,
	.map_alloc = array_of_map_alloc,
	.map_free = fd_array_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = array_of_map_lookup_elem,
	.map_update_elem = fd_array_map_update_elem,
	.map_delete_elem = fd_array_map_delete_elem,
	.map_lookup_elem_sys = fd_array_map_lookup_elem_sys,
	.map_update_elem_sys = fd_array_map_update_elem_sys,
	.map_fd_get_ptr = bpf_map_fd_get_ptr,
	.map_fd_put_ptr = bpf_map_fd_put_ptr,
};
