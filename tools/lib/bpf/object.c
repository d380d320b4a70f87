// SPDX-License-Identifier: GPL-2.0
/*
 * Object loading: turn a clang -target bpf ELF file into uxdp maps and
 * checked programs, doing what libbpf does between bpf_object__open() and
 * the BPF_PROG_LOAD syscall.
 *
 * libbpf reads the object model (programs and their sections, BTF-defined
 * maps, global data maps with their initial values, inner map shapes);
 * libelf gives what libbpf only resolves while loading into the kernel: the
 * relocation sections. Programs libbpf types XDP load; programs of sections
 * it does not know load as XDP when asked for (by name, section or "any",
 * as iproute2 and bpftool set_type() them); programs of other types are
 * listed, not loaded (libbpf's autoload off). For each program loaded this
 * file
 *   1. copies the function's instructions out of its section and applies
 *      the CO-RE records of .BTF.ext to it (kernel/bpf/relo_core.c) against
 *      btf_custom_path, /sys/kernel/btf/vmlinux or uxdp's built-in BTF,
 *   2. rewrites ld_imm64 against map symbols to BPF_PSEUDO_MAP_FD and
 *      against data sections to BPF_PSEUDO_MAP_VALUE (imm = uxdp map id,
 *      next imm = offset), as bpf_object__relocate_data() does,
 *   3. appends every static subprogram it calls (or takes the address of,
 *      BPF_PSEUDO_FUNC) after the main program and fixes the relative imm,
 *      as bpf_object__reloc_code() does,
 *   4. hands the result to bpf_prog_load().
 * Declarative initial values of PROG_ARRAY and *_OF_MAPS slots (relocations
 * in .rel.maps, libbpf's init_slots) are applied after all programs load.
 *
 * Roadmap: uxdp_bpf_object_open() -> object_elf_init() -> object_read_core()
 * -> object_create_maps() -> object_load_progs() (object_load_prog(),
 * object_link_prog(): object_core_chunk(), link_relocate_insn()) ->
 * object_init_slots(); uxdp_bpf_object_load_xdp() -> object_load_wanted().
 *
 * Kernel: tools/lib/bpf/libbpf.c bpf_object__relocate_data(),
 *	   bpf_object__reloc_code(), bpf_object__create_map(),
 *	   bpf_object__init_prog_arrays(), bpf_object__relocate_core();
 *	   kernel/bpf/syscall.c bpf_prog_load()
 * Legacy SEC("maps") definitions (struct bpf_map_def), which libbpf >= 1.0
 * refuses, are read here from the ELF symbols: libbpf is handed a copy of
 * the object in which the "maps" section and the BTF (whose DATASEC "maps"
 * libbpf could not size without that section) are hidden (typed
 * SHT_STRTAB, which libbpf skips) and the relocations against legacy maps
 * are cut off their relocation sections.
 *
 * Differs: kfunc externs resolve against uxdp's own kfuncs
 *	    (<linux/btf.h>), __kconfig externs as kernel/bpf/kconfig.c says,
 *	    data ksyms are refused with the program, instruction and symbol
 *	    named; CO-RE candidates come from
 *	    one target BTF (no module BTFs); global data maps are not
 *	    mmap-able (BPF_F_MMAPABLE is dropped).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <linux/bpf.h>
#include <linux/bpf_core.h>
#include <linux/bpf_coverage.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <uxdp/uxdp_bpf.h>

#include "kconfig.h"

#ifndef EM_BPF
#define EM_BPF		247
#endif
#ifndef R_BPF_64_64
#define R_BPF_64_64	1
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32	10
#endif
#ifndef BPF_F_MMAPABLE
#define BPF_F_MMAPABLE	(1U << 10)
#endif

#define BPF_INSN_SZ	sizeof(struct bpf_insn)
#define OBJECT_MAX_SIZE	(256U << 20)

struct obj_map {
	char *name;
	struct bpf_map *map;		/* one user reference */
	int shndx;			/* data section of a global data map, else -1 */
	bool internal;
	bool kconfig;			/* the .kconfig map of __kconfig externs */
	u32 btf_key_type_id;		/* in the object's .BTF, 0: none */
	u32 btf_value_type_id;		/* global data: its DATASEC */
};

/* Why a program of the object is not loaded (libbpf: autoload off). */
enum obj_prog_state {
	OBJ_PROG_LOADED,
	OBJ_PROG_OTHER_TYPE,		/* a section of another program type (tc, tp_btf, ...) */
	OBJ_PROG_UNKNOWN_SEC,		/* a section libbpf does not know: XDP when asked for */
	OBJ_PROG_NOT_ASKED,		/* XDP, but only the program asked for loads (xdp_only) */
};

struct obj_prog {
	char *name;
	char *sec;
	struct bpf_program *lp;		/* libbpf's view */
	struct bpf_prog *prog;		/* one reference, NULL unless loaded */
	enum obj_prog_state state;
	bool frags;
};

/* A function copied into the program being linked. */
struct link_chunk {
	int shndx;
	u32 sec_insn_off;		/* first instruction in its section */
	u32 cnt;
	u32 out_off;			/* first instruction in the linked program */
};

struct uxdp_bpf_object {
	char *path;
	void *buf;
	size_t size;
	Elf *elf;
	struct bpf_object *lobj;
	size_t shnum;
	size_t shstrndx;
	Elf_Data *symtab;
	size_t nr_syms;
	size_t strtabndx;
	int maps_shndx;			/* ".maps" or -1 */
	int legacy_shndx;		/* legacy "maps" or -1 */
	void *lbuf;			/* what libbpf reads: buf, or a patched copy */
	struct obj_map *maps;
	unsigned int nr_maps;
	struct obj_prog *progs;
	unsigned int nr_progs;
	char *log;			/* caller's log buffer, may be NULL */
	u32 prog_ifindex;		/* device the programs are bound to, or 0 */
	size_t log_size;
	bool failed;			/* first error recorded */
	u32 func_info_cnt;		/* .BTF.ext func_info records */
	struct btf *local_btf;		/* .BTF as clang wrote it (CO-RE local types) */
	struct btf *targ_btf;		/* CO-RE target, opened at the first relocation */
	char *btf_path;			/* target BTF file (btf_custom_path), or NULL */
	const char *targ_name;		/* what the target BTF is, for messages */
	struct core_relo *relos;	/* CO-RE records of .BTF.ext */
	unsigned int nr_relos;
};

static __printf(2, 3) int obj_err(struct uxdp_bpf_object *obj, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n;

	if (obj->failed)
		return 0;
	obj->failed = true;
	n = snprintf(msg, sizeof(msg), "%s: ", obj->path);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	uxdp_errmsg_set(msg);
	if (obj->log && obj->log_size)
		snprintf(obj->log, obj->log_size, "%s", msg);
	else
		pr_warn("%s\n", msg);
	return 0;
}

/* ---- ELF access (libelf), every index and offset bounds-checked --------- */

static const char *elf_sec_name(struct uxdp_bpf_object *obj, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(obj->elf, shndx);
	GElf_Shdr sh;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &sh))
		return NULL;
	name = elf_strptr(obj->elf, obj->shstrndx, sh.sh_name);
	return name;
}

static bool elf_sec_shdr(struct uxdp_bpf_object *obj, size_t shndx, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(obj->elf, shndx);

	return scn && gelf_getshdr(scn, sh);
}

static Elf_Data *elf_sec_data(struct uxdp_bpf_object *obj, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(obj->elf, shndx);

	return scn ? elf_getdata(scn, NULL) : NULL;
}

static bool elf_sym(struct uxdp_bpf_object *obj, size_t idx, GElf_Sym *sym)
{
	if (idx >= obj->nr_syms)
		return false;
	return gelf_getsym(obj->symtab, (int)idx, sym) != NULL;
}

static const char *elf_sym_name(struct uxdp_bpf_object *obj, const GElf_Sym *sym)
{
	const char *name;

	if (GELF_ST_TYPE(sym->st_info) == STT_SECTION)
		name = elf_sec_name(obj, sym->st_shndx);
	else
		name = elf_strptr(obj->elf, obj->strtabndx, sym->st_name);
	return name ? name : "?";
}

static bool elf_sec_is_exec(struct uxdp_bpf_object *obj, size_t shndx)
{
	GElf_Shdr sh;

	return shndx && shndx < obj->shnum && elf_sec_shdr(obj, shndx, &sh) &&
	       sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR);
}

/* The function symbol of section @shndx starting at byte @off. */
static bool elf_find_func(struct uxdp_bpf_object *obj, size_t shndx, u64 off, GElf_Sym *out)
{
	GElf_Sym sym;
	size_t i;

	for (i = 1; i < obj->nr_syms; i++) {
		if (!elf_sym(obj, i, &sym))
			return false;
		if (sym.st_shndx == shndx && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
		    sym.st_value == off) {
			*out = sym;
			return true;
		}
	}
	return false;
}

/* The relocation section applying to @shndx, or 0. */
static size_t elf_rel_sec(struct uxdp_bpf_object *obj, size_t shndx)
{
	GElf_Shdr sh;
	size_t i;

	for (i = 1; i < obj->shnum; i++) {
		if (elf_sec_shdr(obj, i, &sh) && sh.sh_type == SHT_REL && sh.sh_info == shndx)
			return i;
	}
	return 0;
}

