#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A capture through uxdp and back: an input pcap (written here by
# a small generator: UDP, TCP, ICMP, a zero UDP checksum, IP options, a
# non-first fragment, frames with addresses not to rewrite, ARP, IPv6) is
# read by a pcap device; examples/progs/xdp_rewrite_addr.o rewrites the
# IPv4 addresses with incremental checksum updates and swaps the MACs, as
# native XDP and as generic XDP, sending by XDP_TX (the device's own `out`
# file) or by devmap redirect to a pcap `out` device. tshark reads every
# output back with checksum validation on and must find exactly the
# expected frames (count, addresses, MACs, timestamps, checksums good);
# the four paths and a pcapng input give byte-identical files, and two
# runs of the same script give byte-identical files (determinism). The
# same capture forwarded by uxdp's IPv4 stack (TTL 63, the neighbour's
# MAC) is checked the same way. Bad inputs: a file that is no capture and
# a link type that is not Ethernet fail `link add` with exit status 2 and
# the file named; malformed records are dropped and counted by reason.
# Usage: pcap_rewrite.sh UXDP PROGS_DIR
set -euo pipefail
UXDP=$1
PROGS=$2
for t in jq tshark python3; do
	command -v $t >/dev/null || { echo "$t missing (scripts/deps.sh installs it)"; exit 77; }
