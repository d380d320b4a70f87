// SPDX-License-Identifier: GPL-2.0
/*
 * Program coverage: per-slot execution counters and per-jump branch
 * counters that the interpreter's COVER handler (kernel/bpf/core.c) bumps,
 * mapped to source lines through the program's BTF line_info
 * (kernel/bpf/line_info.c) and written as an lcov tracefile.
 *
 * Enabling allocates struct bpf_prog_cov (kept in the program's verifier
 * info until the program is freed, so a run already counting never
 * touches freed memory) and has bpf_prog_coverage_set() point every slot of
 * the decoded image at COVER and bpf_func at the interpreter. Disabling
 * puts the handlers, superinstructions and runtime back. Counters are
 * updated with relaxed atomics: programs may run on several workers.
 *
 * lcov records written (geninfo(1) format): TN, SF, FN/FNDA/FNF/FNH,
 * BRDA/BRF/BRH, DA/LF/LH, end_of_record.
 *
 * Kernel: none.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_coverage.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <linux/printk.h>
#include <uxdp/uxdp_bpf_cov.h>

static bool insn_is_cond_jump(const struct bpf_insn *insn)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	if (cls != BPF_JMP && cls != BPF_JMP32)
		return false;
	return op != BPF_JA && op != BPF_CALL && op != BPF_EXIT && op != BPF_JCOND;
}

void bpf_prog_cov_free(struct bpf_prog_cov *cov)
{
	if (!cov)
		return;
	free(cov->cnt);
	free(cov->branch);
	free(cov->cond);
	free(cov->ops);
	free(cov);
}

static struct bpf_prog_cov *bpf_prog_cov_alloc(const struct bpf_prog *prog)
{
	struct bpf_prog_cov *cov = calloc(1, sizeof(*cov));
	u32 i;

	if (!cov)
		return NULL;
	cov->cnt = calloc(prog->len, sizeof(*cov->cnt));
	cov->branch = calloc(2 * (size_t)prog->len, sizeof(*cov->branch));
	cov->cond = calloc(prog->len, sizeof(*cov->cond));
	cov->ops = calloc(prog->len, sizeof(*cov->ops));
	if (!cov->cnt || !cov->branch || !cov->cond || !cov->ops) {
		bpf_prog_cov_free(cov);
		return NULL;
	}
	for (i = 0; i < prog->len; i++)
		cov->cond[i] = insn_is_cond_jump(&prog->insnsi[i]);
	return cov;
}

UXDP_API int uxdp_bpf_prog_coverage_enable(__u32 prog_id)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	struct bpf_verifier_info *vi;
	int err;

	if (!prog) {
		pr_warn("prog %u: no such program\n", prog_id);
		return -ENOENT;
	}
	vi = prog->aux->verifier_info;
	if (!vi) {
		pr_warn("prog %u: not checked, nothing to count\n", prog_id);
		return -EINVAL;
	}
	if (vi->cov) {
		memset(vi->cov->cnt, 0, prog->len * sizeof(*vi->cov->cnt));
		memset(vi->cov->branch, 0, 2 * (size_t)prog->len * sizeof(*vi->cov->branch));
		if (vi->cov->on)
			return 0;
	} else {
		vi->cov = bpf_prog_cov_alloc(prog);
		if (!vi->cov)
			return -ENOMEM;
	}
	err = bpf_prog_coverage_set(prog, vi->cov);
	if (!err)
		vi->cov->on = true;
	return err;
}

UXDP_API int uxdp_bpf_prog_coverage_disable(__u32 prog_id)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	struct bpf_verifier_info *vi;

	if (!prog)
		return -ENOENT;
	vi = prog->aux->verifier_info;
	if (!vi || !vi->cov || !vi->cov->on)
		return 0;
	vi->cov->on = false;
	return bpf_prog_coverage_set(prog, NULL);
}

/* The counters of @prog_id, or NULL with *@err set. */
static const struct bpf_prog_cov *prog_cov(__u32 prog_id, struct bpf_prog **progp, int *err)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	const struct bpf_verifier_info *vi;

	*err = -ENOENT;
	if (!prog) {
		pr_warn("prog %u: no such program\n", prog_id);
		return NULL;
	}
	vi = prog->aux->verifier_info;
	*err = -ENODATA;
	if (!vi || !vi->cov) {
		pr_warn("prog %u (%s): coverage was never enabled\n", prog_id, prog->aux->name);
		return NULL;
	}
	*progp = prog;
	return vi->cov;
}

UXDP_API int uxdp_bpf_prog_coverage_get(__u32 prog_id, __u64 *cnt, __u64 *branch, __u32 n)
{
	const struct bpf_prog_cov *cov;
	struct bpf_prog *prog;
	int err;
	u32 i;

	cov = prog_cov(prog_id, &prog, &err);
	if (!cov)
		return err;
	n = min_t(u32, n, prog->len);
	for (i = 0; cnt && i < n; i++)
		cnt[i] = __atomic_load_n(&cov->cnt[i], __ATOMIC_RELAXED);
	for (i = 0; branch && i < 2 * n; i++)
		branch[i] = __atomic_load_n(&cov->branch[i], __ATOMIC_RELAXED);
	return (int)prog->len;
}

