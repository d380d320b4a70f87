// SPDX-License-Identifier: GPL-2.0
/*
 * AF_XDP sockets, UMEM and the kernel redirect program for the afxdp
 * driver: the only file of uxdp that talks to the real kernel's bpf(2) and
 * AF_XDP (see afxdp_xsk.h for why it is separate). Errors are turned into
 * messages that name the uxdp device and the interface and say what to do.
 *
 * The built-in redirect program is the classic one (libbpf's old xsk.c,
 * examples/progs/xsk_redirect.c):
 *
 *	r2 = ctx->rx_queue_index
 *	r1 = &xsks_map
 *	r3 = XDP_PASS			// fallback when the slot is empty
 *	r0 = bpf_redirect_map(r1, r2, r3)
 *	exit
 *
 * Kernel: net/xdp/xsk.c xsk_bind() xsk_notifier(); tools/lib/bpf/xsk.c
 *	   (libbpf < 1.0) xsk_load_xdp_prog()
 * Differs: attach is a bpf_link (BPF_LINK_CREATE), not a netlink
 *	    IFLA_XDP attach, so it cannot outlive the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sys/syscall.h>

#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "afxdp_xsk.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif

int afxdp_if_index(const char *ifname)
{
	return (int)if_nametoindex(ifname);
}

int afxdp_if_rx_queues(const char *ifname)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = { 0 };
	char path[128];
	struct dirent *de;
	int fd, ret, n = 0;
	DIR *d;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ch;
	ret = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	if (!ret) {
		n = ch.rx_count > ch.combined_count ? ch.rx_count : ch.combined_count;
		if (n)
			return n;
	}
	/* No ethtool channels: count /sys/class/net/IF/queues/rx-N. */
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "rx-", 3);
	closedir(d);
	return n ? n : 1;
}

int afxdp_if_hwaddr(const char *ifname, uint8_t *mac)
{
	struct ifreq ifr = { 0 };
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ret = ioctl(fd, SIOCGIFHWADDR, &ifr) ? -errno : 0;
	close(fd);
	if (!ret)
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	return ret;
}

void afxdp_xsk_destroy(struct afxdp_xsk *x)
{
	if (!x)
		return;
	if (x->xsk)
		xsk_socket__delete(x->xsk);
	x->xsk = NULL;
	x->fd = -1;
	if (x->umem)
		xsk_umem__delete(x->umem);
	x->umem = NULL;
	if (x->area)
		munmap(x->area, x->area_size);
	x->area = NULL;
}

