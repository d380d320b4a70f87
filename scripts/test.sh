#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what is missing, build, and run the whole test suite.
#   scripts/test.sh            regular build in build/
#   scripts/test.sh --sanitize ASan + UBSan build in build-san/
# Extra arguments after the options go to `meson test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
if [ "${1:-}" = "--sanitize" ]; then
	shift
	export UXDP_BUILD=build-san
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	bash scripts/build.sh -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
else
	bash scripts/build.sh -Dwerror=true
fi
meson test -C "${UXDP_BUILD:-build}" --print-errorlogs "$@"
