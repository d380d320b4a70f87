// SPDX-License-Identifier: GPL-2.0
/*
 * Hash maps: HASH, PERCPU_HASH, LRU_HASH, LRU_PERCPU_HASH and HASH_OF_MAPS.
 *
 * Storage is preallocated at creation, whatever BPF_F_NO_PREALLOC says, so
 * updates never allocate:
 *   - elems: element headers (hash, chain link, LRU links, key), indexed
 *     by a u32; n_elems = max_entries (+ one spare per CPU for non-LRU maps,
 *     so that replacing an element of a full map works, as the kernel's
 *     extra_elems do); free ones sit on per-CPU free lists (LRU maps: on
 *     the one free list next to the LRU list);
 *   - values: one contiguous block, the map's arena; element i's value is
 *     values + i * elem_size, per-CPU maps CPU-major
 *     (values + (cpu * n_elems + i) * elem_size). Keys and links are kept
 *     out of the arena so that a program writing anywhere in its map values
 *     cannot corrupt the table.
 * Buckets are hlist_nulls-like chains of element indexes ending in a marker
 * naming the bucket. Writers take the bucket's spinlock; lookups take no
 * lock: an element deleted and reused under a reader is caught when the
 * chain ends in another bucket's marker, and the walk restarts (kernel
 * semantics for preallocated maps: a program may see a value being reused).
 *
 * Chains and hashing follow the kernel exactly (jhash/jhash2 seeded with a
 * random value, or 0 with BPF_F_ZERO_SEED; new elements at the bucket head;
 * n_buckets = roundup_pow_of_two(max_entries)), so with BPF_F_ZERO_SEED
 * get_next_key walks keys in the kernel's order.
 *
 * LRU: one list for the map under a lock; lookups from programs set a
 * reference bit; when no element is free, the list is scanned from its
 * cold end, giving referenced elements a second chance, and the first
 * unreferenced one is evicted. This approximates the kernel's
 * active/inactive lists (kernel/bpf/bpf_lru_list.c); which element is
 * evicted can differ from the kernel's choice.
 *
 * Kernel: kernel/bpf/hashtab.c, include/linux/jhash.h
 * Differs: BPF_F_NO_PREALLOC maps are preallocated too; BPF_F_NO_COMMON_LRU
 *          maps use the common list (max_entries is rounded as the kernel
 *          does); eviction order is approximate (see above).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <linux/bpf.h>
#include <linux/bug.h>
#include <linux/smp.h>

#define HTAB_CREATE_FLAG_MASK \
	(BPF_F_NO_PREALLOC | BPF_F_NO_COMMON_LRU | BPF_F_NUMA_NODE | BPF_F_ACCESS_MASK | \
	 BPF_F_ZERO_SEED)

#define HTAB_NULLS	0x80000000u	/* chain end; low bits: the bucket */
#define HTAB_NONE	0xffffffffu	/* no element (free list, LRU links) */
#define KERNEL_HTAB_ELEM_SIZE	48	/* sizeof(struct htab_elem) in the kernel */

struct htab_elem {
	u32 next;		/* chain: next index, or HTAB_NULLS | bucket */
	u32 hash;
	u32 lru_prev, lru_next;	/* LRU list; free list uses lru_next */
	u8 ref;			/* LRU: used since last seen by the evictor */
	u8 linked;		/* in a bucket chain */
	u32 idx;		/* own index: the value's slot, without a division */
	char key[] __aligned(8);
};

struct bucket {
	u32 head;
	pthread_spinlock_t lock;
};

/* Non-LRU maps: free elements per CPU, as the kernel's pcpu_freelist. */
struct htab_freelist {
	pthread_spinlock_t lock;
	u32 head;
} __aligned(SMP_CACHE_BYTES);

struct bpf_htab {
	struct bpf_map map;
	struct bucket *buckets;
	char *elems;
	char *values;
	u32 n_buckets;
	u32 n_elems;
	u32 elem_hdr_size;	/* stride of elems */
	u32 elem_size;		/* stride of values (per CPU for per-CPU maps) */
	u32 hashrnd;
	u32 count;		/* elements in the table */
	bool percpu, lru;
	/* LRU maps: one free list and the LRU list under free_lock */
	pthread_spinlock_t free_lock;
	u32 free_head;
	/* other maps: per-CPU free lists */
	struct htab_freelist *freelists;
	u32 nr_freelists;
	u32 lru_head, lru_tail;	/* head: most recent */
};

static inline struct bpf_htab *to_htab(const struct bpf_map *map)
{
	return container_of(map, struct bpf_htab, map);
}

static inline struct htab_elem *htab_elem(const struct bpf_htab *htab, u32 i)
{
	return (struct htab_elem *)(htab->elems + (size_t)i * htab->elem_hdr_size);
}

static inline void *htab_value(const struct bpf_htab *htab, u32 i, int cpu)
{
	return htab->values + ((size_t)cpu * htab->n_elems + i) * htab->elem_size;
}

static inline u32 htab_elem_index(const struct bpf_htab *htab, const struct htab_elem *e)
{
	(void)htab;
	return e->idx;
}

