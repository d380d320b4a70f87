#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what is missing, build (release, in build-release/), and run
# uxdp's main job: the veth-bulk experiment (examples/veth-bulk.uxdp), which
# ends with the published table next to this machine's. Extra arguments go to
# `uxdp run` before the script (e.g. -j for JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
export UXDP_BUILD=build-release
bash scripts/build.sh -Dbuildtype=release -Dtests=false
exec build-release/tools/uxdp/uxdp "$@" run examples/veth-bulk.uxdp
