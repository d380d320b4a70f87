# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# netns_lib.sh: the harness of the real-interface tests and benchmarks
# (router_afpacket.sh, router_tap.sh, router_afxdp.sh, tools/bench/fwd_bench.sh).
# Source it from bash, then call nl_init PREFIX first. Function names are
# stable; add new ones rather than changing these.
#
#   nl_init PREFIX            names start with PREFIX (uxp, uxx, ...); sets the
#                             EXIT trap that removes namespaces and kills the
#                             background PIDs started here (and only those)
#   nl_skip MSG               print "SKIP: MSG", exit 77
#   nl_fail MSG               print "FAIL: MSG", exit 1 (the trap cleans up)
#   nl_require_netns          skip unless root can create namespaces and veths
#   nl_require_cmd CMD...     skip unless each CMD is installed
#   nl_ns_add NAME            a namespace (lo up, IPv6 off: no RS/DAD/MLD noise)
#   nl_veth NS1 IF1 NS2 IF2   a veth pair between two namespaces, both up
#   nl_offloads_off NS IF     tx checksum, TSO/GSO/GRO off: frames on the wire are
#                             complete (no CHECKSUM_PARTIAL, no GSO super-frames)
#   nl_mac NS IF              the interface's MAC
#   nl_router_topology        A ─veth─ R ─veth─ B, see below
#   nl_bg NS OUT CMD...       run CMD in NS in the background, stdout to OUT,
#                             stderr to OUT.err; PID in NL_BG_PID (killed at exit)
#   nl_wait_pid PID SECS      wait for a background PID to end (at most SECS);
#                             returns its exit status (124 on timeout)
#   nl_wait_for SECS CMD...   retry CMD every 0.1 s until it succeeds; 1 on timeout
#   nl_packet_sockets NS      number of AF_PACKET sockets open in NS
#   nl_listening NS t|u PORT  a TCP (t) or UDP (u) socket is bound to PORT in NS
#   nl_link_stat NS IF PATH   a counter of `ip -j -s link`, e.g. rx.packets
#   nl_snap NS IF             "rx_packets tx_packets" of a kernel interface
#   nl_snap_until_exit NS IF PID SECS
#                             the last nl_snap of IF before it went away with
#                             PID (a tap uxdp made), polling at most SECS
#   nl_xdp_on NS IF           an XDP program is attached to IF
#   nl_link_up NS IF          IF exists and is up
#   nl_uxdp_conservation JSON DEV...
#                             every DEV of `uxdp -j run` output gave each received
#                             frame one XDP verdict (when a program ran), and
#                             nothing is unaccounted for: fails with the JSON
#   nl_wait_quiet NS IF       wait (at most 5 s) until IF's counters stay still
#                             for 0.5 s, e.g. after the traffic, while uxdp still
#                             runs; prints the nl_snap it settled on
#   nl_wire_check JSON DEV NS IF BEFORE [AFTER] [QUIET]
#                             uxdp device DEV and kernel interface IF at the other
#                             end of its wire agree exactly: DEV rx == IF tx and
#                             DEV tx == IF rx between BEFORE and AFTER (nl_snap
#                             outputs; AFTER defaults to now, give it for an
#                             interface that goes away with uxdp, as a tap). On a
#                             mismatch it shows DEV's counters and driver stats
#                             and, given QUIET (nl_wait_quiet after the traffic),
#                             whether the difference crossed the wire while uxdp
#                             stopped or was lost during the traffic
#   nl_remove_while_running NS IF PEER_NS DEV UPID START JSON
#                             uxdp (UPID, started at START, its JSON report in
#                             JSON) runs device DEV on NS/IF: some traffic from
#                             PEER_NS, then IF is deleted; uxdp must end well
#                             before its duration (< 20 s), exit 0, say "DEV:
#                             interface IF was removed" and report
#                             interface_gone = 1. Seconds taken in NL_REMOVE_SECS
#   nl_router_traffic DIR     the router tests' traffic A -> B through R: ping
#                             (and ping of 198.18.0.1 with ROUTER_PING=1), 50
#                             UDP datagrams each to B's ports 9998 and 9999
#                             (received into DIR/udp9998, DIR/udp9999), 4 MiB
#                             of TCP compared byte for byte
#   nl_tcp_exact DIR DST      4 MiB of TCP from A to B's address DST (IPv4 or
#                             IPv6) through the router, compared byte for byte
#   nl_router_check JSON DIR DEV0 DEV1
#                             after uxdp's run: 9998 got its 50, 9999 none, and
#                             DEV0's XDP program (xdp_drop_udp_port) dropped 50
#                             with reason XDP_DROP; each device's verdicts
#                             conserved; the router DEV0+DEV1 sent or dropped
#                             with a reason every frame it received (with the
#                             script's `ntable show`: received + ARP requests
#                             it made == sent + dropped + ARP it consumed);
#                             with its `neigh show`: uxdp resolved A on DEV0
#                             and B on DEV1 to their MACs
#
# Router topology (nl_router_topology), addresses from 198.18.0.0/15 only:
#   ns $NL_NS_A: $NL_IF_A 198.18.0.2/24, default via 198.18.0.1
#     ─veth─ ns $NL_NS_R: $NL_IF_R0 (no address: uxdp or the kernel routes here)
#            ns $NL_NS_R: $NL_IF_R1
#     ─veth─ ns $NL_NS_B: $NL_IF_B 198.19.0.2/24, default via 198.19.0.1
# MACs are fixed: NL_MAC_A 02:75:70:00:00:0a, NL_MAC_R0 ...:01, NL_MAC_R1 ...:02,
# NL_MAC_B ...:0b. Offloads are off on all four ends; the kernel ends in R have
# no address, so R's kernel neither answers ARP nor forwards (ip_forward=0):
# a user-space router bound there sees every frame alone.