/* ---- jhash (include/linux/jhash.h, Bob Jenkins' lookup3) -------------- */

#define JHASH_INITVAL	0xdeadbeef

static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

#define __jhash_mix(a, b, c)				\
	do {						\
		a -= c; a ^= rol32(c, 4);  c += b;	\
		b -= a; b ^= rol32(a, 6);  a += c;	\
		c -= b; c ^= rol32(b, 8);  b += a;	\
		a -= c; a ^= rol32(c, 16); c += b;	\
		b -= a; b ^= rol32(a, 19); a += c;	\
		c -= b; c ^= rol32(b, 4);  b += a;	\
	} while (0)

#define __jhash_final(a, b, c)				\
	do {						\
		c ^= b; c -= rol32(b, 14);		\
		a ^= c; a -= rol32(c, 11);		\
		b ^= a; b -= rol32(a, 25);		\
		c ^= b; c -= rol32(b, 16);		\
		a ^= c; a -= rol32(c, 4);		\
		b ^= a; b -= rol32(a, 14);		\
		c ^= b; c -= rol32(b, 24);		\
	} while (0)

static u32 get_unaligned_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static u32 jhash(const void *key, u32 length, u32 initval)
{
	const u8 *k = key;
	u32 a, b, c;

	a = b = c = JHASH_INITVAL + length + initval;
	while (length > 12) {
		a += get_unaligned_u32(k);
		b += get_unaligned_u32(k + 4);
		c += get_unaligned_u32(k + 8);
		__jhash_mix(a, b, c);
		length -= 12;
		k += 12;
	}
	switch (length) {
	case 12: c += (u32)k[11] << 24;	/* fall through */
	case 11: c += (u32)k[10] << 16;	/* fall through */
	case 10: c += (u32)k[9] << 8;	/* fall through */
	case 9:  c += k[8];		/* fall through */
	case 8:  b += (u32)k[7] << 24;	/* fall through */
	case 7:  b += (u32)k[6] << 16;	/* fall through */
	case 6:  b += (u32)k[5] << 8;	/* fall through */
	case 5:  b += k[4];		/* fall through */
	case 4:  a += (u32)k[3] << 24;	/* fall through */
	case 3:  a += (u32)k[2] << 16;	/* fall through */
	case 2:  a += (u32)k[1] << 8;	/* fall through */
	case 1:  a += k[0];
		__jhash_final(a, b, c);
		break;
	case 0:
		break;
	}
	return c;
}

static u32 jhash2(const u8 *k, u32 length, u32 initval)
{
	u32 a, b, c;

	a = b = c = JHASH_INITVAL + (length << 2) + initval;
	while (length > 3) {
		a += get_unaligned_u32(k);
		b += get_unaligned_u32(k + 4);
		c += get_unaligned_u32(k + 8);
		__jhash_mix(a, b, c);
		length -= 3;
		k += 12;
	}
	switch (length) {
	case 3: c += get_unaligned_u32(k + 8);	/* fall through */
	case 2: b += get_unaligned_u32(k + 4);	/* fall through */
	case 1: a += get_unaligned_u32(k);
		__jhash_final(a, b, c);
		break;
	case 0:
		break;
	}
	return c;
}

static inline u32 htab_map_hash(const void *key, u32 key_len, u32 hashrnd)
{
	if (likely((key_len & 0x3) == 0))
		return jhash2(key, key_len / 4, hashrnd);
	return jhash(key, key_len, hashrnd);
}

/* ---- allocation -------------------------------------------------------- */

