/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error pointers: internal constructors return ERR_PTR(-errno); the public
 * API converts them to NULL + errno in one place.
 *
 * Kernel: include/linux/err.h
 */
#ifndef _UXDP_LINUX_ERR_H
#define _UXDP_LINUX_ERR_H

#include <linux/compiler.h>

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE((unsigned long)ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return unlikely(!ptr) || IS_ERR(ptr); }

/* Kernel-internal errno values the UAPI headers do not carry. */
#define ENOTSUPP	524

#endif
