// SPDX-License-Identifier: GPL-2.0
/*
 * CPUMAP: redirect targets that hand frames to another CPU's kthread,
 * which builds skbs there. The map itself is here: creation checks, slots
 * holding struct bpf_cpumap_val {qsize; bpf_prog} with the kernel's update
 * and delete rules, read back with the program's id.
 *
 * The CPU-map engine (per-CPU queues, the kthread, cpu_map_enqueue()) comes
 * with the multi-worker engine. Until then a redirect into a CPUMAP acts as
 * a redirect into an empty slot does in the kernel: the low two flag bits
 * are the verdict (XDP_ABORTED for a bare bpf_redirect_map(&cpumap, k, 0)).
 *
 * Kernel: kernel/bpf/cpumap.c cpu_map_alloc(), cpu_map_update_elem(),
 *         cpu_map_delete_elem(), cpu_map_redirect()
 * max_entries goes up to the kernel's NR_CPUS (CONFIG_NR_CPUS: the running
 * kernel's /sys/devices/system/cpu/kernel_max + 1, else 8192, the x86-64
 * MAXSMP value); slots from num_possible_cpus() on refuse updates with
 * -ENODEV, as the kernel's impossible CPUs do.
 *
 * Differs: updates do not start a kthread; redirects always miss (see above).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/smp.h>

#define offsetofend(TYPE, MEMBER) (offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER))
#define CPU_MAP_QSIZE_MAX	16384

struct bpf_cpu_map_entry {
	struct bpf_prog *prog;
	bool used;
};

struct bpf_cpu_map {
	struct bpf_map map;
	struct bpf_cpu_map_entry *entries;
	struct bpf_cpumap_val *vals;	/* arena */
};

static inline struct bpf_cpu_map *to_cmap(const struct bpf_map *map)
{
	return container_of(map, struct bpf_cpu_map, map);
}

#define CPUMAP_NR_CPUS_DEFAULT	8192

/* The kernel's NR_CPUS, which bounds a CPUMAP; read once. */
static u32 cpumap_nr_cpus(void)
{
	static u32 nr;
	u32 v = __atomic_load_n(&nr, __ATOMIC_RELAXED);
	unsigned int max;
	FILE *f;

	if (v)
		return v;
	v = CPUMAP_NR_CPUS_DEFAULT;
	f = fopen("/sys/devices/system/cpu/kernel_max", "re");
	if (f) {
		if (fscanf(f, "%u", &max) == 1 && max < (1U << 20))
			v = max + 1;
		fclose(f);
	}
	if (v < NR_CPUS)
		v = NR_CPUS;
	__atomic_store_n(&nr, v, __ATOMIC_RELAXED);
	return v;
}

static struct bpf_map *cpu_map_alloc(union bpf_attr *attr)
{
	u32 value_size = attr->value_size;
	struct bpf_cpu_map *cmap;

	if (attr->max_entries == 0 || attr->key_size != 4 ||
	    (value_size != offsetofend(struct bpf_cpumap_val, qsize) &&
	     value_size != offsetofend(struct bpf_cpumap_val, bpf_prog.fd)) ||
	    attr->map_flags & ~BPF_F_NUMA_NODE)
		return ERR_PTR(-EINVAL);
	if (attr->max_entries > cpumap_nr_cpus())
		return ERR_PTR(-E2BIG);

	cmap = calloc(1, sizeof(*cmap));
	if (!cmap)
		return ERR_PTR(-ENOMEM);
	bpf_map_init_from_attr(&cmap->map, attr);
	cmap->entries = calloc(attr->max_entries, sizeof(*cmap->entries));
	cmap->vals = calloc(attr->max_entries, sizeof(*cmap->vals));
	if (!cmap->entries || !cmap->vals) {
		free(cmap->entries);
		free(cmap->vals);
		free(cmap);
		return ERR_PTR(-ENOMEM);
	}
	cmap->map.arena_lo = cmap->vals;
	cmap->map.arena_hi = cmap->vals + attr->max_entries;
	return &cmap->map;
}

