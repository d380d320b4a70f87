#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's router example, run exactly as written (the block after its
# "router-example" marker; only the path of the uxdp binary is this build's):
#   ns A 198.18.0.2/24 ─veth─ [ns R: veth0, veth1: uxdp's r0, r1] ─veth─ ns B 198.19.0.2/24
# No static neighbour anywhere: A and B resolve the router by ARP, uxdp
# resolves A and B by ARP itself. Checks: ping A -> B and B -> A (each
# direction starts with an empty neighbour table on the uxdp side of the
# path it opens), ping of each router address, and that A and B learned the
# router's MACs. uxdp's run (until a signal, as written) is ended by PID
# with SIGTERM after the pings: it must print its summary and exit 0.
# Usage: readme_router.sh UXDP README
# Skips (77) without root, namespaces or AF_PACKET.
set -u
UXDP=$1
README=$2
. "$(dirname "$0")/netns_lib.sh"

nl_init "uxrm$$"
nl_require_netns
nl_require_cmd ping ethtool python3
python3 -c 'import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_PACKET sockets are not permitted here (needs CAP_NET_RAW)"

# The example: indented lines after the marker, up to the first blank line.
cmd=$(awk '/<!-- router-example:/ { on = 1; next }
	on && /^    / { sub(/^    /, ""); print; got = 1; next }
	on && got { exit }' "$README")
[ -n "$cmd" ] || nl_fail "no router example after the marker in $README"
case $cmd in *build-release/tools/uxdp/uxdp*) ;; *) nl_fail "the example does not run build-release/tools/uxdp/uxdp: $cmd" ;; esac
case $cmd in *"neigh add"*) nl_fail "the example still adds a neighbour by hand: $cmd" ;; esac
cmd=${cmd//build-release\/tools\/uxdp\/uxdp/$UXDP}

A=${NL_PREFIX}A R=${NL_PREFIX}R B=${NL_PREFIX}B
nl_ns_add "$A"
nl_ns_add "$R"
nl_ns_add "$B"
nl_veth "$A" a0 "$R" veth0
nl_veth "$R" veth1 "$B" b0
for e in "$A a0" "$R veth0" "$R veth1" "$B b0"; do
	# shellcheck disable=SC2086
	nl_offloads_off $e
done
ip -n "$A" addr add 198.18.0.2/24 dev a0
ip -n "$A" route add default via 198.18.0.1
ip -n "$B" addr add 198.19.0.2/24 dev b0
ip -n "$B" route add default via 198.19.0.1
T=$NL_TMP

nl_bg "$R" "$T/uxdp.out" bash -c "$cmd"
SH=$NL_BG_PID
ready() { kill -0 "$SH" 2>/dev/null || return 0; [ "$(nl_packet_sockets "$R")" -ge 2 ]; }
nl_wait_for 10 ready || nl_fail "uxdp did not open its sockets within 10 s: $(cat "$T/uxdp.out.err")"
kill -0 "$SH" 2>/dev/null || nl_fail "the example exited early: $(cat "$T/uxdp.out" "$T/uxdp.out.err")"

ip netns exec "$A" ping -q -c 3 -i 0.2 -W 3 198.19.0.2 >"$T/ping_ab" 2>&1 ||
	nl_fail "ping A -> B: $(cat "$T/ping_ab")"
ip netns exec "$B" ping -q -c 3 -i 0.2 -W 3 198.18.0.2 >"$T/ping_ba" 2>&1 ||
	nl_fail "ping B -> A: $(cat "$T/ping_ba")"
ip netns exec "$A" ping -q -c 1 -W 2 198.18.0.1 >/dev/null 2>&1 || nl_fail "ping A -> 198.18.0.1 (uxdp)"
ip netns exec "$B" ping -q -c 1 -W 2 198.19.0.1 >/dev/null 2>&1 || nl_fail "ping B -> 198.19.0.1 (uxdp)"
mac_r0=$(nl_mac "$R" veth0) mac_r1=$(nl_mac "$R" veth1)
ip -n "$A" neigh show 198.18.0.1 | grep -q "lladdr $mac_r0" ||
	nl_fail "A did not learn the router's MAC: $(ip -n "$A" neigh show)"
ip -n "$B" neigh show 198.19.0.1 | grep -q "lladdr $mac_r1" ||
	nl_fail "B did not learn the router's MAC: $(ip -n "$B" neigh show)"

# End the example's run: SIGTERM to its uxdp (the shell's child).
for pid in $(ps -o pid= --ppid "$SH"); do
	kill "$pid" 2>/dev/null
done
nl_wait_pid "$SH" 10
rc=$?
[ $rc -eq 0 ] || nl_fail "uxdp did not end cleanly on SIGTERM (exit $rc): $(cat "$T/uxdp.out.err")"
grep -q "^run 1: .*stopped by SIGTERM" "$T/uxdp.out" ||
	nl_fail "no run summary after SIGTERM: $(cat "$T/uxdp.out")"
grep -Eq "^  r[01] +[0-9]+ " "$T/uxdp.out" || nl_fail "no device table after SIGTERM: $(cat "$T/uxdp.out")"
echo "PASS: readme_router: the README example as written forwards A <-> B, no static neighbours"
