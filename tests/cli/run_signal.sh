#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A run ended by a signal: `run` without a duration (a generator without a
# count) in the background, SIGINT (or SIGTERM) after a second. uxdp must
# exit 0 with the whole summary: with -j one document that parses,
# validates against Documentation/schema/run.json, says which signal
# stopped the run, holds per-interval rates (`interval 200ms`) and
# accounts for every packet (rx = XDP verdicts; the drops are XDP_DROP);
# the line after the run is not run; every device and object is gone
# (UXDP_LEAK_CHECK). In text the summary and "stopped by" are printed, and
# a progress line only when stdout is a terminal.
# Usage: run_signal.sh UXDP PROGS_DIR SCHEMA_DIR VALIDATOR
set -u
UXDP=$1
PROGS=$2
SCHEMAS=$3
VALIDATE=$4
T=$(mktemp -d /tmp/uxdp-run-signal.XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

cat > "$T/s.uxdp" <<SCRIPT
link add g0 type gen size 64 proto udp src 198.18.0.2 dst 198.19.0.2
link set dev g0 xdp obj $PROGS/xdp1.o
run interval 200ms
link add late type gen
SCRIPT

# start SCRIPT OUT [-j]: uxdp in the background; its PID in $pid
start() {
	UXDP_LEAK_CHECK=1 "$UXDP" $3 run "$1" > "$2" 2> "$2.err" &
	pid=$!
}

# stop SIG: send SIG after 1.2 s; wait at most 20 s for the exit; status in $rc
stop() {
	sleep 1.2
	kill -0 "$pid" 2>/dev/null || fail "uxdp exited before $1: $(cat "$T"/*.err)"
	kill -"$1" "$pid"
	for _ in $(seq 200); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "uxdp still runs 20 s after $1"
	wait "$pid"
	rc=$?
	pid=
}

for sig in INT TERM; do
	start "$T/s.uxdp" "$T/$sig.json" -j
	stop "$sig"
	[ $rc -eq 0 ] || fail "SIG$sig: exit status $rc, want 0: $(cat "$T/$sig.json.err")"
	jq -e . "$T/$sig.json" > /dev/null || fail "SIG$sig: the output is not JSON: $(head -c 300 "$T/$sig.json")"
	python3 "$VALIDATE" "$SCHEMAS/run.json" "$T/$sig.json" ||
		fail "SIG$sig: the document does not validate"
	jq -e --arg s "SIG$sig" '.interrupted == $s and (.runs | length) == 1 and
		.runs[0].stopped_by == $s and .stopped_by == $s' "$T/$sig.json" > /dev/null ||
		fail "SIG$sig: not one run stopped by SIG$sig: $(head -c 300 "$T/$sig.json")"
	jq -e '.runs[0].duration_s >= 1 and (.runs[0].intervals | length) >= 3 and
		([.runs[0].intervals[].devices.g0.rx_pps] | max) > 0' "$T/$sig.json" > /dev/null ||
		fail "SIG$sig: no interval rates: $(jq -c .runs[0].intervals "$T/$sig.json")"
	# every packet: rx = aborted + drop + pass + tx + redirect, all dropped here
	jq -e '.devices.g0 as $d | $d.rx_packets > 0 and
		$d.rx_packets == ($d.xdp | .aborted + .drop + .pass + .tx + .redirect) and
		$d.drops_total == $d.xdp.drop + $d.xdp.aborted and
		(.devices | has("late") | not)' "$T/$sig.json" > /dev/null ||
		fail "SIG$sig: packets not accounted for: $(jq -c .devices "$T/$sig.json")"
	echo "ok - SIG$sig ends the run: exit 0, one valid document, every packet counted"
done

start "$T/s.uxdp" "$T/text" ""
stop INT
[ $rc -eq 0 ] || fail "text: exit status $rc, want 0: $(cat "$T/text.err")"
grep -q "^run 1: .*stopped by SIGINT" "$T/text" || fail "text: no 'stopped by SIGINT': $(cat "$T/text")"
grep -q "g0: [0-9]* XDP program returned XDP_DROP \[XDP_DROP\]" "$T/text" ||
	fail "text: the drops are not shown: $(cat "$T/text")"
grep -q "period 0.2" "$T/text" || fail "text: no interval lines: $(cat "$T/text")"
grep -q "running:" "$T/text" && fail "text: a progress line although stdout is not a terminal"
echo "ok - text: the summary, its drops and the intervals after SIGINT, no progress line"

# the progress line: on a terminal (script(1) gives a pty), after a second
if command -v script > /dev/null; then
	printf '%s\n' "link add g0 type gen size 64 proto udp src 198.18.0.2 dst 198.19.0.2" \
		"run 1.7s" > "$T/p.uxdp"
	script -qec "$UXDP run $T/p.uxdp" /dev/null > "$T/tty" 2>&1 < /dev/null
	grep -q "running: 1\.[0-9] / 1\.7 s" "$T/tty" || fail "tty: no progress line: $(cat -v "$T/tty")"
	grep -q "running: 0\." "$T/tty" && fail "tty: a progress line before 1 s: $(cat -v "$T/tty")"
	echo "ok - a progress line on a terminal, from the first second on"
else
	echo "ok - # SKIP progress line: no script(1) for a terminal"
fi

# a signal while no run runs (reading the script from a pipe): 128 + N
mkfifo "$T/fifo"
UXDP_LEAK_CHECK=1 "$UXDP" -j run - < "$T/fifo" > "$T/idle.json" 2> "$T/idle.err" &
pid=$!
exec 3> "$T/fifo"
echo "link add g0 type gen count 10" >&3
echo "run" >&3
stop INT
exec 3>&-
[ $rc -eq 130 ] || fail "idle: exit status $rc, want 130"
jq -e '.interrupted == "SIGINT" and (.runs | length) == 1 and .runs[0].devices.g0.rx_packets == 10' \
	"$T/idle.json" > /dev/null || fail "idle: $(cat "$T/idle.json")"
echo "ok - a signal between lines: exit 130, the completed run kept"
echo "PASS: run_signal"
