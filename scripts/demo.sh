#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what is missing, build, and run uxdp's main job: today the memory
# core benchmark (skb alloc one-by-one vs bulk, skb_linearize vs memcpy).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh -Dbuildtype=release
exec build/tools/bench/uxdp-bench skb "$@"
