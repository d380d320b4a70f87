#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Program coverage through the CLI, checked against lines known to run or
# not for a given packet: xdp1.o (counts per IP protocol) on one UDP/IPv4
# frame runs parse_ipv4() (inlined) and never parse_ipv6().
#   coverage_test.sh UXDP PROGS_BUILD_DIR PROGS_SRC_DIR [genhtml]
# With `genhtml`: the tracefile rendered by lcov's genhtml (77 without it).
set -euo pipefail
uxdp=$1 progs=$2 src=$3 mode=${4:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "coverage_test: $*" >&2; exit 1; }
line_of() { grep -nF "$1" "$src/xdp1.c" | head -1 | cut -d: -f1; }
# DA hits of line $2 in tracefile $1 ("" when the line has no record)
da() { sed -n "s/^DA:$2,\([0-9]*\)$/\1/p" "$1"; }

# Ethernet + IPv4 (UDP, 10.0.0.1 -> 10.0.0.2) + UDP 53 -> 53, no payload
printf '\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00\x45\x00\x00\x1c\x00\x00\x00\x00\x40\x11\x00\x00\x0a\x00\x00\x01\x0a\x00\x00\x02\x00\x35\x00\x35\x00\x08\x00\x00' > "$T/udp.bin"
v4=$(line_of 'return iph->protocol;')
v6=$(line_of 'return ip6h->nexthdr;')
ipif=$(line_of 'if (h_proto == bpf_htons(ETH_P_IP))')
[ -n "$v4" ] && [ -n "$v6" ] && [ -n "$ipif" ] || fail "marker lines not found in xdp1.c"

if [ "$mode" = genhtml ]; then
	command -v genhtml >/dev/null || { echo "coverage_test: genhtml (lcov) not installed; skipped"; exit 77; }
	"$uxdp" prog run "$progs/xdp1.o" data_in "$T/udp.bin" coverage "$T/cov.info" >/dev/null
	genhtml --quiet --branch-coverage "$T/cov.info" -o "$T/html" > "$T/genhtml.log" 2>&1 ||
		{ cat "$T/genhtml.log"; fail "genhtml refused the tracefile"; }
	page=$(find "$T/html" -name 'xdp1.c.gcov.html' | head -1)
	[ -n "$page" ] || fail "genhtml wrote no page for xdp1.c"
	grep -q 'return iph-&gt;protocol;' "$page" || fail "the xdp1.c page lacks its source"
	echo "coverage_test: genhtml ok"
	exit 0
fi

# prog run ... coverage FILE, 5 runs
"$uxdp" prog run "$progs/xdp1.o" data_in "$T/udp.bin" repeat 5 coverage "$T/a.info" > "$T/out"
grep -q "^SF:.*/xdp1.c$" "$T/a.info" || fail "no SF record for xdp1.c"
grep -qx "FNDA:5,xdp_prog1" "$T/a.info" || fail "xdp_prog1 did not run 5 times"
[ "$(da "$T/a.info" "$v4")" = 5 ] || fail "line $v4 (parse_ipv4) is not hit 5 times: '$(da "$T/a.info" "$v4")'"
[ "$(da "$T/a.info" "$v6")" = 0 ] || fail "line $v6 (parse_ipv6) is not 'never run': '$(da "$T/a.info" "$v6")'"
# the IPv4 test (one jump or more on the line): each one way 5 times, the other never
brda=$(grep "^BRDA:$ipif," "$T/a.info" | cut -d, -f4 | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
n=$(grep -c "^BRDA:$ipif," "$T/a.info")
[ "$brda" = "0x$((n / 2)) 5x$((n / 2)) " ] || fail "branches of line $ipif: '$brda', want half 5, half 0"
lf=$(sed -n 's/^LF://p' "$T/a.info") lh=$(sed -n 's/^LH://p' "$T/a.info")
[ "$lh" -gt 0 ] && [ "$lh" -lt "$lf" ] || fail "LH $lh of LF $lf"
[ "$(grep -c '^DA:' "$T/a.info")" = "$lf" ] || fail "LF does not count the DA records"
grep -qx end_of_record "$T/a.info" || fail "no end_of_record"

# without coverage the same run writes nothing and still works
"$uxdp" prog run "$progs/xdp1.o" data_in "$T/udp.bin" > /dev/null

# a script: coverage before the object is opened, 10 generated UDP frames
printf '%s\n' "coverage $T/s.info" 'link add g0 type gen size 64 proto udp' \
	'link set dev g0 xdp obj xdp1.o' 'run count 10' > "$T/s.uxdp"
UXDP_PROGS_DIR=$progs "$uxdp" run "$T/s.uxdp" > "$T/s.out" || fail "the coverage script failed"
[ "$(da "$T/s.info" "$v4")" = 10 ] || fail "script: line $v4 not hit 10 times: '$(da "$T/s.info" "$v4")'"
[ "$(da "$T/s.info" "$v6")" = 0 ] || fail "script: line $v6 ran"

# bad input: clear errors, usage exit code 2, runtime failure 1
set +e
"$uxdp" prog run "$progs/xdp1.o" data_in "$T/udp.bin" coverage 2> "$T/e1"; rc1=$?
"$uxdp" prog run "$progs/xdp1.o" data_in "$T/udp.bin" coverage /nonexistent/dir/x.info \
	> /dev/null 2> "$T/e2"; rc2=$?
printf '%s\n' 'coverage' > "$T/bad.uxdp"
"$uxdp" run "$T/bad.uxdp" 2> "$T/e3"; rc3=$?
set -e
[ $rc1 = 2 ] && grep -q "'coverage' needs an argument" "$T/e1" || fail "coverage without FILE: rc $rc1 $(cat "$T/e1")"
[ $rc2 = 1 ] && grep -q "/nonexistent/dir/x.info" "$T/e2" || fail "unwritable tracefile: rc $rc2 $(cat "$T/e2")"
[ $rc3 = 2 ] && grep -q "usage: coverage FILE" "$T/e3" || fail "script coverage without FILE: rc $rc3 $(cat "$T/e3")"
echo "coverage_test: ok (line $v4 hit, line $v6 not, branches of line $ipif)"
