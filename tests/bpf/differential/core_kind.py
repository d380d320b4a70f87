#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# core_kind.py IN OUT FROM TO: copy BPF object IN to OUT with every CO-RE
# record of kind FROM (.BTF.ext) turned into kind TO. clang 14 cannot emit
# bpf_core_type_matches() (kind 12): the suite makes TYPE_EXISTS (8)
# records into TYPE_MATCHES to compare uxdp with the kernel's libbpf.
import struct
import sys

src, dst, kind_from, kind_to = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)


def shdr(i):
    return struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)


strtab = shdr(shstrndx)[4]
n = 0
for i in range(shnum):
    sh = shdr(i)
    name = b[strtab + sh[0]:b.index(0, strtab + sh[0])].decode()
    if name != ".BTF.ext":
        continue
    ext = sh[4]
    hdr_len, = struct.unpack_from("<I", b, ext + 4)
    off, length = struct.unpack_from("<II", b, ext + 24)
    p = ext + hdr_len + off
    end = p + length
    rec, = struct.unpack_from("<I", b, p)
    p += 4
    while p + 8 <= end:
        _, num = struct.unpack_from("<II", b, p)
        p += 8
        for k in range(num):
            if struct.unpack_from("<I", b, p + k * rec + 12)[0] == kind_from:
                struct.pack_into("<I", b, p + k * rec + 12, kind_to)
                n += 1
        p += num * rec
if not n:
    sys.exit("core_kind.py: %s has no CO-RE record of kind %d" % (src, kind_from))
open(dst, "wb").write(b)
