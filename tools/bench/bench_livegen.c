// SPDX-License-Identifier: GPL-2.0
/*
 * uxdp-bench-livegen: the kernel's own fastest frame source, for
 * fwd_bench.sh -g livegen. It runs xdp_livegen.o (writes the frame's
 * headers from its map, then bpf_redirect() to IFNAME) with
 * BPF_PROG_TEST_RUN in live-frame mode (BPF_F_TEST_XDP_LIVE_FRAMES, the
 * mechanism of xdp-tools' xdp-trafficgen): each run turns the template into
 * an xdp_frame that goes out of IFNAME through its ndo_xdp_xmit. No skb, no socket, no qdisc: on a veth the frame lands in
 * the peer's NAPI ring, so the generator costs the machine far less per
 * frame than any userspace sender.
 *
 * The frame: SIZE bytes of Ethernet + IPv4 (valid header checksum) + UDP
 * (checksum 0, allowed over IPv4) from SRC to DST, UDP 1024 -> 9, from
 * IFNAME's MAC address to DST_MAC. The program writes the headers on every
 * run: a live frame's page comes back with what a router wrote into it.
 *
 * Runs until SECS have passed or COUNT frames were sent (whichever first:
 * bounded in time and count), in calls of at most 65536 frames, so SIGINT
 * or SIGTERM end it within one call. Prints JSON: {"frames":N,"secs":S,
 * "pps":P}. The frames the peer could not take (its ring full) are counted
 * by the kernel as the device's XDP xmit errors, not here.
 *
 * Usage: uxdp-bench-livegen PROGS_DIR IFNAME DST_MAC SRC DST SIZE SECS [COUNT]
 * Exit 77 where not permitted (no root or no BPF), 2 on bad arguments.
 * Uses libbpf only (the kernel-named uxdp headers would clash).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>

#define CALL_FRAMES	65536

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_mac(const char *s, unsigned char mac[ETH_ALEN])
{
	unsigned int b[ETH_ALEN];

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -1;
	for (int i = 0; i < ETH_ALEN; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = (unsigned char)b[i];
	}
	return 0;
}

static int if_mac(const char *ifname, unsigned char mac[ETH_ALEN])
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err;

	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	err = ioctl(fd, SIOCGIFHWADDR, &ifr);
	close(fd);
	if (err)
		return -1;
	memcpy(mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	return 0;
}

static unsigned short ip_csum(const void *hdr, int len)
{
	const unsigned short *p = hdr;
	unsigned int sum = 0;

	for (int i = 0; i < len / 2; i++)
		sum += p[i];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (unsigned short)~sum;
}

/* The template frame. */
static void build_frame(unsigned char *pkt, unsigned int size, const unsigned char *src_mac,
			const unsigned char *dst_mac, struct in_addr src, struct in_addr dst)
{
	struct ethhdr *eth = (struct ethhdr *)pkt;
	struct iphdr *ip = (struct iphdr *)(eth + 1);
	struct udphdr *udp = (struct udphdr *)(ip + 1);

	memset(pkt, 0, size);
	memcpy(eth->h_dest, dst_mac, ETH_ALEN);
	memcpy(eth->h_source, src_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons((unsigned short)(size - sizeof(*eth)));
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = src.s_addr;
	ip->daddr = dst.s_addr;
	ip->check = ip_csum(ip, sizeof(*ip));
	udp->source = htons(1024);
	udp->dest = htons(9);
	udp->len = htons((unsigned short)(size - sizeof(*eth) - sizeof(*ip)));
}

int main(int argc, char **argv)
{
	unsigned char pkt[1514], src_mac[ETH_ALEN], dst_mac[ETH_ALEN];
	unsigned long long sent = 0, count = ~0ULL;
	struct in_addr src, dst;
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct { unsigned char hdr[42]; unsigned short pad; unsigned int ifindex; } cfg = {};
	unsigned int size, key = 0, ifindex;
	double secs, t0, t;
	char path[1024];
	int err;

	if (argc != 8 && argc != 9) {
		fprintf(stderr, "usage: %s PROGS_DIR IFNAME DST_MAC SRC DST SIZE SECS [COUNT]\n",
			argv[0]);
		return 2;
	}
	size = (unsigned int)strtoul(argv[6], NULL, 0);
	secs = atof(argv[7]);
	if (argc == 9)
		count = strtoull(argv[8], NULL, 0);
	if (parse_mac(argv[3], dst_mac) || inet_pton(AF_INET, argv[4], &src) != 1 ||
	    inet_pton(AF_INET, argv[5], &dst) != 1 || size < 60 || size > sizeof(pkt) ||
	    !(secs > 0) || !count) {
		fprintf(stderr, "livegen: bad argument (DST_MAC aa:bb:cc:dd:ee:ff, IPv4 SRC and DST, "
				"SIZE 60..%zu, SECS > 0, COUNT > 0)\n", sizeof(pkt));
		return 2;
	}
	ifindex = if_nametoindex(argv[2]);
	if (!ifindex || if_mac(argv[2], src_mac)) {
		fprintf(stderr, "livegen: no interface %s here: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (geteuid()) {
		fprintf(stderr, "livegen: needs root (BPF_PROG_TEST_RUN, devmap)\n");
		return 77;
	}
	build_frame(pkt, size, src_mac, dst_mac, src, dst);
	libbpf_set_print(NULL);
	snprintf(path, sizeof(path), "%s/xdp_livegen.o", argv[1]);
	obj = bpf_object__open_file(path, NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "livegen: cannot load %s\n", path);
		return 77;
	}
	memcpy(cfg.hdr, pkt, sizeof(cfg.hdr));
	cfg.ifindex = ifindex;
	prog = bpf_object__find_program_by_name(obj, "xdp_livegen");
	if (!prog || bpf_map_update_elem(bpf_object__find_map_fd_by_name(obj, "livegen_cfg"), &key,
					 &cfg, 0)) {
		fprintf(stderr, "livegen: %s: no xdp_livegen or livegen_cfg map\n", path);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	t0 = t = now_s();
	while (!stop && sent < count && t - t0 < secs) {
		unsigned long long n = count - sent < CALL_FRAMES ? count - sent : CALL_FRAMES;
		LIBBPF_OPTS(bpf_test_run_opts, opts,
			.data_in = pkt,
			.data_size_in = size,
			.repeat = (unsigned int)n,
			.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
			.batch_size = 64,
		);

		err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
		if (err) {
			if (err == -EINTR || stop)
				break;
			fprintf(stderr, "livegen: BPF_PROG_TEST_RUN (live frames) on %s: %s\n",
				argv[2], strerror(-err));
			return err == -EPERM || err == -EOPNOTSUPP || err == -EINVAL ? 77 : 1;
		}
		sent += n;
		t = now_s();
	}
	printf("{\"frames\":%llu,\"secs\":%.3f,\"pps\":%.0f}\n", sent, t - t0,
	       t > t0 ? sent / (t - t0) : 0);
	bpf_object__close(obj);
	return 0;
}
