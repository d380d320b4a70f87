#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the test bench's capture: a mix of IPv4/IPv6 TCP/UDP/ICMP, ARP and
a runt, each a case of examples/progs/xdp_proto_stats.c.

  gen_pcap.py OUT [--count N] [--pcapng] [--truncate] [--corrupt]

--count N repeats the mix to N packets (the benchmark's 100,000);
--truncate cuts the last record in half; --corrupt gives record 3 a
captured length beyond the snap length."""
import argparse
import struct

SRC = bytes.fromhex("020000000001")
DST = bytes.fromhex("020000000002")


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(proto, payload, ttl=64):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 1, 0, ttl, proto, 0,
                    bytes([198, 18, 0, 1]), bytes([198, 19, 0, 1]))
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return DST + SRC + b"\x08\x00" + h + payload


def ipv6(nh, payload, hlim=64):
    h = struct.pack("!IHBB16s16s", 6 << 28, len(payload), nh, hlim,
                    bytes.fromhex("20010db8000000000000000000000001"),
                    bytes.fromhex("20010db8000000000000000000000002"))
    return DST + SRC + b"\x86\xdd" + h + payload


def udp(dport, n=18):
    return struct.pack("!HHHH", 40000, dport, 8 + n, 0) + bytes(range(n))


def tcp(dport):
    return struct.pack("!HHIIBBHHH", 40000, dport, 1, 0, 5 << 4, 0x02, 65535, 0, 0)


MIX = [
    ipv4(17, udp(53)),                       # pass, ttl 64 -> 63
    ipv4(6, tcp(80)),                        # pass
    ipv4(6, tcp(23)),                        # drop: telnet
    ipv6(17, udp(7)),                        # tx: UDP echo
    ipv4(17, udp(53), ttl=1),                # drop: ttl expired
    DST + SRC + b"\x08\x06" + bytes(28),     # ARP: pass, other
    ipv4(1, bytes([8, 0, 0xf7, 0xff, 0, 0, 0, 0])),  # ICMP echo: pass
    ipv6(6, tcp(443)),                       # pass
    DST + SRC[:4],                           # runt (10 bytes): refused
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=len(MIX))
    ap.add_argument("--pcapng", action="store_true")
    ap.add_argument("--truncate", action="store_true")
    ap.add_argument("--corrupt", action="store_true")
    ap.add_argument("--no-runt", action="store_true")
    a = ap.parse_args()
    mix = MIX[:-1] if a.no_runt else MIX
    pkts = [mix[i % len(mix)] for i in range(a.count)]
    out = bytearray()
    if a.pcapng:
        out += struct.pack("<IIIHHqI", 0x0A0D0D0A, 28, 0x1A2B3C4D, 1, 0, -1, 28)
        out += struct.pack("<IIHHII", 1, 20, 1, 0, 65535, 20)
    else:
        out += struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)
    for i, p in enumerate(pkts):
        ts = 1700000000 * 1000000 + i * 1000
        if a.pcapng:
            pad = (4 - len(p) % 4) % 4
            tot = 32 + len(p) + pad
            out += struct.pack("<IIIIIII", 6, tot, 0, ts >> 32, ts & 0xFFFFFFFF, len(p), len(p))
            out += p + bytes(pad) + struct.pack("<I", tot)
        else:
            caplen = 100000 if a.corrupt and i == 3 else len(p)
            out += struct.pack("<IIII", ts // 1000000, ts % 1000000, caplen, len(p)) + p
    if a.truncate:
        out = out[:len(out) - len(pkts[-1]) // 2]
    open(a.out, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
