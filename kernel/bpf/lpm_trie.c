// SPDX-License-Identifier: GPL-2.0
/*
 * LPM_TRIE: longest-prefix-match map. Keys are struct bpf_lpm_trie_key_u8
 * {u32 prefixlen; u8 data[]} with data big-endian (data[0] most
 * significant); a lookup returns the value of the longest stored prefix
 * that matches the key's first prefixlen bits.
 *
 * The trie is the kernel's: a binary path-compressed trie of nodes holding
 * a prefix, with value-less intermediate nodes where two prefixes diverge
 * (so every intermediate node has two children). Nodes come from a pool
 * preallocated at creation (2 * max_entries + 1: every entry may need one
 * intermediate node, and a replacement briefly needs one more); their
 * values sit in one contiguous block, the map's arena. Updates take the
 * trie's lock; lookups walk without it and are bounded by the trie's depth,
 * so a node reused under a reader can give a stale answer but never a
 * runaway walk (the kernel frees nodes after an RCU grace period instead).
 *
 * Kernel: kernel/bpf/lpm_trie.c (6.14+: BPF_NOEXIST/BPF_EXIST honoured)
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bug.h>

#define LPM_TREE_NODE_FLAG_IM	1u

#define LPM_DATA_SIZE_MAX	256
#define LPM_DATA_SIZE_MIN	1
#define LPM_KERNEL_NODE_SIZE	32	/* sizeof(struct lpm_trie_node) in the kernel */
#define LPM_VAL_SIZE_MAX	(KMALLOC_MAX_SIZE - LPM_DATA_SIZE_MAX - LPM_KERNEL_NODE_SIZE)
#define LPM_VAL_SIZE_MIN	1
#define LPM_KEY_SIZE(X)		(sizeof(struct bpf_lpm_trie_key_hdr) + (X))
#define LPM_KEY_SIZE_MAX	LPM_KEY_SIZE(LPM_DATA_SIZE_MAX)
#define LPM_KEY_SIZE_MIN	LPM_KEY_SIZE(LPM_DATA_SIZE_MIN)
#define LPM_CREATE_FLAG_MASK	(BPF_F_NO_PREALLOC | BPF_F_NUMA_NODE | BPF_F_ACCESS_MASK)

#define LPM_NONE	0	/* node indexes are 1-based; 0 = no node */

struct lpm_trie_node {
	u32 child[2];
	u32 prefixlen;
	u32 flags;
	u8 data[];
};

struct lpm_trie {
	struct bpf_map map;
	u32 root;
	u32 n_entries;
	u32 max_prefixlen;
	u32 data_size;
	u32 node_size;		/* stride of nodes */
	u32 value_stride;
	u32 n_nodes;
	u32 free_head;		/* free list through child[0] */
	char *nodes;
	char *values;
	pthread_spinlock_t lock;
};

static inline struct lpm_trie *to_trie(const struct bpf_map *map)
{
	return container_of(map, struct lpm_trie, map);
}

static inline struct lpm_trie_node *trie_node(const struct lpm_trie *trie, u32 idx)
{
	return idx ? (struct lpm_trie_node *)(trie->nodes + (size_t)(idx - 1) * trie->node_size) : NULL;
}

static inline void *trie_value(const struct lpm_trie *trie, u32 idx)
{
	return trie->values + (size_t)(idx - 1) * trie->value_stride;
}

/* Keys from programs may sit at any alignment (e.g. in packet data). */
static inline u32 lpm_key_prefixlen(const struct bpf_lpm_trie_key_u8 *key)
{
	return bpf_get_u32(key);
}

static inline const u8 *lpm_key_data(const struct bpf_lpm_trie_key_u8 *key)
{
	return (const u8 *)key + sizeof(u32);
}

static inline int extract_bit(const u8 *data, size_t index)
{
	return !!(data[index / 8] & (1 << (7 - (index % 8))));
}

/*
 * Bits of @node's prefix that match @key, up to min(node, key) prefixlen.
 * Compares 8, 4, 2 then 1 bytes at a time as big-endian words, like the
 * kernel's __longest_prefix_match().
 */
