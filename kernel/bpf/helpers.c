// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers every program type may call: map element access, clocks, the
 * per-worker PRNG, the CPU (worker) id, the tail call prototype, and the
 * printf family (bpf_trace_printk, bpf_trace_vprintk, bpf_snprintf) with the
 * kernel's format checks, writing into the process's trace buffer that the
 * CLI drains like trace_pipe.
 *
 * Format checking and formatting follow bpf_bprintf_prepare(): only
 * %d %i %u %x %X with optional l/ll, %c, %s, %% and the %p family
 * (%p %pK %px %ps %pS %pB %pks %pus %pI4 %pi4 %pI6 %pi6), flags "0+- " and
 * a width; anything else, a non-printable character, or more conversions
 * than arguments is -EINVAL. Strings and addresses are copied into a
 * 512-byte argument area first, as in the kernel, so very long strings are
 * cut and a full area gives -ENOSPC.
 *
 * bpf_strtol() parses as the kernel's __bpf_strtoll(): spaces, one '-', at
 * most 63 characters, base 0 (C prefixes), 8, 10 or 16.
 *
 * bpf_spin_lock()/bpf_spin_unlock() take the lock word of a map value
 * (see <linux/bpf.h>).
 *
 * Dynptrs: the helpers (bpf_dynptr_read/write/data) and the kfuncs of the
 * common set (bpf_dynptr_slice/_rdwr, _adjust, _is_null, _is_rdonly, _size,
 * _clone) over the XDP dynptrs bpf_dynptr_from_xdp() makes
 * (net/core/filter.c).
 *
 * Kernel: kernel/bpf/helpers.c bpf_map_*_elem(), bpf_ktime_get_*(),
 *         bpf_spin_lock(), bpf_spin_unlock(), copy_map_value_locked(),
 *         bpf_bprintf_prepare(), bpf_snprintf(), bpf_strtol(), bpf_dynptr_read(),
 *         bpf_dynptr_write(), bpf_dynptr_data(), bpf_dynptr_slice(),
 *         bpf_dynptr_slice_rdwr(), bpf_dynptr_adjust(), bpf_dynptr_is_null(),
 *         bpf_dynptr_is_rdonly(), bpf_dynptr_size(), bpf_dynptr_clone();
 *         kernel/trace/bpf_trace.c bpf_trace_printk(), bpf_trace_vprintk();
 *         lib/random32.c prandom_u32_state()
 * Differs: plain %p prints the raw address (the kernel prints a hashed
 *          value) and %ps/%pS/%pB print it as %px (no symbols); pointers
 *          followed by %s and %pI4/6 are bounded by bpf_probe_read_limit,
 *          not by page faults; the trace buffer is a 64 KiB line buffer
 *          under a mutex, not the ftrace ring (a full buffer drops new
 *          messages); messages always end in one '\n'.
 *          Only XDP dynptrs exist, so a dynptr of another type (which the
 *          verifier cannot produce) gets -EFAULT or NULL.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/smp.h>
#include <net/xdp.h>

/* ---- map elements ------------------------------------------------------- */

/*
 * The load-time checker only lets a program pass a map to the helpers its
 * type supports (check_map_func_compatibility()); a missing op still ends
 * in an error here rather than a NULL call.
 */
BPF_CALL_2(bpf_map_lookup_elem, struct bpf_map *, map, void *, key)
{
	if (unlikely(!map->ops->map_lookup_elem))
		return 0;
	return (uintptr_t)map->ops->map_lookup_elem(map, key);
}

const struct bpf_func_proto bpf_map_lookup_elem_proto = {
	.func		= bpf_map_lookup_elem,
	.name		= "bpf_map_lookup_elem",
	.gpl_only	= false,
	.pkt_access	= true,
	.ret_type	= RET_PTR_TO_MAP_VALUE_OR_NULL,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY },
};

BPF_CALL_4(bpf_map_update_elem, struct bpf_map *, map, void *, key, void *, value, u64, flags)
{
	if (unlikely(!map->ops->map_update_elem))
		return -EOPNOTSUPP;
	return map->ops->map_update_elem(map, key, value, flags);
}

const struct bpf_func_proto bpf_map_update_elem_proto = {
	.func		= bpf_map_update_elem,
	.name		= "bpf_map_update_elem",
	.gpl_only	= false,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY, ARG_PTR_TO_MAP_VALUE,
			    ARG_ANYTHING },
};

BPF_CALL_2(bpf_map_delete_elem, struct bpf_map *, map, void *, key)
{
	if (unlikely(!map->ops->map_delete_elem))
		return -EOPNOTSUPP;
	return map->ops->map_delete_elem(map, key);
}

const struct bpf_func_proto bpf_map_delete_elem_proto = {
	.func		= bpf_map_delete_elem,
	.name		= "bpf_map_delete_elem",
	.gpl_only	= false,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY },
};

BPF_CALL_3(bpf_map_push_elem, struct bpf_map *, map, void *, value, u64, flags)
{
	if (unlikely(!map->ops->map_push_elem))
		return -EOPNOTSUPP;
	return map->ops->map_push_elem(map, value, flags);
}

const struct bpf_func_proto bpf_map_push_elem_proto = {
	.func		= bpf_map_push_elem,
	.name		= "bpf_map_push_elem",
	.gpl_only	= false,
	.pkt_access	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_VALUE, ARG_ANYTHING },
};

BPF_CALL_2(bpf_map_pop_elem, struct bpf_map *, map, void *, value)
{
	if (unlikely(!map->ops->map_pop_elem))
		return -EOPNOTSUPP;
	return map->ops->map_pop_elem(map, value);
}

const struct bpf_func_proto bpf_map_pop_elem_proto = {
	.func		= bpf_map_pop_elem,
	.name		= "bpf_map_pop_elem",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_PTR_TO_UNINIT_MAP_VALUE },
};

BPF_CALL_2(bpf_map_peek_elem, struct bpf_map *, map, void *, value)
{
	if (unlikely(!map->ops->map_peek_elem))
		return -EOPNOTSUPP;
	return map->ops->map_peek_elem(map, value);
}

const struct bpf_func_proto bpf_map_peek_elem_proto = {
	.func		= bpf_map_peek_elem,
	.name		= "bpf_map_peek_elem",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_CONST_MAP_PTR, ARG_PTR_TO_UNINIT_MAP_VALUE },
};