static bool htab_is_lru(const union bpf_attr *attr)
{
	return attr->map_type == BPF_MAP_TYPE_LRU_HASH ||
	       attr->map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool htab_is_percpu(const union bpf_attr *attr)
{
	return attr->map_type == BPF_MAP_TYPE_PERCPU_HASH ||
	       attr->map_type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static int htab_map_alloc_check(union bpf_attr *attr)
{
	bool percpu = htab_is_percpu(attr), lru = htab_is_lru(attr);
	bool prealloc = !(attr->map_flags & BPF_F_NO_PREALLOC);
	bool percpu_lru = attr->map_flags & BPF_F_NO_COMMON_LRU;
	bool numa = (attr->map_flags & BPF_F_NUMA_NODE) && attr->numa_node != (u32)-1;

	if (attr->map_flags & ~HTAB_CREATE_FLAG_MASK ||
	    !bpf_map_flags_access_ok(attr->map_flags))
		return -EINVAL;
	if (!lru && percpu_lru)
		return -EINVAL;
	if (lru && !prealloc)
		return -ENOTSUPP;
	if (numa && (percpu || percpu_lru))
		return -EINVAL;
	if (attr->max_entries == 0 || attr->key_size == 0 || attr->value_size == 0)
		return -EINVAL;
	if ((u64)attr->key_size + attr->value_size >= KMALLOC_MAX_SIZE - KERNEL_HTAB_ELEM_SIZE)
		return -E2BIG;
	if (percpu && ALIGN(attr->value_size, 8) > PCPU_MIN_UNIT_SIZE)
		return -E2BIG;
	return 0;
}

static int fd_htab_map_alloc_check(union bpf_attr *attr)
{
	if (attr->value_size != sizeof(u32))
		return -EINVAL;
	return htab_map_alloc_check(attr);
}

static u32 roundup_pow_of_two(u32 n)
{
	u32 r = 1;

	while (r < n)
		r <<= 1;
	return r;
}

static void htab_free_list_push(struct bpf_htab *htab, u32 i)
{
	htab_elem(htab, i)->lru_next = htab->free_head;
	htab->free_head = i;
}

static void htab_freelist_push(struct bpf_htab *htab, struct htab_freelist *fl, u32 i)
{
	pthread_spin_lock(&fl->lock);
	htab_elem(htab, i)->lru_next = fl->head;
	WRITE_ONCE(fl->head, i);
	pthread_spin_unlock(&fl->lock);
}

static struct bpf_map *htab_map_alloc(union bpf_attr *attr)
{
	bool percpu = htab_is_percpu(attr), lru = htab_is_lru(attr);
	u32 ncpus = percpu ? num_possible_cpus() : 1;
	struct bpf_htab *htab;
	u64 values_bytes;
	u32 i;

	htab = calloc(1, sizeof(*htab));
	if (!htab)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&htab->map, attr);
	htab->percpu = percpu;
	htab->lru = lru;

	if (attr->map_flags & BPF_F_NO_COMMON_LRU) {
		/* each CPU's list has at least one element (kernel's rounding) */
		u32 n = num_possible_cpus();
		u64 r = ((u64)attr->max_entries + n - 1) / n * n;

		htab->map.max_entries = r > UINT32_MAX ? attr->max_entries / n * n : (u32)r;
	}

	if (htab->map.max_entries > 1UL << 31)
		goto out_e2big;
	htab->n_buckets = roundup_pow_of_two(htab->map.max_entries);
	htab->n_elems = htab->map.max_entries + (lru ? 0 : num_possible_cpus());
	htab->elem_hdr_size = ALIGN(sizeof(struct htab_elem) + attr->key_size, 8);
	/* HASH_OF_MAPS stores a struct bpf_map * in its 4-byte value */
	htab->elem_size = ALIGN(attr->value_size, 8);
	values_bytes = (u64)htab->n_elems * htab->elem_size * ncpus;
	if ((u64)htab->n_elems * htab->elem_hdr_size + values_bytes > (1ULL << 33)) {
		free(htab);
		return ERR_PTR(-ENOMEM);
	}

	htab->buckets = calloc(htab->n_buckets, sizeof(struct bucket));
	htab->elems = calloc(htab->n_elems, htab->elem_hdr_size);
	htab->values = calloc(1, values_bytes);
	if (!htab->buckets || !htab->elems || !htab->values)
		goto out_free;

	if (attr->map_flags & BPF_F_ZERO_SEED) {
		htab->hashrnd = 0;
	} else if (getrandom(&htab->hashrnd, sizeof(htab->hashrnd), 0) != sizeof(htab->hashrnd)) {
		htab->hashrnd = (u32)(uintptr_t)htab ^ 0x9e3779b9u;
	}
	for (i = 0; i < htab->n_elems; i++)
		htab_elem(htab, i)->idx = i;
	for (i = 0; i < htab->n_buckets; i++) {
		htab->buckets[i].head = HTAB_NULLS | i;
		pthread_spin_init(&htab->buckets[i].lock, PTHREAD_PROCESS_PRIVATE);
	}
	pthread_spin_init(&htab->free_lock, PTHREAD_PROCESS_PRIVATE);
	htab->free_head = HTAB_NONE;
	htab->lru_head = htab->lru_tail = HTAB_NONE;
	if (lru) {
		for (i = htab->n_elems; i-- > 0;)
			htab_free_list_push(htab, i);
	} else {
		htab->nr_freelists = num_possible_cpus();
		htab->freelists = aligned_alloc(SMP_CACHE_BYTES,
						sizeof(*htab->freelists) * htab->nr_freelists);
		if (!htab->freelists)
			goto out_free;
		for (i = 0; i < htab->nr_freelists; i++) {
			pthread_spin_init(&htab->freelists[i].lock, PTHREAD_PROCESS_PRIVATE);
			htab->freelists[i].head = HTAB_NONE;
		}
		/* spread evenly, lowest indexes on top */
		for (i = htab->n_elems; i-- > 0;)
			htab_freelist_push(htab, &htab->freelists[i % htab->nr_freelists], i);
	}

	htab->map.arena_lo = htab->values;
	htab->map.arena_hi = htab->values + values_bytes;
	return &htab->map;

out_free:
	free(htab->buckets);
	free(htab->elems);
	free(htab->values);
	free(htab);
	return ERR_PTR(-ENOMEM);
out_e2big:
	free(htab);
	return ERR_PTR(-E2BIG);
}

static void htab_map_free(struct bpf_map *map)
{
	struct bpf_htab *htab = to_htab(map);
	u32 i;

	if (map->map_type == BPF_MAP_TYPE_HASH_OF_MAPS) {
		for (i = 0; i < htab->n_elems; i++) {
			if (htab_elem(htab, i)->linked)
				bpf_map_fd_put_ptr(map, *(void **)htab_value(htab, i, 0));
		}
	}
	for (i = 0; i < htab->n_buckets; i++)
		pthread_spin_destroy(&htab->buckets[i].lock);
	pthread_spin_destroy(&htab->free_lock);
	for (i = 0; i < htab->nr_freelists; i++)
		pthread_spin_destroy(&htab->freelists[i].lock);
	free(htab->freelists);
	if (map->inner_map_meta)
		bpf_map_meta_free(map->inner_map_meta);
	free(htab->buckets);
	free(htab->elems);
	free(htab->values);
	free(htab);
}

/* ---- chains ------------------------------------------------------------- */

static inline struct bucket *htab_bucket(const struct bpf_htab *htab, u32 hash)
{
	return &htab->buckets[hash & (htab->n_buckets - 1)];
}

/*
 * Key equality: the common small keys (a u32, a u64, a 5-tuple of 12 or
 * 16 bytes) as word compares, inlined; memcmp() for the rest. Keys may sit
 * unaligned, so the words are read with memcpy().
 */
static __always_inline bool htab_key_eq(const void *a, const void *b, u32 size)
{
	u64 x, y, x2, y2;

	switch (size) {
	case 4:
		return get_unaligned_u32(a) == get_unaligned_u32(b);
	case 8:
	case 12:
	case 16:
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (size == 8)
			return x == y;
		memcpy(&x2, (const u8 *)a + size - 8, 8);
		memcpy(&y2, (const u8 *)b + size - 8, 8);
		return x == y && x2 == y2;
	}
	return !memcmp(a, b, size);
}

/* Bucket lock held (or lock-free walk, see lookup). */
static struct htab_elem *lookup_elem_raw(struct bpf_htab *htab, struct bucket *b, u32 hash,
					 const void *key)
{
	u32 i;

	for (i = b->head; !(i & HTAB_NULLS); i = htab_elem(htab, i)->next) {
		struct htab_elem *e = htab_elem(htab, i);

		if (e->hash == hash && htab_key_eq(e->key, key, htab->map.key_size))
			return e;
	}
	return NULL;
}

/* Lock-free: restart when a reused element led the walk into another chain. */
static struct htab_elem *__htab_map_lookup_elem(struct bpf_htab *htab, const void *key)
{
	u32 hash = htab_map_hash(key, htab->map.key_size, htab->hashrnd);
	u32 bidx = hash & (htab->n_buckets - 1);
	struct bucket *b = &htab->buckets[bidx];
	struct htab_elem *e;
	int tries;
	u32 i;

	for (tries = 0; tries < 8; tries++) {
		u32 steps = 0;

		/* elements reused under the walk can only lengthen it: bound it */
		for (i = __atomic_load_n(&b->head, __ATOMIC_ACQUIRE);
		     !(i & HTAB_NULLS) && steps++ <= htab->n_elems;
		     i = __atomic_load_n(&e->next, __ATOMIC_ACQUIRE)) {
			e = htab_elem(htab, i);
			if (e->hash == hash && htab_key_eq(e->key, key, htab->map.key_size))
				return e;
		}
		if ((i & HTAB_NULLS) && (i & ~HTAB_NULLS) == bidx)
			return NULL;
	}
	pthread_spin_lock(&b->lock);
	e = lookup_elem_raw(htab, b, hash, key);
	pthread_spin_unlock(&b->lock);
	return e;
}

static void chain_add_head(struct bucket *b, struct htab_elem *e, u32 idx)
{
	e->next = b->head;
	e->linked = 1;
	__atomic_store_n(&b->head, idx, __ATOMIC_RELEASE);
}

/* Bucket lock held. Returns false if @e was not in the chain. */
static bool chain_del(struct bpf_htab *htab, struct bucket *b, struct htab_elem *e)
{
	u32 idx = htab_elem_index(htab, e);
	u32 *pp = &b->head;

	while (!(*pp & HTAB_NULLS)) {
		if (*pp == idx) {
			__atomic_store_n(pp, e->next, __ATOMIC_RELEASE);
			e->linked = 0;
			return true;
		}
		pp = &htab_elem(htab, *pp)->next;
	}
	return false;
}

/* ---- free list and LRU list (free_lock) ---------------------------------- */

static void lru_unlink(struct bpf_htab *htab, struct htab_elem *e)
{
	if (e->lru_prev != HTAB_NONE)
		htab_elem(htab, e->lru_prev)->lru_next = e->lru_next;
	else
		htab->lru_head = e->lru_next;
	if (e->lru_next != HTAB_NONE)
		htab_elem(htab, e->lru_next)->lru_prev = e->lru_prev;
	else
		htab->lru_tail = e->lru_prev;
}

static void lru_add_head(struct bpf_htab *htab, struct htab_elem *e, u32 idx)
{
	e->lru_prev = HTAB_NONE;
	e->lru_next = htab->lru_head;
	if (htab->lru_head != HTAB_NONE)
		htab_elem(htab, htab->lru_head)->lru_prev = idx;
	else
		htab->lru_tail = idx;
	htab->lru_head = idx;
}

/* Evict one element (free_lock held): the coldest unreferenced one. */
static struct htab_elem *htab_lru_evict(struct bpf_htab *htab)
{
	u32 scanned;

	for (scanned = 0; scanned < 2 * htab->n_elems + 2 && htab->lru_tail != HTAB_NONE; scanned++) {
		u32 idx = htab->lru_tail;
		struct htab_elem *e = htab_elem(htab, idx);
		struct bucket *b;
		bool found;

		lru_unlink(htab, e);
		if (__atomic_exchange_n(&e->ref, 0, __ATOMIC_RELAXED) || !e->linked) {
			/* second chance; in-flight elements are not linked yet */
			lru_add_head(htab, e, idx);
			continue;
		}
		b = htab_bucket(htab, e->hash);
		pthread_spin_lock(&b->lock);
		found = chain_del(htab, b, e);
		pthread_spin_unlock(&b->lock);
		if (!found) {
			lru_add_head(htab, e, idx);
			continue;
		}
		__atomic_fetch_sub(&htab->count, 1, __ATOMIC_RELAXED);
		return e;
	}
	return NULL;
}

/* This CPU's free list first, then the others' (kernel: pcpu_freelist_pop()). */
static struct htab_elem *htab_freelist_pop(struct bpf_htab *htab)
{
	u32 n = htab->nr_freelists, cpu = smp_processor_id() % n, i;

	for (i = 0; i < n; i++) {
		struct htab_freelist *fl = &htab->freelists[(cpu + i) % n];
		u32 idx;

		if (READ_ONCE(fl->head) == HTAB_NONE)
			continue;
		pthread_spin_lock(&fl->lock);
		idx = fl->head;
		if (idx != HTAB_NONE) {
			struct htab_elem *e = htab_elem(htab, idx);

			fl->head = e->lru_next;
			pthread_spin_unlock(&fl->lock);
			return e;
		}
		pthread_spin_unlock(&fl->lock);
	}
	return NULL;
}

/*
 * Take a free element. For LRU maps it joins the LRU list at once and may
 * be evicted from the table to make room (kernel: prealloc_lru_pop()); LRU
 * maps never call this with a bucket lock held, since eviction takes one.
 */
static struct htab_elem *htab_pop_free(struct bpf_htab *htab)
{
	struct htab_elem *e = NULL;
	u32 idx;

	if (!htab->lru)
		return htab_freelist_pop(htab);
	pthread_spin_lock(&htab->free_lock);
	idx = htab->free_head;
	if (idx != HTAB_NONE) {
		e = htab_elem(htab, idx);
		htab->free_head = e->lru_next;
	} else if (htab->lru) {
		e = htab_lru_evict(htab);
		if (e)
			idx = htab_elem_index(htab, e);
	}
	if (e && htab->lru) {
		e->ref = 0;
		lru_add_head(htab, e, idx);
	}
	pthread_spin_unlock(&htab->free_lock);
	return e;
}

static void htab_push_free(struct bpf_htab *htab, struct htab_elem *e)
{
	u32 idx = htab_elem_index(htab, e);

	if (!htab->lru) {
		htab_freelist_push(htab, &htab->freelists[smp_processor_id() % htab->nr_freelists], idx);
		return;
	}
	pthread_spin_lock(&htab->free_lock);
	lru_unlink(htab, e);
	htab_free_list_push(htab, idx);
	pthread_spin_unlock(&htab->free_lock);
}

/* ---- element operations -------------------------------------------------- */

/*
 * Reserve room for one more element: exact under concurrent inserts into
 * different buckets (the kernel gets this from its free list holding
 * exactly max_entries elements for new keys).
 */
static bool htab_count_reserve(struct bpf_htab *htab)
{
	if (__atomic_fetch_add(&htab->count, 1, __ATOMIC_RELAXED) < htab->map.max_entries)
		return true;
	__atomic_fetch_sub(&htab->count, 1, __ATOMIC_RELAXED);
	return false;
}

static int check_flags(const struct htab_elem *l_old, u64 map_flags)
{
	if (l_old && (map_flags & ~BPF_F_LOCK) == BPF_NOEXIST)
		return -EEXIST;
	if (!l_old && (map_flags & ~BPF_F_LOCK) == BPF_EXIST)
		return -ENOENT;
	return 0;
}

static void htab_set_key(struct bpf_htab *htab, struct htab_elem *e, const void *key, u32 hash)
{
	memcpy(e->key, key, htab->map.key_size);
	e->hash = hash;
}

/*
 * Per-CPU values: from a program (@onallcpus false) this CPU gets @value and,
 * for a new element, the others are zeroed; from user space each CPU gets its
 * round_up(value_size, 8) slice. kernel: pcpu_copy_value(), pcpu_init_value()
 */
static void pcpu_copy_value(struct bpf_htab *htab, u32 idx, const void *value, bool onallcpus,
			    bool init)
{
	int cpu;

	if (onallcpus) {
		for_each_possible_cpu(cpu)
			memcpy(htab_value(htab, idx, cpu),
			       (const char *)value + (size_t)cpu * htab->elem_size, htab->elem_size);
		return;
	}
	if (init) {
		for_each_possible_cpu(cpu)
			memset(htab_value(htab, idx, cpu), 0, htab->elem_size);
	}
	memcpy(htab_value(htab, idx, smp_processor_id()), value, htab->map.value_size);
}

static void htab_copy_value(struct bpf_htab *htab, u32 idx, const void *value)
{
	/* HASH_OF_MAPS values are pointers: 8 bytes in a 4-byte value_size */
	if (htab->map.map_type == BPF_MAP_TYPE_HASH_OF_MAPS)
		memcpy(htab_value(htab, idx, 0), value, sizeof(void *));
	else
		memcpy(htab_value(htab, idx, 0), value, htab->map.value_size);
	/* a new element's bpf_spin_lock starts free */
	check_and_init_map_value(&htab->map, htab_value(htab, idx, 0));
}

/* HASH and HASH_OF_MAPS: a new element replaces the old one. */
static long htab_map_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l_old, *l_new;
	struct bucket *b;
	u32 hash;
	int ret;

	if (unlikely((map_flags & ~BPF_F_LOCK) > BPF_EXIST))
		return -EINVAL;
	if (unlikely((map_flags & BPF_F_LOCK) && !btf_record_has_spin_lock(map)))
		return -EINVAL;

	hash = htab_map_hash(key, map->key_size, htab->hashrnd);
	b = htab_bucket(htab, hash);
	pthread_spin_lock(&b->lock);
	l_old = lookup_elem_raw(htab, b, hash, key);
	ret = check_flags(l_old, map_flags);
	if (ret)
		goto out_unlock;
	if (l_old && (map_flags & BPF_F_LOCK)) {
		/* in place, under the element's own lock */
		copy_map_value_locked(map, htab_value(htab, htab_elem_index(htab, l_old), 0), value,
				      false);
		goto out_unlock;
	}
	if (!l_old && !htab_count_reserve(htab)) {
		ret = -E2BIG;
		goto out_unlock;
	}
	/*
	 * The free lists hold a spare per CPU beyond max_entries for
	 * replacements. Free-list locks nest inside bucket locks only here
	 * and are never held while taking a bucket lock.
	 */
	l_new = htab_pop_free(htab);
	if (!l_new) {
		if (!l_old)
			__atomic_fetch_sub(&htab->count, 1, __ATOMIC_RELAXED);
		ret = -E2BIG;
		goto out_unlock;
	}
	htab_set_key(htab, l_new, key, hash);
	htab_copy_value(htab, htab_elem_index(htab, l_new), value);
	chain_add_head(b, l_new, htab_elem_index(htab, l_new));
	if (l_old)
		chain_del(htab, b, l_old);
	pthread_spin_unlock(&b->lock);

	if (l_old) {
		if (map->map_type == BPF_MAP_TYPE_HASH_OF_MAPS)
			bpf_map_fd_put_ptr(map, *(void **)htab_value(htab, htab_elem_index(htab, l_old), 0));
		htab_push_free(htab, l_old);
	}
	return 0;

out_unlock:
	pthread_spin_unlock(&b->lock);
	return ret;
}