NL_PREFIX=
NL_NAMESPACES=()
NL_PIDS=()
NL_TMP=

nl_cleanup() {
	local pid ns
	for pid in "${NL_PIDS[@]}"; do
		kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	for ns in "${NL_NAMESPACES[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	[ -n "$NL_TMP" ] && rm -rf "$NL_TMP"
	return 0
}

nl_init() {
	NL_PREFIX=$1
	NL_TMP=$(mktemp -d)
	trap 'rc=$?; nl_cleanup; exit $rc' EXIT
	trap 'exit 130' INT TERM
}

nl_skip() { echo "SKIP: $*"; exit 77; }
nl_fail() { echo "FAIL: $*"; exit 1; }

nl_require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || nl_skip "$c is not installed (scripts/deps.sh)"
	done
}

nl_require_netns() {
	local probe=${NL_PREFIX}probe$$
	nl_require_cmd ip jq
	[ "$(id -u)" -eq 0 ] || nl_skip "needs root (network namespaces, AF_PACKET)"
	ip netns add "$probe" 2>/dev/null || nl_skip "cannot create network namespaces here"
	if ! ip -n "$probe" link add "${NL_PREFIX}p0" type veth peer name "${NL_PREFIX}p1" 2>/dev/null; then
		ip netns del "$probe"
		nl_skip "cannot create veth pairs here"
	fi
	ip netns del "$probe"
}

nl_ns_add() {
	ip netns add "$1" || nl_fail "ip netns add $1"
	NL_NAMESPACES+=("$1")
	ip -n "$1" link set lo up
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 2>/dev/null || true
}

nl_veth() {
	ip link add "$2" netns "$1" type veth peer name "$4" netns "$3" \
		|| nl_fail "veth $1/$2 - $3/$4"
	ip -n "$1" link set "$2" up
	ip -n "$3" link set "$4" up
}

nl_offloads_off() {
	# Not every feature exists on every kernel: set them one by one.
	local f
	for f in tx tso gso gro lro rx-gro-list rx-udp-gro-forwarding; do
		ip netns exec "$1" ethtool -K "$2" "$f" off >/dev/null 2>&1 || true
	done
}

nl_mac() { ip -n "$1" -j link show "$2" | jq -r '.[0].address'; }

