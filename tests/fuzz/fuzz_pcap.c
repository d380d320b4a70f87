// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: pcap reading. The input is a capture file (classic pcap or
 * pcapng). It is put in a memfd and opened by the pcap device as
 * `link add fzp0 type pcap in /proc/self/fd/N loop 2 out /proc/self/fd/M`:
 * a file libpcap rejects, or whose link type is not Ethernet, must fail
 * `link add` with -EINVAL and a message naming the file, leaving no
 * device. Otherwise the device runs once with a native XDP program that
 * answers XDP_TX (examples/progs/xdp_action.o, xdp_action_frags), so that
 * every frame received is written to the `out` file, and the result is
 * checked against libpcap reading the same bytes directly (fmemopen):
 * frames received = good records x passes (2, or 1 when the first pass
 * had none), each drop reason = its records x passes, and the output file
 * holds exactly the good records, bytes and timestamps, in order. No skb
 * or page may be alive after an input. Without the example objects the
 * frames go to the stack instead and only the counts are checked.
 *
 * Kernel: none (drivers/net/pcap.c has no kernel twin; libpcap's
 *	   sf-pcap.c and sf-pcapng.c parse the file).
 */
#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <uxdp/uxdp_bpf.h>
#include <uxdp/uxdp_link.h>

#include "fuzz.h"

#ifndef UXDP_PROGS_DIR
#define UXDP_PROGS_DIR	"examples/progs"
#endif

#define FZ_MAX_FRAME	65535
#define FZ_MAX_RECORDS	4096

static struct uxdp_bpf_object *obj;
static int prog_id;
static int in_fd = -1, out_fd = -1;
static char in_path[64], out_path[64];

static int fuzz_quiet(enum uxdp_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_PROGS_DIR") ?: UXDP_PROGS_DIR;
	char path[4096];

	uxdp_set_print(fuzz_quiet);
	in_fd = memfd_create("fuzz-pcap-in", 0);
	out_fd = memfd_create("fuzz-pcap-out", 0);
	if (in_fd < 0 || out_fd < 0)
		fuzz_bug("memfd_create: %s", strerror(errno));
	snprintf(in_path, sizeof(in_path), "/proc/self/fd/%d", in_fd);
	snprintf(out_path, sizeof(out_path), "/proc/self/fd/%d", out_fd);
	snprintf(path, sizeof(path), "%s/xdp_action.o", dir);
	obj = uxdp_bpf_object_open(path, NULL);
	if (obj) {
		int cfg = uxdp_bpf_object_find_map(obj, "cfg");
		__u32 key = 0, tx = XDP_TX;

		prog_id = uxdp_bpf_object_find_prog(obj, "xdp_action_frags", NULL);
		if (prog_id <= 0 || cfg <= 0 || uxdp_bpf_map_update_elem(cfg, &key, &tx, 0))
			fuzz_bug("xdp_action.o: no xdp_action_frags or cfg");
	}
	return 0;
}

void fuzz_cleanup(void)
{
	uxdp_bpf_object_close(obj);
	close(in_fd);
	close(out_fd);
}

/* What libpcap itself makes of the bytes, as the device classifies them. */
struct fz_expect {
	bool opened;
	u64 good, runt, truncated, bad, oversized;
};

static void fz_expect(const uint8_t *data, size_t size, struct fz_expect *e)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *d;
	FILE *f;
	pcap_t *p;
	int ret;

	memset(e, 0, sizeof(*e));
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return;
	p = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		fclose(f);
		return;
	}
	e->opened = true;
	while ((ret = pcap_next_ex(p, &h, &d)) == 1) {
		if (h->caplen < h->len)
			e->truncated++;
		else if (h->caplen > h->len)
			e->bad++;
		else if (h->caplen < ETH_HLEN)
			e->runt++;
		else if (h->caplen > FZ_MAX_FRAME)
			e->oversized++;
		else
			e->good++;
	}
	if (ret == -1)
		e->bad++;
	pcap_close(p);	/* closes f */
}