/* kernel: htab_lru_map_update_elem(): take (maybe evict) first, then check flags */
static long htab_lru_map_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l_old, *l_new;
	struct bucket *b;
	u32 hash;
	int ret;

	if (unlikely(map_flags > BPF_EXIST))
		return -EINVAL;

	hash = htab_map_hash(key, map->key_size, htab->hashrnd);
	b = htab_bucket(htab, hash);
	l_new = htab_pop_free(htab);
	if (!l_new)
		return -ENOMEM;
	htab_set_key(htab, l_new, key, hash);
	htab_copy_value(htab, htab_elem_index(htab, l_new), value);

	pthread_spin_lock(&b->lock);
	l_old = lookup_elem_raw(htab, b, hash, key);
	ret = check_flags(l_old, map_flags);
	if (ret)
		goto out_unlock;
	chain_add_head(b, l_new, htab_elem_index(htab, l_new));
	if (l_old) {
		__atomic_store_n(&l_new->ref, 1, __ATOMIC_RELAXED);
		chain_del(htab, b, l_old);
	} else {
		__atomic_fetch_add(&htab->count, 1, __ATOMIC_RELAXED);
	}
out_unlock:
	pthread_spin_unlock(&b->lock);
	if (ret)
		htab_push_free(htab, l_new);
	else if (l_old)
		htab_push_free(htab, l_old);
	return ret;
}

