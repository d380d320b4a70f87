// SPDX-License-Identifier: GPL-2.0
/*
 * tools/lib/bpf/object.c and net/bpf/test_run.c: loading the example objects
 * (maps, global data, subprogram linking, declarative slots, XDP sections,
 * custom sections, mixed objects, CO-RE against uxdp's built-in BTF),
 * refusing unsupported features by program and instruction, surviving
 * truncated and bit-flipped ELF files, and the BPF_PROG_TEST_RUN frame and
 * ctx rules.
 * Objects are found relative to this executable in the build tree.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <linux/bpf.h>
#include <linux/filter.h>
#include <uxdp/uxdp_bpf.h>

#include "uxdp_test.h"

static char build_dir[PATH_MAX];

static void find_build_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ck_assert_int_gt(n, 0);
	exe[n] = 0;
	/* <build>/tests/unit/<name> */
	snprintf(build_dir, sizeof(build_dir), "%s/../..", dirname(exe));
}

static const char *obj_path(const char *rel)
{
	static char path[PATH_MAX * 2];

	if (!build_dir[0])
		find_build_dir();
	snprintf(path, sizeof(path), "%s/%s", build_dir, rel);
	return path;
}

/* uxdp's built-in CO-RE target, as a file (the same bytes libuxdp embeds) */
static const char *core_btf(void)
{
	static char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s", obj_path("kernel/bpf/core_btf.btf"));
	return path;
}

static struct uxdp_bpf_object *open_ok(const char *rel)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	static char log[8192];
	struct uxdp_bpf_object *obj;

	opts.log_buf = log;
	opts.log_size = sizeof(log);
	obj = uxdp_bpf_object_open(obj_path(rel), &opts);
	ck_assert_msg(obj, "%s: %s", rel, log);
	return obj;
}

static int open_fail(const char *rel, char *log, size_t size)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts), .log_buf = log, .log_size = size };
	struct uxdp_bpf_object *obj = uxdp_bpf_object_open(obj_path(rel), &opts);

	ck_assert_msg(!obj, "%s loaded but should not", rel);
	return errno;
}

static unsigned char pkt60[60] = {
	0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,
	0x45, 0, 0, 46, 0x12, 0x34, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
};

START_TEST(test_xdp1_model)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp1.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	struct uxdp_bpf_prog_desc d;
	struct uxdp_bpf_map_desc m;
	unsigned char out[128];
	unsigned long long vals[64] = {};
	unsigned int key = 17;
	int id, ncpu = uxdp_bpf_num_possible_cpus();

	ck_assert_uint_eq(uxdp_bpf_object_prog_cnt(obj), 1);
	ck_assert_int_eq(uxdp_bpf_object_prog(obj, 0, &d), 0);
	ck_assert_str_eq(d.name, "xdp_prog1");
	ck_assert_str_eq(d.sec, "xdp");
	ck_assert_uint_eq(d.nr_map_ids, 1);
	ck_assert_uint_eq(uxdp_bpf_object_map_cnt(obj), 1);
	ck_assert_int_eq(uxdp_bpf_object_map(obj, 0, &m), 0);
	ck_assert_str_eq(m.name, "rxcnt");
	ck_assert_uint_eq(m.type, BPF_MAP_TYPE_PERCPU_ARRAY);
	ck_assert_uint_eq(m.max_entries, 256);
	ck_assert_uint_eq(m.nr_cpus, ncpu);
	ck_assert_uint_eq(d.map_ids[0], m.id);

	id = uxdp_bpf_object_find_prog(obj, NULL, "xdp");
	ck_assert_int_eq(id, (int)d.id);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	o.data_out = out;
	o.data_size_out = sizeof(out);
	o.repeat = 3;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_DROP);
	ck_assert_uint_eq(o.data_size_out, sizeof(pkt60));
	ck_assert_mem_eq(out, pkt60, sizeof(pkt60));
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(m.id, &key, vals), 0);
	ck_assert_uint_eq(vals[0], 3);		/* repeat 3 on worker 0 */
	uxdp_bpf_object_close(obj);
}
END_TEST

START_TEST(test_globals)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_globals.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	unsigned char data[4096], rodata[64];
	unsigned int zero = 0;
	unsigned long long packets;
	int data_id, ro_id, bss_id, pid;

	data_id = uxdp_bpf_object_find_map(obj, ".data");
	ro_id = uxdp_bpf_object_find_map(obj, ".rodata");
	bss_id = uxdp_bpf_object_find_map(obj, ".bss");
	ck_assert_int_gt(data_id, 0);
	ck_assert_int_gt(ro_id, 0);
	ck_assert_int_gt(bss_id, 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(data_id, &zero, data), 0);
	memcpy(&packets, data, 8);		/* first .data variable: packets = 1000 */
	ck_assert_uint_eq(packets, 1000);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(ro_id, &zero, rodata), 0);
	/* .rodata is frozen: no syscall writes */
	ck_assert_int_ne(uxdp_bpf_map_update_elem(ro_id, &zero, rodata, 0), 0);

	pid = uxdp_bpf_object_find_prog(obj, "xdp_globals_prog", NULL);
	ck_assert_int_gt(pid, 0);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(pid, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(data_id, &zero, data), 0);
	memcpy(&packets, data, 8);
	ck_assert_uint_eq(packets, 1001);
	uxdp_bpf_object_close(obj);
}
END_TEST

