// SPDX-License-Identifier: GPL-2.0
/*
 * RINGBUF: a multi-producer single-consumer byte ring programs write
 * records into (bpf_ringbuf_reserve/submit/discard, bpf_ringbuf_output)
 * and uxdp reads with ringbuf_consume(), as libbpf's ring_buffer__consume()
 * reads the kernel's.
 *
 * Layout is the kernel's: each record is an 8-byte header {u32 len; u32
 * pg_off} followed by the sample, rounded up to 8 bytes; len carries
 * BPF_RINGBUF_BUSY_BIT while reserved and BPF_RINGBUF_DISCARD_BIT when
 * discarded. The data area is mapped twice back to back (a memfd mapped at
 * two consecutive addresses), so a record that wraps is still contiguous
 * for the program. Producers serialise on a spinlock; the consumer only
 * reads producer_pos and advances consumer_pos.
 *
 * The arena is both mappings of the data area. A sample handed to
 * submit/discard is checked to lie in a live ring buffer and to start a
 * reserved record before its header is touched, so a bad pointer is
 * ignored rather than written through (the kernel's verifier guarantees it
 * instead). pg_off holds the ring's slot in ringbuf_table.
 *
 * Kernel: kernel/bpf/ringbuf.c ringbuf_map_alloc(), __bpf_ringbuf_reserve(),
 *         bpf_ringbuf_commit(), bpf_ringbuf_output(), bpf_ringbuf_query();
 *         tools/lib/bpf/ringbuf.c ringbuf_process_ring()
 * Differs: no wakeups (BPF_RB_NO_WAKEUP / FORCE_WAKEUP accepted, no effect);
 *          no user-space mmap of the ring.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/filter.h>

#define RINGBUF_CREATE_FLAG_MASK	(BPF_F_NUMA_NODE)
#define RINGBUF_MAX_RECORD_SZ		(UINT32_MAX / 4)
#define RINGBUF_TABLE_SIZE		256

struct bpf_ringbuf {
	u64 mask;
	u8 *data;			/* 2 * (mask + 1) bytes: the ring, twice */
	pthread_spinlock_t spinlock;
	u64 consumer_pos __aligned(64);
	u64 producer_pos __aligned(64);
	u64 pending_pos;
	u32 slot;			/* in ringbuf_table */
};

struct bpf_ringbuf_map {
	struct bpf_map map;
	struct bpf_ringbuf *rb;
};

struct bpf_ringbuf_hdr {
	u32 len;
	u32 pg_off;
};

/* Live ring buffers, to validate samples passed back by programs. */
static struct bpf_ringbuf *ringbuf_table[RINGBUF_TABLE_SIZE];
static pthread_mutex_t ringbuf_table_lock = PTHREAD_MUTEX_INITIALIZER;

static inline struct bpf_ringbuf *to_rb(const struct bpf_map *map)
{
	return container_of(map, struct bpf_ringbuf_map, map)->rb;
}

static bool is_power_of_2(u64 n)
{
	return n && !(n & (n - 1));
}

static void bpf_ringbuf_free(struct bpf_ringbuf *rb)
{
	if (!rb)
		return;
	if (rb->data)
		munmap(rb->data, 2 * (rb->mask + 1));
	pthread_mutex_lock(&ringbuf_table_lock);
	if (rb->slot < RINGBUF_TABLE_SIZE && ringbuf_table[rb->slot] == rb)
		__atomic_store_n(&ringbuf_table[rb->slot], NULL, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&ringbuf_table_lock);
	pthread_spin_destroy(&rb->spinlock);
	free(rb);
}

static struct bpf_ringbuf *bpf_ringbuf_alloc(size_t data_sz)
{
	struct bpf_ringbuf *rb;
	u8 *area;
	int fd, i;

	rb = aligned_alloc(64, ALIGN(sizeof(*rb), 64));
	if (!rb)
		return NULL;
	memset(rb, 0, sizeof(*rb));
	pthread_spin_init(&rb->spinlock, PTHREAD_PROCESS_PRIVATE);
	rb->mask = data_sz - 1;
	rb->slot = RINGBUF_TABLE_SIZE;