int afxdp_xsk_create(struct afxdp_xsk *x, const struct afxdp_xsk_cfg *cfg,
		     char *err, size_t errlen)
{
	struct xsk_umem_config ucfg = {
		.fill_size = cfg->ring_size,
		.comp_size = cfg->ring_size,
		.frame_size = cfg->frame_size,
		.frame_headroom = 0,
	};
	struct xsk_socket_config scfg = {
		.rx_size = cfg->ring_size,
		.tx_size = cfg->ring_size,
		.libxdp_flags = cfg->libxdp_prog ? 0 : XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = cfg->xdp_generic ? XDP_FLAGS_SKB_MODE : 0,
		.bind_flags = XDP_USE_NEED_WAKEUP,
	};
	struct xdp_options opts = { 0 };
	socklen_t optlen = sizeof(opts);
	int ret, probe;

	memset(x, 0, sizeof(*x));
	x->fd = -1;
	if (cfg->mode == AFXDP_MODE_COPY)
		scfg.bind_flags |= XDP_COPY;
	else if (cfg->mode == AFXDP_MODE_ZEROCOPY)
		scfg.bind_flags |= XDP_ZEROCOPY;

	/* Probe first: the errors of socket(2) are the clearest. */
	probe = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (probe < 0) {
		ret = -errno;
		if (ret == -EPERM || ret == -EACCES)
			snprintf(err, errlen, "%s: no permission to open an AF_XDP socket "
				 "(needs CAP_NET_RAW, CAP_NET_ADMIN and CAP_BPF: run as root)",
				 cfg->devname);
		else if (ret == -EAFNOSUPPORT)
			snprintf(err, errlen, "%s: this kernel has no AF_XDP sockets "
				 "(CONFIG_XDP_SOCKETS); use type afpacket", cfg->devname);
		else
			snprintf(err, errlen, "%s: cannot open an AF_XDP socket: %s",
				 cfg->devname, strerror(-ret));
		return ret;
	}
	close(probe);

	x->area_size = (size_t)cfg->nr_frames * cfg->frame_size;
	x->area = mmap(NULL, x->area_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (x->area == MAP_FAILED) {
		x->area = NULL;
		snprintf(err, errlen, "%s: cannot map %zu bytes of UMEM", cfg->devname,
			 x->area_size);
		return -ENOMEM;
	}
	ret = xsk_umem__create(&x->umem, x->area, x->area_size, &x->fq, &x->cq, &ucfg);
	if (ret) {
		x->umem = NULL;
		if (ret == -EPERM || ret == -ENOMEM || ret == -ENOBUFS)
			snprintf(err, errlen, "%s: cannot register %zu KiB of UMEM: %s "
				 "(locked-memory limit? ulimit -l, or run as root)",
				 cfg->devname, x->area_size >> 10, strerror(-ret));
		else
			snprintf(err, errlen, "%s: cannot register the UMEM: %s", cfg->devname,
				 strerror(-ret));
		goto out_destroy;
	}
	ret = xsk_socket__create(&x->xsk, cfg->ifname, cfg->queue, x->umem, &x->rx, &x->tx,
				 &scfg);
	if (ret) {
		x->xsk = NULL;
		switch (ret) {
		case -EOPNOTSUPP:
			if (cfg->mode == AFXDP_MODE_ZEROCOPY)
				snprintf(err, errlen, "%s: %s has no zero-copy AF_XDP support "
					 "(its driver does not implement it; veth never does): "
					 "use mode copy or auto", cfg->devname, cfg->ifname);
			else
				snprintf(err, errlen, "%s: %s cannot bind AF_XDP sockets: %s",
					 cfg->devname, cfg->ifname, strerror(-ret));
			break;
		case -EBUSY:
			snprintf(err, errlen, "%s: queue %u of %s is already bound by another "
				 "AF_XDP socket (another uxdp, or an XDP program in the way)",
				 cfg->devname, cfg->queue, cfg->ifname);
			break;
		case -ENODEV:
		case -ENXIO:
			snprintf(err, errlen, "%s: interface '%s' went away", cfg->devname,
				 cfg->ifname);
			break;
		case -EINVAL:
			snprintf(err, errlen, "%s: the kernel refused to bind to queue %u of %s "
				 "(queue out of range, or the interface is in a mode AF_XDP cannot use)",
				 cfg->devname, cfg->queue, cfg->ifname);
			break;
		default:
			snprintf(err, errlen, "%s: cannot bind an AF_XDP socket to %s queue %u: %s",
				 cfg->devname, cfg->ifname, cfg->queue, strerror(-ret));
		}
		goto out_destroy;
	}
	x->fd = xsk_socket__fd(x->xsk);
	if (!getsockopt(x->fd, SOL_XDP, XDP_OPTIONS, &opts, &optlen))
		x->zerocopy = opts.flags & XDP_OPTIONS_ZEROCOPY;
	return 0;

out_destroy:
	afxdp_xsk_destroy(x);
	return ret;
}

int afxdp_xsk_error(const struct afxdp_xsk *x)
{
	socklen_t len = sizeof(int);
	int soerr = 0;

	if (x->fd < 0)
		return -EBADF;
	if (getsockopt(x->fd, SOL_SOCKET, SO_ERROR, &soerr, &len))
		return -errno;
	return soerr;
}

int afxdp_xsk_stats(const struct afxdp_xsk *x, uint64_t v[6])
{
	struct xdp_statistics st = { 0 };
	socklen_t len = sizeof(st);

	if (x->fd < 0)
		return -EBADF;
	if (getsockopt(x->fd, SOL_XDP, XDP_STATISTICS, &st, &len))
		return -errno;
	v[0] = st.rx_dropped;
	v[1] = st.rx_invalid_descs;
	v[2] = st.tx_invalid_descs;
	v[3] = st.rx_ring_full;
	v[4] = st.rx_fill_ring_empty_descs;
	v[5] = st.tx_ring_empty_descs;
	return 0;
}

/*
 * bpf(2) directly: libbpf's <bpf/bpf.h> wrappers (bpf_map_create(), ...)
 * share names with uxdp's own datapath functions, which the rest of the
 * library defines.
 */
static int sys_bpf(int cmd, union bpf_attr *attr)
{
	int ret = syscall(__NR_bpf, cmd, attr, sizeof(*attr));

	return ret < 0 ? -errno : ret;
}

static int xsk_map_create(void)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_XSKMAP;
	attr.key_size = sizeof(int);
	attr.value_size = sizeof(int);
	attr.max_entries = 64;
	snprintf(attr.map_name, sizeof(attr.map_name), "xsks_map");
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static int xsk_map_update(int map_fd, uint32_t key, int value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = map_fd;
	attr.key = (uint64_t)(unsigned long)&key;
	attr.value = (uint64_t)(unsigned long)&value;
	attr.flags = BPF_ANY;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr);
}