static u32 longest_prefix_match(const struct lpm_trie *trie, const struct lpm_trie_node *node,
				const struct bpf_lpm_trie_key_u8 *key)
{
	u32 limit = min(node->prefixlen, lpm_key_prefixlen(key));
	const u8 *kd = lpm_key_data(key);
	u32 prefixlen = 0, i = 0;

	while (trie->data_size >= i + 8) {
		u64 a, b, diff;

		memcpy(&a, node->data + i, 8);
		memcpy(&b, kd + i, 8);
		diff = __builtin_bswap64(a ^ b);
		if (diff)
			return min(prefixlen + __builtin_clzll(diff), limit);
		prefixlen += 64;
		if (prefixlen >= limit)
			return limit;
		i += 8;
	}
	if (trie->data_size >= i + 4) {
		u32 a, b, diff;

		memcpy(&a, node->data + i, 4);
		memcpy(&b, kd + i, 4);
		diff = __builtin_bswap32(a ^ b);
		if (diff)
			return min(prefixlen + __builtin_clz(diff), limit);
		prefixlen += 32;
		if (prefixlen >= limit)
			return limit;
		i += 4;
	}
	for (; i < trie->data_size; i++) {
		u8 diff = node->data[i] ^ kd[i];

		if (diff)
			return min(prefixlen + __builtin_clz((u32)diff) - 24, limit);
		prefixlen += 8;
		if (prefixlen >= limit)
			return limit;
	}
	return min(prefixlen, limit);
}

static void *trie_lookup_elem(struct bpf_map *map, void *_key)
{
	struct lpm_trie *trie = to_trie(map);
	struct bpf_lpm_trie_key_u8 *key = _key;
	u32 idx, found = LPM_NONE, steps;

	if (lpm_key_prefixlen(key) > trie->max_prefixlen)
		return NULL;

	idx = __atomic_load_n(&trie->root, __ATOMIC_ACQUIRE);
	for (steps = 0; idx && steps <= trie->max_prefixlen + 1; steps++) {
		struct lpm_trie_node *node = trie_node(trie, idx);
		u32 matchlen = longest_prefix_match(trie, node, key);

		if (matchlen == trie->max_prefixlen) {
			found = idx;
			break;
		}
		if (matchlen < node->prefixlen)
			break;
		if (!(node->flags & LPM_TREE_NODE_FLAG_IM))
			found = idx;
		if (node->prefixlen >= trie->max_prefixlen)
			break;
		idx = __atomic_load_n(&node->child[extract_bit(lpm_key_data(key), node->prefixlen)],
				      __ATOMIC_ACQUIRE);
	}
	return found ? trie_value(trie, found) : NULL;
}

/* trie->lock held */
static u32 lpm_trie_node_alloc(struct lpm_trie *trie, const void *value)
{
	struct lpm_trie_node *node;
	u32 idx = trie->free_head;

	if (!idx)
		return LPM_NONE;
	node = trie_node(trie, idx);
	trie->free_head = node->child[0];
	node->child[0] = node->child[1] = LPM_NONE;
	node->flags = 0;
	if (value)
		memcpy(trie_value(trie, idx), value, trie->map.value_size);
	return idx;
}

static void lpm_trie_node_free(struct lpm_trie *trie, u32 idx)
{
	struct lpm_trie_node *node = trie_node(trie, idx);

	if (!idx)
		return;
	node->child[1] = LPM_NONE;
	__atomic_store_n(&node->child[0], trie->free_head, __ATOMIC_RELAXED);
	trie->free_head = idx;
}

static int trie_check_add_elem(struct lpm_trie *trie, u64 flags)
{
	if (flags == BPF_EXIST)
		return -ENOENT;
	if (trie->n_entries == trie->map.max_entries)
		return -ENOSPC;
	trie->n_entries++;
	return 0;
}

