// SPDX-License-Identifier: GPL-2.0
/*
 * The remaining XDP helpers: bpf_csum_diff (an IPv4 header checksum
 * recomputed and an incremental TTL update), bpf_ktime_get_ns/boot/coarse,
 * bpf_get_prandom_u32, bpf_get_smp_processor_id, bpf_printk, bpf_fib_lookup
 * and bpf_check_mtu. Values that differ between runs or hosts go to the
 * `nd_` map, which comparisons skip; what is defined goes to `out`.
 */
#include "parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, 16);
} out SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __s64);
	__uint(max_entries, 8);
} nd_values SEC(".maps");

static __always_inline void put(void *map, __u32 slot, __s64 val)
{
	__s64 *v = bpf_map_lookup_elem(map, &slot);

	if (v)
		*v = val;
}

static __always_inline __u16 csum_fold(__u32 csum)
{
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return (__u16)~csum;
}

SEC("xdp")
int xdp_helpers_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct bpf_fib_lookup fib = {};
	__u64 t1, t2, t3, t4;
	__u32 mtu_len = 0;
	struct iphdr *iph;
	__s64 ret;

	t1 = bpf_ktime_get_ns();
	t2 = bpf_ktime_get_boot_ns();
	t3 = bpf_ktime_get_coarse_ns();
	t4 = bpf_ktime_get_ns();
	put(&out, 0, t4 >= t1);
	put(&nd_values, 0, t2);
	put(&nd_values, 1, t3);
	put(&nd_values, 2, bpf_get_prandom_u32());
	put(&out, 1, bpf_get_smp_processor_id() < 64);
	bpf_printk("xdp_helpers: len %d", (int)(data_end - data));

	/* bpf_check_mtu against the ingress device (ifindex 0). */
	ret = bpf_check_mtu(ctx, 0, &mtu_len, 0, 0);
	put(&out, 2, ret);
	put(&out, 3, mtu_len);

	iph = data + sizeof(struct ethhdr);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (((struct ethhdr *)data)->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5)
		return XDP_PASS;

	{
		__u16 old_check = iph->check;
		__s64 csum;
		__be32 old_word, new_word;

		iph->check = 0;
		csum = bpf_csum_diff(0, 0, (__be32 *)iph, sizeof(*iph), 0);
		put(&out, 4, csum_fold(csum) == old_check);
		put(&out, 5, csum_fold(csum));
		iph->check = old_check;

		/* Incremental TTL decrement as a router does it. */
		old_word = *(__be32 *)&iph->ttl;
		iph->ttl--;
		new_word = *(__be32 *)&iph->ttl;
		csum = bpf_csum_diff(&old_word, 4, &new_word, 4, ~((__u32)iph->check) & 0xffff);
		iph->check = csum_fold(csum);
		put(&out, 6, iph->check);
	}

	fib.family = 2;	/* AF_INET */
	fib.ipv4_src = iph->saddr;
	fib.ipv4_dst = iph->daddr;
	fib.ifindex = ctx->ingress_ifindex;
	fib.tot_len = bpf_ntohs(iph->tot_len);
	ret = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	put(&nd_values, 3, ret);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
