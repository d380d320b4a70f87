# SPDX-License-Identifier: GPL-2.0
"""The example programs of examples/progs, driven from Python with scapy
packets: verdicts, maps, rewritten frames, bpf_printk() lines, errors,
coverage, and the same packets through the kernel when running as root."""
import ipaddress
import os
import struct

import pytest

import uxdp

scapy = pytest.importorskip("scapy.all", reason="python3-scapy is not installed")
from scapy.all import ICMP, IP, TCP, UDP, Dot1Q, Ether, IPv6, Raw  # noqa: E402

ETH = dict(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")


def udp(dport=53, src="10.0.0.1", dst="10.0.0.2", payload=b"x" * 18):
    return Ether(**ETH) / IP(src=src, dst=dst) / UDP(sport=1234, dport=dport) / payload


# ---- verdicts ------------------------------------------------------------------


def test_xdp_drop(open_obj):
    obj = open_obj("xdp_drop")
    res = obj.programs["xdp_drop_prog"].run(udp())
    assert res.verdict == "XDP_DROP" and res.retval == uxdp.XDP_DROP


def test_xdp_pass_returns_the_frame(open_obj):
    pkt = udp()
    res = open_obj("xdp_pass").program.run(pkt, repeat=100)
    assert res.verdict == "XDP_PASS"
    assert res.data == bytes(pkt)
    assert res.duration >= 0


# ---- xdp1: per-protocol counters (PERCPU_ARRAY) ---------------------------------


def test_xdp1_counts_per_protocol(open_obj):
    obj = open_obj("xdp1")
    prog = obj.programs["xdp_prog1"]
    rxcnt = obj.maps["rxcnt"].typed(key="u32", value="u64")
    frames = {17: udp(), 6: Ether(**ETH) / IP() / TCP(), 1: Ether(**ETH) / IP() / ICMP(),
              58: Ether(**ETH) / IPv6(nh=58) / Raw(b"\0" * 8),
              0: Ether(**ETH, type=0x88cc) / Raw(b"\0" * 46)}
    for proto, pkt in frames.items():
        for _ in range(proto % 5 + 1):
            assert prog.run(pkt).verdict == "XDP_DROP"
    for proto in frames:
        assert rxcnt.sum(proto) == proto % 5 + 1, proto
    assert rxcnt.sum(2) == 0
    assert isinstance(rxcnt[17], list) and len(rxcnt[17]) == rxcnt.nr_cpus


def test_xdp1_vlan(open_obj):
    obj = open_obj("xdp1")
    obj.program.run(Ether(**ETH) / Dot1Q(vlan=5) / Dot1Q(vlan=6) / IP() / UDP())
    assert obj.maps["rxcnt"].typed("u32", "u64").sum(17) == 1


def test_map_dict_api(open_obj):
    obj = open_obj("xdp_rewrite_addr")
    rw = obj.maps["rewrite"]
    assert len(rw) == 0 and list(rw) == []
    key = ipaddress.IPv4Address("10.0.0.1").packed
    rw[key] = ipaddress.IPv4Address("192.0.2.1").packed
    assert key in rw and rw[key] == ipaddress.IPv4Address("192.0.2.1").packed
    assert len(rw) == 1 and list(rw.items()) == [(key, rw[key])]
    del rw[key]
    assert key not in rw
    with pytest.raises(KeyError):
        del rw[key]
    with pytest.raises(ValueError):
        rw[b"\0\0\0"] = key  # 3 bytes for a 4-byte key
    typed = rw.typed(key="be32", value="be32")
    typed[0x0A000001] = 0xC0000201
    assert rw[key] == bytes([192, 0, 2, 1])


# ---- xdp_rewrite_addr: NAT with incremental checksums -------------------------


@pytest.mark.parametrize("l4", ["udp", "tcp"])
def test_rewrite_addr_nat(open_obj, l4):
    obj = open_obj("xdp_rewrite_addr")
    obj.maps["rewrite"].typed("be32", "be32")[int(ipaddress.IPv4Address("10.0.0.1"))] = \
        int(ipaddress.IPv4Address("198.51.100.7"))
    l4hdr = UDP(sport=1, dport=2) if l4 == "udp" else TCP(sport=1, dport=2)
    pkt = Ether(**ETH) / IP(src="10.0.0.1", dst="10.0.0.2") / l4hdr / Raw(b"hello")
    res = obj.programs["xdp_rewrite_tx"].run(pkt)
    assert res.verdict == "XDP_TX"
    out = Ether(res.data)
    assert out[IP].src == "198.51.100.7" and out[IP].dst == "10.0.0.2"
    assert out.src == ETH["dst"] and out.dst == ETH["src"]  # MACs swapped for TX
    # the incremental checksums equal freshly computed ones
    fresh = Ether(bytes(out))
    del fresh[IP].chksum
    del fresh[IP].payload.chksum
    fresh = Ether(bytes(fresh))
    assert out[IP].chksum == fresh[IP].chksum
    assert out[IP].payload.chksum == fresh[IP].payload.chksum


def test_rewrite_addr_untouched_passes(open_obj):
    obj = open_obj("xdp_rewrite_addr")
    pkt = udp()
    res = obj.programs["xdp_rewrite_tx"].run(pkt)
    assert res.verdict == "XDP_PASS" and res.data == bytes(pkt)


def test_rewrite_redirect_empty_devmap(open_obj):
    obj = open_obj("xdp_rewrite_addr")
    obj.maps["rewrite"][bytes([10, 0, 0, 1])] = bytes([10, 9, 9, 9])
    res = obj.programs["xdp_rewrite_redirect"].run(udp())
    # tx_port[0] is empty: bpf_redirect_map() returns its flags (0), XDP_ABORTED
    assert res.verdict == "XDP_ABORTED" and res.redirect is None
    assert Ether(res.data)[IP].src == "10.9.9.9"  # rewritten before the redirect


# ---- xdp_drop_udp_port: configuration map + per-CPU counters ------------------


def test_drop_udp_port(open_obj):
    obj = open_obj("xdp_drop_udp_port")
    prog = obj.program
    cfg = obj.maps["drop_cfg"].typed("u32", "u32")
    cnt = obj.maps["drop_cnt"].typed("u32", "u64")
    assert prog.run(udp(dport=9)).verdict == "XDP_PASS"  # port 0: drop nothing
    cfg[0] = 9
    assert prog.run(udp(dport=9)).verdict == "XDP_DROP"
    assert prog.run(udp(dport=10)).verdict == "XDP_PASS"
    frag = Ether(**ETH) / IP(frag=3) / UDP(dport=9)
    assert prog.run(frag).verdict == "XDP_PASS"
    assert (cnt.sum(0), cnt.sum(1)) == (1, 3)


# ---- bpf_printk, errors ---------------------------------------------------------


def test_trace_lines(open_obj):
    uxdp.trace_lines()  # drain what earlier tests left
    pkt = udp()
    open_obj("xdp_helpers").program.run(pkt)
    lines = uxdp.trace_lines()
    assert any(f"xdp_helpers: len {len(bytes(pkt))}" in ln for ln in lines), lines
    assert uxdp.trace_lines() == []


def test_errors(progs_dir, tmp_path):
    with pytest.raises(uxdp.Error) as e:
        uxdp.Object(tmp_path / "missing.o")
    assert e.value.errno == 2 and "missing.o" in str(e.value)
    bad = tmp_path / "bad.o"
    bad.write_bytes(b"not an ELF file")
    with pytest.raises(uxdp.Error) as e:
        uxdp.Object(bad)
    assert e.value.errno == 22
    with uxdp.Object(os.path.join(progs_dir, "xdp_drop.o")) as obj:
        prog = obj.program
        with pytest.raises(uxdp.Error) as e:
            prog.run(b"\0" * 10)  # under ETH_HLEN
        assert e.value.errno == 22
    with pytest.raises(uxdp.Error) as e:
        prog.run(bytes(64))  # the object is closed
    assert e.value.errno == 9


def test_struct_values(open_obj):
    import ctypes

    class Pair(ctypes.Structure):
        _fields_ = [("a", ctypes.c_uint32), ("b", ctypes.c_uint32)]

    obj = open_obj("xdp_drop_udp_port")
    with pytest.raises(ValueError):
        obj.maps["drop_cfg"].typed(value=Pair)  # 8 bytes for a 4-byte value
    m = obj.maps["drop_cfg"].typed(key="u32", value="<HH")
    m[0] = (9, 0)
    assert m[0] == (9, 0)
    assert obj.maps["drop_cfg"][0] == struct.pack("<HH", 9, 0)


# ---- coverage ----------------------------------------------------------------


def _line_of(path, text):
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if text in line:
                return n
    raise AssertionError(f"{text!r} not in {path}")


def test_coverage_lines(open_obj, tmp_path):
    obj = open_obj("xdp1")
    prog = obj.program
    with prog.coverage():
        prog.run(udp())
    hits = prog.lines_hit()
    src = next(f for f, _ in hits if f.endswith("xdp1.c"))
    # parse_ipv4() and parse_ipv6() are inlined: their lines are in the program
    v4, v6 = _line_of(src, "return iph->protocol;"), _line_of(src, "return ip6h->nexthdr;")
    assert hits[(src, v4)] == 1 and hits[(src, v6)] == 0
    out = tmp_path / "xdp1.info"
    uxdp.write_lcov(out, [prog], test_name="pytest")
    text = out.read_text()
    assert f"SF:{src}" in text and "FNDA:1,xdp_prog1" in text
    assert f"DA:{v4},1" in text and f"DA:{v6},0" in text
    # coverage off: counters kept, no more counting
    prog.run(udp())
    assert prog.lines_hit() == hits


# ---- the kernel (root only) ---------------------------------------------------

NAT = {"rewrite": {bytes([10, 0, 0, 1]): bytes([198, 51, 100, 7])}}
KERNEL_CASES = [
    ("xdp_drop", None, lambda: udp(), None),
    ("xdp_pass", None, lambda: udp(), None),
    ("xdp1", None, lambda: Ether(**ETH) / IP() / TCP(), None),
    ("xdp_rewrite_addr", "xdp_rewrite_tx", lambda: udp(), None),
    ("xdp_rewrite_addr", "xdp_rewrite_tx", lambda: udp(), NAT),
    ("xdp_rewrite_addr", "xdp_rewrite_tx",
     lambda: Ether(**ETH) / IP(src="10.0.0.1") / TCP() / Raw(b"abc"), NAT),
    ("xdp_drop_udp_port", None, lambda: udp(dport=9), None),
    ("xdp_drop_udp_port", None, lambda: udp(dport=9), {"drop_cfg": {bytes(4): bytes([9, 0, 0, 0])}}),
    ("xdp_hdr_parse", None, lambda: udp(), None),
    ("xdp_hdr_parse", None, lambda: udp(dport=9), None),
    ("xdp_hdr_parse", None, lambda: Ether(**ETH) / IP(ttl=1) / TCP(dport=80), None),
    ("xdp_hdr_parse", None, lambda: Ether(**ETH) / IPv6() / TCP(dport=7), None),
]


@pytest.mark.parametrize("name,prog,make,maps", KERNEL_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(KERNEL_CASES)])
def test_same_as_kernel(open_obj, progs_dir, kernel, name, prog, make, maps):
    pkt = make()
    obj = open_obj(name)
    for m, elems in (maps or {}).items():
        for k, v in elems.items():
            obj.maps[m][k] = v
    ours = (obj.programs[prog] if prog else obj.program).run(pkt)
    if maps:
        assert ours.verdict != "XDP_PASS"  # the map changed what the program does
    retval, data = kernel.run(os.path.join(progs_dir, name + ".o"), pkt, prog, maps)
    assert (ours.retval, ours.data) == (retval, data)


