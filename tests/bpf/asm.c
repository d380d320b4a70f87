// SPDX-License-Identifier: GPL-2.0
/*
 * A two-pass assembler for ubpf's eBPF text syntax (the bpf_conformance
 * format): one instruction per line, `#` comments, `label:` lines,
 * registers %r0..%r10, memory operands [%rN+off], jump targets as labels
 * or +N/-N, `lddw` 64-bit immediates, `lock [fetch] op[32]` atomics,
 * `lock load_acquire[32|16|8] %rD, [%rS+off]` and `lock store_release[32|16|8]
 * [%rD+off], %rS` (BPF_LOAD_ACQ / BPF_STORE_REL, 64-bit without a suffix),
 * `call N` (helper), `call local LABEL` (bpf-to-bpf), `call %rN` (callx,
 * encoded but refused by the checker as the kernel does).
 *
 * Immediates: decimal values must fit s32, hex values u32 (0xffffffff is
 * -1); offsets s16 (hex up to 0xffff). Out-of-range values are errors,
 * matching the suite's negative cases.
 *
 * Kernel: none (test tool; ubpf's ubpf_assembler.py is the reference syntax)
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"

#define ASM_MAX_LABELS	256
#define ASM_MAX_OPS	4

struct asm_label {
	char name[64];
	unsigned int pc;
};

struct asm_fixup {
	unsigned int pc;
	unsigned int line;
	bool imm;		/* target goes to imm (ja32, call local), else off */
	char name[64];
};

struct asm_ctx {
	struct bpf_insn *out;
	unsigned int max;
	unsigned int pc;
	unsigned int line;
	char *err;
	size_t errlen;
	struct asm_label labels[ASM_MAX_LABELS];
	unsigned int nr_labels;
	struct asm_fixup fixups[1024];
	unsigned int nr_fixups;
};

static int asm_err(struct asm_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(c->err, c->errlen, "line %u: ", c->line);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Number with optional sign; *hex tells whether it was written in hex. */
static bool parse_num(const char *s, long long *val, unsigned long long *uval, bool *hex)
{
	bool neg = false;
	char *end;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!isdigit((unsigned char)*s))
		return false;
	*hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	errno = 0;
	*uval = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	if (neg) {
		if (*uval > (1ULL << 63))
			return false;
		*val = -(long long)*uval;
		*uval = (unsigned long long)*val;
	} else {
		*val = (long long)*uval;
	}
	return true;
}

static int parse_imm32(struct asm_ctx *c, const char *s, int *imm)
{
	unsigned long long u;
	long long v;
	bool hex;

	if (!parse_num(s, &v, &u, &hex))
		return asm_err(c, "invalid immediate '%s'", s);
	if (hex && *s != '-') {
		if (u > 0xffffffffULL)
			return asm_err(c, "immediate '%s' out of range", s);
		*imm = (int)(unsigned int)u;
		return 0;
	}
	if (v < -2147483648LL || v > 2147483647LL)
		return asm_err(c, "immediate '%s' out of range", s);
	*imm = (int)v;
	return 0;
}

static int parse_off16(struct asm_ctx *c, const char *s, short *off)
{
	unsigned long long u;
	long long v;
	bool hex;

	if (!parse_num(s, &v, &u, &hex))
		return asm_err(c, "invalid offset '%s'", s);
	if (hex && *s != '-' && *s != '+' && u <= 0xffff) {
		*off = (short)(unsigned short)u;
		return 0;
	}
	if (v < -32768 || v > 32767)
		return asm_err(c, "offset '%s' out of range", s);
	*off = (short)v;
	return 0;
}

static int parse_reg(struct asm_ctx *c, const char *s, unsigned char *reg)
{
	char *end;
	long n;

	if (s[0] != '%' || s[1] != 'r' || !isdigit((unsigned char)s[2]))
		return asm_err(c, "Invalid register '%s'", s);
	n = strtol(s + 2, &end, 10);
	if (*end || n < 0 || n > 10)
		return asm_err(c, "Invalid register '%s'", s);
	*reg = (unsigned char)n;
	return 0;
}

static bool is_reg(const char *s)
{
	return s[0] == '%';
}