/* ---- clocks, CPU, random ------------------------------------------------ */

static u64 clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

BPF_CALL_0(bpf_ktime_get_ns)
{
	return clock_ns(CLOCK_MONOTONIC);
}

const struct bpf_func_proto bpf_ktime_get_ns_proto = {
	.func		= bpf_ktime_get_ns,
	.name		= "bpf_ktime_get_ns",
	.ret_type	= RET_INTEGER,
};

BPF_CALL_0(bpf_ktime_get_boot_ns)
{
	return clock_ns(CLOCK_BOOTTIME);
}

const struct bpf_func_proto bpf_ktime_get_boot_ns_proto = {
	.func		= bpf_ktime_get_boot_ns,
	.name		= "bpf_ktime_get_boot_ns",
	.ret_type	= RET_INTEGER,
};

BPF_CALL_0(bpf_ktime_get_coarse_ns)
{
	return clock_ns(CLOCK_MONOTONIC_COARSE);
}

const struct bpf_func_proto bpf_ktime_get_coarse_ns_proto = {
	.func		= bpf_ktime_get_coarse_ns,
	.name		= "bpf_ktime_get_coarse_ns",
	.ret_type	= RET_INTEGER,
};

BPF_CALL_0(bpf_ktime_get_tai_ns)
{
	return clock_ns(CLOCK_TAI);
}

const struct bpf_func_proto bpf_ktime_get_tai_ns_proto = {
	.func		= bpf_ktime_get_tai_ns,
	.name		= "bpf_ktime_get_tai_ns",
	.ret_type	= RET_INTEGER,
};

BPF_CALL_0(bpf_get_smp_processor_id)
{
	return smp_processor_id();
}

const struct bpf_func_proto bpf_get_smp_processor_id_proto = {
	.func		= bpf_get_smp_processor_id,
	.name		= "bpf_get_smp_processor_id",
	.ret_type	= RET_INTEGER,
};

/* One NUMA node: workers are not placed by node (yet). */
BPF_CALL_0(bpf_get_numa_node_id)
{
	return 0;
}

const struct bpf_func_proto bpf_get_numa_node_id_proto = {
	.func		= bpf_get_numa_node_id,
	.name		= "bpf_get_numa_node_id",
	.ret_type	= RET_INTEGER,
};

/* lib/random32.c: four-component Tausworthe generator (L'Ecuyer, LFSR113). */
struct rnd_state {
	u32 s1, s2, s3, s4;
};

static u32 prandom_u32_state(struct rnd_state *st)
{
#define TAUSWORTHE(s, a, b, c, d) ((((s) & (c)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))
	st->s1 = TAUSWORTHE(st->s1, 6U, 13U, 4294967294U, 18U);
	st->s2 = TAUSWORTHE(st->s2, 2U, 27U, 4294967288U, 2U);
	st->s3 = TAUSWORTHE(st->s3, 13U, 21U, 4294967280U, 7U);
	st->s4 = TAUSWORTHE(st->s4, 3U, 12U, 4294967168U, 13U);
#undef TAUSWORTHE
	return st->s1 ^ st->s2 ^ st->s3 ^ st->s4;
}

/* Each component needs a minimum value to have a full period. */
static u32 rnd_seed_min(u32 x, u32 m)
{
	return x < m ? x + m : x;
}

static void prandom_seed_state(struct rnd_state *st, u64 seed)
{
	u32 i = (u32)((seed >> 32) ^ (seed << 10) ^ seed);
	int k;

	st->s1 = rnd_seed_min(i, 2U);
	st->s2 = rnd_seed_min(i, 8U);
	st->s3 = rnd_seed_min(i, 16U);
	st->s4 = rnd_seed_min(i, 128U);
	/* Warm up so that nearby seeds give unrelated first outputs. */
	for (k = 0; k < 10; k++)
		prandom_u32_state(st);
}

static u64 rnd_seed;
static u32 rnd_seed_gen;			/* 0: never seeded, random per worker */
static __thread struct rnd_state rnd_state;
static __thread u32 rnd_state_gen;
static __thread bool rnd_state_init;

void bpf_user_rnd_seed(u64 seed)
{
	rnd_seed = seed;
	__atomic_add_fetch(&rnd_seed_gen, 1, __ATOMIC_RELEASE);
}

static struct rnd_state *bpf_user_rnd_state(void)
{
	u32 gen = __atomic_load_n(&rnd_seed_gen, __ATOMIC_ACQUIRE);
	u64 seed;

	if (likely(rnd_state_init && rnd_state_gen == gen))
		return &rnd_state;
	if (gen) {
		/* Reproducible: the same (seed, cpu) gives the same sequence. */
		seed = rnd_seed ^ ((u64)smp_processor_id() * 0x9e3779b97f4a7c15ULL);
	} else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed)) {
		seed = clock_ns(CLOCK_MONOTONIC) ^ (uintptr_t)&rnd_state;
	}
	prandom_seed_state(&rnd_state, seed);
	rnd_state_gen = gen;
	rnd_state_init = true;
	return &rnd_state;
}

BPF_CALL_0(bpf_user_rnd_u32)
{
	return prandom_u32_state(bpf_user_rnd_state());
}

const struct bpf_func_proto bpf_get_prandom_u32_proto = {
	.func		= bpf_user_rnd_u32,
	.name		= "bpf_get_prandom_u32",
	.ret_type	= RET_INTEGER,
};

/* ---- tail call ---------------------------------------------------------- */

/* The interpreter jumps for helper 12; this body only guards a stray call. */
BPF_CALL_3(bpf_tail_call, void *, ctx, struct bpf_map *, map, u32, index)
{
	return -EINVAL;
}

const struct bpf_func_proto bpf_tail_call_proto = {
	.func		= bpf_tail_call,
	.name		= "bpf_tail_call",
	.gpl_only	= false,
	.ret_type	= RET_VOID,
	.arg_type	= { ARG_PTR_TO_CTX, ARG_CONST_MAP_PTR, ARG_ANYTHING },
};

/* ---- printf family ------------------------------------------------------ */

#define MAX_TRACE_PRINTK_VARARGS	3
#define MAX_BPRINTF_VARARGS		12
#define MAX_BPRINTF_BUF			1024
#define MAX_BPRINTF_BIN_ARGS		512

