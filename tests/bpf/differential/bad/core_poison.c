// SPDX-License-Identifier: GPL-2.0
/*
 * A CO-RE read of a field no target BTF has, not guarded by
 * bpf_core_field_exists(): the loader poisons the instruction (libbpf's
 * call to helper 0xbad2310), the checker reaches it, and the error names
 * the program, the instruction, the type and the field.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct uxdp_core_test {
	int present;
	int missing;
} __attribute__((preserve_access_index));

SEC("xdp")
int poison_prog(struct xdp_md *ctx)
{
	struct uxdp_core_test *t = (void *)(long)ctx->data;

	if ((void *)(t + 1) > (void *)(long)ctx->data_end)
		return XDP_PASS;
	return t->missing;
}

char _license[] SEC("license") = "GPL";
