// SPDX-License-Identifier: GPL-2.0
/* A tc program alone: the object opens, its program is listed as not loaded. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int tc_prog(struct __sk_buff *skb)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
