#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Text shows every loss that JSON has. Two topologies:
#  - eth0 (gen) redirects into veth0 through a devmap; veth0's peer has no
#    XDP program, so every frame is a PEER_NO_XDP drop: a REASON row,
#    counted in neither rx_dropped nor tx_dropped;
#  - g0 (gen) receives frames for a network it does not route (forwarding
#    off): the stack frees them (skb drops, no device counter at all).
# For each, the run's text and `stats drops` must name every reason with
# the count -j reports, and the drops column must hold drops_total.
# Usage: text_drops.sh UXDP PROGS_DIR
set -u
UXDP=$1
PROGS=$2
T=$(mktemp -d /tmp/uxdp-text-drops.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

cat > "$T/peer.uxdp" <<SCRIPT
link add eth0 type gen size 64 proto udp src 198.18.0.1 dst 198.19.0.1 count 1000
link add veth0 type veth peer name veth1
link set dev eth0 xdp obj $PROGS/xdp_redirect_map.o name xdp_redirect_map_prog
map update xdp_redirect_map:tx_port key 00000000 value dev veth0
run
stats drops
SCRIPT
cat > "$T/stack.uxdp" <<SCRIPT
link add g0 type gen size 64 proto udp src 198.18.0.2 dst 198.19.0.2 count 1000
addr add 198.18.0.1/24 dev g0
run
stats drops
SCRIPT

for s in peer stack; do
	"$UXDP" run "$T/$s.uxdp" > "$T/$s.txt" 2>&1 || fail "$s: text run failed: $(cat "$T/$s.txt")"
	"$UXDP" -j run "$T/$s.uxdp" > "$T/$s.json" 2>&1 || fail "$s: -j run failed: $(cat "$T/$s.json")"
	grep -q "no drops" "$T/$s.txt" && fail "$s: text says 'no drops': $(cat "$T/$s.txt")"
	# every device drop reason: "DEV: COUNT TEXT [REASON]", in the run and in stats drops
	jq -r '.drops | to_entries[] | .key as $d | .value[] | "\($d): \(.count) [^[]*\\[\(.reason)\\]"' \
		"$T/$s.json" > "$T/$s.want"
	jq -r '.skb_drops | to_entries[] | select(.key != "CONSUMED") |
		"stack: \(.value) skbs freed \\[SKB_DROP_REASON_\(.key)\\]"' "$T/$s.json" >> "$T/$s.want"
	[ -s "$T/$s.want" ] || fail "$s: the topology dropped nothing: $(cat "$T/$s.json")"
	while read -r re; do
		[ "$(grep -c "^  $re\$" "$T/$s.txt")" -eq 2 ] ||
			fail "$s: /$re/ not in both the run's table and stats drops: $(cat "$T/$s.txt")"
	done < "$T/$s.want"
	# the drops column is drops_total
	jq -r '.devices | to_entries[] | "\(.key) \(.value.drops_total)"' "$T/$s.json" |
	while read -r dev total; do
		awk -v d="$dev" -v t="$total" '$1 == d && $8 == t && $9 == "|" { ok = 1 } END { exit !ok }' \
			"$T/$s.txt" || fail "$s: $dev: the drops column is not $total: $(cat "$T/$s.txt")"
	done || exit 1
	echo "ok - $s: every drop reason in text: $(tr '\n' ' ' < "$T/$s.want" | sed 's/\\//g; s/\[^\[\]\*//g')"
done
grep -q "PEER_NO_XDP" "$T/peer.want" || fail "peer: no PEER_NO_XDP drop: $(cat "$T/peer.json")"
echo "PASS: text_drops"