__thread size_t (*bpf_probe_read_limit)(const void *ptr);

/* ASCII-only classes of the kernel's <linux/ctype.h> (no locale). */
static bool b_isascii(char c) { return (unsigned char)c < 0x80; }
static bool b_isspace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static bool b_isprint(char c) { return c >= 0x20 && c < 0x7f; }
static bool b_isdigit(char c) { return c >= '0' && c <= '9'; }
static bool b_isalnum(char c)
{
	return b_isdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool b_ispunct(char c) { return b_isprint(c) && !b_isalnum(c) && c != ' '; }

enum bprintf_kind {
	BP_INT,		/* d i u x X, with size 4 or 8 */
	BP_CHAR,
	BP_STR,		/* %s */
	BP_PRESTR,	/* %pks %pus %pI4 %pi4 %pI6 %pi6: a string prepared in bin */
	BP_PTR,		/* %p %pK %px %ps %pS %pB: printed as the raw address */
};

struct bprintf_spec {
	u32 start;		/* index of '%' */
	u32 end;		/* one past the spec, trailing alnum of %p included */
	char flags[5];
	int width;		/* -1: none */
	char conv;
	u8 size;		/* BP_INT: 4 or 8 */
	enum bprintf_kind kind;
};

struct bprintf_data {
	struct bprintf_spec spec[MAX_BPRINTF_VARARGS];
	u32 nr;
	u32 fmt_len;
	u32 bin_used;
	char bin[MAX_BPRINTF_BIN_ARGS];
};

/* Readable bytes at @ptr as the running program's memory, at most @max. */
static size_t probe_read(void *dst, const void *ptr, size_t max)
{
	size_t lim = bpf_probe_read_limit && ptr ? bpf_probe_read_limit(ptr) : 0;

	if (lim > max)
		lim = max;
	if (lim)
		memcpy(dst, ptr, lim);
	return lim;
}

/* strncpy_from_kernel_nofault(): copies at most @size bytes, NUL included. */
static int copy_string(char *dst, const char *src, size_t size)
{
	size_t lim = bpf_probe_read_limit && src ? bpf_probe_read_limit(src) : 0;
	size_t n;

	if (!lim)
		return -EFAULT;
	if (lim > size)
		lim = size;
	for (n = 0; n < lim; n++) {
		dst[n] = src[n];
		if (!src[n])
			return n + 1;
	}
	/* No NUL within reach: truncate, as strncpy_from_kernel_nofault does. */
	dst[lim - 1] = '\0';
	return lim;
}

static int bprintf_ip(struct bprintf_data *d, struct bprintf_spec *sp, char kind, char ver,
		      const void *ptr)
{
	u32 room = MAX_BPRINTF_BIN_ARGS - d->bin_used;
	size_t len = ver == '4' ? 4 : 16;
	u8 ip[16] = { 0 };
	char tmp[48];
	int n, k;

	if (room < len)
		return -ENOSPC;
	if (probe_read(ip, ptr, len) != len)
		memset(ip, 0, sizeof(ip));
	if (ver == '4')
		n = snprintf(tmp, sizeof(tmp), kind == 'I' ? "%u.%u.%u.%u" : "%03u.%03u.%03u.%03u",
			     ip[0], ip[1], ip[2], ip[3]);
	else
		for (n = 0, k = 0; k < 16; k += 2)
			n += snprintf(tmp + n, sizeof(tmp) - n, "%02x%02x%s", ip[k], ip[k + 1],
				      kind == 'I' && k < 14 ? ":" : "");
	/* Kept with its NUL, cut to what is left of the area. */
	if ((u32)n + 1 > room) {
		n = room - 1;
		tmp[n] = '\0';
	}
	memcpy(d->bin + d->bin_used, tmp, n + 1);
	sp->kind = BP_PRESTR;
	d->bin_used += n + 1;
	return 0;
}

/*
 * bpf_bprintf_prepare(): check @fmt (NUL-terminated within @fmt_size) and
 * capture up to @num_args arguments into @d. Returns 0 or -EINVAL/-ENOSPC.
 */
static int bpf_bprintf_prepare(const char *fmt, u32 fmt_size, const u64 *args, u32 num_args,
			       struct bprintf_data *d)
{
	size_t fmt_len = strnlen(fmt, fmt_size);
	u32 i, num_spec = 0;
	int err;

	if (fmt_len == fmt_size)
		return -EINVAL;
	d->fmt_len = fmt_len;
	d->nr = 0;
	d->bin_used = 0;
	memset(d->bin, 0, sizeof(d->bin));

	for (i = 0; i < d->fmt_len; i++) {
		struct bprintf_spec *sp;
		u32 nflags = 0;
		char ptype;

		if ((!b_isprint(fmt[i]) && !b_isspace(fmt[i])) || !b_isascii(fmt[i]))
			return -EINVAL;
		if (fmt[i] != '%')
			continue;
		if (fmt[i + 1] == '%') {
			i++;
			continue;
		}
		if (num_spec >= num_args)
			return -EINVAL;

		sp = &d->spec[num_spec];
		memset(sp, 0, sizeof(*sp));
		sp->start = i;
		sp->width = -1;
		i++;	/* fmt is NUL-terminated: fmt[i] is at worst the NUL */
		while (fmt[i] == '0' || fmt[i] == '+' || fmt[i] == '-' || fmt[i] == ' ') {
			if (nflags < sizeof(sp->flags) - 1 && !strchr(sp->flags, fmt[i]))
				sp->flags[nflags++] = fmt[i];
			i++;
		}
		if (fmt[i] >= '1' && fmt[i] <= '9') {
			sp->width = 0;
			while (b_isdigit(fmt[i])) {
				if (sp->width < 10000)
					sp->width = sp->width * 10 + (fmt[i] - '0');
				i++;
			}
		}

		if (fmt[i] == 'p') {
			char n1 = fmt[i + 1];

			sp->conv = 'p';
			if ((n1 == 'k' || n1 == 'u') && fmt[i + 2] == 's') {
				ptype = n1;
				i += 2;
				goto fmt_str;
			}
			if (n1 == 0 || b_isspace(n1) || b_ispunct(n1) || n1 == 'K' || n1 == 'x' ||
			    n1 == 's' || n1 == 'S' || n1 == 'B') {
				sp->kind = BP_PTR;
				if (n1 != 0 && !b_isspace(n1) && !b_ispunct(n1))
					i++;
				goto next;
			}
			/* Only "%pI4", "%pi4", "%pI6" and "%pi6". */
			if ((n1 != 'i' && n1 != 'I') || (fmt[i + 2] != '4' && fmt[i + 2] != '6'))
				return -EINVAL;
			err = bprintf_ip(d, sp, n1, fmt[i + 2],
					 (const void *)(uintptr_t)args[num_spec]);
			if (err)
				return err;
			i += 2;
			goto next;
		} else if (fmt[i] == 's') {
			sp->conv = 's';
			ptype = 's';
fmt_str:
			if (fmt[i + 1] != 0 && !b_isspace(fmt[i + 1]) && !b_ispunct(fmt[i + 1]))
				return -EINVAL;
			if (d->bin_used == MAX_BPRINTF_BIN_ARGS)
				return -ENOSPC;
			/*
			 * Everything a program can point at is kernel memory to
			 * the kernel, so "%pus" (a user address) always faults.
			 */
			err = ptype == 'u' ? -EFAULT :
			      copy_string(d->bin + d->bin_used,
					  (const char *)(uintptr_t)args[num_spec],
					  MAX_BPRINTF_BIN_ARGS - d->bin_used);
			if (err < 0) {
				d->bin[d->bin_used] = '\0';
				err = 1;
			}
			sp->kind = sp->conv == 's' ? BP_STR : BP_PRESTR;
			d->bin_used += err;
			goto next;
		} else if (fmt[i] == 'c') {
			if (d->bin_used == MAX_BPRINTF_BIN_ARGS)
				return -ENOSPC;
			sp->conv = 'c';
			sp->kind = BP_CHAR;
			d->bin[d->bin_used++] = (u8)args[num_spec];
			goto next;
		}

		sp->size = 4;
		if (fmt[i] == 'l') {
			sp->size = 8;
			i++;
		}
		if (fmt[i] == 'l')
			i++;
		if (fmt[i] != 'i' && fmt[i] != 'd' && fmt[i] != 'u' && fmt[i] != 'x' &&
		    fmt[i] != 'X')
			return -EINVAL;
		sp->conv = fmt[i];
		sp->kind = BP_INT;
next:
		if (sp->kind == BP_INT || sp->kind == BP_PTR) {
			u32 size = sp->kind == BP_INT ? sp->size : 8;

			/* Integers and pointers take 4-byte aligned slots. */
			d->bin_used = ALIGN(d->bin_used, 4U);
			if (MAX_BPRINTF_BIN_ARGS - d->bin_used < size)
				return -ENOSPC;
			memcpy(d->bin + d->bin_used, &args[num_spec], size);
			d->bin_used += size;
		}
		sp->end = i + 1;
		num_spec++;
		d->nr = num_spec;
	}
	return 0;
}

/* Append at *@pos, counting what does not fit (vsnprintf semantics). */
static void out_put(char *buf, size_t size, size_t *pos, const char *s, size_t len)
{
	if (*pos < size) {
		size_t room = size - 1 - *pos;

		memcpy(buf + *pos, s, len < room ? len : room);
	}
	*pos += len;
}

/* get_arg() of the kernel's bstr_printf(), bounded to the area. */
static void bin_get(const struct bprintf_data *d, u32 *cur, void *dst, u32 size, u32 align)
{
	*cur = ALIGN(*cur, align);
	if (*cur + size <= MAX_BPRINTF_BIN_ARGS)
		memcpy(dst, d->bin + *cur, size);
	else
		memset(dst, 0, size);
	*cur += size;
}

static const char *bin_str(const struct bprintf_data *d, u32 *cur, size_t *len)
{
	const char *str = *cur < MAX_BPRINTF_BIN_ARGS ? d->bin + *cur : "";

	*len = *cur < MAX_BPRINTF_BIN_ARGS ? strnlen(str, MAX_BPRINTF_BIN_ARGS - *cur) : 0;
	return str;
}

/* Append @n copies of @c at *@pos, counting what does not fit. */
static void out_pad(char *buf, size_t size, size_t *pos, char c, size_t n)
{
	if (*pos < size) {
		size_t room = size - 1 - *pos;

		memset(buf + *pos, c, n < room ? n : room);
	}
	*pos += n;
}

/*
 * One field, as the kernel's number() and string() lay it out: @sign
 * (or none), then @body, padded to @width with spaces on the left, on
 * the right for '-', or with zeros between sign and body for '0'.
 */
static void out_field(char *buf, size_t size, size_t *pos, const struct bprintf_spec *sp,
		      char sign, const char *body, size_t len, bool zero_ok)
{
	size_t need = len + (sign != 0);
	size_t pad = sp->width > 0 && (size_t)sp->width > need ? sp->width - need : 0;
	bool left = strchr(sp->flags, '-') != NULL;
	bool zero = !left && zero_ok && strchr(sp->flags, '0') != NULL;

	if (pad && !left && !zero)
		out_pad(buf, size, pos, ' ', pad);
	if (sign)
		out_put(buf, size, pos, &sign, 1);
	if (pad && zero)
		out_pad(buf, size, pos, '0', pad);
	out_put(buf, size, pos, body, len);
	if (pad && left)
		out_pad(buf, size, pos, ' ', pad);
}

/* Digits of @v in base 10 or 16 at the end of @end's buffer; returns the first. */
static char *fmt_digits(char *end, u64 v, bool hex, bool upper)
{
	const char *xd = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	do {
		if (hex) {
			*--end = xd[v & 15];
			v >>= 4;
		} else {
			*--end = '0' + v % 10;
			v /= 10;
		}
	} while (v);
	return end;
}

static void out_fmt(char *buf, size_t size, size_t *pos, const struct bprintf_spec *sp,
		    const struct bprintf_data *d, u32 *cur)
{
	char tmp[24], *end = tmp + sizeof(tmp), *s;
	const char *str;
	char sign = 0;
	size_t len;
	u64 v = 0;
	u32 w = 0;
	u8 c;

	switch (sp->kind) {
	case BP_PRESTR:
		/*
		 * Prepared strings are copied without width, and only while
		 * there is room: past the end they count for nothing and, as
		 * in the kernel, do not even consume their bytes of the area.
		 */
		str = bin_str(d, cur, &len);
		if (*pos < size) {
			out_put(buf, size, pos, str, len);
			*cur += len + 1;
		}
		return;
	case BP_INT:
		if (sp->size == 8) {
			bin_get(d, cur, &v, 8, 4);
		} else {
			bin_get(d, cur, &w, 4, 4);
			v = sp->conv == 'd' || sp->conv == 'i' ? (u64)(s64)(s32)w : w;
		}
		if (sp->conv == 'd' || sp->conv == 'i') {
			if ((s64)v < 0) {
				sign = '-';
				v = -v;
			} else if (strchr(sp->flags, '+')) {
				sign = '+';
			} else if (strchr(sp->flags, ' ')) {
				sign = ' ';
			}
		}
		s = fmt_digits(end, v, sp->conv == 'x' || sp->conv == 'X', sp->conv == 'X');
		out_field(buf, size, pos, sp, sign, s, end - s, true);
		return;
	case BP_PTR:
		bin_get(d, cur, &v, 8, 4);
		s = fmt_digits(end, v, true, false);
		/* pointer_string(): 16 zero-padded hex digits unless a width is given. */
		if (sp->width < 0) {
			while (end - s < 16)
				*--s = '0';
			out_put(buf, size, pos, s, end - s);
			return;
		}
		out_field(buf, size, pos, sp, 0, s, end - s, true);
		return;
	case BP_CHAR:
		bin_get(d, cur, &c, 1, 1);
		out_field(buf, size, pos, sp, 0, (const char *)&c, 1, false);
		return;
	case BP_STR:
		str = bin_str(d, cur, &len);
		*cur += len + 1;
		out_field(buf, size, pos, sp, 0, str, len, false);
		return;
	}
}

/*
 * bstr_printf() on prepared data: writes at most @size bytes including the
 * NUL into @buf and returns the length the full output would have.
 */
static int bstr_printf(char *buf, size_t size, const char *fmt, const struct bprintf_data *d)
{
	size_t pos = 0;
	u32 i = 0, k = 0, cur = 0, lit;

	while (i < d->fmt_len) {
		if (k < d->nr && i == d->spec[k].start) {
			const struct bprintf_spec *sp = &d->spec[k++];

			out_fmt(buf, size, &pos, sp, d, &cur);
			i = sp->end;
			/* Pointer extensions swallow trailing alphanumerics. */
			if (sp->conv == 'p')
				while (i < d->fmt_len && b_isalnum(fmt[i]))
					i++;
			continue;
		}
		if (fmt[i] == '%' && fmt[i + 1] == '%') {
			out_put(buf, size, &pos, "%", 1);
			i += 2;
			continue;
		}
		/* A run of plain text, up to the next '%' (every spec starts with one). */
		lit = i;
		while (++i < d->fmt_len && fmt[i] != '%')
			;
		out_put(buf, size, &pos, &fmt[lit], i - lit);
	}
	if (size)
		buf[pos < size ? pos : size - 1] = '\0';
	return pos;
}

/*
 * The trace_pipe: one for the process, as the kernel has one for the
 * machine, so that the thread running a script reads what its workers'
 * programs printed. bpf_trace_printk() is slow in the kernel too (it takes
 * the trace buffer's lock); the mutex costs only programs that print.
 */
static struct {
	pthread_mutex_t lock;
	char buf[BPF_TRACE_PIPE_SIZE];
	size_t head;		/* bytes in buf, oldest first */
	u64 dropped;
} trace_pipe = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void trace_bpf_trace_printk(const char *msg)
{
	size_t len = strlen(msg);
	bool nl = !len || msg[len - 1] != '\n';

	pthread_mutex_lock(&trace_pipe.lock);
	if (len + nl > sizeof(trace_pipe.buf) - trace_pipe.head) {
		trace_pipe.dropped++;
		goto out;
	}
	memcpy(trace_pipe.buf + trace_pipe.head, msg, len);
	trace_pipe.head += len;
	if (nl)
		trace_pipe.buf[trace_pipe.head++] = '\n';
out:
	pthread_mutex_unlock(&trace_pipe.lock);
}

size_t bpf_trace_pipe_read(char *buf, size_t size)
{
	size_t n = 0;

	pthread_mutex_lock(&trace_pipe.lock);
	if (!trace_pipe.head || !size)
		goto out;
	n = trace_pipe.head < size ? trace_pipe.head : size;
	/* Whole lines only, unless a single line is longer than @size. */
	if (n < trace_pipe.head) {
		size_t k = n;

		while (k && trace_pipe.buf[k - 1] != '\n')
			k--;
		if (k)
			n = k;
	}
	memcpy(buf, trace_pipe.buf, n);
	memmove(trace_pipe.buf, trace_pipe.buf + n, trace_pipe.head - n);
	trace_pipe.head -= n;
out:
	pthread_mutex_unlock(&trace_pipe.lock);
	return n;
}

u64 bpf_trace_pipe_dropped(void)
{
	u64 n;

	pthread_mutex_lock(&trace_pipe.lock);
	n = trace_pipe.dropped;
	pthread_mutex_unlock(&trace_pipe.lock);
	return n;
}

static int bpf_do_trace_printk(const char *fmt, u32 fmt_size, const u64 *args, u32 num_args)
{
	struct bprintf_data d;
	char buf[MAX_BPRINTF_BUF];
	int ret;

	ret = bpf_bprintf_prepare(fmt, fmt_size, args, num_args, &d);
	if (ret < 0)
		return ret;
	ret = bstr_printf(buf, sizeof(buf), fmt, &d);
	trace_bpf_trace_printk(buf);
	return ret;
}

BPF_CALL_5(bpf_trace_printk, char *, fmt, u32, fmt_size, u64, arg1, u64, arg2, u64, arg3)
{
	u64 args[MAX_TRACE_PRINTK_VARARGS] = { arg1, arg2, arg3 };

	return bpf_do_trace_printk(fmt, fmt_size, args, MAX_TRACE_PRINTK_VARARGS);
}

const struct bpf_func_proto bpf_trace_printk_proto = {
	.func		= bpf_trace_printk,
	.name		= "bpf_trace_printk",
	.gpl_only	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE },
};

