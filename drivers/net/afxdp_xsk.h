/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-facing half of the afxdp driver (drivers/net/afxdp.c): AF_XDP
 * sockets and their UMEM through libxdp's xsk API, and the kernel XDP
 * program that steers an interface's frames into them. Everything here
 * speaks the real kernel's bpf(2) (raw syscalls: libbpf's <bpf/bpf.h>
 * wrappers such as bpf_map_update_elem() share names with uxdp's datapath
 * functions) and libxdp's xsk API; this header uses plain C types only
 * (libbpf/libxdp use is confined to this one glue file, where a clash
 * with the datapath's names would surface).
 *
 * Kernel: tools/lib/bpf xsk.c (before its move to libxdp) xsk_setup_xdp_prog();
 *	   samples/bpf/xdpsock_user.c (the ring protocol)
 * Differs: the redirect program is attached through a bpf_link, so the
 *	    kernel detaches it when uxdp exits however it exits.
 */
#ifndef _UXDP_DRIVERS_NET_AFXDP_XSK_H
#define _UXDP_DRIVERS_NET_AFXDP_XSK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xdp/xsk.h>

/* Rings of one AF_XDP socket: (k) the kernel produces, (u) uxdp produces. */
struct afxdp_xsk {
	struct xsk_ring_cons rx;	/* (k) received descriptors */
	struct xsk_ring_prod tx;	/* (u) descriptors to send */
	struct xsk_ring_prod fq;	/* (u) free frames for the kernel to fill */
	struct xsk_ring_cons cq;	/* (k) frames the kernel has sent */
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	int fd;
	void *area;			/* UMEM */
	size_t area_size;
	bool zerocopy;			/* the kernel bound in XDP_ZEROCOPY */
};

enum afxdp_bind_mode { AFXDP_MODE_AUTO, AFXDP_MODE_COPY, AFXDP_MODE_ZEROCOPY };
/* How the kernel program attaches: native, else generic if allowed; or generic only. */
enum afxdp_xdp_mode { AFXDP_XDP_NATIVE, AFXDP_XDP_AUTO, AFXDP_XDP_GENERIC };

struct afxdp_xsk_cfg {
	const char *devname;		/* the uxdp device, for messages */
	const char *ifname;
	uint32_t queue;
	enum afxdp_bind_mode mode;
	bool libxdp_prog;		/* let xsk_socket__create() load libxdp's program */
	bool xdp_generic;		/* libxdp_prog: attach it in SKB mode */
	uint32_t frame_size;
	uint32_t nr_frames;		/* UMEM frames */
	uint32_t ring_size;		/* rx, tx, fill and completion */
};

/* The kernel-side redirect program, its XSKMAP and the bpf_link attaching it. */
struct afxdp_kprog {
	int prog_fd;
	int map_fd;			/* XSKMAP indexed by rx queue */
	int link_fd;
	struct bpf_object *obj;		/* prog OBJ */
	bool generic;			/* attached in SKB (generic) mode */
};

/* The interface's ifindex in this namespace, or 0. */
int afxdp_if_index(const char *ifname);
/* The interface's rx queue count (ethtool -l, else /sys). Negative: -errno. */
int afxdp_if_rx_queues(const char *ifname);
/* The interface's MAC into @mac (6 bytes). */
int afxdp_if_hwaddr(const char *ifname, uint8_t *mac);

/*
 * Create the UMEM (@cfg->nr_frames frames) and bind a socket to
 * @cfg->queue of @cfg->ifname. On failure everything is undone and @err
 * says what to do.
 */
int afxdp_xsk_create(struct afxdp_xsk *x, const struct afxdp_xsk_cfg *cfg,
		     char *err, size_t errlen);
/* Close the socket and free the UMEM. Accepts a half-built or zeroed @x. */
void afxdp_xsk_destroy(struct afxdp_xsk *x);
/* The socket's pending error (SO_ERROR), 0 if none; -errno on failure. */
int afxdp_xsk_error(const struct afxdp_xsk *x);
/* XDP_STATISTICS: rx_dropped, rx_invalid, tx_invalid, rx_ring_full, fill_empty, tx_empty. */
int afxdp_xsk_stats(const struct afxdp_xsk *x, uint64_t v[6]);

/*
 * Load the redirect program (@obj NULL: the built-in one, the same as
 * examples/progs/xsk_redirect.c) and its XSKMAP; on failure nothing is
 * left loaded and @err says why.
 */
int afxdp_kprog_load(struct afxdp_kprog *kp, const char *devname, const char *obj,
		     char *err, size_t errlen);
/*
 * Attach the loaded program to @ifindex through a bpf_link: native mode;
 * with AFXDP_XDP_AUTO generic when the driver has no native XDP; with
 * AFXDP_XDP_GENERIC generic only (@kp->generic says which). Attach it
 * once the sockets are in the map: an empty slot XDP_PASSes the frame to
 * the kernel's stack, a frame uxdp never sees. On failure @kp stays loaded.
 */
int afxdp_kprog_attach(struct afxdp_kprog *kp, const char *devname, const char *ifname,
		       int ifindex, enum afxdp_xdp_mode xdp_mode, char *err, size_t errlen);
/* Point XSKMAP slot @queue at @fd. */
int afxdp_kprog_set(struct afxdp_kprog *kp, uint32_t queue, int fd);
/* Detach (close the link) and unload. Accepts a zeroed @kp (fds -1 or 0 mean none). */
void afxdp_kprog_detach(struct afxdp_kprog *kp);

#endif
