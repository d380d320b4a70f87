// SPDX-License-Identifier: GPL-2.0
/*
 * Global data and bpf-to-bpf calls: a .rodata configuration (read-only for
 * the program), a .data counter with an initial value, a .bss histogram,
 * static __noinline subprograms (with their own stack frames) and every
 * atomic operation (built with -mcpu=v3 for the fetch forms).
 */
#include "parse.h"

const volatile __u32 cfg_len_shift = 6;		/* .rodata */
const volatile __u32 cfg_action = XDP_PASS;
__u64 packets = 1000;				/* .data, initial value 1000 */
__u64 len_hist[32];				/* .bss */
__u64 atom_and = ~0ULL, atom_or, atom_xor, atom_xchg, atom_cmpxchg = 7;
__u32 atom32_add, atom32_or;
__u64 fetched[8];

static __noinline __u32 bucket(__u32 len)
{
	__u32 b = len >> cfg_len_shift;

	return b < 32 ? b : 31;
}

static __noinline int sum_bytes(struct xdp_md *ctx, int n)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = (void *)(long)ctx->data;
	char scratch[64];
	int i, s = 0;

	__builtin_memset(scratch, 0, sizeof(scratch));
	for (i = 0; i < 16 && i < n; i++) {
		if ((void *)(p + i + 1) > data_end)
			break;
		scratch[i & 63] = p[i];
		s += scratch[i & 63];
	}
	return s;
}

static __noinline __u64 depth3(__u64 x)
{
	return x * 3 + 1;
}

static __noinline __u64 depth2(__u64 x)
{
	return depth3(x) + depth3(x + 1);
}

SEC("xdp")
int xdp_globals_prog(struct xdp_md *ctx)
{
	__u32 len = ctx->data_end - ctx->data;
	__u64 old;

	__sync_fetch_and_add(&packets, 1);
	__sync_fetch_and_add(&len_hist[bucket(len)], 1);

	fetched[0] = __sync_fetch_and_add(&packets, 0);
	fetched[1] = __sync_fetch_and_and(&atom_and, ~(1ULL << (len & 63)));
	fetched[2] = __sync_fetch_and_or(&atom_or, 1ULL << (len & 63));
	fetched[3] = __sync_fetch_and_xor(&atom_xor, len);
	fetched[4] = __sync_lock_test_and_set(&atom_xchg, len);
	old = __sync_val_compare_and_swap(&atom_cmpxchg, 7, len);
	fetched[5] = old;
	fetched[6] = __sync_fetch_and_add(&atom32_add, 3);
	__sync_fetch_and_or(&atom32_or, len);
	__sync_fetch_and_and(&atom_and, ~0ULL);
	__sync_fetch_and_xor(&atom_xor, 1);
	fetched[7] = sum_bytes(ctx, 16) + depth2(len);
	return cfg_action;
}

char _license[] SEC("license") = "GPL";
