#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpftool and iproute2 habits: one hex parser for `prog run` and scripts
# (00000000, 00 00 00 00, "00 00 00 00", hex 00 ..., 0x...), `data_out -`
# as bpftool's hexdump on a terminal and raw bytes into a pipe, `dev`
# optional in link set/show/del, a second `xdp obj` refused without
# -force (iproute2) and `xdp off`.
# Usage: fidelity.sh UXDP PROGS_DIR
set -u
UXDP=$1
P=$2
. "$(dirname "$0")/lib.sh"
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
[ -f "$P/xdp_redirect_map.o" ] || { echo "SKIP: no BPF objects in $P"; exit 77; }

# A frame: Ethernet + IPv4 + UDP, 64 bytes, its text readable in the dump.
printf 'ffffffffffff020000000001080045000032000100004011' | xxd -r -p > "$T/pkt"
printf 'uxdp prints a hexdump of data_out on terminals.!' >> "$T/pkt"
[ "$(stat -c %s "$T/pkt")" -ge 64 ] || exit 1

# prog run: every hex form of the key and value, the same verdict.
bad=
for form in "key 00000000 value 05000000" "key 00 00 00 00 value 05 00 00 00" \
	    "key hex 00 00 00 00 value hex 05 00 00 00" "key 0x00000000 value 0x05000000" \
	    "key 00:00:00:00 value 05:00:00:00"; do
	# shellcheck disable=SC2086
	j=$("$UXDP" -j prog run "$P/xdp_redirect_map.o" name xdp_redirect_map_prog data_in "$T/pkt" \
		map tx_port $form dump-maps 2> "$T/err")
	[ "$(jq -r '"\(.retval) \(.redirect.key) \(.maps.tx_port[0].value)"' <<<"$j" 2>/dev/null)" = \
		"4 0 05000000" ] || bad="$bad [$form: $(cat "$T/err")]"
done
j=$("$UXDP" -j prog run "$P/xdp_redirect_map.o" name xdp_redirect_map_prog data_in "$T/pkt" \
	map tx_port key "00 00 00 00" value "05 00 00 00" dump-maps 2>&1)
[ "$(jq -r .retval <<<"$j" 2>/dev/null)" = 4 ] || bad="$bad [quoted]"
[ -z "$bad" ]
check "prog run: key/value as 00000000, 00 00 00 00, \"00 00 00 00\", hex 00 ..., 0x..., 00:00:..${bad:+$bad}" $?

"$UXDP" prog run "$P/xdp_redirect_map.o" name xdp_redirect_map_prog data_in "$T/pkt" \
	map tx_port key 00 00 00 value 05 00 00 00 2> "$T/err"
[ $? -eq 2 ] && grep -q "key '00' is not 4 bytes of hex" "$T/err"
check "prog run: a key of the wrong size is refused naming it" $?
"$UXDP" prog run "$P/xdp_redirect_map.o" data_in "$T/pkt" map tx_port key zz value 00 2> "$T/err"
[ $? -eq 2 ] && grep -q "expected 'map NAME key HEX value HEX'" "$T/err"
check "prog run: a key that is not hex is refused with the forms" $?

# Scripts: the same forms through the same parser.
cat > "$T/hex.uxdp" <<EOS
link add v0 type veth peer name v1
link set v0 xdp obj $P/xdp_redirect_map.o name xdp_redirect_map_prog
map update tx_port key hex 00 00 00 00 value 05 00 00 00
map update tx_port key "01 00 00 00" value 0x06000000
map update tx_port key 02:00:00:00 value hex 07000000
map dump tx_port
EOS
"$UXDP" -j run "$T/hex.uxdp" > "$T/j" 2> "$T/err"
[ $? -eq 0 ] && [ "$(jq -r '[.. | objects | select(has("key") and has("value")) | .value] | join(",")' "$T/j")" != "" ] &&
	"$UXDP" run "$T/hex.uxdp" 2>&1 | tr -s ' ' | grep -c "key: [012] value: [567]" | grep -qx 3
check "scripts: hex 00 .., \"00 00 ..\", 0x.., 00:00:.. in map update" $?

# data_out -: a hexdump on a terminal, raw bytes into a pipe.
"$UXDP" prog run "$P/xdp_pass.o" data_in "$T/pkt" data_out - 2> /dev/null > "$T/raw"
cmp -s "$T/raw" "$T/pkt"
check "data_out - into a pipe: the raw bytes" $?
if command -v script > /dev/null; then
	script -qfec "$UXDP prog run $P/xdp_pass.o data_in $T/pkt data_out -" /dev/null 2>&1 | tr -d '\r' > "$T/tty"
	grep -qP '^0000000\tffff ffff ffff 0200 0000 0001 0800 4500 \| \.\.\.\.\.\.\.\. \.\.\.\.\.\.E\.$' "$T/tty" &&
		grep -qP '^0000030\t' "$T/tty" && grep -q 'Return value: 2' "$T/tty"
	check "data_out - on a terminal: bpftool's hexdump" $?
else
	echo "ok - # SKIP data_out - on a terminal (no script(1))"
fi

# dev optional; -force; xdp off.
cat > "$T/dev.uxdp" <<EOS
link add v0 type veth peer name v1
link set v0 down
link set v0 up
link set v0 mtu 1400
link set v0 xdp obj $P/xdp_pass.o
link show v0
EOS
"$UXDP" run "$T/dev.uxdp" > "$T/out" 2>&1
[ $? -eq 0 ] && grep -qE "^[0-9]+: v0@v1: <[A-Z_,]*UP[A-Z_,]*> mtu 1400" "$T/out" && grep -q "prog/xdp id" "$T/out"
check "link set/show NAME without dev (iproute2)" $?

printf 'link del v1\nlink show\n' >> "$T/dev.uxdp"
"$UXDP" run "$T/dev.uxdp" > "$T/out" 2>&1
[ $? -eq 0 ] && ! grep -q "v1" <(sed -n '/^[0-9]*: /p' "$T/out" | tail -n +2)
check "link del NAME without dev" $?

printf 'link set dev v0 xdp obj %s/xdp_drop.o\n' "$P" >> "$T/dev.uxdp"
sed -i '/^link del v1$/d; /^link show$/d' "$T/dev.uxdp"
"$UXDP" run "$T/dev.uxdp" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "dev.uxdp:7: v0: XDP program already attached (xdp); -force replaces it" "$T/err"
check "a second xdp obj is refused without -force, naming the line" $?
sed -i '$ s/$/ -force/' "$T/dev.uxdp"
printf 'link show dev v0\nlink set v0 xdp off\nlink show v0\nlink set v0 xdp obj %s/xdp_pass.o\nlink show v0\n' "$P" >> "$T/dev.uxdp"
"$UXDP" run "$T/dev.uxdp" > "$T/out" 2> "$T/err"
[ $? -eq 0 ] && [ "$(grep -c '^2: v0@v1' "$T/out")" = 4 ] && [ "$(grep -c 'prog/xdp id' "$T/out")" = 3 ]
check "-force replaces it; after xdp off a program attaches again" $?

exit $fail
