#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Scripts as tests: `uxdp test` over tests/testbench/scripts (the
# xdp_proto_stats capture through a pcap device, expect lines on verdicts,
# typed maps, printk lines), a script that must fail naming its line, and
# the -j document of a script (expect, trace, records, map_changes,
# map_dumps), with the datapath leak check on.
# Usage: scripts.sh UXDP SRCDIR GEN_PCAP
set -u
UXDP=$(realpath "$1")
S=$2
GEN=$3
. "$(dirname "$0")/lib.sh"
export UXDP_LEAK_CHECK=1
mkdir "$T/ok" "$T/fail"
cp "$S"/scripts/*.uxdp "$T/ok/" && cp "$S"/fail/*.uxdp "$T/fail/" || exit 1
python3 "$GEN" "$T/ok/mix.pcap" && cp "$T/ok/mix.pcap" "$T/fail/" || exit 1

"$UXDP" test "$T/ok" > "$T/out" 2>&1
rc=$?
cat "$T/out"
[ $rc -eq 0 ] && grep -q '^3 passed, 0 failed$' "$T/out"
check "uxdp test: every script of the directory passes" $?

"$UXDP" test "$T/fail/expect_fail.uxdp" "$T/ok/hash_changes.uxdp" > "$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^1 passed, 1 failed$' "$T/out" &&
	grep -q 'expect_fail.uxdp:6: expect failed: dev cap0 xdp_drop is 2, expected == 3' "$T/out" &&
	grep -q 'expect: 2 passed, 1 failed' "$T/out"
check "a failed expect: exit 1, the script line named, the rest of the script ran" $?

(cd "$T/fail" && "$UXDP" run expect_fail.uxdp > /dev/null 2>&1)
[ $? -eq 1 ]
check "uxdp run: a failed expect gives exit status 1" $?

"$UXDP" -j test "$T/ok" > "$T/tj"
[ "$(jq -r '"\(.passed) \(.failed) \(.tests | length)"' "$T/tj")" = "3 0 3" ]
check "uxdp -j test: one document with the tally" $?

(cd "$T/ok" && "$UXDP" -j run proto_stats.uxdp) > "$T/j" 2>/dev/null
check "uxdp -j run proto_stats.uxdp: exit 0 (leak check on)" $?
[ "$(jq '[.expect[] | select(.ok)] | length' "$T/j")" = 19 ] && [ "$(jq '[.expect[] | select(.ok | not)] | length' "$T/j")" = 0 ]
check "-j: every expectation listed, all ok" $?
[ "$(jq -r '.trace | length' "$T/j")" = 2 ] && jq -r '.trace[1]' "$T/j" | grep -q 'bpf_trace_printk: drop reason 2 proto 17 dport 0$'
check "-j: the run's bpf_printk lines" $?
[ "$(jq -r '.records | map(.data) | join(" ")' "$T/j")" = "010000000640170036000000 02000000110100003c000000" ]
check "-j: the run's perf records" $?
[ "$(jq -c '.records[1].value' "$T/j")" = '{"reason":"DROP_TTL_EXPIRED","l4_proto":17,"ttl":1,"dport":0,"len":60}' ]
check "-j: records typed after map record_type" $?
[ "$(jq -c '.map_changes[] | select(.map == "stats" and .key == "PROTO_TCP") | [.change, .old.packets, .new.packets]' "$T/j")" = '["changed",0,3]' ]
check "-j: map_changes gives old and new typed values" $?
[ "$(jq -c '.map_dumps[0] | [.map, (.elements | length), .elements[4].formatted.value.bytes]' "$T/j")" = '["stats",6,140]' ]
check "-j: map dump typed from BTF" $?

(cd "$T/ok" && "$UXDP" run hash_changes.uxdp) > "$T/h"
grep -q 'stats ~ key "PROTO_OTHER": {"packets":0,"bytes":0} -> {"packets":2,"bytes":84}' "$T/h"
check "stats maps: old -> new for a changed element" $?
printf 'link add cap0 type pcap in mix.pcap\nlink set dev cap0 xdp obj xdp_proto_stats.o\nexpect dev cap0 xdp_pass bogus\n' > "$T/ok/bad.uxdp"
(cd "$T/ok" && "$UXDP" run bad.uxdp) 2> "$T/e"
[ $? -eq 2 ] && grep -q 'bad.uxdp:3: usage: expect' "$T/e"
check "a malformed expect: exit 2 naming the line" $?
exit $fail