/* [%rN], [%rN+off], [%rN-off] */
static int parse_mem(struct asm_ctx *c, const char *s, unsigned char *reg, short *off)
{
	char buf[64], *p, *sign;
	size_t n = strlen(s);
	int err;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']' || n - 2 >= sizeof(buf))
		return asm_err(c, "invalid memory operand '%s'", s);
	memcpy(buf, s + 1, n - 2);
	buf[n - 2] = '\0';
	p = trim(buf);
	sign = strpbrk(p, "+-");
	*off = 0;
	if (sign) {
		char tmp[64];

		snprintf(tmp, sizeof(tmp), "%s", sign);
		*sign = '\0';
		err = parse_off16(c, trim(tmp), off);
		if (err)
			return err;
	}
	return parse_reg(c, trim(p), reg);
}

static int emit(struct asm_ctx *c, struct bpf_insn insn)
{
	if (c->pc >= c->max)
		return -E2BIG;
	c->out[c->pc++] = insn;
	return 0;
}

/* Jump target: +N / -N / N, or a label resolved in pass 2. */
static int parse_target(struct asm_ctx *c, const char *s, bool imm, struct bpf_insn *insn)
{
	if (*s == '+' || *s == '-' || isdigit((unsigned char)*s)) {
		if (imm)
			return parse_imm32(c, s, &insn->imm);
		return parse_off16(c, s, &insn->off);
	}
	if (!isalpha((unsigned char)*s) && *s != '_' && *s != '.')
		return asm_err(c, "invalid jump target '%s'", s);
	if (c->nr_fixups >= sizeof(c->fixups) / sizeof(c->fixups[0]))
		return asm_err(c, "too many label references");
	c->fixups[c->nr_fixups].pc = c->pc;
	c->fixups[c->nr_fixups].line = c->line;
	c->fixups[c->nr_fixups].imm = imm;
	snprintf(c->fixups[c->nr_fixups].name, sizeof(c->fixups[0].name), "%s", s);
	c->nr_fixups++;
	return 0;
}

struct op_name {
	const char *name;
	unsigned char op;
};

static const struct op_name alu_ops[] = {
	{ "add", BPF_ADD }, { "sub", BPF_SUB }, { "mul", BPF_MUL }, { "div", BPF_DIV },
	{ "or", BPF_OR }, { "and", BPF_AND }, { "lsh", BPF_LSH }, { "rsh", BPF_RSH },
	{ "mod", BPF_MOD }, { "xor", BPF_XOR }, { "mov", BPF_MOV }, { "arsh", BPF_ARSH },
	{ "sdiv", BPF_DIV }, { "smod", BPF_MOD }, { "neg", BPF_NEG },
};

static const struct op_name jmp_ops[] = {
	{ "jeq", BPF_JEQ }, { "jgt", BPF_JGT }, { "jge", BPF_JGE }, { "jset", BPF_JSET },
	{ "jne", BPF_JNE }, { "jsgt", BPF_JSGT }, { "jsge", BPF_JSGE }, { "jlt", BPF_JLT },
	{ "jle", BPF_JLE }, { "jslt", BPF_JSLT }, { "jsle", BPF_JSLE },
};

static const struct op_name sizes[] = {
	{ "b", BPF_B }, { "h", BPF_H }, { "w", BPF_W }, { "dw", BPF_DW },
};

static int lookup(const struct op_name *t, size_t n, const char *name, unsigned char *op)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(t[i].name, name)) {
			*op = t[i].op;
			return 1;
		}
	}
	return 0;
}

#define need_ops(c, n, want, what) \
	((n) != (want) ? asm_err(c, "Invalid number of operands for %s", what) : 0)