START_TEST(test_subprog_linking)
{
	struct uxdp_bpf_object *obj = open_ok("tests/bpf/differential/callback.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	struct uxdp_bpf_prog_desc d;
	int id;

	id = uxdp_bpf_object_find_prog(obj, "calls_prog", NULL);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(uxdp_bpf_object_prog(obj, 0, &d), 0);
	/* 16 insns of calls_prog + mid (3) + leaf (3) appended */
	ck_assert_uint_eq(d.insn_cnt, 16 + 3 + 3);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	id = uxdp_bpf_object_find_prog(obj, "calls_prog2", NULL);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_TX);
	/* several programs in section "xdp": sec alone is ambiguous */
	ck_assert_int_eq(uxdp_bpf_object_find_prog(obj, NULL, "xdp"), -EINVAL);
	uxdp_bpf_object_close(obj);
}
END_TEST

START_TEST(test_frags_flag)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_frags.o");
	struct uxdp_bpf_prog_desc d;
	unsigned int i, frags = 0;

	for (i = 0; i < uxdp_bpf_object_prog_cnt(obj); i++) {
		ck_assert_int_eq(uxdp_bpf_object_prog(obj, i, &d), 0);
		ck_assert_int_eq(d.frags, !strcmp(d.sec, "xdp.frags"));
		ck_assert_int_eq(bpf_prog_get(d.id)->aux->xdp_has_frags, d.frags);
		frags += d.frags;
	}
	ck_assert_uint_eq(frags, 1);
	uxdp_bpf_object_close(obj);
}
END_TEST

/* libbpf >= 1.0 refuses SEC("maps"); uxdp reads the definitions itself. */
START_TEST(test_legacy_maps)
{
	struct uxdp_bpf_object *obj = open_ok("tests/bpf/differential/legacy_maps.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	struct uxdp_bpf_map_desc m;
	unsigned long long v = 0;
	unsigned short proto = 0x0008;	/* ETH_P_IP, network order */
	unsigned int zero = 0;
	int et, bss, id;

	ck_assert_uint_eq(uxdp_bpf_object_map_cnt(obj), 3);
	et = uxdp_bpf_object_find_map(obj, "ethertypes");
	bss = uxdp_bpf_object_find_map(obj, ".bss");
	ck_assert_int_gt(et, 0);
	ck_assert_int_gt(bss, 0);
	ck_assert_int_gt(uxdp_bpf_object_find_map(obj, "totals"), 0);
	ck_assert_int_eq(uxdp_bpf_object_map(obj, 1, &m), 0);
	ck_assert_uint_eq(m.type, BPF_MAP_TYPE_HASH);
	ck_assert_uint_eq(m.key_size, 2);
	ck_assert_uint_eq(m.max_entries, 8);
	id = uxdp_bpf_object_find_prog(obj, "xdp_legacy_prog", NULL);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	o.repeat = 3;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(et, &proto, &v), 0);
	ck_assert_uint_eq(v, 3);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(bss, &zero, &v), 0);
	ck_assert_uint_eq(v, 3);
	uxdp_bpf_object_close(obj);
}
END_TEST

START_TEST(test_prog_array_slots)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_maps.o");
	unsigned int key = 0, id = 0;
	int outer = uxdp_bpf_object_find_map(obj, "outer_arr");

	/* .values = { &inner0, &inner1 } was applied from .rel.maps */
	ck_assert_int_gt(outer, 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(outer, &key, &id), 0);
	ck_assert_int_eq((int)id, uxdp_bpf_object_find_map(obj, "inner0"));
	key = 1;
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(outer, &key, &id), 0);
	ck_assert_int_eq((int)id, uxdp_bpf_object_find_map(obj, "inner1"));
	uxdp_bpf_object_close(obj);
}
END_TEST

/* UXDP_KCONFIG_PATH: a file holding @text, or a path that does not exist */
static void kconfig_file(const char *text)
{
	static char path[] = "/tmp/uxdp-kconfig-XXXXXX";
	FILE *f;
	int fd;

	if (strcmp(path + 18, "XXXXXX"))
		unlink(path);	/* the previous one */
	strcpy(path, "/tmp/uxdp-kconfig-XXXXXX");
	if (!text) {
		setenv("UXDP_KCONFIG_PATH", "/nonexistent/uxdp-kconfig", 1);
		return;
	}
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	setenv("UXDP_KCONFIG_PATH", path, 1);
}