BPF_CALL_4(bpf_trace_vprintk, char *, fmt, u32, fmt_size, const void *, args, u32, data_len)
{
	u64 a[MAX_BPRINTF_VARARGS];

	if (data_len & 7 || data_len > MAX_BPRINTF_VARARGS * 8 || (data_len && !args))
		return -EINVAL;
	if (data_len)
		memcpy(a, args, data_len);
	return bpf_do_trace_printk(fmt, fmt_size, a, data_len / 8);
}

const struct bpf_func_proto bpf_trace_vprintk_proto = {
	.func		= bpf_trace_vprintk,
	.name		= "bpf_trace_vprintk",
	.gpl_only	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE,
			    ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY, ARG_CONST_SIZE_OR_ZERO },
};

BPF_CALL_5(bpf_snprintf, char *, str, u32, str_size, char *, fmt, const void *, args,
	   u32, data_len)
{
	u64 a[MAX_BPRINTF_VARARGS];
	struct bprintf_data d;
	int err;

	if (data_len % 8 || data_len > MAX_BPRINTF_VARARGS * 8 || (data_len && !args))
		return -EINVAL;
	if (data_len)
		memcpy(a, args, data_len);
	/* ARG_PTR_TO_CONST_STR: the checker proved fmt NUL-terminated. */
	err = bpf_bprintf_prepare(fmt, UINT_MAX, a, data_len / 8, &d);
	if (err < 0)
		return err;
	err = bstr_printf(str, str ? str_size : 0, fmt, &d);
	return err + 1;
}