static int asm_lock(struct asm_ctx *c, char *rest)
{
	struct bpf_insn insn = { 0 };
	char *ops[ASM_MAX_OPS], *p, *name;
	unsigned char op = 0, size = BPF_DW;
	bool fetch = false;
	int n = 0, err;
	size_t len;

	rest = trim(rest);
	name = rest;
	while (*rest && !isspace((unsigned char)*rest))
		rest++;
	if (*rest)
		*rest++ = '\0';
	if (!strcmp(name, "fetch")) {
		fetch = true;
		rest = trim(rest);
		name = rest;
		while (*rest && !isspace((unsigned char)*rest))
			rest++;
		if (*rest)
			*rest++ = '\0';
	}
	if (!*name)
		return asm_err(c, "Invalid number of operands for lock");
	len = strlen(name);
	if (len > 2 && !strcmp(name + len - 2, "32")) {
		size = BPF_W;
		name[len - 2] = '\0';
	} else if (len > 2 && !strcmp(name + len - 2, "16") && strchr(name, '_')) {
		size = BPF_H;
		name[len - 2] = '\0';
	} else if (len > 1 && name[len - 1] == '8' && strchr(name, '_')) {
		size = BPF_B;
		name[len - 1] = '\0';
	}
	for (p = strtok(rest, ","); p && n < ASM_MAX_OPS; p = strtok(NULL, ","))
		ops[n++] = trim(p);
	if (n != 2)
		return asm_err(c, "Invalid number of operands for lock");
	if (!strcmp(name, "load_acquire") && !fetch) {
		/* dst = *(size *)(src + off): register first */
		insn.code = BPF_STX | BPF_ATOMIC | size;
		insn.imm = BPF_LOAD_ACQ;
		err = parse_reg(c, ops[0], &op);
		if (err)
			return err;
		insn.dst_reg = op;
		err = parse_mem(c, ops[1], &op, &insn.off);
		if (err)
			return err;
		insn.src_reg = op;
		return emit(c, insn);
	}
	if (!strcmp(name, "store_release") && !fetch) {
		insn.imm = BPF_STORE_REL;
	} else if (!strcmp(name, "xchg") && !fetch) {
		insn.imm = BPF_XCHG;
	} else if (!strcmp(name, "cmpxchg") && !fetch) {
		insn.imm = BPF_CMPXCHG;
	} else if (!strcmp(name, "add") || !strcmp(name, "and") || !strcmp(name, "or") ||
		   !strcmp(name, "xor")) {
		lookup(alu_ops, sizeof(alu_ops) / sizeof(alu_ops[0]), name, &op);
		insn.imm = op | (fetch ? BPF_FETCH : 0);
	} else {
		return asm_err(c, "Invalid lock operation '%s'", name);
	}
	insn.code = BPF_STX | BPF_ATOMIC | size;
	err = parse_mem(c, ops[0], &op, &insn.off);
	if (err)
		return err;
	insn.dst_reg = op;
	err = parse_reg(c, ops[1], &op);
	if (err)
		return err;
	insn.src_reg = op;
	return emit(c, insn);
}

