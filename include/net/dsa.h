/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DSA: switch trees behind a conduit Ethernet port. The tagger descriptor
 * (struct dsa_device_ops), the switch and port objects, the tag protocol
 * registry (one X-macro line per tagger) and the user-port knobs of the
 * dsa-cb experiment (cb_clear, tx_ts_classify).
 *
 * Kernel: include/net/dsa.h, net/dsa/tag.h, include/linux/dsa/8021q.h,
 *	   include/linux/dsa/sja1105.h, include/linux/ptp_classify.h
 * Differs: one switch per tree; the switch chip itself is modelled in
 *	    software (drivers/net/dsa/switch.c), so each tagger also has the chip's
 *	    side of the tag (hw_tag: front port -> CPU, hw_untag: CPU -> front
 *	    port), which real taggers do not need.
 */
#ifndef _UXDP_NET_DSA_H
#define _UXDP_NET_DSA_H

#include <linux/types.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

struct net_device;
struct bpf_prog;

#define DSA_MAX_PORTS		16
#define ETH_P_XDSA		0x00F8
#define ETH_P_SJA1105		0xDADB
#define ETH_P_DSA_8021Q		0xDADB
#define ETH_P_EDSA		0xDADA
#define ETH_P_8021Q		0x8100
#define DSA_HLEN		4
#define EDSA_HLEN		8
#define VLAN_PRIO_SHIFT		13

/*
 * The taggers, one line each: FN(stem, PROTO, value) for the tagger
 * net/dsa/tag_<stem>.c defines as <stem>_netdev_ops, its protocol
 * DSA_TAG_PROTO_<PROTO> and the kernel's DSA_TAG_PROTO_<PROTO>_VALUE. The
 * protocol enum, the registry (net/dsa/tag.c), the names in messages and
 * the CLI's `tag NAME` all come from this list.
 */
#define DSA_TAGGERS(FN)				\
	FN(sja1105, SJA1105, 13)		\
	FN(dsa, DSA, 3)				\
	FN(edsa, EDSA, 4)			\
	FN(ocelot_8021q, OCELOT_8021Q, 20)	\
	FN(trailer, TRAILER, 11)		\
	/* one line per tagger, each ending in a backslash */

#define __DSA_TAG_PROTO(stem, proto, value)	DSA_TAG_PROTO_##proto = value,
enum dsa_tag_protocol {
	DSA_TAG_PROTO_NONE = 0,
	DSA_TAGGERS(__DSA_TAG_PROTO)
};
#undef __DSA_TAG_PROTO

/* Why a tagger or the switch model dropped a frame (counted per switch). */
#define DSA_DROP_REASONS(FN)						\
	FN(SHORT, "frame too short for the tag")			\
	FN(BAD_TPID, "tag protocol identifier is not the tagger's")	\
	FN(BAD_TAG, "tag content not valid for this tagger (VID range, command, code)") \
	FN(BAD_SWITCH, "switch id in the tag is not this switch")	\
	FN(BAD_PORT, "port in the tag is out of range or has no user port") \
	FN(NO_PEER, "front port has no peer device")			\
	FN(NOMEM, "no memory for a copy or headroom")

#define __DSA_DROP_ENUM(name, text)	DSA_DROP_##name,
enum dsa_drop_reason {
	DSA_DROP_REASONS(__DSA_DROP_ENUM)
	DSA_DROP_MAX,
};

struct dsa_switch;
struct dsa_port;

struct dsa_device_ops {
	const char *name;
	enum dsa_tag_protocol proto;
	/* Insert the tag (user port -> conduit). NULL: consumed or dropped. */
	struct sk_buff *(*xmit)(struct sk_buff *skb, struct net_device *dev);
	/* Parse and strip; data just after the conduit's 14 bytes; sets skb->dev. */
	struct sk_buff *(*rcv)(struct sk_buff *skb, struct net_device *conduit);
	unsigned int needed_headroom;
	unsigned int needed_tailroom;
	bool promisc_on_conduit;
	/* uxdp: the tagger's skb->cb struct (cb_clear tagger: the rejected skb_cb_size). */
	unsigned int skb_cb_size;
	/*
	 * uxdp: the switch chip's side. hw_tag: tag a frame (data at the MAC
	 * header) received on front @port toward the CPU. hw_untag: parse and
	 * strip the tag of a frame from the CPU; 0 with *@sw, *@port, or a
	 * negative enum dsa_drop_reason.
	 */
	int (*hw_tag)(struct sk_buff *skb, int sw, int port);
	int (*hw_untag)(struct sk_buff *skb, int *sw, int *port);
};