const struct bpf_func_proto bpf_snprintf_proto = {
	.func		= bpf_snprintf,
	.name		= "bpf_snprintf",
	.gpl_only	= true,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_MEM_OR_NULL | MEM_WRITE, ARG_CONST_SIZE_OR_ZERO,
			    ARG_PTR_TO_CONST_STR, ARG_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RDONLY,
			    ARG_CONST_SIZE_OR_ZERO },
};

/* ---- string to integer ------------------------------------------------- */

#define BPF_STRTOX_BASE_MASK	0x1F

static int bpf_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;
}

/*
 * The digits of @s (NUL-terminated) in @base into *@res: how many were
 * read, with *@overflow set if the value did not fit 64 bits (the rest of
 * the digits are still read, as _parse_integer() does).
 */
static unsigned int bpf_parse_digits(const char *s, unsigned int base, u64 *res, bool *overflow)
{
	unsigned int n = 0;
	int d;

	*res = 0;
	*overflow = false;
	for (; (d = bpf_digit(s[n])) < (int)base; n++) {
		if (*res > (~0ULL - d) / base)
			*overflow = true;
		*res = *res * base + d;
	}
	return n;
}

/*
 * Skip spaces and one '-', then parse at most 63 characters with the
 * radix of @flags (0: C prefixes, 8, 10 or 16). Return: the characters
 * consumed, or -EINVAL (bad flags, nothing to parse), -ERANGE.
 */
