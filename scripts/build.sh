#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure (once) and build uxdp into build/ (or $UXDP_BUILD).
# Extra arguments go to `meson setup`, e.g. -Db_sanitize=address,undefined.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${UXDP_BUILD:-build}
if [ ! -f "$B/build.ninja" ]; then
	meson setup "$B" "$@" | grep -E "ERROR|WARNING|Message" || true
	[ -f "$B/build.ninja" ] || { echo "build.sh: meson setup $B failed" >&2; exit 1; }
fi
ninja -C "$B" --quiet
