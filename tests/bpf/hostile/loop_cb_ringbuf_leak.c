// SPDX-License-Identifier: GPL-2.0
/* A bpf_loop() callback reserves a ringbuf record on every iteration and
 * never submits it: the reference leaks out of the callback. */
#include "hostile.h"

RINGBUF(rb, 4096);

static int step(__u64 i, void *data)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (r)
		*(volatile __u64 *)data = 1;
	return 0;
}

SEC("xdp")
int loop_cb_ringbuf_leak(struct xdp_md *ctx)
{
	__u64 v = 0;

	bpf_loop(4, step, &v, 0);
	return XDP_PASS;
}
