// SPDX-License-Identifier: GPL-2.0
/* Ten nested bpf-to-bpf calls of 64 bytes of stack each (kernel: 8 frames, 512 bytes). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline)) int f9(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return x;
}

static __attribute__((noinline)) int f8(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f9(x + buf[1]);
}

static __attribute__((noinline)) int f7(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f8(x + buf[1]);
}

static __attribute__((noinline)) int f6(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f7(x + buf[1]);
}

static __attribute__((noinline)) int f5(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f6(x + buf[1]);
}

static __attribute__((noinline)) int f4(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f5(x + buf[1]);
}

static __attribute__((noinline)) int f3(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f4(x + buf[1]);
}

static __attribute__((noinline)) int f2(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f3(x + buf[1]);
}

static __attribute__((noinline)) int f1(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f2(x + buf[1]);
}

static __attribute__((noinline)) int f0(int x)
{
	volatile char buf[64];

	buf[1] = x;
	return f1(x + buf[1]);
}

SEC("xdp")
int deep_calls(struct xdp_md *ctx)
{
	return f0(ctx->ingress_ifindex) & 1;
}

char _license[] SEC("license") = "GPL";
