#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Regenerate the hand-made seed corpora corpus/pkt and corpus/skb (the
files named by a SHA-1 next to them are fuzzer-found inputs kept by
`fuzz-<target> -merge=1`).

corpus/pkt: Ethernet frames of every kind the parsers and eth_type_trans()
see (IPv4/IPv6 with TCP, UDP, ICMP; 802.1Q and QinQ; ARP; 802.3 LLC and raw
IPX; runts; truncated and malformed IP headers; IPv6 extension headers).
corpus/skb: operation programs for fuzz_skb.c (see its op switch).
Usage: python3 gen_corpus.py   (writes next to this file)
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
DST = bytes([0x02, 0, 0, 0, 0, 1])
SRC = bytes([0x02, 0, 0, 0, 0, 2])


def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def eth(proto, payload, dst=DST):
    return dst + SRC + struct.pack('!H', proto) + payload


def vlan(tpid, vid, proto, payload):
    return struct.pack('!HH', vid, proto) + payload, tpid


def ipv4(proto, l4, ihl=5, tot=None, frag=0, opts=b''):
    tot = tot if tot is not None else 4 * ihl + len(l4)
    h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, 0, tot, 1, frag, 64, proto, 0,
                    bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])) + opts
    h = h[:10] + struct.pack('!H', csum(h)) + h[12:]
    return h + l4


def ipv6(nh, l4, plen=None):
    plen = plen if plen is not None else len(l4)
    return struct.pack('!IHBB16s16s', 0x60000000, plen, nh, 64,
                       bytes(15) + b'\1', bytes(15) + b'\2') + l4


R0 = bytes([0x20, 1, 0, 2]) + bytes(11) + b'\1'          # 2001:2::1 (st0)
A6 = bytes([0x20, 1, 0, 2]) + bytes(11) + b'\2'          # 2001:2::2 (a host on st0)
B6 = bytes([0x20, 1, 0, 2, 0, 0, 0, 1]) + bytes(7) + b'\2'  # 2001:2:0:1::2 (behind st1)
SOL_R0 = bytes([0xff, 2]) + bytes(9) + bytes([1, 0xff, 0, 0, 1])


def ipv6a(nh, l4, src=A6, dst=B6, hlim=64, plen=None):
    plen = plen if plen is not None else len(l4)
    return struct.pack('!IHBB16s16s', 0x60000000, plen, nh, hlim, src, dst) + l4


def icmp6(t, body, src, dst, code=0):
    m = struct.pack('!BBH', t, code, 0) + body
    ph = src + dst + struct.pack('!IxxxB', len(m), 58)
    return m[:2] + struct.pack('!H', csum(ph + m)) + m[4:]


def udp(sport=1234, dport=53, data=b'hello'):
    return struct.pack('!HHHH', sport, dport, 8 + len(data), 0) + data


def tcp(sport=1234, dport=80, flags=0x02, doff=5):
    return struct.pack('!HHIIBBHHH', sport, dport, 1, 0, doff << 4, flags, 65535, 0, 0) + \
        bytes(max(0, 4 * (doff - 5)))


def icmp(t=8):
    return struct.pack('!BBHHH', t, 0, 0, 1, 1) + b'ping'


