// SPDX-License-Identifier: GPL-2.0
/*
 * DEVMAP and DEVMAP_HASH: redirect targets for bpf_redirect_map(). A slot
 * holds struct bpf_dtab_netdev: the target ifindex, an optional devmap
 * program (BPF_XDP_DEVMAP) and the struct bpf_devmap_val user space wrote,
 * read back with the program's id in bpf_prog.id. Programs see the
 * bpf_devmap_val read-only (BPF_F_RDONLY_PROG is forced, as in the kernel).
 *
 * Storage: DEVMAP slot i uses entry i of a preallocated pool; DEVMAP_HASH
 * takes entries from a free list of max_entries + 1 (one spare so a
 * replacement can be built before the old entry goes) and chains them in
 * buckets hashed by key & (n_buckets - 1), the kernel's order. The
 * bpf_devmap_val of every entry sits in one block, the map's arena.
 *
 * Devices: an entry keeps its ifindex; dev_map_entry_dev() resolves it
 * with dev_get_by_index() (weak here, returning NULL, until net/core/dev.c
 * provides it) when a redirect is carried out. An ifindex that names no
 * device is kept as given instead of being refused with -EINVAL as the
 * kernel does, so `prog run` and tests can fill devmaps without devices.
 * Redirect decisions (map_redirect) are the kernel's; sending is the
 * engine's dev_map_enqueue().
 *
 * Kernel: kernel/bpf/devmap.c dev_map_init_map(), __dev_map_update_elem(),
 *         __dev_map_hash_update_elem(), dev_map_delete_elem(),
 *         dev_map_hash_delete_elem(), dev_map_redirect(), dev_map_hash_redirect()
 * Differs: missing devices accepted (see above); a replaced entry's old
 *          program reference is dropped at once, not after an RCU grace period.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>

#define DEV_CREATE_FLAG_MASK	(BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY)
#define DEV_NONE		0xffffffffu
#define offsetofend(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))

struct bpf_dtab_netdev {
	struct bpf_prog *xdp_prog;
	struct bpf_devmap_val *val;	/* in the arena */
	u32 idx;			/* key */
	u32 next;			/* DEVMAP_HASH chain, free list */
};

struct bpf_dtab {
	struct bpf_map map;
	struct bpf_dtab_netdev **netdev_map;	/* DEVMAP */
	u32 *dev_index_head;			/* DEVMAP_HASH buckets */
	struct bpf_dtab_netdev *entries;
	struct bpf_devmap_val *vals;
	u32 n_entries;
	u32 n_buckets;
	u32 items;
	u32 free_head;
	pthread_spinlock_t index_lock;
};

__attribute__((weak)) struct net_device *dev_get_by_index(int ifindex)
{
	return NULL;
}

static inline struct bpf_dtab *to_dtab(const struct bpf_map *map)
{
	return container_of(map, struct bpf_dtab, map);
}

static u32 roundup_pow_of_two(u32 n)
{
	u32 r = 1;

	while (r < n && r)
		r <<= 1;
	return r;
}

static struct bpf_map *dev_map_alloc(union bpf_attr *attr)
{
	u32 valsize = attr->value_size;
	struct bpf_dtab *dtab;
	u32 i;

