// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE relocations: the access string of a struct bpf_core_relo record
 * ("0:1:2") walked over the object's BTF gives the local spec (the types and
 * members the compiler saw, the bit offset it assumed); every type of the
 * target BTF whose kind and essential name ("foo___v2" -> "foo") match the
 * local root is a candidate, and walking the same member names through it
 * gives the target spec. The relocated value (byte offset, size,
 * existence, signedness, bitfield shifts, type id/size/existence/match,
 * enumerator existence/value) is computed from both; all matching
 * candidates must agree. No match poisons the instruction (existence kinds
 * and type-based kinds resolve to 0 instead), as libbpf does.
 *
 * Kernel: tools/lib/bpf/relo_core.c bpf_core_parse_spec(),
 *	   bpf_core_spec_match(), bpf_core_calc_relo(), bpf_core_patch_insn()
 * Differs: candidates come from one target BTF (no kernel module BTFs);
 *	    messages go to the caller's buffer instead of libbpf's print.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include <linux/bpf_core.h>

#define CORE_SPEC_MAX_LEN	64
#define CORE_MAX_DEPTH		32

struct core_acc {
	__u32 type_id;
	__u32 idx;
	const char *name;
};

struct core_spec {
	const struct btf *btf;
	struct core_acc spec[CORE_SPEC_MAX_LEN];
	__u32 root_type_id;
	__u32 kind;
	int len;
	int raw_spec[CORE_SPEC_MAX_LEN];
	int raw_len;
	__u32 bit_offset;
};

static const char *const kind_names[] = {
	[BPF_CORE_FIELD_BYTE_OFFSET] = "byte_off",
	[BPF_CORE_FIELD_BYTE_SIZE] = "byte_sz",
	[BPF_CORE_FIELD_EXISTS] = "field_exists",
	[BPF_CORE_FIELD_SIGNED] = "signed",
	[BPF_CORE_FIELD_LSHIFT_U64] = "lshift_u64",
	[BPF_CORE_FIELD_RSHIFT_U64] = "rshift_u64",
	[BPF_CORE_TYPE_ID_LOCAL] = "local_type_id",
	[BPF_CORE_TYPE_ID_TARGET] = "target_type_id",
	[BPF_CORE_TYPE_EXISTS] = "type_exists",
	[BPF_CORE_TYPE_SIZE] = "type_size",
	[BPF_CORE_ENUMVAL_EXISTS] = "enumval_exists",
	[BPF_CORE_ENUMVAL_VALUE] = "enumval_value",
	[BPF_CORE_TYPE_MATCHES] = "type_matches",
};

const char *bpf_core_kind_str(__u32 kind)
{
	return kind < sizeof(kind_names) / sizeof(kind_names[0]) && kind_names[kind] ?
	       kind_names[kind] : "unknown";
}

static bool kind_field_based(__u32 k)
{
	return k <= BPF_CORE_FIELD_RSHIFT_U64;
}

static bool kind_type_based(__u32 k)
{
	return (k >= BPF_CORE_TYPE_ID_LOCAL && k <= BPF_CORE_TYPE_SIZE) ||
	       k == BPF_CORE_TYPE_MATCHES;
}

static bool kind_enumval_based(__u32 k)
{
	return k == BPF_CORE_ENUMVAL_EXISTS || k == BPF_CORE_ENUMVAL_VALUE;
}

static bool is_any_enum(const struct btf_type *t)
{
	return btf_is_enum(t) || btf_is_enum64(t);
}

static const struct btf_type *skip_mods_typedefs(const struct btf *btf, __u32 id, __u32 *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t)) && depth++ < CORE_MAX_DEPTH) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = NULL;
	if (res_id)
		*res_id = id;
	return t;
}

static const char *btf_name(const struct btf *btf, __u32 off)
{
	const char *n = btf__name_by_offset(btf, off);

	return n ? n : "";
}

/* "foo___v2" -> 3: ignore the "___suffix" flavour (X___Y, X and Y not '_') */
static size_t essential_name_len(const char *name)
{
	size_t n = strlen(name);
	long i;

	for (i = (long)n - 5; i >= 0; i--)
		if (name[i] != '_' && name[i + 1] == '_' && name[i + 2] == '_' &&
		    name[i + 3] == '_' && name[i + 4] != '_')
			return (size_t)i + 1;
	return n;
}

