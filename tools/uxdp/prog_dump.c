// SPDX-License-Identifier: GPL-2.0
/*
 * `uxdp prog dump xlated|jited`: bpftool's dump of a loaded program, for
 * the program of an object file as uxdp loaded it.
 *
 *   uxdp prog dump xlated OBJ [name PROG | sec SECTION] [type xdp]
 *			   [btf FILE] [linum] [opcodes]
 *   uxdp prog dump jited OBJ [name PROG | sec SECTION] [type xdp]
 *			  [btf FILE] [linum] [opcodes]
 *
 * xlated prints the instructions after the checker's rewrites
 * (uxdp_bpf_prog_xlated_insns()) through kernel/bpf/disasm.c, each
 * function's prototype from BTF and the BTF line_info source line before
 * the first instruction it covers (`linum`: with its file, line and
 * column); jited prints the JIT image through objdump when it is
 * installed, with the same source lines before the native code of the
 * instructions they cover (uxdp_bpf_prog_jited_insn_offs()), else (and
 * with `opcodes`) its bytes in hex.
 *
 * Kernel: tools/bpf/bpftool/prog.c do_dump(), xlated_dumper.c
 *	   dump_xlated_plain(), dump_xlated_json(), jit_disasm.c
 * Differs: helper calls are named by helper (`call bpf_map_lookup_elem#1`)
 *	    where the kernel's xlated dump names the function the address
 *	    resolves to; bpf-to-bpf calls print as `call pc+N#FUNC`, the
 *	    callee's BTF name without the kernel's bpf_prog_TAG_; jited text
 *	    comes from objdump, not libbfd/LLVM, and has no function labels.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/btf.h>

#include <uxdp_bpf.h>
#include <uxdp_bpf_cov.h>

#include "../../kernel/bpf/disasm.h"
#include "json_writer.h"
#include "main.h"
#include "prog.h"

struct dump_args {
	const char *obj;
	struct open_args o;
	bool linum;
	bool opcodes;
};

/* The instruction text of one print_bpf_insn() call. */
struct insn_buf {
	char text[256];
	char call[96];
	char imm[64];
	uint32_t id;			/* the program, for a callee's name */
	const struct bpf_insn *base;	/* its first slot */
};

static void buf_print(void *private_data, const char *fmt, ...)
{
	struct insn_buf *b = private_data;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(b->text, sizeof(b->text), fmt, ap);
	va_end(ap);
	n = strlen(b->text);
	if (n && b->text[n - 1] == '\n')
		b->text[n - 1] = '\0';
}

static const char *buf_call(void *private_data, const struct bpf_insn *insn)
{
	struct insn_buf *b = private_data;
	const char *name;

	if (insn->src_reg == BPF_PSEUDO_CALL) {
		/* bpftool's pc+N#bpf_prog_TAG_NAME, less the tag uxdp has not */
		uint32_t to = (uint32_t)(insn - b->base) + (uint32_t)insn->imm + 1;
		struct uxdp_bpf_line l;

		if (b->base && !uxdp_bpf_prog_line_info(b->id, to, &l) && l.func && l.func[0])
			snprintf(b->call, sizeof(b->call), "%+d#%s", insn->imm, l.func);
		else
			snprintf(b->call, sizeof(b->call), "%+d", insn->imm);
		return b->call;
	}
	name = insn->src_reg == BPF_PSEUDO_KFUNC_CALL ? uxdp_bpf_kfunc_name((__u32)insn->imm) :
							 func_id_name(insn->imm);
	return name;
}

/* bpftool's print_imm(): map[id:N], map[id:N][0]+OFF, subprog[+N], 0x... */
static const char *buf_imm(void *private_data, const struct bpf_insn *insn, __u64 full_imm)
{
	struct insn_buf *b = private_data;

	if (insn->src_reg == BPF_PSEUDO_MAP_FD)
		snprintf(b->imm, sizeof(b->imm), "map[id:%u]", (__u32)insn[0].imm);
	else if (insn->src_reg == BPF_PSEUDO_MAP_VALUE)
		snprintf(b->imm, sizeof(b->imm), "map[id:%u][0]+%u", (__u32)insn[0].imm,
			 (__u32)insn[1].imm);
	else if (insn->src_reg == BPF_PSEUDO_FUNC)
		snprintf(b->imm, sizeof(b->imm), "subprog[%+d]", insn[0].imm);
	else
		snprintf(b->imm, sizeof(b->imm), "0x%llx", (unsigned long long)full_imm);
	return b->imm;
}

