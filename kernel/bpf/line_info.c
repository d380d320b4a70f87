// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines of a loaded program: the BTF line_info records clang writes
 * to .BTF.ext, per ELF section with byte offsets into the section, turned
 * into records per slot of the linked program (main function, then the
 * subprograms the loader appended), with the file names copied out of the
 * object's BTF so the table lives as long as the program. Coverage
 * (kernel/bpf/coverage.c) maps instruction counters to lines with it.
 *
 * .BTF.ext line_info layout (tools/lib/bpf/libbpf_internal.h):
 *
 *   u32 rec_size
 *   { u32 sec_name_off; u32 num_info; struct bpf_line_info[num_info] }...
 *
 * with bpf_line_info.insn_off in bytes from the start of the section.
 *
 * Kernel: kernel/bpf/verifier.c check_btf_line(), adjust_btf_func();
 *	   tools/lib/bpf/libbpf.c adjust_prog_btf_ext_info()
 */
#include <errno.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include <linux/bpf.h>
#include <linux/bpf_core.h>
#include <linux/bpf_coverage.h>

struct linfo_build {
	struct bpf_prog_linfo *li;
	u32 cap_linfo;
	u32 cap_strs;
	/* BTF string offsets already copied, and where */
	u32 *btf_off, *our_off, nr_seen, cap_seen;
	const char *obj_dir;
};

static int strs_add(struct linfo_build *b, const char *s, u32 *off)
{
	struct bpf_prog_linfo *li = b->li;
	size_t n = strlen(s) + 1;

	if (li->strs_len + n > b->cap_strs) {
		u32 cap = (li->strs_len + n) * 2;
		char *p = realloc(li->strs, cap);

		if (!p)
			return -ENOMEM;
		li->strs = p;
		b->cap_strs = cap;
	}
	memcpy(li->strs + li->strs_len, s, n);
	*off = li->strs_len;
	li->strs_len += n;
	return 0;
}

/*
 * clang records the file name it was given, often relative to the
 * directory it ran in (meson: the build directory). A relative name is
 * made absolute against the current directory, else the object's
 * directory and up to three of its parents, else its base name in the
 * object's directory (installed examples): the first that exists.
 * @out must have room for PATH_MAX bytes (realpath()).
 */
static void linfo_resolve(const char *name, const char *obj_dir, char *out, size_t len)
{
	static const char ups[] = "../../../";
	char try[PATH_MAX];
	int up;

	snprintf(out, len, "%s", name);
	if (!name[0])
		return;
	if (realpath(name, try)) {
		snprintf(out, len, "%s", try);
		return;
	}
	for (up = 0; obj_dir && name[0] != '/' && up <= 3; up++) {
		/* "", "../", "../../", "../../../" */
		const char *rel = ups + sizeof(ups) - 1 - 3 * up;

		if (snprintf(try, sizeof(try), "%s/%s%s", obj_dir, rel, name) >= (int)sizeof(try))
			break;
		if (realpath(try, out))
			return;
	}
	/* an installed object next to its sources */
	if (snprintf(try, sizeof(try), "%s/%s", obj_dir ? obj_dir : ".",
		     strrchr(name, '/') ? strrchr(name, '/') + 1 : name) >= (int)sizeof(try) ||
	    !realpath(try, out))
		snprintf(out, len, "%s", name);
}

/*
 * A BTF string copied once: file names repeat in every record. A file
 * name (@is_path) is made absolute where it is found next to the object.
 */
