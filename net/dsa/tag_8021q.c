// SPDX-License-Identifier: GPL-2.0
/*
 * tag_8021q: DSA tagging with 802.1Q VLANs whose VIDs encode the switch
 * and port (current layout, 5.18+): bits 11:10 RSV = 0b11, bit 9 VBID[2],
 * bits 8:6 SWITCH_ID, bits 5:4 VBID[1:0], bits 3:0 PORT. The standalone
 * VID is the same for TX and RX: 0xC00 | sw << 6 | port.
 *
 * Kernel: net/dsa/tag_8021q.c dsa_tag_8021q_standalone_vid(),
 *	   vid_is_dsa_8021q(), dsa_8021q_xmit(), dsa_8021q_rcv();
 *	   include/linux/if_vlan.h vlan_insert_tag(), __skb_vlan_pop()
 * Differs: no hw-accelerated tags (skb->vlan_tci is never set by uxdp
 *	    devices), no bridge VBID lookup: a VBID VID is malformed here.
 */
#include <arpa/inet.h>
#include <string.h>

#include <linux/etherdevice.h>
#include <linux/skbuff.h>
#include <net/dsa.h>

u16 dsa_tag_8021q_standalone_vid(int sw, int port)
{
	return (DSA_8021Q_RSV_VAL << DSA_8021Q_RSV_SHIFT) |
	       ((sw << DSA_8021Q_SWITCH_ID_SHIFT) & DSA_8021Q_SWITCH_ID_MASK) |
	       (port & DSA_8021Q_PORT_MASK);
}

bool vid_is_dsa_8021q(u16 vid)
{
	return ((vid & DSA_8021Q_RSV_MASK) >> DSA_8021Q_RSV_SHIFT) == DSA_8021Q_RSV_VAL;
}

struct sk_buff *dsa_8021q_xmit(struct sk_buff *skb, u16 tpid, u16 tci)
{
	u8 *p;

	/* vlan_insert_tag(): headroom, then move the MACs 4 bytes forward. */
	if (skb_cow_head(skb, VLAN_HLEN)) {
		kfree_skb(skb);
		return NULL;
	}
	p = skb_push(skb, VLAN_HLEN);
	dsa_alloc_etype_header(skb, VLAN_HLEN);
	skb->mac_header -= VLAN_HLEN;
	p[12] = tpid >> 8;
	p[13] = tpid;
	p[14] = tci >> 8;
	p[15] = tci;
	return skb;
}

int dsa_8021q_rcv(struct sk_buff *skb, int *sw, int *port, int *vbid, u16 tpid_ok)
{
	const struct ethhdr *eth = eth_hdr(skb);
	u16 tpid = ntohs(eth->h_proto), tci, vid;
	u8 *mac;

	*sw = *port = -1;
	*vbid = 0;
	if (tpid != tpid_ok && tpid != ETH_P_8021Q)
		return -DSA_DROP_BAD_TPID;
	/* The TCI and the inner EtherType must be there. */
	if (!pskb_may_pull(skb, VLAN_HLEN))
		return -DSA_DROP_SHORT;
	tci = ntohs(*(u16 *)skb->data);
	vid = tci & 0xfff;
	if (!vid_is_dsa_8021q(vid))
		return -DSA_DROP_BAD_TAG;
	*vbid = (((vid & DSA_8021Q_VBID_HI_MASK) >> DSA_8021Q_VBID_HI_SHIFT) << 2) |
		((vid & DSA_8021Q_VBID_LO_MASK) >> DSA_8021Q_VBID_LO_SHIFT);
	if (!*vbid) {
		*sw = (vid & DSA_8021Q_SWITCH_ID_MASK) >> DSA_8021Q_SWITCH_ID_SHIFT;
		*port = vid & DSA_8021Q_PORT_MASK;
	}
	skb->priority = tci >> VLAN_PRIO_SHIFT;
	/* __skb_vlan_pop(): MACs 4 bytes forward, drop the tag. */
	mac = skb->data - ETH_HLEN;
	dsa_move_macs(mac + VLAN_HLEN, mac);
	__skb_pull(skb, VLAN_HLEN);
	skb->mac_header += VLAN_HLEN;
	return 0;
}
