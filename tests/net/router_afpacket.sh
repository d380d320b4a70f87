#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp as an IPv4 router on AF_PACKET (issue 7):
#   ns A 198.18.0.2/24 ─veth─ [ns R: uxdp, r0 = afpacket on the A side, r1 =
#   afpacket on the B side (QUEUES sockets each, fanout), 198.18.0.1/24 and
#   198.19.0.1/24, ip_forward=1] ─veth─ ns B 198.19.0.2/24
# A and B find the router by ARP (uxdp answers); uxdp knows them statically.
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
neigh add 198.18.0.2 lladdr $NL_MAC_A dev r0
neigh add 198.19.0.2 lladdr $NL_MAC_B dev r1
sysctl net.ipv4.ip_forward=1
run ${RUN_S}s workers $QUEUES
stats maps
stats drops
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

ip netns exec "$NL_NS_A" ping -q -c 3 -i 0.2 -W 2 198.19.0.2 >"$T/ping" 2>&1 ||
	nl_fail "ping A -> B through uxdp: $(cat "$T/ping")"
ip netns exec "$NL_NS_A" ping -q -c 1 -W 2 198.18.0.1 >"$T/ping1" 2>&1 ||
	nl_fail "ping A -> router (uxdp's ICMP echo): $(cat "$T/ping1")"

# UDP: port 9998 passes, port 9999 is dropped by the XDP program on r0
nl_bg "$NL_NS_B" "$T/udp9998" socat -u UDP-RECV:9998 -
nl_bg "$NL_NS_B" "$T/udp9999" socat -u UDP-RECV:9999 -
for port in 9998 9999; do
	nl_wait_for 5 nl_listening "$NL_NS_B" u $port || nl_fail "socat did not listen on UDP $port in B"
done
ip netns exec "$NL_NS_A" bash -c '
	exec 3>/dev/udp/198.19.0.2/9998 4>/dev/udp/198.19.0.2/9999
	for i in $(seq 1 50); do
		printf "pass %02d\n" "$i" >&3
		printf "drop %02d\n" "$i" >&4
		sleep 0.002
	done' || nl_fail "sending UDP from A"

# TCP: 4 MiB, byte-exact
head -c 4194304 /dev/urandom >"$T/send"
nl_bg "$NL_NS_B" "$T/tcp.out" socat -u TCP-LISTEN:5001,reuseaddr OPEN:"$T/recv",creat,trunc
TCP_PID=$NL_BG_PID
nl_wait_for 5 nl_listening "$NL_NS_B" t 5001 ||
	nl_fail "socat did not listen on TCP 5001 in B"
timeout 20 ip netns exec "$NL_NS_A" socat -u OPEN:"$T/send" TCP:198.19.0.2:5001,connect-timeout=5 ||
	nl_fail "TCP transfer A -> B through uxdp"
nl_wait_pid "$TCP_PID" 10 || nl_fail "TCP receiver in B did not finish"
cmp -s "$T/send" "$T/recv" ||
	nl_fail "TCP transfer: $(stat -c %s "$T/recv") of 4194304 bytes, or different bytes"

nl_wait_pid "$UPID" $((RUN_S + 20))
rc=$?
[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc: $(cat "$T/run.json.err")"
J=$T/run.json

[ "$(sort -u "$T/udp9998" | wc -l)" -eq 50 ] ||
	nl_fail "port 9998: $(wc -l <"$T/udp9998") of 50 datagrams arrived; B: $(ip netns exec "$NL_NS_B" \
		nstat -az 2>/dev/null | grep -E '^Udp(InDatagrams|InErrors|InCsumErrors|RcvbufErrors) ' | tr -s ' ' | tr '\n' ';') uxdp: $(jq -c '.devices' "$J")"
[ ! -s "$T/udp9999" ] || nl_fail "port 9999: $(wc -l <"$T/udp9999") datagrams arrived despite XDP_DROP"
jq -e '.devices.r0.xdp.drop == 50' "$J" >/dev/null ||
	nl_fail "r0: expected 50 XDP_DROP verdicts: $(jq -c .devices.r0 "$J")"
jq -e '[.maps[] | select(.map == "drop_cnt" and .key == 0) | .count] == [50]' "$J" >/dev/null ||
	nl_fail "xdp_drop_udp_port's drop_cnt[0] is not 50: $(jq -c .maps "$J")"
jq -e '[.drops.r0[]? | select(.reason == "XDP_DROP") | .count] == [50]' "$J" >/dev/null ||
	nl_fail "r0: drop reasons: $(jq -c .drops "$J")"

nl_uxdp_conservation "$J" r0 r1
nl_wire_check "$J" r0 "$NL_NS_A" "$NL_IF_A" "$snap_a"
nl_wire_check "$J" r1 "$NL_NS_B" "$NL_IF_B" "$snap_b"
jq -e '(.devices.r0.rx_packets + .devices.r1.rx_packets) ==
	(.devices.r0.tx_packets + .devices.r1.tx_packets + .devices.r0.drops_total + .devices.r1.drops_total)' \
	"$J" >/dev/null || nl_fail "router: received != sent + dropped: $(jq -c .devices "$J")"
if [ "$OFFLOAD" = csum ]; then
	jq -e '.devices.r0.driver_stats.rx_csum_completed > 0 and .devices.r1.driver_stats.rx_csum_completed > 0' \
		"$J" >/dev/null || nl_fail "no CHECKSUM_PARTIAL frame completed: $(jq -c '.devices[].driver_stats' "$J")"
fi
echo "PASS: router_afpacket (queues $QUEUES, offload $OFFLOAD): ping, 4 MiB TCP byte-exact, UDP 9999 dropped (50), 9998 passed (50), wires conserved"