static int object_elf_init(struct uxdp_bpf_object *obj)
{
	GElf_Ehdr ehdr;
	GElf_Shdr sh;
	size_t i;

	elf_version(EV_CURRENT);
	obj->elf = elf_memory(obj->buf, obj->size);
	if (!obj->elf || elf_kind(obj->elf) != ELF_K_ELF || !gelf_getehdr(obj->elf, &ehdr))
		return obj_err(obj, "not an ELF object"), -EINVAL;
	if (gelf_getclass(obj->elf) != ELFCLASS64 || ehdr.e_machine != EM_BPF)
		return obj_err(obj, "not a 64-bit BPF ELF object (machine %u)", ehdr.e_machine), -EINVAL;
	if (elf_getshdrnum(obj->elf, &obj->shnum) || elf_getshdrstrndx(obj->elf, &obj->shstrndx))
		return obj_err(obj, "malformed ELF: section headers: %s", elf_errmsg(-1)), -EINVAL;
	obj->maps_shndx = -1;
	obj->legacy_shndx = -1;
	for (i = 1; i < obj->shnum; i++) {
		const char *name;

		if (!elf_sec_shdr(obj, i, &sh))
			return obj_err(obj, "malformed ELF: section %zu: %s", i, elf_errmsg(-1)), -EINVAL;
		name = elf_sec_name(obj, i);
		if (!name)
			return obj_err(obj, "malformed ELF: section %zu has no name", i), -EINVAL;
		if (sh.sh_type == SHT_SYMTAB) {
			obj->symtab = elf_sec_data(obj, i);
			if (!obj->symtab || !sh.sh_entsize || sh.sh_link >= obj->shnum)
				return obj_err(obj, "malformed ELF: symbol table"), -EINVAL;
			obj->nr_syms = obj->symtab->d_size / sh.sh_entsize;
			obj->strtabndx = sh.sh_link;
		}
		if (!strcmp(name, ".maps"))
			obj->maps_shndx = (int)i;
		if (!strcmp(name, "maps") && sh.sh_type == SHT_PROGBITS && sh.sh_size)
			obj->legacy_shndx = (int)i;
	}
	if (!obj->symtab)
		return obj_err(obj, "malformed ELF: no symbol table"), -EINVAL;
	return 0;
}

/* ---- legacy SEC("maps") ------------------------------------------------ */

/* struct bpf_map_def of samples/bpf and libbpf < 1.0 (first five fields). */
struct bpf_map_def_legacy {
	u32 type;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u32 map_flags;
};

/* In libbpf's copy: @size bytes, or hidden (SHT_STRTAB is skipped) if @hide. */
static int legacy_patch_shdr(struct uxdp_bpf_object *obj, const GElf_Ehdr *ehdr,
			     size_t shndx, u64 size, bool hide)
{
	u64 off = ehdr->e_shoff + (u64)shndx * ehdr->e_shentsize;
	Elf64_Shdr sh;

	if (ehdr->e_shentsize != sizeof(sh) || off + sizeof(sh) > obj->size)
		return -EINVAL;
	memcpy(&sh, (u8 *)obj->lbuf + off, sizeof(sh));
	sh.sh_size = size;
	if (hide)
		sh.sh_type = SHT_STRTAB;
	memcpy((u8 *)obj->lbuf + off, &sh, sizeof(sh));
	return 0;
}

/*
 * The copy libbpf reads: no "maps" section, no BTF, and no relocations
 * against legacy map symbols (moved to the end of their section, which is
 * then cut short). uxdp's own view (obj->elf) stays on the original bytes.
 */
static int object_legacy_copy(struct uxdp_bpf_object *obj)
{
	GElf_Ehdr ehdr;
	size_t i;

	if (!gelf_getehdr(obj->elf, &ehdr) || ehdr.e_ident[EI_DATA] != ELFDATA2LSB)
		return obj_err(obj, "legacy maps: only little-endian objects"), -EINVAL;
	obj->lbuf = malloc(obj->size);
	if (!obj->lbuf)
		return -ENOMEM;
	memcpy(obj->lbuf, obj->buf, obj->size);
	for (i = 1; i < obj->shnum; i++) {
		const char *name = elf_sec_name(obj, i);
		Elf_Data *d;
		GElf_Shdr sh;
		size_t n, r, kept = 0;

		if (!name || !elf_sec_shdr(obj, i, &sh))
			return -EINVAL;
		if ((int)i == obj->legacy_shndx || !strcmp(name, ".BTF") || !strcmp(name, ".BTF.ext")) {
			if (legacy_patch_shdr(obj, &ehdr, i, 0, true))
				return obj_err(obj, "malformed ELF: section header %zu", i), -EINVAL;
			continue;
		}
		if (sh.sh_type != SHT_REL || sh.sh_entsize != sizeof(Elf64_Rel))
			continue;
		d = elf_sec_data(obj, i);
		if (!d || sh.sh_offset + sh.sh_size > obj->size)
			return obj_err(obj, "malformed ELF: relocation section %zu", i), -EINVAL;
		n = d->d_size / sizeof(Elf64_Rel);
		for (r = 0; r < n; r++) {
			GElf_Rel rel;
			GElf_Sym sym;
			Elf64_Rel raw;

			if (!gelf_getrel(d, (int)r, &rel))
				return -EINVAL;
			if (elf_sym(obj, GELF_R_SYM(rel.r_info), &sym) &&
			    (int)sym.st_shndx == obj->legacy_shndx)
				continue;
			raw.r_offset = rel.r_offset;
			raw.r_info = rel.r_info;
			memcpy((u8 *)obj->lbuf + sh.sh_offset + kept * sizeof(raw), &raw, sizeof(raw));
			kept++;
		}
		if (kept != n && legacy_patch_shdr(obj, &ehdr, i, kept * sizeof(Elf64_Rel), false))
			return -EINVAL;
	}
	return 0;
}

static unsigned int object_legacy_count(struct uxdp_bpf_object *obj)
{
	unsigned int n = 0;
	GElf_Sym sym;
	size_t i;

	for (i = 1; obj->legacy_shndx > 0 && i < obj->nr_syms; i++)
		if (elf_sym(obj, i, &sym) && (int)sym.st_shndx == obj->legacy_shndx &&
		    GELF_ST_TYPE(sym.st_info) == STT_OBJECT)
			n++;
	return n;
}