static unsigned long long kconfig_run(struct uxdp_bpf_object *obj, unsigned long long *cfg)
{
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	int pid = uxdp_bpf_object_find_prog(obj, "xdp_kconfig", NULL);
	int cfg_id = uxdp_bpf_object_find_map(obj, "cfg");
	unsigned int key;

	ck_assert_int_gt(pid, 0);
	ck_assert_int_gt(cfg_id, 0);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(pid, &o), 0);
	for (key = 0; key < 6; key++)
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(cfg_id, &key, &cfg[key]), 0);
	return o.retval;
}

START_TEST(test_kconfig)
{
	struct uxdp_bpf_object *obj;
	unsigned long long cfg[6];
	unsigned int a, b, c;
	struct utsname uts;
	char log[4096];
	int err;

	ck_assert_int_eq(uname(&uts), 0);
	ck_assert_int_eq(sscanf(uts.release, "%u.%u.%u", &a, &b, &c), 3);

	kconfig_file("# CONFIG_FOO is not set\nCONFIG_BPF_JIT=y\nCONFIG_VETH=m\nCONFIG_HZ=1000\n"
		     "CONFIG_DEFAULT_HOSTNAME=\"uxdp-test-host\"\n");
	obj = open_ok("examples/progs/xdp_kconfig.o");
	ck_assert_uint_eq(kconfig_run(obj, cfg), XDP_PASS);
	ck_assert_uint_eq(cfg[0], (a << 16) + (b << 8) + (c > 255 ? 255 : c));
	ck_assert_uint_eq(cfg[1], 1);		/* bool y */
	ck_assert_uint_eq(cfg[2], 2);		/* tristate m: TRI_MODULE */
	ck_assert_uint_eq(cfg[3], 1000);
	ck_assert_mem_eq(&cfg[4], "uxdp-te", 8);	/* cut to char[8] with its NUL */
	ck_assert_uint_eq(cfg[5], 0);		/* __weak, unset */
	uxdp_bpf_object_close(obj);

	/* no config at all: the weak CONFIG_ externs are 0, the branch too */
	kconfig_file(NULL);
	obj = open_ok("examples/progs/xdp_kconfig.o");
	ck_assert_uint_eq(kconfig_run(obj, cfg), XDP_DROP);
	ck_assert_uint_eq(cfg[1] | cfg[2] | cfg[3] | cfg[4], 0);
	uxdp_bpf_object_close(obj);

	obj = open_ok("tests/bpf/differential/bad_kconfig.o");	/* LINUX_ only */
	uxdp_bpf_object_close(obj);
	err = open_fail("tests/bpf/differential/bad_kconfig_strong.o", log, sizeof(log));
	ck_assert_int_eq(err, ESRCH);
	ck_assert_msg(strstr(log, "extern 'CONFIG_UXDP_NO_SUCH_OPTION' (strong): not resolved"),
		      "%s", log);

	/* values of the wrong kind, with libbpf's messages */
	kconfig_file("CONFIG_BPF_JIT=m\n");
	err = open_fail("examples/progs/xdp_kconfig.o", log, sizeof(log));
	ck_assert_int_eq(err, EINVAL);
	ck_assert_msg(strstr(log, "extern (kcfg) 'CONFIG_BPF_JIT': value 'm' implies tristate or char type"),
		      "%s", log);
	kconfig_file("CONFIG_HZ=\"fast\"\n");
	err = open_fail("examples/progs/xdp_kconfig.o", log, sizeof(log));
	ck_assert_msg(strstr(log, "'CONFIG_HZ': value '\"fast\"' implies char array type"), "%s",
		      log);
	kconfig_file("CONFIG_VETH=42\n");
	err = open_fail("examples/progs/xdp_kconfig.o", log, sizeof(log));
	ck_assert_msg(strstr(log, "'CONFIG_VETH': value '42' implies integer type"), "%s", log);
	kconfig_file("CONFIG_HZ\n");
	err = open_fail("examples/progs/xdp_kconfig.o", log, sizeof(log));
	ck_assert_msg(strstr(log, "failed to parse 'CONFIG_HZ': no separator"), "%s", log);
	kconfig_file(NULL);	/* removes the last file */
	unsetenv("UXDP_KCONFIG_PATH");
}
END_TEST

