#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp as an IPv6 router, neighbours found by NDP both ways:
#   ns A 2001:2::2/64 ─veth─ [ns R: uxdp, r0 2001:2::1/64, r1 2001:2:0:1::1/64,
#   forwarding=1; R's own kernel has IPv6 off] ─veth (MTU 1400)─ ns B 2001:2:0:1::2/64
# KIND is the device kind of r0 and r1: afpacket (both), afxdp (both, one
# queue; r1's MTU set to its wire's) or tap (r0 is a tap uxdp creates in A,
# which is A's interface instead of the veth; r1 afpacket).
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
# Usage: router6.sh UXDP KIND [QUEUES [MODE PROGS_DIR]]
# Skips (77) without root, namespaces, IPv6, AF_PACKET, AF_XDP (afxdp) or
# /dev/net/tun (tap).
set -u
UXDP=$1
KIND=$2
QUEUES=${3:-1}
MODE=${4:-stack}
PROGS=${5:-}
. "$(dirname "$0")/netns_lib.sh"

nl_init "ux6${KIND:0:2}$QUEUES${MODE:0:1}$$"
nl_require_netns
nl_require_cmd socat ethtool python3 ping ss nstat
python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_PACKET sockets are not permitted here (needs CAP_NET_RAW)"
[ -d /proc/sys/net/ipv6 ] || nl_skip "no IPv6 in this kernel"
case $KIND in
afpacket) ;;
afxdp)	python3 -c 'import socket; socket.socket(44, socket.SOCK_RAW).close()' 2>/dev/null ||
		nl_skip "AF_XDP sockets are not available or not permitted here"
	[ "$QUEUES" = 1 ] || nl_fail "afxdp: one queue only (router_afxdp.sh q2 has two)" ;;
tap)	[ -c /dev/net/tun ] || nl_skip "/dev/net/tun is missing (modprobe tun)" ;;
*)	nl_fail "unknown KIND '$KIND' (afpacket, afxdp or tap)" ;;
esac

RUN_S=${UXDP_TEST_RUN_S:-14}
nl_router_topology
T=$NL_TMP
A6=2001:2::2 R0=2001:2::1 R1=2001:2:0:1::1 B6=2001:2:0:1::2
IF_A=$NL_IF_A
if [ "$KIND" = tap ]; then
	# A's end is the tap, born with uxdp: it takes A's defaults.
	IF_A=${NL_PREFIX}t0
	ip -n "$NL_NS_A" link del "$NL_IF_A"
fi
# No DAD, router solicitations or unicast probes (their answers would
# cross a wire after uxdp stopped); conf "default" for a tap made later,
# its neigh parameters once it exists (a namespace has no neigh default).
a_probe() { ip netns exec "$NL_NS_A" sysctl -qw "net.ipv6.neigh.$IF_A.delay_first_probe_time=60"; }
for e in "$NL_NS_A $IF_A" "$NL_NS_B $NL_IF_B"; do
	set -- $e
	c=$2
	[ "$2" = "$NL_IF_B" ] || [ "$KIND" != tap ] || c=default
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 "net.ipv6.conf.$c.disable_ipv6=0" \
		"net.ipv6.conf.$c.accept_dad=0" "net.ipv6.conf.$c.accept_ra=0" \
		"net.ipv6.conf.$c.router_solicitations=0" || nl_fail "IPv6 on $1/$2"
done
ip netns exec "$NL_NS_B" sysctl -qw "net.ipv6.neigh.$NL_IF_B.delay_first_probe_time=60" ||
	nl_fail "neigh parameters of $NL_IF_B"
