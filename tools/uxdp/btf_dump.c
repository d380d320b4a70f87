// SPDX-License-Identifier: GPL-2.0
/*
 * Map keys, values and records formatted from the object's BTF, as
 * `bpftool map dump` does: a struct prints as {"field":value,...}, an
 * array as [...], a char array holding a string as "text", an int as a
 * number, an enum as its enumerator, a per-CPU value as
 * [{"cpu":N,"value":V},...]. Without BTF (or when the type's size is not
 * the data's) the bytes print as hex, as bpftool does for maps without BTF.
 * One printer for text and JSON: text mode prints the same JSON value after
 * "key:" / "value:".
 *
 * Kernel: tools/bpf/bpftool/btf_dumper.c btf_dumper_type(), map.c
 *	   print_entry_json()
 * Differs: 128-bit ints print as hex strings; pointers as numbers;
 *	    bitfields of up to 64 bits.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_dump.h"
#include "json_writer.h"

#define BTF_DUMP_MAX_DEPTH	16

void btf_dump_hex(FILE *f, const void *p, size_t n, bool quoted)
{
	const unsigned char *b = p;

	if (quoted)
		fputc('"', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
	if (quoted)
		fputc('"', f);
}

/* Little-endian bit extraction: @nbits (1..64) bits at @bit_off of @data. */
static uint64_t bits_get(const unsigned char *data, uint32_t bit_off, uint32_t nbits)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < nbits; i++) {
		uint32_t b = bit_off + i;

		v |= (uint64_t)((data[b / 8] >> (b % 8)) & 1) << i;
	}
	return v;
}

static void dump_int_bits(FILE *f, uint64_t v, uint32_t nbits, bool is_signed)
{
	if (is_signed && nbits < 64 && (v >> (nbits - 1)) & 1)
		v |= ~0ULL << nbits;
	if (is_signed)
		fprintf(f, "%" PRId64, (int64_t)v);
	else
		fprintf(f, "%" PRIu64, v);
}

static bool is_char_type(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t;

	id = btf__resolve_type(btf, id);
	t = btf__type_by_id(btf, id);
	return t && btf_is_int(t) && t->size == 1;
}

/* A char array printed as a string: NUL-terminated, printable before it. */
static bool is_str_array(const unsigned char *data, size_t n)
{
	size_t i;

	for (i = 0; i < n && data[i]; i++)
		if (!isprint(data[i]))
			return false;
	return i < n && i > 0;
}

static int dump_type(FILE *f, const struct btf *btf, uint32_t id, const unsigned char *data,
		     size_t size, int depth);

static void dump_int(FILE *f, const struct btf_type *t, const unsigned char *data)
{
	uint32_t enc = btf_int_encoding(t), nbits = btf_int_bits(t), off = btf_int_offset(t);

	if (enc & BTF_INT_BOOL) {
		fputs(data[0] ? "true" : "false", f);
		return;
	}
	if (nbits > 64) {
		btf_dump_hex(f, data, t->size, true);
		return;
	}
	if ((enc & BTF_INT_CHAR) && t->size == 1 && isprint(data[0]) && data[0] != '"' &&
	    data[0] != '\\') {
		fprintf(f, "\"%c\"", data[0]);
		return;
	}
	dump_int_bits(f, bits_get(data, off, nbits), nbits, enc & BTF_INT_SIGNED);
}

static void dump_enum(FILE *f, const struct btf *btf, const struct btf_type *t,
		      const unsigned char *data)
{
	bool is_signed = btf_kflag(t);
	uint64_t v = bits_get(data, 0, t->size * 8);

	if (is_signed && t->size < 8 && (v >> (t->size * 8 - 1)) & 1)
		v |= ~0ULL << (t->size * 8);
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		uint64_t e;
		const char *name;

		if (btf_is_enum(t)) {
			e = (uint64_t)(int64_t)btf_enum(t)[i].val;
			name = btf__name_by_offset(btf, btf_enum(t)[i].name_off);
		} else {
			e = btf_enum64_value(&btf_enum64(t)[i]);
			name = btf__name_by_offset(btf, btf_enum64(t)[i].name_off);
		}
		if (t->size < 8)
			e &= (1ULL << (t->size * 8)) - 1, v &= (1ULL << (t->size * 8)) - 1;
		if (e == v && name) {
			json_escape(f, name, strlen(name));
			return;
		}
	}
	dump_int_bits(f, v, t->size * 8, is_signed);
}

