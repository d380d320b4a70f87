#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `uxdp prog run ... data_in CAPTURE` allocates nothing per packet: the
# heap allocations of the whole process (counted by the malloc_count
# preload module) are the same for 1,000 and for 20,000 packets, in text
# and JSON, with data_out. Not run in sanitizer builds (ASan owns malloc).
# Usage: prog_run_alloc.sh UXDP PROGS_DIR GEN_PCAP MALLOC_COUNT_SO
set -u
UXDP=$(realpath "$1")
P=$2
GEN=$3
SO=$(realpath "$4")
. "$(dirname "$0")/lib.sh"
O=$P/xdp_proto_stats.o
python3 "$GEN" --count 1000 --no-runt "$T/small.pcap" &&
	python3 "$GEN" --count 20000 --no-runt "$T/big.pcap" || exit 1

count() {	# count OUTFILE UXDP-ARGS...: heap allocations of one uxdp run
	out=$1
	shift
	MALLOC_COUNT_FILE=$T/n LD_PRELOAD=$SO "$UXDP" "$@" > "$out" || return 1
	cat "$T/n"
}

for mode in "-j" "text"; do
	[ "$mode" = text ] && j= || j=-j
	a=$(count "$T/o1" $j prog run "$O" data_in "$T/small.pcap" data_out "$T/s.pcapng")
	check "$mode: 1000 packets run under the counter" $?
	b=$(count "$T/o2" $j prog run "$O" data_in "$T/big.pcap" data_out "$T/b.pcapng")
	check "$mode: 20000 packets run under the counter" $?
	[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$b" ]
	check "$mode: heap allocations for 1000 packets ($a) = for 20000 ($b)" $?
done
[ "$(jq -r '.summary.packets // empty' "$T/o2" 2>/dev/null)" = "" ] &&
	grep -q '^20000 packets: ' "$T/o2"
check "the counted text run ran all 20000 packets" $?
exit $fail