	/* 4 bytes: ifindex; 8 bytes: ifindex + program fd */
	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    (valsize != offsetofend(struct bpf_devmap_val, ifindex) &&
	     valsize != offsetofend(struct bpf_devmap_val, bpf_prog.fd)) ||
	    attr->map_flags & ~DEV_CREATE_FLAG_MASK)
		return ERR_PTR(-EINVAL);
	/* lookups return a pointer into the entry: programs must not write */
	attr->map_flags |= BPF_F_RDONLY_PROG;

	dtab = calloc(1, sizeof(*dtab));
	if (!dtab)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&dtab->map, attr);

	if (attr->map_type == BPF_MAP_TYPE_DEVMAP_HASH) {
		dtab->n_buckets = roundup_pow_of_two(attr->max_entries);
		if (!dtab->n_buckets || attr->max_entries > (1u << 30))
			goto out_einval;
		dtab->n_entries = attr->max_entries + 1;
		dtab->dev_index_head = malloc(sizeof(u32) * dtab->n_buckets);
		if (!dtab->dev_index_head)
			goto out_enomem;
		for (i = 0; i < dtab->n_buckets; i++)
			dtab->dev_index_head[i] = DEV_NONE;
	} else {
		if (attr->max_entries > (1u << 30))
			goto out_enomem;
		dtab->n_entries = attr->max_entries;
		dtab->netdev_map = calloc(attr->max_entries, sizeof(*dtab->netdev_map));
		if (!dtab->netdev_map)
			goto out_enomem;
	}
	dtab->entries = calloc(dtab->n_entries, sizeof(*dtab->entries));
	dtab->vals = calloc(dtab->n_entries, sizeof(*dtab->vals));
	if (!dtab->entries || !dtab->vals)
		goto out_enomem;
	dtab->free_head = DEV_NONE;
	for (i = dtab->n_entries; i-- > 0;) {
		dtab->entries[i].val = &dtab->vals[i];
		dtab->entries[i].next = dtab->free_head;
		dtab->free_head = i;
	}
	pthread_spin_init(&dtab->index_lock, PTHREAD_PROCESS_PRIVATE);
	dtab->map.arena_lo = dtab->vals;
	dtab->map.arena_hi = dtab->vals + dtab->n_entries;
	return &dtab->map;

out_einval:
	free(dtab);
	return ERR_PTR(-EINVAL);
out_enomem:
	free(dtab->dev_index_head);
	free(dtab->netdev_map);
	free(dtab->entries);
	free(dtab->vals);
	free(dtab);
	return ERR_PTR(-ENOMEM);
}

static void dev_map_entry_release(struct bpf_dtab_netdev *dev)
{
	if (dev && dev->xdp_prog) {
		bpf_prog_put(dev->xdp_prog);
		dev->xdp_prog = NULL;
	}
}

static void dev_map_free(struct bpf_map *map)
{
	struct bpf_dtab *dtab = to_dtab(map);
	u32 i;

	if (map->map_type == BPF_MAP_TYPE_DEVMAP) {
		for (i = 0; i < map->max_entries; i++)
			dev_map_entry_release(dtab->netdev_map[i]);
	} else {
		for (i = 0; i < dtab->n_buckets; i++) {
			u32 j;

			for (j = dtab->dev_index_head[i]; j != DEV_NONE; j = dtab->entries[j].next)
				dev_map_entry_release(&dtab->entries[j]);
		}
	}
	pthread_spin_destroy(&dtab->index_lock);
	free(dtab->dev_index_head);
	free(dtab->netdev_map);
	free(dtab->entries);
	free(dtab->vals);
	free(dtab);
}

/*
 * Fill @dev from @val: the device (kept NULL when uxdp has no such device)
 * and the devmap program, which must be XDP with expected attach type
 * BPF_XDP_DEVMAP. Errors are -EINVAL, as in the kernel's
 * __dev_map_alloc_node().
 */
static int dev_map_init_node(struct bpf_dtab_netdev *dev, const struct bpf_devmap_val *val, u32 idx)
{
	struct bpf_prog *prog = NULL;

	if (!val->ifindex)
		return -EINVAL;
	if (val->bpf_prog.fd > 0) {
		prog = bpf_prog_get(val->bpf_prog.fd);
		if (!prog || prog->type != BPF_PROG_TYPE_XDP ||
		    prog->expected_attach_type != BPF_XDP_DEVMAP)
			return -EINVAL;
		bpf_prog_inc(prog);
	}
	dev->xdp_prog = prog;
	dev->idx = idx;
	dev->val->ifindex = val->ifindex;
	dev->val->bpf_prog.id = prog ? prog->aux->id : 0;
	return 0;
}

/* ---- DEVMAP ------------------------------------------------------------ */

static struct bpf_dtab_netdev *__dev_map_lookup_elem(struct bpf_map *map, u32 key)
{
	struct bpf_dtab *dtab = to_dtab(map);