static int dump_array(FILE *f, const struct btf *btf, const struct btf_type *t,
		      const unsigned char *data, size_t size, int depth)
{
	const struct btf_array *a = btf_array(t);
	int64_t esz = btf__resolve_size(btf, a->type);

	if (esz <= 0 || (uint64_t)esz * a->nelems > size)
		return -EINVAL;
	if (esz == 1 && is_char_type(btf, a->type) && is_str_array(data, a->nelems)) {
		json_escape(f, (const char *)data, a->nelems);
		return 0;
	}
	fputc('[', f);
	for (uint32_t i = 0; i < a->nelems; i++) {
		if (i)
			fputc(',', f);
		if (dump_type(f, btf, a->type, data + i * esz, esz, depth + 1))
			return -EINVAL;
	}
	fputc(']', f);
	return 0;
}

static int dump_struct(FILE *f, const struct btf *btf, const struct btf_type *t,
		       const unsigned char *data, size_t size, int depth)
{
	const struct btf_member *m = btf_members(t);

	fputc('{', f);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bit_off = btf_member_bit_offset(t, i);
		uint32_t bsz = btf_member_bitfield_size(t, i);
		const char *name = btf__name_by_offset(btf, m->name_off);
		int64_t msz = btf__resolve_size(btf, m->type);

		if (i)
			fputc(',', f);
		json_escape(f, name ? name : "", name ? strlen(name) : 0);
		fputc(':', f);
		if (bsz) {
			const struct btf_type *mt = btf__type_by_id(btf, btf__resolve_type(btf, m->type));
			bool sgn = mt && btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED);

			if (bsz > 64 || (bit_off + bsz + 7) / 8 > size)
				return -EINVAL;
			dump_int_bits(f, bits_get(data, bit_off, bsz), bsz, sgn);
			continue;
		}
		if (bit_off % 8 || msz < 0 || bit_off / 8 + (uint64_t)msz > size)
			return -EINVAL;
		if (dump_type(f, btf, m->type, data + bit_off / 8, msz, depth + 1))
			return -EINVAL;
	}
	fputc('}', f);
	return 0;
}

static int dump_datasec(FILE *f, const struct btf *btf, const struct btf_type *t,
			const unsigned char *data, size_t size, int depth)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);

	fputc('{', f);
	for (uint16_t i = 0; i < btf_vlen(t); i++, v++) {
		const struct btf_type *var = btf__type_by_id(btf, v->type);
		const char *name = var ? btf__name_by_offset(btf, var->name_off) : NULL;

		if (!var || (uint64_t)v->offset + v->size > size)
			return -EINVAL;
		if (i)
			fputc(',', f);
		json_escape(f, name ? name : "", name ? strlen(name) : 0);
		fputc(':', f);
		if (dump_type(f, btf, v->type, data + v->offset, v->size, depth + 1))
			return -EINVAL;
	}
	fputc('}', f);
	return 0;
}

static int dump_type(FILE *f, const struct btf *btf, uint32_t id, const unsigned char *data,
		     size_t size, int depth)
{
	const struct btf_type *t;
	int rid;

	if (depth > BTF_DUMP_MAX_DEPTH)
		return -ELOOP;
	rid = btf__resolve_type(btf, id);
	if (rid < 0)
		return -EINVAL;
	t = btf__type_by_id(btf, rid);
	if (!t)
		return -EINVAL;
	if (btf_is_datasec(t))
		return dump_datasec(f, btf, t, data, size, depth);
	if (btf_is_array(t))
		return dump_array(f, btf, t, data, size, depth);
	if ((btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t) || btf_is_ptr(t) ||
	     btf_is_float(t) || btf_is_composite(t)) &&
	    (btf_is_ptr(t) ? sizeof(void *) : t->size) > size)
		return -EINVAL;
	if (btf_is_int(t)) {
		dump_int(f, t, data);
	} else if (btf_is_enum(t) || btf_is_enum64(t)) {
		dump_enum(f, btf, t, data);
	} else if (btf_is_ptr(t)) {
		fprintf(f, "%" PRIu64, bits_get(data, 0, 64));
	} else if (btf_is_float(t) && (t->size == 4 || t->size == 8)) {
		float fl;
		double d;

		if (t->size == 4)
			memcpy(&fl, data, 4), d = fl;
		else
			memcpy(&d, data, 8);
		fprintf(f, "%g", d);
	} else if (btf_is_composite(t)) {
		return dump_struct(f, btf, t, data, size, depth);
	} else {
		return -EOPNOTSUPP;
	}
	return 0;
}