static long trie_update_elem(struct bpf_map *map, void *_key, void *value, u64 flags)
{
	struct lpm_trie *trie = to_trie(map);
	struct bpf_lpm_trie_key_u8 *key = _key;
	u32 new_idx, im_idx, free_idx = LPM_NONE, idx, *slot;
	struct lpm_trie_node *node, *new_node, *im_node;
	u32 matchlen = 0;
	int ret = 0;

	if (unlikely(flags > BPF_EXIST))
		return -EINVAL;
	if (lpm_key_prefixlen(key) > trie->max_prefixlen)
		return -EINVAL;

	pthread_spin_lock(&trie->lock);
	new_idx = lpm_trie_node_alloc(trie, value);
	if (!new_idx) {
		ret = -ENOMEM;
		goto out;
	}
	new_node = trie_node(trie, new_idx);
	new_node->prefixlen = lpm_key_prefixlen(key);
	memcpy(new_node->data, lpm_key_data(key), trie->data_size);

	slot = &trie->root;
	while ((idx = *slot)) {
		node = trie_node(trie, idx);
		matchlen = longest_prefix_match(trie, node, key);
		if (node->prefixlen != matchlen || node->prefixlen == lpm_key_prefixlen(key) ||
		    node->prefixlen == trie->max_prefixlen)
			break;
		slot = &node->child[extract_bit(lpm_key_data(key), node->prefixlen)];
	}

	if (!idx) {
		ret = trie_check_add_elem(trie, flags);
		if (ret)
			goto out;
		__atomic_store_n(slot, new_idx, __ATOMIC_RELEASE);
		goto out;
	}

	node = trie_node(trie, idx);
	if (node->prefixlen == matchlen) {
		if (!(node->flags & LPM_TREE_NODE_FLAG_IM)) {
			if (flags == BPF_NOEXIST) {
				ret = -EEXIST;
				goto out;
			}
		} else {
			ret = trie_check_add_elem(trie, flags);
			if (ret)
				goto out;
		}
		new_node->child[0] = node->child[0];
		new_node->child[1] = node->child[1];
		__atomic_store_n(slot, new_idx, __ATOMIC_RELEASE);
		free_idx = idx;
		goto out;
	}

	ret = trie_check_add_elem(trie, flags);
	if (ret)
		goto out;

	if (matchlen == lpm_key_prefixlen(key)) {
		new_node->child[extract_bit(node->data, matchlen)] = idx;
		__atomic_store_n(slot, new_idx, __ATOMIC_RELEASE);
		goto out;
	}

	im_idx = lpm_trie_node_alloc(trie, NULL);
	if (!im_idx) {
		trie->n_entries--;
		ret = -ENOMEM;
		goto out;
	}
	im_node = trie_node(trie, im_idx);
	im_node->prefixlen = matchlen;
	im_node->flags |= LPM_TREE_NODE_FLAG_IM;
	memcpy(im_node->data, node->data, trie->data_size);
	if (extract_bit(lpm_key_data(key), matchlen)) {
		im_node->child[0] = idx;
		im_node->child[1] = new_idx;
	} else {
		im_node->child[0] = new_idx;
		im_node->child[1] = idx;
	}
	__atomic_store_n(slot, im_idx, __ATOMIC_RELEASE);
out:
	if (ret)
		lpm_trie_node_free(trie, new_idx);
	lpm_trie_node_free(trie, free_idx);
	pthread_spin_unlock(&trie->lock);
	return ret;
}

static long trie_delete_elem(struct bpf_map *map, void *_key)
{
	struct lpm_trie *trie = to_trie(map);
	struct bpf_lpm_trie_key_u8 *key = _key;
	u32 *trim, *trim2, idx, parent_idx = LPM_NONE;
	struct lpm_trie_node *node = NULL, *parent = NULL;
	u32 matchlen = 0;
	int ret = 0;

	if (lpm_key_prefixlen(key) > trie->max_prefixlen)
		return -EINVAL;

	pthread_spin_lock(&trie->lock);
	trim = &trie->root;
	trim2 = trim;
	while ((idx = *trim)) {
		node = trie_node(trie, idx);
		matchlen = longest_prefix_match(trie, node, key);
		if (node->prefixlen != matchlen || node->prefixlen == lpm_key_prefixlen(key))
			break;
		parent = node;
		parent_idx = idx;
		trim2 = trim;
		trim = &node->child[extract_bit(lpm_key_data(key), node->prefixlen)];
	}
	if (!idx || node->prefixlen != lpm_key_prefixlen(key) || node->prefixlen != matchlen ||
	    (node->flags & LPM_TREE_NODE_FLAG_IM)) {
		ret = -ENOENT;
		goto out;
	}

	trie->n_entries--;

	/* two children: the node becomes intermediate */
	if (node->child[0] && node->child[1]) {
		node->flags |= LPM_TREE_NODE_FLAG_IM;
		goto out;
	}

	/* a childless node under an intermediate parent takes the parent along */
	if (parent && (parent->flags & LPM_TREE_NODE_FLAG_IM) && !node->child[0] &&
	    !node->child[1]) {
		__atomic_store_n(trim2, parent->child[0] == idx ? parent->child[1] : parent->child[0],
				 __ATOMIC_RELEASE);
		lpm_trie_node_free(trie, parent_idx);
		lpm_trie_node_free(trie, idx);
		goto out;
	}

	__atomic_store_n(trim, node->child[0] ? node->child[0] : node->child[1], __ATOMIC_RELEASE);
	lpm_trie_node_free(trie, idx);
out:
	pthread_spin_unlock(&trie->lock);
	return ret;
}