/* PERCPU_HASH and LRU_PERCPU_HASH: an existing element is updated in place. */
static int __htab_percpu_map_update_elem(struct bpf_map *map, void *key, void *value,
					 u64 map_flags, bool onallcpus)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l_old, *l_new = NULL;
	struct bucket *b;
	u32 hash;
	int ret;

	if (unlikely(map_flags > BPF_EXIST))
		return -EINVAL;

	hash = htab_map_hash(key, map->key_size, htab->hashrnd);
	b = htab_bucket(htab, hash);
	if (htab->lru && map_flags != BPF_EXIST) {
		l_new = htab_pop_free(htab);
		if (!l_new)
			return -ENOMEM;
	}

	pthread_spin_lock(&b->lock);
	l_old = lookup_elem_raw(htab, b, hash, key);
	ret = check_flags(l_old, map_flags);
	if (ret)
		goto out_unlock;
	if (l_old) {
		if (htab->lru)
			__atomic_store_n(&l_old->ref, 1, __ATOMIC_RELAXED);
		pcpu_copy_value(htab, htab_elem_index(htab, l_old), value, onallcpus, false);
		goto out_unlock;
	}
	if (!htab->lru) {
		if (!htab_count_reserve(htab)) {
			ret = -E2BIG;
			goto out_unlock;
		}
		l_new = htab_pop_free(htab);
		if (!l_new) {
			__atomic_fetch_sub(&htab->count, 1, __ATOMIC_RELAXED);
			ret = -E2BIG;
			goto out_unlock;
		}
	} else {
		__atomic_fetch_add(&htab->count, 1, __ATOMIC_RELAXED);
	}
	htab_set_key(htab, l_new, key, hash);
	pcpu_copy_value(htab, htab_elem_index(htab, l_new), value, onallcpus, true);
	chain_add_head(b, l_new, htab_elem_index(htab, l_new));
	l_new = NULL;
