// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-load-census OBJ...: which XDP programs of the given objects the
 * kernel loads, which of those uxdp loads, and why the others fail.
 *
 * A program is a candidate when libbpf gives its section the XDP type, or
 * knows no type for it (a custom section, loaded as XDP as iproute2 does
 * with bpf_program__set_type()). Each candidate is loaded alone (autoload
 * off for every other program, as libbpf users do): in the kernel with
 * bpf_object__load(), in uxdp with uxdp_bpf_object_open(xdp_prog = it,
 * xdp_only). uxdp's failures are sorted by cause from its message.
 *
 *   uxdp-load-census [-v] [--btf FILE] OBJ...
 *
 * -v prints one line per candidate. Needs root (or CAP_BPF) for the kernel
 * side; exits 77 without it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include <uxdp_bpf.h>

enum cause { C_LOADED, C_CHECKER, C_CORE, C_KFUNC, C_MAP, C_SECTION, C_OTHER, C_NR };

static const char *const cause_names[C_NR] = {
	[C_LOADED] = "loaded",
	[C_CHECKER] = "checker (verifier) rejects",
	[C_CORE] = "CO-RE",
	[C_KFUNC] = "kfunc / extern / ksym",
	[C_MAP] = "map",
	[C_SECTION] = "section / program type",
	[C_OTHER] = "other",
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static enum cause classify(const char *log)
{
	if (strstr(log, "CO-RE") || strstr(log, "BTF"))
		return C_CORE;
	if (strstr(log, "rejected by the checker"))
		return C_CHECKER;
	if (strstr(log, "kfunc") || strstr(log, "extern") || strstr(log, "kconfig"))
		return C_KFUNC;
	if (strstr(log, "map '"))
		return C_MAP;
	if (strstr(log, "section") || strstr(log, "not XDP"))
		return C_SECTION;
	return C_OTHER;
}

/* 1: the kernel loads program @name of @path alone, 0: it does not, <0: no BPF here */
static int kernel_loads(const char *path, const char *name)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	int err;

	if (!obj)
		return 0;
	bpf_object__for_each_program(p, obj) {
		bool it = !strcmp(bpf_program__name(p), name);

		bpf_program__set_autoload(p, it);
		if (it && bpf_program__type(p) == BPF_PROG_TYPE_UNSPEC)
			bpf_program__set_type(p, BPF_PROG_TYPE_XDP);
	}
	err = bpf_object__load(obj);
	bpf_object__close(obj);
	if (err == -EPERM)
		return -1;
	return !err;
}

int main(int argc, char **argv)
{
	unsigned int counts[C_NR] = {}, cands = 0, kern = 0;
	const char *btf = NULL;
	bool verbose = false;
	int i;

	libbpf_set_print(quiet);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = true;
		else if (!strcmp(argv[i], "--btf") && i + 1 < argc)
			btf = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [-v] [--btf FILE] OBJ...\n", argv[0]);
		return 2;
	}
	for (; i < argc; i++) {
		struct bpf_object *obj = bpf_object__open_file(argv[i], NULL);
		struct bpf_program *p;

		if (!obj) {
			fprintf(stderr, "%s: libbpf cannot open it: %s\n", argv[i], strerror(errno));
			continue;
		}
		bpf_object__for_each_program(p, obj) {
			enum bpf_prog_type t = bpf_program__type(p);
			const char *name = bpf_program__name(p);
			struct uxdp_bpf_object_open_opts o = { .sz = sizeof(o) };
			struct uxdp_bpf_object *u;
			char log[16384] = "";
			enum cause c = C_LOADED;
			int k;

			if (t != BPF_PROG_TYPE_XDP && t != BPF_PROG_TYPE_UNSPEC)
				continue;
			cands++;
			k = kernel_loads(argv[i], name);
			if (k < 0) {
				fprintf(stderr, "SKIP: the kernel refuses BPF programs (needs root or CAP_BPF)\n");
				return 77;
			}
			if (!k) {
				if (verbose)
					printf("%s %s: not loaded by the kernel\n", argv[i], name);
				continue;
			}
			kern++;
			o.log_buf = log;
			o.log_size = sizeof(log);
			o.xdp_prog = name;
			o.xdp_only = true;
			o.btf_custom_path = btf;
			u = uxdp_bpf_object_open(argv[i], &o);
			if (!u)
				c = classify(log);
			uxdp_bpf_object_close(u);
			counts[c]++;
			if (verbose) {
				char *nl = strchr(log, '\n');

				if (nl && c != C_CHECKER)
					*nl = 0;
				if (c == C_CHECKER) {	/* the checker's last line says why */
					char *last = log + strlen(log);

					while (last > log && last[-1] == '\n')
						*--last = 0;
					while (last > log && last[-1] != '\n')
						last--;
					printf("%s %s: %s: %s\n", argv[i], name, cause_names[c], last);
				} else {
					printf("%s %s: %s%s%s\n", argv[i], name, cause_names[c],
					       c == C_LOADED ? "" : ": ", c == C_LOADED ? "" : log);
				}
			}
		}
		bpf_object__close(obj);
	}
	printf("XDP candidates %u, the kernel loads %u, uxdp loads %u of those (%.0f %%)\n", cands,
	       kern, counts[C_LOADED], kern ? 100.0 * counts[C_LOADED] / kern : 0.0);
	for (i = C_CHECKER; i < C_NR; i++)
		if (counts[i])
			printf("  uxdp fails: %-28s %u\n", cause_names[i], counts[i]);
	return 0;
}
