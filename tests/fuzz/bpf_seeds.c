// SPDX-License-Identifier: GPL-2.0
/*
 * Seed corpus for the fuzz-bpf target: assembles the "-- asm" section of
 * every tests/bpf/data file (and of the bpf_conformance tests when present)
 * and writes it in fuzz_bpf.c's input format, once as a raw program over
 * its "-- mem" bytes and once as an XDP program, into the output directory,
 * plus 32 pseudo-random structured inputs (fuzz_bpf.c flag 8).
 *
 * Usage: fuzz-bpf-seeds OUTDIR DATADIR...   (absent DATADIRs are skipped)
 *
 * Kernel: none (test infrastructure).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../bpf/asm.h"

#define SEED_MAX_INSNS	4096

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = n >= 0 ? malloc(n + 1) : NULL;
	if (buf) {
		n = fread(buf, 1, n, f);
		buf[n] = 0;
	}
	fclose(f);
	return buf;
}

/* Copy of the section "-- NAME" of @text (up to the next "-- " line), or NULL. */
static char *section(const char *text, const char *name)
{
	char hdr[32];
	const char *s, *e;
	char *out;

	snprintf(hdr, sizeof(hdr), "-- %s\n", name);
	s = strstr(text, hdr);
	if (!s)
		return NULL;
	s += strlen(hdr);
	e = strstr(s, "\n-- ");
	if (!e)
		e = s + strlen(s);
	out = strndup(s, e - s + 1);
	return out;
}

static unsigned int mem_len(const char *mem)
{
	unsigned int n = 0;
	const char *p = mem;

	while (p && *p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		n++;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
	}
	return n > 255 ? 255 : n;
}

static int write_seed(const char *dir, const char *name, unsigned char flags, unsigned char sel,
		      const struct bpf_insn *insns, int n)
{
	unsigned char hdr[4] = { flags, sel, 0, 0 };
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, flags & 1 ? "raw" : "xdp");
	f = fopen(path, "wb");
	if (!f)
		return -errno;
	fwrite(hdr, 1, sizeof(hdr), f);
	fwrite(insns, sizeof(*insns), n, f);
	return fclose(f) ? -errno : 0;
}

int main(int argc, char **argv)
{
	static struct bpf_insn insns[SEED_MAX_INSNS];
	unsigned int written = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s OUTDIR DATADIR...\n", argv[0]);
		return 2;
	}
	mkdir(argv[1], 0755);
	for (i = 2; i < argc; i++) {
		struct dirent *de;
		DIR *d = opendir(argv[i]);

		if (!d)
			continue;
		while ((de = readdir(d))) {
			char path[4096], err[256], name[256], *text, *asm_text, *mem;
			size_t l = strlen(de->d_name);
			int n;

			if (l < 6 || strcmp(de->d_name + l - 5, ".data"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			text = read_text(path);
			asm_text = text ? section(text, "asm") : NULL;
			mem = text ? section(text, "mem") : NULL;
			n = asm_text ? bpf_asm(asm_text, insns, SEED_MAX_INSNS, err, sizeof(err)) : -1;
			if (n > 0) {
				snprintf(name, sizeof(name), "%.*s", (int)(l - 5), de->d_name);
				if (write_seed(argv[1], name, 1, mem_len(mem), insns, n) ||
				    write_seed(argv[1], name, 0, 4, insns, n)) {
					fprintf(stderr, "%s: cannot write\n", argv[1]);
					return 1;
				}
				written += 2;
			}
			free(mem);
			free(asm_text);
			free(text);
		}
		closedir(d);
	}
	/* structured inputs (fuzz_bpf.c flag 8): 4 pseudo-random bytes per insn */
	for (i = 0; i < 32; i++) {
		unsigned char buf[4 + 4 * 48];
		unsigned int k, x = 2463534242u + i;
		char path[4096];
		FILE *f;

		buf[0] = 8 | (i & 1) | (i & 4);
		buf[1] = 4 + i;
		buf[2] = buf[3] = 0;
		for (k = 4; k < sizeof(buf); k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			buf[k] = x >> 24;
		}
		snprintf(path, sizeof(path), "%s/structured-%02d", argv[1], i);
		f = fopen(path, "wb");
		if (!f || fwrite(buf, 1, 4 + 4 * (8 + i), f) != 4 + 4 * (8 + (size_t)i) || fclose(f))
			return 1;
		written++;
	}
	printf("%u seeds in %s\n", written, argv[1]);
	return written ? 0 : 1;
}
