#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# uxdp-bench-prog's runtimes agree on every program's verdict: uxdp's JIT
# against its interpreter, the C twins, DPDK's rte_bpf (where it runs the
# program, its context rewritten to the frame) and, as root, the kernel's
# test_run; at 64 and 256 bytes. Where the build has DPDK, it must run
# xdp_hdr_parse at 256 bytes (so the rewrite of ctx->data and data_end
# is exercised). No timing is checked here.
# Usage: bench_prog_verdicts.sh UXDP_BENCH_PROG PROGS_DIR
set -u
B=$1
P=$2
fail=0
check() {	# check NAME CONDITION-EXIT-STATUS
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi
}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for size in 64 256; do
	"$B" --json --rounds 1 --repeat 20 --size $size "$P" > "$T/out" 2> "$T/err"
	check "size $size: runs (exit 0)" $?
	jq -e '.programs | length > 10 and all(.ok)' "$T/out" >/dev/null
	check "size $size: every program loads and runs" $?
	bad=$(jq -r '.programs[] | select(.interp_retval_match == false or .retval_match == false or
		.native_retval_match == false or .dpdk_retval_match == false) | .name' "$T/out")
	[ -z "$bad" ]
	check "size $size: verdicts agree across runtimes${bad:+ (not: $bad)}" $?
done
if jq -e '.programs[0].dpdk_refused // "" | startswith("built without")' "$T/out" >/dev/null; then
	echo "# built without DPDK: its column is not checked"
else
	jq -e '.programs[] | select(.name == "xdp_hdr_parse_prog") | has("dpdk_ns") and .dpdk_retval_match' "$T/out" >/dev/null
	check "DPDK runs xdp_hdr_parse_prog at 256 bytes" $?
fi
[ "$(id -u)" -eq 0 ] || echo "# not root: the kernel's verdicts are not compared"
exit $fail
