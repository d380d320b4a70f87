#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The JIT from the command line: `uxdp prog show` reports jited/jited_len
# (and why not, with UXDP_BPF_JIT=0); every example program and section,
# run over a few frames with `uxdp -j prog run ... dump-maps`, gives the
# same retval, output frame, redirect and map contents on the JIT and on
# the interpreter (xdp_helpers' nd_values map holds clock and random
# values and is left out); `sysctl net.core.bpf_jit_enable` takes 0|1 only.
# Usage: jit_cli.sh UXDP PROGS_DIR
set -u
UXDP=$1
P=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
n=0
check() {	# check NAME CONDITION-EXIT-STATUS
	if [ "$2" -eq 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fail=1; fi
}
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }

# 60-byte IPv4/UDP frame, a TCP one, an ARP one, a runt
printf '\002\000\000\000\000\002\002\000\000\000\000\001\010\000\105\000\000\056\022\064\000\000\100\021\000\000\012\000\000\001\012\000\000\002\000\065\000\065\000\032\000\000' > "$T/udp"
head -c 18 /dev/zero >> "$T/udp"
printf '\002\000\000\000\000\002\002\000\000\000\000\001\010\000\105\000\000\056\022\064\000\000\100\006\000\000\012\000\000\001\012\000\000\002' > "$T/tcp"
head -c 26 /dev/urandom >> "$T/tcp"
printf '\377\377\377\377\377\377\002\000\000\000\000\001\010\006' > "$T/arp"
head -c 46 /dev/zero >> "$T/arp"
head -c 13 "$T/udp" > "$T/runt"

j=$(UXDP_BPF_JIT=1 "$UXDP" -j prog show "$P/xdp1.o")
[ "$(echo "$j" | jq -r '.programs[0].jited')" = true ] &&
	[ "$(echo "$j" | jq -r '.programs[0].jited_len')" -gt 0 ]
check "prog show -j: jited true, jited_len > 0" $?
j=$(UXDP_BPF_JIT=0 "$UXDP" -j prog show "$P/xdp1.o")
[ "$(echo "$j" | jq -r '.programs[0].jited, .programs[0].jit_reason' | tr '\n' '|')" = \
	"false|net.core.bpf_jit_enable is 0|" ]
check "prog show -j with UXDP_BPF_JIT=0: jited false and why" $?
UXDP_BPF_JIT=1 "$UXDP" prog show "$P/xdp1.o" | grep -Eq '^	jited true  jited_len [0-9]+B$'
check "prog show text: jited line" $?

printf 'sysctl net.core.bpf_jit_enable=1\nsysctl -w net.core.bpf_jit_enable=0\n' |
	"$UXDP" run - >/dev/null 2>&1
check "sysctl net.core.bpf_jit_enable=0|1 accepted" $?
printf 'sysctl net.core.bpf_jit_enable=2\n' | "$UXDP" run - >/dev/null 2>&1
[ $? -ne 0 ]
check "sysctl net.core.bpf_jit_enable=2 refused" $?
printf 'sysctl net.core.bpf_hardened=1\nsysctl -w net.core.bpf_hardened=0\n' | "$UXDP" run - >/dev/null 2>&1
check "sysctl net.core.bpf_hardened=0|1 accepted" $?
printf 'sysctl net.core.bpf_hardened=yes\n' | "$UXDP" run - >/dev/null 2>&1
[ $? -ne 0 ]
check "sysctl net.core.bpf_hardened=yes refused" $?
[ "$("$UXDP" -j prog show "$P/xdp1.o" | jq -r '.programs[0].hardened')" = false ] &&
[ "$(UXDP_BPF_HARDENED=1 "$UXDP" -j prog show "$P/xdp1.o" | jq -r '.programs[0].hardened')" = true ]
check "UXDP_BPF_HARDENED=1 loads hardened (prog show -j)" $?
UXDP_BPF_HARDENED=1 UXDP_BPF_JIT=0 "$UXDP" prog show "$P/xdp1.o" | grep -Eq '^	jited false  \(.*\)  hardened$'
check "prog show text: hardened on the jited line" $?

# every program of every example object, both runtimes
for obj in "$P"/*.o; do
	names=$("$UXDP" -j prog show "$obj" 2>/dev/null | jq -r '.programs[] | select(.loaded) | .name' 2>/dev/null) || continue
	for name in $names; do
		for pkt in udp tcp arp runt; do
			a=$(UXDP_BPF_JIT=0 "$UXDP" -j prog run "$obj" name "$name" data_in "$T/$pkt" \
				repeat 3 dump-maps 2>&1 | jq -c 'del(.duration, .maps.nd_values)' 2>/dev/null)
			b=$(UXDP_BPF_JIT=1 "$UXDP" -j prog run "$obj" name "$name" data_in "$T/$pkt" \
				repeat 3 dump-maps 2>&1 | jq -c 'del(.duration, .maps.nd_values)' 2>/dev/null)
			[ -n "$a" ] || continue
			n=$((n + 1))
			if [ "$a" != "$b" ]; then
				echo "# $(basename "$obj") $name $pkt: interpreter $a"
				echo "# $(basename "$obj") $name $pkt: JIT         $b"
				check "$(basename "$obj") $name $pkt: same on both runtimes" 1
			fi
		done
	done
done
[ "$n" -gt 40 ]
check "$n program/frame runs compared (JIT = interpreter)" $?
exit $fail
