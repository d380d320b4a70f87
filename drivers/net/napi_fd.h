/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NAPI for devices whose wire is a kernel file descriptor (afpacket, tap):
 * what a real NIC's interrupt gives, a worker has to fake. While frames
 * flow, the device's poll stays scheduled (busy polling, like gen). After
 * NAPI_FD_IDLE_POLLS empty polls in a row it parks: the NAPI completes and
 * its fd goes on the worker's parked list. A worker with nothing left on
 * its poll list asks the devices whether a source is still active
 * (ndo_gen_active, a pure question) and, if one is, runs the device
 * layer's idle hook: napi_fd_wait(), registered at start-up, which sleeps
 * in poll(2) on the worker's parked fds for at most 1 ms and schedules
 * those that became readable: the interrupt and its handler. Parking is
 * refused while any other generator (gen, a device not using this file) is
 * active, because a worker busy with it would never reach the idle hook.
 *
 * Transmit kicks: a driver writes frames into its kernel ring and tells
 * the kernel once per batch (send(), the doorbell). napi_fd_defer_kick()
 * queues the kick until the end of the current fd-device poll
 * (napi_fd_poll_end(), the xmit_more idea); outside such a poll it
 * returns false and the caller kicks at once.
 *
 * Kernel: net/core/dev.c napi_schedule() from an IRQ handler,
 *	   napi_busy_loop(); include/linux/netdevice.h netdev_xmit_more()
 * Differs: the "interrupt" is poll(2) with a 1 ms timeout, taken only by
 *	    an otherwise idle worker.
 */
#ifndef _UXDP_DRIVERS_NET_NAPI_FD_H
#define _UXDP_DRIVERS_NET_NAPI_FD_H

#include <linux/netdevice.h>

#define NAPI_FD_IDLE_POLLS	64	/* empty polls before a NAPI parks */
#define NAPI_FD_WAIT_MS		1

struct napi_fd {
	struct napi_struct *napi;
	int fd;
	unsigned int idle;		/* empty polls in a row */
};

struct napi_fd_kick {
	void (*kick)(struct napi_fd_kick *k);
};

/* A device using this file (so its ndo_gen_active does not block parking). */
void napi_fd_register(struct net_device *dev);
void napi_fd_unregister(struct net_device *dev);

/* Around an fd device's poll; napi_fd_poll_end() runs the deferred kicks. */
void napi_fd_poll_begin(void);
void napi_fd_poll_end(void);

/*
 * napi_fd_idle() - the poll of @nf did @work frames
 * Return: true if the NAPI must complete now (parked on this worker).
 */
bool napi_fd_idle(struct napi_fd *nf, int work);

/* The idle hook (netdev_set_idle_hook()): sleep on the parked fds, schedule the ready. */
void napi_fd_wait(void);

/* Queue @k for napi_fd_poll_end(); false outside an fd poll (kick now). */
bool napi_fd_defer_kick(struct napi_fd_kick *k);

/*
 * Enter network namespace @name (/run/netns/NAME, as ip netns) on the
 * calling thread; *oldfd keeps the previous one for napi_fd_netns_leave().
 * Sockets and tun devices belong to the namespace they are created in.
 * Return: 0 or -errno.
 */
int napi_fd_netns_enter(const char *name, int *oldfd);
void napi_fd_netns_leave(int oldfd);

#endif