static bool names_match(const char *a, const char *b)
{
	size_t la = essential_name_len(a), lb = essential_name_len(b);

	return la == lb && !strncmp(a, b, la);
}

static int resolve_size(const struct btf *btf, __u32 id)
{
	long long sz = btf__resolve_size(btf, id);

	return sz < 0 || sz > INT_MAX ? -EINVAL : (int)sz;
}

/* ---- local spec ---------------------------------------------------------- */

static int parse_spec(const struct btf *btf, __u32 type_id, const char *str, __u32 kind,
		      struct core_spec *spec)
{
	const struct btf_type *t;
	__u32 id = type_id;
	int i, sz;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_type_id = type_id;
	spec->kind = kind;
	if (!str || !*str)
		return -EINVAL;
	while (*str) {
		char *end;
		long v;

		if (*str == ':')
			str++;
		v = strtol(str, &end, 10);
		if (end == str || v < 0 || v > INT_MAX || (*end && *end != ':'))
			return -EINVAL;
		if (spec->raw_len == CORE_SPEC_MAX_LEN)
			return -E2BIG;
		spec->raw_spec[spec->raw_len++] = (int)v;
		str = end;
	}
	if (kind_type_based(kind))
		return spec->raw_len == 1 && spec->raw_spec[0] == 0 ? 0 : -EINVAL;

	t = skip_mods_typedefs(btf, id, &id);
	if (!t)
		return -EINVAL;
	if (kind_enumval_based(kind)) {
		__u32 idx = spec->raw_spec[0];

		if (!is_any_enum(t) || spec->raw_len > 1 || idx >= btf_vlen(t))
			return -EINVAL;
		spec->spec[0].type_id = id;
		spec->spec[0].idx = idx;
		spec->spec[0].name = btf_name(btf, btf_is_enum(t) ? btf_enum(t)[idx].name_off :
						     btf_enum64(t)[idx].name_off);
		spec->len = 1;
		return 0;
	}
	if (!kind_field_based(kind))
		return -EINVAL;
	sz = resolve_size(btf, id);
	if (sz < 0)
		return sz;
	spec->spec[0].type_id = id;
	spec->spec[0].idx = spec->raw_spec[0];
	spec->len = 1;
	spec->bit_offset = (__u32)spec->raw_spec[0] * sz * 8;
	for (i = 1; i < spec->raw_len; i++) {
		__u32 idx = spec->raw_spec[i];

		t = skip_mods_typedefs(btf, id, &id);
		if (!t)
			return -EINVAL;
		if (btf_is_composite(t)) {
			const struct btf_member *m;
			const char *name;

			if (idx >= btf_vlen(t))
				return -EINVAL;
			m = btf_members(t) + idx;
			spec->bit_offset += btf_member_bit_offset(t, idx);
			name = btf_name(btf, m->name_off);
			if (*name) {
				spec->spec[spec->len].type_id = id;
				spec->spec[spec->len].idx = idx;
				spec->spec[spec->len].name = name;
				spec->len++;
			}
			id = m->type;
		} else if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);
			bool flex;

