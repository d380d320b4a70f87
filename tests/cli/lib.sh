# SPDX-License-Identifier: GPL-2.0
# Sourced by the CLI tests: a scratch directory removed on exit and
# TAP-style check().
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() {	# check NAME CONDITION-EXIT-STATUS
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi
}