START_TEST(test_refusals)
{
	char log[4096];
	int err;

	err = open_fail("tests/bpf/differential/bad_kfunc.o", log, sizeof(log));
	ck_assert_int_eq(err, ESRCH);	/* libbpf's -ESRCH */
	ck_assert_msg(strstr(log, "kfunc_prog") && strstr(log, "insn 4") &&
		      strstr(log, "extern (func ksym) 'bpf_uxdp_not_a_kfunc': not found"), "%s", log);

	/* a reachable poisoned CO-RE instruction: the checker's refusal, explained */
	err = open_fail("tests/bpf/differential/core_poison.o", log, sizeof(log));
	ck_assert_int_eq(err, EINVAL);	/* the kernel's -EINVAL for an unknown helper */
	ck_assert_msg(strstr(log, "prog 'poison_prog'") && strstr(log, "insn ") &&
		      strstr(log, "struct 'uxdp_core_test'") && strstr(log, "field 'missing'") &&
		      strstr(log, "poisoned"), "%s", log);

	err = open_fail("no/such/file.o", log, sizeof(log));
	ck_assert_int_eq(err, ENOENT);
	ck_assert_msg(strstr(log, "no/such/file.o"), "%s", log);
}
END_TEST

/*
 * The kernel verifier rejects an unchecked packet read; uxdp's checker may
 * instead leave it to a run-time check: then an out-of-bounds read ends the
 * program as XDP_ABORTED and an in-bounds one runs normally.
 */
START_TEST(test_oob_runtime)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	unsigned char big[200] = {};
	struct uxdp_bpf_object *obj;
	char log[4096] = "";
	int id;

	opts.log_buf = log;
	opts.log_size = sizeof(log);
	obj = uxdp_bpf_object_open(obj_path("tests/bpf/differential/bad_oob.o"), &opts);
	if (!obj) {
		ck_assert_int_eq(errno, EACCES);
		ck_assert_msg(strstr(log, "oob_prog") && strstr(log, "insn"), "%s", log);
		return;
	}
	id = uxdp_bpf_object_find_prog(obj, "oob_prog", NULL);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_ABORTED);
	big[100] = 1;
	o.data_size_out = 0;	/* in/out field: 0 = no clipping */
	o.data_in = big;
	o.data_size_in = sizeof(big);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	uxdp_bpf_object_close(obj);
}
END_TEST

static unsigned char *slurp(const char *rel, size_t *len)
{
	FILE *f = fopen(obj_path(rel), "rb");
	unsigned char *buf = malloc(1 << 20);

	ck_assert(f && buf);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void open_blob(const unsigned char *buf, size_t len)
{
	char path[] = "/tmp/uxdp-object-test-XXXXXX";
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts), .xdp_any = true };
	struct uxdp_bpf_object *obj;
	int fd = mkstemp(path);

	opts.btf_custom_path = core_btf();
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	close(fd);
	obj = uxdp_bpf_object_open(path, &opts);
	uxdp_bpf_object_close(obj);
	unlink(path);
}

static const char *const damaged_objs[] = {
	"examples/progs/xdp_maps.o",
	"examples/progs/xdp_globals.o",
	"tests/bpf/differential/legacy_maps.o",
	"tests/bpf/differential/callback.o",
	"examples/progs/xdp_core.o",
	"examples/progs/xdp_mixed.o",
};

START_TEST(test_truncated)
{
	uxdp_print_fn_t old = uxdp_set_print(NULL);
	size_t len, cut;
	unsigned char *buf = slurp(damaged_objs[_i], &len);

	for (cut = 0; cut < len; cut += cut < 512 ? 7 : 97)
		open_blob(buf, cut);
	free(buf);
	uxdp_set_print(old);
}
END_TEST

START_TEST(test_bitflips)
{
	uxdp_print_fn_t old = uxdp_set_print(NULL);
	size_t len, i;
	unsigned char *buf = slurp(damaged_objs[_i], &len);
	unsigned char *copy = malloc(len);
	unsigned int seed = 12345 + _i;

	for (i = 0; i < 300; i++) {
		unsigned int n, k;

		memcpy(copy, buf, len);
		n = 1 + rand_r(&seed) % 4;
		for (k = 0; k < n; k++)
			copy[rand_r(&seed) % len] ^= 1u << (rand_r(&seed) % 8);
		open_blob(copy, len);
	}
	free(copy);
	free(buf);
	uxdp_set_print(old);
}
END_TEST