static int xdp_link_create(int prog_fd, int ifindex, uint32_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.target_ifindex = ifindex;
	attr.link_create.attach_type = BPF_XDP;
	attr.link_create.flags = flags;
	return sys_bpf(BPF_LINK_CREATE, &attr);
}

/* The built-in program: see the header comment. */
static int afxdp_kprog_load_builtin(struct afxdp_kprog *kp, char *log, size_t loglen)
{
	struct bpf_insn insns[] = {
		/* r2 = *(u32 *)(r1 + offsetof(struct xdp_md, rx_queue_index)) */
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 2, .src_reg = 1,
		  .off = offsetof(struct xdp_md, rx_queue_index) },
		/* r1 = map fd (ld_imm64, BPF_PSEUDO_MAP_FD) */
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1,
		  .src_reg = BPF_PSEUDO_MAP_FD },
		{ 0 },
		/* r3 = XDP_PASS */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_redirect_map },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int fd;

	kp->map_fd = xsk_map_create();
	if (kp->map_fd < 0)
		return kp->map_fd;
	insns[1].imm = kp->map_fd;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (uint64_t)(unsigned long)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uint64_t)(unsigned long)"GPL";
	snprintf(attr.prog_name, sizeof(attr.prog_name), "xsk_redirect");
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0 && fd != -EPERM && loglen > 1) {
		/* Again with the verifier's log, for the message (end of it kept). */
		char big[4096] = "";

		attr.log_buf = (uint64_t)(unsigned long)big;
		attr.log_size = sizeof(big);
		attr.log_level = 1;
		sys_bpf(BPF_PROG_LOAD, &attr);
		snprintf(log, loglen, "%s", big + (strlen(big) > loglen - 1 ? strlen(big) - (loglen - 1) : 0));
	}
	if (fd < 0)
		return fd;
	kp->prog_fd = fd;
	return 0;
}

static int afxdp_kprog_load_obj(struct afxdp_kprog *kp, const char *path)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	int ret;

	kp->obj = bpf_object__open_file(path, NULL);
	if (!kp->obj) {
		ret = -errno;
		kp->obj = NULL;
		return ret ? ret : -EINVAL;
	}
	ret = bpf_object__load(kp->obj);
	if (ret)
		return ret;
	prog = bpf_object__next_program(kp->obj, NULL);
	map = bpf_object__find_map_by_name(kp->obj, "xsks_map");
	if (!prog || !map || bpf_map__type(map) != BPF_MAP_TYPE_XSKMAP)
		return -ENOENT;
	kp->prog_fd = bpf_program__fd(prog);
	kp->map_fd = bpf_map__fd(map);
	return 0;
}