/* The out file holds the good records of the input, @passes times over. */
static void fz_check_out(const uint8_t *data, size_t size, u64 passes, u64 want)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *in, *out;
	FILE *f;
	u64 n = 0;

	out = pcap_open_offline_with_tstamp_precision(out_path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	fuzz_assert(out, "output not readable: %s", errbuf);
	for (u64 pass = 0; pass < passes; pass++) {
		struct pcap_pkthdr *hi, *ho;
		const u_char *di, *dout;
		__int128 ti;

		f = fmemopen((void *)data, size, "rb");
		fuzz_assert(f, "fmemopen");
		in = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, errbuf);
		fuzz_assert(in, "input not readable the second time: %s", errbuf);
		while (pcap_next_ex(in, &hi, &di) == 1) {
			if (hi->caplen != hi->len || hi->caplen < ETH_HLEN || hi->caplen > FZ_MAX_FRAME)
				continue;
			fuzz_assert(pcap_next_ex(out, &ho, &dout) == 1, "output has %llu records",
				    (unsigned long long)n);
			fuzz_assert(ho->caplen == hi->caplen && ho->len == hi->len &&
				    !memcmp(dout, di, hi->caplen), "record %llu differs",
				    (unsigned long long)n + 1);
			/*
			 * The capture's instant (libpcap may hand out a negative or
			 * >= 1 s fraction), where a classic pcap can hold it; a
			 * record stamped 0 counts as unstamped (virtual clock).
			 */
			ti = (__int128)hi->ts.tv_sec * 1000000000 + hi->ts.tv_usec;
			/* the file's seconds are 32 bits, which libpcap reads as signed */
			fuzz_assert(ti <= 0 || ti >= (__int128)UINT32_MAX * 1000000000 ||
				    ((u32)(ti / 1000000000) == (u32)ho->ts.tv_sec &&
				     ti % 1000000000 == ho->ts.tv_usec),
				    "record %llu: timestamp %ld.%09ld, want %ld s + %ld ns",
				    (unsigned long long)n + 1, (long)ho->ts.tv_sec, (long)ho->ts.tv_usec,
				    (long)hi->ts.tv_sec, (long)hi->ts.tv_usec);
			n++;
		}
		pcap_close(in);
	}
	fuzz_assert(n == want, "%llu records written, want %llu", (unsigned long long)n,
		    (unsigned long long)want);
	{
		struct pcap_pkthdr *ho;
		const u_char *dout;

		fuzz_assert(pcap_next_ex(out, &ho, &dout) != 1, "output has extra records");
	}
	pcap_close(out);
}

/* Drops under @r's name: the core row and driver rows of that name (pcap's read errors). */
static u64 drops_named(const u64 *drops, enum netdev_drop_reason r)
{
	u64 sum = 0;

	for (int i = 0; i < NETDEV_DROP_MAX; i++)
		if (netdev_drop_reason_name(i) &&
		    !strcmp(netdev_drop_reason_name(i), netdev_drop_reason_name(r)))
			sum += drops[i];
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *args[] = { "in", in_path, "loop", "2", "out", out_path };
	u64 drops[NETDEV_DROP_MAX];
	struct uxdp_link_info li = { .sz = sizeof(li) };
	struct net_device *dev;
	struct fz_expect e;
	char err[256] = "", c[] = "0";
	u64 passes;
	int ret;

	if (ftruncate(in_fd, 0) || ftruncate(out_fd, 0) || pwrite(in_fd, data, size, 0) != (ssize_t)size)
		fuzz_bug("memfd: %s", strerror(errno));
	fz_expect(data, size, &e);
	ret = uxdp_link_add("fzp0", "pcap", 6, args, err, sizeof(err));
	if (ret < 0) {
		fuzz_assert(ret == -EINVAL && strstr(err, in_path), "link add: %d '%s'", ret, err);
		fuzz_assert(!dev_get_by_name("fzp0"), "a device after a failed link add");
		return 0;
	}
	fuzz_assert(e.opened, "the device opened a file libpcap does not");
	dev = dev_get_by_name("fzp0");
	if (obj && uxdp_link_set_xdp("fzp0", prog_id, err, sizeof(err)))
		fuzz_bug("attach: %s", err);
	fuzz_assert(dev->netdev_ops->ndo_set_param(dev, "run_count", c, err, sizeof(err)) == 1,
		    "run_count");
	dev_napi_schedule_all(dev);
	for (int i = 0; i < 1000000 && net_rx_pending(); i++)
		net_rx_action();
	fuzz_assert(!dev->netdev_ops->ndo_gen_active(dev), "still active after the capture");
	dev->netdev_ops->ndo_run_end(dev);

	passes = e.good ? 2 : 1;
	uxdp_link_get_info(dev->ifindex, &li);
	dev_get_drop_stats(dev, drops);
	fuzz_assert(li.rx_packets == e.good * passes, "%llu frames received, want %llu x %llu",
		    (unsigned long long)li.rx_packets, (unsigned long long)e.good,
		    (unsigned long long)passes);
	fuzz_assert(drops[NETDEV_DROP_RX_RUNT] == e.runt * passes &&
		    drops[NETDEV_DROP_RX_TRUNCATED] == e.truncated * passes &&
		    drops_named(drops, NETDEV_DROP_RX_BAD_RECORD) == e.bad * passes &&
		    drops[NETDEV_DROP_RX_OVERSIZED] == e.oversized * passes,
		    "drops runt %llu truncated %llu bad %llu oversized %llu",
		    (unsigned long long)drops[NETDEV_DROP_RX_RUNT],
		    (unsigned long long)drops[NETDEV_DROP_RX_TRUNCATED],
		    (unsigned long long)drops_named(drops, NETDEV_DROP_RX_BAD_RECORD),
		    (unsigned long long)drops[NETDEV_DROP_RX_OVERSIZED]);
	if (obj) {
		fuzz_assert(li.xdp_tx == li.rx_packets && li.tx_packets == li.rx_packets,
			    "%llu XDP_TX, %llu sent of %llu", (unsigned long long)li.xdp_tx,
			    (unsigned long long)li.tx_packets, (unsigned long long)li.rx_packets);
		fz_check_out(data, size, passes, li.rx_packets);
	}
	uxdp_link_del("fzp0");
	fuzz_assert(skb_live_count() == 0, "%ld skbs alive", skb_live_count());
	return 0;
}