	fd = memfd_create("uxdp-ringbuf", MFD_CLOEXEC);
	if (fd < 0)
		goto out_free;
	if (ftruncate(fd, data_sz))
		goto out_close;
	area = mmap(NULL, 2 * data_sz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		goto out_close;
	if (mmap(area, data_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(area + data_sz, data_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED) {
		munmap(area, 2 * data_sz);
		goto out_close;
	}
	close(fd);
	rb->data = area;

	pthread_mutex_lock(&ringbuf_table_lock);
	for (i = 0; i < RINGBUF_TABLE_SIZE; i++) {
		if (!ringbuf_table[i]) {
			rb->slot = i;
			__atomic_store_n(&ringbuf_table[i], rb, __ATOMIC_RELEASE);
			break;
		}
	}
	pthread_mutex_unlock(&ringbuf_table_lock);
	if (rb->slot == RINGBUF_TABLE_SIZE) {
		bpf_ringbuf_free(rb);
		return NULL;
	}
	return rb;

out_close:
	close(fd);
out_free:
	pthread_spin_destroy(&rb->spinlock);
	free(rb);
	return NULL;
}

static struct bpf_map *ringbuf_map_alloc(union bpf_attr *attr)
{
	struct bpf_ringbuf_map *rb_map;

	if (attr->map_flags & ~RINGBUF_CREATE_FLAG_MASK)
		return ERR_PTR(-EINVAL);
	if (attr->key_size || attr->value_size || !is_power_of_2(attr->max_entries) ||
	    attr->max_entries % PAGE_SIZE)
		return ERR_PTR(-EINVAL);

	rb_map = calloc(1, sizeof(*rb_map));
	if (!rb_map)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&rb_map->map, attr);
	rb_map->rb = bpf_ringbuf_alloc(attr->max_entries);
	if (!rb_map->rb) {
		free(rb_map);
		return ERR_PTR(-ENOMEM);
	}
	rb_map->map.arena_lo = rb_map->rb->data;
	rb_map->map.arena_hi = rb_map->rb->data + 2 * (u64)attr->max_entries;
	return &rb_map->map;
}

static void ringbuf_map_free(struct bpf_map *map)
{
	struct bpf_ringbuf_map *rb_map = container_of(map, struct bpf_ringbuf_map, map);

	bpf_ringbuf_free(rb_map->rb);
	free(rb_map);
}

/* Programs cannot look records up; user space gets the kernel's -ENOTSUPP. */
static void *ringbuf_map_lookup_elem(struct bpf_map *map, void *key)
{
	return NULL;
}

static int ringbuf_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return -ENOTSUPP;
}

static long ringbuf_map_update_elem(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return -ENOTSUPP;
}

static long ringbuf_map_delete_elem(struct bpf_map *map, void *key)
{
	return -ENOTSUPP;
}

static int ringbuf_map_get_next_key(struct bpf_map *map, void *key, void *next_key)
{
	return -ENOTSUPP;
}

const struct bpf_map_ops ringbuf_map_ops = {
	.map_alloc = ringbuf_map_alloc,
	.map_free = ringbuf_map_free,
	.map_get_next_key = ringbuf_map_get_next_key,
	.map_lookup_elem = ringbuf_map_lookup_elem,
	.map_update_elem = ringbuf_map_update_elem,
	.map_delete_elem = ringbuf_map_delete_elem,
	.map_lookup_elem_sys = ringbuf_map_lookup_elem_sys,
	.map_meta_equal = bpf_map_meta_equal,
};

/* ---- producers ------------------------------------------------------------ */

static void *__bpf_ringbuf_reserve(struct bpf_ringbuf *rb, u64 size)
{
	u64 cons_pos, prod_pos, new_prod_pos, pend_pos, len;
	struct bpf_ringbuf_hdr *hdr;

	if (unlikely(size > RINGBUF_MAX_RECORD_SZ))
		return NULL;
	len = ALIGN(size + BPF_RINGBUF_HDR_SZ, 8);
	if (len > rb->mask + 1)
		return NULL;
	cons_pos = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);

