// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench-capture: one XDP program over every packet of a capture, in
 * uxdp and in the kernel (bpf_prog_test_run_opts() per packet, maps kept
 * across packets on both sides).
 *
 *   uxdp-bench-capture [--json] [--rounds R] OBJ PROG CAPTURE [UXDP]
 *   uxdp-bench-capture --check OBJ PROG CAPTURE
 *
 * Benchmark (the default): packets per second of the kernel's per-packet
 * test run, of uxdp's (uxdp_bpf_prog_test_run() in a loop, as `prog run`
 * does it), and, when the uxdp CLI is given, of `uxdp -j prog run OBJ
 * data_in CAPTURE` itself (its own summary's pps: the loop with its
 * per-packet JSON line written to /dev/null). Medians of R rounds; a table,
 * or one JSON object with --json. Not a test: it asserts nothing.
 *
 * --check: the kernel as the oracle. Each packet's error, verdict, output
 * length and bytes must match, then every element of each ARRAY/HASH map
 * (global data included) after the last packet; mismatches are printed,
 * exit 1; exit 77 when the kernel cannot load the program (no root).
 *
 * Kernel: tools/testing/selftests/bpf/prog_tests/xdp*.c (test runs)
 * Differs: perf event records are not compared (the kernel's need a perf
 *	    event fd, which a test run has not).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PCAP_DONT_INCLUDE_PCAP_BPF_H	/* classic BPF's names clash with linux/bpf.h */
#include <pcap/dlt.h>
#include <pcap/pcap.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <uxdp_bpf.h>

#define CAP_OUT		(128U << 10)
#define EXIT_SKIP	77

struct pkts {
	unsigned char *buf;
	size_t *off;
	uint32_t *len;
	size_t n;
};

static int pkts_read(const char *path, struct pkts *p)
{
	char err[PCAP_ERRBUF_SIZE];
	size_t cap = 0, bcap = 0, used = 0;
	struct pcap_pkthdr *h;
	const u_char *d;
	pcap_t *pc = pcap_open_offline(path, err);
	int rc;

	if (!pc) {
		fprintf(stderr, "Error: %s: %s\n", path, err);
		return -EINVAL;
	}
	while ((rc = pcap_next_ex(pc, &h, &d)) == 1) {
		if (p->n == cap) {
			cap = cap ? cap * 2 : 1024;
			p->off = realloc(p->off, cap * sizeof(*p->off));
			p->len = realloc(p->len, cap * sizeof(*p->len));
		}
		while (used + h->caplen > bcap) {
			bcap = bcap ? bcap * 2 : 1 << 20;
			p->buf = realloc(p->buf, bcap);
		}
		if (!p->off || !p->len || !p->buf)
			return -ENOMEM;
		memcpy(p->buf + used, d, h->caplen);
		p->off[p->n] = used;
		p->len[p->n++] = h->caplen;
		used += h->caplen;
	}
	if (rc != PCAP_ERROR_BREAK)
		fprintf(stderr, "Error: %s: record %zu: %s\n", path, p->n, pcap_geterr(pc));
	pcap_close(pc);
	return rc == PCAP_ERROR_BREAK ? 0 : -EINVAL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct result {
	int err;
	uint32_t retval, len;
};

static int kernel_run(int fd, const unsigned char *data, uint32_t len, unsigned char *out,
		      struct result *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = data, .data_size_in = len, .data_out = out,
		    .data_size_out = CAP_OUT, .repeat = 1);

	r->err = bpf_prog_test_run_opts(fd, &o) ? -errno : 0;
	r->retval = o.retval;
	r->len = r->err ? 0 : o.data_size_out;
	return r->err;
}

static int uxdp_run(uint32_t id, const unsigned char *data, uint32_t len, unsigned char *out,
		    struct result *r)
{
	struct uxdp_bpf_test_run_opts o = {
		.sz = sizeof(o), .data_in = data, .data_size_in = len, .data_out = out,
		.data_size_out = CAP_OUT, .repeat = 1,
	};

