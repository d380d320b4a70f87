#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `uxdp prog run ... data_in CAPTURE`: every packet of a pcap/pcapng file
# through xdp_proto_stats (verdicts, bytes, printk lines, typed records,
# typed maps, per-CPU maps), data_out pcap/pcapng (verdict comments read
# back by tshark), one file per verdict, and truncated/corrupt captures
# refused with the record index while what ran stays.
# Usage: prog_run.sh UXDP PROGS_DIR GEN_PCAP
set -u
UXDP=$(realpath "$1")
P=$2
GEN=$3
. "$(dirname "$0")/lib.sh"
O=$P/xdp_proto_stats.o
python3 "$GEN" "$T/mix.pcap" && python3 "$GEN" --pcapng "$T/mix.pcapng" || exit 1

"$UXDP" -j prog run "$O" data_in "$T/mix.pcap" record_type drop_event dump-maps > "$T/j"
check "-j prog run over a pcap: exit 0" $?
[ "$(jq -r 'select(.index != null) | .verdict // .error' "$T/j" | tr '\n' ' ')" = \
	"XDP_PASS XDP_PASS XDP_DROP XDP_TX XDP_DROP XDP_PASS XDP_PASS XDP_PASS Invalid argument " ]
check "one JSON line per packet, verdicts in order, the runt refused" $?
[ "$(jq -r 'select(.index == 0) | "\(.len_in) \(.len_out) \(.bytes_changed)"' "$T/j")" = "60 60 2" ]
check "lengths and bytes changed (TTL and checksum)" $?
jq -r 'select(.index == 2) | .trace[0]' "$T/j" | grep -Eq '^ +uxdp-[0-9]+ +\[000\] d\.s1\. +1700000000\.002000: bpf_trace_printk: drop reason 1 proto 6 dport 23$'
check "printk line of packet 2 in tracelog format, at its capture time" $?
[ "$(jq -c 'select(.index == 4) | .records[0].value' "$T/j")" = \
	'{"reason":"DROP_TTL_EXPIRED","l4_proto":17,"ttl":1,"dport":0,"len":60}' ]
check "perf record of packet 4 decoded with record_type" $?
[ "$(jq -r 'select(.index == 4) | .records[0].data' "$T/j")" = 02000000110100003c000000 ]
check "perf record of packet 4 in hex" $?
[ "$(jq -c '.summary | select(. != null) | [.packets, .verdicts.pass, .verdicts.drop, .verdicts.tx, .refused, .printk, .records]' "$T/j")" = \
	"[9,5,2,1,1,2,2]" ]
check "summary line counts verdicts, refusals, printk lines, records" $?
[ "$(jq -c '.maps | select(. != null) | .stats[1].formatted' "$T/j")" = \
	'{"key":"PROTO_IPV4","value":{"packets":5,"bytes":270}}' ]
check "dump-maps: struct value and enum key typed from BTF (maps persist)" $?
[ "$(jq -r '.maps | select(. != null) | .stats[1].value' "$T/j")" = 05000000000000000e01000000000000 ]
check "dump-maps: hex value kept next to the typed one" $?
jq -r '.maps | select(. != null) | .[] | .[]?.formatted.value | objects | .["drop.____fmt"] // empty' "$T/j" |
	grep -q '^drop reason %d proto %d dport %d$'
check "dump-maps: .rodata DATASEC with a char array as a string" $?

"$UXDP" -j prog run "$P/xdp1.o" data_in "$T/mix.pcap" dump-maps > "$T/x1"
[ "$(jq -c '.maps | select(. != null) | .rxcnt[6].formatted.values[0]' "$T/x1")" = '{"cpu":0,"value":3}' ]
check "dump-maps: per-CPU values as {cpu, value}" $?

