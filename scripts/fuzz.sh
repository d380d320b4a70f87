#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run every libFuzzer target of tests/fuzz for a bounded time and print a
# table (executions, exec/s, corpus size, crashes). Used by .ci/run.
#   scripts/fuzz.sh [SECONDS [TARGET...]]     default: 60 s, all targets
# Builds with clang into build-fuzz/ (or $UXDP_FUZZ_BUILD). The corpus each
# run grows is kept in $BUILD/fuzz-corpus/<target> (seeded from
# tests/fuzz/corpus, tests/fuzz/regress and generated seeds); a crash is
# saved to $BUILD/fuzz-artifacts/ and fails the script: copy it to
# tests/fuzz/regress/<target>/ and fix it.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(bpf object pkt skb script dsa pcap)
B=${UXDP_FUZZ_BUILD:-build-fuzz}

bash scripts/deps.sh
if [ ! -f "$B/build.ninja" ]; then
	CC=clang meson setup "$B" -Dfuzz=enabled | grep -E "ERROR|WARNING" || true
	[ -f "$B/build.ninja" ] || { echo "fuzz.sh: meson setup $B failed" >&2; exit 1; }
fi
ninja -C "$B" >/dev/null

seeds() {	# read-only seed directories of target $1 that exist
	local d
	for d in "tests/fuzz/corpus/$1" "tests/fuzz/regress/$1"; do
		[ -d "$d" ] && echo "$d"
	done
	case $1 in
	bpf) echo "$B/tests/fuzz/seeds-bpf" ;;
	object) echo "$B/examples/progs"; echo "$B/tests/bpf/differential" ;;
	script) echo examples ;;
	esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
mkdir -p "$B/fuzz-artifacts"
fail=0
rows=()
for t in "${TARGETS[@]}"; do
	exe="$B/tests/fuzz/fuzz-$t"
	[ -x "$exe" ] || { echo "fuzz.sh: $exe not built (clang?)" >&2; exit 1; }
	corpus="$B/fuzz-corpus/$t"
	mkdir -p "$corpus"
	log="$B/fuzz-artifacts/$t.log"
	rc=0
	extra=()
	# the script target's tool prints errors on stderr: keep only reports
	[ "$t" = script ] && extra=(-close_fd_mask=2)
	# -timeout: one input may not run longer (a hang is a crash);
	# -rss_limit_mb: memory growth over many inputs is a crash too.
	"$exe" -max_total_time="$SECS" -timeout=30 -rss_limit_mb=3072 -print_final_stats=1 \
		"${extra[@]}" -artifact_prefix="$B/fuzz-artifacts/$t-" "$corpus" $(seeds "$t") >"$log" 2>&1 || rc=$?
	execs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
	rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
	ncorp=$(find "$corpus" -type f | wc -l)
	crash=0
	if [ "$rc" -ne 0 ]; then
		crash=1
		fail=1
		echo "fuzz.sh: $t failed (exit $rc); log $log:" >&2
		grep -E "ERROR|SUMMARY|runtime error|invariant|Test unit written|^    #[0-9]" "$log" |
			head -40 >&2 || true
	fi
	rows+=("$(printf '%-8s %12s %8s %8s %8s' "$t" "${execs:-?}" "${rate:-?}" "$ncorp" "$crash")")
done
printf '%-8s %12s %8s %8s %8s\n' target executions exec/s corpus crashes
printf '%s\n' "${rows[@]}"
exit $fail