static void insn_text(const struct bpf_insn *insn, struct insn_buf *b)
{
	const struct bpf_insn_cbs cbs = {
		.cb_print = buf_print,
		.cb_call = buf_call,
		.cb_imm = buf_imm,
		.private_data = b,
	};

	b->text[0] = '\0';
	print_bpf_insn(&cbs, insn, true);
}

/* A source line as bpftool shows it: without its indentation. */
static const char *src_trim(const char *src)
{
	while (*src == ' ' || *src == '\t')
		src++;
	return src;
}

/* "; SRC" (with linum "; SRC [file:F line_num:N line_col:C]"), bpftool's source line. */
static void src_line_print(const struct uxdp_bpf_line *l, bool linum)
{
	const char *src = src_trim(l->src);

	if (linum)
		printf("; %s [file:%s line_num:%u line_col:%u]\n", src, l->file, l->line, l->col);
	else
		printf("; %s\n", src);
}

/* ---- function prototypes from BTF ("int f(struct xdp_md * ctx)") -------- */

static void fmt(char *out, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *out, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(out, len, f, ap);
	va_end(ap);
}

static void type_name(const struct btf *btf, __u32 id, char *out, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *kw = "";
	char inner[128];

	if (!id || !t) {
		fmt(out, len, "void");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		type_name(btf, t->type, inner, sizeof(inner));
		fmt(out, len, "%s *", inner);
		return;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		type_name(btf, t->type, inner, sizeof(inner));
		fmt(out, len, "%s %s", btf_kind(t) == BTF_KIND_CONST ? "const" :
			 btf_kind(t) == BTF_KIND_VOLATILE ? "volatile" : "restrict", inner);
		return;
	case BTF_KIND_STRUCT:
		kw = "struct ";
		break;
	case BTF_KIND_UNION:
		kw = "union ";
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		kw = "enum ";
		break;
	}
	fmt(out, len, "%s%s", kw, btf__name_by_offset(btf, t->name_off));
}

static void func_proto(const struct btf *btf, const char *func, char *out, size_t len)
{
	const struct btf_type *fn, *proto;
	const struct btf_param *p;
	char ret[128], arg[128];
	size_t n;
	int id;
	__u16 i;

	out[0] = '\0';
	id = btf ? btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) : -1;
	fn = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;
	proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return;
	type_name(btf, proto->type, ret, sizeof(ret));
	n = (size_t)snprintf(out, len, "%s %s(", ret, func);
	p = btf_params(proto);
	for (i = 0; i < btf_vlen(proto) && n < len; i++) {
		type_name(btf, p[i].type, arg, sizeof(arg));
		n += (size_t)snprintf(out + n, len - n, "%s%s %s", i ? ", " : "", arg,
				      btf__name_by_offset(btf, p[i].name_off));
	}
	if (n < len)
		snprintf(out + n, len - n, ")");
}

/* ---- xlated ------------------------------------------------------------- */

/* bpftool's opcodes: the 8 bytes of a slot. */
static void opcodes_text(const struct bpf_insn *insn)
{
	const unsigned char *p = (const unsigned char *)insn;
	unsigned int k;

	printf("      ");
	for (k = 0; k < sizeof(*insn); k++)
		printf(" %02x", p[k]);
	printf("\n");
}

/* @n bytes as bpftool's ["0x12", ...] */
static void json_byte_array(struct json_writer *w, const char *name, const unsigned char *p,
			    size_t n)
{
	char hex[8];
	size_t k;

	jsonw_name(w, name);
	jsonw_start_array(w);
	for (k = 0; k < n; k++) {
		snprintf(hex, sizeof(hex), "0x%02x", p[k]);
		jsonw_string(w, hex);
	}
	jsonw_end_array(w);
}

static void opcodes_json(struct json_writer *w, const struct bpf_insn *insn)
{
	const unsigned char *p = (const unsigned char *)insn;
	char hex[8];

	jsonw_name(w, "opcodes");
	jsonw_start_object(w);
	snprintf(hex, sizeof(hex), "0x%02x", insn->code);
	jsonw_string_field(w, "code", hex);
	snprintf(hex, sizeof(hex), "0x%x", insn->src_reg);
	jsonw_string_field(w, "src_reg", hex);
	snprintf(hex, sizeof(hex), "0x%x", insn->dst_reg);
	jsonw_string_field(w, "dst_reg", hex);
	json_byte_array(w, "off", p + 2, 2);
	json_byte_array(w, "imm", p + 4, 4);
	jsonw_end_object(w);
}