START_TEST(test_test_run_rules)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_pass.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	unsigned char big[9000], out[16384];
	unsigned int ctx[6], ctx_out[6];
	int id = uxdp_bpf_object_find_prog(obj, NULL, NULL);
	unsigned int i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)i;
	/* runt */
	o.data_in = big;
	o.data_size_in = 13;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	/* jumbo: linear 3520 + frags, all of it comes back */
	o.data_size_in = sizeof(big);
	o.data_out = out;
	o.data_size_out = sizeof(out);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.data_size_out, sizeof(big));
	ck_assert_mem_eq(out, big, sizeof(big));
	/* clipped below the frags: -ENOSPC before any output (kernel 6.18) */
	o.data_size_out = 100;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -ENOSPC);
	ck_assert_uint_eq(o.data_size_out, 100);
	/* clipped linear output: -ENOSPC, full size reported */
	o.data_size_in = 60;
	o.data_size_out = 10;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -ENOSPC);
	ck_assert_uint_eq(o.data_size_out, 60);

	/* ctx: 8 bytes of metadata in front of 52 bytes of data */
	memset(ctx, 0, sizeof(ctx));
	ctx[0] = 8;		/* data */
	ctx[1] = 60;		/* data_end = input size */
	o.data_size_in = 60;
	o.data_size_out = sizeof(out);
	o.ctx_in = ctx;
	o.ctx_size_in = sizeof(ctx);
	o.ctx_out = ctx_out;
	o.ctx_size_out = sizeof(ctx_out);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.data_size_out, 60);	/* data_out starts at data_meta */
	ck_assert_uint_eq(ctx_out[0], 8);
	ck_assert_uint_eq(ctx_out[1], 60);
	/* metadata not a multiple of 4 */
	ctx[0] = 6;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	/* data_end past the input */
	ctx[0] = 0;
	ctx[1] = 61;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	/* data_end 30: 30 linear bytes, 30 in a fragment; all comes back */
	ctx[1] = 30;
	o.data_size_out = sizeof(out);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.data_size_out, 60);
	ck_assert_uint_eq(ctx_out[1], 30);
	/* metadata up to 216 bytes (the xdp_frame must still fit) */
	ctx[0] = 216;
	ctx[1] = 216 + 60;
	o.data_size_in = 216 + 60;
	o.data_size_out = sizeof(out);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ctx[0] = 220;
	ctx[1] = 220 + 60;
	o.data_size_in = 220 + 60;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	o.data_size_in = 60;
	ctx[0] = 0;
	/* data_meta must be 0 */
	ctx[0] = 0;
	ctx[1] = 60;
	ctx[2] = 4;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	/* rx queue without ingress ifindex; egress ifindex */
	ctx[2] = 0;
	ctx[4] = 1;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	ctx[4] = 0;
	ctx[5] = 1;
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), -EINVAL);
	uxdp_bpf_object_close(obj);
}
END_TEST

START_TEST(test_redirect_report)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_redirect_map.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	unsigned int key = 0, ifindex = 5;
	int tx = uxdp_bpf_object_find_map(obj, "tx_port");
	int id;

	ck_assert_int_eq(uxdp_bpf_map_update_elem(tx, &key, &ifindex, 0), 0);
	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	id = uxdp_bpf_object_find_prog(obj, "xdp_redirect_map_prog", NULL);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_REDIRECT);
	ck_assert(o.redirect.valid);
	ck_assert_uint_eq(o.redirect.map_id, tx);
	ck_assert_uint_eq(o.redirect.key, 0);
	id = uxdp_bpf_object_find_prog(obj, "xdp_redirect_ifindex_prog", NULL);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_REDIRECT);
	ck_assert_uint_eq(o.redirect.ifindex, 1);
	ck_assert_uint_eq(o.redirect.map_id, 0);
	/* devmap_hash miss: the XDP_PASS fallback, no redirect */
	id = uxdp_bpf_object_find_prog(obj, "xdp_redirect_hash_prog", NULL);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	ck_assert(!o.redirect.valid);
	uxdp_bpf_object_close(obj);
}
END_TEST


/* Every XDP section libbpf 1.x knows, with its attach type and frags flag. */
START_TEST(test_xdp_sections)
{
	static const struct {
		const char *name, *sec, *attach;
		bool frags;
	} want[] = {
		{ "s_xdp", "xdp", "xdp", false },
		{ "s_frags", "xdp.frags", "xdp", true },
		{ "s_devmap", "xdp/devmap", "xdp_devmap", false },
		{ "s_cpumap", "xdp/cpumap", "xdp_cpumap", false },
		{ "s_frags_devmap", "xdp.frags/devmap", "xdp_devmap", true },
		{ "s_frags_cpumap", "xdp.frags/cpumap", "xdp_cpumap", true },
	};
	struct uxdp_bpf_object *obj = open_ok("tests/bpf/differential/xdp_sections.o");
	struct uxdp_bpf_prog_desc d;
	char log[1024];
	unsigned int i, j;

	ck_assert_uint_eq(uxdp_bpf_object_prog_cnt(obj), ARRAY_SIZE(want) + 1);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		for (j = 0; j < uxdp_bpf_object_prog_cnt(obj); j++) {
			ck_assert_int_eq(uxdp_bpf_object_prog(obj, j, &d), 0);
			if (!strcmp(d.name, want[i].name))
				break;
		}
		ck_assert_msg(j < uxdp_bpf_object_prog_cnt(obj), "%s", want[i].name);
		ck_assert_msg(d.loaded && !strcmp(d.sec, want[i].sec) &&
			      !strcmp(d.attach, want[i].attach) && d.frags == want[i].frags,
			      "%s: sec %s attach %s frags %d", d.name, d.sec, d.attach, d.frags);
		ck_assert_int_gt(uxdp_bpf_object_find_prog(obj, NULL, want[i].sec), 0);
	}
	/* SEC("xdp/pass"): libbpf knows no such section; loaded once asked for */
	ck_assert_int_eq(uxdp_bpf_object_find_prog(obj, "s_custom", NULL), -EOPNOTSUPP);
	ck_assert_int_eq(uxdp_bpf_object_find_prog(obj, NULL, "xdp/pass"), -EOPNOTSUPP);
	ck_assert_int_eq(uxdp_bpf_object_load_xdp(obj, NULL, "xdp/pass", log, sizeof(log)), 1);
	ck_assert_int_gt(uxdp_bpf_object_find_prog(obj, "s_custom", NULL), 0);
	ck_assert_int_eq(uxdp_bpf_object_load_xdp(obj, "s_custom", NULL, log, sizeof(log)), 0);
	ck_assert_int_eq(uxdp_bpf_object_load_xdp(obj, "nope", NULL, log, sizeof(log)), -ENOENT);
	ck_assert_msg(strstr(log, "nope"), "%s", log);
	uxdp_bpf_object_close(obj);
}
END_TEST

