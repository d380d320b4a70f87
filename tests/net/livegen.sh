#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp-bench-livegen, fwd_bench.sh's kernel frame source: COUNT live frames
# sent from A must all be forwarded by R's kernel (ip_forward=1) and reach
# B's UDP layer as valid datagrams to a closed port (UdpNoPorts += COUNT):
# proof that every frame leaves with the right addresses, a valid IPv4
# header and UDP length, also when the page comes back from a run that a
# router rewrote (the kernel keeps a live frame's data between runs; the
# generator's program rewrites the headers every time). A frame may only be
# missing at B if the kernel counted it as a queue drop on the way: R0's XDP
# ring full (A's xdp_xmit_errors), a veth's rx/tx drops, or a CPU's backlog
# full (softnet_stat). Those are the kernel's load shedding on a busy
# machine, not a bad frame; a frame R dropped for its addresses or header is
# counted by none of them, so it still fails the test. Then a time bound:
# with no COUNT, a 1 s run ends in about 1 s.
# Usage: livegen.sh LIVEGEN PROGS_DIR
# Skips (77) without root, namespaces or live-frame BPF_PROG_TEST_RUN.
set -u
LIVEGEN=$1
PROGS=$2
. "$(dirname "$0")/netns_lib.sh"

nl_init "uxl$$"
nl_require_netns
nl_require_cmd nstat ethtool
nl_router_topology
COUNT=100000

# R's kernel routes; its receiving veth needs NAPI (GRO) for ndo_xdp_xmit frames
ip netns exec "$NL_NS_R" ethtool -K "$NL_IF_R0" gro on >/dev/null ||
	nl_fail "cannot turn GRO on at $NL_IF_R0"
ip -n "$NL_NS_R" addr add 198.18.0.1/24 dev "$NL_IF_R0"
ip -n "$NL_NS_R" addr add 198.19.0.1/24 dev "$NL_IF_R1"
ip netns exec "$NL_NS_R" sysctl -qw net.ipv4.ip_forward=1
ip netns exec "$NL_NS_B" sysctl -qw net.ipv4.icmp_ratelimit=0 >/dev/null 2>&1 || true
ip -n "$NL_NS_R" neigh replace 198.19.0.2 lladdr "$NL_MAC_B" dev "$NL_IF_R1" nud permanent
ip -n "$NL_NS_R" neigh replace 198.18.0.2 lladdr "$NL_MAC_A" dev "$NL_IF_R0" nud permanent

# queue drops the kernel counted on the path: ethtool's *drops/*errors of
# the four veth ends, their link rx/tx dropped, every CPU's backlog drops
queue_drops() {
	local n=0 ns dev v
	for v in "$NL_NS_A $NL_IF_A" "$NL_NS_R $NL_IF_R0" "$NL_NS_R $NL_IF_R1" "$NL_NS_B $NL_IF_B"; do
		set -- $v
		ns=$1 dev=$2
		v=$(ip netns exec "$ns" ethtool -S "$dev" | awk -F': *' '$1 ~ /(drops|errors)$/ { s += $2 } END { print s + 0 }')
		n=$((n + v))
		v=$(ip -n "$ns" -j -s link show "$dev" | jq '.[0].stats64 | .rx.dropped + .tx.dropped')
		n=$((n + v))
	done
	while read -r _ v _; do
		n=$((n + 0x$v))
	done </proc/net/softnet_stat
	echo $n
}

# every nonzero drop or error counter on the path, for a failure message
path_counters() {
	local v
	for v in "$NL_NS_A $NL_IF_A" "$NL_NS_R $NL_IF_R0" "$NL_NS_R $NL_IF_R1" "$NL_NS_B $NL_IF_B"; do
		set -- $v
		printf '%s:' "$2"
		ip netns exec "$1" ethtool -S "$2" | awk -F': *' '$1 ~ /(drops|errors)$/ && $2 != 0 { printf " %s %s", $1, $2 }'
		ip -n "$1" -j -s link show "$2" | jq -r '.[0].stats64 | " rx_dropped \(.rx.dropped) tx_dropped \(.tx.dropped)"'
	done
	ip netns exec "$NL_NS_R" nstat -az | awk '$1 ~ /^Ip(InReceives|ForwDatagrams|InDiscards|OutDiscards|OutNoRoutes|InAddrErrors)$/ { printf "R %s %s; ", $1, $2 }'
}

ip netns exec "$NL_NS_B" nstat -n
ip netns exec "$NL_NS_R" nstat -n
drops0=$(queue_drops)
ip netns exec "$NL_NS_A" "$LIVEGEN" "$PROGS" "$NL_IF_A" "$NL_MAC_R0" 198.18.0.2 198.19.0.2 \
	128 30 $COUNT >"$NL_TMP/gen.json" 2>"$NL_TMP/gen.err"
rc=$?
[ $rc -eq 77 ] && nl_skip "live-frame BPF_PROG_TEST_RUN not available: $(cat "$NL_TMP/gen.err")"
[ $rc -eq 0 ] || nl_fail "livegen exit $rc: $(cat "$NL_TMP/gen.err")"
sent=$(jq -r .frames "$NL_TMP/gen.json")
[ "$sent" = $COUNT ] || nl_fail "livegen says $sent frames, asked for $COUNT"
stat() { ip netns exec "$NL_NS_B" nstat -az "$1" | awk -v k="$1" '$1 == k { print $2 }'; }
got() { [ "$(stat UdpNoPorts)" -ge $((COUNT - $(queue_drops) + drops0)) ]; }
nl_wait_for 5 got
noports=$(stat UdpNoPorts) inrecv=$(stat IpInReceives) hdrerr=$(stat IpInHdrErrors)
drops=$(($(queue_drops) - drops0))
[ "${noports:-0}" -gt 0 ] && [ "$inrecv" = "$noports" ] && [ "${hdrerr:-0}" = 0 ] &&
	[ "$noports" -le $COUNT ] && [ $((noports + drops)) -ge $COUNT ] ||
	nl_fail "B: UdpNoPorts $noports, IpInReceives $inrecv, IpInHdrErrors $hdrerr, queue drops on the path $drops; want $COUNT (less counted drops), as many, 0; on the path: $(path_counters)"
lost=
[ "$noports" = $COUNT ] || lost=" ($((COUNT - noports)) dropped by full queues, counted: $drops)"

t0=$(date +%s.%N)
ip netns exec "$NL_NS_A" "$LIVEGEN" "$PROGS" "$NL_IF_A" "$NL_MAC_R0" 198.18.0.2 198.19.0.3 \
	64 1 >"$NL_TMP/gen2.json" 2>"$NL_TMP/gen2.err" || nl_fail "livegen (1 s): $(cat "$NL_TMP/gen2.err")"
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 5) }' || nl_fail "a 1 s run took from $t0 to $t1"
pps=$(jq -r .pps "$NL_TMP/gen2.json")
echo "PASS: livegen: $noports of $COUNT frames forwarded by R's kernel$lost, all valid at B; 1 s run at $pps pps"
