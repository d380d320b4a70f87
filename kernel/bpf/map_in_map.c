// SPDX-License-Identifier: GPL-2.0
/*
 * Maps of maps: the inner-map "meta" (the shape every inner map of an
 * ARRAY_OF_MAPS / HASH_OF_MAPS must have, taken from the map given at
 * creation) and the slot get/put that turn an inner map id into a
 * referenced struct bpf_map *.
 *
 * Kernel: kernel/bpf/map_in_map.c bpf_map_meta_alloc(), bpf_map_meta_equal(),
 *         bpf_map_fd_get_ptr(), bpf_map_fd_put_ptr(), bpf_map_fd_sys_lookup_elem()
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

struct bpf_map *bpf_map_meta_alloc(u32 inner_map_id)
{
	struct bpf_map *inner_map = bpf_map_get(inner_map_id);
	struct bpf_array *meta;

	/* id 0 stands for an fd that is open but no map (the kernel: -EINVAL) */
	if (!inner_map_id)
		return ERR_PTR(-EINVAL);
	if (!inner_map)
		return ERR_PTR(-EBADF);
	/* Does not support >1 level map-in-map */
	if (inner_map->inner_map_meta)
		return ERR_PTR(-EINVAL);
	if (!inner_map->ops->map_meta_equal)
		return ERR_PTR(-ENOTSUPP);

	/* a struct bpf_array so that array-specific checks can read elem_size */
	meta = calloc(1, sizeof(*meta));
	if (!meta)
		return ERR_PTR(-ENOMEM);
	meta->map.map_type = inner_map->map_type;
	meta->map.key_size = inner_map->key_size;
	meta->map.value_size = inner_map->value_size;
	meta->map.map_flags = inner_map->map_flags;
	meta->map.max_entries = inner_map->max_entries;
	meta->map.rdonly_prog = inner_map->rdonly_prog;
	meta->map.ops = inner_map->ops;
	if (inner_map->map_type == BPF_MAP_TYPE_ARRAY ||
	    inner_map->map_type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		struct bpf_array *inner = container_of(inner_map, struct bpf_array, map);

		meta->elem_size = inner->elem_size;
		meta->index_mask = inner->index_mask;
	}
	return &meta->map;
}

void bpf_map_meta_free(struct bpf_map *map_meta)
{
	if (map_meta)
		free(container_of(map_meta, struct bpf_array, map));
}

bool bpf_map_meta_equal(const struct bpf_map *meta0, const struct bpf_map *meta1)
{
	return meta0->map_type == meta1->map_type && meta0->key_size == meta1->key_size &&
	       meta0->value_size == meta1->value_size && meta0->map_flags == meta1->map_flags;
}

void *bpf_map_fd_get_ptr(struct bpf_map *map, u32 inner_map_id)
{
	struct bpf_map *inner_map_meta = map->inner_map_meta;
	struct bpf_map *inner_map = bpf_map_get(inner_map_id);

	if (!inner_map)
		return ERR_PTR(-EBADF);
	if (!inner_map_meta->ops->map_meta_equal(inner_map_meta, inner_map))
		return ERR_PTR(-EINVAL);
	bpf_map_inc(inner_map);
	return inner_map;
}

void bpf_map_fd_put_ptr(struct bpf_map *map, void *ptr)
{
	bpf_map_put(ptr);
}

u32 bpf_map_fd_sys_lookup_elem(void *ptr)
{
	return ((struct bpf_map *)ptr)->id;
}