/* SEC("xdp_patch_ports"): not loaded until asked for, by open option or later */
START_TEST(test_custom_section)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts), .xdp_sec = "xdp_patch_ports" };
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_patch_ports.o");
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o), .data_in = pkt60, .data_size_in = 60 };
	struct uxdp_bpf_prog_desc d;
	unsigned char out[64];
	int id;

	ck_assert_int_eq(uxdp_bpf_object_prog(obj, 0, &d), 0);
	ck_assert(!d.loaded && !d.id && !strcmp(d.type, "unspec") && d.not_loaded);
	ck_assert_int_eq(uxdp_bpf_object_find_prog(obj, NULL, NULL), -EOPNOTSUPP);
	ck_assert_int_gt(uxdp_bpf_object_find_map(obj, "patched_cnt"), 0);
	ck_assert_int_eq(uxdp_bpf_object_load_xdp(obj, "xdp_patch_ports_prog", NULL, NULL, 0), 1);
	ck_assert_int_eq(uxdp_bpf_object_prog(obj, 0, &d), 0);
	ck_assert(d.loaded && d.id && !strcmp(d.type, "xdp"));
	uxdp_bpf_object_close(obj);

	obj = uxdp_bpf_object_open(obj_path("examples/progs/xdp_patch_ports.o"), &opts);
	ck_assert(obj);
	id = uxdp_bpf_object_find_prog(obj, NULL, "xdp_patch_ports");
	ck_assert_int_gt(id, 0);
	/* UDP 10.0.0.1 -> 10.0.0.2, no checksum: the destination port goes down */
	pkt60[36] = 0x00, pkt60[37] = 0x35;
	o.data_out = out;
	o.data_size_out = sizeof(out);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	ck_assert_uint_eq(out[36] << 8 | out[37], 0x34);
	memset(pkt60 + 36, 0, 2);
	uxdp_bpf_object_close(obj);
}
END_TEST

/* XDP beside tc and tp_btf: only XDP loads, the shared map exists, asking for tc fails */
START_TEST(test_mixed_object)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_mixed.o");
	struct uxdp_bpf_prog_desc d;
	unsigned int i, loaded = 0;
	char log[1024];

	ck_assert_uint_eq(uxdp_bpf_object_prog_cnt(obj), 3);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(uxdp_bpf_object_prog(obj, i, &d), 0);
		loaded += d.loaded;
		if (!strcmp(d.name, "tc_mixed_prog"))
			ck_assert(!d.loaded && !strcmp(d.type, "sched_cls"));
		if (!strcmp(d.name, "tp_mixed_prog"))
			ck_assert(!d.loaded && !strcmp(d.type, "tracing"));
		if (d.loaded)
			ck_assert_uint_eq(d.map_ids[0], uxdp_bpf_object_find_map(obj, "seen_cnt"));
	}
	ck_assert_uint_eq(loaded, 1);
	ck_assert_int_eq(uxdp_bpf_object_find_prog(obj, "tc_mixed_prog", NULL), -EOPNOTSUPP);
	ck_assert_int_eq(uxdp_bpf_object_load_xdp(obj, "tc_mixed_prog", NULL, log, sizeof(log)),
			 -EOPNOTSUPP);
	ck_assert_msg(strstr(log, "tc_mixed_prog") && strstr(log, "sched_cls"), "%s", log);
	/* type xdp (every unknown section) leaves the tc program alone */
	ck_assert_int_eq(uxdp_bpf_object_load_xdp(obj, NULL, NULL, log, sizeof(log)), 0);
	uxdp_bpf_object_close(obj);

	obj = open_ok("tests/bpf/differential/bad_tc.o");
	ck_assert_int_eq(uxdp_bpf_object_prog(obj, 0, &d), 0);
	ck_assert(!d.loaded && !strcmp(d.type, "sched_cls"));
	uxdp_bpf_object_close(obj);
}
END_TEST

