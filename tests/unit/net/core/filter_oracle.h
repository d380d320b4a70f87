/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel side of filter_oracle_test.c (filter_oracle_kernel.c): 0 or -errno. */
#ifndef _FILTER_ORACLE_H
#define _FILTER_ORACLE_H

#include <stddef.h>

int oracle_open(const char *path, const void *probe_args, size_t args_sz);
int oracle_run(const void *args, void *args_out, const void *pkt, unsigned int len,
	       void *out, unsigned int out_size, unsigned int *size_out, unsigned int *retval);
void oracle_close(void);

#endif