static int dump_xlated(struct uxdp_bpf_object *obj, uint32_t id, const struct dump_args *a)
{
	const struct btf *btf = uxdp_bpf_object_btf(obj);
	struct json_writer w;
	struct bpf_insn *insns;
	const char *func = NULL;
	struct insn_buf b = { .id = id };
	int n, i;

	n = uxdp_bpf_prog_xlated_insns(id, NULL, 0);
	if (n <= 0) {
		p_err("%s: prog id %u: no instructions (%s)", a->obj, id, strerror(n ? -n : ENODATA));
		return 1;
	}
	insns = calloc((size_t)n, sizeof(*insns));
	if (!insns || uxdp_bpf_prog_xlated_insns(id, insns, (uint32_t)n) != n) {
		p_err("%s: prog id %u: %s", a->obj, id, strerror(ENOMEM));
		free(insns);
		return 1;
	}
	b.base = insns;
	if (json_output && jsonw_open(&w)) {
		free(insns);
		return 1;
	}
	if (json_output)
		jsonw_start_array(&w);
	for (i = 0; i < n; i++) {
		bool wide = insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) && i + 1 < n;
		struct uxdp_bpf_line l;
		bool has_line = !uxdp_bpf_prog_line_info(id, (uint32_t)i, &l);
		char proto[512] = "";

		if (has_line && l.func[0] && (!func || strcmp(func, l.func))) {
			func = l.func;
			func_proto(btf, func, proto, sizeof(proto));
		}
		has_line = has_line && l.insn_off == (uint32_t)i;
		if (has_line)
			l.src = src_trim(l.src);
		insn_text(&insns[i], &b);
		if (json_output) {
			jsonw_start_object(&w);
			if (proto[0])
				jsonw_string_field(&w, "proto", proto);
			if (has_line) {
				jsonw_string_field(&w, "src", l.src);
				if (a->linum) {
					jsonw_string_field(&w, "file", l.file);
					jsonw_uint_field(&w, "line_num", l.line);
					jsonw_uint_field(&w, "line_col", l.col);
				}
			}
			jsonw_string_field(&w, "disasm", b.text);
			if (a->opcodes)
				opcodes_json(&w, &insns[i]);
			jsonw_end_object(&w);
		} else {
			if (proto[0])
				printf("%s:\n", proto);
			if (has_line)
				src_line_print(&l, a->linum);
			printf("%4d: %s\n", i, b.text);
			if (a->opcodes) {
				opcodes_text(&insns[i]);
				if (wide)
					opcodes_text(&insns[i + 1]);
			}
		}
		if (wide)
			i++;
	}
	free(insns);
	if (json_output) {
		jsonw_end_array(&w);
		json_doc_print(jsonw_close(&w));
	}
	return 0;
}

/* ---- jited -------------------------------------------------------------- */

static void hex_lines(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%s%02x%s", i % 16 ? " " : "   ", p[i], i % 16 == 15 || i + 1 == n ? "\n" : "");
}

/*
 * The source lines of native code, as bpftool interleaves them: before the
 * first native instruction of each slot that starts a line_info record.
 */
struct jited_lines {
	uint32_t id;
	const struct dump_args *a;
	uint32_t *offs;		/* uxdp_bpf_prog_jited_insn_offs() */
	uint32_t nr;		/* slots (offsets - 1) */
	uint32_t next;		/* first slot not yet passed */
};

static void jited_lines_before(struct jited_lines *jl, unsigned long off)
{
	for (; jl->next < jl->nr && jl->offs[jl->next] <= off; jl->next++) {
		struct uxdp_bpf_line l;

		if (!uxdp_bpf_prog_line_info(jl->id, jl->next, &l) && l.insn_off == jl->next)
			src_line_print(&l, jl->a->linum);
	}
}

/*
 * objdump on a copy of the image, its listing from the first label on
 * (not the temporary file's name), with @jl's source lines if not NULL;
 * 1 when objdump is not there.
 */