def test_coverage_follows_tail_calls(open_obj, tmp_path):
    obj = open_obj("xdp_tailcall")
    progs = obj.programs
    table = obj.maps["jmp_table"].typed("u32", "u32")
    table[0] = progs["xdp_tail_ipv4"]
    table[1] = progs["xdp_tail_ipv6"].id
    covered = [progs[n] for n in ("xdp_tail_entry", "xdp_tail_ipv4", "xdp_tail_ipv6")]
    for p in covered:
        p.coverage_enable()
    for _ in range(3):
        assert progs["xdp_tail_entry"].run(udp()).verdict == "XDP_DROP"
    for p in covered:
        p.coverage_disable()
    out = tmp_path / "tail.info"
    uxdp.write_lcov(out, covered)
    fnda = {ln.split(",")[1]: int(ln[5:].split(",")[0])
            for ln in out.read_text().splitlines() if ln.startswith("FNDA:")}
    assert fnda == {"xdp_tail_entry": 3, "xdp_tail_ipv4": 3, "xdp_tail_ipv6": 0}


def test_coverage_errors(open_obj, tmp_path):
    prog = open_obj("xdp_drop").program
    with pytest.raises(uxdp.Error) as e:
        uxdp.write_lcov(tmp_path / "x.info", [prog])  # never enabled
    assert e.value.errno == 61 and "never enabled" in str(e.value)
    with prog.coverage():
        prog.run(udp())
    with pytest.raises(uxdp.Error) as e:
        uxdp.write_lcov(tmp_path / "x.info", [])
    assert e.value.errno == 22
    with pytest.raises(uxdp.Error) as e:
        uxdp.write_lcov(tmp_path / "x.info", [prog], test_name="not a name")
    assert e.value.errno == 22
    with pytest.raises(uxdp.Error) as e:
        uxdp.write_lcov(tmp_path / "no" / "dir" / "x.info", [prog])
    assert e.value.errno == 2
    with pytest.raises(uxdp.Error) as e:
        uxdp.write_lcov(tmp_path / "x.info", [999999])
    assert e.value.errno == 2
    counts, branches = prog.coverage_counts()
    assert counts[0] == 1 and len(branches) == len(counts)


