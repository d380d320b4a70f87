// SPDX-License-Identifier: GPL-2.0
/* Calls an RX metadata kfunc from a program bound to no device. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int rx_meta_unbound(struct xdp_md *ctx)
{
	__u64 ts = 0;

	return bpf_xdp_metadata_rx_timestamp(ctx, &ts) ? XDP_PASS : XDP_DROP;
}
