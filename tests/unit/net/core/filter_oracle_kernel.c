// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of filter_oracle_test.c, in its own translation unit:
 * libbpf's <bpf/bpf.h> and uxdp's internal <linux/bpf.h> declare different
 * functions under the same names, so they cannot meet in one file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "filter_oracle.h"

static struct bpf_object *obj;
static int prog_fd = -1, map_fd = -1;

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int oracle_open(const char *path, const void *probe_args, size_t args_sz)
{
	LIBBPF_OPTS(bpf_test_run_opts, probe);
	unsigned char buf[64] = { 0 };
	unsigned int k = 0;
	int err;

	libbpf_set_print(silent);
	obj = bpf_object__open_file(path, NULL);
	if (!obj)
		return -errno;
	err = bpf_object__load(obj);
	if (err)
		return err;
	prog_fd = bpf_program__fd(bpf_object__find_program_by_name(obj, "helper_oracle"));
	map_fd = bpf_object__find_map_fd_by_name(obj, "args");
	if (prog_fd < 0 || map_fd < 0)
		return -ENOENT;
	if (bpf_map_update_elem(map_fd, &k, probe_args, 0))
		return -errno;
	probe.data_in = buf;
	probe.data_size_in = sizeof(buf);
	if (bpf_prog_test_run_opts(prog_fd, &probe))
		return -errno;
	return 0;
}

int oracle_run(const void *args, void *args_out, const void *pkt, unsigned int len,
	       void *out, unsigned int out_size, unsigned int *size_out, unsigned int *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = pkt,
		.data_size_in = len,
		.data_out = out,
		.data_size_out = out_size,
		.repeat = 1,
	);
	unsigned int k = 0;

	if (bpf_map_update_elem(map_fd, &k, args, 0))
		return -errno;
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	*retval = opts.retval;
	*size_out = opts.data_size_out;
	if (bpf_map_lookup_elem(map_fd, &k, args_out))
		return -errno;
	return 0;
}

void oracle_close(void)
{
	bpf_object__close(obj);
}