out_unlock:
	pthread_spin_unlock(&b->lock);
	if (l_new)
		htab_push_free(htab, l_new);
	return ret;
}

static long htab_percpu_map_update_elem(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return __htab_percpu_map_update_elem(map, key, value, flags, false);
}

static int htab_percpu_map_update_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return __htab_percpu_map_update_elem(map, key, value, flags, true);
}

static long htab_map_delete_elem(struct bpf_map *map, void *key)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l;
	struct bucket *b;
	u32 hash;

	hash = htab_map_hash(key, map->key_size, htab->hashrnd);
	b = htab_bucket(htab, hash);
	pthread_spin_lock(&b->lock);
	l = lookup_elem_raw(htab, b, hash, key);
	if (l) {
		chain_del(htab, b, l);
		__atomic_fetch_sub(&htab->count, 1, __ATOMIC_RELAXED);
	}
	pthread_spin_unlock(&b->lock);
	if (!l)
		return -ENOENT;
	if (map->map_type == BPF_MAP_TYPE_HASH_OF_MAPS)
		bpf_map_fd_put_ptr(map, *(void **)htab_value(htab, htab_elem_index(htab, l), 0));
	htab_push_free(htab, l);
	return 0;
}

static void *htab_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l = __htab_map_lookup_elem(htab, key);

	return l ? htab_value(htab, htab_elem_index(htab, l), 0) : NULL;
}

