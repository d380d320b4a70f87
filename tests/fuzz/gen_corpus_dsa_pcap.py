#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Regenerate the hand-made seed corpora corpus/dsa and corpus/pcap.

corpus/dsa: for fuzz_dsa.c, 3 bytes (tagger index in DSA_TAGGERS order:
sja1105, dsa, edsa, ocelot-8021q; how: bit 0 clone, bit 1 page frag;
split) and a frame as the conduit receives it: tagged by the chip from
each front port (tag_8021q standalone VIDs with TPID 0xDADB or 0x8100,
Marvell FORWARD tags, EDSA), plus short frames, wrong TPIDs, VBID and
out-of-range VIDs, other switch ids and ports, FROM_CPU and FRAME2REG
commands, 802.1Q-tagged DSA frames.
corpus/pcap: capture files for fuzz_pcap.c: classic pcap in micro- and
nanosecond and both byte orders, pcapng (several blocks), runts,
snaplen-truncated records, a record longer than on the wire, a file cut
short, a jumbo frame, a non-Ethernet link type, an empty file.
Usage: python3 gen_corpus_dsa_pcap.py   (writes next to this file)
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
DA = bytes.fromhex('00049f06000a')
SA = bytes.fromhex('001f7b6301d4')


def ip_frame(n=46):
    return DA + SA + b"\x08\x00" + bytes([0x45]) + bytes(k & 0xff for k in range(1, n))


def vid_8021q(sw, port, rsv=3, vbid=0):
    return (rsv << 10) | ((sw & 7) << 6) | ((vbid >> 2 & 1) << 9) | ((vbid & 3) << 4) | (port & 15)


def tag_8021q(frame, tpid, vid, pcp=0):
    return frame[:12] + struct.pack('!HH', tpid, (pcp << 13) | vid) + frame[12:]


def tag_dsa(frame, cmd, dev, port, extra=False, code=0, vlan=None):
    if vlan is not None:	# an 802.1Q frame: the VLAN header becomes the tag
        b2 = vlan >> 8 & 0x0f
        tag = bytes([cmd << 6 | 0x20 | dev, port << 3, b2, vlan & 0xff])
        body = frame[12:]
    else:
        tag = bytes([cmd << 6 | dev, port << 3 | (code >> 1 & 3) << 1, (code & 1) << 4, 0])
        body = frame[12:]
    return frame[:12] + (b'\xda\xda\x00\x00' if extra else b'') + tag + body


def dsa_seeds():
    f = ip_frame()
    s = []
    for p in range(4):
        s.append(('sja1105_port%d' % p, 0, tag_8021q(f, 0xDADB, vid_8021q(0, p))))
        s.append(('ocelot_port%d' % p, 3, tag_8021q(f, 0x8100, vid_8021q(0, p))))
        s.append(('dsa_port%d' % p, 1, tag_dsa(f, 3, 0, p)))
        s.append(('edsa_port%d' % p, 2, tag_dsa(f, 3, 0, p, extra=True)))
    s += [
        ('sja1105_other_switch', 0, tag_8021q(f, 0xDADB, vid_8021q(1, 0))),
        ('sja1105_port_out_of_range', 0, tag_8021q(f, 0xDADB, vid_8021q(0, 9))),
        ('sja1105_vbid', 0, tag_8021q(f, 0xDADB, vid_8021q(0, 0, vbid=5))),
        ('sja1105_plain_vid', 0, tag_8021q(f, 0xDADB, 100)),
        ('sja1105_wrong_tpid', 0, tag_8021q(f, 0x8100, vid_8021q(0, 1))),
        ('sja1105_untagged', 0, f),
        ('sja1105_short', 0, f[:14] + b'\xda'),
        ('ocelot_wrong_tpid', 3, tag_8021q(f, 0x88a8, vid_8021q(0, 1))),
        ('ocelot_pcp', 3, tag_8021q(f, 0x8100, vid_8021q(0, 2), pcp=5)),
        ('dsa_to_cpu_trap', 1, tag_dsa(f, 0, 0, 1, code=0)),
        ('dsa_to_cpu_frame2reg', 1, tag_dsa(f, 0, 0, 1, code=1)),
        ('dsa_to_cpu_reserved', 1, tag_dsa(f, 0, 0, 1, code=6)),
        ('dsa_from_cpu', 1, tag_dsa(f, 1, 0, 1)),
        ('dsa_to_sniffer', 1, tag_dsa(f, 2, 0, 1)),
        ('dsa_other_device', 1, tag_dsa(f, 3, 5, 1)),
        ('dsa_port_out_of_range', 1, tag_dsa(f, 3, 0, 20)),
        ('dsa_tagged_8021q', 1, tag_dsa(f, 3, 0, 2, vlan=0x123)),
        ('dsa_short', 1, f[:14]),
        ('edsa_wrong_ethertype', 2, f[:12] + b'\xda\xdb\x00\x00' + tag_dsa(f, 3, 0, 1)[12:]),
        ('edsa_tagged_8021q', 2, tag_dsa(f, 3, 0, 3, extra=True, vlan=0x0ff)),
        ('edsa_short', 2, f[:12] + b'\xda\xda\x00'),
    ]
    out = []
    for name, t, frame in s:
        out.append((name, bytes([t, 0, 0]) + frame))
        if name.endswith('port1') or 'tagged' in name:
            out.append((name + '_clone_frag', bytes([t, 3, 4]) + frame))
    return out


