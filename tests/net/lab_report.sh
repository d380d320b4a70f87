#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The lab end to end: `uxdp -j ab` on the veth-bulk topology with --vary and
# with two scripts, --report's data.json read with jq (both throughput
# metrics, the CPU share, generations), its SVG plots parsed by xmllint,
# early stop at --precision with and without generations, --max-time,
# usage errors (exit 2), and
# --metric insns (callgrind) giving the same instructions per packet for
# the same variant twice (skipped in sanitizer builds: valgrind and ASan
# do not mix; and where valgrind cannot read the binary).
# The table `uxdp run` ends a script of measured runs with (the demo's)
# marks differences within the runs' noise.
# Usage: lab_report.sh UXDP EXAMPLES_DIR [san]
set -eu
UXDP=$1
EX=$2
SAN=${3:-}
command -v jq >/dev/null || { echo "jq missing"; exit 77; }
command -v xmllint >/dev/null || { echo "xmllint missing (libxml2-utils)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. --vary with a report
"$UXDP" -j ab "$EX/veth-bulk-ab.uxdp" --vary "dev veth1 xdp_batch 0,8,16" \
	--rounds 3 --time 0.1 --report "$T/r" >"$T/out.json" || fail "uxdp ab --vary"
cmp -s "$T/out.json" "$T/r/data.json" || fail "stdout JSON differs from data.json"
jq -e '.metric == "mpps_cpu" and .rounds == 3 and (.variants | length) == 3
	and .generations == 1 and .generation == [0, 0, 0] and .trim == 0.25
	and (.variants | all(.mpps | length == 3))
	and (.variants | all(.cpu_share | all(. > 0 and . < 1.1)))
	and (.variants[1:] | all(.mpps_ratio.lo == null and (.mpps_ratio.est | type == "number")))
	and ([.variants[].name] == ["xdp_batch 0", "xdp_batch 8", "xdp_batch 16"])
	and (.variants | all(.values | length == 3))
	and (.variants | all(.median > 0 and .min <= .median and .median <= .max))
	and (.variants | all(.mean_ci[0] <= .mean and .mean <= .mean_ci[1]))
	and (.variants[0].ratio == null)
	and .analysed_rounds == 3 and .blocks == 0 and .units == 0 and .min_units == 6
	and (.variants[1:] | all(.ratio.lo == null and .ratio.hi == null
		and .ratio.enough_data == false and .ratio.significant == false
		and .time.lo == null and (.ratio.est | type == "number")))
	and (.variants[1:] | all(.verdict | test("^not enough data: run longer \\(0 whole blocks of two generations; a 95 % CI needs 6\\)$")))
	and (.variants[2].set == "dev veth1 xdp_batch 16")' "$T/r/data.json" >/dev/null \
	|| fail "data.json content: $(cat "$T/r/data.json")"
for f in throughput.svg ratio.svg rounds-cdf.svg; do
	[ -s "$T/r/$f" ] || fail "$f missing"
	xmllint --noout "$T/r/$f" || fail "$f is not well-formed XML"
	grep -q "xdp_batch 16" "$T/r/$f" || fail "$f has no legend"
done
grep -q '^\*\*Verdict:\*\*' "$T/r/summary.md" || fail "summary.md has no verdict"
grep -q 'throughput.svg' "$T/r/summary.md" || fail "summary.md does not show the plot"
grep -q 'ratio.svg' "$T/r/summary.md" || fail "summary.md does not show the ratio plot"
[ "$(grep -c 'not enough data' "$T/r/ratio.svg")" = 2 ] && ! grep -q 'class="ci"' "$T/r/ratio.svg" \
	|| fail "ratio.svg draws an interval from too few blocks"
grep -q 'CI needs 6' "$T/r/summary.md" && ! grep -q '\[+[0-9.]*, ' "$T/r/summary.md" \
	|| fail "summary.md prints an interval from too few blocks"

# 2. two scripts, named after their files; early stop at a loose precision,
# checked from the tenth round with one generation, from the end of the
# twelfth generation with --respawn (fresh processes every 2 rounds)
cp "$EX/veth-bulk-ab.uxdp" "$T/a.uxdp"
sed 's/xdp_batch 16/xdp_batch 0/' "$EX/veth-bulk-ab.uxdp" >"$T/b.uxdp"
"$UXDP" -j ab "$T/a.uxdp" "$T/b.uxdp" --rounds 20 --time 0.05 --respawn 0 --metric mpps \
	--precision 90% >"$T/ab.json" || fail "uxdp ab A B"
jq -e '([.variants[].name] == ["a", "b"]) and .stopped_early and .rounds == 10
	and .precision == 0.9 and .metric == "mpps" and .respawn == 0
	and (.variants[1].mpps_cpu_ratio.est | type == "number")' "$T/ab.json" >/dev/null \
	|| fail "two scripts: $(cat "$T/ab.json")"
"$UXDP" -j ab "$T/a.uxdp" "$T/b.uxdp" --rounds 30 --time 0.05 --respawn 2 --warmup 1 \
	--trim 10% --precision 90% >"$T/gen.json" || fail "uxdp ab --respawn"
jq -e '.stopped_early and .rounds == 24 and .generations == 12 and .trim == 0.1
	and .generation == [range(0; 24) | (. / 2 | floor)] and .analysed_rounds == 24
	and .warmup_rounds == 1' "$T/gen.json" >/dev/null \
	|| fail "generations: $(cat "$T/gen.json")"
"$UXDP" -j ab "$T/a.uxdp" "$T/b.uxdp" --rounds 1000 --time 0.05 --max-time 2 >"$T/mt.json" \
	|| fail "uxdp ab --max-time"
jq -e '.rounds < 1000 and .elapsed_s < 10' "$T/mt.json" >/dev/null \
	|| fail "--max-time: $(cat "$T/mt.json")"

# 2b. the same counts everywhere: 30 rounds in 15 generations are 7 whole
# blocks (28 rounds); the table, summary.md and data.json say so, every
# statistic uses those 28, and ratio.svg draws the 7 blocks and the CI
"$UXDP" -j ab "$T/a.uxdp" "$T/b.uxdp" --rounds 30 --time 0.02 --respawn 2 --warmup 1 \
	--report "$T/cnt" >/dev/null || fail "uxdp ab --respawn 2 --rounds 30"
jq -e '.rounds == 30 and .generations == 15 and .analysed_rounds == 28 and .blocks == 7
	and .units == 7 and (.variants | all(.values | length == 30))
	and (.variants | all(.values[0:28] as $x | ($x | sort | (.[13] + .[14]) / 2) as $m
		| ((.median - $m) | fabs) < 1e-5))
	and (.variants | all(.values[0:28] as $x | (($x | add / length) - .mean | fabs) < 1e-5))
	and (.variants[1] | .ratio.enough_data and .ratio.units == 7
		and (.block_estimates | length == 7) and .time.lo <= .time.est
		and .time.est <= .time.hi and (.time.est - (1 / (1 + .ratio.est) - 1) | fabs) < 1e-5
		and (.verdict | test("^(b is (faster|slower)|no difference)")))' \
	"$T/cnt/data.json" >/dev/null || fail "counts: $(cat "$T/cnt/data.json")"
grep -q '^analysed: 28 of 30 rounds per variant, 7 whole blocks of two generations (15 generations run)$' \
	"$T/cnt/summary.md" && grep -q '^| a | 28 | ' "$T/cnt/summary.md" && grep -q '^| b | 28 | ' \
	"$T/cnt/summary.md" && grep -q '^30 rounds of 0.02 s per variant, interleaved, in 15 generations' \
	"$T/cnt/summary.md" || fail "summary.md counts: $(cat "$T/cnt/summary.md")"
python3 - "$T/cnt/ratio.svg" "$T/cnt/data.json" <<'EOPY' || fail "ratio.svg does not show data.json's ratio"
import json, re, sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg, d = ET.parse(sys.argv[1]).getroot(), json.load(open(sys.argv[2]))
t = d["variants"][1]["time"]
assert len(svg.findall(ns + "circle")) == 7, "one dot per block"
assert len([l for l in svg.iter(ns + "line") if l.get("class") == "ci"]) == 1
assert len([l for l in svg.iter(ns + "line") if l.get("class") == "zero"]) == 1
lab = [x.text for x in svg.iter(ns + "text") if x.text and re.match(r"^-?[0-9.e+-]+ \[", x.text)]
est, lo, hi = map(float, re.match(r"^(\S+) \[(\S+), (\S+)\]$", lab[0]).groups())
for got, want in ((est, t["est"]), (lo, t["lo"]), (hi, t["hi"])):
    assert abs(got - want * 100) <= 1e-3 * max(1, abs(want * 100)), (got, want)
EOPY

# 3. usage errors
printf 'link add eth0 type gen\nrun 1s\n' >"$T/nomeasure.uxdp"
rc=0; "$UXDP" ab "$T/nomeasure.uxdp" "$T/a.uxdp" --rounds 2 --time 0.1 2>"$T/err" >/dev/null || rc=$?
[ "$rc" -ne 0 ] || fail "a script without 'measure' was accepted"
grep -q "measure DEV" "$T/err" || fail "no explanation: $(cat "$T/err")"
rc=0; "$UXDP" ab "$T/a.uxdp" "$T/b.uxdp" --metric p99 --rounds 2 --time 0.1 2>"$T/err" >/dev/null || rc=$?
[ "$rc" -ne 0 ] || fail "--metric p99 without a generic XDP hook was accepted"
grep -q "xdpgeneric" "$T/err" || fail "no explanation: $(cat "$T/err")"
rc=0; "$UXDP" ab "$T/a.uxdp" --vary "dev veth1 xdp_batch 8" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--vary with one value gave $rc, not 2"
rc=0; "$UXDP" ab "$T/a.uxdp" "$T/b.uxdp" --trim 50% 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--trim 50% gave $rc, not 2"

# 4. latency of the generic XDP hook: p50 per round, the latency CDF plot
# (paged 16000 B frames: linearising them takes far longer than the TSC's
# resolution; without it the hook runs a 64-word checksum loop over the
# 128 B head, so that it too measures well above it: a header parse
# alone can measure 0 ns)
cat >"$T/g.uxdp" <<EOS
link add eth0 type gen size 16000 proto tcp src 198.18.0.1 dst 198.19.0.1 frags 4 hsplit 128
link set dev eth0 xdpgeneric obj xdp_csum_loop.o
run 1s measure eth0
EOS
"$UXDP" -j ab "$T/g.uxdp" --vary "dev eth0 xdpgeneric_linearize 0,1" --metric p50 \
	--rounds 3 --time 0.1 --report "$T/lat" >"$T/lat.json" || fail "--metric p50"
jq -e '.metric == "p50" and .unit == "ns" and (.variants | all(.median > 0 and .median < 1e6))
	and (.variants[1].verdict | test("^not enough data: run longer \\(3 pairs of rounds; a 95 % CI needs 10\\)$"))' "$T/lat.json" \
	>/dev/null || fail "p50: $(cat "$T/lat.json")"
for f in latency.svg rounds-cdf.svg latency-cdf.svg; do
	xmllint --noout "$T/lat/$f" || fail "$f is not well-formed XML"
done

# 5. the table at the end of a script with measured runs (the demo's):
# every difference has the 95 % interval of its runs' 100 ms slices and is
# marked "within noise" exactly when that interval holds 0; a run too short
# for ten slices says so instead of printing an interval
grep -v '^run ' "$T/a.uxdp" >"$T/tbl.uxdp"
printf '%s\n' 'run 1.3s label A measure veth1' 'run 1.3s label B measure veth1' \
	'link set dev veth1 xdp_batch 0' 'run 1.3s label C measure veth1' \
	'run 0.5s label short measure veth1' >>"$T/tbl.uxdp"
"$UXDP" run "$T/tbl.uxdp" >"$T/tbl.txt" || fail "table script"
grep -q '^run  *measure  *Mpps vs first  \[95 % CI of 100 ms slices\]$' "$T/tbl.txt" \
	|| fail "table header: $(cat "$T/tbl.txt")"
grep -q '^A  *veth1  *[0-9.]*  *-$' "$T/tbl.txt" || fail "first row: $(cat "$T/tbl.txt")"
grep -q '^short  *veth1 .* too short to tell' "$T/tbl.txt" || fail "short run: $(cat "$T/tbl.txt")"
awk '/^[BC]  *veth1/ {
	if (!match($0, /\[[-+][0-9.]+, [-+][0-9.]+\]/)) { print "no interval: " $0; bad = 1; next }
	split(substr($0, RSTART + 1, RLENGTH - 2), ci, ", ")
	holds = ci[1] + 0 <= 0 && ci[2] + 0 >= 0
	if (holds != ($0 ~ /within noise$/)) { print "mark wrong: " $0; bad = 1 }
	n++
} END { exit bad || n != 2 }' "$T/tbl.txt" || fail "noise marks: $(cat "$T/tbl.txt")"

# 6. instructions per packet: deterministic
# (valgrind 3.19 cannot read the DWARF 5 of clang-14 builds: skipped there)
if [ -z "$SAN" ] && command -v valgrind >/dev/null &&
   valgrind -q --tool=none "$UXDP" version >/dev/null 2>&1; then
	"$UXDP" -j ab "$T/a.uxdp" "$T/a.uxdp" --metric insns --count 5000 >"$T/insns.json" \
		|| fail "--metric insns"
	jq -e '(.variants | all(.insns_per_packet > 100))
		and ((.variants[0].insns_per_packet - .variants[1].insns_per_packet)
		     | fabs < 0.5)' "$T/insns.json" >/dev/null || fail "insns: $(cat "$T/insns.json")"
fi
echo "lab report: ok"