/* CO-RE against the built-in BTF: values as the kernel's libbpf resolves them */
START_TEST(test_core_builtin_btf)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o), .data_in = pkt60, .data_size_in = 60 };
	static const unsigned long long want[16] = {
		1, 1, 0, 0, 4, 14, 1, XDP_PASS, 16, 1, 1, 1, 5, 4, 64, 0,
	};
	struct uxdp_bpf_object *obj;
	unsigned long long v, bss[24];
	char log[8192];
	int id, map;
	__u32 k;

	opts.btf_custom_path = core_btf();
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	obj = uxdp_bpf_object_open(obj_path("examples/progs/xdp_core.o"), &opts);
	ck_assert_msg(obj, "%s", log);
	id = uxdp_bpf_object_find_prog(obj, "xdp_core_prog", NULL);
	map = uxdp_bpf_object_find_map(obj, "core_vals");
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_PASS);
	for (k = 0; k < 16; k++) {
		ck_assert_int_eq(uxdp_bpf_map_lookup_elem(map, &k, &v), 0);
		ck_assert_msg(v == want[k], "core_vals[%u] = %llu, want %llu", k, v, want[k]);
	}
	uxdp_bpf_object_close(obj);

	/* core_odd.o: anonymous unions, arrays in unions, bitfields, flavours */
	obj = uxdp_bpf_object_open(obj_path("tests/bpf/differential/core_odd.o"), &opts);
	ck_assert_msg(obj, "%s", log);
	id = uxdp_bpf_object_find_prog(obj, "core_odd_prog", NULL);
	map = uxdp_bpf_object_find_map(obj, ".bss");
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	k = 0;
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(map, &k, bss), 0);
	for (k = 0; k < 20; k++) {
		static const unsigned long long odd[20] = {
			12, 16, 36, 16, 2, 56, 60, 60, 1, 1, 0, 1, 1, 1, 4, 3, 0, 0, 1, 1,
		};

		if (k == 17)	/* a target type id: uxdp's BTF numbering */
			ck_assert_uint_gt(bss[k], 0);
		else
			ck_assert_msg(bss[k] == odd[k], "odd_vals[%u] = %llu, want %llu", k,
				      bss[k], odd[k]);
	}
	uxdp_bpf_object_close(obj);

	/* bad_core.o: task_struct is in the kernel's BTF, not in uxdp's */
	obj = uxdp_bpf_object_open(obj_path("tests/bpf/differential/bad_core.o"), &opts);
	ck_assert_msg(obj, "%s", log);
	id = uxdp_bpf_object_find_prog(obj, "core_prog", NULL);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_uint_eq(o.retval, XDP_DROP);
	uxdp_bpf_object_close(obj);

	opts.btf_custom_path = "no/such/btf";
	obj = uxdp_bpf_object_open(obj_path("examples/progs/xdp_core.o"), &opts);
	ck_assert(!obj);
	ck_assert_msg(strstr(log, "no/such/btf"), "%s", log);
}
END_TEST


/*
 * TYPE_MATCHES (bpf_core_type_matches(), which clang 14 cannot emit):
 * core_matches.o is core_odd.o with its TYPE_EXISTS records rewritten
 * (core_kind.py). Against the built-in BTF ethhdr___m has ethhdr's shape,
 * ethhdr___nomatch (an 8-byte h_proto) does not: 1 and 0. The kernel
 * differential suite compares the object with the kernel's libbpf.
 */
START_TEST(test_core_type_matches)
{
	struct uxdp_bpf_object_open_opts opts = { .sz = sizeof(opts) };
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o), .data_in = pkt60, .data_size_in = 60 };
	unsigned long long bss[24];
	struct uxdp_bpf_object *obj;
	char log[8192];
	__u32 k = 0;
	int id;

	opts.btf_custom_path = core_btf();
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	obj = uxdp_bpf_object_open(obj_path("tests/bpf/differential/core_matches.o"), &opts);
	ck_assert_msg(obj, "%s", log);
	id = uxdp_bpf_object_find_prog(obj, "core_odd_prog", NULL);
	ck_assert_int_eq(uxdp_bpf_prog_test_run(id, &o), 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(uxdp_bpf_object_find_map(obj, ".bss"), &k, bss), 0);
	ck_assert_msg(bss[11] == 1 && bss[13] == 0, "matches %llu, %llu", bss[11], bss[13]);
	uxdp_bpf_object_close(obj);
}
END_TEST

/*
 * bpf_spin_lock excludes for real: threads run xdp_spin_lock.o at once,
 * each increment of packets and bytes a load and a store under the lock
 * (a lost update shows as a short count). The lock word reads as zero,
 * with and without BPF_F_LOCK; BPF_F_LOCK is refused on a map without a
 * lock.
 */
