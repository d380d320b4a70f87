#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile program suite (README.md): every object must be rejected at load
# (exit 2, the error naming the instruction and the reason) or run and be
# aborted with a counted reason (-j "aborts"), never crash or hang.
# Usage: hostile.sh UXDP BUILD_DIR SOURCE_DIR
set -u
UXDP=$1
B=$2
S=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

# 60-byte IPv4/UDP broadcast frame: byte 0 is 0xff, the index the
# variable-offset programs use (255: past their stack, map and packet).
printf '\377\377\377\377\377\377\002\000\000\000\000\001\010\000\105\000\000\056\022\064\000\000\100\021\000\000\012\000\000\001\012\000\000\002' > "$T/pkt"
head -c 26 /dev/zero >> "$T/pkt"

# reject OBJ REGEX: exit 2, a JSON error matching REGEX (insn N: reason)
reject() {
	out=$(timeout 120 "$UXDP" -j prog run "$1" data_in "$T/pkt" 2>/dev/null)
	rc=$?
	err=$(echo "$out" | jq -r .error 2>/dev/null)
	if [ $rc -eq 2 ] && echo "$err" | grep -Eq "$2"; then
		ok "$(basename "$1"): rejected: $(echo "$err" | tail -1 | tr -d '\n' | cut -c1-80)"
	else
		nok "$(basename "$1"): expected rejection /$2/, got exit $rc: $out"
	fi
}

# abort OBJ KEY [ARGS...]: exit 0, XDP_ABORTED, aborts.KEY counted once
abort() {
	obj=$1
	key=$2
	shift 2
	out=$(timeout 120 "$UXDP" -j prog run "$obj" data_in "$T/pkt" "$@" 2>/dev/null)
	rc=$?
	got=$(echo "$out" | jq -r "[.retval, .aborts.$key] | join(\" \")" 2>/dev/null)
	if [ $rc -eq 0 ] && [ "$got" = "0 1" ]; then
		ok "$(basename "$obj"): aborted at run time ($key)"
	else
		nok "$(basename "$obj"): expected abort $key, got exit $rc: $out"
	fi
}

# Rejected at load.
reject "$B/oob_ctx.o" '^insn [0-9]+: invalid bpf_context access off=64'
reject "$B/ctx_write.o" '^insn [0-9]+: invalid bpf_context access off=0'
reject "$B/uninit_reg.o" '^insn [0-9]+: R5 !read_ok'
reject "$B/deep_calls.o" '^insn [0-9]+: the call stack of [0-9]+ frames is too deep'
reject "$B/unknown_helper.o" '^insn [0-9]+: invalid func unknown#999'
reject "$B/bad_opcode.o" '^insn [0-9]+: invalid BPF_ALU opcode'
reject "$B/bad_jump.o" '^insn [0-9]+: jump out of range'
reject "$B/oversized.o" "prog 'oversized': more than 1048576 instructions"
reject "$S/bad_elf_text.o" 'not an ELF object'
reject "$B/bad_elf_trunc.o" 'ELF|libbpf|object'

# Accesses the verifier cannot prove safe, and a loop it cannot see end:
# refused at load with the kernel's words, as Linux refuses them.
reject "$B/oob_pkt.o" 'R1 offset is outside of the packet'
reject "$B/oob_pkt_var.o" 'R1 offset is outside of the packet'
reject "$B/oob_map.o" 'R0 max value is outside of the allowed memory range'
reject "$B/oob_stack.o" 'invalid variable-offset write to stack R2'
reject "$B/loop_unbounded.o" 'BPF program is too large. Processed 1000001 insn' 

# Tail-call loop: the program tail-calls itself; as in the kernel the chain
# stops after 33 tail calls (34 runs) and the last one falls through.
out=$(timeout 60 "$UXDP" -j prog run "$B/tail_call_loop.o" data_in "$T/pkt" \
	map jmp key 00000000 value prog tail_loop dump-maps 2>/dev/null)
got=$(echo "$out" | jq -r '[.retval, .maps.count[0].value] | join(" ")' 2>/dev/null)
if [ "$got" = "1 2200000000000000" ]; then
	ok "tail_call_loop.o: 34 runs, then falls through (XDP_DROP)"
else
	nok "tail_call_loop.o: expected '1 2200000000000000', got: $out"
fi

echo "1..$n"
exit $fail