	if (key >= map->max_entries)
		return NULL;
	return __atomic_load_n(&dtab->netdev_map[key], __ATOMIC_ACQUIRE);
}

static void *dev_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_dtab_netdev *obj = __dev_map_lookup_elem(map, bpf_get_u32(key));

	return obj ? obj->val : NULL;
}

static long dev_map_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_dtab *dtab = to_dtab(map);
	struct bpf_devmap_val val = {};
	struct bpf_dtab_netdev *dev = NULL, *old_dev;
	struct bpf_prog *old_prog = NULL;
	u32 i = bpf_get_u32(key);
	int err;

	if (unlikely(map_flags > BPF_EXIST))
		return -EINVAL;
	if (unlikely(i >= map->max_entries))
		return -E2BIG;
	if (unlikely(map_flags == BPF_NOEXIST))
		return -EEXIST;

	memcpy(&val, value, map->value_size);
	if (!val.ifindex) {
		/* can not specify fd if ifindex is 0 */
		if (val.bpf_prog.fd > 0)
			return -EINVAL;
	} else {
		struct bpf_dtab_netdev tmp = { .val = &(struct bpf_devmap_val){} };

		err = dev_map_init_node(&tmp, &val, i);
		if (err)
			return err;
		dev = &dtab->entries[i];
		pthread_spin_lock(&dtab->index_lock);
		old_prog = dev->xdp_prog;
		dev->xdp_prog = tmp.xdp_prog;
		dev->idx = i;
		*dev->val = *tmp.val;
		pthread_spin_unlock(&dtab->index_lock);
	}

	pthread_spin_lock(&dtab->index_lock);
	old_dev = __atomic_exchange_n(&dtab->netdev_map[i], dev, __ATOMIC_ACQ_REL);
	if (!old_dev)
		dtab->items++;
	else if (!dev)
		dtab->items--;
	if (old_dev && !dev) {
		old_prog = old_dev->xdp_prog;
		old_dev->xdp_prog = NULL;
	}
	pthread_spin_unlock(&dtab->index_lock);
	bpf_prog_put(old_prog);
	return 0;
}

static long dev_map_delete_elem(struct bpf_map *map, void *key)
{
	struct bpf_dtab *dtab = to_dtab(map);
	struct bpf_dtab_netdev *old_dev;
	struct bpf_prog *old_prog = NULL;
	u32 k = bpf_get_u32(key);

	if (k >= map->max_entries)
		return -EINVAL;
	pthread_spin_lock(&dtab->index_lock);
	old_dev = __atomic_exchange_n(&dtab->netdev_map[k], NULL, __ATOMIC_ACQ_REL);
	if (old_dev) {
		dtab->items--;
		old_prog = old_dev->xdp_prog;
		old_dev->xdp_prog = NULL;
	}
	pthread_spin_unlock(&dtab->index_lock);
	bpf_prog_put(old_prog);
	return 0;
}

static void *dev_map_redirect_lookup(struct bpf_map *map, u32 key)
{
	return __dev_map_lookup_elem(map, key);
}

static long dev_map_redirect(struct bpf_map *map, u64 ifindex, u64 flags)
{
	return __bpf_xdp_redirect_map(map, ifindex, flags, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
				      dev_map_redirect_lookup);
}

/* ---- DEVMAP_HASH ------------------------------------------------------- */

static struct bpf_dtab_netdev *__dev_map_hash_lookup_elem(struct bpf_map *map, u32 key)
{
	struct bpf_dtab *dtab = to_dtab(map);
	u32 i, steps = 0;

	for (i = __atomic_load_n(&dtab->dev_index_head[key & (dtab->n_buckets - 1)], __ATOMIC_ACQUIRE);
	     i != DEV_NONE && i < dtab->n_entries && steps++ <= dtab->n_entries;
	     i = __atomic_load_n(&dtab->entries[i].next, __ATOMIC_ACQUIRE)) {
		if (dtab->entries[i].idx == key)
			return &dtab->entries[i];
	}
	return NULL;
}

static void *dev_map_hash_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_dtab_netdev *obj = __dev_map_hash_lookup_elem(map, bpf_get_u32(key));

	return obj ? obj->val : NULL;
}