#define __DSA_TAGGER_DECLARE(stem, proto, value)	\
	extern const struct dsa_device_ops stem##_netdev_ops;
DSA_TAGGERS(__DSA_TAGGER_DECLARE)
#undef __DSA_TAGGER_DECLARE

/* net/dsa/tag.c: by name (the ops' .name: "sja1105", "ocelot-8021q", ...). */
const struct dsa_device_ops *dsa_tag_driver_get_by_name(const char *name);
/* The names in DSA_TAGGERS() order: comma separated for messages, or as a
 * NULL-terminated list. */
const char *dsa_tag_names(void);
const char *const *dsa_tag_name_list(void);

enum dsa_cb_clear { DSA_CB_CLEAR_FULL, DSA_CB_CLEAR_TAGGER };
enum dsa_tx_ts_classify { DSA_TX_TS_REQUESTED, DSA_TX_TS_ALWAYS };

struct dsa_port {
	int index;
	struct dsa_switch *ds;
	struct net_device *user;	/* swpN (NULL for the CPU port) */
	struct net_device *front;	/* the switch model's front port sw0pN */
	struct net_device *peer;	/* what front port N is cabled to */
	struct dsa_port *cpu_dp;
	const struct dsa_device_ops *tag_ops;	/* cached on the CPU port */
	struct sk_buff *(*rcv)(struct sk_buff *skb, struct net_device *conduit);
	bool hwts_tx_en;		/* hwtstamp_set: TX timestamps on */
	enum dsa_cb_clear cb_clear;
	enum dsa_tx_ts_classify tx_ts_classify;
};

struct dsa_switch {
	int index;			/* switch id in the tree (0-7 for tag_8021q) */
	int num_ports;			/* front ports; the CPU port is num_ports */
	struct net_device *dev;		/* the switch model's own netdev (sw0) */
	struct net_device *conduit;
	const struct dsa_device_ops *tag_ops;
	struct dsa_port ports[DSA_MAX_PORTS + 1];
	u64 drops[NR_CPUS][DSA_DROP_MAX];
	u64 ptp_classified[NR_CPUS];	/* ptp_classify_raw() runs */
	u64 tx_ts_clones[NR_CPUS];	/* two-step clones kept and completed */
};

/* A user port's private area. */
struct dsa_user_priv {
	struct dsa_port *dp;
};

static inline struct dsa_port *dsa_user_to_port(const struct net_device *dev)
{
	return ((struct dsa_user_priv *)netdev_priv(dev))->dp;
}

/*
 * The MAC addresses, moved over a tag as net/dsa/tag.h does it: 12 bytes
 * loaded before any is stored, so the move may overlap (inline, where a
 * memmove() call would cost more than the move).
 */
static inline void dsa_move_macs(void *to, const void *from)
{
	u8 macs[2 * ETH_ALEN];

	__builtin_memcpy(macs, from, sizeof(macs));
	__builtin_memcpy(to, macs, sizeof(macs));
}

/* Make room for a @len-byte tag after the MACs (the caller pushed @len). */
static inline void dsa_alloc_etype_header(struct sk_buff *skb, int len)
{
	dsa_move_macs(skb->data, skb->data + len);
}

/* Close a @len-byte tag after the MACs (data is past the tag, as after a pull). */
static inline void dsa_strip_etype_header(struct sk_buff *skb, int len)
{
	dsa_move_macs(skb->data - ETH_HLEN, skb->data - ETH_HLEN - len);
}