static int strs_add_btf(struct linfo_build *b, const struct btf *btf, u32 btf_off, bool is_path,
			u32 *off)
{
	const char *s = btf__name_by_offset(btf, btf_off);
	char path[PATH_MAX];
	u32 i;

	for (i = 0; i < b->nr_seen; i++)
		if (b->btf_off[i] == btf_off) {
			*off = b->our_off[i];
			return 0;
		}
	if (b->nr_seen == b->cap_seen) {
		u32 cap = b->cap_seen ? b->cap_seen * 2 : 8;
		u32 *a = realloc(b->btf_off, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		b->btf_off = a;
		a = realloc(b->our_off, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		b->our_off = a;
		b->cap_seen = cap;
	}
	if (is_path)
		linfo_resolve(s ? s : "", b->obj_dir, path, sizeof(path));
	if (strs_add(b, is_path ? path : s ? s : "", off))
		return -ENOMEM;
	b->btf_off[b->nr_seen] = btf_off;
	b->our_off[b->nr_seen++] = *off;
	return 0;
}

static int linfo_add(struct linfo_build *b, const struct btf *btf,
		     const struct bpf_line_info *rec, u32 slot)
{
	struct bpf_prog_linfo *li = b->li;
	struct bpf_line_info *l;

	if (li->nr_linfo == b->cap_linfo) {
		u32 cap = b->cap_linfo ? b->cap_linfo * 2 : 64;
		void *p = realloc(li->linfo, cap * sizeof(*li->linfo));

		if (!p)
			return -ENOMEM;
		li->linfo = p;
		b->cap_linfo = cap;
	}
	l = &li->linfo[li->nr_linfo];
	l->insn_off = slot;
	l->line_col = rec->line_col;
	if (strs_add_btf(b, btf, rec->file_name_off, true, &l->file_name_off) ||
	    strs_add_btf(b, btf, rec->line_off, false, &l->line_off))
		return -ENOMEM;
	li->nr_linfo++;
	return 0;
}

/* The records of one linked function, from its section's line_info. */
static int linfo_chunk(struct linfo_build *b, const u8 *p, const u8 *end, u32 rec_size,
		       const struct btf *btf, const struct bpf_linfo_chunk *c)
{
	while (end - p >= 8) {
		u32 sec_off, num, k;
		const char *sec;

		memcpy(&sec_off, p, 4);
		memcpy(&num, p + 4, 4);
		p += 8;
		if ((u64)num * rec_size > (u64)(end - p))
			return -EINVAL;
		sec = btf__name_by_offset(btf, sec_off);
		if (!sec || strcmp(sec, c->sec)) {
			p += (size_t)num * rec_size;
			continue;
		}
		for (k = 0; k < num; k++, p += rec_size) {
			struct bpf_line_info rec;
			u32 insn;

			memcpy(&rec, p, sizeof(rec));
			if (rec.insn_off % sizeof(struct bpf_insn))
				return -EINVAL;
			insn = rec.insn_off / sizeof(struct bpf_insn);
			if (insn < c->sec_insn_off || insn - c->sec_insn_off >= c->cnt)
				continue;
			if (linfo_add(b, btf, &rec, c->out_off + insn - c->sec_insn_off))
				return -ENOMEM;
		}
	}
	return 0;
}

static int linfo_cmp(const void *a, const void *b)
{
	const struct bpf_line_info *x = a, *y = b;

	return x->insn_off < y->insn_off ? -1 : x->insn_off > y->insn_off;
}

struct bpf_prog_linfo *bpf_prog_linfo_build(const void *ext, size_t ext_size,
					    const struct btf *btf, const char *obj_dir,
					    const struct bpf_linfo_chunk *chunks, u32 nr_chunks)
{
	struct linfo_build b = { .obj_dir = obj_dir };
	struct btf_ext_hdr hdr = {};
	const u8 *p = NULL, *end = NULL;
	u32 rec_size = 0, i;
	int err = 0;

	b.li = calloc(1, sizeof(*b.li));
	if (!b.li)
		return NULL;
	b.li->funcs = calloc(nr_chunks ? nr_chunks : 1, sizeof(*b.li->funcs));
	if (!b.li->funcs)
		goto fail;
	for (i = 0; i < nr_chunks; i++) {
		struct bpf_linfo_func *f = &b.li->funcs[b.li->nr_funcs++];

		f->insn_off = chunks[i].out_off;
		f->cnt = chunks[i].cnt;
		if (strs_add(&b, chunks[i].func ? chunks[i].func : "", &f->name_off))
			goto fail;
	}
	/* the header may end before the CO-RE fields (older clang) */
	if (ext && btf && ext_size >= offsetof(struct btf_ext_hdr, core_relo_off)) {
		memcpy(&hdr, ext, ext_size < sizeof(hdr) ? ext_size : sizeof(hdr));
		if (hdr.magic == 0xeB9F && hdr.hdr_len >= offsetof(struct btf_ext_hdr, core_relo_off) &&
		    hdr.line_info_len >= 4 &&
		    (u64)hdr.hdr_len + hdr.line_info_off + hdr.line_info_len <= ext_size) {
			p = (const u8 *)ext + hdr.hdr_len + hdr.line_info_off;
			end = p + hdr.line_info_len;
			memcpy(&rec_size, p, 4);
			p += 4;
		}
	}
	if (p && rec_size >= sizeof(struct bpf_line_info) && rec_size <= 256)
		for (i = 0; i < nr_chunks && !err; i++)
			err = linfo_chunk(&b, p, end, rec_size, btf, &chunks[i]);
	if (err == -ENOMEM)
		goto fail;
	if (err) {
		/* malformed line_info: keep the functions, no lines */
		free(b.li->linfo);
		b.li->linfo = NULL;
		b.li->nr_linfo = 0;
	}
	if (b.li->nr_linfo)
		qsort(b.li->linfo, b.li->nr_linfo, sizeof(*b.li->linfo), linfo_cmp);
	free(b.btf_off);
	free(b.our_off);
	return b.li;
fail:
	free(b.btf_off);
	free(b.our_off);
	bpf_prog_linfo_free(b.li);
	return NULL;
}

void bpf_prog_linfo_free(struct bpf_prog_linfo *li)
{
	if (!li)
		return;
	free(li->linfo);
	free(li->funcs);
	free(li->strs);
	free(li);
}

const struct bpf_line_info *bpf_prog_linfo_find(const struct bpf_prog_linfo *li, u32 insn)
{
	u32 lo = 0, hi;

	if (!li || !li->nr_linfo || insn < li->linfo[0].insn_off)
		return NULL;
	/* the last record at or before @insn */
	hi = li->nr_linfo;
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (li->linfo[mid].insn_off <= insn)
			lo = mid;
		else
			hi = mid;
	}
	return &li->linfo[lo];
}
