# SPDX-License-Identifier: GPL-2.0
# Sourced by the test bench's tests: a scratch directory removed on exit,
# TAP-style check(), and the skip (77) when jq is missing.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() {	# check NAME CONDITION-EXIT-STATUS
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi
}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