[ "$KIND" = tap ] || a_probe || nl_fail "neigh parameters of $IF_A"
ip -n "$NL_NS_R" link set "$NL_IF_R1" mtu 1400
ip -n "$NL_NS_B" link set "$NL_IF_B" mtu 1400
a_addr() {
	ip -n "$NL_NS_A" addr add $A6/64 dev "$IF_A" nodad &&
	ip -n "$NL_NS_A" -6 route add default via $R0
}
[ "$KIND" = tap ] || a_addr || nl_fail "IPv6 address and route in A"
ip -n "$NL_NS_B" addr add $B6/64 dev "$NL_IF_B" nodad
ip -n "$NL_NS_B" -6 route add default via $R1

case $KIND in
afpacket) DEV_R0="afpacket dev $NL_IF_R0 queues $QUEUES"
	  DEV_R1="afpacket dev $NL_IF_R1 queues $QUEUES" ;;
afxdp)	  DEV_R0="afxdp dev $NL_IF_R0"
	  DEV_R1="afxdp dev $NL_IF_R1" ;;
tap)	  DEV_R0="tap ifname $IF_A queues $QUEUES netns $NL_NS_A"
	  DEV_R1="afpacket dev $NL_IF_R1 queues $QUEUES" ;;
esac
cat >"$T/router.uxdp" <<EOF
link add r0 type $DEV_R0
link add r1 type $DEV_R1
$([ "$KIND" = afxdp ] && echo "link set dev r1 mtu 1400")
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
# out before the snapshots: uxdp is not there yet to receive them (a tap's
# go through uxdp, which counts them like any frame).
sleep 2.5
[ "$KIND" = tap ] || snap_a=$(nl_wait_quiet "$NL_NS_A" "$IF_A")
snap_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")
ip netns exec "$NL_NS_A" nstat -n >/dev/null 2>&1
nl_bg "$NL_NS_R" "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/router.uxdp"
UPID=$NL_BG_PID
case $KIND in
afpacket) sockets=$((2 * QUEUES)) ;;
afxdp)	  sockets=0 ;;
tap)	  sockets=$QUEUES ;;
esac
ready() {
	kill -0 "$UPID" 2>/dev/null || return 0
	[ "$(nl_packet_sockets "$NL_NS_R")" -ge $sockets ] || return 1
	case $KIND in
	afxdp) nl_xdp_on "$NL_NS_R" "$NL_IF_R0" && nl_xdp_on "$NL_NS_R" "$NL_IF_R1" ;;
	tap)   nl_link_up "$NL_NS_A" "$IF_A" ;;
	esac
}
nl_wait_for 10 ready || nl_fail "uxdp did not open its devices within 10 s: $(cat "$T/run.json.err")"
kill -0 "$UPID" 2>/dev/null || nl_fail "uxdp exited early: $(cat "$T/run.json.err" "$T/run.json")"
if [ "$KIND" = tap ]; then
	ip -n "$NL_NS_A" link set "$IF_A" address "$NL_MAC_A"
	a_probe && a_addr || nl_fail "IPv6 address and route on $IF_A in A"
	snap_a="0 0"	# the tap's counters start at its creation
fi
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
quiet_a=$(nl_wait_quiet "$NL_NS_A" "$IF_A")
quiet_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")

snap_a_end=
if [ "$KIND" = tap ]; then
	snap_a_end=$(nl_snap_until_exit "$NL_NS_A" "$IF_A" "$UPID" $((RUN_S + 20)))
	nl_wait_pid "$UPID" 20
else
	nl_wait_pid "$UPID" $((RUN_S + 20))
fi
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
nl_wire_check "$J" r0 "$NL_NS_A" "$IF_A" "$snap_a" "$snap_a_end" "$quiet_a"
nl_wire_check "$J" r1 "$NL_NS_B" "$NL_IF_B" "$snap_b" "" "$quiet_b"
[ "$KIND" != tap ] || ! ip -n "$NL_NS_A" link show "$IF_A" >/dev/null 2>&1 ||
	nl_fail "$IF_A still exists after uxdp exited"
echo "PASS: router6 ($KIND, queues $QUEUES, $MODE): ping -6 both ways, packet too big at A, 4 MiB TCP over IPv6 byte-exact, NDP, wires conserved"