static void cpu_map_free(struct bpf_map *map)
{
	struct bpf_cpu_map *cmap = to_cmap(map);
	u32 i;

	for (i = 0; i < map->max_entries; i++)
		bpf_prog_put(cmap->entries[i].prog);
	free(cmap->entries);
	free(cmap->vals);
	free(cmap);
}

static void *cpu_map_lookup_elem(struct bpf_map *map, void *key)
{
	struct bpf_cpu_map *cmap = to_cmap(map);
	u32 key_cpu = bpf_get_u32(key);

	if (key_cpu >= map->max_entries || !READ_ONCE(cmap->entries[key_cpu].used))
		return NULL;
	return &cmap->vals[key_cpu];
}

static void cpu_map_entry_replace(struct bpf_cpu_map *cmap, u32 key_cpu,
				  const struct bpf_cpumap_val *val,
				  struct bpf_prog *prog)
{
	struct bpf_cpu_map_entry *e = &cmap->entries[key_cpu];
	struct bpf_prog *old = e->prog;

	if (val) {
		cmap->vals[key_cpu].qsize = val->qsize;
		cmap->vals[key_cpu].bpf_prog.id = prog ? prog->aux->id : 0;
	}
	e->prog = prog;
	WRITE_ONCE(e->used, val != NULL);
	bpf_prog_put(old);
}

static long cpu_map_update_elem(struct bpf_map *map, void *key, void *value, u64 map_flags)
{
	struct bpf_cpu_map *cmap = to_cmap(map);
	struct bpf_cpumap_val cpumap_value = {};
	struct bpf_prog *prog = NULL;
	u32 key_cpu = bpf_get_u32(key);

	memcpy(&cpumap_value, value, map->value_size);
	if (unlikely(map_flags > BPF_EXIST))
		return -EINVAL;
	if (unlikely(key_cpu >= map->max_entries))
		return -E2BIG;
	if (unlikely(map_flags == BPF_NOEXIST))
		return -EEXIST;
	if (unlikely(cpumap_value.qsize > CPU_MAP_QSIZE_MAX))
		return -EOVERFLOW;
	if (key_cpu >= num_possible_cpus())
		return -ENODEV;
	if (cpumap_value.qsize == 0) {
		cpu_map_entry_replace(cmap, key_cpu, NULL, NULL);	/* same as deleting */
		return 0;
	}
	if (cpumap_value.bpf_prog.fd > 0) {
		prog = bpf_prog_get(cpumap_value.bpf_prog.fd);
		/* the kernel fails the entry allocation: -ENOMEM */
		if (!prog || prog->type != BPF_PROG_TYPE_XDP ||
		    prog->expected_attach_type != BPF_XDP_CPUMAP)
			return -ENOMEM;
		bpf_prog_inc(prog);
	}
	cpu_map_entry_replace(cmap, key_cpu, &cpumap_value, prog);
	return 0;
}

static long cpu_map_delete_elem(struct bpf_map *map, void *key)
{
	u32 key_cpu = bpf_get_u32(key);

	if (key_cpu >= map->max_entries)
		return -EINVAL;
	cpu_map_entry_replace(to_cmap(map), key_cpu, NULL, NULL);
	return 0;
}

/* No CPU-map engine yet: every slot redirects like an empty one. */
static void *cpu_map_redirect_lookup(struct bpf_map *map, u32 key)
{
	return NULL;
}

static long cpu_map_redirect(struct bpf_map *map, u64 index, u64 flags)
{
	return __bpf_xdp_redirect_map(map, index, flags, 0, cpu_map_redirect_lookup);
}

const struct bpf_map_ops cpu_map_ops = {
	.map_alloc = cpu_map_alloc,
	.map_free = cpu_map_free,
	.map_get_next_key = array_map_get_next_key,
	.map_lookup_elem = cpu_map_lookup_elem,
	.map_update_elem = cpu_map_update_elem,
	.map_delete_elem = cpu_map_delete_elem,
	.map_redirect = cpu_map_redirect,
	.map_meta_equal = bpf_map_meta_equal,
};
