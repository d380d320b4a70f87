// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench-veth-kernel PROGS_DIR PASS|DROP SECS: the kernel's own
 * veth-bulk pipeline on this machine, for `uxdp-bench veth --kernel`.
 * In a network namespace of its own (unshare: the default one is never
 * touched, and the namespace, veth pair included, goes away with the
 * process), it creates veth0/veth1, attaches xdp_pass to veth0 and
 * xdp_rxq_info (action PASS or DROP) to veth1 in native mode, and injects
 * 64-byte UDP frames with BPF_PROG_TEST_RUN in live-frame mode
 * (BPF_F_TEST_XDP_LIVE_FRAMES) through xdp_redirect_map, whose devmap[0]
 * is veth0. Prints "Mpps N": frames xdp_rxq_info processed at veth1 per
 * second of wall time. Exit 77 when not allowed (no root / no netns).
 * Uses libbpf only (the kernel-named uxdp headers would clash).
 */
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct bpf_object *load(const char *dir, const char *file)
{
	char path[1024];
	struct bpf_object *obj;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	obj = bpf_object__open_file(path, NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "kernel: cannot load %s\n", path);
		exit(1);
	}
	return obj;
}

static int prog_fd(struct bpf_object *obj, const char *name)
{
	struct bpf_program *p = name ? bpf_object__find_program_by_name(obj, name) :
				       bpf_object__next_program(obj, NULL);

	return p ? bpf_program__fd(p) : -1;
}

static unsigned long long processed(int map_fd, int ncpus)
{
	struct { unsigned long long processed, issue; } v[ncpus];
	unsigned long long sum = 0;
	int key = 0;

	if (bpf_map_lookup_elem(map_fd, &key, v))
		return 0;
	for (int i = 0; i < ncpus; i++)
		sum += v[i].processed;
	return sum;
}

int main(int argc, char **argv)
{
	unsigned char pkt[64] = {
		0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,
		0x45, 0, 0, 50, 0, 0, 0x40, 0, 64, 17, 0, 0, 198, 18, 0, 1, 198, 19, 0, 1,
		0, 9, 0, 9, 0, 30, 0, 0,
	};
	struct bpf_object *redir, *pass, *rxq;
	int ncpus, veth0, veth1, key = 0, stats_fd, fd, err;
	unsigned int cfg[3] = { 2, 0, 4 };
	unsigned long long before, after, repeat = 1000000;
	double secs, t0, t1;

	if (argc != 4) {
		fprintf(stderr, "usage: %s PROGS_DIR PASS|DROP SECS\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[2], "DROP"))
		cfg[0] = 1;
	secs = atof(argv[3]);
	if (geteuid() || unshare(CLONE_NEWNET)) {
		fprintf(stderr, "kernel: need root for a network namespace: %s\n", strerror(errno));
		return 77;
	}
	if (system("ip link add veth0 type veth peer name veth1 && ip link set veth0 up && "
		   "ip link set veth1 up"))
		return 77;
	veth0 = if_nametoindex("veth0");
	veth1 = if_nametoindex("veth1");
	libbpf_set_print(NULL);
	ncpus = libbpf_num_possible_cpus();
	redir = load(argv[1], "xdp_redirect_map.o");
	pass = load(argv[1], "xdp_pass.o");
	rxq = load(argv[1], "xdp_rxq_info.o");
	if (bpf_map_update_elem(bpf_object__find_map_fd_by_name(redir, "tx_port"), &key, &veth0, 0) ||
	    bpf_map_update_elem(bpf_object__find_map_fd_by_name(rxq, "config_map"), &key, cfg, 0)) {
		fprintf(stderr, "kernel: map update failed\n");
		return 1;
	}
	err = bpf_xdp_attach(veth0, prog_fd(pass, NULL), XDP_FLAGS_DRV_MODE, NULL);
	err = err ?: bpf_xdp_attach(veth1, prog_fd(rxq, NULL), XDP_FLAGS_DRV_MODE, NULL);
	if (err) {
		fprintf(stderr, "kernel: attach failed: %s\n", strerror(-err));
		return 1;
	}
	stats_fd = bpf_object__find_map_fd_by_name(rxq, "stats_global_map");
	fd = prog_fd(redir, "xdp_redirect_map_prog");
	for (int round = 0; round < 2; round++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts,
			.data_in = pkt,
			.data_size_in = sizeof(pkt),
			.repeat = (unsigned int)repeat,
			.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
			.batch_size = 64,
		);

		before = processed(stats_fd, ncpus);
		t0 = now_s();
		err = bpf_prog_test_run_opts(fd, &opts);
		t1 = now_s();
		after = processed(stats_fd, ncpus);
		if (err) {
			fprintf(stderr, "kernel: test_run failed: %s\n", strerror(-err));
			return 1;
		}
		if (!round) {
			/* Calibrate: the second run lasts about SECS. */
			double rate = (after - before) / (t1 - t0);

			repeat = rate * secs > 1000 ? (unsigned long long)(rate * secs) : 1000;
			continue;
		}
		printf("Mpps %.4f\n", (after - before) / (t1 - t0) / 1e6);
		printf("frames %llu processed %llu secs %.3f\n", repeat, after - before, t1 - t0);
	}
	return 0;
}