"$UXDP" prog run "$O" data_in "$T/mix.pcapng" record_type drop_event > "$T/txt"
check "text prog run over a pcapng: exit 0" $?
grep -Eq '^ +3 +80 +80 +XDP_TX ' "$T/txt" &&
	grep -q '{"reason":"DROP_TELNET","l4_proto":6,"ttl":64,"dport":23,"len":54}' "$T/txt" &&
	grep -q '^9 packets: aborted 0 drop 2 pass 5 tx 1 redirect 0 refused 1, printk 2, records 2$' "$T/txt"
check "text table rows, decoded record and summary" $?

"$UXDP" prog run "$O" data_in "$T/mix.pcap" data_out "$T/out.pcapng" data_out_verdict "$T/v" > /dev/null
check "data_out pcapng and data_out_verdict: exit 0" $?
if command -v tshark >/dev/null; then
	[ "$(tshark -r "$T/out.pcapng" -T fields -e frame.comment 2>/dev/null | tr '\n' ',')" = \
		"xdp verdict XDP_PASS,xdp verdict XDP_PASS,xdp verdict XDP_DROP,xdp verdict XDP_TX,xdp verdict XDP_DROP,xdp verdict XDP_PASS,xdp verdict XDP_PASS,xdp verdict XDP_PASS," ]
	check "tshark reads each packet's verdict comment" $?
	[ "$(tshark -r "$T/out.pcapng" -T fields -e ip.ttl 2>/dev/null | head -1)" = 63 ]
	check "data_out holds the rewritten frame (TTL 63)" $?
	[ "$(tshark -r "$T/v.pass.pcap" 2>/dev/null | wc -l) $(tshark -r "$T/v.drop.pcap" 2>/dev/null | wc -l) $(tshark -r "$T/v.tx.pcap" 2>/dev/null | wc -l)" = "5 2 1" ]
	check "one pcap per verdict" $?
else
	echo "ok - # SKIP tshark not installed: pcapng comments not read back"
fi

python3 "$GEN" --truncate "$T/trunc.pcap"
"$UXDP" -j prog run "$O" data_in "$T/trunc.pcap" data_out "$T/tout.pcap" > "$T/tj" 2> "$T/terr"
rc=$?
[ $rc -eq 2 ] && [ "$(jq -r '.error // empty' "$T/tj")" != "" ] &&
	jq -r '.error // empty' "$T/tj" | grep -q "trunc.pcap: record 8: truncated"
check "truncated capture: exit 2, -j error naming file, record index and reason" $?
[ "$(jq -r 'select(.index != null) | .index' "$T/tj" | wc -l)" = 8 ] &&
	[ "$(jq -r '.summary.packets // empty' "$T/tj")" = 8 ]
check "truncated capture: the 8 packets before it are in the output" $?
[ "$(stat -c %s "$T/tout.pcap")" -gt 24 ] && [ "$(python3 -c "
import struct,sys
b=open(sys.argv[1],'rb').read(); o=24; n=0
while o+16<=len(b):
    cl=struct.unpack('<I',b[o+8:o+12])[0]; o+=16+cl; n+=1
print(n)" "$T/tout.pcap")" = 8 ]
check "truncated capture: data_out holds the 8 frames already run" $?
python3 "$GEN" --corrupt "$T/bad.pcap"
"$UXDP" prog run "$O" data_in "$T/bad.pcap" > /dev/null 2> "$T/berr"
[ $? -eq 2 ] && grep -q "bad.pcap: record 3: " "$T/berr"
check "corrupt record length: exit 2 naming record 3" $?
python3 "$GEN" --pcapng --truncate "$T/trunc.pcapng"
"$UXDP" prog run "$O" data_in "$T/trunc.pcapng" > /dev/null 2> "$T/nerr"
[ $? -eq 2 ] && grep -q "trunc.pcapng: record 8: " "$T/nerr"
check "truncated pcapng: exit 2 naming record 8" $?
"$UXDP" prog run "$O" data_in "$T/mix.pcap" record_type nosuch > /dev/null 2> "$T/rerr"
[ $? -eq 2 ] && grep -q "record_type 'nosuch'" "$T/rerr"
check "unknown record_type: exit 2 naming it" $?
exit $fail
