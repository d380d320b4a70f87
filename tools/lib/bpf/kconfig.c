// SPDX-License-Identifier: GPL-2.0
/*
 * __kconfig externs, as libbpf resolves them: clang puts each in the
 * DATASEC ".kconfig", libbpf makes it a read-only internal map
 * ("OBJ.kconfig"), and each extern gets its value:
 *   - LINUX_KERNEL_VERSION: KERNEL_VERSION() of uname's release (the
 *     patch level capped at 255), LINUX_HAS_SYSCALL_WRAPPER and
 *     LINUX_HAS_BPF_COOKIE: 1 (x86-64, Linux 6.18's features), any other
 *     LINUX_ name: refused unless __weak;
 *   - CONFIG_*: the line "CONFIG_X=..." of /boot/config-$(uname -r) or, if
 *     that cannot be read, /proc/config.gz: y/n/m for a bool (m refused),
 *     a tristate (enum libbpf_tristate: 0 n, 1 y, 2 m) or a char; a quoted
 *     string for a char array; a number for an integer that holds it;
 *   - an extern no line sets is 0 if __weak, else the load fails naming it.
 * UXDP_KCONFIG_PATH names another file to read (plain or gzip).
 *
 * Kernel: tools/lib/bpf/libbpf.c bpf_object__resolve_externs(),
 *	   bpf_object__read_kconfig_file(), bpf_object__process_kconfig_line(),
 *	   set_kcfg_value_tri(), set_kcfg_value_str(), set_kcfg_value_num(),
 *	   find_kcfg_type(), get_kernel_version()
 * Differs: with no readable config file the CONFIG_ externs are only
 *	    unset (weak ones 0) where libbpf fails the load ("failed to open
 *	    system Kconfig"); no Ubuntu /proc/version_signature; no
 *	    kconfig string of open options.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include <bpf/btf.h>

#include "kconfig.h"

enum kcfg_type {
	KCFG_UNKNOWN,
	KCFG_CHAR,
	KCFG_BOOL,
	KCFG_INT,
	KCFG_TRISTATE,
	KCFG_CHAR_ARR,
};

struct kcfg_ext {
	const char *name;
	enum kcfg_type type;
	u32 off, sz;
	bool is_signed, is_weak, is_set;
};

struct kcfg_ctx {
	struct kcfg_ext *ext;
	u32 n;
	u8 *data;
	char *err;
	size_t err_size;
};

static __attribute__((format(printf, 2, 3))) int kcfg_err(struct kcfg_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->err_size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const struct btf_type *skip_mods_and_typedefs(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

static enum kcfg_type find_kcfg_type(const struct btf *btf, u32 id, bool *is_signed)
{
	const struct btf_type *t = skip_mods_and_typedefs(btf, id);
	const char *name;

	if (!t)
		return KCFG_UNKNOWN;
	name = btf__name_by_offset(btf, t->name_off);
	*is_signed = false;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		u8 enc = btf_int_encoding(t);

		*is_signed = enc & BTF_INT_SIGNED;
		if (enc & BTF_INT_BOOL)
			return t->size == 1 ? KCFG_BOOL : KCFG_UNKNOWN;
		if (t->size == 1)
			return KCFG_CHAR;	/* any one-byte integer, as libbpf */
		if (t->size > 8 || (t->size & (t->size - 1)))
			return KCFG_UNKNOWN;
		return KCFG_INT;
	}
	case BTF_KIND_ENUM:
		if (t->size != 4)
			return KCFG_UNKNOWN;
		if (name && !strcmp(name, "libbpf_tristate"))
			return KCFG_TRISTATE;
		return KCFG_UNKNOWN;
	case BTF_KIND_ARRAY: {
		const struct btf_type *e = skip_mods_and_typedefs(btf, btf_array(t)->type);
		bool s;

		if (btf_array(t)->nelems == 0 || !e ||
		    find_kcfg_type(btf, btf_array(t)->type, &s) != KCFG_CHAR)
			return KCFG_UNKNOWN;
		return KCFG_CHAR_ARR;
	}
	default:
		return KCFG_UNKNOWN;
	}
}

static bool is_kcfg_value_in_range(const struct kcfg_ext *ext, u64 v)
{
	int bit_sz = ext->sz * 8;

	if (ext->sz == 8)
		return true;
	/* as libbpf: a signed value must fit as the sign-extended number */
	if (ext->is_signed)
		return v + (1ULL << (bit_sz - 1)) < (1ULL << bit_sz);
	return (v >> bit_sz) == 0;
}