	r->err = uxdp_bpf_prog_test_run(id, &o);
	r->retval = o.retval;
	r->len = r->err ? 0 : o.data_size_out;
	return r->err;
}

/* Every element of the uxdp map against the kernel's map of the same name. */
static unsigned int maps_compare(struct bpf_object *kobj, struct uxdp_bpf_object *uobj)
{
	unsigned int bad = 0;

	for (unsigned int i = 0; i < uxdp_bpf_object_map_cnt(uobj); i++) {
		struct uxdp_bpf_map_desc m;
		struct bpf_map *km;
		unsigned char key[512], next[512], kv[65536], uv[65536];
		bool have = false;
		unsigned int n = 0;

		if (uxdp_bpf_object_map(uobj, i, &m) ||
		    (m.type != BPF_MAP_TYPE_ARRAY && m.type != BPF_MAP_TYPE_HASH) ||
		    m.key_size > sizeof(key) || m.value_size > sizeof(kv))
			continue;
		km = bpf_object__find_map_by_name(kobj, m.name);
		if (!km) {
			printf("map %s: not in the kernel's object\n", m.name);
			bad++;
			continue;
		}
		while (!bpf_map_get_next_key(bpf_map__fd(km), have ? key : NULL, next)) {
			memcpy(key, next, m.key_size);
			have = true;
			n++;
			if (bpf_map_lookup_elem(bpf_map__fd(km), key, kv))
				continue;
			if (uxdp_bpf_map_lookup_elem(m.id, key, uv) || memcmp(kv, uv, m.value_size)) {
				printf("map %s: element %u differs from the kernel's\n", m.name, n - 1);
				bad++;
			}
		}
		printf("map %s: %u element%s compared\n", m.name, n, n == 1 ? "" : "s");
	}
	return bad;
}

