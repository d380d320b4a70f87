// SPDX-License-Identifier: GPL-2.0
/*
 * XSKMAP: redirect targets that are AF_XDP sockets. The map is here with
 * the kernel's creation checks and update/delete flag rules; a slot keeps
 * the socket "fd" it was given.
 *
 * AF_XDP comes later. Until then no slot holds a socket uxdp could deliver
 * to: an update with any value is accepted and remembered, user-space
 * lookups fail with -EOPNOTSUPP as in the kernel, and a redirect into the
 * map acts as the kernel's does for an empty slot (the low two flag bits
 * are the verdict).
 *
 * Kernel: net/xdp/xskmap.c xsk_map_alloc(), xsk_map_update_elem(),
 *         xsk_map_delete_elem(), xsk_map_redirect()
 * Differs: the value is not checked to be an AF_XDP socket; redirects miss.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>

struct xsk_map {
	struct bpf_map map;
	u32 *fds;		/* 0: empty slot, else the value + 1 */
};

static inline struct xsk_map *to_xsk_map(const struct bpf_map *map)
{
	return container_of(map, struct xsk_map, map);
}

static struct bpf_map *xsk_map_alloc(union bpf_attr *attr)
{
	struct xsk_map *m;

	if (attr->max_entries == 0 || attr->key_size != 4 || attr->value_size != 4 ||
	    attr->map_flags & ~(BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY))
		return ERR_PTR(-EINVAL);
	m = calloc(1, sizeof(*m));
	if (!m)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&m->map, attr);
	m->fds = calloc(attr->max_entries, sizeof(*m->fds));
	if (!m->fds) {
		free(m);
		return ERR_PTR(-ENOMEM);
	}
	return &m->map;
}

static void xsk_map_free(struct bpf_map *map)
{
	struct xsk_map *m = to_xsk_map(map);

	free(m->fds);
	free(m);
}

/* Programs get no socket: there is none to deliver to. */
static void *xsk_map_lookup_elem(struct bpf_map *map, void *key)
{
	return NULL;
}

static int xsk_map_lookup_elem_sys(struct bpf_map *map, void *key, void *value, u64 flags)
{
	return -EOPNOTSUPP;
}

static long xsk_map_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct xsk_map *m = to_xsk_map(map);
	u32 i = bpf_get_u32(key), fd = bpf_get_u32(value), old;

	if (unlikely(map_flags > BPF_EXIST))
		return -EINVAL;
	if (unlikely(i >= map->max_entries))
		return -E2BIG;
	old = READ_ONCE(m->fds[i]);
	if (old == fd + 1)
		return 0;
	if (old && map_flags == BPF_NOEXIST)
		return -EEXIST;
	if (!old && map_flags == BPF_EXIST)
		return -ENOENT;
	WRITE_ONCE(m->fds[i], fd + 1);
	return 0;
}

static long xsk_map_delete_elem(struct bpf_map *map, void *key)
{
	struct xsk_map *m = to_xsk_map(map);
	u32 k = bpf_get_u32(key);

	if (k >= map->max_entries)
		return -EINVAL;
	WRITE_ONCE(m->fds[k], 0);
	return 0;
}

static void *xsk_map_redirect_lookup(struct bpf_map *map, u32 key)
{
	return NULL;
}

static long xsk_map_redirect(struct bpf_map *map, u64 index, u64 flags)
{
	return __bpf_xdp_redirect_map(map, index, flags, 0, xsk_map_redirect_lookup);
}

static bool xsk_map_meta_equal(const struct bpf_map *meta0, const struct bpf_map *meta1)
{
	return meta0->max_entries == meta1->max_entries && bpf_map_meta_equal(meta0, meta1);
}

const struct bpf_map_ops xsk_map_ops = {
	.map_alloc = xsk_map_alloc,
	.map_free = xsk_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = xsk_map_lookup_elem,
	.map_update_elem = xsk_map_update_elem,
	.map_delete_elem = xsk_map_delete_elem,
	.map_lookup_elem_sys = xsk_map_lookup_elem_sys,
	.map_redirect = xsk_map_redirect,
	.map_meta_equal = xsk_map_meta_equal,
};