static const char *linfo_str(const struct bpf_prog_linfo *li, u32 off)
{
	return off < li->strs_len ? li->strs + off : "";
}

/* The function slot @insn belongs to, or NULL. */
static const struct bpf_linfo_func *linfo_func(const struct bpf_prog_linfo *li, u32 insn)
{
	u32 i;

	for (i = 0; li && i < li->nr_funcs; i++)
		if (insn >= li->funcs[i].insn_off && insn - li->funcs[i].insn_off < li->funcs[i].cnt)
			return &li->funcs[i];
	return NULL;
}

UXDP_API int uxdp_bpf_prog_line_info(__u32 prog_id, __u32 insn, struct uxdp_bpf_line *line)
{
	struct bpf_prog *prog = bpf_prog_get(prog_id);
	const struct bpf_linfo_func *fn;
	const struct bpf_line_info *l;
	const struct bpf_prog_linfo *li;

	if (!prog)
		return -ENOENT;
	if (insn >= prog->len)
		return -ERANGE;
	li = prog->aux->linfo;
	l = bpf_prog_linfo_find(li, insn);
	if (!l)
		return -ENODATA;
	fn = linfo_func(li, insn);
	line->file = linfo_str(li, l->file_name_off);
	line->func = fn ? linfo_str(li, fn->name_off) : "";
	line->line = BPF_LINE_INFO_LINE_NUM(l->line_col);
	line->col = BPF_LINE_INFO_LINE_COL(l->line_col);
	line->src = linfo_str(li, l->line_off);
	line->insn_off = l->insn_off;
	return 0;
}

/* ---- lcov tracefile ------------------------------------------------------ */

enum cov_kind { COV_LINE, COV_FUNC, COV_BRANCH };

/* One fact for the tracefile; sorted by file, kind, line, then merged. */
struct cov_rec {
	const char *file;
	enum cov_kind kind;
	u32 line;
	const char *func;	/* COV_FUNC */
	u64 block;		/* COV_BRANCH: unique per jump */
	u64 hits;		/* LINE, FUNC: runs; BRANCH: fall-throughs */
	u64 taken;		/* BRANCH */
	bool ran;		/* BRANCH: the jump ran at all */
};

struct cov_set {
	struct cov_rec *recs;
	size_t nr, cap;
};

static int cov_add(struct cov_set *set, const struct cov_rec *r)
{
	if (set->nr == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 256;
		void *p = realloc(set->recs, cap * sizeof(*set->recs));

		if (!p)
			return -ENOMEM;
		set->recs = p;
		set->cap = cap;
	}
	set->recs[set->nr++] = *r;
	return 0;
}

static int cov_rec_cmp(const void *a, const void *b)
{
	const struct cov_rec *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == COV_FUNC)
		return strcmp(x->func, y->func);
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

