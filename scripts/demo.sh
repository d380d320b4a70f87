#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what is missing, build (release, in build-release/), and run
# uxdp's main job. Until the veth-bulk experiment lands that is:
#   1. an XDP program run the way BPF_PROG_TEST_RUN runs it (uxdp prog run),
#   2. the memory-core benchmark (skb alloc one-by-one vs bulk,
#      skb_linearize vs memcpy), as a table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
export UXDP_BUILD=build-release
bash scripts/build.sh -Dbuildtype=release -Dtests=false
B=build-release
pkt=$(mktemp)
trap 'rm -f "$pkt"' EXIT
# 64-byte UDP/IPv4 frame 198.18.0.1 -> 198.19.0.1 (benchmarking range).
printf '0200000000020200000000010800450000320000000040110000c6120001c6130001'"%058d" 0 | xxd -r -p > "$pkt"
if [ -f "$B/examples/progs/xdp1.o" ]; then
	echo "== uxdp prog run examples/progs/xdp1.o (count by IP protocol), 1000 runs"
	"$B/tools/uxdp/uxdp" prog run "$B/examples/progs/xdp1.o" data_in "$pkt" repeat 1000 dump-maps
	echo
fi
echo "== memory core benchmark"
exec "$B/tools/bench/uxdp-bench" skb "$@"