int btf_dump_value(FILE *f, const struct btf *btf, uint32_t type_id, const void *data,
		   size_t size)
{
	static FILE *null_f;
	int64_t tsz;

	if (!btf || !type_id)
		goto hex;
	tsz = btf__resolve_size(btf, type_id);
	if (tsz < 0 || (size_t)tsz != size)
		goto hex;
	/*
	 * A dry run first, so that a type that turns out bad leaves no half
	 * value behind; into /dev/null, opened once: nothing is allocated
	 * per value (prog run decodes records on its packet loop).
	 */
	if (!null_f)
		null_f = fopen("/dev/null", "w");
	if (!null_f || dump_type(null_f, btf, type_id, data, size, 0))
		goto hex;
	dump_type(f, btf, type_id, data, size, 0);
	return 0;
hex:
	btf_dump_hex(f, data, size, true);
	return 1;
}

static void dump_plain_hex(FILE *f, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, i ? " %02x" : "%02x", p[i]);
}

/* Text: typed, or hex spaced as bpftool prints maps without BTF. */
static void dump_one(FILE *f, const struct btf *btf, uint32_t id, const void *p, size_t n)
{
	if (!btf || !id) {
		dump_plain_hex(f, p, n);
		return;
	}
	btf_dump_value(f, btf, id, p, n);
}

/* JSON: bpftool's layout, hex first, then "formatted" when BTF types it. */
static void dump_elem_json(FILE *f, const struct uxdp_bpf_map_desc *m, const struct btf *btf,
			   const unsigned char *key, const unsigned char *val, uint32_t vsz)
{
	uint32_t stride = (m->value_size + 7) & ~7U;

	fputs("{\"key\":", f);
	btf_dump_hex(f, key, m->key_size, true);
	fputs(",\"value\":", f);
	if (m->nr_cpus > 1) {
		fputc('[', f);
		for (uint32_t c = 0; c < m->nr_cpus; c++) {
			fputs(c ? "," : "", f);
			btf_dump_hex(f, val + c * stride, m->value_size, true);
		}
		fputc(']', f);
	} else {
		btf_dump_hex(f, val, vsz, true);
	}
	if (!btf || (!m->btf_key_type_id && !m->btf_value_type_id)) {
		fputc('}', f);
		return;
	}
	fputs(",\"formatted\":{\"key\":", f);
	btf_dump_value(f, btf, m->btf_key_type_id, key, m->key_size);
	if (m->nr_cpus > 1) {
		fputs(",\"values\":[", f);
		for (uint32_t c = 0; c < m->nr_cpus; c++) {
			fprintf(f, "%s{\"cpu\":%u,\"value\":", c ? "," : "", c);
			btf_dump_value(f, btf, m->btf_value_type_id, val + c * stride, m->value_size);
			fputc('}', f);
		}
		fputs("]}}", f);
		return;
	}
	fputs(",\"value\":", f);
	btf_dump_value(f, btf, m->btf_value_type_id, val, vsz);
	fputs("}}", f);
}

void btf_dump_elem(FILE *f, const struct uxdp_bpf_map_desc *m, const struct btf *btf,
		   const void *key, const void *val, bool json)
{
	uint32_t stride = (m->value_size + 7) & ~7U;
	uint32_t vsz = m->value_size_sys < m->value_size ? m->value_size_sys : m->value_size;

	if (json) {
		dump_elem_json(f, m, btf, key, val, vsz);
		return;
	}
	fputs("key: ", f);
	dump_one(f, btf, m->btf_key_type_id, key, m->key_size);
	if (m->nr_cpus > 1) {
		fputc('\n', f);
		for (uint32_t c = 0; c < m->nr_cpus; c++) {
			fprintf(f, "\tvalue (CPU %02u): ", c);
			dump_one(f, btf, m->btf_value_type_id,
				 (const unsigned char *)val + c * stride, m->value_size);
			fputc('\n', f);
		}
		return;
	}
	fputs("  value: ", f);
	dump_one(f, btf, m->btf_value_type_id, val, vsz);
	fputc('\n', f);
}