static int set_kcfg_value_num(struct kcfg_ctx *c, struct kcfg_ext *ext, u64 v)
{
	u8 *p = c->data + ext->off;

	if (ext->type != KCFG_INT && ext->type != KCFG_CHAR && ext->type != KCFG_BOOL)
		return kcfg_err(c, "extern (kcfg) '%s': value '%llu' implies integer, char, or boolean type",
				ext->name, (unsigned long long)v);
	if (ext->type == KCFG_BOOL && v > 1)
		return kcfg_err(c, "extern (kcfg) '%s': value '%llu' isn't boolean compatible",
				ext->name, (unsigned long long)v);
	if (!is_kcfg_value_in_range(ext, v))
		return kcfg_err(c, "extern (kcfg) '%s': value '%llu' doesn't fit in %u bytes",
				ext->name, (unsigned long long)v, ext->sz);
	memcpy(p, &v, ext->sz);	/* little endian */
	ext->is_set = true;
	return 0;
}

static int set_kcfg_value_tri(struct kcfg_ctx *c, struct kcfg_ext *ext, char value)
{
	u8 *p = c->data + ext->off;
	u32 tri;

	switch (ext->type) {
	case KCFG_BOOL:
		if (value == 'm')
			return kcfg_err(c, "extern (kcfg) '%s': value '%c' implies tristate or char type",
					ext->name, value);
		*p = value == 'y';
		break;
	case KCFG_TRISTATE:
		tri = value == 'y' ? 1 : value == 'm' ? 2 : 0;
		memcpy(p, &tri, sizeof(tri));
		break;
	case KCFG_CHAR:
		*p = (u8)value;
		break;
	default:
		return kcfg_err(c, "extern (kcfg) '%s': value '%c' implies bool, tristate, or char type",
				ext->name, value);
	}
	ext->is_set = true;
	return 0;
}

static int set_kcfg_value_str(struct kcfg_ctx *c, struct kcfg_ext *ext, const char *value)
{
	size_t len = strlen(value);

	if (ext->type != KCFG_CHAR_ARR)
		return kcfg_err(c, "extern (kcfg) '%s': value '%s' implies char array type",
				ext->name, value);
	if (len < 2 || value[len - 1] != '"')
		return kcfg_err(c, "extern (kcfg) '%s': invalid string config '%s'", ext->name,
				value);
	len -= 2;
	if (len >= ext->sz)
		len = ext->sz - 1;	/* libbpf truncates too */
	memcpy(c->data + ext->off, value + 1, len);
	c->data[ext->off + len] = 0;
	ext->is_set = true;
	return 0;
}

static struct kcfg_ext *find_ext(struct kcfg_ctx *c, const char *name)
{
	u32 i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->ext[i].name, name))
			return &c->ext[i];
	return NULL;
}

static int process_kconfig_line(struct kcfg_ctx *c, char *buf)
{
	struct kcfg_ext *ext;
	char *sep, *value;
	size_t len;

	if (strncmp(buf, "CONFIG_", 7))
		return 0;
	len = strlen(buf);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = 0;
	sep = strchr(buf, '=');
	if (!sep)
		return kcfg_err(c, "kconfig: failed to parse '%s': no separator", buf);
	*sep = 0;
	if (!sep[1]) {
		*sep = '=';
		return kcfg_err(c, "kconfig: failed to parse '%s': no value", buf);
	}
	ext = find_ext(c, buf);
	if (!ext || ext->is_set)
		return 0;
	value = sep + 1;
	switch (*value) {
	case 'y':
	case 'n':
	case 'm':
		return set_kcfg_value_tri(c, ext, *value);
	case '"':
		return set_kcfg_value_str(c, ext, value);
	default: {
		char *end;
		u64 num;

		errno = 0;
		num = strtoull(value, &end, 0);
		if (errno || *end || end == value)
			return kcfg_err(c, "extern (kcfg) '%s': value '%s' isn't a valid integer",
					ext->name, value);
		if (ext->type != KCFG_INT && ext->type != KCFG_CHAR)
			return kcfg_err(c, "extern (kcfg) '%s': value '%s' implies integer type",
					ext->name, value);
		return set_kcfg_value_num(c, ext, num);
	}
	}
}

/* The config file: UXDP_KCONFIG_PATH, /boot/config-RELEASE, /proc/config.gz. */
static gzFile open_kconfig(void)
{
	const char *env = getenv("UXDP_KCONFIG_PATH");
	struct utsname uts;
	char path[PATH_MAX];
	gzFile f;

	if (env && *env)
		return gzopen(env, "re");
	if (!uname(&uts)) {
		snprintf(path, sizeof(path), "/boot/config-%s", uts.release);
		f = gzopen(path, "re");	/* gzopen reads plain files too */
		if (f)
			return f;
	}
	return gzopen("/proc/config.gz", "re");
}

static int read_kconfig(struct kcfg_ctx *c)
{
	char buf[PATH_MAX];
	gzFile f = open_kconfig();
	int err = 0;

	if (!f)
		return 0;	/* no config: every CONFIG_ extern stays unset */
	while (gzgets(f, buf, sizeof(buf))) {
		err = process_kconfig_line(c, buf);
		if (err)
			break;
	}
	gzclose(f);
	return err;
}

