#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `uxdp prog dump xlated|jited`: known instructions of xdp_pass and xdp1
# in bpftool's syntax (helper calls by name, map loads by id, jumps, the
# prototype and source lines from BTF), JSON with bpftool's keys, and,
# where bpftool can load the object into the kernel, the same text as the
# kernel's xlated dump for the instructions neither side rewrites; the
# jited listing with the same source lines before their native code.
# Usage: prog_dump.sh UXDP PROGS_DIR
set -u
UXDP=$1
PROGS=$2
. "$(dirname "$0")/lib.sh"

"$UXDP" prog dump xlated "$PROGS/xdp_pass.o" > "$T/pass" 2>&1
[ $? -eq 0 ] && diff -u - "$T/pass" <<'OUT'
int xdp_pass_prog(struct xdp_md * ctx):
; return XDP_PASS;
   0: (b7) r0 = 2
   1: (95) exit
OUT
check "xlated xdp_pass: prototype, source line, two instructions" $?

"$UXDP" prog dump xlated "$PROGS/xdp1.o" > "$T/xdp1" 2>&1
rc=$?
bad=
for l in '^int xdp_prog1(struct xdp_md \* ctx):$' \
	 '^; void \*data_end = (void \*)(long)ctx->data_end;$' \
	 '^   0: (79) r2 = \*(u64 \*)(r1 +8)$' \
	 '^   4: (2d) if r3 > r2 goto pc+[0-9]*$' \
	 '^   9: (15) if r4 == 0x81 goto pc+2$' \
	 '^  18: (57) r5 &= 65535$' \
	 '^  46: (63) \*(u32 \*)(r10 -4) = r3$' \
	 '^  51: (07) r2 += -4$' \
	 '^  52: (18) r1 = map\[id:[0-9]*\]$' \
	 '^  54: (85) call bpf_map_lookup_elem#1$' \
	 '^ *[0-9]*: (95) exit$'; do
	grep -q -- "$l" "$T/xdp1" || bad="$bad [$l]"
done
[ $rc -eq 0 ] && [ -z "$bad" ] && ! grep -q 'BUG\|unknown' "$T/xdp1"
check "xlated xdp1: loads, jumps, the map load by id, the helper by name${bad:+: missing$bad}" $?

"$UXDP" prog dump xlated "$PROGS/xdp1.o" linum opcodes > "$T/linum" 2>&1
[ $? -eq 0 ] &&
	grep -q '^; void \*data = (void \*)(long)ctx->data; \[file:.*xdp1\.c line_num:38 line_col:34\]$' "$T/linum" &&
	grep -q '^       79 12 08 00 00 00 00 00$' "$T/linum"
check "xlated linum opcodes: [file:F line_num:N line_col:C], the bytes of each slot" $?

# Subprograms, atomics, global data: xdp_globals.
"$UXDP" prog dump xlated "$PROGS/xdp_globals.o" > "$T/glob" 2>&1
[ $? -eq 0 ] && grep -q '^ *[0-9]*: (85) call pc+[0-9]*#sum_bytes$' "$T/glob" &&
	grep -q '^ *[0-9]*: (85) call pc+[0-9]*#depth2$' "$T/glob" &&
	grep -q '^ *[0-9]*: (db) r[0-9] = atomic64_fetch_or((u64 \*)(r[0-9] +0), r[0-9])$' "$T/glob" &&
	grep -q '^ *[0-9]*: (db) r0 = atomic64_cmpxchg((u64 \*)(r[0-9] +0), r0, r[0-9])$' "$T/glob" &&
	grep -q '^ *[0-9]*: (18) r1 = map\[id:[0-9]*\]\[0\]+4$' "$T/glob" &&
	grep -q '^int sum_bytes(struct xdp_md \* ctx, int n):$' "$T/glob"
check "xlated xdp_globals: bpf-to-bpf calls, atomics, map values, each function's prototype" $?

"$UXDP" prog dump xlated "$PROGS/xdp_kfuncs.o" > "$T/kf" 2>&1
[ $? -eq 0 ] && grep -q '^ *[0-9]*: (85) call bpf_xdp_ct_lookup#[0-9]*$' "$T/kf"
check "xlated xdp_kfuncs: kfunc calls by name" $?