static int asm_line(struct asm_ctx *c, char *line)
{
	struct bpf_insn insn = { 0 };
	char *ops[ASM_MAX_OPS], *mn, *rest, *p;
	unsigned char r, op, size;
	int n = 0, err;
	size_t len;
	bool is32;

	mn = line;
	rest = line;
	while (*rest && !isspace((unsigned char)*rest))
		rest++;
	if (*rest)
		*rest++ = '\0';
	if (!strcmp(mn, "lock"))
		return asm_lock(c, rest);

	rest = trim(rest);
	if (*rest) {
		for (p = strtok(rest, ","); p; p = strtok(NULL, ",")) {
			if (n >= ASM_MAX_OPS)
				return asm_err(c, "Invalid number of operands for %s", mn);
			ops[n++] = trim(p);
		}
	}

	if (!strcmp(mn, "exit")) {
		err = need_ops(c, n, 0, mn);
		insn.code = BPF_JMP | BPF_EXIT;
		return err ?: emit(c, insn);
	}
	if (!strcmp(mn, "call")) {
		insn.code = BPF_JMP | BPF_CALL;
		if (n == 1 && !strncmp(ops[0], "local", 5) && isspace((unsigned char)ops[0][5])) {
			insn.src_reg = BPF_PSEUDO_CALL;
			return parse_target(c, trim(ops[0] + 5), true, &insn) ?: emit(c, insn);
		}
		err = need_ops(c, n, 1, mn);
		if (err)
			return err;
		if (is_reg(ops[0])) {
			insn.code |= BPF_X;
			err = parse_reg(c, ops[0], &r);
			insn.dst_reg = r;
			return err ?: emit(c, insn);
		}
		return parse_imm32(c, ops[0], &insn.imm) ?: emit(c, insn);
	}
	if (!strcmp(mn, "ja") || !strcmp(mn, "ja32")) {
		bool is_imm = mn[2] == '3';

		err = need_ops(c, n, 1, mn);
		insn.code = (is_imm ? BPF_JMP32 : BPF_JMP) | BPF_JA;
		return err ?: parse_target(c, ops[0], is_imm, &insn) ?: emit(c, insn);
	}
	if (!strcmp(mn, "lddw")) {
		unsigned long long u;
		struct bpf_insn hi = { 0 };
		long long v;
		bool hex;

		err = need_ops(c, n, 2, mn);
		if (err)
			return err;
		err = parse_reg(c, ops[0], &r);
		if (err)
			return err;
		if (!parse_num(ops[1], &v, &u, &hex))
			return asm_err(c, "invalid immediate '%s'", ops[1]);
		insn.code = BPF_LD | BPF_IMM | BPF_DW;
		insn.dst_reg = r;
		insn.imm = (int)(unsigned int)u;
		hi.imm = (int)(unsigned int)(u >> 32);
		return emit(c, insn) ?: emit(c, hi);
	}

	len = strlen(mn);
	/* loads and stores */
	if (!strncmp(mn, "ldx", 3) || !strncmp(mn, "stx", 3) || !strncmp(mn, "st", 2)) {
		bool ldx = mn[0] == 'l', stx = !ldx && mn[2] == 'x', sx = false;
		const char *sz = mn + (ldx || stx ? 3 : 2);

		if (ldx && sz[0] == 's' && sz[1]) {
			sx = true;
			sz++;
		}
		if (!lookup(sizes, 4, sz, &size) || (sx && size == BPF_DW))
			return asm_err(c, "Invalid mnemonic '%s'", mn);
		err = need_ops(c, n, 2, mn);
		if (err)
			return err;
		if (ldx) {
			insn.code = BPF_LDX | (sx ? BPF_MEMSX : BPF_MEM) | size;
			err = parse_reg(c, ops[0], &r);
			insn.dst_reg = r;
			err = err ?: parse_mem(c, ops[1], &r, &insn.off);
			insn.src_reg = r;
		} else {
			insn.code = (stx ? BPF_STX : BPF_ST) | BPF_MEM | size;
			err = parse_mem(c, ops[0], &r, &insn.off);
			insn.dst_reg = r;
			if (!err && stx) {
				err = parse_reg(c, ops[1], &r);
				insn.src_reg = r;
			} else if (!err) {
				err = parse_imm32(c, ops[1], &insn.imm);
			}
		}
		return err ?: emit(c, insn);
	}

	/* byte swaps */
	if (!strncmp(mn, "le", 2) || !strncmp(mn, "be", 2) || !strncmp(mn, "bswap", 5) ||
	    !strncmp(mn, "swap", 4)) {
		const char *bits = mn + (mn[0] == 'b' && mn[1] == 's' ? 5 : mn[0] == 's' ? 4 : 2);

		if (strcmp(bits, "16") && strcmp(bits, "32") && strcmp(bits, "64"))
			return asm_err(c, "Invalid mnemonic '%s'", mn);
		err = need_ops(c, n, 1, mn);
		if (err)
			return err;
		if (mn[0] == 'l')
			insn.code = BPF_ALU | BPF_END | BPF_TO_LE;
		else if (mn[1] == 'e')
			insn.code = BPF_ALU | BPF_END | BPF_TO_BE;
		else
			insn.code = BPF_ALU64 | BPF_END | BPF_TO_LE;
		insn.imm = atoi(bits);
		err = parse_reg(c, ops[0], &r);
		insn.dst_reg = r;
		return err ?: emit(c, insn);
	}

	/* movsx{8,16,32}{32,64} */
	if (!strncmp(mn, "movsx", 5)) {
		static const struct { const char *s; short off; bool is64; } sx[] = {
			{ "832", 8, false }, { "1632", 16, false }, { "864", 8, true },
			{ "1664", 16, true }, { "3264", 32, true },
		};
		size_t k;

		for (k = 0; k < sizeof(sx) / sizeof(sx[0]); k++)
			if (!strcmp(mn + 5, sx[k].s))
				break;
		if (k == sizeof(sx) / sizeof(sx[0]))
			return asm_err(c, "Invalid mnemonic '%s'", mn);
		err = need_ops(c, n, 2, mn);
		if (err)
			return err;
		insn.code = (sx[k].is64 ? BPF_ALU64 : BPF_ALU) | BPF_MOV | BPF_X;
		insn.off = sx[k].off;
		err = parse_reg(c, ops[0], &r);
		insn.dst_reg = r;
		err = err ?: parse_reg(c, ops[1], &r);
		insn.src_reg = r;
		return err ?: emit(c, insn);
	}

	is32 = len > 2 && !strcmp(mn + len - 2, "32");
	{
		char base[32];

		if (len >= sizeof(base))
			return asm_err(c, "Invalid mnemonic '%s'", mn);
		memcpy(base, mn, len + 1);
		if (is32)
			base[len - 2] = '\0';

		if (lookup(alu_ops, sizeof(alu_ops) / sizeof(alu_ops[0]), base, &op)) {
			insn.code = (is32 ? BPF_ALU : BPF_ALU64) | op;
			if (base[0] == 's' && base[1] != 'u')	/* sdiv, smod */
				insn.off = 1;
			if (op == BPF_NEG) {
				err = need_ops(c, n, 1, mn);
				err = err ?: parse_reg(c, ops[0], &r);
				insn.dst_reg = r;
				return err ?: emit(c, insn);
			}
			err = need_ops(c, n, 2, mn);
			err = err ?: parse_reg(c, ops[0], &r);
			if (err)
				return err;
			insn.dst_reg = r;
			if (is_reg(ops[1])) {
				insn.code |= BPF_X;
				err = parse_reg(c, ops[1], &r);
				insn.src_reg = r;
			} else {
				err = parse_imm32(c, ops[1], &insn.imm);
			}
			return err ?: emit(c, insn);
		}
		if (lookup(jmp_ops, sizeof(jmp_ops) / sizeof(jmp_ops[0]), base, &op)) {
			insn.code = (is32 ? BPF_JMP32 : BPF_JMP) | op;
			err = need_ops(c, n, 3, mn);
			err = err ?: parse_reg(c, ops[0], &r);
			if (err)
				return err;
			insn.dst_reg = r;
			if (is_reg(ops[1])) {
				insn.code |= BPF_X;
				err = parse_reg(c, ops[1], &r);
				insn.src_reg = r;
			} else {
				err = parse_imm32(c, ops[1], &insn.imm);
			}
			return err ?: parse_target(c, ops[2], false, &insn) ?: emit(c, insn);
		}
	}
	return asm_err(c, "Invalid mnemonic '%s'", mn);
}