static int check(struct bpf_object *kobj, int kfd, struct uxdp_bpf_object *uobj, uint32_t uid,
		 const struct pkts *p)
{
	unsigned char *ko = malloc(CAP_OUT), *uo = malloc(CAP_OUT);
	unsigned int bad = 0;

	if (!ko || !uo)
		return 1;
	for (size_t i = 0; i < p->n; i++) {
		struct result k, u;

		kernel_run(kfd, p->buf + p->off[i], p->len[i], ko, &k);
		uxdp_run(uid, p->buf + p->off[i], p->len[i], uo, &u);
		if (k.err != u.err || (!k.err && (k.retval != u.retval || k.len != u.len ||
						  memcmp(ko, uo, k.len)))) {
			printf("packet %zu: kernel err %d verdict %u len %u, uxdp err %d verdict %u len %u%s\n",
			       i, k.err, k.retval, k.len, u.err, u.retval, u.len,
			       !k.err && k.len == u.len && k.retval == u.retval ? " (bytes differ)" : "");
			bad++;
		}
	}
	printf("%zu packets compared with the kernel: %u differ\n", p->n, bad);
	bad += maps_compare(kobj, uobj);
	free(ko);
	free(uo);
	return bad ? 1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* `uxdp -j prog run OBJ data_in CAPTURE`: its summary line's pps. */
static double cli_pps(const char *uxdp, const char *obj, const char *prog, const char *cap)
{
	char cmd[4096], line[4096];
	double pps = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "'%s' -j prog run '%s' name '%s' data_in '%s'", uxdp, obj, prog,
		 cap);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *s = strstr(line, "\"pps\":");

		if (!strncmp(line, "{\"summary\"", 10) && s)
			pps = strtod(s + 6, NULL);
	}
	pclose(f);
	return pps;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "check", no_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct bpf_object *kobj = NULL;
	struct uxdp_bpf_object *uobj;
	struct bpf_program *kp = NULL;
	bool json = false, do_check = false;
	const char *obj, *prog, *cap, *cli;
	int rounds = 3, c, kfd = -1, uid, ret = 1;
	struct pkts p = {};
	unsigned char *out;

	while ((c = getopt_long(argc, argv, "jcr:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 'c': do_check = true; break;
		case 'r': rounds = atoi(optarg); break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"Usage: uxdp-bench-capture [--json] [--rounds R] [--check] OBJ PROG CAPTURE [UXDP]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (argc - optind < 3 || rounds < 1 || rounds > 99) {
		fprintf(stderr, "Usage: uxdp-bench-capture [--json] [--rounds R] [--check] OBJ PROG CAPTURE [UXDP]\n");
		return 2;
	}
	obj = argv[optind];
	prog = argv[optind + 1];
	cap = argv[optind + 2];
	cli = argc - optind > 3 ? argv[optind + 3] : NULL;
	if (pkts_read(cap, &p))
		return 2;
	uobj = uxdp_bpf_object_open(obj, NULL);
	uid = uobj ? uxdp_bpf_object_find_prog(uobj, prog, NULL) : -ENOENT;
	if (uid < 0) {
		fprintf(stderr, "Error: %s: uxdp cannot load program %s\n", obj, prog);
		return 2;
	}
	libbpf_set_print(NULL);
	kobj = bpf_object__open_file(obj, NULL);
	if (kobj && !bpf_object__load(kobj))
		kp = bpf_object__find_program_by_name(kobj, prog);
	kfd = kp ? bpf_program__fd(kp) : -1;
	if (do_check) {
		if (kfd < 0) {
			printf("SKIP: the kernel cannot load %s (root / CAP_BPF needed)\n", obj);
			ret = EXIT_SKIP;
		} else {
			ret = check(kobj, kfd, uobj, uid, &p);
		}
		goto out;
	}
	out = malloc(CAP_OUT);
	if (!out)
		goto out;
	{
		double kv[99], uv[99], cv[99], k, u, cl;

		for (int r = 0; r < rounds; r++) {
			struct result res;
			uint64_t t0 = now_ns();

			for (size_t i = 0; kfd >= 0 && i < p.n; i++)
				kernel_run(kfd, p.buf + p.off[i], p.len[i], out, &res);
			kv[r] = kfd >= 0 ? p.n * 1e9 / (now_ns() - t0) : 0;
			t0 = now_ns();
			for (size_t i = 0; i < p.n; i++)
				uxdp_run(uid, p.buf + p.off[i], p.len[i], out, &res);
			uv[r] = p.n * 1e9 / (now_ns() - t0);
			cv[r] = cli ? cli_pps(cli, obj, prog, cap) : 0;
		}
		k = median(kv, rounds);
		u = median(uv, rounds);
		cl = median(cv, rounds);
		if (json) {
			printf("{\"bench\":\"capture\",\"obj\":\"%s\",\"prog\":\"%s\",\"packets\":%zu,\"rounds\":%d,"
			       "\"jit\":%d,\"kernel_pps\":%.0f,\"uxdp_pps\":%.0f,\"uxdp_cli_pps\":%.0f,"
			       "\"uxdp_vs_kernel\":%.3f}\n", obj, prog, p.n, rounds,
			       uxdp_bpf_jit_enable_get(), k, u, cl, k > 0 ? u / k : 0);
		} else {
			printf("capture: %zu packets, %s (%s), %d rounds, uxdp %s\n", p.n, prog, obj,
			       rounds, uxdp_bpf_jit_enable_get() ? "JIT" : "interpreter");
			printf("  %-44s %12s %10s\n", "runner", "pkt/s", "vs kernel");
			if (kfd >= 0)
				printf("  %-44s %12.0f %10s\n", "kernel bpf_prog_test_run_opts, per packet", k, "1.00");
			else
				printf("  %-44s %12s\n", "kernel (not loadable: root / CAP_BPF)", "-");
			printf("  %-44s %12.0f %10.2f\n", "uxdp uxdp_bpf_prog_test_run, per packet", u,
			       k > 0 ? u / k : 0);
			if (cli)
				printf("  %-44s %12.0f %10.2f\n", "uxdp -j prog run (JSON line per packet)", cl,
				       k > 0 ? cl / k : 0);
		}
		free(out);
		ret = 0;
	}
out:
	bpf_object__close(kobj);
	uxdp_bpf_object_close(uobj);
	free(p.buf);
	free(p.off);
	free(p.len);
	return ret;
}