def pkt_seeds():
    s = {}
    s['ipv4-udp'] = eth(0x0800, ipv4(17, udp()))
    s['ipv4-tcp'] = eth(0x0800, ipv4(6, tcp()))
    s['ipv4-icmp'] = eth(0x0800, ipv4(1, icmp()))
    s['ipv4-opts'] = eth(0x0800, ipv4(17, udp(), ihl=7, opts=bytes([1] * 8)))
    s['ipv4-ihl-bad'] = eth(0x0800, ipv4(17, udp(), ihl=15))
    s['ipv4-ihl-small'] = eth(0x0800, ipv4(17, udp(), ihl=3)[:20])
    s['ipv4-totlen-big'] = eth(0x0800, ipv4(17, udp(), tot=1500))
    s['ipv4-frag'] = eth(0x0800, ipv4(17, udp(), frag=0x2001))
    s['ipv4-trunc'] = eth(0x0800, ipv4(6, tcp())[:24])
    s['ipv4-tcp-doff15'] = eth(0x0800, ipv4(6, tcp(doff=15)))
    s['ipv4-tcp-doff1'] = eth(0x0800, ipv4(6, tcp(doff=1)[:20]))
    s['ipv6-udp'] = eth(0x86dd, ipv6(17, udp()))
    s['ipv6-tcp'] = eth(0x86dd, ipv6(6, tcp()))
    s['ipv6-icmp'] = eth(0x86dd, ipv6(58, icmp(128)))
    s['ipv6-hbh'] = eth(0x86dd, ipv6(0, bytes([17, 0]) + bytes(6) + udp()))
    s['ipv6-frag'] = eth(0x86dd, ipv6(44, bytes([17, 0, 0, 1, 0, 0, 0, 1]) + udp()))
    s['ipv6-ext-loop'] = eth(0x86dd, ipv6(60, bytes([60, 0]) + bytes(6)))
    s['ipv6-trunc'] = eth(0x86dd, ipv6(17, udp())[:30])
    # the router stage (3): forwarding, errors, echo, neighbour discovery
    s['ipv6-fwd'] = eth(0x86dd, ipv6a(17, udp()))
    s['ipv6-fwd-hlim1'] = eth(0x86dd, ipv6a(17, udp(), hlim=1))
    s['ipv6-fwd-toobig'] = eth(0x86dd, ipv6a(17, udp(data=bytes(1500))))
    s['ipv6-plen-big'] = eth(0x86dd, ipv6a(17, udp(), plen=400))
    s['ipv6-src-mcast'] = eth(0x86dd, ipv6a(17, udp(), src=bytes([0xff, 2]) + bytes(13) + b'\1'))
    s['ipv6-echo-r0'] = eth(0x86dd, ipv6a(58, icmp6(128, b'\0\1\0\1ping', A6, R0), dst=R0))
    s['ipv6-hbh-badopt'] = eth(0x86dd, ipv6a(0, bytes([17, 0, 0x80, 4]) + bytes(4) + udp()))
    s['ipv6-hbh-overrun'] = eth(0x86dd, ipv6a(0, bytes([17, 0, 1, 9]) + bytes(4) + udp()))
    s['ipv6-dst-chain-r0'] = eth(0x86dd, ipv6a(60, b''.join(bytes([60, 0, 1, 4]) + bytes(4)
                                                           for _ in range(30)) +
                                               bytes([58, 0, 1, 4]) + bytes(4) +
                                               icmp6(128, b'\0\1\0\1', A6, R0), dst=R0))
    s['ipv6-hbh-second'] = eth(0x86dd, ipv6a(60, bytes([0, 0, 1, 4]) + bytes(4) +
                                             bytes([58, 0, 1, 4]) + bytes(4), dst=R0))
    s['ipv6-routing-r0'] = eth(0x86dd, ipv6a(43, bytes([58, 2, 0, 1]) + bytes(4) + R0, dst=R0))
    ns = bytes(4) + R0 + bytes([1, 1]) + SRC
    s['ipv6-ns-r0'] = eth(0x86dd, ipv6a(58, icmp6(135, ns, A6, SOL_R0), dst=SOL_R0, hlim=255),
                          dst=bytes([0x33, 0x33, 0xff, 0, 0, 1]))
    s['ipv6-ns-hlim'] = eth(0x86dd, ipv6a(58, icmp6(135, ns, A6, SOL_R0), dst=SOL_R0),
                            dst=bytes([0x33, 0x33, 0xff, 0, 0, 1]))
    s['ipv6-ns-badopt'] = eth(0x86dd, ipv6a(58, icmp6(135, bytes(4) + R0 + bytes([1, 0]) + SRC,
                                                      A6, SOL_R0), dst=SOL_R0, hlim=255),
                              dst=bytes([0x33, 0x33, 0xff, 0, 0, 1]))
    s['ipv6-na-b'] = eth(0x86dd, ipv6a(58, icmp6(136, bytes([0x60, 0, 0, 0]) + B6 + bytes([2, 1]) + SRC,
                                                 B6, R0), src=B6, dst=R0, hlim=255))
    s['ipv6-dad-ns'] = eth(0x86dd, ipv6a(58, icmp6(135, bytes(4) + R0, bytes(16), SOL_R0),
                                         src=bytes(16), dst=SOL_R0, hlim=255),
                           dst=bytes([0x33, 0x33, 0xff, 0, 0, 1]))
    s['ipv4-fwd'] = eth(0x0800, struct.pack('!BBHHHBBH4s4s', 0x45, 0, 33, 1, 0, 64, 17, 0,
                                            bytes([198, 18, 0, 2]), bytes([198, 19, 0, 2])) + udp())
    s['arp-req-r0'] = eth(0x0806, struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, SRC,
                                              bytes([198, 18, 0, 2]), bytes(6),
                                              bytes([198, 18, 0, 1])), dst=b'\xff' * 6)
    s['vlan-ipv4'] = eth(0x8100, struct.pack('!HH', 10, 0x0800) + ipv4(17, udp()))
    s['qinq-ipv6'] = eth(0x88a8, struct.pack('!HH', 10, 0x8100) +
                         struct.pack('!HH', 20, 0x86dd) + ipv6(17, udp()))
    s['vlan-deep'] = eth(0x8100, b''.join(struct.pack('!HH', i, 0x8100) for i in range(8)))
    s['vlan-trunc'] = eth(0x8100, b'\x00')
    s['arp'] = eth(0x0806, struct.pack('!HHBBH6s4s6s4s', 1, 0x0800, 6, 4, 1, SRC,
                                       bytes([10, 0, 0, 2]), bytes(6), bytes([10, 0, 0, 1])),
                   dst=b'\xff' * 6)
    s['llc'] = eth(46, bytes([0x42, 0x42, 0x03]) + bytes(43))
    s['ipx-raw'] = eth(46, b'\xff\xff' + bytes(44))
    s['mcast-ipv6'] = eth(0x86dd, ipv6(17, udp()), dst=bytes([0x33, 0x33, 0, 0, 0, 1]))
    s['otherhost'] = eth(0x0800, ipv4(17, udp()), dst=bytes([0x02, 9, 9, 9, 9, 9]))
    s['runt-13'] = bytes(13)
    s['eth-only'] = eth(0x0800, b'')
    s['empty'] = b''
    s['jumbo'] = eth(0x0800, ipv4(17, udp(data=bytes(2900))))
    return s


