#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The interface under an afpacket device is removed while uxdp runs (issue 8):
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
ip netns exec ${P}H ping -q -c 5 -i 0.1 -W 1 198.18.9.9 >/dev/null 2>&1 &
sleep 1
ip -n $NS link del ${P}g0 || nl_fail "ip link del ${P}g0"
nl_wait_pid "$UPID" 20
rc=$?
end=$(date +%s)
[ $rc -eq 0 ] || nl_fail "uxdp exit status $rc after the interface went: $(cat "$T/run.json.err")"
[ $((end - start)) -lt 20 ] || nl_fail "the run did not stop when the interface went ($((end - start)) s)"
grep -q "rg: interface ${P}g0 was removed" "$T/run.json.err" ||
	nl_fail "no clear message: $(cat "$T/run.json.err")"
jq -e '.driver_stats.interface_gone == 1' "$T/run.json" >/dev/null ||
	nl_fail "driver_stats.interface_gone != 1: $(cat "$T/run.json")"
echo "PASS: afpacket_remove: interface removal ends the run cleanly in $((end - start)) s"
