/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal logging: every library message goes through uxdp_log(), which
 * hands it to the callback installed with uxdp_set_print(). Messages start
 * with the object they concern: "veth0: peer is down".
 *
 * Kernel: include/linux/printk.h
 */
#ifndef _UXDP_LINUX_PRINTK_H
#define _UXDP_LINUX_PRINTK_H

#include <uxdp/uxdp.h>
#include <linux/compiler.h>

void uxdp_log(enum uxdp_print_level level, const char *fmt, ...) __printf(2, 3);
/* Record @msg as this thread's uxdp_errmsg() (uxdp_log() does it for warnings). */
void uxdp_errmsg_set(const char *msg);

#define pr_warn(fmt, ...)	uxdp_log(UXDP_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	uxdp_log(UXDP_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	uxdp_log(UXDP_DEBUG, fmt, ##__VA_ARGS__)

#endif
