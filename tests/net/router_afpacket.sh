#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp as an IPv4 router on AF_PACKET:
#   ns A 198.18.0.2/24 ─veth─ [ns R: uxdp, r0 = afpacket on the A side, r1 =
#   afpacket on the B side (QUEUES sockets each, fanout), 198.18.0.1/24 and
#   198.19.0.1/24, ip_forward=1] ─veth─ ns B 198.19.0.2/24
# A and B find the router by ARP (uxdp answers); uxdp resolves A and B by
# ARP itself (no static neighbours: both end up in its table with their MACs).
# Checks: ping A → B and A → router; a 4 MiB TCP transfer arrives byte-exact;
# xdp_drop_udp_port on r0 drops UDP port 9999: none of its 50 datagrams reach
# B while all 50 of port 9998 do, and the program's own counter says 50;
# every frame r0/r1 received got one XDP verdict; each uxdp device agrees
# exactly with the kernel interface at the other end of its wire (rx == the
# peer's tx, tx == the peer's rx); what the router received it sent or
# dropped with a reason; every page and skb is back when uxdp exits.
# With OFFLOAD=csum, A's and B's veths keep tx checksum offload on (TSO/GSO
# off): their TCP/UDP frames reach uxdp CHECKSUM_PARTIAL and only get a valid
# checksum because the driver completes it (rx_csum_completed > 0).
# Usage: router_afpacket.sh UXDP PROGS_DIR [QUEUES [OFFLOAD]]
# Skips (77) without root, namespaces or AF_PACKET.
set -u
UXDP=$1
PROGS=$2
QUEUES=${3:-1}
OFFLOAD=${4:-none}
. "$(dirname "$0")/netns_lib.sh"

nl_init "uxpa$QUEUES${OFFLOAD:0:1}$$"	# unique: several runs may share the machine
nl_require_netns
nl_require_cmd socat ethtool python3 ping ss
python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_PACKET sockets are not permitted here (needs CAP_NET_RAW)"

RUN_S=${UXDP_TEST_RUN_S:-14}
nl_router_topology
T=$NL_TMP
if [ "$OFFLOAD" = csum ]; then
	ip netns exec "$NL_NS_A" ethtool -K "$NL_IF_A" tx on >/dev/null
	ip netns exec "$NL_NS_B" ethtool -K "$NL_IF_B" tx on >/dev/null
fi

cat >"$T/router.uxdp" <<EOF
link add r0 type afpacket dev $NL_IF_R0 queues $QUEUES
link add r1 type afpacket dev $NL_IF_R1 queues $QUEUES
link set dev r0 xdp obj $PROGS/xdp_drop_udp_port.o
map update xdp_drop_udp_port:drop_cfg key 00000000 value 0f270000
addr add 198.18.0.1/24 dev r0
addr add 198.19.0.1/24 dev r1
sysctl net.ipv4.ip_forward=1
run ${RUN_S}s workers $QUEUES
stats maps
stats drops
neigh show
ntable show
EOF

snap_a=$(nl_snap "$NL_NS_A" "$NL_IF_A")
snap_b=$(nl_snap "$NL_NS_B" "$NL_IF_B")
# UXDP_LEAK_CHECK: uxdp exits 1 if a page or slab object is still out after the script
nl_bg "$NL_NS_R" "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/router.uxdp"
UPID=$NL_BG_PID

# Ready when both devices' sockets are bound in R (or uxdp died).
ready() { kill -0 "$UPID" 2>/dev/null || return 0; [ "$(nl_packet_sockets "$NL_NS_R")" -ge $((2 * QUEUES)) ]; }
nl_wait_for 10 ready || nl_fail "uxdp did not open its sockets within 10 s: $(cat "$T/run.json.err")"
kill -0 "$UPID" 2>/dev/null || nl_fail "uxdp exited early: $(cat "$T/run.json.err" "$T/run.json")"
sleep 0.5

ROUTER_PING=1 nl_router_traffic "$T"
quiet_a=$(nl_wait_quiet "$NL_NS_A" "$NL_IF_A")
quiet_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")

nl_wait_pid "$UPID" $((RUN_S + 20))
rc=$?
[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc: $(cat "$T/run.json.err")"
J=$T/run.json

nl_router_check "$J" "$T" r0 r1
nl_wire_check "$J" r0 "$NL_NS_A" "$NL_IF_A" "$snap_a" "" "$quiet_a"
nl_wire_check "$J" r1 "$NL_NS_B" "$NL_IF_B" "$snap_b" "" "$quiet_b"
if [ "$OFFLOAD" = csum ]; then
	jq -e '.devices.r0.driver_stats.rx_csum_completed > 0 and .devices.r1.driver_stats.rx_csum_completed > 0' \
		"$J" >/dev/null || nl_fail "no CHECKSUM_PARTIAL frame completed: $(jq -c '.devices[].driver_stats' "$J")"
fi
echo "PASS: router_afpacket (queues $QUEUES, offload $OFFLOAD): ping, 4 MiB TCP byte-exact, UDP 9999 dropped (50), 9998 passed (50), wires conserved"
