// SPDX-License-Identifier: GPL-2.0
/*
 * Worker identity: the thread-local CPU number behind smp_processor_id().
 *
 * Kernel: kernel/smp.c (the idea only)
 * Differs: a "CPU" is a worker thread that bound itself; unbound threads
 * (the control plane, tests) run as CPU 0.
 */
#include <errno.h>
#include <unistd.h>

#include <linux/bug.h>
#include <linux/smp.h>

__thread int uxdp_this_cpu;
__thread int uxdp_softirq_count;
unsigned int nr_cpu_ids = 1;
bool uxdp_percpu_frozen;

__attribute__((constructor)) static void smp_init(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	nr_cpu_ids = n < 1 ? 1 : n > NR_CPUS ? NR_CPUS : (unsigned int)n;
}

void uxdp_worker_bind_cpu(int cpu)
{
	BUG_ON(cpu < 0 || cpu >= (int)nr_cpu_ids);
	uxdp_this_cpu = cpu;
}

int uxdp_set_nr_cpus(unsigned int n)
{
	if (n < 1 || n > NR_CPUS)
		return -EINVAL;
	if (uxdp_percpu_frozen && n != nr_cpu_ids)
		return -EBUSY;
	nr_cpu_ids = n;
	return 0;
}