def op(code, a=0, b=0):
    return struct.pack('<BHH', code, a, b)


def skb_seeds():
    P, PUSH, PULL, MAYPULL, TRIM, CLONE, FREE, EXPAND, LIN, FRAG, WRITE, COPY, HDR, COW = range(14)
    s = {}
    hdr = lambda hr, n: struct.pack('<BH', hr, n)
    s['put-push-pull'] = hdr(64, 100) + op(P, 50) + op(PUSH, 14) + op(PULL, 20) + op(TRIM, 60)
    s['frags'] = hdr(32, 64) + op(FRAG, 100, 1000) + op(FRAG, 4000, 500) + op(MAYPULL, 600) + \
        op(PULL, 1200) + op(LIN) + op(HDR, 10, 40)
    s['clone-write'] = hdr(64, 200) + op(CLONE) + op(WRITE, 10, 50) + op(0x80 | WRITE, 0, 30) + \
        op(0x80 | PUSH, 8) + op(FREE) + op(WRITE, 100, 100)
    s['clone-frags-trim'] = hdr(16, 32) + op(FRAG, 0, 2000) + op(FRAG, 100, 3000) + op(CLONE) + \
        op(TRIM, 1000) + op(0x80 | PULL, 1500) + op(0x80 | LIN) + op(0x10 | FREE) + op(COPY)
    s['expand'] = hdr(0, 10) + op(EXPAND, 128, 1000) + op(P, 900) + op(PUSH, 100) + \
        op(COW, 300) + op(0x10 | COPY)
    s['many-frags'] = hdr(8, 8) + b''.join(op(FRAG, i * 100, 300) for i in range(20)) + \
        op(MAYPULL, 3000) + op(TRIM, 10) + op(LIN)
    s['clone-expand'] = hdr(64, 300) + op(CLONE) + op(EXPAND, 0, 0) + op(0x80 | EXPAND, 64, 64) + \
        op(0x80 | P, 40) + op(HDR, 290, 20)
    s['pull-all'] = hdr(2, 1000) + op(FRAG, 5, 77) + op(PULL, 4000) + op(PUSH, 2) + op(TRIM, 0)
    return s


def write(d, seeds):
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


write(os.path.join(HERE, 'corpus', 'pkt'), pkt_seeds())
write(os.path.join(HERE, 'corpus', 'skb'), skb_seeds())
