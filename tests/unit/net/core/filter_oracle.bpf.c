// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel oracle for tests/unit/net/core/filter_test.c: one XDP program that
 * calls the helper named by the single element of `args` with the
 * arguments found there and returns what the helper returned. The test runs
 * it with BPF_PROG_TEST_RUN and compares retval, packet and `args` with
 * calling uxdp's helper on a buffer laid out the same way.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef __u64 u64;

enum { OP_HEAD, OP_TAIL, OP_META, OP_CSUM, OP_LOAD, OP_LEN, OP_MTU, OP_FIB, OP_STORE, OP_SNPRINTF };

struct args {
	__u32 op;
	__s32 a;
	__u32 b;
	__u32 seed;
	__u32 fs;
	__u32 ts;
	__u8 from[256];
	__u8 to[256];
	__u8 out[256];
	__u32 res;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct args);
} args SEC(".maps");

/*
 * bpf_snprintf() formats are checked when the program loads, so each is a
 * constant here; @b picks one. Arguments are from[0..95] as 12 u64; bit k
 * of @ts makes argument k a pointer into to[] at offset (value & 0xff).
 */
static __noinline long snprintf_op(struct args *a)
{
	static const char f0[] = "%d|%i|%u|%x|%X|%ld";
	static const char f1[] = "%lld|%llu|%llx|%lx|%lu|%li";
	static const char f2[] = "[%5d|%-5d|%05d|%+d|% d|%08x|%-08x|%+u]";
	static const char f3[] = "%c%c%c|%%|%3c|%-3c|";
	static const char f4[] = "%s|%10s|%-10s|%s.";
	static const char f5[] = "%pI4 %pi4 %pI6 %pi6 %pI4.";
	static const char f6[] = "%px|%18px|%pks|%pus";
	static const char f7[] = "%d %d %d %d %d %d %d %d %d %d %d %d";
	static const char f8[] = "%pI6c|%pI4abc|x%pi4y";
	static const char f9[] = "%-+6d|%+06d|% 06d|%0-6d|%- 6i|%07u|%-7x|%+5X|%1d|%3lld|%-9lx|%c";
	u64 args[12];
	__u32 sz = a->fs & 0xff;
	int k;

	for (k = 0; k < 12; k++) {
		args[k] = ((u64 *)a->from)[k];
		if (a->ts & (1U << k))
			args[k] = (u64)(long)a->to + (args[k] & 0xff);
	}
	switch (a->b) {
	case 0: return bpf_snprintf((char *)a->out, sz, f0, args, sizeof(args));
	case 1: return bpf_snprintf((char *)a->out, sz, f1, args, sizeof(args));
	case 2: return bpf_snprintf((char *)a->out, sz, f2, args, sizeof(args));
	case 3: return bpf_snprintf((char *)a->out, sz, f3, args, sizeof(args));
	case 4: return bpf_snprintf((char *)a->out, sz, f4, args, sizeof(args));
	case 5: return bpf_snprintf((char *)a->out, sz, f5, args, sizeof(args));
	case 6: return bpf_snprintf((char *)a->out, sz, f6, args, sizeof(args));
	case 7: return bpf_snprintf((char *)a->out, sz, f7, args, sizeof(args));
	case 8: return bpf_snprintf((char *)a->out, sz, f8, args, sizeof(args));
	case 9: return bpf_snprintf((char *)a->out, sz, f9, args, sizeof(args));
	}
	return -1003;
}

SEC("xdp.frags")
int helper_oracle(struct xdp_md *ctx)
{
	struct bpf_fib_lookup fib = {};
	__u32 k = 0, len;
	struct args *a;

	a = bpf_map_lookup_elem(&args, &k);
	if (!a)
		return -1000;
	switch (a->op) {
	case OP_HEAD:
		return bpf_xdp_adjust_head(ctx, a->a);
	case OP_TAIL:
		return bpf_xdp_adjust_tail(ctx, a->a);
	case OP_META:
		return bpf_xdp_adjust_meta(ctx, a->a);
	case OP_CSUM:
		if (a->fs > 256 || a->ts > 256)
			return -1001;
		return bpf_csum_diff((void *)a->from, a->fs, (void *)a->to, a->ts, a->seed);
	case OP_LOAD:
		len = a->b;
		if (len < 1 || len > 256)
			return -1001;
		return bpf_xdp_load_bytes(ctx, a->a, a->out, len);
	case OP_STORE:
		len = a->b;
		if (len < 1 || len > 256)
			return -1001;
		return bpf_xdp_store_bytes(ctx, a->a, a->from, len);
	case OP_LEN:
		return bpf_xdp_get_buff_len(ctx);
	case OP_MTU:
		a->res = a->b;
		return bpf_check_mtu(ctx, a->a, &a->res, a->seed, a->fs);
	case OP_SNPRINTF:
		return snprintf_op(a);
	case OP_FIB:
		fib.family = a->a;
		if (a->b >= sizeof(fib))
			return bpf_fib_lookup(ctx, &fib, sizeof(fib), a->seed);
		return bpf_fib_lookup(ctx, &fib, 8, a->seed);
	}
	return -1002;
}

char _license[] SEC("license") = "GPL";
