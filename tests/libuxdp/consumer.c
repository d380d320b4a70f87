// SPDX-License-Identifier: GPL-2.0
/*
 * A program outside the tree, built against the installed libuxdp with
 * `pkg-config --cflags --libs uxdp` only (tests/libuxdp/install_test.sh):
 * opens an object, runs its first program over a UDP frame and checks the
 * verdict, then checks that errors come back as -errno (or NULL + errno)
 * with a message.
 *
 *   consumer OBJ VERDICT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uxdp/uxdp.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_bpf_cov.h>

static const unsigned char udp_frame[42] = {
	0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,	/* eth, IPv4 */
	0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0,			/* UDP */
	10, 0, 0, 1, 10, 0, 0, 2,
	0, 53, 0, 53, 0, 8, 0, 0,
};

static int fail(const char *what)
{
	fprintf(stderr, "consumer: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	struct uxdp_bpf_test_run_opts topts = { .sz = sizeof(topts) };
	unsigned char out[128];
	struct uxdp_bpf_object *obj;
	char msg[128];
	int id, err;

	if (argc != 3)
		return fail("usage: consumer OBJ VERDICT");
	uxdp_set_print(NULL);
	printf("libuxdp %s\n", uxdp_version());

	obj = uxdp_bpf_object_open("/nonexistent.o", NULL);
	if (obj || errno != ENOENT || !*uxdp_errmsg())
		return fail("opening a missing file: no NULL + ENOENT + message");
	printf("missing file: %s\n", uxdp_errmsg());
	uxdp_strerror(-524, msg, sizeof(msg));
	if (strcmp(msg, "Operation is not supported"))
		return fail("uxdp_strerror(-524)");

	obj = uxdp_bpf_object_open(argv[1], NULL);
	if (!obj)
		return fail(uxdp_errmsg());
	id = uxdp_bpf_object_find_prog(obj, NULL, NULL);
	if (id < 0)
		return fail("no program");
	topts.data_in = udp_frame;
	topts.data_size_in = sizeof(udp_frame);
	topts.data_out = out;
	topts.data_size_out = sizeof(out);
	topts.repeat = 10;
	err = uxdp_bpf_prog_test_run((__u32)id, &topts);
	if (err)
		return fail("prog test run failed");
	printf("retval %u duration %u ns data_out %u bytes\n", topts.retval, topts.duration,
	       topts.data_size_out);
	if (topts.retval != (unsigned int)atoi(argv[2]))
		return fail("unexpected verdict");
	if (uxdp_bpf_prog_test_run(999999, &topts) != -ENOENT)
		return fail("a missing program is not -ENOENT");
	uxdp_bpf_object_close(obj);
	printf("ok\n");
	return 0;
}
