// SPDX-License-Identifier: GPL-2.0
/*
 * Drop reason names and per-CPU counters (see <net/dropreason.h>), and
 * their public read-out (uxdp_skb_drops_get(), <uxdp/uxdp_link.h>).
 *
 * Kernel: net/core/skbuff.c drop_reasons[], the skb:kfree_skb tracepoint
 * Differs: the counters stand in for the tracepoint + drop_monitor.
 */
#include <string.h>

#include <linux/compiler.h>
#include <linux/smp.h>
#include <net/dropreason.h>

#include <uxdp/uxdp_link.h>

#define __SKB_DROP_REASON_NAME(name)	[SKB_DROP_REASON_##name] = #name,

static const char *const drop_reasons[] = {
	[SKB_NOT_DROPPED_YET] = "NOT_DROPPED_YET",
	[SKB_CONSUMED] = "CONSUMED",
	DEFINE_DROP_REASON(__SKB_DROP_REASON_NAME, __SKB_DROP_REASON_NAME)
};

struct drop_counters {
	u64 count[SKB_DROP_REASON_MAX];
} __aligned(SMP_CACHE_BYTES);

static struct drop_counters drop_counters[NR_CPUS];

const char *skb_drop_reason_name(enum skb_drop_reason reason)
{
	if ((unsigned int)reason >= SKB_DROP_REASON_MAX)
		return NULL;
	return drop_reasons[reason];
}

void __skb_drop_reason_count(enum skb_drop_reason reason)
{
	if (unlikely((unsigned int)reason >= SKB_DROP_REASON_MAX ||
		     reason == SKB_NOT_DROPPED_YET))
		reason = SKB_DROP_REASON_NOT_SPECIFIED;
	drop_counters[smp_processor_id()].count[reason]++;
}

u64 skb_drop_reason_count(enum skb_drop_reason reason)
{
	u64 sum = 0;

	if ((unsigned int)reason >= SKB_DROP_REASON_MAX)
		return 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += READ_ONCE(drop_counters[cpu].count[reason]);
	return sum;
}

void skb_drop_reason_counts(u64 *counts)
{
	for (int r = 0; r < SKB_DROP_REASON_MAX; r++)
		counts[r] = skb_drop_reason_count(r);
}

void skb_drop_reason_reset(void)
{
	memset(drop_counters, 0, sizeof(drop_counters));
}

int uxdp_skb_drops_get(const char **names, uint64_t *counts, int max)
{
	int n = 0;

	for (int r = 0; r < SKB_DROP_REASON_MAX; r++) {
		if (n < max) {
			names[n] = drop_reasons[r];
			counts[n] = skb_drop_reason_count(r);
		}
		n++;
	}
	return n;
}
