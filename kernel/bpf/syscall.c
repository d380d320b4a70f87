// SPDX-License-Identifier: GPL-2.0
/*
 * Object registries: maps and programs by id, the ids standing in for the
 * file descriptors the kernel hands out. Map creation and element
 * operations (BPF_MAP_CREATE, BPF_MAP_*_ELEM) land here too.
 *
 * Kernel: kernel/bpf/syscall.c
 * Differs: ids are small integers from a table, not fds; single process.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bug.h>

#define BPF_ID_MAX	4096

static struct bpf_map *map_idr[BPF_ID_MAX];
static struct bpf_prog *prog_idr[BPF_ID_MAX];

struct bpf_map *bpf_map_get(u32 id)
{
	return id && id < BPF_ID_MAX ? map_idr[id] : NULL;
}

struct bpf_prog *bpf_prog_get(u32 id)
{
	return id && id < BPF_ID_MAX ? prog_idr[id] : NULL;
}

/* Returns the new id (> 0) or -ENOSPC. */
int bpf_map_alloc_id(struct bpf_map *map)
{
	u32 id;

	for (id = 1; id < BPF_ID_MAX; id++) {
		if (!map_idr[id]) {
			map_idr[id] = map;
			map->id = id;
			return id;
		}
	}
	return -ENOSPC;
}

void bpf_map_free_id(struct bpf_map *map)
{
	if (map->id && map->id < BPF_ID_MAX && map_idr[map->id] == map)
		map_idr[map->id] = NULL;
	map->id = 0;
}

int bpf_prog_alloc_id(struct bpf_prog *prog)
{
	u32 id;

	for (id = 1; id < BPF_ID_MAX; id++) {
		if (!prog_idr[id]) {
			prog_idr[id] = prog;
			prog->aux->id = id;
			return id;
		}
	}
	return -ENOSPC;
}

void bpf_prog_free_id(struct bpf_prog *prog)
{
	u32 id = prog->aux->id;

	if (id && id < BPF_ID_MAX && prog_idr[id] == prog)
		prog_idr[id] = NULL;
	prog->aux->id = 0;
}
