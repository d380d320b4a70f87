#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp as an IPv6 router on AF_PACKET, neighbours found by NDP both ways:
#   ns A 2001:2::2/64 ─veth─ [ns R: uxdp, r0 2001:2::1/64, r1 2001:2:0:1::1/64,
#   forwarding=1; R's own kernel has IPv6 off] ─veth (MTU 1400)─ ns B 2001:2:0:1::2/64
# No static neighbour anywhere (A, B and uxdp resolve by neighbour discovery;
# A's and B's kernels and uxdp wait 60 s before a unicast probe, so no probe
# or its answer crosses a wire after uxdp has stopped and spoils the counts).
# Checks: ping -6 A -> B and B -> A, and of each router address; a 4 MiB TCP
# transfer A -> B over IPv6 byte-exact; a 1448-byte ping with DF (IPv6 never
# fragments en route) gets ICMPv6 packet too big with MTU 1400 back at A,
# which A's kernel counts (Icmp6InPktTooBigs) and caches (route mtu 1400);
# uxdp's Ip6/Icmp6 counters (ForwDatagrams, InTooBigErrors, OutPktTooBigs);
# `neigh show` lists A and B with their MACs; each uxdp device agrees exactly
# with the kernel interface at the other end of its wire; received + NDP
# solicitations made == sent + dropped + frames the stack ended.
# With MODE xdp, examples/progs/xdp_fwd_fib.o on r0 and r1 forwards in XDP
# by bpf_fib_lookup() (AF_INET6) and bpf_redirect(): its counter must show
# the TCP transfer redirected; what it passes (neighbours not resolved yet,
# too big, for the router) the stack handles as above.
# Usage: router6.sh UXDP [QUEUES [MODE PROGS_DIR]]
# Skips (77) without root, namespaces, IPv6 or AF_PACKET.
set -u
UXDP=$1
QUEUES=${2:-1}
MODE=${3:-stack}
PROGS=${4:-}
. "$(dirname "$0")/netns_lib.sh"

nl_init "ux6p$QUEUES${MODE:0:1}$$"
nl_require_netns
nl_require_cmd socat ethtool python3 ping ss nstat
python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_PACKET sockets are not permitted here (needs CAP_NET_RAW)"
[ -d /proc/sys/net/ipv6 ] || nl_skip "no IPv6 in this kernel"

RUN_S=${UXDP_TEST_RUN_S:-14}
nl_router_topology
T=$NL_TMP
A6=2001:2::2 R0=2001:2::1 R1=2001:2:0:1::1 B6=2001:2:0:1::2
for e in "$NL_NS_A $NL_IF_A" "$NL_NS_B $NL_IF_B"; do
	set -- $e
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 "net.ipv6.conf.$2.disable_ipv6=0" \
		"net.ipv6.conf.$2.accept_dad=0" "net.ipv6.conf.$2.accept_ra=0" \
		"net.ipv6.neigh.$2.delay_first_probe_time=60" || nl_fail "IPv6 on $1/$2"
done
ip -n "$NL_NS_R" link set "$NL_IF_R1" mtu 1400
ip -n "$NL_NS_B" link set "$NL_IF_B" mtu 1400
ip -n "$NL_NS_A" addr add $A6/64 dev "$NL_IF_A" nodad
ip -n "$NL_NS_A" -6 route add default via $R0
ip -n "$NL_NS_B" addr add $B6/64 dev "$NL_IF_B" nodad
ip -n "$NL_NS_B" -6 route add default via $R1

cat >"$T/router.uxdp" <<EOF
link add r0 type afpacket dev $NL_IF_R0 queues $QUEUES
link add r1 type afpacket dev $NL_IF_R1 queues $QUEUES
$([ "$MODE" = xdp ] && printf 'link set dev r0 xdp obj %s\nlink set dev r1 xdp obj %s\n' \
	"$PROGS/xdp_fwd_fib.o" "$PROGS/xdp_fwd_fib.o")
addr add $R0/64 dev r0
addr add $R1/64 dev r1
sysctl net.ipv6.conf.all.forwarding=1
# no unicast probe at the end of the run whose answer uxdp would not read
sysctl net.ipv6.neigh.r0.delay_first_probe_time=60
sysctl net.ipv6.neigh.r1.delay_first_probe_time=60
run ${RUN_S}s workers $QUEUES
stats drops
stats maps
neigh show
ntable show
snmp
EOF

# A's and B's MLD reports for their new addresses (two, up to 1 s apart) go
# out before the snapshots: uxdp is not there yet to receive them.
sleep 2.5
snap_a=$(nl_wait_quiet "$NL_NS_A" "$NL_IF_A")
snap_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")
ip netns exec "$NL_NS_A" nstat -n >/dev/null 2>&1
nl_bg "$NL_NS_R" "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/router.uxdp"
UPID=$NL_BG_PID
ready() { kill -0 "$UPID" 2>/dev/null || return 0; [ "$(nl_packet_sockets "$NL_NS_R")" -ge $((2 * QUEUES)) ]; }
nl_wait_for 10 ready || nl_fail "uxdp did not open its sockets within 10 s: $(cat "$T/run.json.err")"
kill -0 "$UPID" 2>/dev/null || nl_fail "uxdp exited early: $(cat "$T/run.json.err" "$T/run.json")"
sleep 0.5

