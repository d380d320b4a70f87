# SPDX-License-Identifier: GPL-2.0
"""examples/progs/xdp_proto_stats.c tested as an xdp-tutorial program
author would test it: parse Ethernet/IPv4/IPv6/TCP/UDP, rewrite (TTL and
hop limit decremented, the IPv4 checksum kept valid; UDP echo answered with
XDP_TX and the MACs swapped), count packets and bytes per protocol in a
map, and explain each drop with bpf_printk and a perf record."""
import struct

import pytest

import uxdp

scapy = pytest.importorskip("scapy.all", reason="python3-scapy is not installed")
from scapy.all import IP, TCP, UDP, Ether, IPv6, Raw  # noqa: E402

ETH = dict(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
# enum proto and enum drop_reason of the program
OTHER, IPV4, IPV6, PTCP, PUDP, ICMP = range(6)
TELNET, TTL_EXPIRED, TRUNCATED = 1, 2, 3
# struct drop_event { u32 reason; u8 l4_proto; u8 ttl; u16 dport; u32 len; }
DROP_EVENT = struct.Struct("<IBBHI")


@pytest.fixture
def prog(open_obj):
    obj = open_obj("xdp_proto_stats")
    obj.maps["events"][0] = 0      # CPU 0's slot takes records from now on
    return obj


def stats(obj):
    """{proto: (packets, bytes)} of the counters that moved."""
    m = obj.maps["stats"].typed(key="u32", value="QQ")
    return {k: v for k, v in m.items() if v != (0, 0)}


def test_ipv4_tcp_passes_with_ttl_decremented(prog):
    pkt = Ether(**ETH) / IP(src="198.18.0.1", dst="198.19.0.1", ttl=64) / TCP(dport=80)
    res = prog.program.run(pkt)
    assert res.verdict == "XDP_PASS"
    out = Ether(res.data)
    assert out[IP].ttl == 63
    # the incremental update left a valid checksum: scapy recomputes it
    chk = out[IP].chksum
    del out[IP].chksum
    assert IP(bytes(out[IP]))[IP].chksum == chk
    assert stats(prog) == {IPV4: (1, len(pkt)), PTCP: (1, len(pkt))}
    assert prog.maps["events"].records() == []


def test_ipv6_udp_echo_is_sent_back(prog):
    pkt = Ether(**ETH) / IPv6(src="2001:2::1", dst="2001:2::2", hlim=5) / UDP(dport=7) / b"ping"
    res = prog.program.run(pkt)
    assert res.verdict == "XDP_TX"
    out = Ether(res.data)
    assert (out.src, out.dst) == (ETH["dst"], ETH["src"])
    assert out[IPv6].hlim == 4 and bytes(out[UDP].payload) == b"ping"
    assert stats(prog) == {IPV6: (1, len(pkt)), PUDP: (1, len(pkt))}


def test_drops_are_explained(prog):
    telnet = Ether(**ETH) / IP(src="198.18.0.1", dst="198.19.0.1") / TCP(dport=23)
    expired = Ether(**ETH) / IP(src="198.18.0.1", dst="198.19.0.1", ttl=1) / UDP(dport=53)
    runt = Ether(**ETH, type=0x0800) / Raw(b"\x45" * 10)
    uxdp.trace_lines()                      # forget older lines
    verdicts = [prog.program.run(p).verdict for p in (telnet, expired, runt)]
    assert verdicts == ["XDP_DROP"] * 3
    events = [DROP_EVENT.unpack(data) for _cpu, data in prog.maps["events"].records()]
    assert [(e[0], e[1], e[3]) for e in events] == [(TELNET, 6, 23), (TTL_EXPIRED, 17, 0),
                                                    (TRUNCATED, 0, 0)]
    assert events[1][2] == 1                # the TTL the packet arrived with
    lines = uxdp.trace_lines()
    assert len(lines) == 3 and "drop reason 1 proto 6 dport 23" in lines[0]
    # counted before the drop decision: IPv4 twice, TCP once (UDP came after the TTL check)
    assert stats(prog) == {IPV4: (2, len(telnet) + len(expired)), PTCP: (1, len(telnet))}


def test_other_ethertypes_pass_uncounted_by_l3(prog):
    pkt = Ether(**ETH, type=0x88cc) / Raw(b"\0" * 46)
    assert prog.program.run(pkt).verdict == "XDP_PASS"
    assert stats(prog) == {OTHER: (1, len(pkt))}


def test_same_as_kernel(prog, progs_dir, kernel):
    """Every packet above gives the kernel's verdict and bytes."""
    import os

    pkts = [Ether(**ETH) / IP(src="198.18.0.1", dst="198.19.0.1", ttl=64) / TCP(dport=80),
            Ether(**ETH) / IPv6(src="2001:2::1", dst="2001:2::2") / UDP(dport=7) / b"ping",
            Ether(**ETH) / IP(src="198.18.0.1", dst="198.19.0.1") / TCP(dport=23),
            Ether(**ETH, type=0x88cc) / Raw(b"\0" * 46)]
    for pkt in pkts:
        res = prog.program.run(pkt)
        retval, data = kernel.run(os.path.join(progs_dir, "xdp_proto_stats.o"), bytes(pkt))
        assert (res.retval, res.data) == (retval, data), pkt.summary()