/* index_lock held */
static void dev_map_hash_unlink(struct bpf_dtab *dtab, struct bpf_dtab_netdev *dev)
{
	u32 idx = dev - dtab->entries;
	u32 *pp = &dtab->dev_index_head[dev->idx & (dtab->n_buckets - 1)];

	while (*pp != DEV_NONE) {
		if (*pp == idx) {
			__atomic_store_n(pp, dev->next, __ATOMIC_RELEASE);
			return;
		}
		pp = &dtab->entries[*pp].next;
	}
}

/* index_lock held */
static void dev_map_hash_free_entry(struct bpf_dtab *dtab, struct bpf_dtab_netdev *dev)
{
	dev->next = dtab->free_head;
	dtab->free_head = dev - dtab->entries;
}

static long dev_map_hash_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_dtab *dtab = to_dtab(map);
	struct bpf_dtab_netdev *dev, *old_dev;
	struct bpf_devmap_val val = {};
	struct bpf_prog *old_prog = NULL;
	u32 idx = bpf_get_u32(key);
	int err = -EEXIST;

	memcpy(&val, value, map->value_size);
	if (unlikely(map_flags > BPF_EXIST || !val.ifindex))
		return -EINVAL;

	pthread_spin_lock(&dtab->index_lock);
	old_dev = __dev_map_hash_lookup_elem(map, idx);
	if (old_dev && (map_flags & BPF_NOEXIST))
		goto out_unlock;
	if (dtab->free_head == DEV_NONE) {
		err = -ENOMEM;
		goto out_unlock;
	}
	dev = &dtab->entries[dtab->free_head];
	err = dev_map_init_node(dev, &val, idx);
	if (err)
		goto out_unlock;
	if (!old_dev && dtab->items >= map->max_entries) {
		old_prog = dev->xdp_prog;
		dev->xdp_prog = NULL;
		err = -E2BIG;
		goto out_unlock;
	}
	dtab->free_head = dev->next;
	if (old_dev) {
		dev_map_hash_unlink(dtab, old_dev);
		old_prog = old_dev->xdp_prog;
		old_dev->xdp_prog = NULL;
		dev_map_hash_free_entry(dtab, old_dev);
	} else {
		dtab->items++;
	}
	dev->next = dtab->dev_index_head[idx & (dtab->n_buckets - 1)];
	__atomic_store_n(&dtab->dev_index_head[idx & (dtab->n_buckets - 1)],
			 (u32)(dev - dtab->entries), __ATOMIC_RELEASE);
	err = 0;
out_unlock:
	pthread_spin_unlock(&dtab->index_lock);
	bpf_prog_put(old_prog);
	return err;
}

static long dev_map_hash_delete_elem(struct bpf_map *map, void *key)
{
	struct bpf_dtab *dtab = to_dtab(map);
	struct bpf_dtab_netdev *old_dev;
	struct bpf_prog *old_prog = NULL;
	int ret = -ENOENT;

	pthread_spin_lock(&dtab->index_lock);
	old_dev = __dev_map_hash_lookup_elem(map, bpf_get_u32(key));
	if (old_dev) {
		dtab->items--;
		dev_map_hash_unlink(dtab, old_dev);
		old_prog = old_dev->xdp_prog;
		old_dev->xdp_prog = NULL;
		dev_map_hash_free_entry(dtab, old_dev);
		ret = 0;
	}
	pthread_spin_unlock(&dtab->index_lock);
	bpf_prog_put(old_prog);
	return ret;
}

