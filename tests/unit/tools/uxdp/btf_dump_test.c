// SPDX-License-Identifier: GPL-2.0
/*
 * tools/uxdp/btf_dump.c: values typed from a BTF built here with libbpf's
 * writer API: struct members, bitfields, char arrays as strings or not,
 * enums by name, nested arrays, typedefs, DATASECs, sizes that do not
 * match (hex), and the map element printer's bpftool -j layout.
 */
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_dump.h"
#include "uxdp_test.h"

static char out[4096];

static const char *dump(const struct btf *btf, int id, const void *data, size_t n, int *ret)
{
	FILE *f = fmemopen(out, sizeof(out), "w");

	ck_assert_ptr_nonnull(f);
	*ret = btf_dump_value(f, btf, id, data, n);
	fclose(f);
	return out;
}

/* struct rec { int a; unsigned int b:3, c:5; char name[8]; enum e e; short arr[2]; } */
struct rec_data {
	int a;
	unsigned char bits;	/* b: bits 0-2, c: bits 3-7 */
	unsigned char pad[3];
	char name[8];
	int e;
	short arr[2];
};

static struct btf *rec_btf(int *rec_id, int *chars_id)
{
	struct btf *btf = btf__new_empty();
	int i32, u32, chr, shrt, names, en, shorts, rec;

	ck_assert_ptr_nonnull(btf);
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	chr = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	shrt = btf__add_int(btf, "short", 2, BTF_INT_SIGNED);
	names = btf__add_array(btf, u32, chr, 8);
	en = btf__add_enum(btf, "e", 4);
	btf__add_enum_value(btf, "E_X", 1);
	btf__add_enum_value(btf, "E_Y", 2);
	shorts = btf__add_array(btf, u32, shrt, 2);
	rec = btf__add_struct(btf, "rec", sizeof(struct rec_data));
	btf__add_field(btf, "a", i32, 0, 0);
	btf__add_field(btf, "b", u32, 32, 3);
	btf__add_field(btf, "c", u32, 35, 5);
	btf__add_field(btf, "name", names, 64, 0);
	btf__add_field(btf, "e", en, 128, 0);
	btf__add_field(btf, "arr", shorts, 160, 0);
	ck_assert_int_gt(rec, 0);
	*rec_id = btf__add_typedef(btf, "rec_t", rec);
	*chars_id = names;
	return btf;
}

START_TEST(test_struct)
{
	struct rec_data d = { .a = -5, .bits = 5 | 17 << 3, .name = "hi", .e = 2, .arr = { 1, -2 } };
	int rec, chars, ret;
	struct btf *btf = rec_btf(&rec, &chars);

	ck_assert_str_eq(dump(btf, rec, &d, sizeof(d), &ret),
			 "{\"a\":-5,\"b\":5,\"c\":17,\"name\":\"hi\",\"e\":\"E_Y\",\"arr\":[1,-2]}");
	ck_assert_int_eq(ret, 0);
	d.e = 7;
	memset(d.name, 1, sizeof(d.name));
	ck_assert_str_eq(dump(btf, rec, &d, sizeof(d), &ret),
			 "{\"a\":-5,\"b\":5,\"c\":17,\"name\":[1,1,1,1,1,1,1,1],\"e\":7,\"arr\":[1,-2]}");
	btf__free(btf);
}
END_TEST

START_TEST(test_hex_fallback)
{
	unsigned char b[3] = { 0xab, 0x00, 0x01 };
	int rec, chars, ret;
	struct btf *btf = rec_btf(&rec, &chars);

	ck_assert_str_eq(dump(btf, rec, b, sizeof(b), &ret), "\"ab0001\"");
	ck_assert_int_eq(ret, 1);
	ck_assert_str_eq(dump(NULL, rec, b, sizeof(b), &ret), "\"ab0001\"");
	ck_assert_str_eq(dump(btf, 0, b, sizeof(b), &ret), "\"ab0001\"");
	ck_assert_int_eq(ret, 1);
	btf__free(btf);
}
END_TEST

START_TEST(test_datasec_and_elem)
{
	struct btf *btf = btf__new_empty();
	struct uxdp_bpf_map_desc m = {
		.name = "m", .key_size = 4, .value_size = 4, .value_size_sys = 16, .nr_cpus = 2,
	};
	unsigned char val[16] = { 3, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	unsigned int v[2] = { 7, 9 }, key = 1;
	int u32, var1, var2, sec, ret;
	FILE *f;

	u32 = btf__add_int(btf, "u32", 4, 0);
	var1 = btf__add_var(btf, "hits", BTF_VAR_GLOBAL_ALLOCATED, u32);
	var2 = btf__add_var(btf, "miss", BTF_VAR_GLOBAL_ALLOCATED, u32);
	sec = btf__add_datasec(btf, ".bss", 8);
	btf__add_datasec_var_info(btf, var1, 0, 4);
	btf__add_datasec_var_info(btf, var2, 4, 4);
	ck_assert_str_eq(dump(btf, sec, v, sizeof(v), &ret), "{\"hits\":7,\"miss\":9}");

	m.btf_key_type_id = u32;
	m.btf_value_type_id = u32;
	f = fmemopen(out, sizeof(out), "w");
	btf_dump_elem(f, &m, btf, &key, val, true);
	fclose(f);
	ck_assert_str_eq(out, "{\"key\":\"01000000\",\"value\":[\"03000000\",\"ffffffff\"],"
			      "\"formatted\":{\"key\":1,\"values\":[{\"cpu\":0,\"value\":3},"
			      "{\"cpu\":1,\"value\":4294967295}]}}");
	m.btf_key_type_id = m.btf_value_type_id = 0;
	f = fmemopen(out, sizeof(out), "w");
	btf_dump_elem(f, &m, NULL, &key, val, false);
	fclose(f);
	ck_assert_str_eq(out, "key: 01 00 00 00\n\tvalue (CPU 00): 03 00 00 00\n"
			      "\tvalue (CPU 01): ff ff ff ff\n");
	btf__free(btf);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("tools/uxdp/btf_dump");
	TCase *tc = tcase_create("btf_dump");

	tcase_add_test(tc, test_struct);
	tcase_add_test(tc, test_hex_fallback);
	tcase_add_test(tc, test_datasec_and_elem);
	suite_add_tcase(s, tc);
	return s;
}