static int object_create_legacy_maps(struct uxdp_bpf_object *obj)
{
	Elf_Data *d = obj->legacy_shndx > 0 ? elf_sec_data(obj, obj->legacy_shndx) : NULL;
	GElf_Sym sym;
	size_t i;

	if (obj->legacy_shndx <= 0)
		return 0;
	if (!d || !d->d_buf)
		return obj_err(obj, "malformed ELF: section 'maps'"), -EINVAL;
	for (i = 1; i < obj->nr_syms; i++) {
		struct bpf_map_def_legacy def = {};
		struct obj_map *om;
		struct bpf_map *map;
		union bpf_attr attr;
		const char *name;

		if (!elf_sym(obj, i, &sym) || (int)sym.st_shndx != obj->legacy_shndx ||
		    GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
			continue;
		name = elf_sym_name(obj, &sym);
		if (sym.st_size < offsetof(struct bpf_map_def_legacy, map_flags) ||
		    sym.st_value > d->d_size || sym.st_size > d->d_size - sym.st_value)
			return obj_err(obj, "legacy map '%s': definition of %llu bytes at %llu does not fit section 'maps'",
				       name, (unsigned long long)sym.st_size,
				       (unsigned long long)sym.st_value), -EINVAL;
		memcpy(&def, (u8 *)d->d_buf + sym.st_value,
		       sym.st_size < sizeof(def) ? sym.st_size : sizeof(def));
		memset(&attr, 0, sizeof(attr));
		attr.map_type = def.type;
		attr.key_size = def.key_size;
		attr.value_size = def.value_size;
		attr.max_entries = def.max_entries;
		attr.map_flags = def.map_flags;
		if (attr.map_type == BPF_MAP_TYPE_PERF_EVENT_ARRAY && !attr.max_entries)
			attr.max_entries = num_possible_cpus();
		snprintf(attr.map_name, sizeof(attr.map_name), "%s", name);
		map = bpf_map_new(&attr);
		if (IS_ERR(map))
			return obj_err(obj, "legacy map '%s': type %u key %u value %u max_entries %u: %s",
				       name, def.type, def.key_size, def.value_size, def.max_entries,
				       strerror((int)-PTR_ERR(map))), (int)PTR_ERR(map);
		om = &obj->maps[obj->nr_maps++];
		om->map = map;
		om->shndx = -1;
		om->name = strdup(name);
		if (!om->name)
			return -ENOMEM;
	}
	return 0;
}

/* ---- BTF sanity before libbpf sees it ------------------------------------ */

/*
 * libbpf 1.1 trusts the type graph of .BTF once btf__new() has accepted
 * its layout: a type id out of range in a member or a FUNC pointing at
 * something else than a FUNC_PROTO crashes bpf_object__open_mem() (fixed by
 * btf_sanity_check() in libbpf 1.3). Walk every type with libbpf's own BTF
 * accessors and refuse what later libbpf versions refuse.
 */
static bool btf_ref_ok(__u32 nr, __u32 id)
{
	return id < nr;
}

/*
 * The kernel refuses BTF where a chain of modifiers, typedefs, variables and
 * array elements loops or runs deeper than MAX_RESOLVE_DEPTH (32) types
 * (btf_resolve()); libbpf 1.1 and the loader follow such chains unbounded.
 */
static bool btf_chain_ok(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth;

	for (depth = 0; t && depth <= 32; depth++) {
		if (btf_is_array(t))
			id = btf_array(t)->type;
		else if (btf_is_mod(t) || btf_is_typedef(t) || btf_is_var(t))
			id = t->type;
		else
			return true;
		t = btf__type_by_id(btf, id);
	}
	return !t;
}

static int object_check_btf(struct uxdp_bpf_object *obj)
{
	const struct btf_type *t;
	Elf_Data *data = NULL;
	struct btf *btf;
	__u32 nr, id, k;
	int err = 0;
	size_t i;

	for (i = 1; i < obj->shnum; i++) {
		const char *name = elf_sec_name(obj, i);

		if (name && !strcmp(name, ".BTF")) {
			data = elf_sec_data(obj, i);
			break;
		}
	}
	if (!data || !data->d_buf || !data->d_size)
		return 0;
	btf = btf__new(data->d_buf, data->d_size);
	if (!btf)
		return obj_err(obj, "malformed .BTF: %s", strerror(errno)), -EINVAL;
	nr = btf__type_cnt(btf);
	for (id = 1; id < nr && !err; id++) {
		bool ok = true;

		t = btf__type_by_id(btf, id);
		if (!t || !btf__name_by_offset(btf, t->name_off)) {
			err = -EINVAL;
			break;
		}
		switch (btf_kind(t)) {
		case BTF_KIND_INT:
		case BTF_KIND_FLOAT:
		case BTF_KIND_FWD:
			break;
		case BTF_KIND_FUNC: {
			const struct btf_type *ft = btf__type_by_id(btf, t->type);

			ok = btf_ref_ok(nr, t->type) && ft && btf_is_func_proto(ft);
			break;
		}
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_VAR:
		case BTF_KIND_DECL_TAG:
			ok = btf_ref_ok(nr, t->type);
			break;
		case BTF_KIND_ARRAY:
			ok = btf_ref_ok(nr, btf_array(t)->type) &&
			     btf_ref_ok(nr, btf_array(t)->index_type);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (k = 0; k < btf_vlen(t) && ok; k++)
				ok = btf_ref_ok(nr, btf_members(t)[k].type) &&
				     btf__name_by_offset(btf, btf_members(t)[k].name_off);
			break;
		case BTF_KIND_ENUM:
			for (k = 0; k < btf_vlen(t) && ok; k++)
				ok = btf__name_by_offset(btf, btf_enum(t)[k].name_off) != NULL;
			break;
		case BTF_KIND_ENUM64:
			for (k = 0; k < btf_vlen(t) && ok; k++)
				ok = btf__name_by_offset(btf, btf_enum64(t)[k].name_off) != NULL;
			break;
		case BTF_KIND_FUNC_PROTO:
			ok = btf_ref_ok(nr, t->type);
			for (k = 0; k < btf_vlen(t) && ok; k++)
				ok = btf_ref_ok(nr, btf_params(t)[k].type) &&
				     btf__name_by_offset(btf, btf_params(t)[k].name_off);
			break;
		case BTF_KIND_DATASEC:
			for (k = 0; k < btf_vlen(t) && ok; k++)
				ok = btf_ref_ok(nr, btf_var_secinfos(t)[k].type);
			break;
		default:
			ok = false;
		}
		if (!ok || !btf_chain_ok(btf, id))
			err = -EINVAL;
	}
	if (err) {
		btf__free(btf);
		return obj_err(obj, "malformed .BTF: type [%u] is invalid", id), err;
	}
	obj->local_btf = btf;
	return 0;
}

/* ---- CO-RE relocations (.BTF.ext) ---------------------------------------- */


/* A poisoned instruction of the program being linked, for the checker's log. */
struct core_poison {
	u32 idx;
	char desc[256];
};

struct link_state {
	struct bpf_insn *insns;
	u32 cnt, cap;
	struct link_chunk *chunks;
	u32 nr_chunks, cap_chunks;
	const char *prog;
	struct core_poison poison[8];
	u32 nr_poison;
};

/* One struct bpf_core_relo record and the section it applies to. */
struct core_relo {
	const char *sec;		/* in local_btf's strings */
	struct bpf_core_relo r;
};

/*
 * How many func_info records .BTF.ext has (all sections): the kernel takes
 * a callback's address only in a program loaded with them.
 */
static void obj_count_func_info(struct uxdp_bpf_object *obj, const struct btf_ext_hdr *hdr,
				const Elf_Data *data)
{
	const u8 *p = (const u8 *)data->d_buf + hdr->hdr_len + hdr->func_info_off;
	u32 rec_size, len = hdr->func_info_len;

	if (len < 4 || (u64)hdr->hdr_len + hdr->func_info_off + len > data->d_size)
		return;
	memcpy(&rec_size, p, 4);
	if (rec_size)
		obj->func_info_cnt = (len - 4) / rec_size;
}

/*
 * Read the CO-RE records of .BTF.ext; they are applied per function while
 * linking (object_core_chunk()), so records of programs that are not
 * loaded are never looked at, as with libbpf's autoload off.
 */
static int object_read_core(struct uxdp_bpf_object *obj)
{
	struct btf_ext_hdr hdr;
	Elf_Data *data = NULL;
	const u8 *p, *end;
	u32 rec_size;
	size_t i, n = 0;

	for (i = 1; i < obj->shnum; i++) {
		const char *name = elf_sec_name(obj, i);

		if (name && !strcmp(name, ".BTF.ext")) {
			data = elf_sec_data(obj, i);
			break;
		}
	}
	if (!data || !data->d_buf || data->d_size < offsetof(struct btf_ext_hdr, core_relo_off))
		return 0;
	memset(&hdr, 0, sizeof(hdr));
	memcpy(&hdr, data->d_buf, data->d_size < sizeof(hdr) ? data->d_size : sizeof(hdr));
	if (hdr.magic != 0xeB9F || hdr.hdr_len < sizeof(hdr))
		return 0;
	obj_count_func_info(obj, &hdr, data);
	if (!hdr.core_relo_len)
		return 0;
	if ((u64)hdr.hdr_len + hdr.core_relo_off + hdr.core_relo_len > data->d_size ||
	    hdr.core_relo_len < 4)
		return obj_err(obj, "malformed .BTF.ext: CO-RE relocations out of bounds"), -EINVAL;
	if (!obj->local_btf)
		return obj_err(obj, "malformed .BTF.ext: CO-RE relocations without .BTF"), -EINVAL;
	p = (const u8 *)data->d_buf + hdr.hdr_len + hdr.core_relo_off;
	end = p + hdr.core_relo_len;
	memcpy(&rec_size, p, 4);
	p += 4;
	if (rec_size < sizeof(struct bpf_core_relo) || rec_size > 256)
		return obj_err(obj, "malformed .BTF.ext: CO-RE record size %u", rec_size), -EINVAL;
	/* two passes: count, then fill */
	for (int pass = 0; pass < 2; pass++) {
		const u8 *q = p;

		if (pass) {
			obj->relos = calloc(n ? n : 1, sizeof(*obj->relos));
			if (!obj->relos)
				return -ENOMEM;
		}
		while (q < end) {
			u32 sec_off, num, k;
			const char *sec;

			if (end - q < 8)
				return obj_err(obj, "malformed .BTF.ext: CO-RE section header cut"), -EINVAL;
			memcpy(&sec_off, q, 4);
			memcpy(&num, q + 4, 4);
			q += 8;
			if ((u64)num * rec_size > (u64)(end - q))
				return obj_err(obj, "malformed .BTF.ext: CO-RE section overruns"), -EINVAL;
			sec = btf__name_by_offset(obj->local_btf, sec_off);
			if (!sec || !*sec)
				return obj_err(obj, "malformed .BTF.ext: CO-RE section name at %u", sec_off),
				       -EINVAL;
			for (k = 0; k < num; k++, q += rec_size) {
				struct core_relo *cr;

				if (!pass) {
					n++;
					continue;
				}
				cr = &obj->relos[obj->nr_relos++];
				cr->sec = sec;
				memcpy(&cr->r, q, sizeof(cr->r));
			}
		}
	}
	return 0;
}

/* kernel/bpf/core_btf.bpf.c's BTF, generated at build time (absent without clang) */
extern const unsigned char uxdp_core_btf[] __attribute__((weak));
extern const unsigned int uxdp_core_btf_len __attribute__((weak));

/* The CO-RE target: btf FILE, else the running kernel's, else uxdp's own. */
static int object_targ_btf(struct uxdp_bpf_object *obj)
{
	if (obj->targ_btf || obj->targ_name)
		return 0;
	if (obj->btf_path) {
		obj->targ_btf = btf__parse(obj->btf_path, NULL);
		if (!obj->targ_btf)
			return obj_err(obj, "btf %s: cannot read a BTF from it: %s", obj->btf_path,
				       strerror(errno)), -EINVAL;
		obj->targ_name = obj->btf_path;
		return 0;
	}
	if (!access("/sys/kernel/btf/vmlinux", R_OK)) {
		obj->targ_btf = btf__parse("/sys/kernel/btf/vmlinux", NULL);
		if (obj->targ_btf) {
			obj->targ_name = "/sys/kernel/btf/vmlinux";
			return 0;
		}
	}
	if (uxdp_core_btf && &uxdp_core_btf_len)
		obj->targ_btf = btf__new(uxdp_core_btf, uxdp_core_btf_len);
	obj->targ_name = obj->targ_btf ? "uxdp's built-in BTF" : "(no target BTF)";
	return 0;
}

/* Apply the CO-RE records of chunk @c (a function copied to the program). */
static int object_core_chunk(struct uxdp_bpf_object *obj, struct link_state *ls,
			     const struct link_chunk *c)
{
	const char *sec = elf_sec_name(obj, c->shndx);
	unsigned int i;
	int err;

	for (i = 0; sec && i < obj->nr_relos; i++) {
		const struct core_relo *cr = &obj->relos[i];
		struct bpf_core_relo_res res;
		char why[256] = "";
		u32 insn, idx;

		if (strcmp(cr->sec, sec) || cr->r.insn_off % BPF_INSN_SZ)
			continue;
		insn = cr->r.insn_off / BPF_INSN_SZ;
		if (insn < c->sec_insn_off || insn >= c->sec_insn_off + c->cnt)
			continue;
		idx = c->out_off + insn - c->sec_insn_off;
		if (cr->r.kind != BPF_CORE_TYPE_ID_LOCAL) {
			err = object_targ_btf(obj);
			if (err)
				return err;
		}
		err = bpf_core_calc_relo(obj->local_btf, obj->targ_btf, &cr->r, &res, why,
					 sizeof(why));
		if (err)
			return obj_err(obj, "prog '%s': insn %u: %s", ls->prog, idx, why), err;
		err = bpf_core_patch_insn(&ls->insns[idx], c->out_off + c->cnt - idx, cr->r.kind,
					  &res, why, sizeof(why));
		if (err)
			return obj_err(obj, "prog '%s': insn %u: CO-RE %s relocation of %s: %s",
				       ls->prog, idx, bpf_core_kind_str(cr->r.kind), res.desc, why),
			       err;
		if (res.poison && ls->nr_poison < ARRAY_SIZE(ls->poison)) {
			struct core_poison *cp = &ls->poison[ls->nr_poison++];

			cp->idx = idx;
			snprintf(cp->desc, sizeof(cp->desc),
				 "CO-RE %s relocation of %s has no match in %s",
				 bpf_core_kind_str(cr->r.kind), res.desc, obj->targ_name);
		}
	}
	return 0;
}

/* ---- maps ---------------------------------------------------------------- */

static void object_map_attr(const struct bpf_map *m, union bpf_attr *attr)
{
	const char *name = bpf_map__name(m);

	memset(attr, 0, sizeof(*attr));
	attr->map_type = bpf_map__type(m);
	attr->key_size = bpf_map__key_size(m);
	attr->value_size = bpf_map__value_size(m);
	attr->max_entries = bpf_map__max_entries(m);
	attr->map_flags = bpf_map__map_flags(m) & ~BPF_F_MMAPABLE;
	attr->map_extra = bpf_map__map_extra(m);
	snprintf(attr->map_name, sizeof(attr->map_name), "%s", name ? name : "");
	/* libbpf sizes an unsized PERF_EVENT_ARRAY to the CPU count at load */
	if (attr->map_type == BPF_MAP_TYPE_PERF_EVENT_ARRAY && !attr->max_entries)
		attr->max_entries = num_possible_cpus();
}

/* The data section a libbpf internal map was made from (".data", ".rodata.str1.1", ...). */
static int object_data_shndx(struct uxdp_bpf_object *obj, const struct bpf_map *m)
{
	const char *mname = bpf_map__name(m);
	size_t mlen = strlen(mname), i;
	size_t init_sz = 0;

	bpf_map__initial_value((struct bpf_map *)m, &init_sz);
	for (i = 1; i < obj->shnum; i++) {
		const char *name = elf_sec_name(obj, i);
		char san[BPF_OBJ_NAME_LEN];
		GElf_Shdr sh;
		size_t n, k;

		if (!name || !elf_sec_shdr(obj, i, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    (sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (strncmp(name, ".data", 5) && strncmp(name, ".rodata", 7) &&
		    strncmp(name, ".bss", 4))
			continue;
		/* libbpf's internal_map_name(): [object prefix] + section name,
		 * characters other than [A-Za-z0-9_.] replaced, 15 chars max. */
		n = strlen(name);
		if (n > BPF_OBJ_NAME_LEN - 1)
			n = BPF_OBJ_NAME_LEN - 1;
		for (k = 0; k < n; k++) {
			char c = name[k];

			san[k] = (c == '_' || c == '.' || (c >= '0' && c <= '9') ||
				  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ? c : '_';
		}
		san[n] = 0;
		if (mlen >= n && !strcmp(mname + mlen - n, san) && sh.sh_size == bpf_map__value_size(m))
			return (int)i;
	}
	return -1;
}

static struct obj_map *object_find_map_sym(struct uxdp_bpf_object *obj, const char *name)
{
	unsigned int i;

	for (i = 0; i < obj->nr_maps; i++)
		if (!obj->maps[i].internal && !strcmp(obj->maps[i].name, name))
			return &obj->maps[i];
	return NULL;
}

static struct obj_map *object_find_data_map(struct uxdp_bpf_object *obj, size_t shndx)
{
	unsigned int i;

	for (i = 0; i < obj->nr_maps; i++)
		if (obj->maps[i].internal && obj->maps[i].shndx == (int)shndx)
			return &obj->maps[i];
	return NULL;
}

static bool object_map_is_kconfig(const struct bpf_map *m)
{
	const char *name = bpf_map__name(m);
	size_t n = strlen(name);

	return n >= 8 && !strcmp(name + n - 8, ".kconfig");
}

/* Is the undefined symbol @name a __weak extern? */
static bool object_extern_is_weak(void *ctx, const char *name)
{
	struct uxdp_bpf_object *obj = ctx;
	GElf_Sym sym;
	size_t i;

	for (i = 1; i < obj->nr_syms; i++)
		if (elf_sym(obj, i, &sym) && sym.st_shndx == SHN_UNDEF &&
		    !strcmp(elf_sym_name(obj, &sym), name))
			return GELF_ST_BIND(sym.st_info) == STB_WEAK;
	return false;
}

/* The __kconfig externs' values, frozen read-only as libbpf's map is. */
static int object_init_kconfig(struct uxdp_bpf_object *obj, struct obj_map *om)
{
	struct bpf_map *map = om->map;
	char err[256] = "";
	u32 zero = 0;
	void *data;
	int ret;

	om->kconfig = true;
	data = calloc(1, map->value_size ? map->value_size : 1);
	if (!data)
		return -ENOMEM;
	ret = bpf_kconfig_fill(bpf_object__btf(obj->lobj), om->btf_value_type_id, data,
			       map->value_size, object_extern_is_weak, obj, err, sizeof(err));
	if (!ret)
		ret = bpf_map_update_value(map, &zero, data, BPF_ANY) ?: bpf_map_freeze(map);
	free(data);
	/* libbpf's messages, which name the extern */
	if (ret && err[0])
		return obj_err(obj, "%s", err), ret;
	if (ret)
		return obj_err(obj, "map '%s': %s", om->name, strerror(-ret)), ret;
	return 0;
}

/*
 * The value's BTF, as libbpf passes it to BPF_MAP_CREATE: a BTF-defined
 * map's value type, a global data map's DATASEC. Where it has a struct
 * bpf_spin_lock the map records it (map_check_btf()). libbpf finds a global
 * data map's DATASEC only when it creates the map; uxdp creates its own, so
 * it looks it up by section name (the dumpers use it too).
 */
static int object_map_check_btf(struct uxdp_bpf_object *obj, const struct bpf_map *m,
				struct obj_map *om)
{
	const struct btf *btf = bpf_object__btf(obj->lobj);
	u32 id = bpf_map__btf_value_type_id(m);
	int err;

	if (!btf)
		return 0;
	if (bpf_map__is_internal(m)) {
		int shndx = object_data_shndx(obj, m);
		const char *sec = object_map_is_kconfig(m) ? ".kconfig" :
				  shndx >= 0 ? elf_sec_name(obj, shndx) : NULL;
		s32 sid = sec ? btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC) : -1;

		id = sid > 0 ? (u32)sid : 0;
		om->btf_value_type_id = id;
	}
	err = map_check_btf(om->map, btf, id);
	if (err)
		return obj_err(obj, "map '%s': value BTF: %s", bpf_map__name(m), strerror(-err)),
		       err;
	return 0;
}

static int object_create_map(struct uxdp_bpf_object *obj, struct bpf_map *m)
{
	struct obj_map *om = &obj->maps[obj->nr_maps];
	struct bpf_map *inner_tmpl = NULL, *map;
	const struct bpf_map *inner;
	union bpf_attr attr;
	int err;

	object_map_attr(m, &attr);
	inner = bpf_map__inner_map(m);
	if (inner) {
		union bpf_attr iattr;

		object_map_attr(inner, &iattr);
		inner_tmpl = bpf_map_new(&iattr);
		if (IS_ERR(inner_tmpl))
			return obj_err(obj, "map '%s': inner map: %s", bpf_map__name(m),
				       strerror((int)-PTR_ERR(inner_tmpl))),
			       (int)PTR_ERR(inner_tmpl);
		attr.inner_map_fd = inner_tmpl->id;
	}
	map = bpf_map_new(&attr);
	bpf_map_put_with_uref(inner_tmpl);
	if (IS_ERR(map)) {
		err = (int)PTR_ERR(map);
		if (err == -EINVAL && !bpf_map__is_internal(m))
			return obj_err(obj, "map '%s': type %u (%s) key %u value %u max_entries %u flags 0x%x: %s",
				       bpf_map__name(m), attr.map_type,
				       libbpf_bpf_map_type_str(attr.map_type) ?: "unknown",
				       attr.key_size, attr.value_size, attr.max_entries,
				       attr.map_flags, strerror(-err)), err;
		return obj_err(obj, "map '%s': %s", bpf_map__name(m), strerror(-err)), err;
	}
	om->map = map;
	om->shndx = -1;
	om->name = strdup(bpf_map__name(m));
	obj->nr_maps++;
	if (!om->name)
		return -ENOMEM;
	om->btf_key_type_id = bpf_map__btf_key_type_id(m);
	om->btf_value_type_id = bpf_map__btf_value_type_id(m);

	err = object_map_check_btf(obj, m, om);
	if (err)
		return err;
	if (bpf_map__is_internal(m)) {
		size_t sz = 0;
		const void *init = bpf_map__initial_value(m, &sz);
		u32 zero = 0;

		om->internal = true;
		if (object_map_is_kconfig(m))
			return object_init_kconfig(obj, om);
		om->shndx = object_data_shndx(obj, m);
		if (om->shndx < 0)
			return obj_err(obj, "map '%s': global data of an unknown section (kconfig/ksyms are not supported)",
				       om->name), -EOPNOTSUPP;
		if (init && sz == map->value_size) {
			err = bpf_map_update_value(map, &zero, (void *)init, BPF_ANY);
			if (err)
				return obj_err(obj, "map '%s': initial value: %s", om->name,
					       strerror(-err)), err;
		}
		if (map->map_flags & BPF_F_RDONLY_PROG) {
			err = bpf_map_freeze(map);
			if (err)
				return obj_err(obj, "map '%s': freeze: %s", om->name, strerror(-err)), err;
		}
	}
	return 0;
}

static int object_create_maps(struct uxdp_bpf_object *obj)
{
	struct bpf_map *m;
	unsigned int n = 0;
	int err;

	bpf_object__for_each_map(m, obj->lobj)
		n++;
	n += object_legacy_count(obj);
	obj->maps = calloc(n ? n : 1, sizeof(*obj->maps));
	if (!obj->maps)
		return -ENOMEM;
	bpf_object__for_each_map(m, obj->lobj) {
		err = object_create_map(obj, m);
		if (err)
			return err;
	}
	return object_create_legacy_maps(obj);
}

/* ---- programs ------------------------------------------------------------ */


static int link_append(struct uxdp_bpf_object *obj, struct link_state *ls, int shndx,
		       const GElf_Sym *fn, u32 *out_off)
{
	Elf_Data *data = elf_sec_data(obj, shndx);
	u32 cnt = fn->st_size / BPF_INSN_SZ;
	struct link_chunk *c;

	if (!data || !data->d_buf || fn->st_value % BPF_INSN_SZ || fn->st_size % BPF_INSN_SZ ||
	    fn->st_value > data->d_size || fn->st_size > data->d_size - fn->st_value || !cnt)
		return obj_err(obj, "prog '%s': function '%s' lies outside its section", ls->prog,
			       elf_sym_name(obj, fn)), -EINVAL;
	if (ls->cnt + cnt > BPF_MAX_INSNS)
		return obj_err(obj, "prog '%s': more than %u instructions", ls->prog, BPF_MAX_INSNS),
		       -E2BIG;
	if (ls->cnt + cnt > ls->cap) {
		u32 cap = (ls->cnt + cnt) * 2;
		void *p = realloc(ls->insns, cap * BPF_INSN_SZ);

		if (!p)
			return -ENOMEM;
		ls->insns = p;
		ls->cap = cap;
	}
	if (ls->nr_chunks == ls->cap_chunks) {
		u32 cap = ls->cap_chunks ? ls->cap_chunks * 2 : 8;
		void *p = realloc(ls->chunks, cap * sizeof(*ls->chunks));

		if (!p)
			return -ENOMEM;
		ls->chunks = p;
		ls->cap_chunks = cap;
	}
	memcpy(ls->insns + ls->cnt, (u8 *)data->d_buf + fn->st_value, cnt * BPF_INSN_SZ);
	c = &ls->chunks[ls->nr_chunks++];
	c->shndx = shndx;
	c->sec_insn_off = fn->st_value / BPF_INSN_SZ;
	c->cnt = cnt;
	c->out_off = ls->cnt;
	*out_off = ls->cnt;
	ls->cnt += cnt;
	return 0;
}

/*
 * Where instruction @target of section @shndx lands in the linked program:
 * inside a function already copied, or at the start of a function appended
 * now (libbpf: only whole functions of .text are subprograms).
 */
static int link_resolve(struct uxdp_bpf_object *obj, struct link_state *ls, int shndx,
			s64 target, u32 from, u32 *out)
{
	GElf_Sym fn;
	u32 i;

	for (i = 0; i < ls->nr_chunks; i++) {
		const struct link_chunk *c = &ls->chunks[i];

		if (c->shndx == shndx && target >= c->sec_insn_off &&
		    target < (s64)c->sec_insn_off + c->cnt) {
			*out = c->out_off + (u32)(target - c->sec_insn_off);
			return 0;
		}
	}
	if (target < 0 || !elf_sec_is_exec(obj, shndx) ||
	    !elf_find_func(obj, shndx, (u64)target * BPF_INSN_SZ, &fn))
		return obj_err(obj, "prog '%s': insn %u: call target %lld in section '%s' is not the start of a function",
			       ls->prog, from, (long long)target, elf_sec_name(obj, shndx) ?: "?"),
		       -EINVAL;
	return link_append(obj, ls, shndx, &fn, out);
}

/*
 * An instruction against an undefined symbol: a kfunc (`extern ... __ksym`)
 * called or tested with bpf_ksym_exists(). As libbpf resolves it against
 * vmlinux BTF, the call gets the kfunc's id in imm (off 0: no module BTF);
 * a __weak kfunc uxdp lacks becomes imm 0, which the verifier refuses only
 * where a path reaches it, and an ld_imm64 of it the constant 0. Where
 * libbpf loads an ld_imm64 of a kfunc as its BTF id (BPF_PSEUDO_BTF_ID, a
 * read-only pointer to the verifier), uxdp loads the id as a constant:
 * non-zero, all bpf_ksym_exists() tests.
 */
static int link_relocate_ksym(struct uxdp_bpf_object *obj, struct link_state *ls, u32 idx,
			      const GElf_Sym *sym, bool last)
{
	struct bpf_insn *insn = &ls->insns[idx];
	bool weak = GELF_ST_BIND(sym->st_info) == STB_WEAK;
	const char *sname = elf_sym_name(obj, sym);
	u32 id = btf_kfunc_id_by_name(sname);
	unsigned int i;

	for (i = 0; insn->code == (BPF_LD | BPF_IMM | BPF_DW) && !last && i < obj->nr_maps; i++) {
		struct obj_map *om = &obj->maps[i];
		int off;

		if (!om->kconfig)
			continue;
		off = bpf_kconfig_var_off(bpf_object__btf(obj->lobj), om->btf_value_type_id, sname);
		if (off < 0)
			break;
		/* as libbpf: the address of the extern's slot in the map */
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[0].imm = om->map->id;
		insn[1].imm = off;
		return 0;
	}
	if (insn->code == (BPF_JMP | BPF_CALL)) {
		/* clang emits a BPF_PSEUDO_CALL; libbpf makes it a kfunc call */
		if (insn->src_reg != BPF_PSEUDO_CALL && insn->src_reg != BPF_PSEUDO_KFUNC_CALL)
			return obj_err(obj, "prog '%s': insn %u: extern call '%s' of kind %u is not supported",
				       ls->prog, idx, sname, insn->src_reg), -EOPNOTSUPP;
		if (!id && !weak)
			return obj_err(obj, "prog '%s': insn %u: extern (func ksym) '%s': not found in kernel or module BTFs",
				       ls->prog, idx, sname), -ESRCH;
		insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
		insn->imm = (s32)id;
		insn->off = 0;
		return 0;
	}
	if (insn->code != (BPF_LD | BPF_IMM | BPF_DW) || last)
		return obj_err(obj, "prog '%s': insn %u: relocation against extern '%s' on opcode 0x%02x",
			       ls->prog, idx, sname, insn->code), -EINVAL;
	if (!id && !weak)
		return obj_err(obj, "prog '%s': insn %u: extern '%s' (data ksym) is not supported",
			       ls->prog, idx, sname), -EOPNOTSUPP;
	insn[0].src_reg = 0;
	insn[0].imm = (s32)id;
	insn[1].imm = 0;
	return 0;
}

static int link_relocate_insn(struct uxdp_bpf_object *obj, struct link_state *ls, u32 idx,
			      const GElf_Rel *rel, bool last)
{
	struct bpf_insn *insn = &ls->insns[idx];
	bool ldimm = insn->code == (BPF_LD | BPF_IMM | BPF_DW);
	bool call = insn->code == (BPF_JMP | BPF_CALL);
	const char *sname;
	struct obj_map *om;
	GElf_Sym sym;
	u32 target;
	int err;

	if (!elf_sym(obj, GELF_R_SYM(rel->r_info), &sym))
		return obj_err(obj, "prog '%s': insn %u: relocation against bad symbol %lu",
			       ls->prog, idx, (unsigned long)GELF_R_SYM(rel->r_info)), -EINVAL;
	sname = elf_sym_name(obj, &sym);
	if (sym.st_shndx == SHN_UNDEF)
		return link_relocate_ksym(obj, ls, idx, &sym, last);
	if (sym.st_shndx >= obj->shnum)
		return obj_err(obj, "prog '%s': insn %u: symbol '%s' in bad section %u", ls->prog,
			       idx, sname, sym.st_shndx), -EINVAL;

	if (call) {
		if (insn->src_reg != BPF_PSEUDO_CALL)
			return obj_err(obj, "prog '%s': insn %u: relocated call of kind %u to '%s' is not supported",
				       ls->prog, idx, insn->src_reg, sname), -EOPNOTSUPP;
		if (sym.st_value % BPF_INSN_SZ)
			return obj_err(obj, "prog '%s': insn %u: misaligned call target '%s'",
				       ls->prog, idx, sname), -EINVAL;
		err = link_resolve(obj, ls, sym.st_shndx,
				   (s64)(sym.st_value / BPF_INSN_SZ) + insn->imm + 1, idx, &target);
		if (err)
			return err;
		insn = &ls->insns[idx];
		insn->imm = (s32)(target - idx - 1);
		return 0;
	}
	if (!ldimm || last)
		return obj_err(obj, "prog '%s': insn %u: relocation against '%s' on opcode 0x%02x",
			       ls->prog, idx, sname, insn->code), -EINVAL;

	if ((int)sym.st_shndx == obj->maps_shndx || (int)sym.st_shndx == obj->legacy_shndx) {
		om = object_find_map_sym(obj, sname);
		if (!om)
			return obj_err(obj, "prog '%s': insn %u: '%s' is not a map", ls->prog, idx,
				       sname), -EINVAL;
		insn[0].src_reg = BPF_PSEUDO_MAP_FD;
		insn[0].imm = om->map->id;
		return 0;
	}
	om = object_find_data_map(obj, sym.st_shndx);
	if (om) {
		u64 off = sym.st_value + (u64)(u32)insn[0].imm;

		if (off >= om->map->value_size && om->map->value_size)
			return obj_err(obj, "prog '%s': insn %u: offset %llu past global data '%s'",
				       ls->prog, idx, (unsigned long long)off, om->name), -EINVAL;
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[0].imm = om->map->id;
		insn[1].imm = (s32)off;
		return 0;
	}
	if (elf_sec_is_exec(obj, sym.st_shndx)) {
		/* address of a static function: a bpf_loop()-style callback */
		s64 t = ((s64)sym.st_value + insn[0].imm) / (s64)BPF_INSN_SZ;

		err = link_resolve(obj, ls, sym.st_shndx, t, idx, &target);
		if (err)
			return err;
		insn = &ls->insns[idx];
		insn[0].src_reg = BPF_PSEUDO_FUNC;
		insn[0].imm = (s32)(target - idx - 1);
		return 0;
	}
	return obj_err(obj, "prog '%s': insn %u: relocation against '%s' in section '%s' is not supported",
		       ls->prog, idx, sname, elf_sec_name(obj, sym.st_shndx) ?: "?"), -EOPNOTSUPP;
}

/* Walk the chunks (growing while we walk) and apply relocations. */
static int object_link_prog(struct uxdp_bpf_object *obj, struct link_state *ls)
{
	u32 ci, i;
	int err;

	for (ci = 0; ci < ls->nr_chunks; ci++) {
		struct link_chunk c = ls->chunks[ci];
		size_t relsec = elf_rel_sec(obj, c.shndx);
		Elf_Data *rd = relsec ? elf_sec_data(obj, relsec) : NULL;
		size_t nrel = 0, r;
		GElf_Shdr rsh;

		err = object_core_chunk(obj, ls, &c);
		if (err)
			return err;
		if (relsec) {
			if (!rd || !elf_sec_shdr(obj, relsec, &rsh) || !rsh.sh_entsize)
				return obj_err(obj, "malformed ELF: relocation section %zu", relsec),
				       -EINVAL;
			nrel = rd->d_size / rsh.sh_entsize;
		}
		for (i = 0; i < c.cnt; i++) {
			u32 idx = c.out_off + i;
			struct bpf_insn *insn = &ls->insns[idx];
			u64 byte_off = (u64)(c.sec_insn_off + i) * BPF_INSN_SZ;
			bool ldimm = insn->code == (BPF_LD | BPF_IMM | BPF_DW);
			bool found = false;
			GElf_Rel rel;

			for (r = 0; r < nrel; r++) {
				if (!gelf_getrel(rd, (int)r, &rel))
					return obj_err(obj, "malformed ELF: relocation %zu", r), -EINVAL;
				if (rel.r_offset == byte_off) {
					found = true;
					break;
				}
			}
			if (found) {
				if (GELF_R_TYPE(rel.r_info) != R_BPF_64_64 &&
				    GELF_R_TYPE(rel.r_info) != R_BPF_64_32)
					return obj_err(obj, "prog '%s': insn %u: relocation type %lu is not supported",
						       ls->prog, idx,
						       (unsigned long)GELF_R_TYPE(rel.r_info)), -EOPNOTSUPP;
				err = link_relocate_insn(obj, ls, idx, &rel, i + 1 >= c.cnt);
				if (err)
					return err;
			} else if (insn->code == (BPF_JMP | BPF_CALL) &&
				   insn->src_reg == BPF_PSEUDO_CALL) {
				/* static call within the same section: no relocation */
				u32 target;

				err = link_resolve(obj, ls, c.shndx,
						   (s64)c.sec_insn_off + i + insn->imm + 1, idx, &target);
				if (err)
					return err;
				ls->insns[idx].imm = (s32)(target - idx - 1);
			} else if (ldimm && insn->src_reg == BPF_PSEUDO_FUNC) {
				return obj_err(obj, "prog '%s': insn %u: function address without relocation",
					       ls->prog, idx), -EINVAL;
			}
			if (ldimm)
				i++;
		}
	}
	return 0;
}

/* The checker's log, with each poisoned CO-RE instruction it reached explained. */
static void object_check_failed(struct uxdp_bpf_object *obj, const struct link_state *ls,
				int err, const char *log)
{
	char poison[64];
	u32 i;

	snprintf(poison, sizeof(poison), "%d", BPF_CORE_POISON_IMM);
	for (i = 0; i < ls->nr_poison && strstr(log, poison); i++) {
		char at[32];

		/* the checker prints the instruction as "N: (85) call ..." */
		snprintf(at, sizeof(at), "%u: (85)", ls->poison[i].idx);
		if (ls->nr_poison > 1 && !strstr(log, at))
			continue;
		obj_err(obj, "prog '%s': insn %u: %s (the instruction is poisoned and reachable); rejected by the checker (%s):\n%s",
			ls->prog, ls->poison[i].idx, ls->poison[i].desc, strerror(-err), log);
		return;
	}
	obj_err(obj, "prog '%s': rejected by the checker (%s):\n%s", ls->prog, strerror(-err), log);
}

/*
 * The source lines of the linked program (kernel/bpf/line_info.c), for
 * coverage. Without .BTF.ext there are only the functions; a failure
 * leaves the program without lines, never fails the load.
 */
static void object_line_info(struct uxdp_bpf_object *obj, const struct link_state *ls,
			     struct bpf_prog *prog)
{
	struct bpf_linfo_chunk *chunks;
	char dir[PATH_MAX], *slash;
	Elf_Data *ext = NULL;
	size_t i;

	for (i = 1; i < obj->shnum && !ext; i++) {
		const char *name = elf_sec_name(obj, i);

		if (name && !strcmp(name, ".BTF.ext"))
			ext = elf_sec_data(obj, i);
	}
	chunks = calloc(ls->nr_chunks ? ls->nr_chunks : 1, sizeof(*chunks));
	if (!chunks)
		return;
	for (i = 0; i < ls->nr_chunks; i++) {
		const struct link_chunk *c = &ls->chunks[i];
		GElf_Sym fn;

		chunks[i].sec = elf_sec_name(obj, c->shndx) ?: "";
		chunks[i].func = elf_find_func(obj, c->shndx, (u64)c->sec_insn_off * BPF_INSN_SZ, &fn) ?
				 elf_sym_name(obj, &fn) : NULL;
		chunks[i].sec_insn_off = c->sec_insn_off;
		chunks[i].cnt = c->cnt;
		chunks[i].out_off = c->out_off;
	}
	snprintf(dir, sizeof(dir), "%s", obj->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	prog->aux->linfo = bpf_prog_linfo_build(ext && ext->d_buf ? ext->d_buf : NULL,
						ext ? ext->d_size : 0, obj->local_btf, dir, chunks,
						ls->nr_chunks);
	free(chunks);
}

/* Link, relocate and check program @op as XDP. */
static int object_load_prog(struct uxdp_bpf_object *obj, struct obj_prog *op)
{
	struct bpf_program *p = op->lp;
	const char *name = op->name, *sec = op->sec;
	struct link_state ls = { .prog = name };
	struct bpf_prog *prog = NULL;
	char *log = NULL;
	int shndx = -1, err;
	GElf_Sym fn;
	size_t i;
	u32 off;

	/* libbpf adds BPF_F_XDP_HAS_FRAGS for "xdp.frags[/...]" only at load */
	op->frags = (bpf_program__flags(p) & BPF_F_XDP_HAS_FRAGS) ||
		    !strcmp(sec, "xdp.frags") || !strncmp(sec, "xdp.frags/", 10);

	for (i = 1; i < obj->nr_syms; i++) {
		const char *sname;

		if (!elf_sym(obj, i, &fn) || GELF_ST_TYPE(fn.st_info) != STT_FUNC ||
		    fn.st_shndx >= obj->shnum)
			continue;
		sname = elf_sec_name(obj, fn.st_shndx);
		if (sname && !strcmp(sname, sec) && !strcmp(elf_sym_name(obj, &fn), name)) {
			shndx = fn.st_shndx;
			break;
		}
	}
	if (shndx < 0)
		return obj_err(obj, "prog '%s': no function symbol in section '%s'", name, sec),
		       -EINVAL;

	err = link_append(obj, &ls, shndx, &fn, &off);
	err = err ?: object_link_prog(obj, &ls);
	if (err)
		goto out;

	prog = bpf_prog_alloc(ls.cnt);
	if (IS_ERR_OR_NULL(prog)) {
		err = prog ? (int)PTR_ERR(prog) : -ENOMEM;
		prog = NULL;
		goto out;
	}
	memcpy(prog->insnsi, ls.insns, ls.cnt * BPF_INSN_SZ);
	prog->len = ls.cnt;
	prog->type = BPF_PROG_TYPE_XDP;
	prog->expected_attach_type = bpf_program__expected_attach_type(p);
	prog->aux->xdp_has_frags = op->frags;
	prog->aux->dev_bound_ifindex = obj->prog_ifindex;
	prog->aux->func_info_cnt = obj->func_info_cnt;
	snprintf(prog->aux->name, sizeof(prog->aux->name), "%s", name);
	object_line_info(obj, &ls, prog);

	log = calloc(1, 8192);
	if (!log) {
		err = -ENOMEM;
		goto out;
	}
	err = bpf_prog_load(&prog, log, 8192);
	if (err) {
		object_check_failed(obj, &ls, err, log);
		goto out;
	}
	err = bpf_prog_alloc_id(prog);
	if (err < 0) {
		obj_err(obj, "prog '%s': no free program id", name);
		goto out;
	}
	op->prog = prog;
	op->state = OBJ_PROG_LOADED;
	prog = NULL;
	err = 0;
out:
	if (prog)
		bpf_prog_put(prog);
	free(log);
	free(ls.insns);
	free(ls.chunks);
	return err;
}

static const char *obj_prog_type_str(const struct obj_prog *op)
{
	enum bpf_prog_type t = bpf_program__type(op->lp);

	if (op->state == OBJ_PROG_LOADED)
		return "xdp";
	if (t == BPF_PROG_TYPE_UNSPEC)
		return "unspec";
	return libbpf_bpf_prog_type_str(t) ?: "unknown";
}

/*
 * Whether a request (function name, section, or every program of an
 * unknown section with @any) names @op.
 */
static bool obj_prog_wanted(const struct obj_prog *op, const char *name, const char *sec,
			    bool any)
{
	if (name)
		return !strcmp(op->name, name);
	if (sec)
		return !strcmp(op->sec, sec);
	return any;
}

/*
 * Load as XDP the programs that are not loaded yet and that @name/@sec
 * (or @any: all of an unknown section) ask for, as iproute2 (`sec`) and
 * bpftool (`type xdp`) do with bpf_program__set_type(). Return: how many
 * were loaded, or -errno.
 */
static int object_load_wanted(struct uxdp_bpf_object *obj, const char *name, const char *sec,
			      bool any)
{
	unsigned int i;
	int n = 0, err;

	for (i = 0; i < obj->nr_progs; i++) {
		struct obj_prog *op = &obj->progs[i];

		if (op->state == OBJ_PROG_LOADED || !obj_prog_wanted(op, name, sec, any))
			continue;
		if (op->state == OBJ_PROG_OTHER_TYPE) {
			if (any)
				continue;
			return obj_err(obj, "prog '%s': section '%s' is a %s program, not XDP: not loaded",
				       op->name, op->sec, obj_prog_type_str(op)), -EOPNOTSUPP;
		}
		err = object_load_prog(obj, op);
		if (err)
			return err;
		n++;
	}
	return n;
}

static int object_load_progs(struct uxdp_bpf_object *obj,
			     const struct uxdp_bpf_object_open_opts *opts)
{
	struct bpf_program *p;
	unsigned int n = 0, i;
	int err;

	bpf_object__for_each_program(p, obj->lobj)
		n++;
	if (!n)
		return obj_err(obj, "no programs"), -ENOENT;
	obj->progs = calloc(n, sizeof(*obj->progs));
	if (!obj->progs)
		return -ENOMEM;
	bpf_object__for_each_program(p, obj->lobj) {
		struct obj_prog *op = &obj->progs[obj->nr_progs++];
		enum bpf_prog_type t = bpf_program__type(p);

		op->lp = p;
		op->name = strdup(bpf_program__name(p));
		op->sec = strdup(bpf_program__section_name(p));
		if (!op->name || !op->sec)
			return -ENOMEM;
		op->state = t == BPF_PROG_TYPE_XDP ? OBJ_PROG_LOADED :
			    t == BPF_PROG_TYPE_UNSPEC ? OBJ_PROG_UNKNOWN_SEC : OBJ_PROG_OTHER_TYPE;
	}
	for (i = 0; i < obj->nr_progs; i++) {
		struct obj_prog *op = &obj->progs[i];

		if (op->state != OBJ_PROG_LOADED)
			continue;
		op->state = OBJ_PROG_NOT_ASKED;		/* until it is */
		if (opts->xdp_only && (opts->xdp_prog || opts->xdp_sec) &&
		    !obj_prog_wanted(op, opts->xdp_prog, opts->xdp_sec, false))
			continue;
		err = object_load_prog(obj, op);
		if (err)
			return err;
	}
	if (opts->xdp_prog || opts->xdp_sec || opts->xdp_any) {
		err = object_load_wanted(obj, opts->xdp_prog, opts->xdp_prog ? NULL : opts->xdp_sec,
					 opts->xdp_any && !opts->xdp_prog && !opts->xdp_sec);
		if (err < 0)
			return err;
		if (!err && (opts->xdp_prog || opts->xdp_sec) &&
		    uxdp_bpf_object_find_prog(obj, opts->xdp_prog, opts->xdp_sec) < 0)
			return obj_err(obj, "no program %s '%s'", opts->xdp_prog ? "named" : "in section",
				       opts->xdp_prog ?: opts->xdp_sec), -ENOENT;
	}
	return 0;
}

/* ---- declarative PROG_ARRAY / *_OF_MAPS slots (.rel.maps) --------------- */

static int object_values_off(struct uxdp_bpf_object *obj, const char *map, u32 *off)
{
	const struct btf *btf = bpf_object__btf(obj->lobj);
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, map, BTF_KIND_VAR);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	while (t && (btf_is_var(t) || btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_struct(t))
		return -ENOENT;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		if (n && !strcmp(n, "values")) {
			*off = btf_member_bit_offset(t, i) / 8;
			return 0;
		}
	}
	return -ENOENT;
}

static int object_init_slots(struct uxdp_bpf_object *obj)
{
	size_t relsec, nrel, r;
	GElf_Shdr rsh;
	Elf_Data *rd;

	if (obj->maps_shndx < 0)
		return 0;
	relsec = elf_rel_sec(obj, obj->maps_shndx);
	if (!relsec)
		return 0;
	rd = elf_sec_data(obj, relsec);
	if (!rd || !elf_sec_shdr(obj, relsec, &rsh) || !rsh.sh_entsize)
		return obj_err(obj, "malformed ELF: .rel.maps"), -EINVAL;
	nrel = rd->d_size / rsh.sh_entsize;
	for (r = 0; r < nrel; r++) {
		const char *tname, *mname = NULL;
		struct obj_map *outer = NULL;
		GElf_Sym tsym, msym;
		u32 values_off, slot, id = 0;
		GElf_Rel rel;
		size_t i;
		int err;

		if (!gelf_getrel(rd, (int)r, &rel) || !elf_sym(obj, GELF_R_SYM(rel.r_info), &tsym))
			return obj_err(obj, "malformed ELF: .rel.maps entry %zu", r), -EINVAL;
		for (i = 1; i < obj->nr_syms; i++) {
			if (!elf_sym(obj, i, &msym) || (int)msym.st_shndx != obj->maps_shndx ||
			    GELF_ST_TYPE(msym.st_info) != STT_OBJECT)
				continue;
			if (rel.r_offset >= msym.st_value &&
			    rel.r_offset < msym.st_value + msym.st_size) {
				mname = elf_sym_name(obj, &msym);
				outer = object_find_map_sym(obj, mname);
				break;
			}
		}
		if (!outer || object_values_off(obj, mname, &values_off) ||
		    rel.r_offset < msym.st_value + values_off)
			return obj_err(obj, "malformed .maps initialiser at offset %llu",
				       (unsigned long long)rel.r_offset), -EINVAL;
		slot = (rel.r_offset - msym.st_value - values_off) / 8;
		tname = elf_sym_name(obj, &tsym);
		if (outer->map->map_type == BPF_MAP_TYPE_PROG_ARRAY) {
			for (i = 0; i < obj->nr_progs; i++)
				if (obj->progs[i].prog && !strcmp(obj->progs[i].name, tname))
					id = obj->progs[i].prog->aux->id;
		} else {
			struct obj_map *inner = object_find_map_sym(obj, tname);

			if (inner)
				id = inner->map->id;
		}
		if (!id && outer->map->map_type == BPF_MAP_TYPE_PROG_ARRAY &&
		    uxdp_bpf_object_find_prog(obj, tname, NULL) == -EOPNOTSUPP)
			return obj_err(obj, "map '%s': slot %u: program '%s' is not loaded (not XDP, or of a section not asked for)",
				       outer->name, slot, tname), -EINVAL;
		if (!id)
			return obj_err(obj, "map '%s': slot %u: '%s' is not a %s of this object",
				       outer->name, slot, tname,
				       outer->map->map_type == BPF_MAP_TYPE_PROG_ARRAY ? "program" : "map"),
			       -EINVAL;
		err = bpf_map_update_value(outer->map, &slot, &id, BPF_ANY);
		if (err)
			return obj_err(obj, "map '%s': slot %u = '%s': %s", outer->name, slot, tname,
				       strerror(-err)), err;
	}
	return 0;
}

/* ---- public API ------------------------------------------------------------ */

static int object_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[512];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	uxdp_log(UXDP_DEBUG, "%s", buf);
	return 0;
}

static int object_read_file(struct uxdp_bpf_object *obj, const char *path)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err = -errno, obj_err(obj, "cannot open: %s", strerror(-err)), err;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (u64)st.st_size > OBJECT_MAX_SIZE) {
		close(fd);
		return obj_err(obj, "not a regular file of 1 byte to 256 MiB"), -EINVAL;
	}
	obj->size = st.st_size;
	obj->buf = malloc(obj->size);
	if (!obj->buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < obj->size) {
		n = read(fd, (char *)obj->buf + got, obj->size - got);
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			obj_err(obj, "read: %s", strerror(-err));
			break;
		}
		got += n;
	}
	close(fd);
	return err;
}

