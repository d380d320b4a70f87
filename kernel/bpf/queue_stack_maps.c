// SPDX-License-Identifier: GPL-2.0
/*
 * QUEUE and STACK maps: max_entries values of value_size bytes without
 * keys (key_size 0), in a ring of max_entries + 1 slots so that head ==
 * tail means empty and head + 1 == tail full. Programs use
 * bpf_map_push_elem() (BPF_EXIST overwrites the oldest value when full,
 * else -E2BIG), bpf_map_pop_elem() and bpf_map_peek_elem() (-ENOENT and a
 * zeroed value when empty); a queue gives back the oldest value, a stack
 * the newest. From user space BPF_MAP_LOOKUP_ELEM peeks and
 * BPF_MAP_UPDATE_ELEM pushes; delete and get_next_key are -EINVAL.
 *
 * Kernel: kernel/bpf/queue_stack_maps.c queue_stack_map_alloc_check(),
 *	   queue_stack_map_alloc(), __queue_map_get(), __stack_map_get(),
 *	   queue_stack_map_push_elem()
 * Differs: a mutex for the raw spinlock (no NMI context, so never -EBUSY).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#define QUEUE_STACK_CREATE_FLAG_MASK	(BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY | \
					 BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG)

struct bpf_queue_stack {
	struct bpf_map map;
	pthread_mutex_t lock;
	u32 head, tail;
	u32 size;		/* max_entries + 1 */
	char elements[];
};

static struct bpf_queue_stack *bpf_queue_stack(struct bpf_map *map)
{
	return container_of(map, struct bpf_queue_stack, map);
}

static bool queue_stack_map_is_empty(const struct bpf_queue_stack *qs)
{
	return qs->head == qs->tail;
}

static bool queue_stack_map_is_full(const struct bpf_queue_stack *qs)
{
	u32 head = qs->head + 1;

	if (unlikely(head >= qs->size))
		head = 0;
	return head == qs->tail;
}

static int queue_stack_map_alloc_check(union bpf_attr *attr)
{
	if (attr->max_entries == 0 || attr->key_size != 0 || attr->value_size == 0 ||
	    attr->map_flags & ~QUEUE_STACK_CREATE_FLAG_MASK)
		return -EINVAL;
	if (attr->value_size > (1U << 22))	/* KMALLOC_MAX_SIZE */
		return -E2BIG;
	return 0;
}

static struct bpf_map *queue_stack_map_alloc(union bpf_attr *attr)
{
	u64 size = (u64)attr->max_entries + 1;
	struct bpf_queue_stack *qs;

	qs = calloc(1, sizeof(*qs) + size * attr->value_size);
	if (!qs)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&qs->map, attr);
	qs->size = size;
	pthread_mutex_init(&qs->lock, NULL);
	return &qs->map;
}

static void queue_stack_map_free(struct bpf_map *map)
{
	struct bpf_queue_stack *qs = bpf_queue_stack(map);

	pthread_mutex_destroy(&qs->lock);
	free(qs);
}

static long __queue_map_get(struct bpf_map *map, void *value, bool delete)
{
	struct bpf_queue_stack *qs = bpf_queue_stack(map);
	long err = 0;

	pthread_mutex_lock(&qs->lock);
	if (queue_stack_map_is_empty(qs)) {
		memset(value, 0, map->value_size);
		err = -ENOENT;
		goto out;
	}
	memcpy(value, qs->elements + (size_t)qs->tail * map->value_size, map->value_size);
	if (delete && unlikely(++qs->tail >= qs->size))
		qs->tail = 0;
out:
	pthread_mutex_unlock(&qs->lock);
	return err;
}

static long __stack_map_get(struct bpf_map *map, void *value, bool delete)
{
	struct bpf_queue_stack *qs = bpf_queue_stack(map);
	long err = 0;
	u32 index;

	pthread_mutex_lock(&qs->lock);
	if (queue_stack_map_is_empty(qs)) {
		memset(value, 0, map->value_size);
		err = -ENOENT;
		goto out;
	}
	index = qs->head ? qs->head - 1 : qs->size - 1;
	memcpy(value, qs->elements + (size_t)index * map->value_size, map->value_size);
	if (delete)
		qs->head = index;
out:
	pthread_mutex_unlock(&qs->lock);
	return err;
}