static int objdump_image(const unsigned char *code, size_t n, struct jited_lines *jl)
{
	char path[] = "/tmp/uxdp-jited-XXXXXX", cmd[128], line[512];
	int fd = mkstemp(path), status;
	bool body = false;
	FILE *p;

	if (fd < 0)
		return -errno;
	if (write(fd, code, n) != (ssize_t)n) {
		close(fd);
		unlink(path);
		return -EIO;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "objdump -D -b binary -mi386:x86-64 --no-show-raw-insn %s 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p) {
		unlink(path);
		return -errno;
	}
	while (fgets(line, sizeof(line), p)) {
		char *end;
		unsigned long off;

		if (!body) {
			body = strstr(line, ">:") != NULL;
			continue;
		}
		off = strtoul(line, &end, 16);
		if (jl && end != line && *end == ':')
			jited_lines_before(jl, off);
		fputs(line, stdout);
	}
	status = pclose(p);
	unlink(path);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 1;
	return WIFEXITED(status) && !WEXITSTATUS(status) && body ? 0 : -EIO;
}

static int dump_jited(uint32_t id, const struct dump_args *a)
{
	char reason[128] = "";
	unsigned char *code;
	uint32_t len = 0;
	int jited = uxdp_bpf_prog_jit_info(id, &len, reason, sizeof(reason));
	struct jited_lines jl = { .id = id, .a = a };
	int n, err = 0, k;

	if (jited <= 0 || !len) {
		p_err("%s: prog id %u is not JITed: %s (the JIT is net.core.bpf_jit_enable, UXDP_BPF_JIT=1 in the environment)",
		      a->obj, id, reason[0] ? reason : "JIT disabled");
		return 1;
	}
	code = malloc(len);
	n = code ? uxdp_bpf_prog_jited_insns(id, code, len) : -ENOMEM;
	if (n <= 0) {
		p_err("%s: prog id %u: %s", a->obj, id, strerror(n ? -n : ENODATA));
		free(code);
		return 1;
	}
	k = uxdp_bpf_prog_jited_insn_offs(id, NULL, 0);
	jl.offs = k > 1 ? malloc(k * sizeof(*jl.offs)) : NULL;
	if (jl.offs && uxdp_bpf_prog_jited_insn_offs(id, jl.offs, (uint32_t)k) == k)
		jl.nr = (uint32_t)k - 1;
	if (json_output) {
		struct json_writer w;

		if (jsonw_open(&w)) {
			free(jl.offs);
			free(code);
			return 1;
		}
		jsonw_start_array(&w);
		jsonw_start_object(&w);
		jsonw_uint_field(&w, "jited_len", (uint32_t)n);
		json_byte_array(&w, "opcodes", code, (size_t)n);
		jsonw_end_object(&w);
		jsonw_end_array(&w);
		json_doc_print(jsonw_close(&w));
	} else if (a->opcodes || (err = objdump_image(code, (size_t)n, jl.offs ? &jl : NULL)) == 1) {
		err = 0;
		hex_lines(code, (size_t)n);
	}
	free(jl.offs);
	free(code);
	if (err < 0)
		p_err("objdump: %s", strerror(-err));
	return err < 0 ? 1 : 0;
}

/* ---- the verb ----------------------------------------------------------- */

int do_dump(int argc, char **argv)
{
	struct uxdp_bpf_object *obj;
	struct dump_args a = {};
	bool xlated;
	int i, id, ret;

	if (argc < 2 || (strcmp(argv[0], "xlated") && strcmp(argv[0], "jited"))) {
		p_err("usage: uxdp prog dump { xlated | jited } OBJ [name PROG | sec SECTION] [type xdp] [btf FILE] [linum] [opcodes]");
		return EXIT_USAGE;
	}
	xlated = !strcmp(argv[0], "xlated");
	a.obj = argv[1];
	for (i = 2; i < argc; i++) {
		int r = parse_open_arg(argc, argv, &i, &a.o);

		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		if (!strcmp(argv[i], "linum")) {
			a.linum = true;
		} else if (!strcmp(argv[i], "opcodes")) {
			a.opcodes = true;
		} else {
			p_err("prog dump %s: unknown argument '%s'", argv[0], argv[i]);
			return EXIT_USAGE;
		}
	}
	obj = open_obj(a.obj, &a.o);
	if (!obj)
		return EXIT_USAGE;
	id = find_prog(obj, a.obj, &a.o);
	if (id < 0)
		ret = EXIT_USAGE;
	else
		ret = xlated ? dump_xlated(obj, (uint32_t)id, &a) : dump_jited((uint32_t)id, &a);
	uxdp_bpf_object_close(obj);
	return ret;
}
