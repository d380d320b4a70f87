/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test-side eBPF assembler for the ubpf text syntax used by the
 * bpf_conformance suite and uxdp's own tests/bpf/data files.
 */
#ifndef _UXDP_TESTS_BPF_ASM_H
#define _UXDP_TESTS_BPF_ASM_H

#include <stddef.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>	/* BPF_MEMSX on older UAPI headers */

/*
 * bpf_asm() - assemble @src into at most @max instruction slots at @out.
 * Return: the number of slots, or -EINVAL with a message "line N: ..." in
 * @err (@errlen bytes), -E2BIG when the program does not fit.
 */
int bpf_asm(const char *src, struct bpf_insn *out, unsigned int max, char *err, size_t errlen);

#endif
