// SPDX-License-Identifier: GPL-2.0
/*
 * A CO-RE relocation against a kernel type: resolved against the running
 * kernel's BTF (task_struct.pid exists: XDP_PASS), or against uxdp's
 * built-in one, which has no task_struct (XDP_DROP).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct {
	int pid;
} __attribute__((preserve_access_index));

SEC("xdp")
int core_prog(struct xdp_md *ctx)
{
	struct task_struct *t = (void *)(long)ctx->data;

	return bpf_core_field_exists(t->pid) ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