static long queue_map_peek_elem(struct bpf_map *map, void *value)
{
	return __queue_map_get(map, value, false);
}

static long queue_map_pop_elem(struct bpf_map *map, void *value)
{
	return __queue_map_get(map, value, true);
}

static long stack_map_peek_elem(struct bpf_map *map, void *value)
{
	return __stack_map_get(map, value, false);
}

static long stack_map_pop_elem(struct bpf_map *map, void *value)
{
	return __stack_map_get(map, value, true);
}

static long queue_stack_map_push_elem(struct bpf_map *map, void *value, u64 flags)
{
	struct bpf_queue_stack *qs = bpf_queue_stack(map);
	long err = 0;

	/* BPF_EXIST: replace the oldest value when full; BPF_NOEXIST means nothing here */
	if (flags & BPF_NOEXIST || flags > BPF_EXIST)
		return -EINVAL;
	pthread_mutex_lock(&qs->lock);
	if (queue_stack_map_is_full(qs)) {
		if (!(flags & BPF_EXIST)) {
			err = -E2BIG;
			goto out;
		}
		if (unlikely(++qs->tail >= qs->size))
			qs->tail = 0;
	}
	memcpy(qs->elements + (size_t)qs->head * map->value_size, value, map->value_size);
	if (unlikely(++qs->head >= qs->size))
		qs->head = 0;
out:
	pthread_mutex_unlock(&qs->lock);
	return err;
}

/* Programs reach the values only through push/pop/peek. */
static void *queue_stack_map_lookup_elem(struct bpf_map *map, void *key)
{
	return NULL;
}

static long queue_stack_map_update_elem(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return -EINVAL;
}

static long queue_stack_map_delete_elem(struct bpf_map *map, void *key)
{
	return -EINVAL;
}

static int queue_stack_map_get_next_key(struct bpf_map *map, void *key, void *next_key)
{
	return -EINVAL;
}

/* kernel: bpf_map_copy_value() and bpf_map_update_value() call peek/push for these types */
static int queue_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return flags ? -EINVAL : (int)queue_map_peek_elem(map, value);
}

static int stack_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return flags ? -EINVAL : (int)stack_map_peek_elem(map, value);
}

static int queue_stack_map_update_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return (int)queue_stack_map_push_elem(map, value, flags);
}

static int queue_stack_map_delete_elem_sys(struct bpf_map *map, void *key)
{
	return -EINVAL;
}

#define QUEUE_STACK_MAP_OPS(_kind)						\
	.map_alloc_check = queue_stack_map_alloc_check,				\
	.map_alloc = queue_stack_map_alloc,					\
	.map_free = queue_stack_map_free,					\
	.map_get_next_key = queue_stack_map_get_next_key,			\
	.map_lookup_elem = queue_stack_map_lookup_elem,				\
	.map_update_elem = queue_stack_map_update_elem,				\
	.map_delete_elem = queue_stack_map_delete_elem,				\
	.map_push_elem = queue_stack_map_push_elem,				\
	.map_pop_elem = _kind##_map_pop_elem,					\
	.map_peek_elem = _kind##_map_peek_elem,					\
	.map_lookup_elem_sys = _kind##_map_lookup_elem_sys,			\
	.map_update_elem_sys = queue_stack_map_update_elem_sys,			\
	.map_delete_elem_sys = queue_stack_map_delete_elem_sys,			\
	.map_meta_equal = bpf_map_meta_equal

const struct bpf_map_ops queue_map_ops = { QUEUE_STACK_MAP_OPS(queue) };
const struct bpf_map_ops stack_map_ops = { QUEUE_STACK_MAP_OPS(stack) };
