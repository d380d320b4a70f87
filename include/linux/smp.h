/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "CPUs" are uxdp workers. Each worker thread binds itself to a CPU number
 * once (uxdp_worker_bind_cpu()); smp_processor_id() then reads a
 * thread-local. Per-CPU data (map slots, caches, bulk queues) is indexed by
 * it. num_possible_cpus() is fixed before any per-CPU object is created and
 * defaults to the machine's CPU count, so per-CPU map values have the same
 * shape as the kernel's on this machine.
 *
 * Kernel: include/linux/smp.h, include/linux/cpumask.h
 */
#ifndef _UXDP_LINUX_SMP_H
#define _UXDP_LINUX_SMP_H

#include <linux/compiler.h>

#define NR_CPUS 64

extern __thread int uxdp_this_cpu;
extern unsigned int nr_cpu_ids;

static inline int smp_processor_id(void)
{
	return uxdp_this_cpu;
}

/*
 * Offset of thread-local @var from this thread's thread pointer: the same
 * in every thread when the variable is in static TLS (the code was linked
 * into the executable or loaded with it), not in a dlopen()ed library's.
 * The JIT reaches such variables as %fs:offset.
 */
static inline long tls_tp_off(const void *var)
{
#if defined(__x86_64__)
	unsigned long tp;

	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return (long)((unsigned long)var - tp);
#else
	(void)var;
	return 0;
#endif
}

/* tls_tp_off() of uxdp_this_cpu, the CPU number smp_processor_id() reads */
static inline long smp_tp_off(void)
{
	return tls_tp_off(&uxdp_this_cpu);
}

static inline unsigned int num_possible_cpus(void)
{
	return nr_cpu_ids;
}

/*
 * Softirq context: a worker inside net_rx_action() (NAPI polls and what
 * they call). Code that may take a lockless per-NAPI shortcut (the page
 * pool's direct recycling) checks it, as the kernel checks in_softirq().
 */
extern __thread int uxdp_softirq_count;

static inline bool in_softirq(void)
{
	return uxdp_softirq_count != 0;
}

/* Bind the calling thread to @cpu (0 <= cpu < nr_cpu_ids). */
void uxdp_worker_bind_cpu(int cpu);

/*
 * Set the number of possible CPUs (1..NR_CPUS). Only before any per-CPU
 * object exists; returns -EBUSY afterwards, -EINVAL out of range.
 */
int uxdp_set_nr_cpus(unsigned int n);

/* Set when the first per-CPU map is created: nr_cpu_ids is fixed from then. */
extern bool uxdp_percpu_frozen;

#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)

#endif
