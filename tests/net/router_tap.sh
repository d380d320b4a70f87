#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp as an IPv4 router between a TAP and AF_PACKET:
#   ns A: uxpt0 198.18.0.2/24, the kernel end of uxdp's tap t0 (created by
#   uxdp in A with `netns`, QUEUES queues) ═ [ns R: uxdp, t0 = tap,
#   r1 = afpacket on the B side, 198.18.0.1/24 and 198.19.0.1/24,
#   ip_forward=1] ─veth─ ns B 198.19.0.2/24
# A and B find the router by ARP (uxdp answers); uxdp resolves A and B by
# ARP itself (no static neighbours: both end up in its table with their MACs).
# Checks: ping A → B and A → router; a 4 MiB TCP transfer arrives byte-exact;
# xdp_drop_udp_port on t0 drops UDP port 9999: none of its 50 datagrams reach
# B while all 50 of port 9998 do, and the program's own counter says 50;
# every frame t0/r1 received got one XDP verdict; each uxdp device agrees
# exactly with the kernel interface at the other end of its wire (rx == the
# peer's tx, tx == the peer's rx); what the router received it sent or
# dropped with a reason; the tap is gone once uxdp has exited, and every
# page and skb is back.
# Usage: router_tap.sh UXDP PROGS_DIR [QUEUES]
# Skips (77) without root, namespaces, /dev/net/tun or AF_PACKET.
set -u
UXDP=$1
PROGS=$2
QUEUES=${3:-1}
. "$(dirname "$0")/netns_lib.sh"

nl_init "uxpt$QUEUES$$"	# unique: several runs may share the machine
nl_require_netns
nl_require_cmd socat ethtool python3 ping ss
python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_PACKET sockets are not permitted here (needs CAP_NET_RAW)"
[ -c /dev/net/tun ] || nl_skip "/dev/net/tun is missing (modprobe tun)"

RUN_S=${UXDP_TEST_RUN_S:-14}
nl_router_topology
T=$NL_TMP
TAP=${NL_PREFIX}t0
# A's end is the tap, not the veth: remove the A ─ R pair.
ip -n "$NL_NS_A" link del "$NL_IF_A"

cat >"$T/router.uxdp" <<EOF
link add t0 type tap ifname $TAP queues $QUEUES netns $NL_NS_A
link add r1 type afpacket dev $NL_IF_R1 queues $QUEUES
link set dev t0 xdp obj $PROGS/xdp_drop_udp_port.o
map update xdp_drop_udp_port:drop_cfg key 00000000 value 0f270000
addr add 198.18.0.1/24 dev t0
# no unicast probe of A after the traffic: the tap and its counters go with uxdp
sysctl net.ipv4.neigh.t0.delay_first_probe_time=60
addr add 198.19.0.1/24 dev r1
sysctl net.ipv4.ip_forward=1
run ${RUN_S}s workers $QUEUES
stats maps
stats drops
neigh show
ntable show
EOF

snap_b=$(nl_snap "$NL_NS_B" "$NL_IF_B")
# UXDP_LEAK_CHECK: uxdp exits 1 if a page or slab object is still out after the script
nl_bg "$NL_NS_R" "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/router.uxdp"
UPID=$NL_BG_PID

# Ready when the tap is up in A and r1's sockets are bound in R (or uxdp died).
ready() { kill -0 "$UPID" 2>/dev/null || return 0; nl_link_up "$NL_NS_A" "$TAP" && [ "$(nl_packet_sockets "$NL_NS_R")" -ge "$QUEUES" ]; }
nl_wait_for 10 ready || nl_fail "uxdp did not create $TAP and r1 within 10 s: $(cat "$T/run.json.err")"
kill -0 "$UPID" 2>/dev/null || nl_fail "uxdp exited early: $(cat "$T/run.json.err" "$T/run.json")"
ip -n "$NL_NS_A" link set "$TAP" address "$NL_MAC_A"
ip -n "$NL_NS_A" addr add 198.18.0.2/24 dev "$TAP"
ip -n "$NL_NS_A" route add default via 198.18.0.1
# The tap was born with uxdp: its counters are zero at creation, and uxdp's
# gratuitous ARP may cross it before this point.
snap_a="0 0"
sleep 0.5

ROUTER_PING=1 nl_router_traffic "$T"

# The tap goes away with uxdp: read its counters until then (uxdp's own
# neighbour probes may still cross it after the traffic).
quiet_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")
snap_a_end=$(nl_snap_until_exit "$NL_NS_A" "$TAP" "$UPID" $((RUN_S + 20)))
nl_wait_pid "$UPID" 20
rc=$?
[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc: $(cat "$T/run.json.err")"
J=$T/run.json

nl_router_check "$J" "$T" t0 r1
nl_wire_check "$J" t0 "$NL_NS_A" "$TAP" "$snap_a" "$snap_a_end"
nl_wire_check "$J" r1 "$NL_NS_B" "$NL_IF_B" "$snap_b" "" "$quiet_b"
! ip -n "$NL_NS_A" link show "$TAP" >/dev/null 2>&1 || nl_fail "$TAP still exists after uxdp exited"
echo "PASS: router_tap (queues $QUEUES): ping, 4 MiB TCP byte-exact, UDP 9999 dropped (50), 9998 passed (50), wires conserved"