	pthread_spin_lock(&rb->spinlock);
	pend_pos = rb->pending_pos;
	prod_pos = rb->producer_pos;
	new_prod_pos = prod_pos + len;
	while (pend_pos < prod_pos) {
		u32 hdr_len;

		hdr = (void *)(rb->data + (pend_pos & rb->mask));
		hdr_len = __atomic_load_n(&hdr->len, __ATOMIC_ACQUIRE);
		if (hdr_len & BPF_RINGBUF_BUSY_BIT)
			break;
		pend_pos += ALIGN((u64)(hdr_len & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ, 8);
		if (pend_pos > prod_pos)	/* a header a program scribbled on */
			pend_pos = prod_pos;
	}
	rb->pending_pos = pend_pos;
	if (new_prod_pos - cons_pos > rb->mask || new_prod_pos - pend_pos > rb->mask) {
		pthread_spin_unlock(&rb->spinlock);
		return NULL;
	}
	hdr = (void *)(rb->data + (prod_pos & rb->mask));
	hdr->pg_off = rb->slot;
	__atomic_store_n(&hdr->len, (u32)size | BPF_RINGBUF_BUSY_BIT, __ATOMIC_RELAXED);
	__atomic_store_n(&rb->producer_pos, new_prod_pos, __ATOMIC_RELEASE);
	pthread_spin_unlock(&rb->spinlock);
	return (u8 *)hdr + BPF_RINGBUF_HDR_SZ;
}

/* The ring @sample was reserved from, or NULL for anything else. */
static struct bpf_ringbuf *bpf_ringbuf_of_sample(void *sample)
{
	u8 *p = sample;
	int i;

	for (i = 0; i < RINGBUF_TABLE_SIZE; i++) {
		struct bpf_ringbuf *rb = __atomic_load_n(&ringbuf_table[i], __ATOMIC_ACQUIRE);
		struct bpf_ringbuf_hdr *hdr;

		if (!rb || p < rb->data + BPF_RINGBUF_HDR_SZ || p >= rb->data + 2 * (rb->mask + 1))
			continue;
		if ((uintptr_t)p & 7)
			return NULL;
		hdr = (void *)(p - BPF_RINGBUF_HDR_SZ);
		if (hdr->pg_off != rb->slot || !(hdr->len & BPF_RINGBUF_BUSY_BIT))
			return NULL;
		return rb;
	}
	return NULL;
}

static void bpf_ringbuf_commit(void *sample, u64 flags, bool discard)
{
	struct bpf_ringbuf_hdr *hdr;
	u32 new_len;

	if (!bpf_ringbuf_of_sample(sample))
		return;
	hdr = (void *)((u8 *)sample - BPF_RINGBUF_HDR_SZ);
	new_len = hdr->len ^ BPF_RINGBUF_BUSY_BIT;
	if (discard)
		new_len |= BPF_RINGBUF_DISCARD_BIT;
	__atomic_exchange_n(&hdr->len, new_len, __ATOMIC_ACQ_REL);
}

BPF_CALL_3(bpf_ringbuf_reserve, struct bpf_map *, map, u64, size, u64, flags)
{
	if (unlikely(flags) || map->map_type != BPF_MAP_TYPE_RINGBUF)
		return 0;
	return (unsigned long)__bpf_ringbuf_reserve(to_rb(map), size);
}

const struct bpf_func_proto bpf_ringbuf_reserve_proto = {
	.func = bpf_ringbuf_reserve,
	.name = "bpf_ringbuf_reserve",
	.ret_type = RET_PTR_TO_RINGBUF_MEM_OR_NULL,
	.arg_type = { ARG_CONST_MAP_PTR, ARG_CONST_ALLOC_SIZE_OR_ZERO, ARG_ANYTHING },
};

BPF_CALL_2(bpf_ringbuf_submit, void *, sample, u64, flags)
{
	bpf_ringbuf_commit(sample, flags, false);
	return 0;
}

const struct bpf_func_proto bpf_ringbuf_submit_proto = {
	.func = bpf_ringbuf_submit,
	.name = "bpf_ringbuf_submit",
	.ret_type = RET_VOID,
	.arg_type = { ARG_PTR_TO_RINGBUF_MEM | OBJ_RELEASE, ARG_ANYTHING },
};

BPF_CALL_2(bpf_ringbuf_discard, void *, sample, u64, flags)
{
	bpf_ringbuf_commit(sample, flags, true);
	return 0;
}

const struct bpf_func_proto bpf_ringbuf_discard_proto = {
	.func = bpf_ringbuf_discard,
	.name = "bpf_ringbuf_discard",
	.ret_type = RET_VOID,
	.arg_type = { ARG_PTR_TO_RINGBUF_MEM | OBJ_RELEASE, ARG_ANYTHING },
};

BPF_CALL_4(bpf_ringbuf_output, struct bpf_map *, map, void *, data, u64, size, u64, flags)
{
	void *rec;

	if (unlikely(flags & ~(BPF_RB_NO_WAKEUP | BPF_RB_FORCE_WAKEUP)))
		return -EINVAL;
	if (map->map_type != BPF_MAP_TYPE_RINGBUF)
		return -EINVAL;
	rec = __bpf_ringbuf_reserve(to_rb(map), size);
	if (!rec)
		return -EAGAIN;
	memcpy(rec, data, size);
	bpf_ringbuf_commit(rec, flags, false);
	return 0;
}

const struct bpf_func_proto bpf_ringbuf_output_proto = {
	.func = bpf_ringbuf_output,
	.name = "bpf_ringbuf_output",
	.ret_type = RET_INTEGER,
	.arg_type = { ARG_CONST_MAP_PTR, ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE_OR_ZERO,
		      ARG_ANYTHING },
};

BPF_CALL_2(bpf_ringbuf_query, struct bpf_map *, map, u64, flags)
{
	struct bpf_ringbuf *rb;

	if (map->map_type != BPF_MAP_TYPE_RINGBUF)
		return 0;
	rb = to_rb(map);
	switch (flags) {
	case BPF_RB_AVAIL_DATA:
		return __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE) -
		       __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	case BPF_RB_RING_SIZE:
		return rb->mask + 1;
	case BPF_RB_CONS_POS:
		return __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	case BPF_RB_PROD_POS:
		return __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE);
	default:
		return 0;
	}
}