#define SPIN_THREADS	4
#define SPIN_RUNS	200000

struct spin_totals {
	__u32 lock;
	__u32 last_len;
	__u64 packets;
	__u64 bytes;
};

static void *spin_lock_worker(void *arg)
{
	struct uxdp_bpf_test_run_opts o = { .sz = sizeof(o) };
	int id = *(int *)arg;
	long bad;

	o.data_in = pkt60;
	o.data_size_in = sizeof(pkt60);
	o.repeat = SPIN_RUNS;	/* back to back: the threads contend all along */
	bad = uxdp_bpf_prog_test_run(id, &o) || o.retval != XDP_PASS;
	return (void *)bad;
}

START_TEST(test_spin_lock_threads)
{
	struct uxdp_bpf_object *obj = open_ok("examples/progs/xdp_spin_lock.o");
	struct spin_totals t, t_locked;
	pthread_t th[SPIN_THREADS];
	struct uxdp_bpf_map_desc m;
	unsigned int zero = 0, proto = 17, i;
	__u64 pc[2];
	int id, tid = -1, hid = -1;
	void *bad;

	id = uxdp_bpf_object_find_prog(obj, "xdp_spin_lock", NULL);
	ck_assert_int_gt(id, 0);
	for (i = 0; i < uxdp_bpf_object_map_cnt(obj); i++) {
		ck_assert_int_eq(uxdp_bpf_object_map(obj, i, &m), 0);
		if (!strcmp(m.name, "totals"))
			tid = m.id;
		if (!strcmp(m.name, "by_proto"))
			hid = m.id;
	}
	ck_assert(tid > 0 && hid > 0);
	for (i = 0; i < SPIN_THREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, spin_lock_worker, &id), 0);
	for (i = 0; i < SPIN_THREADS; i++) {
		ck_assert_int_eq(pthread_join(th[i], &bad), 0);
		ck_assert_int_eq((long)bad, 0);
	}
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(tid, &zero, &t), 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem_flags(tid, &zero, &t_locked, BPF_F_LOCK), 0);
	ck_assert_uint_eq(t.packets, SPIN_THREADS * SPIN_RUNS);
	ck_assert_uint_eq(t.bytes, SPIN_THREADS * SPIN_RUNS * sizeof(pkt60));
	ck_assert_uint_eq(t.last_len, sizeof(pkt60));
	ck_assert_uint_eq(t.lock, 0);
	ck_assert_mem_eq(&t, &t_locked, sizeof(t));
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem_flags(hid, &proto, pc, BPF_F_LOCK), 0);
	ck_assert_uint_eq(pc[0], SPIN_THREADS * SPIN_RUNS);
	/* an update under the lock keeps the lock word the element has */
	t.packets = 7;
	t.lock = 0xdead;
	ck_assert_int_eq(uxdp_bpf_map_update_elem(tid, &zero, &t, BPF_F_LOCK), 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem(tid, &zero, &t_locked), 0);
	ck_assert_uint_eq(t_locked.packets, 7);
	ck_assert_uint_eq(t_locked.lock, 0);
	uxdp_bpf_object_close(obj);

	/* no lock in xdp1's values: BPF_F_LOCK is -EINVAL */
	obj = open_ok("examples/progs/xdp_maps.o");
	ck_assert_int_eq(uxdp_bpf_object_map(obj, 0, &m), 0);
	ck_assert_int_eq(uxdp_bpf_map_lookup_elem_flags(m.id, &zero, pc, BPF_F_LOCK), -EINVAL);
	uxdp_bpf_object_close(obj);
}
END_TEST

Suite *uxdp_test_suite(void)
{
	Suite *s = suite_create("tools/lib/bpf/object");
	TCase *tc = tcase_create("object");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_xdp1_model);
	tcase_add_test(tc, test_globals);
	tcase_add_test(tc, test_subprog_linking);
	tcase_add_test(tc, test_frags_flag);
	tcase_add_test(tc, test_legacy_maps);
	tcase_add_test(tc, test_prog_array_slots);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_kconfig);
	tcase_add_test(tc, test_xdp_sections);
	tcase_add_test(tc, test_custom_section);
	tcase_add_test(tc, test_mixed_object);
	tcase_add_test(tc, test_core_builtin_btf);
	tcase_add_test(tc, test_core_type_matches);
	tcase_add_test(tc, test_oob_runtime);
	tcase_add_loop_test(tc, test_truncated, 0, ARRAY_SIZE(damaged_objs));
	tcase_add_loop_test(tc, test_bitflips, 0, ARRAY_SIZE(damaged_objs));
	tcase_add_test(tc, test_test_run_rules);
	tcase_add_test(tc, test_redirect_report);
	tcase_add_test(tc, test_spin_lock_threads);
	suite_add_tcase(s, tc);
	return s;
}