nl_router_topology() {
	NL_NS_A=${NL_PREFIX}A NL_NS_R=${NL_PREFIX}R NL_NS_B=${NL_PREFIX}B
	NL_IF_A=${NL_PREFIX}a0 NL_IF_R0=${NL_PREFIX}r0 NL_IF_R1=${NL_PREFIX}r1 NL_IF_B=${NL_PREFIX}b0
	NL_MAC_A=02:75:70:00:00:0a NL_MAC_R0=02:75:70:00:00:01
	NL_MAC_R1=02:75:70:00:00:02 NL_MAC_B=02:75:70:00:00:0b
	nl_ns_add "$NL_NS_A"
	nl_ns_add "$NL_NS_R"
	nl_ns_add "$NL_NS_B"
	nl_veth "$NL_NS_A" "$NL_IF_A" "$NL_NS_R" "$NL_IF_R0"
	nl_veth "$NL_NS_R" "$NL_IF_R1" "$NL_NS_B" "$NL_IF_B"
	ip -n "$NL_NS_A" link set "$NL_IF_A" address $NL_MAC_A
	ip -n "$NL_NS_R" link set "$NL_IF_R0" address $NL_MAC_R0
	ip -n "$NL_NS_R" link set "$NL_IF_R1" address $NL_MAC_R1
	ip -n "$NL_NS_B" link set "$NL_IF_B" address $NL_MAC_B
	nl_offloads_off "$NL_NS_A" "$NL_IF_A"
	nl_offloads_off "$NL_NS_R" "$NL_IF_R0"
	nl_offloads_off "$NL_NS_R" "$NL_IF_R1"
	nl_offloads_off "$NL_NS_B" "$NL_IF_B"
	ip -n "$NL_NS_A" addr add 198.18.0.2/24 dev "$NL_IF_A"
	ip -n "$NL_NS_A" route add default via 198.18.0.1
	ip -n "$NL_NS_B" addr add 198.19.0.2/24 dev "$NL_IF_B"
	ip -n "$NL_NS_B" route add default via 198.19.0.1
}

nl_bg() {
	local ns=$1 out=$2
	shift 2
	ip netns exec "$ns" "$@" >"$out" 2>"$out.err" &
	NL_BG_PID=$!
	NL_PIDS+=("$NL_BG_PID")
}

nl_wait_pid() {
	local pid=$1 secs=$2 i=0 rc
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $((secs * 10)) ] && return 124
		sleep 0.1
	done
	wait "$pid"
	rc=$?
	return $rc
}

nl_wait_for() {
	local secs=$1 i=0
	shift
	until "$@" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt $((secs * 10)) ] && return 1
		sleep 0.1
	done
	return 0
}

nl_packet_sockets() {
	ip netns exec "$1" cat /proc/net/packet | tail -n +2 | wc -l
}

nl_listening() {
	[ -n "$(ip netns exec "$1" ss -H -ln -"$2" "sport = :$3")" ]
}

nl_link_stat() {
	ip -n "$1" -j -s link show "$2" | jq -r ".[0].stats64.$3"
}

nl_snap() {
	ip -n "$1" -j -s link show "$2" | jq -r '.[0].stats64 | "\(.rx.packets) \(.tx.packets)"'
}

nl_snap_until_exit() {
	local ns=$1 ifname=$2 pid=$3 secs=$4 last s
	last=$(nl_snap "$ns" "$ifname")
	for _ in $(seq 1 $((secs * 20))); do
		kill -0 "$pid" 2>/dev/null || break
		s=$(nl_snap "$ns" "$ifname" 2>/dev/null) && [ -n "$s" ] && [ "$s" != "null null" ] && last=$s
		sleep 0.05
	done
	echo "$last"
}

nl_xdp_on() { ip -n "$1" -j link show "$2" | jq -e '.[0].xdp != null' >/dev/null; }

nl_link_up() { ip -n "$1" -j link show "$2" | jq -e '.[0].flags | index("UP")' >/dev/null; }

nl_uxdp_conservation() {
	local json=$1 dev
	shift
	for dev in "$@"; do
		jq -e --arg d "$dev" '.devices[$d] as $v | $v != null and
			(($v.xdp | .aborted + .drop + .pass + .tx + .redirect) == $v.rx_packets
			 or ($v.xdp | .aborted + .drop + .pass + .tx + .redirect) == 0)' \
			"$json" >/dev/null || nl_fail "$dev: received != XDP verdicts in $(cat "$json")"
	done
}