static int afxdp_kprog_link(struct afxdp_kprog *kp, int ifindex, __u32 flags)
{
	int fd = xdp_link_create(kp->prog_fd, ifindex, flags);

	if (fd < 0)
		return fd;
	kp->link_fd = fd;
	return 0;
}

int afxdp_kprog_load(struct afxdp_kprog *kp, const char *devname, const char *obj,
		     char *err, size_t errlen)
{
	char log[256] = "";
	int ret;

	kp->prog_fd = kp->map_fd = kp->link_fd = -1;
	kp->obj = NULL;
	kp->generic = false;
	ret = obj ? afxdp_kprog_load_obj(kp, obj) : afxdp_kprog_load_builtin(kp, log, sizeof(log));
	if (ret) {
		if (ret == -EPERM || ret == -EACCES)
			snprintf(err, errlen, "%s: no permission to load an XDP program into the "
				 "kernel (needs CAP_BPF and CAP_NET_ADMIN: run as root)", devname);
		else if (obj && ret == -ENOENT)
			snprintf(err, errlen, "%s: %s has no XDP program with an XSKMAP named "
				 "xsks_map (see examples/progs/xsk_redirect.c)", devname, obj);
		else
			snprintf(err, errlen, "%s: cannot load the redirect program %s: %s%s%s",
				 devname, obj ? obj : "(built-in)", strerror(-ret),
				 *log ? ": " : "", log);
		afxdp_kprog_detach(kp);
	}
	return ret;
}

int afxdp_kprog_attach(struct afxdp_kprog *kp, const char *devname, const char *ifname,
		       int ifindex, enum afxdp_xdp_mode xdp_mode, char *err, size_t errlen)
{
	int ret;

	ret = xdp_mode == AFXDP_XDP_GENERIC ? -EOPNOTSUPP :
	      afxdp_kprog_link(kp, ifindex, XDP_FLAGS_DRV_MODE);
	if (ret == -EOPNOTSUPP && xdp_mode != AFXDP_XDP_NATIVE) {
		/* No native XDP in the driver: generic XDP sees every frame, copy mode works. */
		ret = afxdp_kprog_link(kp, ifindex, XDP_FLAGS_SKB_MODE);
		kp->generic = !ret;
	}
	if (ret) {
		switch (ret) {
		case -EOPNOTSUPP:
			snprintf(err, errlen, "%s: %s has no native XDP support: use mode auto "
				 "(falls back to generic XDP and copy mode)", devname, ifname);
			break;
		case -EBUSY:
		case -EEXIST:
			snprintf(err, errlen, "%s: %s already has an XDP program (ip link show dev %s; "
				 "remove it with ip link set dev %s xdp off)", devname, ifname,
				 ifname, ifname);
			break;
		case -EPERM:
		case -EACCES:
			snprintf(err, errlen, "%s: no permission to attach XDP to %s "
				 "(needs CAP_NET_ADMIN: run as root)", devname, ifname);
			break;
		case -ENODEV:
			snprintf(err, errlen, "%s: interface '%s' went away", devname, ifname);
			break;
		default:
			snprintf(err, errlen, "%s: cannot attach the redirect program to %s: %s",
				 devname, ifname, strerror(-ret));
		}
	}
	return ret;
}

int afxdp_kprog_set(struct afxdp_kprog *kp, uint32_t queue, int fd)
{
	int ret = xsk_map_update(kp->map_fd, queue, fd);

	return ret < 0 ? ret : 0;
}

void afxdp_kprog_detach(struct afxdp_kprog *kp)
{
	if (!kp)
		return;
	if (kp->link_fd >= 0)
		close(kp->link_fd);
	kp->link_fd = -1;
	if (kp->obj) {
		bpf_object__close(kp->obj);	/* closes its prog and map fds */
	} else {
		if (kp->prog_fd >= 0)
			close(kp->prog_fd);
		if (kp->map_fd >= 0)
			close(kp->map_fd);
	}
	kp->obj = NULL;
	kp->prog_fd = kp->map_fd = -1;
}
