// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/bpf/coverage.c, line_info.c and the interpreter's COVER handler:
 * counting switches the runtime to the interpreter and back, leaves no
 * counting handler behind (superinstructions restored), does not change
 * what the program computes, and maps slots to xdp1.c's lines.
 * Objects are found relative to this executable in the build tree.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_bpf_cov.h>

#include "uxdp_test.h"

/* Ethernet + IPv4 + UDP 53 -> 53 */
static const unsigned char udp_frame[42] = {
	0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
	0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
	0, 53, 0, 53, 0, 8, 0, 0,
};

static struct uxdp_bpf_object *open_xdp1(int *id)
{
	char exe[PATH_MAX], path[PATH_MAX * 2];
	struct uxdp_bpf_object *obj;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ck_assert_int_gt(n, 0);
	exe[n] = 0;
	/* <build>/tests/unit/<name> */
	snprintf(path, sizeof(path), "%s/../../examples/progs/xdp1.o", dirname(exe));
	obj = uxdp_bpf_object_open(path, NULL);
	ck_assert_msg(obj, "%s", uxdp_errmsg());
	*id = uxdp_bpf_object_find_prog(obj, "xdp_prog1", NULL);
	ck_assert_int_gt(*id, 0);
	return obj;
}

static __u32 run(int id, unsigned int repeat, unsigned char *out)
{
	struct uxdp_bpf_test_run_opts o = {
		.sz = sizeof(o), .data_in = udp_frame, .data_size_in = sizeof(udp_frame),
		.data_out = out, .data_size_out = 256, .repeat = repeat,
	};

	ck_assert_int_eq(uxdp_bpf_prog_test_run((__u32)id, &o), 0);
	ck_assert_uint_eq(o.data_size_out, sizeof(udp_frame));
	return o.retval;
}

static __u64 total(int id)
{
	__u64 cnt[512], sum = 0;
	int n = uxdp_bpf_prog_coverage_get((__u32)id, cnt, NULL, 512);

	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n && i < 512; i++)
		sum += cnt[i];
	return sum;
}

START_TEST(test_runtime_switch)
{
	unsigned char a[256], b[256];
	struct uxdp_bpf_object *obj;
	unsigned int (*func)(const void *, const struct bpf_prog *);
	struct bpf_prog *prog;
	__u32 r1, r2;
	int id;

	/* _i 0: interpreted (a COVER left in the image would count), 1: JIT */
	ck_assert_int_eq(uxdp_bpf_jit_enable_set(_i), 0);
	obj = open_xdp1(&id);
	prog = bpf_prog_get((__u32)id);
	func = prog->bpf_func;
	r1 = run(id, 1, a);
	ck_assert_int_eq(uxdp_bpf_prog_coverage_get((__u32)id, NULL, NULL, 0), -ENODATA);
	ck_assert_int_eq(uxdp_bpf_prog_coverage_enable((__u32)id), 0);
	if (prog->jited)
		ck_assert_ptr_ne(prog->bpf_func, func);
	r2 = run(id, 3, b);
	ck_assert_uint_eq(r1, r2);
	ck_assert_mem_eq(a, b, sizeof(udp_frame));
	ck_assert_uint_gt(total(id), 3 * 10);
	ck_assert_int_eq(uxdp_bpf_prog_coverage_disable((__u32)id), 0);
	ck_assert_ptr_eq(prog->bpf_func, func);
	{
		__u64 before = total(id);

		r2 = run(id, 5, b);
		ck_assert_uint_eq(r1, r2);
		ck_assert_uint_eq(total(id), before);
	}
	/* enabling again starts from 0 */
	ck_assert_int_eq(uxdp_bpf_prog_coverage_enable((__u32)id), 0);
	ck_assert_uint_eq(total(id), 0);
	run(id, 1, b);
	ck_assert_uint_gt(total(id), 0);
	ck_assert_int_eq(uxdp_bpf_prog_coverage_disable((__u32)id), 0);
	uxdp_bpf_object_close(obj);
	ck_assert_int_eq(uxdp_bpf_prog_coverage_enable((__u32)id), -ENOENT);
}
END_TEST

START_TEST(test_line_info)
{
	struct uxdp_bpf_object *obj;
	struct uxdp_bpf_line l;
	int id, n;

	obj = open_xdp1(&id);
	ck_assert_int_eq(uxdp_bpf_prog_line_info((__u32)id, 0, &l), 0);
	ck_assert_msg(strstr(l.file, "xdp1.c") && l.file[0] == '/', "file %s", l.file);
	ck_assert_str_eq(l.func, "xdp_prog1");
	ck_assert_uint_gt(l.line, 30);
	ck_assert_int_eq(uxdp_bpf_prog_coverage_enable((__u32)id), 0);
	n = uxdp_bpf_prog_coverage_get((__u32)id, NULL, NULL, 0);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(uxdp_bpf_prog_line_info((__u32)id, (__u32)n, &l), -ERANGE);
	ck_assert_int_eq(uxdp_bpf_prog_line_info(999999, 0, &l), -ENOENT);
	uxdp_bpf_object_close(obj);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("kernel/bpf/coverage");
	TCase *tc = tcase_create("coverage");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_runtime_switch, 0, 2);
	tcase_add_test(tc, test_line_info);
	suite_add_tcase(s, tc);
	return s;
}
