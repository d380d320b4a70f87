// SPDX-License-Identifier: GPL-2.0
/* Control (accepted): reserve an 8-byte ringbuf record, fill it, submit. */
#include "hostile.h"

RINGBUF(rb, 4096);

SEC("xdp")
int ok_ringbuf(struct xdp_md *ctx)
{
	__u64 *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);

	if (!r)
		return XDP_ABORTED;
	*r = ctx->data_end - ctx->data;
	bpf_ringbuf_submit(r, 0);
	return XDP_PASS;
}