static int __bpf_strtoull(const char *buf, size_t buf_len, u64 flags, u64 *res, bool *negative)
{
	unsigned int base = flags & BPF_STRTOX_BASE_MASK, n;
	size_t off = 0, len;
	char str[64];
	bool overflow;
	const char *s;

	if (!buf || !buf_len)
		return -EINVAL;
	if ((base != 0 && base != 8 && base != 10 && base != 16) || flags & ~BPF_STRTOX_BASE_MASK)
		return -EINVAL;
	while (off < buf_len && isspace((unsigned char)buf[off]))
		off++;
	*negative = off < buf_len && buf[off] == '-';
	if (*negative)
		off++;
	if (off == buf_len)
		return -EINVAL;
	len = min_t(size_t, buf_len - off, sizeof(str) - 1);
	memcpy(str, buf + off, len);
	str[len] = '\0';
	s = str;
	/* _parse_integer_fixup_radix() */
	if (!base)
		base = s[0] != '0' ? 10 : (s[1] | 0x20) == 'x' && isxdigit((unsigned char)s[2]) ? 16 : 8;
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	n = bpf_parse_digits(s, base, res, &overflow);
	if (overflow)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	return off + (s - str) + n;
}

BPF_CALL_4(bpf_strtol, const char *, buf, size_t, buf_len, u64, flags, s64 *, res)
{
	bool negative;
	u64 v;
	int err;

	*res = 0;
	err = __bpf_strtoull(buf, buf_len, flags, &v, &negative);
	if (err < 0)
		return err;
	if (negative ? (s64)-v > 0 : (s64)v < 0)
		return -ERANGE;
	*res = negative ? (s64)-v : (s64)v;
	return err;
}

const struct bpf_func_proto bpf_strtol_proto = {
	.func		= bpf_strtol,
	.name		= "bpf_strtol",
	.gpl_only	= false,
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE, ARG_ANYTHING,
			    ARG_PTR_TO_FIXED_SIZE_MEM | MEM_UNINIT | MEM_WRITE | MEM_ALIGNED },
	.arg_size	= { [3] = sizeof(s64) },
};

/* ---- bpf_spin_lock ------------------------------------------------------ */

/*
 * A test-and-test-and-set lock on the 4-byte word (the kernel's
 * arch_spinlock_t inside struct bpf_spin_lock). Held only for the few
 * instructions the verifier allows between lock and unlock.
 */
void __bpf_spin_lock(u32 *lock)
{
	for (;;) {
		if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
			return;
		while (__atomic_load_n(lock, __ATOMIC_RELAXED)) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		}
	}
}