const struct bpf_func_proto bpf_ringbuf_query_proto = {
	.func = bpf_ringbuf_query,
	.name = "bpf_ringbuf_query",
	.ret_type = RET_INTEGER,
	.arg_type = { ARG_CONST_MAP_PTR, ARG_ANYTHING },
};

/* ---- consumer ------------------------------------------------------------- */

int ringbuf_consume(struct bpf_map *map, bpf_record_cb cb, void *ctx)
{
	u64 cons_pos, prod_pos;
	struct bpf_ringbuf *rb;
	bool got_new;
	int n = 0;

	if (!map || map->map_type != BPF_MAP_TYPE_RINGBUF)
		return -EINVAL;
	rb = to_rb(map);
	cons_pos = __atomic_load_n(&rb->consumer_pos, __ATOMIC_ACQUIRE);
	do {
		got_new = false;
		prod_pos = __atomic_load_n(&rb->producer_pos, __ATOMIC_ACQUIRE);
		while (cons_pos < prod_pos) {
			struct bpf_ringbuf_hdr *hdr = (void *)(rb->data + (cons_pos & rb->mask));
			u32 len = __atomic_load_n(&hdr->len, __ATOMIC_ACQUIRE);
			int stop = 0;

			if (len & BPF_RINGBUF_BUSY_BIT)
				return n;
			/*
			 * A program may scribble over headers inside the ring
			 * (its accesses are only kept inside the map's arena):
			 * a length that cannot be drops the rest of the ring.
			 */
			if ((len & ~BPF_RINGBUF_DISCARD_BIT) > rb->mask + 1 - BPF_RINGBUF_HDR_SZ ||
			    cons_pos + ALIGN((len & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ, 8) >
				    prod_pos) {
				__atomic_store_n(&rb->consumer_pos, prod_pos, __ATOMIC_RELEASE);
				return n;
			}
			got_new = true;
			cons_pos += ALIGN((len & ~BPF_RINGBUF_DISCARD_BIT) + BPF_RINGBUF_HDR_SZ, 8);
			if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
				n++;
				stop = cb(ctx, -1, (u8 *)hdr + BPF_RINGBUF_HDR_SZ,
					  len & ~BPF_RINGBUF_DISCARD_BIT);
			}
			__atomic_store_n(&rb->consumer_pos, cons_pos, __ATOMIC_RELEASE);
			if (stop)
				return n;
		}
	} while (got_new);
	return n;
}