@pytest.mark.parametrize("pkt", [udp(), Ether(**ETH) / IPv6() / UDP(),
                                 Ether(**ETH) / Dot1Q() / IP() / TCP()],
                         ids=["udp4", "udp6", "vlan-tcp"])
def test_coverage_counters_consistent(open_obj, pkt):
    prog = open_obj("xdp1").program
    with prog.coverage():
        for _ in range(4):
            prog.run(pkt)
    counts, branches = prog.coverage_counts()
    assert counts[0] == 4
    jumps = [(i, f, t) for i, (f, t) in enumerate(branches) if f or t]
    assert jumps
    for i, fall, taken in jumps:
        # every run of a jump goes one way; a fall-through runs the next slot
        assert fall + taken == counts[i], i
        assert fall <= counts[i + 1], i


def test_checker_log(tmp_path):
    import shutil
    import subprocess
    import sysconfig

    clang = shutil.which("clang")
    if not clang:
        pytest.skip("clang is not installed")
    src = tmp_path / "unchecked.c"
    src.write_text('#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n'
                   'SEC("xdp") int unchecked(struct xdp_md *ctx)\n'
                   '{ return *(unsigned char *)(long)ctx->data; }\n'
                   'char _license[] SEC("license") = "GPL";\n')
    multiarch = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
    subprocess.run([clang, "-O2", "-g", "-target", "bpf", f"-I/usr/include/{multiarch}",
                    "-c", str(src), "-o", str(tmp_path / "unchecked.o")], check=True)
    with pytest.raises(uxdp.Error) as e:
        uxdp.Object(tmp_path / "unchecked.o")
    assert e.value.errno == 13  # EACCES: rejected by the checker
    assert "invalid access to packet" in e.value.log, e.value.log