void __bpf_spin_unlock(u32 *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

static u64 bpf_spin_lock(u64 lock, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r2, (void)r3, (void)r4, (void)r5;
	__bpf_spin_lock((u32 *)(uintptr_t)lock);
	return 0;
}

static u64 bpf_spin_unlock(u64 lock, u64 r2, u64 r3, u64 r4, u64 r5)
{
	(void)r2, (void)r3, (void)r4, (void)r5;
	__bpf_spin_unlock((u32 *)(uintptr_t)lock);
	return 0;
}

const struct bpf_func_proto bpf_spin_lock_proto = {
	.func = bpf_spin_lock,
	.name = "bpf_spin_lock",
	.ret_type = RET_VOID,
	.arg_type = { ARG_PTR_TO_SPIN_LOCK },
};

const struct bpf_func_proto bpf_spin_unlock_proto = {
	.func = bpf_spin_unlock,
	.name = "bpf_spin_unlock",
	.ret_type = RET_VOID,
	.arg_type = { ARG_PTR_TO_SPIN_LOCK },
};

void copy_map_value(const struct bpf_map *map, void *dst, const void *src)
{
	u32 off = map->spin_lock_off, end = off + sizeof(u32);

	if (!btf_record_has_spin_lock(map)) {
		memcpy(dst, src, map->value_size);
		return;
	}
	memcpy(dst, src, off);
	memcpy((u8 *)dst + end, (const u8 *)src + end, map->value_size - end);
}

void copy_map_value_locked(const struct bpf_map *map, void *dst, const void *src, bool lock_src)
{
	u32 *lock = (u32 *)((u8 *)(lock_src ? (void *)src : dst) + map->spin_lock_off);

	__bpf_spin_lock(lock);
	copy_map_value(map, dst, src);
	__bpf_spin_unlock(lock);
}

void check_and_init_map_value(const struct bpf_map *map, void *dst)
{
	if (btf_record_has_spin_lock(map))
		memset((u8 *)dst + map->spin_lock_off, 0, sizeof(u32));
}

/* ---- dynptrs ------------------------------------------------------------ */

#define DYNPTR_RDONLY_BIT	(1u << 31)
#define DYNPTR_TYPE_SHIFT	28
#define DYNPTR_TYPE_MASK	0x7
#define DYNPTR_SIZE_MASK	0xffffff

static bool __bpf_dynptr_is_rdonly(const struct bpf_dynptr_kern *ptr)
{
	return ptr->size & DYNPTR_RDONLY_BIT;
}

static enum bpf_dynptr_type bpf_dynptr_get_type(const struct bpf_dynptr_kern *ptr)
{
	return (ptr->size >> DYNPTR_TYPE_SHIFT) & DYNPTR_TYPE_MASK;
}

static u32 __bpf_dynptr_size(const struct bpf_dynptr_kern *ptr)
{
	return ptr->size & DYNPTR_SIZE_MASK;
}

static void bpf_dynptr_set_size(struct bpf_dynptr_kern *ptr, u32 new_size)
{
	ptr->size = (ptr->size & ~DYNPTR_SIZE_MASK) | new_size;
}

void bpf_dynptr_init(struct bpf_dynptr_kern *ptr, void *data, enum bpf_dynptr_type type,
		     u32 offset, u32 size)
{
	ptr->data = data;
	ptr->offset = offset;
	ptr->size = size | ((u32)type << DYNPTR_TYPE_SHIFT);
}

void bpf_dynptr_set_null(struct bpf_dynptr_kern *ptr)
{
	memset(ptr, 0, sizeof(*ptr));
}

/* -E2BIG unless [offset, offset + len) lies in the view (u64: no wrap). */
static int bpf_dynptr_check_off_len(const struct bpf_dynptr_kern *ptr, u64 offset, u64 len)
{
	u64 size = __bpf_dynptr_size(ptr);

	if (len > size || offset > size - len)
		return -E2BIG;
	return 0;
}

BPF_CALL_5(bpf_dynptr_read, void *, dst, u32, len, const struct bpf_dynptr_kern *, src,
	   u32, offset, u64, flags)
{
	int err;

	if (!src->data || flags)
		return (u64)-EINVAL;
	err = bpf_dynptr_check_off_len(src, offset, len);
	if (err)
		return (u64)(s64)err;
	if (bpf_dynptr_get_type(src) != BPF_DYNPTR_TYPE_XDP)
		return (u64)-EFAULT;
	return (u64)(s64)__bpf_xdp_load_bytes(src->data, src->offset + offset, dst, len);
}

const struct bpf_func_proto bpf_dynptr_read_proto = {
	.func		= bpf_dynptr_read,
	.name		= "bpf_dynptr_read",
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_UNINIT_MEM, ARG_CONST_SIZE_OR_ZERO,
			    ARG_PTR_TO_DYNPTR | MEM_RDONLY, ARG_ANYTHING, ARG_ANYTHING },
};

BPF_CALL_5(bpf_dynptr_write, const struct bpf_dynptr_kern *, dst, u32, offset, void *, src,
	   u32, len, u64, flags)
{
	int err;

	if (!dst->data || __bpf_dynptr_is_rdonly(dst))
		return (u64)-EINVAL;
	err = bpf_dynptr_check_off_len(dst, offset, len);
	if (err)
		return (u64)(s64)err;
	if (bpf_dynptr_get_type(dst) != BPF_DYNPTR_TYPE_XDP)
		return (u64)-EFAULT;
	if (flags)
		return (u64)-EINVAL;
	return (u64)(s64)__bpf_xdp_store_bytes(dst->data, dst->offset + offset, src, len);
}

const struct bpf_func_proto bpf_dynptr_write_proto = {
	.func		= bpf_dynptr_write,
	.name		= "bpf_dynptr_write",
	.ret_type	= RET_INTEGER,
	.arg_type	= { ARG_PTR_TO_DYNPTR | MEM_RDONLY, ARG_ANYTHING,
			    ARG_PTR_TO_MEM | MEM_RDONLY, ARG_CONST_SIZE_OR_ZERO, ARG_ANYTHING },
};

/* XDP (and skb) dynptrs have no direct data: bpf_dynptr_slice() is theirs. */
BPF_CALL_3(bpf_dynptr_data, const struct bpf_dynptr_kern *, ptr, u32, offset, u32, len)
{
	(void)ptr, (void)offset, (void)len;
	return 0;
}

const struct bpf_func_proto bpf_dynptr_data_proto = {
	.func		= bpf_dynptr_data,
	.name		= "bpf_dynptr_data",
	.ret_type	= RET_PTR_TO_DYNPTR_MEM_OR_NULL,
	.arg_type	= { ARG_PTR_TO_DYNPTR | MEM_RDONLY, ARG_ANYTHING,
			    ARG_CONST_ALLOC_SIZE_OR_ZERO },
};

