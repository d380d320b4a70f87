// SPDX-License-Identifier: GPL-2.0
/*
 * Parking and waking the NAPI instances of fd-backed devices, and the
 * deferred transmit kicks (theory in napi_fd.h). State is per worker
 * (thread-local): a NAPI is polled by one worker at a time, parks on that
 * worker and is woken by it. The registry of fd devices is written only
 * by the control thread between runs.
 *
 * Kernel: net/core/dev.c napi_schedule(), napi_complete_done()
 * Differs: see napi_fd.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netdevice.h>
#include <linux/printk.h>

#include "napi_fd.h"

#define NAPI_FD_MAX_PARKED	64
#define NAPI_FD_MAX_KICKS	64
#define NAPI_FD_MAX_DEVS	256
#define NAPI_FD_CHECK_POLLS	16	/* busy polls between looks at parked fds */

static struct net_device *fd_devs[NAPI_FD_MAX_DEVS];
static unsigned int nr_fd_devs;

static __thread struct napi_fd *parked[NAPI_FD_MAX_PARKED];
static __thread unsigned int nr_parked;
static __thread struct napi_fd_kick *kicks[NAPI_FD_MAX_KICKS];
static __thread unsigned int nr_kicks;
static __thread unsigned int poll_depth;
static __thread unsigned int polls_since_check;

void napi_fd_register(struct net_device *dev)
{
	if (nr_fd_devs < NAPI_FD_MAX_DEVS)
		fd_devs[nr_fd_devs++] = dev;
}

void napi_fd_unregister(struct net_device *dev)
{
	for (unsigned int i = 0; i < nr_fd_devs; i++) {
		if (fd_devs[i] == dev) {
			fd_devs[i] = fd_devs[--nr_fd_devs];
			return;
		}
	}
}

static bool is_fd_dev(const struct net_device *dev)
{
	for (unsigned int i = 0; i < nr_fd_devs; i++)
		if (fd_devs[i] == dev)
			return true;
	return false;
}

/* Is a generator whose worker never idles (gen, ...) still producing? */
static bool other_generator_active(void)
{
	for (struct net_device *dev = dev_get_next(NULL); dev; dev = dev_get_next(dev))
		if (dev->netdev_ops && dev->netdev_ops->ndo_gen_active && !is_fd_dev(dev) &&
		    dev->netdev_ops->ndo_gen_active(dev))
			return true;
	return false;
}

void napi_fd_poll_begin(void)
{
	poll_depth++;
}

static void napi_fd_wake(int timeout_ms)
{
	struct pollfd pfd[NAPI_FD_MAX_PARKED];
	unsigned int i, n = nr_parked;

	for (i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = parked[i]->fd, .events = POLLIN };
	if (poll(pfd, n, timeout_ms) <= 0)
		return;
	/* Schedule the ready ones (on this worker) and keep the others parked. */
	nr_parked = 0;
	for (i = 0; i < n; i++) {
		if (!pfd[i].revents) {
			parked[nr_parked++] = parked[i];
			continue;
		}
		/*
		 * A socket error (ENETDOWN: the interface went down or away)
		 * stays POLLERR until read: take it, so that the driver's poll
		 * looks once and the next poll(2) sleeps again.
		 */
		if (pfd[i].revents & POLLERR) {
			int soerr;
			socklen_t len = sizeof(soerr);

			getsockopt(pfd[i].fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
		}
		napi_schedule(parked[i]->napi);
	}
}

void napi_fd_poll_end(void)
{
	/* Nested polls (a redirect into a veth that polls...) kick at the outermost end. */
	if (--poll_depth)
		return;
	for (unsigned int i = 0; i < nr_kicks; i++)
		kicks[i]->kick(kicks[i]);
	nr_kicks = 0;
	/*
	 * A busy device keeps this worker from ever idling: look at the
	 * parked fds now and then, or a quiet direction (TCP ACKs) would
	 * wait for the busy one to stop.
	 */
	if (nr_parked && ++polls_since_check >= NAPI_FD_CHECK_POLLS) {
		polls_since_check = 0;
		napi_fd_wake(0);
	}
}

bool napi_fd_defer_kick(struct napi_fd_kick *k)
{
	if (!poll_depth)
		return false;
	for (unsigned int i = 0; i < nr_kicks; i++)
		if (kicks[i] == k)
			return true;
	if (nr_kicks == NAPI_FD_MAX_KICKS)
		return false;
	kicks[nr_kicks++] = k;
	return true;
}

bool napi_fd_idle(struct napi_fd *nf, int work)
{
	if (work) {
		nf->idle = 0;
		return false;
	}
	if (++nf->idle < NAPI_FD_IDLE_POLLS || nr_parked == NAPI_FD_MAX_PARKED)
		return false;
	nf->idle = 0;
	if (other_generator_active())
		return false;
	/* Scheduled from elsewhere while parked (dev_napi_schedule_all()): once on the list. */
	for (unsigned int i = 0; i < nr_parked; i++)
		if (parked[i] == nf)
			return true;
	parked[nr_parked++] = nf;
	return true;
}

void napi_fd_wait(void)
{
	if (nr_parked)
		napi_fd_wake(NAPI_FD_WAIT_MS);
	else
		sched_yield();
}

__attribute__((constructor)) static void napi_fd_init(void)
{
	netdev_set_idle_hook(napi_fd_wait);
}

int napi_fd_netns_enter(const char *name, int *oldfd)
{
	char path[128];
	int fd, ret;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	*oldfd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*oldfd < 0)
		return -errno;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out_close_old;
	}
	ret = setns(fd, CLONE_NEWNET) ? -errno : 0;
	close(fd);
	if (!ret)
		return 0;
out_close_old:
	close(*oldfd);
	*oldfd = -1;
	return ret;
}

void napi_fd_netns_leave(int oldfd)
{
	/* Going back to where we were cannot fail for lack of rights. */
	if (setns(oldfd, CLONE_NEWNET))
		pr_warn("cannot return to the original network namespace: %s\n", strerror(errno));
	close(oldfd);
}