nl_wait_quiet() {
	local ns=$1 ifname=$2 i prev cur
	prev=$(nl_snap "$ns" "$ifname")
	for i in $(seq 1 10); do
		sleep 0.5
		cur=$(nl_snap "$ns" "$ifname")
		[ "$cur" = "$prev" ] && break
		prev=$cur
	done
	echo "$cur"
}

nl_wire_check() {
	local json=$1 dev=$2 ns=$3 ifname=$4 before=$5 after=${6:-} quiet=${7:-} rx0 tx0 rx1 tx1 urx utx why
	[ -n "$after" ] || after=$(nl_snap "$ns" "$ifname")
	read -r rx0 tx0 <<<"$before"
	read -r rx1 tx1 <<<"$after"
	urx=$(jq -r --arg d "$dev" '.devices[$d].rx_packets' "$json")
	utx=$(jq -r --arg d "$dev" '.devices[$d].tx_packets' "$json")
	[ "$urx" = $((tx1 - tx0)) ] && [ "$utx" = $((rx1 - rx0)) ] && return 0
	why="$ns/$ifname rx tx: $before before uxdp, ${quiet:+$quiet when the traffic had ended and the wire was quiet, }$after after uxdp exited${quiet:+$([ "$quiet" = "$after" ] || echo " (frames crossed the wire while uxdp stopped)")}; $dev: $(jq -c --arg d "$dev" '.devices[$d] | {rx_packets, tx_packets, rx_dropped, tx_dropped, drops_total, driver_stats}' "$json")"
	[ "$urx" = $((tx1 - tx0)) ] ||
		nl_fail "$dev received $urx frames, $ns/$ifname sent $((tx1 - tx0)); $why"
	nl_fail "$dev sent $utx frames, $ns/$ifname received $((rx1 - rx0)); $why"
}

nl_router_traffic() {
	local d=$1 port tcp_pid
	ip netns exec "$NL_NS_A" ping -q -c 3 -i 0.2 -W 2 198.19.0.2 >"$d/ping" 2>&1 ||
		nl_fail "ping A -> B through the router: $(cat "$d/ping")"
	if [ "${ROUTER_PING:-0}" = 1 ]; then
		ip netns exec "$NL_NS_A" ping -q -c 1 -W 2 198.18.0.1 >"$d/ping1" 2>&1 ||
			nl_fail "ping A -> router (uxdp's ICMP echo): $(cat "$d/ping1")"
	fi
	# UDP: port 9998 passes, port 9999 is for the XDP program to drop
	nl_bg "$NL_NS_B" "$d/udp9998" socat -u UDP-RECV:9998 -
	nl_bg "$NL_NS_B" "$d/udp9999" socat -u UDP-RECV:9999 -
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
	nl_tcp_exact "$d" 198.19.0.2
}

nl_tcp_exact() {
	local d=$1 dst=$2 tcp_pid l=TCP-LISTEN c="TCP:$2"
	case $dst in *:*) l=TCP6-LISTEN c="TCP6:[$dst]" ;; esac
	# TCP: 4 MiB, byte-exact
	head -c 4194304 /dev/urandom >"$d/send"
	nl_bg "$NL_NS_B" "$d/tcp.out" socat -u $l:5001,reuseaddr OPEN:"$d/recv",creat,trunc
	tcp_pid=$NL_BG_PID
	nl_wait_for 5 nl_listening "$NL_NS_B" t 5001 || nl_fail "socat did not listen on TCP 5001 in B"
	timeout 20 ip netns exec "$NL_NS_A" socat -u OPEN:"$d/send" "$c:5001,connect-timeout=5" \
		2>"$d/tcp.err" || nl_fail "TCP transfer A -> B ($dst) through the router: $(cat "$d/tcp.err")"
	nl_wait_pid "$tcp_pid" 10 || nl_fail "TCP receiver in B did not finish: $(cat "$d/tcp.out.err")"
	cmp -s "$d/send" "$d/recv" ||
		nl_fail "TCP transfer to $dst: $(stat -c %s "$d/recv") of 4194304 bytes, or different bytes"
}