static u64 bpf_dynptr_slice(u64 p, u64 offset, u64 buffer__opt, u64 buffer__szk, u64 r5)
{
	const struct bpf_dynptr_kern *ptr = (const void *)(uintptr_t)p;
	void *buf = (void *)(uintptr_t)buffer__opt;
	struct xdp_buff *xdp;
	u32 off;
	char *d;

	(void)r5;
	if (!ptr->data || bpf_dynptr_check_off_len(ptr, (u32)offset, buffer__szk))
		return 0;
	if (bpf_dynptr_get_type(ptr) != BPF_DYNPTR_TYPE_XDP)
		return 0;
	xdp = ptr->data;
	off = ptr->offset + (u32)offset;
	/* a direct pointer where the bytes lie in one piece (linear part or
	 * one frag: the hardened checks of a slice's accesses know frags) */
	d = bpf_xdp_pointer(xdp, off, buffer__szk);
	if (!IS_ERR_OR_NULL(d))
		return (uintptr_t)d;
	if (!buf)
		return 0;
	bpf_xdp_copy_buf(xdp, off, buf, buffer__szk, false);
	return (uintptr_t)buf;
}

static u64 bpf_dynptr_slice_rdwr(u64 p, u64 offset, u64 buffer__opt, u64 buffer__szk, u64 r5)
{
	const struct bpf_dynptr_kern *ptr = (const void *)(uintptr_t)p;

	if (!ptr->data || __bpf_dynptr_is_rdonly(ptr))
		return 0;
	return bpf_dynptr_slice(p, offset, buffer__opt, buffer__szk, r5);
}

static u64 bpf_dynptr_adjust(u64 p, u64 start, u64 end, u64 r4, u64 r5)
{
	struct bpf_dynptr_kern *ptr = (void *)(uintptr_t)p;
	u32 size, s = (u32)start, e = (u32)end;

	(void)r4, (void)r5;
	if (!ptr->data || s > e)
		return (u64)-EINVAL;
	size = __bpf_dynptr_size(ptr);
	if (s > size || e > size)
		return (u64)-ERANGE;
	ptr->offset += s;
	bpf_dynptr_set_size(ptr, e - s);
	return 0;
}

static u64 bpf_dynptr_is_null(u64 p, u64 r2, u64 r3, u64 r4, u64 r5)
{
	const struct bpf_dynptr_kern *ptr = (const void *)(uintptr_t)p;

	(void)r2, (void)r3, (void)r4, (void)r5;
	return !ptr->data;
}

static u64 bpf_dynptr_is_rdonly(u64 p, u64 r2, u64 r3, u64 r4, u64 r5)
{
	const struct bpf_dynptr_kern *ptr = (const void *)(uintptr_t)p;

	(void)r2, (void)r3, (void)r4, (void)r5;
	return ptr->data && __bpf_dynptr_is_rdonly(ptr);
}

static u64 bpf_dynptr_size(u64 p, u64 r2, u64 r3, u64 r4, u64 r5)
{
	const struct bpf_dynptr_kern *ptr = (const void *)(uintptr_t)p;

	(void)r2, (void)r3, (void)r4, (void)r5;
	if (!ptr->data)
		return (u32)-EINVAL;	/* the kfunc returns a __u32 */
	return __bpf_dynptr_size(ptr);
}

static u64 bpf_dynptr_clone(u64 p, u64 clone__uninit, u64 r3, u64 r4, u64 r5)
{
	const struct bpf_dynptr_kern *ptr = (const void *)(uintptr_t)p;
	struct bpf_dynptr_kern *clone = (void *)(uintptr_t)clone__uninit;

	(void)r3, (void)r4, (void)r5;
	if (!ptr->data) {
		bpf_dynptr_set_null(clone);
		return (u64)-EINVAL;
	}
	*clone = *ptr;
	return 0;
}

#define KF_DYNPTR		{ .kind = KF_ARG_PTR_TO_DYNPTR }
#define KF_DYNPTR_BUF		{ .kind = KF_ARG_PTR_TO_MEM_SIZE, .flags = KF_ARG_F_OPT }
#define KF_DYNPTR_BUF_SZK	{ .kind = KF_ARG_CONST_SIZE, .flags = KF_ARG_F_CONST }
#define KF_SCALAR		{ .kind = KF_ARG_SCALAR }

static const struct bpf_kfunc_proto common_kfuncs[] = {
	{ .name = "bpf_dynptr_slice", .func = bpf_dynptr_slice, .flags = KF_RET_NULL,
	  .ret = KF_RET_DYNPTR_SLICE_RDONLY, .nargs = 4,
	  .args = { KF_DYNPTR, KF_SCALAR, KF_DYNPTR_BUF, KF_DYNPTR_BUF_SZK } },
	{ .name = "bpf_dynptr_slice_rdwr", .func = bpf_dynptr_slice_rdwr, .flags = KF_RET_NULL,
	  .ret = KF_RET_DYNPTR_SLICE_RDWR, .nargs = 4,
	  .args = { KF_DYNPTR, KF_SCALAR, KF_DYNPTR_BUF, KF_DYNPTR_BUF_SZK } },
	{ .name = "bpf_dynptr_adjust", .func = bpf_dynptr_adjust, .ret = KF_RET_INT, .nargs = 3,
	  .args = { KF_DYNPTR, KF_SCALAR, KF_SCALAR } },
	{ .name = "bpf_dynptr_is_null", .func = bpf_dynptr_is_null, .ret = KF_RET_INT,
	  .nargs = 1, .args = { KF_DYNPTR } },
	{ .name = "bpf_dynptr_is_rdonly", .func = bpf_dynptr_is_rdonly, .ret = KF_RET_INT,
	  .nargs = 1, .args = { KF_DYNPTR } },
	{ .name = "bpf_dynptr_size", .func = bpf_dynptr_size, .ret = KF_RET_INT, .nargs = 1,
	  .args = { KF_DYNPTR } },
	{ .name = "bpf_dynptr_clone", .func = bpf_dynptr_clone, .ret = KF_RET_INT, .nargs = 2,
	  .args = { KF_DYNPTR, { .kind = KF_ARG_PTR_TO_DYNPTR, .flags = KF_ARG_F_UNINIT,
				 .dynptr_type = BPF_DYNPTR_TYPE_INVALID } } },
};

const struct btf_kfunc_id_set common_kfunc_set = {
	.set = common_kfuncs,
	.cnt = ARRAY_SIZE(common_kfuncs),
};