def pcap(recs, linktype=1, nano=False, big=False, snaplen=65535):
    e = '>' if big else '<'
    b = struct.pack(e + 'IHHiIII', 0xa1b23c4d if nano else 0xa1b2c3d4, 2, 4, 0, 0, snaplen,
                    linktype)
    for i, r in enumerate(recs):
        data, caplen, length = r if isinstance(r, tuple) else (r, len(r), len(r))
        b += struct.pack(e + 'IIII', 1700000000 + i, (i * 1000 + 7) * (1000 if nano else 1),
                         caplen, length) + data
    return b


def pcapng(recs, linktype=1, tsresol=6):
    def block(t, body):
        body += b'\0' * (-len(body) % 4)
        n = len(body) + 12
        return struct.pack('<II', t, n) + body + struct.pack('<I', n)
    b = block(0x0a0d0d0a, struct.pack('<IHHq', 0x1a2b3c4d, 1, 0, -1))
    b += block(1, struct.pack('<HHI', linktype, 0, 65535) +
               struct.pack('<HHB3x', 9, 1, tsresol) + struct.pack('<HH', 0, 0))
    for i, r in enumerate(recs):
        ts = (1700000000 + i) * 10 ** tsresol + i
        b += block(6, struct.pack('<IIIII', 0, ts >> 32, ts & 0xffffffff, len(r), len(r)) + r)
    b += block(3, struct.pack('<I', len(recs[0])) + recs[0])	# a simple packet block
    return b


def pcap_seeds():
    f = [ip_frame(46), ip_frame(100), DA + SA + b'\x08\x06' + bytes(28), ip_frame(1486)]
    cut = pcap(f)
    return [
        ('classic_usec', pcap(f)),
        ('classic_nsec', pcap(f, nano=True)),
        ('classic_big_endian', pcap(f, big=True)),
        ('classic_jumbo', pcap([ip_frame(9000 - 15), ip_frame(20000)])),
        ('classic_runt', pcap([f[0], f[0][:10], f[1]])),
        ('classic_snaplen', pcap([f[0], (f[1][:40], 40, len(f[1]))], snaplen=40)),
        ('classic_overlong', pcap([(f[0], len(f[0]), 30)])),
        ('classic_cut', cut[:len(cut) - 50]),
        ('classic_raw_linktype', pcap([f[0][14:]], linktype=101)),
        ('classic_dsa_linktype', pcap([f[0]], linktype=284)),
        ('classic_empty', pcap([])),
        ('pcapng_usec', pcapng(f)),
        ('pcapng_nsec', pcapng(f, tsresol=9)),
        ('pcapng_raw_linktype', pcapng([f[0][14:]], linktype=101)),
        ('not_a_capture', b'GET / HTTP/1.0\r\n\r\n'),
    ]


def write(d, seeds):
    path = os.path.join(HERE, 'corpus', d)
    os.makedirs(path, exist_ok=True)
    for name, data in seeds:
        with open(os.path.join(path, name), 'wb') as o:
            o.write(data)


if __name__ == '__main__':
    write('dsa', dsa_seeds())
    write('pcap', pcap_seeds())
