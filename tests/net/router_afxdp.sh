#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# uxdp as an IPv4 router on AF_XDP:
#   ns A 198.18.0.2/24 ─veth─ [ns R: uxdp, xa = afxdp on the A side, xb = afxdp
#   (or afpacket: VARIANT mixed) on the B side, 198.18.0.1/24 and 198.19.0.1/24,
#   ip_forward=1] ─veth─ ns B 198.19.0.2/24
# uxdp runs with UXDP_LEAK_CHECK=1 (every page and slab object back after the
# script, or it exits 1). Checks: ping A → B; a 4 MiB TCP transfer arrives byte-exact; an XDP program
# on xa drops UDP port 9999 and none of those datagrams reach B while all of
# port 9998's do; every frame xa/xb received got one XDP verdict, and each
# uxdp device agrees exactly with the kernel interface at the other end of its
# wire (rx == peer's tx, tx == peer's rx); after uxdp exits no XDP program is
# left on R's interfaces.
# Usage: router_afxdp.sh UXDP PROGS_DIR [VARIANT]
#   VARIANT: default (built-in kernel program), obj (examples/progs/xsk_redirect.o),
#            libxdp (libxdp's program), generic (kernel program in generic XDP),
#            q2 (2 channels on every veth, queues 2 on two workers),
#            mixed (B side afpacket)
# Skips (77) without root, namespaces or AF_XDP.
set -u
UXDP=$1
PROGS=$2
VARIANT=${3:-default}
. "$(dirname "$0")/netns_lib.sh"

nl_init "uxx$$"	# several test runs may share the machine
nl_require_netns
nl_require_cmd socat ethtool python3
# AF_XDP permitted? socket(AF_XDP) answers without any interface.
python3 -c 'import socket; socket.socket(44, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_XDP sockets are not available or not permitted here"
[ "$VARIANT" = mixed ] && ! "$UXDP" run - <<<"link help" 2>&1 | grep -q afpacket &&
	nl_skip "this uxdp has no afpacket kind yet"

RUN_S=${UXDP_TEST_RUN_S:-14}
nl_router_topology
T=$NL_TMP
WORKERS=1
if [ "$VARIANT" = q2 ]; then
	for e in "$NL_NS_A $NL_IF_A" "$NL_NS_R $NL_IF_R0" "$NL_NS_R $NL_IF_R1" "$NL_NS_B $NL_IF_B"; do
		set -- $e
		ip netns exec "$1" ethtool -L "$2" rx 2 tx 2 2>/dev/null ||
			nl_skip "cannot give veth $2 two channels (ethtool -L)"
	done
	WORKERS=2
fi

case $VARIANT in
default) XA="link add xa type afxdp dev $NL_IF_R0 mode copy"
	 XB="link add xb type afxdp dev $NL_IF_R1" ;;
obj)	 XA="link add xa type afxdp dev $NL_IF_R0 prog $PROGS/xsk_redirect.o"
	 XB="link add xb type afxdp dev $NL_IF_R1 prog $PROGS/xsk_redirect.o" ;;
libxdp)	 XA="link add xa type afxdp dev $NL_IF_R0 prog libxdp"
	 XB="link add xb type afxdp dev $NL_IF_R1 prog libxdp" ;;
generic) XA="link add xa type afxdp dev $NL_IF_R0 xdpmode generic"
	 XB="link add xb type afxdp dev $NL_IF_R1 mode copy xdpmode generic" ;;
q2)	 XA="link add xa type afxdp dev $NL_IF_R0 queues 2"
	 XB="link add xb type afxdp dev $NL_IF_R1 queues 2" ;;
mixed)	 XA="link add xa type afxdp dev $NL_IF_R0"
	 XB="link add xb type afpacket dev $NL_IF_R1" ;;
*)	 nl_fail "unknown variant $VARIANT" ;;
esac

cat >"$T/router.uxdp" <<EOF
$XA
$XB
link set dev xa xdp obj $PROGS/xdp_drop_udp_port.o
map update xdp_drop_udp_port:drop_cfg key 00000000 value 0f270000
addr add 198.18.0.1/24 dev xa
addr add 198.19.0.1/24 dev xb
sysctl net.ipv4.ip_forward=1
run ${RUN_S}s workers $WORKERS
stats maps
stats drops
neigh show
ntable show
EOF

# Hosts know the router's MACs (the interfaces' own: uxdp's devices take them).
ip -n "$NL_NS_A" neigh add 198.18.0.1 lladdr "$NL_MAC_R0" dev "$NL_IF_A"
ip -n "$NL_NS_B" neigh add 198.19.0.1 lladdr "$NL_MAC_R1" dev "$NL_IF_B"

snap_a=$(nl_snap "$NL_NS_A" "$NL_IF_A")
snap_b=$(nl_snap "$NL_NS_B" "$NL_IF_B")
nl_bg "$NL_NS_R" "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/router.uxdp"
UPID=$NL_BG_PID

# Ready when the kernel program sits on both of R's interfaces (or uxdp died).
xdp_on() { nl_xdp_on "$NL_NS_R" "$1"; }
ready() { kill -0 "$UPID" 2>/dev/null || return 0; xdp_on "$NL_IF_R0" &&
	{ [ "$VARIANT" = mixed ] || xdp_on "$NL_IF_R1"; }; }
nl_wait_for 10 ready || nl_fail "uxdp did not attach within 10 s: $(cat "$T/run.json.err")"
kill -0 "$UPID" 2>/dev/null || nl_fail "uxdp exited early: $(cat "$T/run.json.err" "$T/run.json")"
sleep 0.5

nl_router_traffic "$T"
quiet_a=$(nl_wait_quiet "$NL_NS_A" "$NL_IF_A")
quiet_b=$(nl_wait_quiet "$NL_NS_B" "$NL_IF_B")

nl_wait_pid "$UPID" $((RUN_S + 20))
rc=$?
[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc: $(cat "$T/run.json.err")"
J=$T/run.json

nl_router_check "$J" "$T" xa xb
# each wire against the kernel's counters
nl_wire_check "$J" xa "$NL_NS_A" "$NL_IF_A" "$snap_a" "" "$quiet_a"
nl_wire_check "$J" xb "$NL_NS_B" "$NL_IF_B" "$snap_b" "" "$quiet_b"

# shutdown: no XDP program left behind
for ifc in "$NL_IF_R0" "$NL_IF_R1"; do
	! xdp_on "$ifc" || nl_fail "$ifc still has an XDP program after uxdp exited: $(ip -n "$NL_NS_R" link show "$ifc")"
done
# informational: how the flows spread over the queues (hash of 4 flows: not asserted)
[ "$VARIANT" = q2 ] && echo "xa rx batches per queue: $(jq -c '.devices.xa.driver_stats // {} |
	with_entries(select(.key | test("^q[0-9]_rx_batches$")))' "$J")"
echo "PASS: router_afxdp ($VARIANT): ping, 4 MiB TCP byte-exact, UDP 9999 dropped (50), 9998 passed (50), wires conserved"
