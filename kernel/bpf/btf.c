// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of kfuncs: every set a subsystem defines (its kfuncs with
 * their prototypes and flags, <linux/btf.h>) is listed here once, and the
 * loader and the verifier find a kfunc by name or by id through it. Ids
 * are BTF_KFUNC_ID_BASE plus the kfunc's position over all sets, fixed
 * for a build.
 *
 * Kernel: kernel/bpf/btf.c register_btf_kfunc_id_set(),
 *	   btf_kfunc_id_set_contains(), btf_type_by_id()
 * Differs: no BTF is parsed: a prototype is spelled in C by its set, and
 *	    the kernel structs kfuncs return are known by name and size only
 *	    (their sizes are those of Linux 6.18 on x86-64).
 */
#include <string.h>

#include <linux/btf.h>
#include <linux/compiler.h>
#include <uxdp/uxdp_bpf.h>

static const struct btf_kfunc_id_set *const btf_kfunc_sets[] = {
	&xdp_metadata_kfunc_set,
	&xdp_kfunc_set,
	&common_kfunc_set,
	&nf_conntrack_kfunc_set,
	&nf_flow_kfunc_set,
};

static const struct {
	const char *name;
	u32 size;
} btf_kernel_structs[] = {
	[BTF_STRUCT_NONE] = { "?", 0 },
	[BTF_STRUCT_NF_CONN] = { "nf_conn", 248 },
	[BTF_STRUCT_NF_CONN_INIT] = { "nf_conn___init", 248 },
	[BTF_STRUCT_FLOW_OFFLOAD_TUPLE_RHASH] = { "flow_offload_tuple_rhash", 88 },
};

u32 btf_kfunc_id_by_name(const char *name)
{
	u32 s, i, id = BTF_KFUNC_ID_BASE;

	for (s = 0; s < ARRAY_SIZE(btf_kfunc_sets); s++)
		for (i = 0; i < btf_kfunc_sets[s]->cnt; i++, id++)
			if (!strcmp(btf_kfunc_sets[s]->set[i].name, name))
				return id;
	return 0;
}

u32 btf_kfunc_id_by_func(const void *func)
{
	u32 s, i, id = BTF_KFUNC_ID_BASE;

	for (s = 0; s < ARRAY_SIZE(btf_kfunc_sets); s++)
		for (i = 0; i < btf_kfunc_sets[s]->cnt; i++, id++)
			if ((const void *)btf_kfunc_sets[s]->set[i].func == func)
				return id;
	return 0;
}

const struct bpf_kfunc_proto *btf_kfunc_by_id(u32 btf_id)
{
	u32 s, idx;

	if (btf_id < BTF_KFUNC_ID_BASE)
		return NULL;
	idx = btf_id - BTF_KFUNC_ID_BASE;
	for (s = 0; s < ARRAY_SIZE(btf_kfunc_sets); s++) {
		if (idx < btf_kfunc_sets[s]->cnt)
			return &btf_kfunc_sets[s]->set[idx];
		idx -= btf_kfunc_sets[s]->cnt;
	}
	return NULL;
}

UXDP_API const char *uxdp_bpf_kfunc_name(__u32 btf_id)
{
	const struct bpf_kfunc_proto *fn = btf_kfunc_by_id(btf_id);

	return fn ? fn->name : NULL;
}

const char *btf_kernel_struct_name(u32 id)
{
	return id < ARRAY_SIZE(btf_kernel_structs) ? btf_kernel_structs[id].name : "?";
}

u32 btf_kernel_struct_size(u32 id)
{
	return id < ARRAY_SIZE(btf_kernel_structs) ? btf_kernel_structs[id].size : 0;
}
