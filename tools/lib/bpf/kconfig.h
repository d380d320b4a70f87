/* SPDX-License-Identifier: GPL-2.0 */
/* kernel/bpf/kconfig.c: the values of an object's __kconfig externs. */
#ifndef _UXDP_KERNEL_BPF_KCONFIG_H
#define _UXDP_KERNEL_BPF_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>

struct btf;

/*
 * Fill @data (@size bytes, the .kconfig map's value) with the value of
 * every variable of DATASEC @datasec_id in @btf. @is_weak tells whether an
 * extern is __weak. Returns 0, or -errno with the reason in @err.
 */
int bpf_kconfig_fill(const struct btf *btf, u32 datasec_id, void *data, u32 size,
		     bool (*is_weak)(void *ctx, const char *name), void *ctx, char *err,
		     size_t err_size);

/* The offset of extern @name in DATASEC @datasec_id, or -ENOENT. */
int bpf_kconfig_var_off(const struct btf *btf, u32 datasec_id, const char *name);

#endif
