// SPDX-License-Identifier: GPL-2.0
/*
 * jiffies and timer_list on the run's clock (see include/linux/timer.h).
 * Pending timers are on one list under a spinlock with a cached earliest
 * expiry, so run_timers() costs a load and a compare when nothing is due;
 * a due timer is unlinked under the lock and its function called after
 * the lock is dropped, then the list is looked at again, so a handler may
 * re-arm its own timer and other workers may arm and delete timers while
 * handlers run.
 *
 * Kernel: kernel/time/timer.c mod_timer(), __mod_timer(), timer_delete(),
 *	   __run_timers(), expire_timers(); kernel/time/jiffies.c
 * Differs: see include/linux/timer.h.
 */
#include <pthread.h>
#include <time.h>

#include <linux/compiler.h>
#include <linux/timer.h>

static pthread_spinlock_t timer_lock;
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static struct timer_list *timer_head;
static u64 timer_next = ~0ULL;		/* earliest expiry, ~0 when none */
static u64 jiffies_fake;

static void timer_init_once(void)
{
	pthread_spin_init(&timer_lock, PTHREAD_PROCESS_PRIVATE);
}

u64 get_jiffies_64(void)
{
	u64 fake = __atomic_load_n(&jiffies_fake, __ATOMIC_RELAXED);
	struct timespec ts;

	if (fake)
		return fake;
	/* The coarse clock: a few ns per read, ticks of 1-4 ms as jiffies have. */
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (u64)ts.tv_sec * HZ + ts.tv_nsec / (1000000000 / HZ);
}

void jiffies_set_fake(u64 j)
{
	__atomic_store_n(&jiffies_fake, j, __ATOMIC_RELAXED);
}

void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags)
{
	(void)flags;
	pthread_once(&timer_once, timer_init_once);
	timer->next = NULL;
	timer->pprev = NULL;
	timer->expires = 0;
	timer->function = fn;
}

static void __timer_unlink(struct timer_list *timer)
{
	*timer->pprev = timer->next;
	if (timer->next)
		timer->next->pprev = timer->pprev;
	timer->next = NULL;
	timer->pprev = NULL;
}

int mod_timer(struct timer_list *timer, u64 expires)
{
	int was = 0;

	pthread_spin_lock(&timer_lock);
	if (timer->pprev) {
		__timer_unlink(timer);
		was = 1;
	}
	timer->expires = expires;
	timer->next = timer_head;
	timer->pprev = &timer_head;
	if (timer_head)
		timer_head->pprev = &timer->next;
	timer_head = timer;
	if (expires < timer_next)
		__atomic_store_n(&timer_next, expires, __ATOMIC_RELAXED);
	pthread_spin_unlock(&timer_lock);
	return was;
}

int del_timer(struct timer_list *timer)
{
	int was = 0;

	pthread_spin_lock(&timer_lock);
	if (timer->pprev) {
		__timer_unlink(timer);
		was = 1;
	}
	pthread_spin_unlock(&timer_lock);
	return was;
}

bool timer_pending(const struct timer_list *timer)
{
	return READ_ONCE(timer->pprev) != NULL;
}

void run_timers(void)
{
	u64 now = jiffies;

	if (likely(now < __atomic_load_n(&timer_next, __ATOMIC_RELAXED)))
		return;
	pthread_once(&timer_once, timer_init_once);
	for (;;) {
		struct timer_list *t, *due = NULL;
		u64 next = ~0ULL;

		pthread_spin_lock(&timer_lock);
		for (t = timer_head; t; t = t->next) {
			if (!due && time_before_eq(t->expires, now))
				due = t;
			else if (t->expires < next)
				next = t->expires;
		}
		if (due)
			__timer_unlink(due);
		__atomic_store_n(&timer_next, next, __ATOMIC_RELAXED);
		pthread_spin_unlock(&timer_lock);
		if (!due)
			return;
		due->function(due);
	}
}
