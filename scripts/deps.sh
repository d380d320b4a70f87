#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The single list of what uxdp needs from Debian 12. Idempotent: installs only
# what is missing, and returns at once when everything is present.
# Used by README.md, .ci/run, scripts/demo.sh and scripts/test.sh.
set -euo pipefail

PACKAGES=(
	build-essential pkg-config meson ninja-build  # build
	clang llvm                                     # BPF objects (-target bpf), clang builds of uxdp
	libbpf-dev libelf-dev zlib1g-dev               # object loading, kernel differential tests
	libxdp-dev                                     # AF_XDP driver
	libpcap-dev                                    # pcap driver
	check                                          # unit tests (forks per test)
	libclang-rt-14-dev                             # sanitizer and fuzzer runtimes for clang
	bpftool iproute2 jq xxd                        # kernel oracle, netns tests, JSON and hex in tests
	tshark                                         # checks captured frames in tests
	valgrind                                       # instruction counts (callgrind)
	socat ethtool iputils-ping                     # real-interface router tests (tests/net/router_*.sh)
	python3                                        # AF_PACKET inject/capture in the generic-XDP kernel oracle test
	libxml2-utils                                  # xmllint: lab report SVGs are checked by parsing
	python3-pytest python3-scapy                   # the Python package's test suite (python/tests)
	python3-jsonschema                             # -j output against Documentation/schema (tests/cli)
	lcov                                           # genhtml renders the coverage tracefiles in tests
	libedit-dev                                    # line editing and history in uxdp shell
	python3-docutils                               # rst2man: the man pages from Documentation/man
	libdpdk-dev                                    # DPDK's rte_bpf JIT, a peer in uxdp-bench-prog
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}; run as root (or: sudo $0)" >&2
	exit 1
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