ip netns exec "$NL_NS_A" ping -6 -q -c 3 -i 0.2 -W 3 $B6 >"$T/ping_ab" 2>&1 ||
	nl_fail "ping -6 A -> B: $(cat "$T/ping_ab")"
ip netns exec "$NL_NS_B" ping -6 -q -c 3 -i 0.2 -W 3 $A6 >"$T/ping_ba" 2>&1 ||
	nl_fail "ping -6 B -> A: $(cat "$T/ping_ba")"
ip netns exec "$NL_NS_A" ping -6 -q -c 1 -W 2 $R0 >/dev/null 2>&1 || nl_fail "ping -6 A -> $R0 (uxdp)"
ip netns exec "$NL_NS_B" ping -6 -q -c 1 -W 2 $R1 >/dev/null 2>&1 || nl_fail "ping -6 B -> $R1 (uxdp)"
# Too big for r1: packet too big back at A (IPv6 routers never fragment).
ip netns exec "$NL_NS_A" ping -6 -c 1 -s 1400 -M do -W 2 $B6 >"$T/ping_big" 2>&1
grep -qi "too big" "$T/ping_big" || nl_fail "no packet too big at A: $(cat "$T/ping_big")"
ip -n "$NL_NS_A" -6 route get $B6 | grep -q "mtu 1400" ||
	nl_fail "A did not learn the path MTU: $(ip -n "$NL_NS_A" -6 route get $B6)"
ptb=$(ip netns exec "$NL_NS_A" nstat -az Icmp6InPktTooBigs | awk '/Icmp6InPktTooBigs/ { print $2 }')
[ "${ptb:-0}" -ge 1 ] || nl_fail "A's Icmp6InPktTooBigs is ${ptb:-0}"

# TCP over IPv6: 4 MiB, byte-exact
nl_tcp_exact "$T" $B6
quiet_a=$(nl_wait_quiet "$NL_NS_A" "$NL_IF_A")
quiet_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")

nl_wait_pid "$UPID" $((RUN_S + 20))
rc=$?
[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc: $(cat "$T/run.json.err")"
J=$T/run.json
jq -e --arg ma "$NL_MAC_A" --arg mb "$NL_MAC_B" --arg a "$A6" --arg b "$B6" '
	def resolved($ip; $dev; $mac): any(.neigh[]; .dst == $ip and .dev == $dev and
		.lladdr == $mac and (.state[0] | IN("REACHABLE", "STALE", "DELAY", "PROBE")));
	resolved($a; "r0"; $ma) and resolved($b; "r1"; $mb)' "$J" >/dev/null ||
	nl_fail "uxdp did not resolve A and B by NDP: $(jq -c .neigh "$J")"
# In XDP mode the stack forwards only what waited for a neighbour.
fwd_min=1000
[ "$MODE" = xdp ] && fwd_min=1
jq -e --argjson f $fwd_min '.snmp as $s | $s["Ip6.OutForwDatagrams"] >= $f and $s["Ip6.InTooBigErrors"] >= 1 and
	$s["Icmp6.OutPktTooBigs"] >= 1 and $s["Icmp6.OutNeighborSolicits"] >= 1 and
	$s["Icmp6.InNeighborAdvertisements"] >= 1 and $s["Icmp6.InNeighborSolicits"] >= 1' "$J" >/dev/null ||
	nl_fail "uxdp's Ip6/Icmp6 counters: $(jq -c .snmp "$J")"
jq -e '(.ntable // {}) as $n | ([$n[].tx_solicits] | add) as $s | ([$n[].rx_consumed] | add) as $c |
	(.devices.r0.rx_packets + .devices.r1.rx_packets + $s) ==
	(.devices.r0.tx_packets + .devices.r1.tx_packets + .devices.r0.drops_total + .devices.r1.drops_total + $c)' \
	"$J" >/dev/null || nl_fail "router: received + solicitations != sent + dropped + ended: $(jq -c '{devices, ntable, skb_drops}' "$J")"
if [ "$MODE" = xdp ]; then
	jq -e '[.maps[] | select(.map == "fwd_cnt" and .key == 1) | .count] | add > 1000' "$J" >/dev/null ||
		nl_fail "xdp_fwd_fib redirected too few IPv6 frames: $(jq -c .maps "$J")"
	nl_uxdp_conservation "$J" r0 r1
fi
nl_wire_check "$J" r0 "$NL_NS_A" "$NL_IF_A" "$snap_a" "" "$quiet_a"
nl_wire_check "$J" r1 "$NL_NS_B" "$NL_IF_B" "$snap_b" "" "$quiet_b"
echo "PASS: router6_afpacket (queues $QUEUES, $MODE): ping -6 both ways, packet too big at A, 4 MiB TCP over IPv6 byte-exact, NDP, wires conserved"