static void *htab_lru_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l = __htab_map_lookup_elem(htab, key);

	if (!l)
		return NULL;
	if (!READ_ONCE(l->ref))
		WRITE_ONCE(l->ref, 1);
	return htab_value(htab, htab_elem_index(htab, l), 0);
}

static void *htab_percpu_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l = __htab_map_lookup_elem(htab, key);

	if (!l)
		return NULL;
	if (htab->lru && !READ_ONCE(l->ref))
		WRITE_ONCE(l->ref, 1);
	return htab_value(htab, htab_elem_index(htab, l), smp_processor_id());
}

/* User space reads do not count as use for the LRU. */
static int htab_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l = __htab_map_lookup_elem(htab, key);

	if (!l)
		return -ENOENT;
	if (flags & BPF_F_LOCK)
		copy_map_value_locked(map, value, htab_value(htab, htab_elem_index(htab, l), 0), true);
	else
		copy_map_value(map, value, htab_value(htab, htab_elem_index(htab, l), 0));
	check_and_init_map_value(map, value);
	return 0;
}

/* kernel: bpf_percpu_hash_copy() */
static int htab_percpu_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l = __htab_map_lookup_elem(htab, key);
	int cpu;
	u32 idx;

	if (!l)
		return -ENOENT;
	idx = htab_elem_index(htab, l);
	for_each_possible_cpu(cpu)
		memcpy((char *)value + (size_t)cpu * htab->elem_size, htab_value(htab, idx, cpu),
		       htab->elem_size);
	return 0;
}

static int htab_map_get_next_key(struct bpf_map *map, void *key, void *next_key)
{
	struct bpf_htab *htab = to_htab(map);
	struct htab_elem *l;
	struct bucket *b;
	u32 hash, i = 0;

	if (key) {
		hash = htab_map_hash(key, map->key_size, htab->hashrnd);
		b = htab_bucket(htab, hash);
		pthread_spin_lock(&b->lock);
		l = lookup_elem_raw(htab, b, hash, key);
		if (l && !(l->next & HTAB_NULLS)) {
			memcpy(next_key, htab_elem(htab, l->next)->key, map->key_size);
			pthread_spin_unlock(&b->lock);
			return 0;
		}
		pthread_spin_unlock(&b->lock);
		if (l)
			i = (hash & (htab->n_buckets - 1)) + 1;
	}
	for (; i < htab->n_buckets; i++) {
		b = &htab->buckets[i];
		pthread_spin_lock(&b->lock);
		if (!(b->head & HTAB_NULLS)) {
			memcpy(next_key, htab_elem(htab, b->head)->key, map->key_size);
			pthread_spin_unlock(&b->lock);
			return 0;
		}
		pthread_spin_unlock(&b->lock);
	}
	return -ENOENT;
}