nl_router_check() {
	local j=$1 d=$2 dev0=$3 dev1=$4
	[ "$(sort -u "$d/udp9998" | wc -l)" -eq 50 ] ||
		nl_fail "port 9998: $(wc -l <"$d/udp9998") of 50 datagrams arrived; B: $(ip netns exec "$NL_NS_B" \
			nstat -az 2>/dev/null | grep -E '^Udp(InDatagrams|InErrors|InCsumErrors|RcvbufErrors) ' |
			tr -s ' ' | tr '\n' ';') uxdp: $(jq -c '.devices' "$j")"
	[ ! -s "$d/udp9999" ] || nl_fail "port 9999: $(wc -l <"$d/udp9999") datagrams arrived despite XDP_DROP"
	jq -e --arg d "$dev0" '.devices[$d].xdp.drop == 50' "$j" >/dev/null ||
		nl_fail "$dev0: expected 50 XDP_DROP verdicts: $(jq -c --arg d "$dev0" '.devices[$d]' "$j")"
	jq -e '[.maps[] | select(.map == "drop_cnt" and .key == 0) | .count] == [50]' "$j" >/dev/null ||
		nl_fail "xdp_drop_udp_port's drop_cnt[0] is not 50: $(jq -c .maps "$j")"
	jq -e --arg d "$dev0" '[.drops[$d][]? | select(.reason == "XDP_DROP") | .count] == [50]' "$j" \
		>/dev/null || nl_fail "$dev0: drop reasons: $(jq -c .drops "$j")"
	nl_uxdp_conservation "$j" "$dev0" "$dev1"
	jq -e --arg a "$dev0" --arg b "$dev1" '(.ntable.arp_cache // {}) as $n |
		(.devices[$a].rx_packets + .devices[$b].rx_packets + ($n.tx_solicits // 0)) ==
		(.devices[$a].tx_packets + .devices[$b].tx_packets +
		 .devices[$a].drops_total + .devices[$b].drops_total + ($n.rx_consumed // 0))' "$j" >/dev/null ||
		nl_fail "router: received + ARP requests made != sent + dropped + ARP consumed: $(jq -c '{devices, ntable}' "$j")"
	if jq -e 'has("neigh")' "$j" >/dev/null; then
		jq -e --arg a "$dev0" --arg b "$dev1" --arg ma "$NL_MAC_A" --arg mb "$NL_MAC_B" '
			def resolved($ip; $dev; $mac): any(.neigh[]; .dst == $ip and .dev == $dev and
				.lladdr == $mac and (.state[0] | IN("REACHABLE", "STALE", "DELAY", "PROBE")));
			resolved("198.18.0.2"; $a; $ma) and resolved("198.19.0.2"; $b; $mb)' "$j" >/dev/null ||
			nl_fail "uxdp did not resolve A and B: $(jq -c .neigh "$j")"
	fi
}

nl_remove_while_running() {
	local ns=$1 ifname=$2 peer=$3 dev=$4 upid=$5 start=$6 json=$7 rc end
	ip netns exec "$peer" ping -q -c 5 -i 0.1 -W 1 198.18.9.9 >/dev/null 2>&1 &
	sleep 1
	ip -n "$ns" link del "$ifname" || nl_fail "ip link del $ifname"
	nl_wait_pid "$upid" 20
	rc=$?
	end=$(date +%s)
	[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc after the interface went: $(cat "$json.err")"
	NL_REMOVE_SECS=$((end - start))
	[ $NL_REMOVE_SECS -lt 20 ] ||
		nl_fail "the run did not stop when the interface went ($NL_REMOVE_SECS s)"
	grep -q "$dev: interface $ifname was removed" "$json.err" ||
		nl_fail "no clear message: $(cat "$json.err")"
	jq -e '.driver_stats.interface_gone == 1' "$json" >/dev/null ||
		nl_fail "driver_stats.interface_gone != 1: $(cat "$json")"
}
