/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the hostile programs written in BPF assembly: a naked XDP entry
 * point (clang emits no prologue, the asm is the whole program), naked
 * subprograms, and asm operands for helpers (__imm(bpf_x): call %[bpf_x])
 * and maps or data (__imm_addr(m): r1 = %[m] ll), as the kernel selftests'
 * bpf_misc.h spells them.
 */
#ifndef HOSTILE_H
#define HOSTILE_H
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define XDP_ASM		SEC("xdp") __attribute__((naked))
#define SUBPROG_ASM	static __attribute__((naked, noinline, used))
#define __imm(name)	[name] "i"(name)
#define __imm_addr(name) [name] "i"(&name)

/* maps: NR __u64 values under __u32 keys; a 1 MiB value; ring buffer;
 * program array */
#define ARRAY_U64(name, nr) struct {				\
	__uint(type, BPF_MAP_TYPE_ARRAY);			\
	__type(key, __u32);					\
	__type(value, __u64);					\
	__uint(max_entries, nr);				\
} name SEC(".maps")
#define HASH_U64(name, nr) struct {				\
	__uint(type, BPF_MAP_TYPE_HASH);			\
	__type(key, __u32);					\
	__type(value, __u64);					\
	__uint(max_entries, nr);				\
} name SEC(".maps")
#define ARRAY_1MIB(name) struct {				\
	__uint(type, BPF_MAP_TYPE_ARRAY);			\
	__type(key, __u32);					\
	__uint(value_size, 1 << 20);				\
	__uint(max_entries, 1);					\
} name SEC(".maps")
#define RINGBUF(name, size) struct {				\
	__uint(type, BPF_MAP_TYPE_RINGBUF);			\
	__uint(max_entries, size);				\
} name SEC(".maps")
#define PROG_ARRAY(name, nr) struct {				\
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);			\
	__uint(key_size, sizeof(__u32));			\
	__uint(value_size, sizeof(__u32));			\
	__uint(max_entries, nr);				\
} name SEC(".maps")

/* bpf_tail_call(r1, &jmp, 0); operands __imm_addr(jmp), __imm(bpf_tail_call) */
#define TAIL_CALL_JMP0	"r2 = %[jmp] ll; r3 = 0; call %[bpf_tail_call];"

/* r6 = ctx, r7 = data, r8 = data_end */
#define LOAD_PKT	"r6 = r1; r7 = *(u32 *)(r6 + 0); r8 = *(u32 *)(r6 + 4);"

char _license[] SEC("license") = "GPL";
#endif
