/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation flags. uxdp never sleeps or reclaims, so only the flags that
 * change what an allocator returns mean anything: __GFP_ZERO zeroes the
 * object, __GFP_NOWARN is accepted and ignored, __GFP_NOFAIL-free callers
 * must handle NULL (fault injection makes that path real, see <linux/slab.h>).
 *
 * Kernel: include/linux/gfp_types.h
 * Differs: GFP_KERNEL and GFP_ATOMIC are equivalent.
 */
#ifndef _UXDP_LINUX_GFP_H
#define _UXDP_LINUX_GFP_H

#include <linux/types.h>

typedef unsigned int gfp_t;

#define __GFP_ZERO	0x1u
#define __GFP_NOWARN	0x2u
#define __GFP_COMP	0x4u
#define __GFP_NOFAULT	0x80000000u	/* uxdp: never inject a failure (internal metadata) */

#define GFP_ATOMIC	0x10u
#define GFP_KERNEL	0x20u
#define GFP_NOWAIT	GFP_ATOMIC

#endif