/* One program's facts; its lines take the most any of their slots ran. */
static int cov_collect(struct cov_set *set, const struct bpf_prog *prog,
		       const struct bpf_prog_cov *cov, unsigned int k)
{
	const struct bpf_prog_linfo *li = prog->aux->linfo;
	u32 i;

	for (i = 0; i < li->nr_funcs; i++) {
		const struct bpf_linfo_func *fn = &li->funcs[i];
		const struct bpf_line_info *l = bpf_prog_linfo_find(li, fn->insn_off);
		struct cov_rec r = { .kind = COV_FUNC };

		if (!l)
			continue;
		r.file = linfo_str(li, l->file_name_off);
		r.line = BPF_LINE_INFO_LINE_NUM(l->line_col);
		r.func = linfo_str(li, fn->name_off);
		r.hits = __atomic_load_n(&cov->cnt[fn->insn_off], __ATOMIC_RELAXED);
		if (cov_add(set, &r))
			return -ENOMEM;
	}
	for (i = 0; i < prog->len; i++) {
		const struct bpf_line_info *l = bpf_prog_linfo_find(li, i);
		struct cov_rec r = { .kind = COV_LINE };

		if (!l || !BPF_LINE_INFO_LINE_NUM(l->line_col))
			continue;
		if (i && prog->insnsi[i - 1].code == (BPF_LD | BPF_IMM | BPF_DW))
			continue;	/* the second half of an ld_imm64 never counts */
		r.file = linfo_str(li, l->file_name_off);
		r.line = BPF_LINE_INFO_LINE_NUM(l->line_col);
		r.hits = __atomic_load_n(&cov->cnt[i], __ATOMIC_RELAXED);
		if (cov_add(set, &r))
			return -ENOMEM;
		if (!cov->cond[i])
			continue;
		r.kind = COV_BRANCH;
		r.block = (u64)k << 32 | i;
		r.ran = r.hits > 0;
		r.hits = __atomic_load_n(&cov->branch[2 * i], __ATOMIC_RELAXED);
		r.taken = __atomic_load_n(&cov->branch[2 * i + 1], __ATOMIC_RELAXED);
		if (cov_add(set, &r))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Merge equal facts in the sorted set: within one program a line takes its
 * hottest slot (@max), across programs counts add up.
 */
static void cov_merge(struct cov_set *set, size_t from, bool max)
{
	size_t i, out = from;

	if (set->nr - from > 1)
		qsort(set->recs + from, set->nr - from, sizeof(*set->recs), cov_rec_cmp);
	for (i = from; i < set->nr; i++) {
		struct cov_rec *o = &set->recs[out - 1];

		if (out > from && set->recs[i].kind != COV_BRANCH &&
		    !cov_rec_cmp(o, &set->recs[i])) {
			if (max)
				o->hits = o->hits > set->recs[i].hits ? o->hits : set->recs[i].hits;
			else
				o->hits += set->recs[i].hits;
			continue;
		}
		set->recs[out++] = set->recs[i];
	}
	set->nr = out;
}

static void lcov_write_file(FILE *f, const struct cov_rec *r, size_t n)
{
	unsigned int fnf = 0, fnh = 0, brf = 0, brh = 0, lf = 0, lh = 0;
	size_t i;

	fprintf(f, "SF:%s\n", r[0].file);
	for (i = 0; i < n; i++)
		if (r[i].kind == COV_FUNC)
			fprintf(f, "FN:%u,%s\n", r[i].line, r[i].func);
	for (i = 0; i < n; i++)
		if (r[i].kind == COV_FUNC) {
			fprintf(f, "FNDA:%llu,%s\n", (unsigned long long)r[i].hits, r[i].func);
			fnf++;
			fnh += r[i].hits > 0;
		}
	fprintf(f, "FNF:%u\nFNH:%u\n", fnf, fnh);
	for (i = 0; i < n; i++) {
		if (r[i].kind != COV_BRANCH)
			continue;
		if (r[i].ran)
			fprintf(f, "BRDA:%u,%llu,0,%llu\nBRDA:%u,%llu,1,%llu\n", r[i].line,
				(unsigned long long)r[i].block, (unsigned long long)r[i].hits,
				r[i].line, (unsigned long long)r[i].block,
				(unsigned long long)r[i].taken);
		else
			fprintf(f, "BRDA:%u,%llu,0,-\nBRDA:%u,%llu,1,-\n", r[i].line,
				(unsigned long long)r[i].block, r[i].line,
				(unsigned long long)r[i].block);
		brf += 2;
		brh += (r[i].hits > 0) + (r[i].taken > 0);
	}
	fprintf(f, "BRF:%u\nBRH:%u\n", brf, brh);
	for (i = 0; i < n; i++)
		if (r[i].kind == COV_LINE) {
			fprintf(f, "DA:%u,%llu\n", r[i].line, (unsigned long long)r[i].hits);
			lf++;
			lh += r[i].hits > 0;
		}
	fprintf(f, "LF:%u\nLH:%u\nend_of_record\n", lf, lh);
}

static bool lcov_test_name_ok(const char *s)
{
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

UXDP_API int uxdp_bpf_coverage_write_lcov(const char *path, const __u32 *prog_ids,
					  unsigned int n, const char *test_name)
{
	struct cov_set set = {};
	bool have_lines = false;
	size_t i, start;
	unsigned int k;
	int err = 0;
	FILE *f;

	if (!path || !prog_ids || !n) {
		pr_warn("coverage: no file or no programs\n");
		return -EINVAL;
	}
	if (test_name && !lcov_test_name_ok(test_name)) {
		pr_warn("coverage: test name '%s': only [A-Za-z0-9_]\n", test_name);
		return -EINVAL;
	}
	for (k = 0; k < n; k++) {
		const struct bpf_prog_cov *cov;
		struct bpf_prog *prog;
		size_t from = set.nr;

		cov = prog_cov(prog_ids[k], &prog, &err);
		if (!cov)
			goto out;
		if (!prog->aux->linfo || !prog->aux->linfo->nr_linfo)
			continue;
		have_lines = true;
		err = cov_collect(&set, prog, cov, k);
		if (err)
			goto out;
		cov_merge(&set, from, true);
	}
	if (!have_lines) {
		pr_warn("coverage: no line info in the programs (built without -g?)\n");
		err = -ENODATA;
		goto out;
	}
	cov_merge(&set, 0, false);
	f = fopen(path, "w");
	if (!f) {
		err = -errno;
		pr_warn("coverage: %s: %s\n", path, strerror(errno));
		goto out;
	}
	fprintf(f, "TN:%s\n", test_name ? test_name : "");
	for (start = 0, i = 1; i <= set.nr; i++) {
		if (i < set.nr && !strcmp(set.recs[i].file, set.recs[start].file))
			continue;
		lcov_write_file(f, &set.recs[start], i - start);
		start = i;
	}
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -EIO;
	if (err)
		pr_warn("coverage: %s: write failed\n", path);
out:
	free(set.recs);
	return err;
}
