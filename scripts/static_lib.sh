#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The installed libuxdp.a: every object of the internal static library IN
# linked into one relocatable object whose hidden symbols (the kernel-named
# internals, built -fvisibility=hidden) are made local, so only the public
# uxdp_* API is left to resolve against; a program that also links libbpf
# or libxdp statically sees no duplicate bpf_map_lookup_elem & co.
#   static_lib.sh IN.a OUT.a TMPDIR
set -euo pipefail
in=$1 out=$2 tmp=$3
mkdir -p "$tmp"
rm -f "$tmp/uxdp.o" "$out"
ld -r --whole-archive "$in" -o "$tmp/uxdp.o"
objcopy --localize-hidden "$tmp/uxdp.o"
ar rcs "$out" "$tmp/uxdp.o"
