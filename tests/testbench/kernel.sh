#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# xdp_proto_stats against the kernel: each packet of the mix (and of a
# 2,000-packet repeat of it) through BPF_PROG_TEST_RUN in both, error,
# verdict, length and bytes compared, then every map element
# (uxdp-bench-capture --check). Skips (77) where the kernel cannot load it.
# Usage: kernel.sh UXDP_BENCH_CAPTURE PROGS_DIR GEN_PCAP
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
python3 "$3" "$T/mix.pcap" && python3 "$3" --count 2000 "$T/2k.pcap" || exit 1
for f in mix 2k; do
	"$1" --check "$2/xdp_proto_stats.o" xdp_proto_stats_prog "$T/$f.pcap"
	rc=$?
	[ $rc -eq 0 ] || exit $rc
done
