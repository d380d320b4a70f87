/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fixed-size ring of non-NULL pointers, single consumer, producers under
 * a lock. A slot is free when it holds NULL: produce fails with -ENOSPC
 * when the slot at the producer index is still set. The consumer clears
 * consumed slots lazily, a batch at a time (16 slots on 64-bit, 1 if that
 * is more than half the ring) and at wrap-around, so a ring can look full
 * to a producer while up to batch - 1 consumed slots are not yet released,
 * exactly as the kernel's.
 *
 * Kernel: include/linux/ptr_ring.h ptr_ring_init(), __ptr_ring_produce(),
 *	   __ptr_ring_peek(), __ptr_ring_discard_one(), __ptr_ring_consume(),
 *	   ptr_ring_cleanup()
 * Differs: pthread spinlocks; no resize; no consumer lock (uxdp's only
 *	    consumer is NAPI, serialised as in veth).
 */
#ifndef _UXDP_LINUX_PTR_RING_H
#define _UXDP_LINUX_PTR_RING_H

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <linux/compiler.h>

struct ptr_ring {
	int producer __aligned(SMP_CACHE_BYTES);
	pthread_spinlock_t producer_lock;
	int consumer_head __aligned(SMP_CACHE_BYTES);	/* next valid entry */
	int consumer_tail;				/* next entry to invalidate */
	int size __aligned(SMP_CACHE_BYTES);
	int batch;
	void **queue;
};

static inline int ptr_ring_init(struct ptr_ring *r, int size)
{
	r->queue = calloc(size, sizeof(void *));
	if (!r->queue)
		return -ENOMEM;
	r->size = size;
	r->batch = SMP_CACHE_BYTES * 2 / sizeof(*r->queue);
	if (r->batch > r->size / 2 || !r->batch)
		r->batch = 1;
	r->producer = r->consumer_head = r->consumer_tail = 0;
	pthread_spin_init(&r->producer_lock, PTHREAD_PROCESS_PRIVATE);
	return 0;
}

/* Caller holds producer_lock. Return: 0, or -ENOSPC when the slot is in use. */
static inline int __ptr_ring_produce(struct ptr_ring *r, void *ptr)
{
	if (unlikely(!r->size) || __atomic_load_n(&r->queue[r->producer], __ATOMIC_ACQUIRE))
		return -ENOSPC;
	/* Publish the object before the pointer (the kernel's smp_wmb()). */
	__atomic_store_n(&r->queue[r->producer++], ptr, __ATOMIC_RELEASE);
	if (unlikely(r->producer >= r->size))
		r->producer = 0;
	return 0;
}

static inline int ptr_ring_produce(struct ptr_ring *r, void *ptr)
{
	int ret;

	pthread_spin_lock(&r->producer_lock);
	ret = __ptr_ring_produce(r, ptr);
	pthread_spin_unlock(&r->producer_lock);
	return ret;
}

static inline void *__ptr_ring_peek(struct ptr_ring *r)
{
	if (likely(r->size))
		return __atomic_load_n(&r->queue[r->consumer_head], __ATOMIC_ACQUIRE);
	return NULL;
}

static inline bool __ptr_ring_empty(struct ptr_ring *r)
{
	return !__ptr_ring_peek(r);
}

static inline void __ptr_ring_discard_one(struct ptr_ring *r)
{
	int consumer_head = r->consumer_head;
	int head = consumer_head++;

	/*
	 * Release the consumed slots in batches, newest first, so producers
	 * never see a free slot ahead of a used one, and so the cache line is
	 * not bounced between producer and consumer on every entry.
	 */
	if (unlikely(consumer_head - r->consumer_tail >= r->batch ||
		     consumer_head >= r->size)) {
		while (likely(head >= r->consumer_tail))
			__atomic_store_n(&r->queue[head--], NULL, __ATOMIC_RELEASE);
		r->consumer_tail = consumer_head;
	}
	if (unlikely(consumer_head >= r->size)) {
		consumer_head = 0;
		r->consumer_tail = 0;
	}
	r->consumer_head = consumer_head;
}

static inline void *__ptr_ring_consume(struct ptr_ring *r)
{
	void *ptr = __ptr_ring_peek(r);

	if (ptr)
		__ptr_ring_discard_one(r);
	return ptr;
}

/* Consume every entry through @destroy (may be NULL) and free the ring. */
static inline void ptr_ring_cleanup(struct ptr_ring *r, void (*destroy)(void *))
{
	void *ptr;

	if (destroy)
		while ((ptr = __ptr_ring_consume(r)))
			destroy(ptr);
	free(r->queue);
	r->queue = NULL;
	r->size = 0;
	pthread_spin_destroy(&r->producer_lock);
}

#endif
