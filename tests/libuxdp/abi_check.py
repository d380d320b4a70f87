#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The library's ABI against its headers.

  abi_check.py LIBUXDP_SO LIBUXDP_A LIBUXDP_MAP INCLUDE_UXDP_DIR

Fails (exit 1, saying which names) when the functions declared UXDP_API in
include/uxdp/*.h, the global names of the version script and the symbols
libuxdp.so exports (each under a UXDP_ version node) are not the same set,
or when libuxdp.a defines a global symbol outside the uxdp_ namespace.
"""
import glob
import os
import re
import subprocess
import sys


def header_names(inc):
    names = set()
    for path in glob.glob(os.path.join(inc, "*.h")):
        text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
        for m in re.finditer(r"UXDP_API\b[^;{]*?\b(uxdp_\w+)\s*\(", text, flags=re.S):
            names.add(m.group(1))
    return names


def map_names(path):
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    names = set()
    for block in re.findall(r"global:(.*?)(?:local:|\})", text, flags=re.S):
        names.update(n.strip() for n in block.split(";") if n.strip())
    return names


def nm(args):
    out = subprocess.run(["nm"] + args, check=True, capture_output=True, text=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def main():
    so, ar, vmap, inc = sys.argv[1:5]
    problems = []
    hdr, mapped = header_names(inc), map_names(vmap)
    if not hdr:
        problems.append("no UXDP_API declaration found in " + inc)
    for n in sorted(hdr - mapped):
        problems.append(f"{n}: declared UXDP_API but not in {os.path.basename(vmap)}")
    for n in sorted(mapped - hdr):
        problems.append(f"{n}: in {os.path.basename(vmap)} but not declared UXDP_API")
    exported = {}
    for f in nm(["-D", "--defined-only", "--with-symbol-versions", so]):
        name, _, version = f[-1].partition("@")
        exported[name] = version.lstrip("@")
    for name, version in sorted(exported.items()):
        if name.startswith("UXDP_"):
            continue  # the version nodes themselves
        if name not in mapped:
            problems.append(f"{name}: exported by libuxdp.so but not in the version script")
        elif not version.startswith("UXDP_"):
            problems.append(f"{name}: exported without a UXDP_ version ({version or 'none'})")
    for n in sorted(mapped - set(exported)):
        problems.append(f"{n}: in the version script but not exported (not defined?)")
    for f in nm(["-g", "--defined-only", ar]):
        if len(f) == 3 and not f[2].startswith("uxdp_"):
            problems.append(f"{f[2]}: libuxdp.a defines a global outside uxdp_")
    for p in problems:
        print("abi_check: " + p)
    print(f"abi_check: {len(hdr)} functions in the headers, {len(exported)} exported symbols")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
