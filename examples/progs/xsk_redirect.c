// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-side program of the afxdp driver (drivers/net/afxdp.c), for
 * the real kernel, not for uxdp: it steers each frame into the AF_XDP
 * socket bound to its rx queue, and lets the frame go on to the kernel's
 * stack (XDP_PASS) when no socket is there. The driver's built-in program
 * is the same five instructions; `link add X type afxdp dev IF prog
 * xsk_redirect.o` loads this object with libbpf instead (any object whose
 * first program redirects through an XSKMAP named xsks_map will do).
 * Counts what it steered and what it passed in stats[0] / stats[1].
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 64);
} xsks_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} stats SEC(".maps");

SEC("xdp")
int xsk_redirect(struct xdp_md *ctx)
{
	__u32 key;
	__u64 *cnt;
	long act;

	act = bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
	key = act == XDP_REDIRECT ? 0 : 1;
	cnt = bpf_map_lookup_elem(&stats, &key);
	if (cnt)
		*cnt += 1;
	return act;
}

char _license[] SEC("license") = "GPL";
