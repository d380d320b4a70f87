#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Soak: the veth-bulk and dsa-cb topologies and generic XDP, each
# in its own uxdp process, at full rate with random frame sizes and ~1 %
# malformed frames (gen `size MIN-MAX malformed 1`), in three segments per
# topology (`run` lines, knobs varied between them, the last one with two
# workers). Under the ASan+UBSan build a sanitizer report aborts uxdp and
# fails the test; at exit LSan
# checks the heap and UXDP_LEAK_CHECK=1 makes uxdp check that every slab
# object and page came back. Per segment (uxdp -j run, read with jq):
#  - every device with a program gave each received frame one verdict;
#  - every frame gen made is accounted for exactly once: device drops with
#    a reason (drops_total), stack drops (skb_drops, less the reasons
#    already counted on a device), DSA chip drops, sinks;
#  - every malformed kind ends in its drop reason: runts RX_RUNT at gen,
#    cut headers and bad version/IHL IP_INHDR, bad checksums IP_CSUM,
#    tot_len beyond the frame PKT_TOO_SMALL (equal counts);
#  - every device drop has a reason; veth0 sent = veth1 received;
#  - RSS flat: the end of the last segment at most RSS_SLACK_KB above the
#    end of the first (the first segment fills the page pools, the slab
#    magazines and depots and the rings; after it the datapath allocates
#    nothing, so growth means memory lost per packet).
# `fault` mode runs the same with UXDP_FAULT (slab and page allocations,
# which covers kmem_cache_alloc_bulk and the page pools) failing 1 in 100:
# exit 0, nothing leaks, the same exact accounting, and failures dropped
# and counted with a reason; malformed counts then only bound their reasons
# (a malformed frame may be dropped earlier for an allocation failure, and
# pskb_may_pull() failing is an IP_INHDR too).
#
# Usage: soak.sh UXDP PROGS_DIR [soak|fault]
#   UXDP_SOAK_SECS  total seconds over the three topologies (default 60; fault: 9)
#   UXDP_SOAK_KEEP  directory to keep the scripts and JSON in
set -u
UXDP=$1
PROGS=$2
MODE=${3:-soak}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
case $MODE in
soak) SECS=${UXDP_SOAK_SECS:-60} ;;
fault) SECS=${UXDP_SOAK_SECS:-9}; FAULT=${UXDP_SOAK_FAULT:-slab:1/100,page:1/100} ;;
*) echo "usage: soak.sh UXDP PROGS_DIR [soak|fault]"; exit 2 ;;
esac
SEGS=3
RSS_SLACK_KB=${UXDP_SOAK_RSS_SLACK_KB:-4096}
# milliseconds per segment: SECS over 3 topologies x SEGS segments
SEG_MS=$((SECS * 1000 / 3 / SEGS))
[ "$SEG_MS" -ge 100 ] || SEG_MS=100
: "${ASAN_OPTIONS:=detect_leaks=1:abort_on_error=1}"
: "${UBSAN_OPTIONS:=halt_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS UBSAN_OPTIONS
T=${UXDP_SOAK_KEEP:-$(mktemp -d)}
mkdir -p "$T"
[ -n "${UXDP_SOAK_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
fail=0
n=0
check() {	# check NAME STATUS
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}

# ---- the topologies: set-up lines, then one knob line per segment --------

# veth-bulk (examples/veth-bulk.uxdp) with an address on veth1, so that
# veth1's XDP_PASS frames reach ip_rcv() as PACKET_HOST: the MAC swap of
# xdp_redirect_map makes gen's src_mac the destination, and veth1 is the
# third device made (02:75:78:64:00:03, dev.c's per-process sequence).
topo_veth() {
	cat <<EOS
link add eth0 type gen size 60-1514 malformed 1 seed 1 proto udp src 198.18.0.1-198.18.0.8 dst 198.19.0.1 src_mac 02:75:78:64:00:03
link add veth0 type veth peer name veth1
link set dev eth0 xdp obj $PROGS/xdp_redirect_map.o name xdp_redirect_map_prog
map update xdp_redirect_map:tx_port key 00000000 value dev veth0
link set dev veth0 xdp obj $PROGS/xdp_pass.o
link set dev veth1 xdp obj $PROGS/xdp_rxq_info.o
addr add 198.19.0.1/24 dev veth1
EOS
}
knobs_veth="link set dev veth1 xdp_batch 16|link set dev veth1 xdp_batch 0|link set dev veth1 xdp_batch 8"

# dsa-cb (examples/dsa-cb.uxdp): gen -> sw0p3 -> tag -> eth2 -> swp3 ->
# ip_forward -> swp2 -> tag -> eth2 -> untag -> sw0p2 -> v0 ==> v1 (xdp1 drops).
topo_dsa() {
	cat <<EOS
link add sw0 type dsa-switch ports 4 tag sja1105 conduit eth2 mac 00:1f:7b:63:01:d4
link add g0 type gen size 60-1514 malformed 1 seed 2 proto udp src 198.18.0.2 dst 198.19.0.2 src_mac 00:1f:7b:63:01:d4 dst_mac 00:04:9f:06:00:09
link add v0 type veth peer name v1
link set dev g0 xdp obj $PROGS/xdp_redirect_map.o name xdp_redirect_map_prog
map update xdp_redirect_map:tx_port key 00000000 value dev sw0p3
link set dev sw0p2 peer v0
link set dev v1 xdp obj $PROGS/xdp1.o
addr add 198.18.0.1/24 dev swp3
addr add 198.19.0.1/24 dev swp2
neigh add 198.18.0.2 lladdr 00:04:9f:06:00:09 dev swp3
neigh add 198.19.0.2 lladdr 00:04:9f:06:00:0a dev swp2
sysctl net.ipv4.ip_forward=1
EOS
}
knobs_dsa="link set dev swp2 cb_clear full tx_ts_classify always|link set dev swp2 cb_clear tagger tx_ts_classify requested|link set dev swp2 cb_clear full tx_ts_classify requested"

# generic XDP (examples/xdpgeneric-linearize.uxdp): linear UDP frames and
# header-split TCP frames in 3 page frags (300 B to 9000 B), both to a
# local address after the generic hook (xdp and xdp.frags programs).
topo_generic() {
	cat <<EOS
link add gx0 type gen size 60-1514 malformed 1 seed 3 proto udp src 198.18.0.1 dst 198.19.0.1
link set dev gx0 xdpgeneric obj $PROGS/xdp_generic.o name xdp_generic_hdr
link add gx1 type gen size 300-9000 frags 3 hsplit 128 malformed 1 seed 4 proto tcp src 198.18.0.1 dst 198.19.0.1 dport 80
link set dev gx1 xdpgeneric obj $PROGS/xdp_generic.o name xdp_generic_hdr_frags
addr add 198.19.0.1/24 dev gx0
EOS
}
knobs_generic="link set dev gx0 xdpgeneric_linearize 1|link set dev gx0 xdpgeneric_linearize 0|link set dev gx1 xdpgeneric_linearize 0"

script() {	# script NAME: the whole script on stdout
	"topo_$1"
	eval "knobs=\$knobs_$1"
	IFS='|'
	s=0
	for k in $knobs; do
		s=$((s + 1))
		echo "$k"
		# the last segment with two workers (NAPI instances on two threads)
		w=
		[ $s -eq $SEGS ] && w=" workers 2"
		echo "run ${SEG_MS}ms label \"$1 segment $s\"$w"
		echo "stats drops"
	done
	unset IFS
}

# ---- the checks, on one run of the JSON ---------------------------------

# Reasons that kfree_skb_reason() counts for skbs a device drop also counts.
PAIRED='["CONSUMED","XDP","OTHERHOST","UNHANDLED_PROTO","FULL_RING","PKT_TOO_BIG"]'
# Device drops whose skb is also counted as NOMEM / NOT_SPECIFIED / DEV_READY.
PAIRED_DEV='["SKB_COPY","TX_NOT_SUPP","PEER_DOWN","PEER_MISSING"]'

check_run() {	# check_run JSON RUN LABEL
	R=".runs[$2]"
	# each device with a program: received = aborted + drop + pass + tx +
	# redirect + what was dropped before the program ran: skbs that could
	# not be copied for it (SKB_COPY: veth, generic XDP) and, for generic
	# XDP on gen, frames gen could not build an skb for (SKB_ALLOC)
	v=$(jq -r "$R as \$r | [\$r.devices | to_entries[] | select((.value.xdp | add) > 0)
		| select(.value.rx_packets != (.value.xdp | .aborted + .drop + .pass + .tx + .redirect)
			+ ([\$r.drops[.key][]? | select(.reason as \$k | $PRE_PROG | index(\$k))
			    | .count] | add // 0))
		| .key] | join(\",\")" "$1")
	[ -z "$v" ]
	check "$3: every received frame got one verdict ${v:+(not: $v)}" $?
	# every device drop has a reason (PAGE_ALLOC: a frame gen could not
	# make, not a drop; the claim goes back and it is made later)
	v=$(jq -r "$R as \$r | [\$r.devices | to_entries[] | select(.value.drops_total !=
		([\$r.drops[.key][]? | select(.reason != \"PAGE_ALLOC\") | .count] | add // 0))
		| .key] | join(\",\")" "$1")
	[ -z "$v" ]
	check "$3: device drops = drops by reason ${v:+(not: $v)}" $?
	# made = device drops + stack-only drops + DSA chip drops + sinks + gen wire
	v=$(jq -r "$R as \$r |
		(([\$r.devices[] | select(.kind == \"gen\") | .rx_packets] | add) +
		 ([\$r.drops[][]? | select(.reason == \"RX_RUNT\") | .count] | add // 0)) as \$made |
		([\$r.devices[] | .drops_total] | add) as \$dev |
		(([\$r.skb_drops | to_entries[] | select(.key as \$k | $PAIRED | index(\$k) | not)
		  | .value] | add // 0) -
		 ([\$r.drops[][]? | select(.reason as \$k | $PAIRED_DEV | index(\$k)) | .count]
		  | add // 0)) as \$stack |
		([\$r.devices[] | .driver_stats // {} | to_entries[]
		  | select(.key | startswith(\"drop_\")) | .value] | add // 0) as \$chip |
		([\$r.devices[] | select(.kind == \"sink\" or .kind == \"gen\") | .tx_packets] | add // 0) as \$out |
		\"\(\$made) \(\$dev + \$stack + \$chip + \$out) dev \(\$dev) stack \(\$stack) chip \(\$chip) out \(\$out)\"" "$1")
	set -- "$@" $v
	[ "$4" = "$5" ] && [ "$4" -gt 0 ]
	check "$3: made $4 = accounted $5 ($6 $7, $8 $9, ${10} ${11}, ${12} ${13})" $?
	# malformed kinds and their reasons
	v=$(jq -r "$R as \$r | [\$r.devices[] | .driver_stats // {}] as \$g |
		def s(k): [\$g[] | .[k] // 0] | add;
		[s(\"malformed_runt\"), ([\$r.drops[][]? | select(.reason == \"RX_RUNT\") | .count] | add // 0),
		 s(\"malformed_trunc\") + s(\"malformed_hdr\"), \$r.skb_drops.IP_INHDR // 0,
		 s(\"malformed_csum\"), \$r.skb_drops.IP_CSUM // 0,
		 s(\"malformed_totlen\"), \$r.skb_drops.PKT_TOO_SMALL // 0,
		 ([\$r.drops[][]? | select(.reason == \"RING_FULL\") | .count] | add // 0)]
		| join(\" \")" "$1")
	set -- $v
	# A veth ring (256) overflows when its NAPI runs on another worker
	# than its producer and falls behind (RING_FULL, the kernel's
	# behaviour): a malformed frame may then be dropped before ip_rcv.
	if [ "$MODE" = soak ] && [ "$9" = 0 ]; then
		[ "$1" = "$2" ] && [ "$3" = "$4" ] && [ "$5" = "$6" ] && [ "$7" = "$8" ] &&
			[ "$1" -gt 0 ] && [ "$3" -gt 0 ] && [ "$5" -gt 0 ] && [ "$7" -gt 0 ]
	else
		[ "$2" -le "$1" ] && [ "$6" -le "$5" ] && [ "$8" -le "$7" ]
	fi
	check "$LABEL: malformed runt $1/RX_RUNT $2, trunc+hdr $3/IP_INHDR $4, csum $5/IP_CSUM $6, totlen $7/PKT_TOO_SMALL $8 (ring full: $9)" $?
}

# ---- run each topology ----------------------------------------------------

for topo in veth dsa generic; do
	PRE_PROG='["SKB_COPY"]'
	[ $topo = generic ] && PRE_PROG='["SKB_COPY","SKB_ALLOC"]'
	script $topo > "$T/$topo.uxdp"
	try=1
	while :; do
		if [ "$MODE" = fault ]; then
			UXDP_FAULT=$FAULT UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/$topo.uxdp" \
				> "$T/$topo.json" 2> "$T/$topo.err"
		else
			UXDP_LEAK_CHECK=1 "$UXDP" -j run "$T/$topo.uxdp" > "$T/$topo.json" 2> "$T/$topo.err"
		fi
		rc=$?
		# With faults, setting up the devices may itself fail: that must be a
		# clean "out of memory" error (exit 1); then try again.
		[ "$MODE" = fault ] && [ $rc -eq 1 ] && [ $try -lt 10 ] &&
			jq -r .error.message "$T/$topo.json" 2>/dev/null | grep -q "out of memory" || break
		try=$((try + 1))
	done
	check "$topo: uxdp exit 0 (try $try), no sanitizer report, no leak at exit" $rc
	if grep -q -E "Sanitizer|runtime error|memory still in use" "$T/$topo.err"; then
		check "$topo: stderr is clean" 1
		cat "$T/$topo.err"
	fi
	if [ $rc -ne 0 ]; then
		cat "$T/$topo.err"
		head -c 2000 "$T/$topo.json"
		continue
	fi
	runs=$(jq '.runs | length' "$T/$topo.json")
	[ "$runs" -eq $SEGS ]
	check "$topo: $runs segments of $SEG_MS ms" $?
	r=0
	while [ $r -lt "$runs" ]; do
		LABEL="$topo segment $((r + 1))"
		check_run "$T/$topo.json" $r "$LABEL"
		r=$((r + 1))
	done
	# hop by hop along the path (without faults nothing is lost between
	# hops but for a full veth ring, counted on the sender: RING_FULL)
	rf='([$r.drops.DEV[]? | select(.reason == "RING_FULL") | .count] | add // 0)'
	case $topo in
	veth) path=".eth0.xdp.redirect, .veth0.tx_packets + .veth0.devmap_xmit.drops"
	      path2='.veth0.tx_packets, .veth1.rx_packets' ;;
	dsa) path='.g0.xdp.redirect, .sw0p3.rx_packets, .eth2.rx_packets, .swp3.rx_packets'
	     path2=".swp2.tx_packets, .eth2.tx_packets, .sw0p2.tx_packets, .v0.tx_packets + $(echo "$rf" | sed s/DEV/v0/)"
	     path3='.v0.tx_packets, .v1.rx_packets' ;;
	*) path= ;;
	esac
	for p in "$path" "${path2:-}" "${path3:-}"; do
		[ -n "$p" ] && [ "$MODE" = soak ] || continue
		v=$(jq -r "[.runs[] | . as \$r | .devices | [$p] | select(unique | length > 1) | join(\"/\")] | join(\" \")" "$T/$topo.json")
		[ -z "$v" ]
		check "$topo: equal counts hop by hop: $(echo "$p" | sed 's/(\[\$r\.drops\.\([a-z0-9]*\)\[.*/\1 RING_FULL/') ${v:+(not: $v)}" $?
	done
	path2=
	path3=
	if [ "$MODE" = fault ]; then
		v=$(jq -r '[.runs[] | (.drops[][]? | select(.reason | test("ALLOC|COPY|NOMEM")) | .count),
			(.skb_drops.NOMEM // 0), (.devices[].driver_stats.drop_NOMEM // 0)] | add // 0' "$T/$topo.json")
		[ "$v" -gt 0 ]
		check "$topo: $v allocation failures dropped and counted with a reason" $?
	fi
	# RSS: start of the first segment, end of the first and of the last
	v=$(jq -r '[.runs[0].rss_kb.start, .runs[0].rss_kb.end, .runs[-1].rss_kb.end,
		([.runs[].devices[] | select(.kind == "gen") | .rx_packets] | add)] | join(" ")' "$T/$topo.json")
	set -- $v
	echo "# $topo: RSS $1 KiB at start, $2 KiB after segment 1, $3 KiB at the end; $4 frames"
	[ "$3" -le $(($2 + RSS_SLACK_KB)) ] && [ "$2" -gt 0 ]
	check "$topo: RSS flat (end $3 <= $2 + $RSS_SLACK_KB KiB)" $?
done
echo "1..$n"
exit $fail