done
[ -f "$PROGS/xdp_rewrite_addr.o" ] || { echo "$PROGS/xdp_rewrite_addr.o not built (clang?)"; exit 77; }
T=$(mktemp -d /tmp/uxdp-pcap-rewrite.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/gen.py" <<'EOF'
import struct, sys

def csum(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff

def ip4(a):
    return bytes(int(x) for x in a.split('.'))

MAC_A = bytes.fromhex('020000000a01')
MAC_B = bytes.fromhex('020000000b02')
CAP0 = bytes.fromhex('027578640001')	# uxdp's first device (alloc_netdev)

def eth(t, payload, dst=MAC_B, src=MAC_A):
    return dst + src + struct.pack('!H', t) + payload

def ipv4(src, dst, proto, l4, ident=1, frag=0, opts=b''):
    ihl = 5 + len(opts) // 4
    h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, 0, ihl * 4 + len(l4), ident, frag, 64, proto,
                    0, ip4(src), ip4(dst)) + opts
    return h[:10] + struct.pack('!H', csum(h)) + h[12:] + l4

def pseudo(src, dst, proto, l4):
    return ip4(src) + ip4(dst) + struct.pack('!BBH', 0, proto, len(l4))

def udp(src, dst, sp, dp, payload, zero=False):
    u = struct.pack('!HHHH', sp, dp, 8 + len(payload), 0) + payload
    if not zero:
        u = u[:6] + struct.pack('!H', csum(pseudo(src, dst, 17, u) + u) or 0xffff) + u[8:]
    return u

def tcp(src, dst, sp, dp, payload):
    t = struct.pack('!HHIIBBHHH', sp, dp, 1000, 0, 5 << 4, 0x18, 65535, 0, 0) + payload
    return t[:16] + struct.pack('!H', csum(pseudo(src, dst, 6, t) + t)) + t[18:]

def icmp_echo(payload):
    m = struct.pack('!BBHHH', 8, 0, 0, 7, 1) + payload
    return m[:2] + struct.pack('!H', csum(m)) + m[4:]

A, B, C, D = '198.18.0.10', '198.19.0.20', '198.18.0.99', '198.19.0.99'

def frames(dst=MAC_B):
    f = []
    for i in range(8):
        pl = bytes((i + k) & 0xff for k in range(18 + i * 37 % 300))
        f.append(eth(0x0800, ipv4(A, B, 17, udp(A, B, 40000 + i, 9, pl), ident=i + 1), dst))
    f.append(eth(0x0800, ipv4(A, B, 6, tcp(A, B, 40000, 9, b'GET / HTTP/1.0\r\n\r\n')), dst))
    f.append(eth(0x0800, ipv4(B, A, 6, tcp(B, A, 9, 40000, b'HTTP/1.0 200 OK\r\n\r\n')), dst))
    f.append(eth(0x0800, ipv4(A, B, 17, udp(A, B, 9, 9, b'no checksum', zero=True)), dst))
    f.append(eth(0x0800, ipv4(A, B, 1, icmp_echo(b'ping' * 8)), dst))
    f.append(eth(0x0800, ipv4(A, B, 17, udp(A, B, 7, 9, b'with options'),
                               opts=b'\x01\x01\x01\x00'), dst))
    f.append(eth(0x0800, ipv4(C, B, 17, udp(C, B, 9, 9, b'source not rewritten')), dst))
    f.append(eth(0x0800, ipv4(A, B, 17, b'a fragment, no UDP header', ident=77, frag=3), dst))
    # not rewritten: neither address known, ARP, IPv6
    f.append(eth(0x0800, ipv4(C, D, 17, udp(C, D, 9, 9, b'untouched')), dst))
    f.append(eth(0x0806, bytes.fromhex('0001080006040001') + MAC_A + ip4(A) + bytes(6) + ip4(B),
                 b'\xff' * 6))
    v6 = bytes(15) + b'\x01' + bytes(15) + b'\x02'
    f.append(eth(0x86dd, bytes.fromhex('6000000000081140') + v6 + struct.pack('!HHHH', 9, 9, 8, 0),
                 dst))
    return f

def write(path, recs, linktype=1):
    with open(path, 'wb') as o:
        o.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype))
        for i, r in enumerate(recs):
            data, caplen, length = r if isinstance(r, tuple) else (r, len(r), len(r))
            o.write(struct.pack('<IIII', 1700000000 + i // 3, (i % 3) * 250000 + 17, caplen, length))
            o.write(data)

kind, path = sys.argv[1], sys.argv[2]
if kind == 'capture':
    write(path, frames())
elif kind == 'forward':
    write(path, frames(CAP0))
elif kind == 'rawlink':
    write(path, [f[14:] for f in frames()], linktype=101)
elif kind == 'garbage':
    open(path, 'wb').write(b'this is not a capture file\n' * 3)
elif kind == 'malformed':
    fr = frames()
    write(path, [fr[0], (fr[1][:40], 40, len(fr[1])), (fr[2][:10], 10, 10),
                 (fr[3], len(fr[3]), len(fr[3]) - 4), fr[4]])
    with open(path, 'ab') as o:	# record 6 cut short by the end of the file
        o.write(struct.pack('<IIII', 1700000100, 0, 60, 60) + fr[5][:20])
EOF
G() { python3 "$T/gen.py" "$@"; }
G capture "$T/in.pcap"
tshark -r "$T/in.pcap" -F pcapng -w "$T/in.pcapng" 2>/dev/null || fail "tshark cannot write pcapng"

# 198.18.0.10 -> 198.18.100.10, 198.19.0.20 -> 198.19.100.20
MAP="map update xdp_rewrite_addr:rewrite key c6 12 00 0a value c6 12 64 0a
map update xdp_rewrite_addr:rewrite key c6 13 00 14 value c6 13 64 14"

script() {	# $1: xdp|xdpgeneric, $2: tx|redirect, $3: input, $4: output
	if [ "$2" = tx ]; then
		echo "link add cap0 type pcap in $3 out $4"
		echo "link set dev cap0 $1 obj $PROGS/xdp_rewrite_addr.o name xdp_rewrite_tx"
	else
		echo "link add cap0 type pcap in $3"
		echo "link add out0 type pcap out $4"
		echo "link set dev cap0 $1 obj $PROGS/xdp_rewrite_addr.o name xdp_rewrite_redirect"
		echo "map update xdp_rewrite_addr:tx_port key 00 00 00 00 value dev out0"
	fi
	echo "$MAP"
	# no duration: the run ends when the capture is consumed
	echo "run"
	echo "stats drops"
}

# Every output holds exactly these frames: time, MACs swapped, addresses
# rewritten, checksum status (1 good, 3 no UDP checksum) of IP, UDP, TCP, ICMP.
cat >"$T/want" <<'EOF'
1700000000.000017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000000.250017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000000.500017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000001.000017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000001.250017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000001.500017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000002.000017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000002.250017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000002.500017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000003.000017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.19.100.20 198.18.100.10 1 1
1700000003.250017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 3
1700000003.500017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000004.000017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1 1
1700000004.250017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.0.99 198.19.100.20 1 1
1700000004.500017000 02:00:00:00:0b:02 02:00:00:00:0a:01 198.18.100.10 198.19.100.20 1
EOF

read_back() {	# $1: pcap -> one line per frame, as $T/want
	tshark -n -r "$1" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
		-o tcp.check_checksum:TRUE -T fields -E separator=' ' -e frame.time_epoch \
		-e eth.src -e eth.dst -e ip.src -e ip.dst -e ip.checksum.status \
		-e udp.checksum.status -e tcp.checksum.status -e icmp.checksum.status \
		2>/dev/null | sed 's/  */ /g; s/ *$//'
}

run_case() {	# $1: mode, $2: tx|redirect, $3: input, $4: output name
	local out="$T/$4.pcap" json="$T/$4.json"
	script "$1" "$2" "$3" "$out" | "$UXDP" -j run - >"$json" || fail "$4: uxdp run failed"
	# every frame read got one verdict: 15 rewritten and sent, 3 passed
	jq -e '.runs[0].devices.cap0 | .rx_packets == 18 and .rx_dropped == 0' "$json" >/dev/null ||
		fail "$4: cap0 did not receive the 18 frames: $(jq -c .runs[0].devices.cap0 "$json")"
	if [ "$1" = xdp ]; then
		jq -e --arg a "$2" '.runs[0].devices.cap0.xdp | .pass == 3 and
			(if $a == "tx" then .tx == 15 else .redirect == 15 end)' "$json" >/dev/null ||
			fail "$4: verdicts $(jq -c .runs[0].devices.cap0.xdp "$json")"
	fi
	if [ "$2" = tx ]; then
		jq -e '.runs[0].devices.cap0.tx_packets == 15' "$json" >/dev/null ||
			fail "$4: cap0 sent $(jq .runs[0].devices.cap0.tx_packets "$json"), want 15"
	else
		jq -e '.runs[0].devices.out0.tx_packets == 15' "$json" >/dev/null ||
			fail "$4: out0 wrote $(jq .runs[0].devices.out0.tx_packets "$json"), want 15"
	fi
	read_back "$out" >"$T/$4.got"
	diff -u "$T/want" "$T/$4.got" || fail "$4: tshark does not find the expected frames"
}

run_case xdp tx "$T/in.pcap" native_tx
run_case xdp redirect "$T/in.pcap" native_redirect
run_case xdpgeneric tx "$T/in.pcap" generic_tx
run_case xdpgeneric redirect "$T/in.pcap" generic_redirect
run_case xdp tx "$T/in.pcapng" pcapng_tx
for c in native_redirect generic_tx generic_redirect pcapng_tx; do
	cmp "$T/native_tx.pcap" "$T/$c.pcap" || fail "$c.pcap differs from native_tx.pcap"
done
# nanosecond classic pcap, Ethernet
[ "$(od -An -tx4 -N4 "$T/native_tx.pcap" | tr -d ' ')" = a1b23c4d ] || fail "not a nanosecond pcap"

# Determinism: the same script twice, byte-identical output (loop 3 too).
for i in 1 2; do
	script xdp tx "$T/in.pcap loop 3" "$T/det$i.pcap" | "$UXDP" -j run - >"$T/det$i.json" ||
		fail "determinism run $i failed"
done
[ "$(stat -c %s "$T/det1.pcap")" -gt 24 ] || fail "determinism run wrote nothing"
cmp "$T/det1.pcap" "$T/det2.pcap" || fail "two runs over the same capture differ"
[ "$(read_back "$T/det1.pcap" | wc -l)" -eq 45 ] || fail "loop 3: not 45 frames"

# IPv4 forwarding: the capture addressed to cap0, routed out of out0.
G forward "$T/fwd.pcap"
"$UXDP" -j run - >"$T/fwd.json" <<EOS || fail "forwarding run failed"
link add cap0 type pcap in $T/fwd.pcap
link add out0 type pcap out $T/fwd_out.pcap
addr add 198.18.0.1/24 dev cap0
addr add 198.19.0.1/24 dev out0
neigh add 198.19.0.20 lladdr 02:00:00:00:0b:02 dev out0
neigh add 198.19.0.99 lladdr 02:00:00:00:0b:03 dev out0
sysctl net.ipv4.ip_forward=1
run 60s
EOS
tshark -n -r "$T/fwd_out.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
	-o tcp.check_checksum:TRUE -T fields -E separator=' ' -e eth.src -e eth.dst -e ip.dst \
	-e ip.ttl -e ip.checksum.status 2>/dev/null | sort | uniq -c | sed 's/^ *//' | sort >"$T/fwd.got"
# to 198.19.0.20: 8 UDP, TCP, no-checksum UDP, ICMP, options, 198.18.0.99's, the fragment
sort >"$T/fwd.want" <<'EOF'
1 02:75:78:64:00:02 02:00:00:00:0b:03 198.19.0.99 63 1
14 02:75:78:64:00:02 02:00:00:00:0b:02 198.19.0.20 63 1
EOF
diff -u "$T/fwd.want" "$T/fwd.got" || fail "forwarded frames are not the expected ones"

# Bad inputs: exit status 2 and an error naming the file.
G garbage "$T/garbage.pcap"
G rawlink "$T/raw.pcap"
for f in garbage raw missing; do
	rc=0
	echo "link add cap0 type pcap in $T/$f.pcap" | "$UXDP" -j run - >"$T/$f.json" 2>/dev/null || rc=$?
	[ $rc -eq 2 ] || fail "$f.pcap: exit status $rc, want 2"
	jq -e --arg f "$T/$f.pcap" '.error.message | contains($f)' "$T/$f.json" >/dev/null ||
		fail "$f.pcap: error does not name the file: $(cat "$T/$f.json")"
done
jq -e '.error.message | contains("link type") and contains("RAW")' "$T/raw.json" >/dev/null ||
	fail "raw.pcap: error does not name the link type: $(cat "$T/raw.json")"

# Malformed records: dropped and counted by reason, the good ones received.
G malformed "$T/bad.pcap"
printf 'link add cap0 type pcap in %s loop 2\nrun 60s\nstats drops\n' "$T/bad.pcap" |
	"$UXDP" -j run - >"$T/bad.json" 2>/dev/null || fail "malformed capture: run failed"
jq -e '.runs[0].devices.cap0 | .rx_packets == 4 and .rx_dropped == 6' "$T/bad.json" >/dev/null ||
	fail "malformed capture: $(jq -c .runs[0].devices.cap0 "$T/bad.json")"
jq -e '[.drops.cap0[] | {(.reason): .count}] | add |
	.RX_TRUNCATED == 2 and .RX_RUNT == 2 and .RX_BAD_RECORD == 4' "$T/bad.json" >/dev/null ||
	fail "malformed capture: drops $(jq -c .drops.cap0 "$T/bad.json")"
echo "ok: 5 rewrite paths identical, deterministic, forwarding, bad inputs"