static int trie_get_next_key(struct bpf_map *map, void *_key, void *_next_key)
{
	struct lpm_trie *trie = to_trie(map);
	struct bpf_lpm_trie_key_u8 *key = _key, *next_key = _next_key;
	u32 node_stack[LPM_DATA_SIZE_MAX * 8 + 2];
	u32 idx, search_root, next_idx = LPM_NONE;
	struct lpm_trie_node *node, *parent;
	int err = 0, stack_ptr = -1;
	u32 matchlen = 0;

	pthread_spin_lock(&trie->lock);
	search_root = trie->root;
	if (!search_root) {
		err = -ENOENT;
		goto out;
	}
	if (!key || lpm_key_prefixlen(key) > trie->max_prefixlen)
		goto find_leftmost;

	for (idx = search_root; idx;) {
		node = trie_node(trie, idx);
		node_stack[++stack_ptr] = idx;
		matchlen = longest_prefix_match(trie, node, key);
		if (node->prefixlen != matchlen || node->prefixlen == lpm_key_prefixlen(key))
			break;
		idx = node->child[extract_bit(lpm_key_data(key), node->prefixlen)];
	}
	/* an exact match only (6.13+; older kernels compared key->prefixlen) */
	if (!idx || trie_node(trie, idx)->prefixlen != matchlen ||
	    (trie_node(trie, idx)->flags & LPM_TREE_NODE_FLAG_IM))
		goto find_leftmost;

	/* postorder successor of the exact match */
	idx = node_stack[stack_ptr];
	while (stack_ptr > 0) {
		parent = trie_node(trie, node_stack[stack_ptr - 1]);
		if (parent->child[0] == idx) {
			search_root = parent->child[1];
			if (search_root)
				goto find_leftmost;
		}
		if (!(parent->flags & LPM_TREE_NODE_FLAG_IM)) {
			next_idx = node_stack[stack_ptr - 1];
			goto do_copy;
		}
		idx = node_stack[stack_ptr - 1];
		stack_ptr--;
	}
	err = -ENOENT;
	goto out;

find_leftmost:
	/* leftmost non-intermediate node; intermediate nodes have two children */
	for (idx = search_root; idx;) {
		node = trie_node(trie, idx);
		if (node->flags & LPM_TREE_NODE_FLAG_IM) {
			idx = node->child[0];
		} else {
			next_idx = idx;
			idx = node->child[0];
			if (!idx)
				idx = node->child[1];
		}
	}
do_copy:
	node = trie_node(trie, next_idx);
	memcpy(next_key, &node->prefixlen, sizeof(u32));
	memcpy((u8 *)next_key + sizeof(u32), node->data, trie->data_size);
out:
	pthread_spin_unlock(&trie->lock);
	return err;
}

static struct bpf_map *trie_alloc(union bpf_attr *attr)
{
	struct lpm_trie *trie;
	u64 n_nodes;
	u32 i;

	if (attr->max_entries == 0 || !(attr->map_flags & BPF_F_NO_PREALLOC) ||
	    attr->map_flags & ~LPM_CREATE_FLAG_MASK || !bpf_map_flags_access_ok(attr->map_flags) ||
	    attr->key_size < LPM_KEY_SIZE_MIN || attr->key_size > LPM_KEY_SIZE_MAX ||
	    attr->value_size < LPM_VAL_SIZE_MIN || attr->value_size > LPM_VAL_SIZE_MAX)
		return ERR_PTR(-EINVAL);

	trie = calloc(1, sizeof(*trie));
	if (!trie)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&trie->map, attr);
	trie->data_size = attr->key_size - sizeof(struct bpf_lpm_trie_key_hdr);
	trie->max_prefixlen = trie->data_size * 8;
	trie->node_size = ALIGN(sizeof(struct lpm_trie_node) + trie->data_size, 8);
	trie->value_stride = ALIGN(attr->value_size, 8);
	n_nodes = 2ULL * attr->max_entries + 1;
	if (n_nodes > (1ULL << 31) ||
	    n_nodes * (trie->node_size + trie->value_stride) > (1ULL << 34)) {
		free(trie);
		return ERR_PTR(-ENOMEM);
	}
	trie->n_nodes = n_nodes;
	trie->nodes = calloc(n_nodes, trie->node_size);
	trie->values = calloc(n_nodes, trie->value_stride);
	if (!trie->nodes || !trie->values) {
		free(trie->nodes);
		free(trie->values);
		free(trie);
		return ERR_PTR(-ENOMEM);
	}
	for (i = trie->n_nodes; i >= 1; i--)
		lpm_trie_node_free(trie, i);
	pthread_spin_init(&trie->lock, PTHREAD_PROCESS_PRIVATE);
	trie->map.arena_lo = trie->values;
	trie->map.arena_hi = trie->values + (size_t)n_nodes * trie->value_stride;
	return &trie->map;
}

static void trie_free(struct bpf_map *map)
{
	struct lpm_trie *trie = to_trie(map);

	pthread_spin_destroy(&trie->lock);
	free(trie->nodes);
	free(trie->values);
	free(trie);
}

const struct bpf_map_ops trie_map_ops = {
	.map_alloc = trie_alloc,
	.map_free = trie_free,
	.map_get_next_key = trie_get_next_key,
	.map_lookup_elem = trie_lookup_elem,
	.map_update_elem = trie_update_elem,
	.map_delete_elem = trie_delete_elem,
	.map_meta_equal = bpf_map_meta_equal,
};
