#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# End-to-end: scripts run by `uxdp -j run`, JSON read with jq. Checks exact
# conservation at every device (received = verdicts; generated = what every
# drop counter and sink saw), the peer-without-XDP explanation, and the
# SCRIPT:LINE error with exit status 2.
# Usage: veth_bulk.sh UXDP PROGS_DIR
set -eu
UXDP=$1
PROGS=$2
command -v jq >/dev/null || { echo "jq missing"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

topo() {	# $1: veth1 program line, $2: extra lines
	cat <<EOS
link add gen0 type gen size 64 src 198.18.0.1-198.18.0.4 dport 1-8 count 30000
link add veth0 type veth peer name veth1
link add out0 type sink
link set dev gen0 xdp obj $PROGS/xdp_redirect_map.o name xdp_redirect_map_prog
map update xdp_redirect_map:tx_port key 00000000 value dev veth0
$1
$2
run count 30000
stats drops
EOS
}

check_conservation() {	# $1: json file
	# every device that runs a program gave each received frame one verdict
	jq -e '.devices | to_entries | map(select(.key == "gen0" or .key == "veth1"))
		| all(.value.xdp.aborted + .value.xdp.drop + .value.xdp.pass + .value.xdp.tx
		      + .value.xdp.redirect == .value.rx_packets
		      or (.value.xdp | add) == 0)' "$1" >/dev/null \
		|| fail "verdicts != received in $1"
	# veth: what veth0 sent is what veth1 received
	jq -e '.devices.veth0.tx_packets == .devices.veth1.rx_packets' "$1" >/dev/null \
		|| fail "veth0 tx != veth1 rx in $1"
	# every generated frame ends in exactly one drop counter or a sink
	jq -e '.devices.gen0.rx_packets == 30000 and
		([.devices[] | .drops_total] | add) + ([.devices[] | select(.kind == "sink")
		| .tx_packets] | add) + .devices.gen0.tx_packets == .devices.gen0.rx_packets' "$1" \
		>/dev/null || fail "generated != dropped + sunk in $1: $(cat "$1")"
}

for batch in 0 8 16; do
	topo "link set dev veth1 xdp obj $PROGS/xdp_rxq_info.o" "link set dev veth1 xdp_batch $batch" > "$T/pass.uxdp"
	"$UXDP" -j run "$T/pass.uxdp" > "$T/pass.json" || fail "pass script ($batch)"
	check_conservation "$T/pass.json"
	jq -e '.devices.veth1.xdp.pass == 30000 and .devices.veth1.rx_otherhost_dropped == 30000' \
		"$T/pass.json" >/dev/null || fail "PASS batch $batch: $(cat "$T/pass.json")"
	jq -e '.duration_s > 0 and (.runs | length) == 1' "$T/pass.json" >/dev/null || fail "keys"
done

# XDP_DROP at veth1
topo "link set dev veth1 xdp obj $PROGS/xdp_action.o name xdp_action" \
	"map update xdp_action:cfg key 00000000 value 01000000" > "$T/drop.uxdp"
"$UXDP" -j run "$T/drop.uxdp" > "$T/drop.json" || fail "drop script"
check_conservation "$T/drop.json"
jq -e '.devices.veth1.xdp.drop == 30000' "$T/drop.json" >/dev/null || fail "DROP"

# veth1 redirects everything on to the sink
topo "link set dev veth1 xdp obj $PROGS/xdp_action.o name xdp_redirect_dev" \
	"map update xdp_action:cfg key 01000000 value dev out0" > "$T/redir.uxdp"
"$UXDP" -j run "$T/redir.uxdp" > "$T/redir.json" || fail "redirect script"
check_conservation "$T/redir.json"
jq -e '.devices.out0.tx_packets == 30000' "$T/redir.json" >/dev/null || fail "redirect to sink: $(cat "$T/redir.json")"

# peer without XDP: every frame dropped, explained on veth0
topo "" "" > "$T/noxdp.uxdp"
"$UXDP" -j run "$T/noxdp.uxdp" > "$T/noxdp.json" || fail "no-xdp script"
check_conservation "$T/noxdp.json"
jq -e '.drops.veth0[0].reason == "PEER_NO_XDP" and .drops.veth0[0].count == 30000 and
	(.drops.veth0[0].text | test("peer veth1 has no XDP program, so its NAPI ring is off"))' \
	"$T/noxdp.json" >/dev/null || fail "peer without XDP: $(cat "$T/noxdp.json")"
"$UXDP" run "$T/noxdp.uxdp" | grep -q "veth0: 30000 redirected frames dropped: peer veth1 has no XDP program" \
	|| fail "text drops"

# a bad line: exit 2 and SCRIPT:LINE
printf 'link add veth0 type veth peer name veth1\nlink set dev veth1 xdp_batch lots\n' > "$T/bad.uxdp"
set +e
"$UXDP" run "$T/bad.uxdp" 2> "$T/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "bad line exit $rc"
grep -q "bad.uxdp:2: 'lots' is not a valid xdp_batch" "$T/err" || fail "message: $(cat "$T/err")"
printf 'link add g type gen size 20\n' > "$T/bad2.uxdp"
set +e
"$UXDP" run "$T/bad2.uxdp" 2> "$T/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "bad2.uxdp:1: gen: size 20 is below" "$T/err" || fail "gen size: $rc $(cat "$T/err")"
echo ok