static int dev_map_hash_get_next_key(struct bpf_map *map, void *key, void *next_key)
{
	struct bpf_dtab *dtab = to_dtab(map);
	struct bpf_dtab_netdev *dev;
	u32 *next = next_key;
	u32 i = 0;
	int ret = -ENOENT;

	pthread_spin_lock(&dtab->index_lock);
	if (key) {
		u32 idx = bpf_get_u32(key);

		dev = __dev_map_hash_lookup_elem(map, idx);
		if (dev) {
			if (dev->next != DEV_NONE) {
				*next = dtab->entries[dev->next].idx;
				ret = 0;
				goto out_unlock;
			}
			i = (idx & (dtab->n_buckets - 1)) + 1;
		}
	}
	for (; i < dtab->n_buckets; i++) {
		if (dtab->dev_index_head[i] != DEV_NONE) {
			*next = dtab->entries[dtab->dev_index_head[i]].idx;
			ret = 0;
			break;
		}
	}
out_unlock:
	pthread_spin_unlock(&dtab->index_lock);
	return ret;
}

static void *dev_map_hash_redirect_lookup(struct bpf_map *map, u32 key)
{
	return __dev_map_hash_lookup_elem(map, key);
}

static long dev_hash_map_redirect(struct bpf_map *map, u64 ifindex, u64 flags)
{
	return __bpf_xdp_redirect_map(map, ifindex, flags, BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS,
				      dev_map_hash_redirect_lookup);
}

/*
 * Resolved by ifindex at redirect time (an O(1) table lookup), not from
 * the pointer taken at update: a device registered after the update is
 * found, and one unregistered since is not used, which the kernel gets
 * from its NETDEV_UNREGISTER notifier removing the entry.
 */
struct net_device *dev_map_entry_dev(const void *tgt_value)
{
	const struct bpf_dtab_netdev *obj = tgt_value;

	return obj ? dev_get_by_index(READ_ONCE(obj->val->ifindex)) : NULL;
}

void *const *dev_map_slots(const struct bpf_map *map)
{
	if (map->map_type != BPF_MAP_TYPE_DEVMAP)
		return NULL;
	return (void *const *)to_dtab(map)->netdev_map;
}

struct bpf_prog *dev_map_entry_prog(const void *tgt_value)
{
	return tgt_value ? READ_ONCE(((const struct bpf_dtab_netdev *)tgt_value)->xdp_prog) : NULL;
}

int dev_map_for_each_entry(struct bpf_map *map, int (*fn)(void *entry, u32 key, void *ctx),
			   void *ctx)
{
	struct bpf_dtab *dtab;
	u32 i, j, steps;
	int ret;

	if (map->map_type != BPF_MAP_TYPE_DEVMAP && map->map_type != BPF_MAP_TYPE_DEVMAP_HASH)
		return -EINVAL;
	dtab = to_dtab(map);
	if (map->map_type == BPF_MAP_TYPE_DEVMAP) {
		for (i = 0; i < map->max_entries; i++) {
			struct bpf_dtab_netdev *obj = __atomic_load_n(&dtab->netdev_map[i], __ATOMIC_ACQUIRE);

			if (obj && (ret = fn(obj, i, ctx)))
				return ret;
		}
		return 0;
	}
	for (i = 0; i < dtab->n_buckets; i++) {
		steps = 0;
		for (j = __atomic_load_n(&dtab->dev_index_head[i], __ATOMIC_ACQUIRE);
		     j != DEV_NONE && j < dtab->n_entries && steps++ <= dtab->n_entries;
		     j = __atomic_load_n(&dtab->entries[j].next, __ATOMIC_ACQUIRE)) {
			ret = fn(&dtab->entries[j], dtab->entries[j].idx, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}

const struct bpf_map_ops dev_map_ops = {
	.map_alloc = dev_map_alloc,
	.map_free = dev_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = dev_map_lookup_elem,
	.map_update_elem = dev_map_update_elem,
	.map_delete_elem = dev_map_delete_elem,
	.map_redirect = dev_map_redirect,
	.map_meta_equal = bpf_map_meta_equal,
};

const struct bpf_map_ops dev_map_hash_ops = {
	.map_alloc = dev_map_alloc,
	.map_free = dev_map_free,
	.map_get_next_key = dev_map_hash_get_next_key,
	.map_lookup_elem = dev_map_hash_lookup_elem,
	.map_update_elem = dev_map_hash_update_elem,
	.map_delete_elem = dev_map_hash_delete_elem,
	.map_redirect = dev_hash_map_redirect,
	.map_meta_equal = bpf_map_meta_equal,
};