"$UXDP" -j prog dump xlated "$PROGS/xdp_pass.o" linum > "$T/j" 2>&1
python3 - "$T/j" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d[0]["proto"] == "int xdp_pass_prog(struct xdp_md * ctx)", d
assert d[0]["src"] == "return XDP_PASS;" and d[0]["line_num"] == 9 and d[0]["line_col"] == 2, d
assert d[0]["file"].endswith("xdp_pass.c"), d
assert [i["disasm"] for i in d] == ["(b7) r0 = 2", "(95) exit"], d
PY
check "-j xlated: bpftool's keys (proto, src, file, line_num, line_col, disasm)" $?

# The kernel's own dump of xdp1: every instruction before the map lookup
# (which the kernel inlines) reads the same but the jump offsets past it.
if [ "$(id -u)" -eq 0 ] && command -v bpftool > /dev/null && [ -d /sys/fs/bpf ]; then
	pin=/sys/fs/bpf/uxdp_prog_dump_$$
	trap 'rm -f "$pin"; rm -rf "$T"' EXIT
	if bpftool prog load "$PROGS/xdp1.o" "$pin" type xdp 2> /dev/null; then
		bpftool prog dump xlated pinned "$pin" | sed -n '1,/call\|map\[/p' | grep -v 'goto\|map\[' > "$T/k"
		rm -f "$pin"
		sed -n '1,/call\|map\[/p' "$T/xdp1" | grep -v 'goto\|map\[' > "$T/u"
		[ "$(wc -l < "$T/k")" -gt 60 ] && diff -u "$T/k" "$T/u"
		check "xlated xdp1 matches bpftool's dump of the kernel's load up to the map lookup" $?
	else
		echo "ok - # SKIP bpftool could not load xdp1.o into the kernel"
	fi
else
	echo "ok - # SKIP kernel comparison needs root, bpftool and /sys/fs/bpf"
fi

# jited: objdump text or the bytes; the interpreter is refused by name.
UXDP_BPF_JIT=1 "$UXDP" prog dump jited "$PROGS/xdp_pass.o" opcodes > "$T/jit" 2>&1
[ $? -eq 0 ] && grep -q '^   [0-9a-f][0-9a-f]\( [0-9a-f][0-9a-f]\)*$' "$T/jit"
check "jited opcodes: the image in hex" $?
if command -v objdump > /dev/null; then
	UXDP_BPF_JIT=1 "$UXDP" prog dump jited "$PROGS/xdp_pass.o" > "$T/objd" 2>&1
	[ $? -eq 0 ] && grep -q 'ret' "$T/objd"
	check "jited: disassembled through objdump" $?
	# the source lines, as bpftool interleaves them: those of xlated, in order,
	# each before the native code of its instruction (data_end: ctx + 8)
	"$UXDP" prog dump xlated "$PROGS/xdp1.o" | grep '^; ' > "$T/xsrc"
	UXDP_BPF_JIT=1 "$UXDP" prog dump jited "$PROGS/xdp1.o" > "$T/jsrc" 2>&1
	[ "$(wc -l < "$T/xsrc")" -ge 20 ] && grep '^; ' "$T/jsrc" | cmp -s - "$T/xsrc" &&
		grep -A1 '^; void \*data_end' "$T/jsrc" | tail -1 | grep -q 'mov  *0x8(%rdi),'
	check "jited: xdp1's source lines, in xlated's order, before their native code" $?
	UXDP_BPF_JIT=1 "$UXDP" prog dump jited "$PROGS/xdp1.o" linum 2>&1 |
		grep -q '^; .* \[file:.*xdp1\.c line_num:[0-9]* line_col:[0-9]*\]$'
	check "jited linum: file, line and column" $?
fi
UXDP_BPF_JIT=0 "$UXDP" prog dump jited "$PROGS/xdp_pass.o" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q 'not JITed.*bpf_jit_enable' "$T/err"
check "jited with the interpreter: exit 1, the knob named" $?

"$UXDP" prog dump xlated "$PROGS/xdp_pass.o" nosuch > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "unknown argument 'nosuch'" "$T/err"
check "bad argument: exit 2, named" $?
"$UXDP" prog dump xlated "$PROGS/xdp_pass.o" name nosuch > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "no program named 'nosuch'" "$T/err"
check "no such program: exit 2, named" $?
"$UXDP" prog dump nosuch "$PROGS/xdp_pass.o" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "usage: uxdp prog dump" "$T/err"
check "dump with neither xlated nor jited: the usage" $?

exit $fail
