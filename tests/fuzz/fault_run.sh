#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failures in the datapath (UXDP_FAULT, mm/fault_inject.c): a
# generator redirects through a devmap into a veth pair whose far end
# passes every frame to the stack, which needs an skb per frame (bulk
# allocation). With 1 in 50 slab and page allocations failing, the run must
# finish (no crash; under ASan no sanitizer or leak report at exit) and
# every frame must be accounted for: what veth1's XDP passed is either
# dropped for SKB_ALLOC (counted) or reaches the stack (dropped there as
# OTHERHOST), and frames the generator could not make are counted as
# PAGE_ALLOC, never lost.
# Usage: fault_run.sh UXDP   (exit 77 without jq)
set -u
UXDP=$1
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
check() {	# check NAME STATUS
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}

cat > "$T/fault.uxdp" <<'EOS'
link add eth0 type gen size 64 proto udp src 198.18.0.1 dst 198.19.0.1
link add veth0 type veth peer name veth1
link set dev eth0 xdp obj xdp_redirect_map.o name xdp_redirect_map_prog
map update xdp_redirect_map:tx_port key 00000000 value dev veth0
link set dev veth0 xdp obj xdp_pass.o
link set dev veth1 xdp obj xdp_rxq_info.o
link set dev veth1 xdp_batch 16
run count 20000
stats drops
link set dev veth1 xdp_batch 0
run count 20000
stats drops
EOS

for spec in "slab:1/50,page:1/50" "slab:1/7" "page:1/5"; do
	# The fault stream is seeded per thread from an address (ASLR), so a
	# run may already fail while the script builds its devices: that must
	# be a clear "out of memory" error (exit 1); then try again.
	for try in 1 2 3 4 5 6 7 8; do
		UXDP_FAULT=$spec "$UXDP" -j run "$T/fault.uxdp" > "$T/out.json" 2> "$T/err"
		rc=$?
		[ $rc -eq 1 ] && jq -r .error.message "$T/out.json" 2>/dev/null | grep -q "out of memory" ||
			break
	done
	check "[$spec] run finishes (exit $rc after $try tries)" $rc
	[ $rc -eq 0 ] || { cat "$T/err" "$T/out.json"; continue; }
	for r in 0 1; do
		R=".runs[$r]"
		# what veth1's program passed = skb allocation drops + what the stack dropped
		v=$(jq -r "$R.devices.veth1 | [.xdp.pass, .rx_dropped + .rx_otherhost_dropped + .rx_nohandler] | join(\" \")" "$T/out.json")
		set -- $v
		[ "$1" = "$2" ]
		check "[$spec] run $r: veth1 passed $1 = dropped $2" $?
		# what eth0 redirected reached veth1 or was counted as a devmap drop
		v=$(jq -r "[$R.devices.eth0.xdp.redirect, $R.devices.veth1.rx_packets + $R.devices.veth0.devmap_xmit.drops + $R.devices.veth0.tx_dropped] | join(\" \")" "$T/out.json")
		set -- $v
		[ "$1" = "$2" ]
		check "[$spec] run $r: eth0 redirected $1 = veth1 received + dropped $2" $?
		# every veth1 drop has a reason
		v=$(jq -r "[$R.devices.veth1.drops_total, ([$R.drops.veth1[]?.count] | add // 0)] | join(\" \")" "$T/out.json")
		set -- $v
		[ "$1" = "$2" ]
		check "[$spec] run $r: veth1 drops $1 = sum of drops by reason $2" $?
	done
	# failures were injected and counted with a reason
	v=$(jq -r '[.runs[].drops // {} | .[][] | select(.reason == "SKB_ALLOC" or .reason == "PAGE_ALLOC") | .count] | add // 0' "$T/out.json")
	[ "$v" -gt 0 ]
	check "[$spec] $v frames dropped for allocation failures, counted by reason" $?
done
echo "1..$n"
exit $fail
