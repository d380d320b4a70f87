// SPDX-License-Identifier: GPL-2.0
/*
 * verdict_diff's internal half: the assembler, bpf_prog_load() of raw
 * instructions, kfunc ids and map BTF (see verdict_uxdp.h).
 *
 * Kernel: kernel/bpf/syscall.c bpf_prog_load()
 */
#include <errno.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/filter.h>

#include "../asm.h"
#include "verdict_uxdp.h"

int vu_assemble(const char *src, struct bpf_insn *out, unsigned int max, char *err,
		size_t errlen)
{
	return bpf_asm(src, out, max, err, errlen);
}

int vu_check_raw(const struct bpf_insn *insns, unsigned int cnt,
		 unsigned int expected_attach_type, int frags, char *log, size_t log_size)
{
	struct bpf_prog *prog;
	int err;

	if (log_size)
		log[0] = '\0';
	prog = bpf_prog_alloc(cnt);
	if (IS_ERR_OR_NULL(prog))
		return prog ? (int)PTR_ERR(prog) : -ENOMEM;
	memcpy(prog->insnsi, insns, (size_t)cnt * sizeof(*insns));
	prog->len = cnt;
	prog->type = BPF_PROG_TYPE_XDP;
	prog->expected_attach_type = expected_attach_type;
	prog->aux->xdp_has_frags = frags;
	err = bpf_prog_load(&prog, log, (u32)log_size);
	bpf_prog_put(prog);
	return err;
}

unsigned int vu_kfunc_id(const char *name)
{
	return btf_kfunc_id_by_name(name);
}

int vu_map_check_btf(unsigned int id, const struct btf *btf, unsigned int value_type_id)
{
	struct bpf_map *map = bpf_map_get(id);

	return map ? map_check_btf(map, btf, value_type_id) : -ENOENT;
}