UXDP_API void uxdp_bpf_object_close(struct uxdp_bpf_object *obj)
{
	unsigned int i;

	if (!obj)
		return;
	for (i = 0; i < obj->nr_progs; i++) {
		bpf_prog_put(obj->progs[i].prog);
		free(obj->progs[i].name);
		free(obj->progs[i].sec);
	}
	for (i = 0; i < obj->nr_maps; i++) {
		bpf_map_put_with_uref(obj->maps[i].map);
		free(obj->maps[i].name);
	}
	free(obj->progs);
	free(obj->maps);
	bpf_object__close(obj->lobj);
	btf__free(obj->local_btf);
	btf__free(obj->targ_btf);
	free(obj->relos);
	free(obj->btf_path);
	if (obj->elf)
		elf_end(obj->elf);
	if (obj->lbuf != obj->buf)
		free(obj->lbuf);
	free(obj->buf);
	free(obj->path);
	free(obj);
}

UXDP_API struct uxdp_bpf_object *
uxdp_bpf_object_open(const char *path, const struct uxdp_bpf_object_open_opts *opts)
{
	LIBBPF_OPTS(bpf_object_open_opts, lopts);
	struct uxdp_bpf_object_open_opts o = { .sz = sizeof(o) };
	struct uxdp_bpf_object *obj;
	libbpf_print_fn_t old_print;
	const char *base;
	char oname[64];
	int err;

	if (!path || (opts && opts->sz < sizeof(size_t))) {
		errno = EINVAL;
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	obj->path = strdup(path);
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	obj->log = o.log_buf;
	obj->log_size = o.log_size;
	obj->prog_ifindex = o.prog_ifindex;
	if (obj->log && obj->log_size)
		obj->log[0] = 0;
	if (o.btf_custom_path)
		obj->btf_path = strdup(o.btf_custom_path);
	if (!obj->path || (o.btf_custom_path && !obj->btf_path)) {
		err = -ENOMEM;
		goto out_close;
	}
	err = object_read_file(obj, path);
	if (err)
		goto out_close;
	/* libbpf trusts little of the file, libelf's view is checked before use */
	err = object_elf_init(obj);
	if (err)
		goto out_close;

	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(oname, sizeof(oname), "%s", base);
	if (strlen(oname) > 2 && !strcmp(oname + strlen(oname) - 2, ".o"))
		oname[strlen(oname) - 2] = 0;
	lopts.object_name = oname;
	old_print = libbpf_set_print(object_libbpf_print);
	err = object_check_btf(obj);
	libbpf_set_print(old_print);
	if (err)
		goto out_close;
	obj->lbuf = obj->buf;
	if (obj->legacy_shndx > 0) {
		err = object_legacy_copy(obj);
		if (err)
			goto out_close;
	}
	old_print = libbpf_set_print(object_libbpf_print);
	obj->lobj = bpf_object__open_mem(obj->lbuf, obj->size, &lopts);
	libbpf_set_print(old_print);
	/*
	 * On some malformed objects libbpf 1.1 fails with ERR_PTR() of an int
	 * that is no errno, which its IS_ERR() test lets through as a pointer
	 * (seen: 0xffffffffe4000004). No user-space pointer is negative.
	 */
	if ((intptr_t)obj->lobj < 0) {
		obj->lobj = NULL;
		errno = EINVAL;
	}
	if (!obj->lobj) {
		err = -errno ?: -EINVAL;
		obj_err(obj, "libbpf cannot read the object: %s", strerror(-err));
		if (err != -ENOMEM)
			err = -EINVAL;
		goto out_close;
	}
	err = object_read_core(obj);
	err = err ?: object_create_maps(obj);
	err = err ?: object_load_progs(obj, &o);
	err = err ?: object_init_slots(obj);
	if (err)
		goto out_close;
	return obj;

out_close:
	if (err == -ENOMEM)
		obj_err(obj, "out of memory");
	uxdp_bpf_object_close(obj);
	errno = -err;
	return NULL;
}

UXDP_API unsigned int uxdp_bpf_object_prog_cnt(const struct uxdp_bpf_object *obj)
{
	return obj ? obj->nr_progs : 0;
}

UXDP_API int uxdp_bpf_object_prog(const struct uxdp_bpf_object *obj, unsigned int idx,
				  struct uxdp_bpf_prog_desc *desc)
{
	const struct obj_prog *op;
	u32 i;

	if (!obj || idx >= obj->nr_progs)
		return -ENOENT;
	op = &obj->progs[idx];
	memset(desc, 0, sizeof(*desc));
	desc->name = op->name;
	desc->sec = op->sec;
	desc->loaded = op->state == OBJ_PROG_LOADED;
	desc->type = obj_prog_type_str(op);
	switch (bpf_program__expected_attach_type(op->lp)) {
	case BPF_XDP:
	case BPF_XDP_DEVMAP:
	case BPF_XDP_CPUMAP:
		desc->attach = libbpf_bpf_attach_type_str(bpf_program__expected_attach_type(op->lp));
		break;
	default:
		desc->attach = "";
	}
	if (!desc->loaded) {
		desc->not_loaded = op->state == OBJ_PROG_OTHER_TYPE ? "not an XDP program" :
				   op->state == OBJ_PROG_NOT_ASKED ? "not asked for" :
			"section unknown to libbpf: XDP when asked for (sec, name or type xdp)";
		return 0;
	}
	desc->id = op->prog->aux->id;
	desc->insn_cnt = op->prog->len;
	desc->verified_insns = op->prog->aux->insn_processed;
	desc->frags = op->frags;
	desc->nr_map_ids = op->prog->aux->used_map_cnt;
	for (i = 0; i < desc->nr_map_ids && i < ARRAY_SIZE(desc->map_ids); i++)
		desc->map_ids[i] = op->prog->aux->used_maps[i]->id;
	return 0;
}

UXDP_API int uxdp_bpf_object_find_prog(const struct uxdp_bpf_object *obj, const char *name,
				       const char *sec)
{
	int found = -ENOENT;
	unsigned int i;

	if (!obj || !obj->nr_progs)
		return -ENOENT;
	for (i = 0; i < obj->nr_progs; i++) {
		const struct obj_prog *op = &obj->progs[i];

		if (!obj_prog_wanted(op, name, sec, true))
			continue;
		if (!op->prog) {
			if (name || found == -ENOENT)
				found = -EOPNOTSUPP;
			if (name)
				return found;
			continue;
		}
		if (name || (!name && !sec))
			return op->prog->aux->id;
		if (found > 0)
			return -EINVAL;
		found = op->prog->aux->id;
	}
	return found;
}

UXDP_API int uxdp_bpf_object_load_xdp(struct uxdp_bpf_object *obj, const char *name,
				      const char *sec, char *log, size_t log_size)
{
	int n;

	if (!obj)
		return -EINVAL;
	obj->log = log;
	obj->log_size = log_size;
	obj->failed = false;
	if (log && log_size)
		log[0] = 0;
	n = object_load_wanted(obj, name, name ? NULL : sec, !name && !sec);
	if (n == 0 && (name || sec) && uxdp_bpf_object_find_prog(obj, name, sec) < 0) {
		obj_err(obj, "no program %s '%s'", name ? "named" : "in section", name ?: sec);
		n = -ENOENT;
	}
	obj->log = NULL;
	obj->log_size = 0;
	return n;
}

UXDP_API unsigned int uxdp_bpf_object_map_cnt(const struct uxdp_bpf_object *obj)
{
	return obj ? obj->nr_maps : 0;
}

UXDP_API int uxdp_bpf_object_map(const struct uxdp_bpf_object *obj, unsigned int idx,
				 struct uxdp_bpf_map_desc *desc)
{
	const struct bpf_map *map;

	if (!obj || idx >= obj->nr_maps)
		return -ENOENT;
	map = obj->maps[idx].map;
	desc->name = obj->maps[idx].name;
	desc->id = map->id;
	desc->type = map->map_type;
	desc->key_size = map->key_size;
	desc->value_size = map->value_size;
	desc->max_entries = map->max_entries;
	desc->map_flags = map->map_flags;
	desc->value_size_sys = bpf_map_value_size(map);
	desc->btf_key_type_id = obj->maps[idx].btf_key_type_id;
	desc->btf_value_type_id = obj->maps[idx].btf_value_type_id;
	switch (map->map_type) {
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		desc->nr_cpus = num_possible_cpus();
		break;
	default:
		desc->nr_cpus = 1;
	}
	return 0;
}

UXDP_API const struct btf *uxdp_bpf_object_btf(const struct uxdp_bpf_object *obj)
{
	return obj ? bpf_object__btf(obj->lobj) : NULL;
}

UXDP_API int uxdp_bpf_object_find_map(const struct uxdp_bpf_object *obj, const char *name)
{
	unsigned int i;

	if (!obj || !name)
		return -ENOENT;
	for (i = 0; i < obj->nr_maps; i++)
		if (!strcmp(obj->maps[i].name, name))
			return obj->maps[i].map->id;
	/* global data: ".bss" finds "xdp_glob.bss" */
	for (i = 0; i < obj->nr_maps; i++) {
		const char *n = obj->maps[i].name;
		size_t a = strlen(n), b = strlen(name);

		if (obj->maps[i].internal && name[0] == '.' && a > b && !strcmp(n + a - b, name))
			return obj->maps[i].map->id;
	}
	return -ENOENT;
}

UXDP_API const char *uxdp_bpf_map_type_name(uint32_t type)
{
	return libbpf_bpf_map_type_str(type);
}