int bpf_asm(const char *src, struct bpf_insn *out, unsigned int max, char *err, size_t errlen)
{
	struct asm_ctx *c;
	char *text, *line, *save = NULL;
	unsigned int i, k;
	int ret = 0;

	c = calloc(1, sizeof(*c));
	text = strdup(src);
	if (!c || !text) {
		free(c);
		free(text);
		return -ENOMEM;
	}
	c->out = out;
	c->max = max;
	c->err = err;
	c->errlen = errlen;
	if (errlen)
		err[0] = '\0';

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *l;
		size_t n;

		c->line++;
		if (hash)
			*hash = '\0';
		l = trim(line);
		n = strlen(l);
		if (!n)
			continue;
		if (l[n - 1] == ':') {
			l[n - 1] = '\0';
			if (c->nr_labels >= ASM_MAX_LABELS) {
				ret = asm_err(c, "too many labels");
				goto out;
			}
			snprintf(c->labels[c->nr_labels].name, sizeof(c->labels[0].name), "%s", trim(l));
			c->labels[c->nr_labels++].pc = c->pc;
			continue;
		}
		ret = asm_line(c, l);
		if (ret)
			goto out;
	}

	for (i = 0; i < c->nr_fixups; i++) {
		struct asm_fixup *f = &c->fixups[i];
		long long rel;

		for (k = 0; k < c->nr_labels; k++)
			if (!strcmp(c->labels[k].name, f->name))
				break;
		if (k == c->nr_labels && !strcmp(f->name, "exit")) {
			/* ubpf: "exit" names the next exit instruction */
			unsigned int pc;

			for (pc = f->pc + 1; pc < c->pc; pc++)
				if (out[pc].code == (BPF_JMP | BPF_EXIT))
					break;
			if (pc < c->pc) {
				rel = (long long)pc - f->pc - 1;
				goto resolved;
			}
		}
		if (k == c->nr_labels) {
			c->line = f->line;
			ret = asm_err(c, "Invalid label '%s'", f->name);
			goto out;
		}
		rel = (long long)c->labels[k].pc - f->pc - 1;
resolved:
		if (f->imm) {
			out[f->pc].imm = (int)rel;
		} else {
			if (rel < -32768 || rel > 32767) {
				c->line = f->line;
				ret = asm_err(c, "jump to '%s' out of range", f->name);
				goto out;
			}
			out[f->pc].off = (short)rel;
		}
	}
	ret = (int)c->pc;
out:
	free(text);
	free(c);
	return ret;
}