static u64 kernel_version(void)
{
	unsigned int major, minor, patch;
	struct utsname uts;

	if (uname(&uts) || sscanf(uts.release, "%u.%u.%u", &major, &minor, &patch) != 3)
		return 0;
	return ((u64)major << 16) + ((u64)minor << 8) + (patch > 255 ? 255 : patch);
}

static int set_virtual(struct kcfg_ctx *c, struct kcfg_ext *ext)
{
	u64 v;

	if (!strcmp(ext->name, "LINUX_KERNEL_VERSION")) {
		v = kernel_version();
		if (!v)
			return kcfg_err(c, "extern (kcfg) '%s': failed to get kernel version",
					ext->name);
	} else if (!strcmp(ext->name, "LINUX_HAS_BPF_COOKIE") ||
		   !strcmp(ext->name, "LINUX_HAS_SYSCALL_WRAPPER")) {
		v = 1;
	} else if (strncmp(ext->name, "LINUX_", 6) || !ext->is_weak) {
		return kcfg_err(c, "extern (kcfg) '%s': unrecognized virtual extern", ext->name);
	} else {
		return 0;	/* a weak LINUX_ extern libbpf does not know: 0 */
	}
	return set_kcfg_value_num(c, ext, v);
}

static int collect(const struct btf *btf, u32 datasec_id, struct kcfg_ctx *c, u32 size,
		   bool (*is_weak)(void *ctx, const char *name), void *ctx)
{
	const struct btf_type *sec = btf__type_by_id(btf, datasec_id);
	const struct btf_var_secinfo *vs;
	u32 i;

	if (!sec || !btf_is_datasec(sec))
		return kcfg_err(c, "kconfig: BTF type %u is not the .kconfig DATASEC", datasec_id);
	c->n = btf_vlen(sec);
	c->ext = calloc(c->n ? c->n : 1, sizeof(*c->ext));
	if (!c->ext)
		return -ENOMEM;
	vs = btf_var_secinfos(sec);
	for (i = 0; i < c->n; i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);
		struct kcfg_ext *ext = &c->ext[i];

		if (!var || !btf_is_var(var))
			return kcfg_err(c, "kconfig: entry %u of .kconfig is not a variable", i);
		ext->name = btf__name_by_offset(btf, var->name_off);
		if (!ext->name)
			return kcfg_err(c, "kconfig: entry %u of .kconfig has no name", i);
		ext->type = find_kcfg_type(btf, var->type, &ext->is_signed);
		if (ext->type == KCFG_UNKNOWN)
			return kcfg_err(c, "extern (kcfg) '%s': type is unsupported", ext->name);
		ext->off = vs->offset;
		ext->sz = vs->size;
		if (!ext->sz || ext->off > size || ext->sz > size - ext->off)
			return kcfg_err(c, "extern (kcfg) '%s': offset %u size %u past the %u-byte map",
					ext->name, ext->off, ext->sz, size);
		if ((ext->type == KCFG_TRISTATE && ext->sz != 4) ||
		    ((ext->type == KCFG_BOOL || ext->type == KCFG_CHAR) && ext->sz != 1))
			return kcfg_err(c, "extern (kcfg) '%s': size %u does not fit its type",
					ext->name, ext->sz);
		ext->is_weak = is_weak(ctx, ext->name);
	}
	return 0;
}

int bpf_kconfig_fill(const struct btf *btf, u32 datasec_id, void *data, u32 size,
		     bool (*is_weak)(void *ctx, const char *name), void *ctx, char *err,
		     size_t err_size)
{
	struct kcfg_ctx c = { .data = data, .err = err, .err_size = err_size };
	bool need_config = false;
	int ret;
	u32 i;

	memset(data, 0, size);
	ret = collect(btf, datasec_id, &c, size, is_weak, ctx);
	for (i = 0; !ret && i < c.n; i++) {
		if (!strncmp(c.ext[i].name, "CONFIG_", 7))
			need_config = true;
		else
			ret = set_virtual(&c, &c.ext[i]);
	}
	if (!ret && need_config)
		ret = read_kconfig(&c);
	for (i = 0; !ret && i < c.n; i++) {
		if (!c.ext[i].is_set && !c.ext[i].is_weak) {
			kcfg_err(&c, "extern '%s' (strong): not resolved", c.ext[i].name);
			ret = -ESRCH;
		}
	}
	free(c.ext);
	return ret;
}

int bpf_kconfig_var_off(const struct btf *btf, u32 datasec_id, const char *name)
{
	const struct btf_type *sec = btf__type_by_id(btf, datasec_id);
	const struct btf_var_secinfo *vs;
	u32 i;

	if (!sec || !btf_is_datasec(sec))
		return -ENOENT;
	vs = btf_var_secinfos(sec);
	for (i = 0; i < btf_vlen(sec); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);
		const char *vname = var ? btf__name_by_offset(btf, var->name_off) : NULL;

		if (vname && !strcmp(vname, name))
			return (int)vs->offset;
	}
	return -ENOENT;
}
