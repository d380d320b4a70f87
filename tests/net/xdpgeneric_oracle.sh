#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generic XDP, the kernel as the oracle: for each
# program of xdp_generic_oracle.o, the same linear frame goes
#   kernel: AF_PACKET on xgb (namespace B) -> veth -> xga (namespace A,
#           `ip link set dev xga xdpgeneric obj F program P`) -> XDP_TX -> xgb,
#           captured with AF_PACKET on xgb
#   uxdp:   xdpgeneric_frame F P HEX (do_xdp_generic on a device)
# and the verdict and the output frame must be identical.
# Usage: xdpgeneric_oracle.sh XDPGENERIC_FRAME OBJ. Exit 77 where not permitted.
set -u
helper=$1
obj=$2
skip() { echo "SKIP: $*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root"
command -v ip >/dev/null || skip "no ip(8)"
command -v python3 >/dev/null || skip "no python3"
[ -r "$obj" ] || skip "no $obj (clang missing?)"

nsa="uxdp-xga-$$"
nsb="uxdp-xgb-$$"
cleanup() {
	ip netns del "$nsa" 2>/dev/null
	ip netns del "$nsb" 2>/dev/null
}
trap cleanup EXIT
ip netns add "$nsa" 2>/dev/null || skip "cannot create a network namespace"
ip netns add "$nsb" || exit 1
ip -n "$nsa" link add xga type veth peer name xgb netns "$nsb" || skip "no veth"
ip -n "$nsa" link set dev xga address 02:00:00:00:0a:01
ip -n "$nsb" link set dev xgb address 02:00:00:00:0b:01
for ns in "$nsa" "$nsb"; do
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
done
ip -n "$nsa" addr add 198.18.0.1/24 dev xga
ip -n "$nsb" addr add 198.18.0.2/24 dev xgb
ip -n "$nsa" link set dev xga up
ip -n "$nsb" link set dev xgb up

# IPv4/UDP from xgb to xga, a tag in the payload; 200 bytes.
frame=$(python3 - <<'PY'
import struct
dst = bytes.fromhex("02000000 0a01".replace(" ", ""))
src = bytes.fromhex("02000000 0b01".replace(" ", ""))
payload = b"UXDPTAG!" + bytes((i * 7 + 3) & 0xff for i in range(200 - 14 - 28 - 8))
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + 8 + len(payload), 1, 0, 64, 17, 0,
                 bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1]))
s = sum(struct.unpack("!10H", ip))
s = (s & 0xffff) + (s >> 16); s = (s & 0xffff) + (s >> 16)
ip = ip[:10] + struct.pack("!H", ~s & 0xffff) + ip[12:]
udp = struct.pack("!HHHH", 9, 9, 8 + len(payload), 0)
print((dst + src + b"\x08\x00" + ip + udp + payload).hex())
PY
)

# Send HEX out of xgb and print the first frame xgb receives with the tag.
kernel_side() {
	ip netns exec "$nsb" python3 - "$1" <<'PY'
import socket, sys, time
f = bytes.fromhex(sys.argv[1])
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("xgb", 0))
s.settimeout(0.2)
s.send(f)
end = time.time() + 2
while time.time() < end:
    try:
        data, addr = s.recvfrom(65536)
    except socket.timeout:
        continue
    if addr[2] == socket.PACKET_OUTGOING or b"UXDPTAG!" not in data:
        continue
    print("TX " + data.hex())
    sys.exit(0)
print("DROP")
PY
}

fail=0
for sec in xdp_swap_tx xdp_shrink_tx xdp_grow_tx xdp_l2_tx; do
	ip -n "$nsa" link set dev xga xdpgeneric off 2>/dev/null
	if ! ip -n "$nsa" link set dev xga xdpgeneric obj "$obj" program "$sec" 2>/tmp/xg-oracle-$$.err; then
		cat /tmp/xg-oracle-$$.err; rm -f /tmp/xg-oracle-$$.err
		skip "kernel refused the program (ip link set xdpgeneric)"
	fi
	rm -f /tmp/xg-oracle-$$.err
	k=$(kernel_side "$frame")
	u=$("$helper" "$obj" "$sec" "$frame") || { echo "FAIL $sec: uxdp helper failed"; fail=1; continue; }
	# veth pads short frames to 60 bytes on the wire; ours are 200+
	if [ "$k" = "$u" ]; then
		echo "ok $sec: ${k%% *} ${#k} chars"
	else
		echo "FAIL $sec"
		echo "  kernel: $k"
		echo "  uxdp:   $u"
		fail=1
	fi
done
exit $fail