/* The CPU port of a conduit (the kernel's dev->dsa_ptr). */
struct dsa_port *dsa_conduit_cpu_dp(const struct net_device *conduit);
/* User netdev of (@sw, @port) behind @conduit, or NULL. */
struct net_device *dsa_conduit_find_user(struct net_device *conduit, int sw, int port);
void dsa_count_drop(struct dsa_switch *ds, enum dsa_drop_reason r);
const char *dsa_drop_reason_name(int r);

/* net/dsa/user.c */
netdev_tx_t dsa_user_xmit(struct sk_buff *skb, struct net_device *dev);
int dsa_switch_rcv(struct sk_buff *skb, struct net_device *dev);
int dsa_user_create(struct dsa_port *dp, const char *name);
void dsa_register_pack(void);
void dsa_unregister_pack(void);

/* sja1105's skb->cb (include/linux/dsa/sja1105.h, 6.x). */
struct sja1105_skb_cb {
	struct sk_buff *clone;
	u64 tstamp;
	u8 ts_id;
};
#define SJA1105_SKB_CB(skb)	((struct sja1105_skb_cb *)((skb)->cb))

/* ---- tag_8021q (net/dsa/tag_8021q.c) ---- */
#define DSA_8021Q_RSV_VAL		3
#define DSA_8021Q_RSV_SHIFT		10
#define DSA_8021Q_RSV_MASK		(0x3 << 10)
#define DSA_8021Q_SWITCH_ID_SHIFT	6
#define DSA_8021Q_SWITCH_ID_MASK	(0x7 << 6)
#define DSA_8021Q_VBID_HI_SHIFT		9
#define DSA_8021Q_VBID_HI_MASK		(0x1 << 9)
#define DSA_8021Q_VBID_LO_SHIFT		4
#define DSA_8021Q_VBID_LO_MASK		(0x3 << 4)
#define DSA_8021Q_PORT_MASK		0xf

u16 dsa_tag_8021q_standalone_vid(int sw, int port);
bool vid_is_dsa_8021q(u16 vid);
/* Insert a VLAN tag (vlan_insert_tag). NULL on failure (skb freed). */
struct sk_buff *dsa_8021q_xmit(struct sk_buff *skb, u16 tpid, u16 tci);
/*
 * dsa_8021q_rcv(): pop the tag (data after the 14-byte header); fills
 * @sw/@port (-1 if not a tag_8021q VID) and @vbid. Negative drop reason
 * if the frame is malformed.
 */
int dsa_8021q_rcv(struct sk_buff *skb, int *sw, int *port, int *vbid, u16 tpid_ok);

/* ---- PTP classification (net/core/ptp_classifier.c) ---- */
#define PTP_CLASS_NONE	0x00
#define PTP_CLASS_V1	0x01
#define PTP_CLASS_V2	0x02
#define PTP_CLASS_VMASK	0x0f
#define PTP_CLASS_IPV4	0x10
#define PTP_CLASS_IPV6	0x20
#define PTP_CLASS_L2	0x40
#define PTP_CLASS_VLAN	0x80
#define PTP_EV_PORT	319

/* Build the classifier (classic BPF converted to eBPF, checked). 0 or -errno. */
int ptp_classifier_init(void);
void ptp_classifier_exit(void);
/* Run it over the frame at skb->data (MAC header). */
unsigned int ptp_classify_raw(const struct sk_buff *skb);
/*
 * Convert a classic BPF program to eBPF (the subset ptp_classify uses:
 * LD H/B ABS and H IND, LDX B MSH, ALU AND/OR K, JEQ/JSET K, RET A/K),
 * register mapping as bpf_convert_filter(): A = R0, X = R7; packet loads
 * become bounds-checked direct loads (out of bounds returns 0, as cBPF).
 * Return: the number of eBPF instructions written to @out (NULL: count
 * only), or -EINVAL for an opcode outside the subset.
 */
struct sock_filter;
struct bpf_insn;
int bpf_convert_filter_ptp(const struct sock_filter *prog, int len, struct bpf_insn *out);

#endif
