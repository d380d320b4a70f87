#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The interface under an afxdp device is removed while uxdp runs:
# uxdp must say which device lost which interface, end the run well before
# its duration, exit normally with its JSON report (interface_gone = 1 in
# the driver counters), and leave nothing behind. Also: the kernel-facing
# errors of `link add ... type afxdp` name the device and what to do
# (interface missing, queue out of range, zerocopy on veth).
# Usage: afxdp_remove.sh UXDP
# Skips (77) without root, namespaces or AF_XDP.
set -u
UXDP=$1
. "$(dirname "$0")/netns_lib.sh"

P=uxx$$	# several test runs may share the machine
nl_init $P
nl_require_netns
nl_require_cmd python3
python3 -c 'import socket; socket.socket(44, socket.SOCK_RAW).close()' 2>/dev/null ||
	nl_skip "AF_XDP sockets are not available or not permitted here"
T=$NL_TMP
NS=${P}G
nl_ns_add $NS
nl_ns_add ${P}H
nl_veth $NS ${P}g0 ${P}H ${P}h0

# kernel-facing errors: exit status 2 and a message naming device and fix
expect_err() {	# $1: link line, $2: regex the message must match
	local out rc
	out=$(ip netns exec $NS "$UXDP" run - <<<"$1" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || nl_fail "'$1': exit status $rc (expected 2): $out"
	grep -Eq "$2" <<<"$out" || nl_fail "'$1': message '$out' does not match '$2'"
}
expect_err "link add xg type afxdp dev ${P}nope" "xg: no interface '${P}nope' in this network namespace"
expect_err "link add xg type afxdp dev ${P}g0 queue 3" "xg: queue 3 out of range: ${P}g0 has 1 rx queue .*use queue 0..0"
expect_err "link add xg type afxdp dev ${P}g0 mode zerocopy" "xg: ${P}g0 has no zero-copy AF_XDP support.*use mode copy or auto"
expect_err "link add xg type afxdp dev ${P}g0 mode fast" "mode 'fast' unknown"
expect_err "link add xg type afxdp" "'dev IFNAME' is required"
ip -n $NS -j link show ${P}g0 | jq -e '.[0].xdp == null' >/dev/null ||
	nl_fail "a failed link add left an XDP program on ${P}g0"

cat >"$T/run.uxdp" <<EOF
link add xg type afxdp dev ${P}g0
run 30s
stats dev xg
EOF
start=$(date +%s)
nl_bg $NS "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/run.uxdp"
UPID=$NL_BG_PID
xdp_on() { ip -n $NS -j link show ${P}g0 2>/dev/null | jq -e '.[0].xdp != null' >/dev/null; }
nl_wait_for 10 xdp_on || nl_fail "uxdp did not attach: $(cat "$T/run.json.err")"
nl_remove_while_running $NS ${P}g0 ${P}H xg "$UPID" "$start" "$T/run.json"
echo "PASS: afxdp_remove: errors explained; interface removal ends the run cleanly in $NL_REMOVE_SECS s"
