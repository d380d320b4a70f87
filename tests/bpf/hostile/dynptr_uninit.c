// SPDX-License-Identifier: GPL-2.0
/* Reads through a dynptr no constructor initialised. */
#include "hostile.h"
#include "bpf_kfuncs.h"

SEC("xdp")
int dynptr_uninit(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr;
	__u8 byte = 0;

	bpf_dynptr_read(&byte, 1, &ptr, 0, 0);
	return byte;
}
