// SPDX-License-Identifier: GPL-2.0
/*
 * Dynptrs over an XDP frame: bpf_dynptr_from_xdp() (and its -EINVAL for
 * flags, which leaves a null dynptr), slices with and without a buffer
 * (the Ethernet header read-only, the IPv4 header writable: TTL
 * decremented, the checksum fixed, written back with bpf_dynptr_write()
 * when the slice is the buffer), bpf_dynptr_read() of the addresses,
 * bpf_dynptr_adjust() to the L3 view and a clone of it, and the errors of
 * each (-E2BIG past the end, -EINVAL/-ERANGE from adjust, NULL slices).
 * The frags program reads and rewrites the frame's last bytes, which in a
 * jumbo frame lie in a frag. Every result goes to the `rc` ARRAY.
 */
#include "parse.h"
#include "rc_map.h"
#include "bpf_kfuncs.h"

enum {
	RC_FROM_BAD_FLAGS,
	RC_BAD_IS_NULL,
	RC_BAD_SIZE,
	RC_SIZE,
	RC_RDONLY,
	RC_PROTO,
	RC_NOBUF_SLICE,
	RC_DATA,
	RC_READ_ADDRS,
	RC_ADDRS,
	RC_READ_PAST,
	RC_WRITE_FLAGS,
	RC_ADJ_BAD,
	RC_ADJ_RANGE,
	RC_ADJ,
	RC_L3_SIZE,
	RC_CLONE,
	RC_CLONE_SIZE,
	RC_CLONE_BYTE,
	RC_TTL,
	RC_TAIL_READ,
	RC_TAIL,
	RC_TAIL_WRITE,
	RC_TAIL_SLICE,
	RC_MAX,
};

RC_MAP(RC_MAX)

static __always_inline __u16 csum_fold(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

SEC("xdp")
int xdp_dynptr(struct xdp_md *ctx)
{
	struct bpf_dynptr ptr, bad, l3, l3c;
	__u8 ethbuf[sizeof(struct ethhdr)];
	__u8 ipbuf[sizeof(struct iphdr)];
	struct ethhdr *eth;
	struct iphdr *iph;
	__u32 addrs[2] = {}, sum;
	__u8 byte;
	__u16 *w;
	int i;

	set_rc(RC_FROM_BAD_FLAGS, bpf_dynptr_from_xdp(ctx, 1, &bad));
	set_rc(RC_BAD_IS_NULL, bpf_dynptr_is_null(&bad));
	set_rc(RC_BAD_SIZE, bpf_dynptr_size(&bad));

	if (bpf_dynptr_from_xdp(ctx, 0, &ptr))
		return XDP_ABORTED;
	set_rc(RC_SIZE, bpf_dynptr_size(&ptr));
	set_rc(RC_RDONLY, bpf_dynptr_is_rdonly(&ptr));
	set_rc(RC_DATA, !!bpf_dynptr_data(&ptr, 0, 1));
	set_rc(RC_READ_PAST, bpf_dynptr_read(&byte, 1, &ptr, bpf_dynptr_size(&ptr), 0));
	set_rc(RC_WRITE_FLAGS, bpf_dynptr_write(&ptr, 0, &byte, 0, 1));
	/* no buffer: NULL unless the bytes are in the linear part */
	set_rc(RC_NOBUF_SLICE, !!bpf_dynptr_slice(&ptr, 0, NULL, 2));

	eth = bpf_dynptr_slice(&ptr, 0, ethbuf, sizeof(ethbuf));
	if (!eth)
		return XDP_DROP;
	set_rc(RC_PROTO, bpf_ntohs(eth->h_proto));
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;

	set_rc(RC_READ_ADDRS, bpf_dynptr_read(addrs, sizeof(addrs), &ptr,
					      sizeof(*eth) + offsetof(struct iphdr, saddr), 0));
	set_rc(RC_ADDRS, (__s64)addrs[0] ^ ((__s64)addrs[1] << 32));

	set_rc(RC_ADJ_BAD, bpf_dynptr_adjust(&bad, 0, 1));
	set_rc(RC_ADJ_RANGE, bpf_dynptr_adjust(&ptr, 0, bpf_dynptr_size(&ptr) + 1));
	bpf_dynptr_clone(&ptr, &l3);
	set_rc(RC_ADJ, bpf_dynptr_adjust(&l3, sizeof(*eth), bpf_dynptr_size(&l3)));
	set_rc(RC_L3_SIZE, bpf_dynptr_size(&l3));
	set_rc(RC_CLONE, bpf_dynptr_clone(&l3, &l3c));
	bpf_dynptr_adjust(&l3c, 8, 9);	/* the TTL byte */
	set_rc(RC_CLONE_SIZE, bpf_dynptr_size(&l3c));
	byte = 0;
	bpf_dynptr_read(&byte, 1, &l3c, 0, 0);
	set_rc(RC_CLONE_BYTE, byte);

	iph = bpf_dynptr_slice_rdwr(&l3, 0, ipbuf, sizeof(ipbuf));
	if (!iph)
		return XDP_DROP;
	if (iph->ihl != 5 || iph->ttl <= 1)
		return XDP_PASS;
	iph->ttl--;
	iph->check = 0;
	sum = 0;
	w = (__u16 *)iph;
	for (i = 0; i < (int)(sizeof(*iph) / 2); i++)
		sum += w[i];
	iph->check = csum_fold(sum);
	set_rc(RC_TTL, iph->ttl);
	if ((void *)iph == (void *)ipbuf)
		bpf_dynptr_write(&l3, 0, ipbuf, sizeof(ipbuf), 0);
	return XDP_TX;
}

/* The frame's last 8 bytes: read, then rewritten, through a frag if any. */
SEC("xdp.frags")
int xdp_dynptr_frags(struct xdp_md *ctx)
{
	__u8 buf[8], tail[8] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
	struct bpf_dynptr ptr;
	__u64 *v, word = 0;
	__u32 size;

	if (bpf_dynptr_from_xdp(ctx, 0, &ptr))
		return XDP_ABORTED;
	size = bpf_dynptr_size(&ptr);
	set_rc(RC_SIZE, size);
	if (size < 64)
		return XDP_PASS;
	set_rc(RC_TAIL_READ, bpf_dynptr_read(&word, sizeof(word), &ptr, size - 8, 0));
	set_rc(RC_TAIL, word);
	/* a slice across the linear part's end, whatever the frame's shape */
	v = bpf_dynptr_slice(&ptr, size - 40, buf, sizeof(buf));
	set_rc(RC_TAIL_SLICE, v ? *v : -1);
	set_rc(RC_TAIL_WRITE, bpf_dynptr_write(&ptr, size - 8, tail, sizeof(tail), 0));
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