			t = skip_mods_typedefs(btf, a->type, &id);
			if (!t)
				return -EINVAL;
			flex = !a->nelems;	/* a[] at the end of a struct */
			if (!flex && idx >= a->nelems)
				return -EINVAL;
			spec->spec[spec->len].type_id = id;
			spec->spec[spec->len].idx = idx;
			spec->spec[spec->len].name = NULL;
			spec->len++;
			sz = resolve_size(btf, id);
			if (sz < 0)
				return sz;
			spec->bit_offset += idx * sz * 8;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/* "struct iphdr.ttl" / "struct xdp_md::2" / "enum foo::BAR" for messages */
static void spec_desc(const struct core_spec *s, char *buf, size_t len, const char *access)
{
	const struct btf_type *t = btf__type_by_id(s->btf, s->root_type_id);
	const char *kind = "type", *name = t ? btf_name(s->btf, t->name_off) : "?";
	size_t n;
	int i;

	if (t && btf_is_struct(t))
		kind = "struct";
	else if (t && btf_is_union(t))
		kind = "union";
	else if (t && is_any_enum(t))
		kind = "enum";
	else if (t && btf_is_typedef(t))
		kind = "typedef";
	n = snprintf(buf, len, "%s '%s'", kind, *name ? name : "(anon)");
	if (kind_type_based(s->kind) || n >= len)
		return;
	if (kind_enumval_based(s->kind)) {
		snprintf(buf + n, len - n, " value '%s'", s->spec[0].name);
		return;
	}
	n += snprintf(buf + n, len - n, " field '");
	for (i = 1; i < s->len && n < len; i++) {
		if (s->spec[i].name)
			n += snprintf(buf + n, len - n, "%s%s", i > 1 ? "." : "", s->spec[i].name);
		else
			n += snprintf(buf + n, len - n, "[%u]", s->spec[i].idx);
	}
	if (n < len)
		snprintf(buf + n, len - n, "' (access %s)", access);
}

/* ---- compatibility --------------------------------------------------------- */

static bool kinds_compat(const struct btf_type *a, const struct btf_type *b)
{
	return btf_kind(a) == btf_kind(b) || (is_any_enum(a) && is_any_enum(b));
}

static int fields_compat(const struct btf *lb, __u32 lid, const struct btf *tb, __u32 tid)
{
	const struct btf_type *lt, *tt;
	int depth = CORE_MAX_DEPTH;

	while (depth--) {
		lt = skip_mods_typedefs(lb, lid, &lid);
		tt = skip_mods_typedefs(tb, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (btf_is_composite(lt) && btf_is_composite(tt))
			return 1;
		if (!kinds_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return names_match(btf_name(lb, lt->name_off), btf_name(tb, tt->name_off));
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

static int types_compat(const struct btf *lb, __u32 lid, const struct btf *tb, __u32 tid,
			int depth);
static int types_match(const struct btf *lb, __u32 lid, const struct btf *tb, __u32 tid,
		       bool behind_ptr, int depth);

/* Two FUNC_PROTOs: as many parameters, each compatible (or matching). */
static int params_agree(const struct btf *lb, const struct btf_type *lt, const struct btf *tb,
			const struct btf_type *tt, bool match, bool behind_ptr, int depth)
{
	int i, err;

	if (btf_vlen(lt) != btf_vlen(tt))
		return 0;
	for (i = 0; i < btf_vlen(lt); i++) {
		__u32 a = btf_params(lt)[i].type, b = btf_params(tt)[i].type;

		err = match ? types_match(lb, a, tb, b, behind_ptr, depth) :
			      types_compat(lb, a, tb, b, depth);
		if (err <= 0)
			return err;
	}
	return 1;
}

static int types_compat(const struct btf *lb, __u32 lid, const struct btf *tb, __u32 tid,
			int depth)
{
	const struct btf_type *lt, *tt;
	int err;

	while (depth-- > 0) {
		lt = skip_mods_typedefs(lb, lid, &lid);
		tt = skip_mods_typedefs(tb, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!kinds_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO:
			err = params_agree(lb, lt, tb, tt, false, false, depth);
			if (err <= 0)
				return err;
			lid = lt->type;
			tid = tt->type;
			continue;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

static __s64 enum_val(const struct btf_type *t, int i)
{
	return btf_is_enum(t) ? btf_enum(t)[i].val : (__s64)btf_enum64_value(btf_enum64(t) + i);
}

static __u32 enum_name_off(const struct btf_type *t, int i)
{
	return btf_is_enum(t) ? btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off;
}

static int enums_match(const struct btf *lb, const struct btf_type *lt, const struct btf *tb,
		       const struct btf_type *tt)
{
	int i, j;

	if (lt->size != tt->size)
		return 0;
	for (i = 0; i < btf_vlen(lt); i++) {
		const char *ln = btf_name(lb, enum_name_off(lt, i));

		for (j = 0; j < btf_vlen(tt); j++)
			if (names_match(ln, btf_name(tb, enum_name_off(tt, j))) &&
			    enum_val(lt, i) == enum_val(tt, j))
				break;
		if (j == btf_vlen(tt))
			return 0;
	}
	return 1;
}

static int composites_match(const struct btf *lb, const struct btf_type *lt, const struct btf *tb,
			    const struct btf_type *tt, bool behind_ptr, int depth)
{
	int i, j, err;

	if (btf_vlen(lt) > btf_vlen(tt))
		return 0;
	for (i = 0; i < btf_vlen(lt); i++) {
		const struct btf_member *lm = btf_members(lt) + i;
		const char *ln = btf_name(lb, lm->name_off);

		for (j = 0; j < btf_vlen(tt); j++) {
			const struct btf_member *tm = btf_members(tt) + j;

			if (!names_match(ln, btf_name(tb, tm->name_off)))
				continue;
			err = types_match(lb, lm->type, tb, tm->type, behind_ptr, depth - 1);
			if (err < 0)
				return err;
			if (err > 0)
				break;
		}
		if (j == btf_vlen(tt))
			return 0;
	}
	return 1;
}

/* bpf_core_type_matches(): same shape, member by member (libbpf's rules) */
static int types_match(const struct btf *lb, __u32 lid, const struct btf *tb, __u32 tid,
		       bool behind_ptr, int depth)
{
	const struct btf_type *lt, *tt;
	int lk, tk, err;

	while (depth-- > 0) {
		lt = skip_mods_typedefs(lb, lid, &lid);
		tt = skip_mods_typedefs(tb, tid, &tid);
		if (!lt || !tt)
			return -EINVAL;
		if (!names_match(btf_name(lb, lt->name_off), btf_name(tb, tt->name_off)))
			return 0;
		lk = btf_kind(lt);
		tk = btf_kind(tt);
		switch (lk) {
		case BTF_KIND_UNKN:
			return lk == tk;
		case BTF_KIND_FWD: {
			bool lf = btf_kflag(lt);

			if (behind_ptr) {
				if (lk == tk)
					return lf == btf_kflag(tt);
				return (tk == BTF_KIND_STRUCT && !lf) || (tk == BTF_KIND_UNION && lf);
			}
			return lk == tk && lf == btf_kflag(tt);
		}
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return is_any_enum(tt) && enums_match(lb, lt, tb, tt);
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			if (behind_ptr) {
				if (lk == tk)
					return 1;
				return tk == BTF_KIND_FWD && (lk == BTF_KIND_UNION) == btf_kflag(tt);
			}
			return lk == tk && composites_match(lb, lt, tb, tt, behind_ptr, depth);
		case BTF_KIND_INT:
			return lk == tk && lt->size == tt->size &&
			       (btf_int_encoding(lt) & BTF_INT_SIGNED) ==
			       (btf_int_encoding(tt) & BTF_INT_SIGNED);
		case BTF_KIND_FLOAT:
			return lk == tk && lt->size == tt->size;
		case BTF_KIND_PTR:
			if (lk != tk)
				return 0;
			behind_ptr = true;
			lid = lt->type;
			tid = tt->type;
			continue;
		case BTF_KIND_ARRAY:
			if (lk != tk || btf_array(lt)->nelems != btf_array(tt)->nelems)
				return 0;
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			continue;
		case BTF_KIND_FUNC_PROTO:
			if (lk != tk)
				return 0;
			err = params_agree(lb, lt, tb, tt, true, behind_ptr, depth);
			if (err <= 0)
				return err;
			lid = lt->type;
			tid = tt->type;
			continue;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

/* ---- target spec ----------------------------------------------------------- */

static int match_member(const struct btf *lb, const struct core_acc *lacc, const struct btf *tb,
			__u32 tid, struct core_spec *spec, __u32 *next_tid, int depth)
{
	const struct btf_type *lt = btf__type_by_id(lb, lacc->type_id), *tt;
	const struct btf_member *lm, *m;
	const char *lname;
	int i, found;

	if (depth <= 0)
		return -EINVAL;
	tt = skip_mods_typedefs(tb, tid, &tid);
	if (!lt || !tt)
		return -EINVAL;
	if (!btf_is_composite(tt))
		return 0;
	lm = btf_members(lt) + lacc->idx;
	lname = btf_name(lb, lm->name_off);
	m = btf_members(tt);
	for (i = 0; i < btf_vlen(tt); i++, m++) {
		__u32 bit_off = btf_member_bit_offset(tt, i);
		const char *tname = btf_name(tb, m->name_off);

		if (spec->raw_len == CORE_SPEC_MAX_LEN)
			return -E2BIG;
		spec->bit_offset += bit_off;
		spec->raw_spec[spec->raw_len++] = i;
		if (!*tname) {
			found = match_member(lb, lacc, tb, m->type, spec, next_tid, depth - 1);
			if (found)
				return found;
		} else if (!strcmp(lname, tname)) {
			struct core_acc *tacc;

			if (spec->len == CORE_SPEC_MAX_LEN)
				return -E2BIG;
			tacc = &spec->spec[spec->len++];
			tacc->type_id = tid;
			tacc->idx = i;
			tacc->name = tname;
			*next_tid = m->type;
			found = fields_compat(lb, lm->type, tb, m->type);
			if (found <= 0)
				spec->len--;
			return found;
		}
		spec->bit_offset -= bit_off;
		spec->raw_len--;
	}
	return 0;
}

/* 1: @tid of @tb matches @local (target spec in @ts), 0: it does not, <0: error */
static int spec_match(const struct core_spec *local, const struct btf *tb, __u32 tid,
		      struct core_spec *ts)
{
	const struct core_acc *lacc = local->spec;
	struct core_acc *tacc = ts->spec;
	const struct btf_type *tt;
	int i, sz, m;

	memset(ts, 0, sizeof(*ts));
	ts->btf = tb;
	ts->root_type_id = tid;
	ts->kind = local->kind;
	if (kind_type_based(local->kind)) {
		if (local->kind == BPF_CORE_TYPE_MATCHES)
			return types_match(local->btf, local->root_type_id, tb, tid, false,
					   CORE_MAX_DEPTH);
		return types_compat(local->btf, local->root_type_id, tb, tid, CORE_MAX_DEPTH);
	}
	if (kind_enumval_based(local->kind)) {
		tt = skip_mods_typedefs(tb, tid, &tid);
		if (!tt || !is_any_enum(tt))
			return 0;
		for (i = 0; i < btf_vlen(tt); i++) {
			const char *tn = btf_name(tb, enum_name_off(tt, i));

			if (names_match(lacc->name, tn)) {
				tacc->type_id = tid;
				tacc->idx = i;
				tacc->name = tn;
				ts->len = 1;
				ts->raw_spec[0] = i;
				ts->raw_len = 1;
				return 1;
			}
		}
		return 0;
	}
	for (i = 0; i < local->len; i++, lacc++, tacc++) {
		if (lacc->name) {
			m = match_member(local->btf, lacc, tb, tid, ts, &tid, CORE_MAX_DEPTH);
			if (m <= 0)
				return m;
			tacc = &ts->spec[ts->len - 1];
			continue;
		}
		if (i > 0) {
			const struct btf_array *a;

			tt = skip_mods_typedefs(tb, tid, &tid);
			if (!tt || !btf_is_array(tt))
				return 0;
			a = btf_array(tt);
			if (a->nelems && lacc->idx >= a->nelems)
				return 0;
			if (!skip_mods_typedefs(tb, a->type, &tid))
				return -EINVAL;
		}
		if (ts->raw_len == CORE_SPEC_MAX_LEN || ts->len == CORE_SPEC_MAX_LEN)
			return -E2BIG;
		tacc = &ts->spec[ts->len++];
		tacc->type_id = tid;
		tacc->idx = lacc->idx;
		tacc->name = NULL;
		ts->raw_spec[ts->raw_len++] = lacc->idx;
		sz = resolve_size(tb, tid);
		if (sz < 0)
			return sz;
		ts->bit_offset += lacc->idx * sz * 8;
	}
	return 1;
}

/* ---- values ---------------------------------------------------------------- */

static int calc_field(__u32 kind, const struct core_spec *spec, __u64 *val, __u32 *field_sz,
		      __u32 *type_id, bool *validate)
{
	const struct core_acc *acc;
	const struct btf_type *t, *mt;
	__u32 byte_off, byte_sz, bit_off, bit_sz, field_type_id;
	const struct btf_member *m;
	bool bitfield;
	int sz;

	if (kind == BPF_CORE_FIELD_EXISTS) {
		*val = spec ? 1 : 0;
		return 0;
	}
	if (!spec)
		return -EUCLEAN;
	acc = &spec->spec[spec->len - 1];
	t = btf__type_by_id(spec->btf, acc->type_id);
	if (!t)
		return -EINVAL;
	if (!acc->name) {
		sz = resolve_size(spec->btf, acc->type_id);
		if (sz < 0)
			return -EINVAL;
		if (kind == BPF_CORE_FIELD_BYTE_OFFSET) {
			*val = spec->bit_offset / 8;
			*field_sz = sz;
			*type_id = acc->type_id;
		} else if (kind == BPF_CORE_FIELD_BYTE_SIZE) {
			*val = sz;
		} else {
			return -EINVAL;	/* shifts and signedness of an array element */
		}
		if (validate)
			*validate = true;
		return 0;
	}
	m = btf_members(t) + acc->idx;
	mt = skip_mods_typedefs(spec->btf, m->type, &field_type_id);
	if (!mt)
		return -EINVAL;
	bit_off = spec->bit_offset;
	bit_sz = btf_member_bitfield_size(t, acc->idx);
	bitfield = bit_sz > 0;
	if (bitfield) {
		byte_sz = mt->size;
		if (!byte_sz)
			return -EINVAL;
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8)
				return -E2BIG;
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		sz = resolve_size(spec->btf, field_type_id);
		if (sz < 0)
			return -EINVAL;
		byte_sz = sz;
		byte_off = spec->bit_offset / 8;
		bit_sz = byte_sz * 8;
	}
	if (validate)
		*validate = !bitfield;
	switch (kind) {
	case BPF_CORE_FIELD_BYTE_OFFSET:
		*val = byte_off;
		if (!bitfield) {
			*field_sz = byte_sz;
			*type_id = field_type_id;
		}
		break;
	case BPF_CORE_FIELD_BYTE_SIZE:
		*val = byte_sz;
		break;
	case BPF_CORE_FIELD_SIGNED:
		*val = (is_any_enum(mt) && btf_kflag(mt)) ||
		       (btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED));
		if (validate)
			*validate = true;
		break;
	case BPF_CORE_FIELD_LSHIFT_U64:
		*val = 64 - (bit_off + bit_sz - byte_off * 8);	/* little-endian */
		break;
	case BPF_CORE_FIELD_RSHIFT_U64:
		*val = 64 - bit_sz;
		if (validate)
			*validate = true;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return 0;
}

static int calc_type(__u32 kind, const struct core_spec *spec, __u64 *val)
{
	int sz;

	if (!spec) {
		*val = 0;	/* type-based kinds are 0 when the target has no such type */
		return 0;
	}
	switch (kind) {
	case BPF_CORE_TYPE_ID_LOCAL:
	case BPF_CORE_TYPE_ID_TARGET:
		*val = spec->root_type_id;
		return 0;
	case BPF_CORE_TYPE_EXISTS:
	case BPF_CORE_TYPE_MATCHES:
		*val = 1;
		return 0;
	case BPF_CORE_TYPE_SIZE:
		sz = resolve_size(spec->btf, spec->root_type_id);
		if (sz < 0)
			return -EINVAL;
		*val = sz;
		return 0;
	}
	return -EOPNOTSUPP;
}

static int calc_enumval(__u32 kind, const struct core_spec *spec, __u64 *val)
{
	const struct btf_type *t;

	if (kind == BPF_CORE_ENUMVAL_EXISTS) {
		*val = spec ? 1 : 0;
		return 0;
	}
	if (!spec)
		return -EUCLEAN;
	t = btf__type_by_id(spec->btf, spec->spec[0].type_id);
	if (!t || !is_any_enum(t))
		return -EINVAL;
	*val = (__u64)enum_val(t, spec->spec[0].idx);
	return 0;
}

static int calc(const struct core_spec *ls, const struct core_spec *ts,
		struct bpf_core_relo_res *res)
{
	__u32 orig_tid = 0, new_tid = 0;
	int err = 0;

	res->orig_val = res->new_val = 0;
	res->orig_sz = res->new_sz = 0;
	res->poison = false;
	res->validate = true;
	res->fail_memsz_adjust = false;
	if (kind_field_based(ls->kind)) {
		err = calc_field(ls->kind, ls, &res->orig_val, &res->orig_sz, &orig_tid,
				 &res->validate);
		err = err ?: calc_field(ls->kind, ts, &res->new_val, &res->new_sz, &new_tid, NULL);
		if (!err && res->orig_sz != res->new_sz) {
			const struct btf_type *ot = btf__type_by_id(ls->btf, orig_tid);
			const struct btf_type *nt = btf__type_by_id(ts->btf, new_tid);

			/* only pointers and unsigned integers may change size */
			if (!(ot && nt && btf_is_ptr(ot) && btf_is_ptr(nt)) &&
			    !(ot && nt && btf_is_int(ot) && btf_is_int(nt) &&
			      !(btf_int_encoding(ot) & BTF_INT_SIGNED) &&
			      !(btf_int_encoding(nt) & BTF_INT_SIGNED)))
				res->fail_memsz_adjust = true;
		}
	} else if (kind_type_based(ls->kind)) {
		err = calc_type(ls->kind, ls, &res->orig_val);
		err = err ?: calc_type(ls->kind, ts, &res->new_val);
	} else if (kind_enumval_based(ls->kind)) {
		err = calc_enumval(ls->kind, ls, &res->orig_val);
		err = err ?: calc_enumval(ls->kind, ts, &res->new_val);
	} else {
		err = -EOPNOTSUPP;
	}
	if (err == -EUCLEAN) {
		res->poison = true;
		err = 0;
	}
	return err;
}

int bpf_core_calc_relo(const struct btf *local, const struct btf *targ,
		       const struct bpf_core_relo *relo, struct bpf_core_relo_res *res,
		       char *err, size_t errlen)
{
	struct core_spec *ls, *cs, *ts;
	const struct btf_type *lt;
	const char *access, *lname;
	__u32 n, id;
	int found = 0, ret = 0, m;

	memset(res, 0, sizeof(*res));
	lt = btf__type_by_id(local, relo->type_id);
	access = btf__name_by_offset(local, relo->access_str_off);
	if (!lt || !relo->type_id || !access) {
		snprintf(err, errlen, "malformed CO-RE record (type id %u, access string at %u)",
			 relo->type_id, relo->access_str_off);
		return -EINVAL;
	}
	ls = calloc(3, sizeof(*ls));
	if (!ls)
		return -ENOMEM;
	cs = ls + 1;
	ts = ls + 2;
	ret = parse_spec(local, relo->type_id, access, relo->kind, ls);
	if (ret) {
		snprintf(err, errlen, "CO-RE %s relocation: bad access string '%s' for type [%u]",
			 bpf_core_kind_str(relo->kind), access, relo->type_id);
		ret = ret == -E2BIG ? -E2BIG : -EINVAL;
		goto out;
	}
	spec_desc(ls, res->desc, sizeof(res->desc), access);
	if (relo->kind == BPF_CORE_TYPE_ID_LOCAL) {
		res->validate = true;
		res->orig_val = res->new_val = relo->type_id;
		goto out;
	}
	lname = btf_name(local, lt->name_off);
	if (!*lname) {
		snprintf(err, errlen, "CO-RE %s relocation against an anonymous %s",
			 bpf_core_kind_str(relo->kind), res->desc);
		ret = -EOPNOTSUPP;
		goto out;
	}
	n = targ ? btf__type_cnt(targ) : 0;
	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(targ, id);
		struct bpf_core_relo_res cand;

		if (!t || !kinds_compat(t, lt) || !names_match(lname, btf_name(targ, t->name_off)))
			continue;
		m = spec_match(ls, targ, id, cs);
		if (m < 0) {
			snprintf(err, errlen, "CO-RE %s relocation of %s: target type [%u] is malformed",
				 bpf_core_kind_str(relo->kind), res->desc, id);
			ret = m;
			goto out;
		}
		if (!m)
			continue;
		ret = calc(ls, cs, &cand);
		if (ret) {
			snprintf(err, errlen, "CO-RE %s relocation of %s cannot be computed",
				 bpf_core_kind_str(relo->kind), res->desc);
			goto out;
		}
		if (!found) {
			memcpy(res, &cand, offsetof(struct bpf_core_relo_res, desc));
			*ts = *cs;
		} else if (cs->bit_offset != ts->bit_offset || cand.poison != res->poison ||
			   cand.new_val != res->new_val) {
			snprintf(err, errlen, "CO-RE %s relocation of %s is ambiguous: target types [%u] and [%u] give %llu and %llu",
				 bpf_core_kind_str(relo->kind), res->desc, ts->root_type_id, id,
				 (unsigned long long)res->new_val, (unsigned long long)cand.new_val);
			ret = -EINVAL;
			goto out;
		}
		found++;
	}
	if (!found) {
		ret = calc(ls, NULL, res);
		if (ret)
			snprintf(err, errlen, "CO-RE %s relocation of %s cannot be computed",
				 bpf_core_kind_str(relo->kind), res->desc);
	}
out:
	free(ls);
	return ret;
}

/* ---- patching -------------------------------------------------------------- */

static int size_bytes(__u8 code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static int bytes_to_size(__u32 n)
{
	switch (n) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	case 8: return BPF_DW;
	}
	return -EINVAL;
}

static void poison_insn(struct bpf_insn *insn)
{
	insn->code = BPF_JMP | BPF_CALL;
	insn->dst_reg = 0;
	insn->src_reg = 0;
	insn->off = 0;
	insn->imm = BPF_CORE_POISON_IMM;
}

int bpf_core_patch_insn(struct bpf_insn *insn, __u32 left, __u32 kind,
			const struct bpf_core_relo_res *res, char *err, size_t errlen)
{
	__u8 class = BPF_CLASS(insn->code);
	bool ldimm = insn->code == (BPF_LD | BPF_IMM | BPF_DW);
	__u64 orig = res->orig_val, val = res->new_val;

	(void)kind;
	if (ldimm && left < 2) {
		snprintf(err, errlen, "ld_imm64 is cut by the end of the function");
		return -EINVAL;
	}
	if (res->poison)
		goto poison;
	switch (class) {
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) != BPF_K) {
			snprintf(err, errlen, "ALU instruction 0x%02x has no immediate to relocate",
				 insn->code);
			return -EINVAL;
		}
		if (res->validate && (__u32)insn->imm != orig) {
			snprintf(err, errlen, "unexpected ALU value: got %u, expected %llu -> %llu",
				 (__u32)insn->imm, (unsigned long long)orig, (unsigned long long)val);
			return -EINVAL;
		}
		insn->imm = (__s32)val;
		return 0;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		if (res->validate && (__u64)(__s64)insn->off != orig) {
			snprintf(err, errlen, "unexpected LDX/ST/STX offset: got %d, expected %llu -> %llu",
				 insn->off, (unsigned long long)orig, (unsigned long long)val);
			return -EINVAL;
		}
		if (val > SHRT_MAX) {
			snprintf(err, errlen, "LDX/ST/STX offset %llu is too big",
				 (unsigned long long)val);
			return -ERANGE;
		}
		if (res->fail_memsz_adjust)
			goto poison;	/* a signed or composite field changed size */
		insn->off = (__s16)val;
		if (res->new_sz != res->orig_sz) {
			int bsz = bytes_to_size(res->new_sz);

			if (size_bytes(insn->code) != (int)res->orig_sz) {
				snprintf(err, errlen, "unexpected memory access size: got %d, expected %u",
					 size_bytes(insn->code), res->orig_sz);
				return -EINVAL;
			}
			if (bsz < 0) {
				snprintf(err, errlen, "invalid new memory access size %u", res->new_sz);
				return -EINVAL;
			}
			insn->code = BPF_MODE(insn->code) | bsz | BPF_CLASS(insn->code);
		}
		return 0;
	case BPF_LD: {
		__u64 imm;

		if (!ldimm || insn[0].src_reg || insn[0].off || insn[1].code || insn[1].dst_reg ||
		    insn[1].src_reg || insn[1].off) {
			snprintf(err, errlen, "ld_imm64 has an unexpected form");
			return -EINVAL;
		}
		imm = (__u32)insn[0].imm | ((__u64)(__u32)insn[1].imm << 32);
		if (res->validate && imm != orig) {
			snprintf(err, errlen, "unexpected ld_imm64 value: got %llu, expected %llu -> %llu",
				 (unsigned long long)imm, (unsigned long long)orig,
				 (unsigned long long)val);
			return -EINVAL;
		}
		insn[0].imm = (__s32)(__u32)val;
		insn[1].imm = (__s32)(__u32)(val >> 32);
		return 0;
	}
	default:
		snprintf(err, errlen, "instruction 0x%02x cannot carry a CO-RE relocation",
			 insn->code);
		return -EINVAL;
	}
poison:
	if (ldimm)
		poison_insn(insn + 1);
	poison_insn(insn);
	return 0;
}
