#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure (once) and build uxdp into build/ (or $UXDP_BUILD).
# Extra arguments go to `meson setup`, e.g. -Db_sanitize=address,undefined.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${UXDP_BUILD:-build}
if [ ! -f "$B/build.ninja" ]; then
	meson setup "$B" "$@" >/dev/null
fi
ninja -C "$B" >/dev/null
