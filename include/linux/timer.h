/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timers on the run's clock: jiffies (HZ 1000: CLOCK_MONOTONIC_COARSE in
 * ms, which moves in ticks as jiffies do, or a clock a test sets), timer_list with mod_timer()/del_timer(), and
 * run_timers(), the timer softirq, which worker 0 calls between its NAPI
 * polls (net/core/dev.c). Expired timers run there, one at a time, with
 * no lock held; any worker may arm or delete a timer.
 *
 * Kernel: include/linux/timer.h, include/linux/jiffies.h,
 *	   kernel/time/timer.c mod_timer(), timer_delete(), run_timer_softirq()
 * Differs: one unsorted list under a spinlock instead of the per-CPU
 *	    wheel (the few timers of neighbour tables); timers fire only
 *	    while a run's workers poll, never between runs; no
 *	    timer_delete_sync() (callers keep their objects alive).
 */
#ifndef _UXDP_LINUX_TIMER_H
#define _UXDP_LINUX_TIMER_H

#include <linux/types.h>

#define HZ	1000

/* The run's clock in jiffies (ms). */
u64 get_jiffies_64(void);
#define jiffies	get_jiffies_64()

#define time_after(a, b)	((s64)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((s64)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

static inline u64 msecs_to_jiffies(u64 ms)
{
	return ms;
}

static inline u64 jiffies_to_msecs(u64 j)
{
	return j;
}

struct timer_list {
	struct timer_list *next;
	struct timer_list **pprev;	/* NULL: not pending */
	u64 expires;
	void (*function)(struct timer_list *);
};

void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags);
/* (Re)arm @timer for @expires. Return: 1 if it was pending, 0 if not. */
int mod_timer(struct timer_list *timer, u64 expires);
/* Disarm @timer. Return: 1 if it was pending. */
int del_timer(struct timer_list *timer);
bool timer_pending(const struct timer_list *timer);
/* Run the expired timers on the calling thread (worker 0; tests). */
void run_timers(void);

/* Tests: freeze the clock at @j jiffies (advance it with more calls); 0 = real clock. */
void jiffies_set_fake(u64 j);

#endif
