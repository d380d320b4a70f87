#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The interface under an afpacket device is removed while uxdp runs:
# uxdp must say which device lost which interface, end the run well before
# its duration, exit normally with its JSON report (interface_gone = 1 in
# the driver counters), and leave nothing behind (UXDP_LEAK_CHECK=1).
# Usage: afpacket_remove.sh UXDP
# Skips (77) without root or namespaces.
set -u
UXDP=$1
. "$(dirname "$0")/netns_lib.sh"

P=uxr$$	# several test runs may share the machine
nl_init $P
nl_require_netns
T=$NL_TMP
NS=${P}G
nl_ns_add $NS
nl_ns_add ${P}H
nl_veth $NS ${P}g0 ${P}H ${P}h0

cat >"$T/run.uxdp" <<EOS
link add rg type afpacket dev ${P}g0
run 30s
stats dev rg
EOS
start=$(date +%s)
nl_bg $NS "$T/run.json" env UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/run.uxdp"
UPID=$NL_BG_PID
bound() { [ -n "$(ip netns exec $NS ss -0 -H 2>/dev/null)" ]; }
nl_wait_for 10 bound || nl_fail "uxdp did not open its packet socket: $(cat "$T/run.json.err")"
nl_remove_while_running $NS ${P}g0 ${P}H rg "$UPID" "$start" "$T/run.json"
echo "PASS: afpacket_remove: interface removal ends the run cleanly in $NL_REMOVE_SECS s"