const struct bpf_map_ops htab_map_ops = {
	.map_alloc_check = htab_map_alloc_check,
	.map_alloc = htab_map_alloc,
	.map_free = htab_map_free,
	.map_get_next_key = htab_map_get_next_key,
	.map_lookup_elem = htab_map_lookup_elem,
	.map_update_elem = htab_map_update_elem,
	.map_delete_elem = htab_map_delete_elem,
	.map_lookup_elem_sys = htab_map_lookup_elem_sys,
	.map_meta_equal = bpf_map_meta_equal,
};

const struct bpf_map_ops htab_lru_map_ops = {
	.map_alloc_check = htab_map_alloc_check,
	.map_alloc = htab_map_alloc,
	.map_free = htab_map_free,
	.map_get_next_key = htab_map_get_next_key,
	.map_lookup_elem = htab_lru_map_lookup_elem,
	.map_update_elem = htab_lru_map_update_elem,
	.map_delete_elem = htab_map_delete_elem,
	.map_lookup_elem_sys = htab_map_lookup_elem_sys,
	.map_meta_equal = bpf_map_meta_equal,
};

const struct bpf_map_ops htab_percpu_map_ops = {
	.map_alloc_check = htab_map_alloc_check,
	.map_alloc = htab_map_alloc,
	.map_free = htab_map_free,
	.map_get_next_key = htab_map_get_next_key,
	.map_lookup_elem = htab_percpu_map_lookup_elem,
	.map_update_elem = htab_percpu_map_update_elem,
	.map_delete_elem = htab_map_delete_elem,
	.map_lookup_elem_sys = htab_percpu_map_lookup_elem_sys,
	.map_update_elem_sys = htab_percpu_map_update_elem_sys,
	.map_meta_equal = bpf_map_meta_equal,
};

const struct bpf_map_ops htab_lru_percpu_map_ops = {
	.map_alloc_check = htab_map_alloc_check,
	.map_alloc = htab_map_alloc,
	.map_free = htab_map_free,
	.map_get_next_key = htab_map_get_next_key,
	.map_lookup_elem = htab_percpu_map_lookup_elem,
	.map_update_elem = htab_percpu_map_update_elem,
	.map_delete_elem = htab_map_delete_elem,
	.map_lookup_elem_sys = htab_percpu_map_lookup_elem_sys,
	.map_update_elem_sys = htab_percpu_map_update_elem_sys,
	.map_meta_equal = bpf_map_meta_equal,
};

/* ---- HASH_OF_MAPS --------------------------------------------------------- */

static struct bpf_map *htab_of_map_alloc(union bpf_attr *attr)
{
	struct bpf_map *map, *inner_map_meta;

	inner_map_meta = bpf_map_meta_alloc(attr->inner_map_fd);
	if (IS_ERR(inner_map_meta))
		return inner_map_meta;
	map = htab_map_alloc(attr);
	if (IS_ERR(map)) {
		bpf_map_meta_free(inner_map_meta);
		return map;
	}
	map->inner_map_meta = inner_map_meta;
	/* slots hold map pointers; programs get the inner map, never a slot */
	map->arena_lo = map->arena_hi = NULL;
	return map;
}

static void *htab_of_map_lookup_elem(struct bpf_map *map, void *key)
{
	void **inner_map = htab_map_lookup_elem(map, key);

	return inner_map ? READ_ONCE(*inner_map) : NULL;
}

static long htab_of_map_update_elem(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return -EOPNOTSUPP;	/* programs cannot store maps */
}

/* kernel: bpf_fd_htab_map_update_elem() */
static int htab_of_map_update_elem_sys(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	void *ptr;
	int ret;

	ptr = bpf_map_fd_get_ptr(map, bpf_get_u32(value));
	if (IS_ERR(ptr))
		return PTR_ERR(ptr);
	ret = htab_map_update_elem(map, key, &ptr, map_flags);
	if (ret)
		bpf_map_fd_put_ptr(map, ptr);
	return ret;
}

/* kernel: bpf_fd_htab_map_lookup_elem() */
static int htab_of_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	void *ptr = htab_of_map_lookup_elem(map, key);

	if (!ptr)
		return -ENOENT;
	*(u32 *)value = bpf_map_fd_sys_lookup_elem(ptr);
	return 0;
}

const struct bpf_map_ops htab_of_maps_map_ops = {
	.map_alloc_check = fd_htab_map_alloc_check,
	.map_alloc = htab_of_map_alloc,
	.map_free = htab_map_free,
	.map_get_next_key = htab_map_get_next_key,
	.map_lookup_elem = htab_of_map_lookup_elem,
	.map_update_elem = htab_of_map_update_elem,
	.map_delete_elem = htab_map_delete_elem,
	.map_lookup_elem_sys = htab_of_map_lookup_elem_sys,
	.map_update_elem_sys = htab_of_map_update_elem_sys,
};
