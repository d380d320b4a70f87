#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hostile program suite (README.md). Two sets of rows:
#
# - uxdp's own expectations (reject, abort): rejected at load with the
#   instruction and the reason, or run and aborted with a counted reason;
# - the kernel's verdicts (kreject, kaccept), checked live in this machine's
#   kernel when root can load XDP programs (the kernel is the oracle: if it
#   disagrees with the row, the row fails, so a kernel change is noticed),
#   and uxdp must reach the same verdict: rejected at load with the same
#   message, or loaded and run over the test frame without an abort and
#   with the kernel's return value.
#
# Every uxdp run must end without a crash or a hang; those are listed.
# Ends with "uxdp agrees with the kernel on X of Y hostile programs" and
# fails if X < Y. Without the kernel (not root, no bpffs or bpftool) the
# kernel rows compare uxdp with the recorded verdicts and the test exits 77
# if nothing else failed (UXDP_HOSTILE_KERNEL=0 leaves the kernel out on
# purpose, as the interpreter's run of the suite does: no skip then).
# Usage: hostile.sh UXDP BUILD_DIR SOURCE_DIR
set -u
UXDP=$1
B=$2
S=$3
T=$(mktemp -d)
PIN=/sys/fs/bpf/uxdp_hostile_$$
trap 'rm -rf "$PIN" "$T"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail=0
n=0
judged=""
disagree=""
crashed=""
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }

# 60-byte IPv4/UDP broadcast frame: byte 0 is 0xff, the index the
# variable-offset programs use (255: past their stack, map and packet).
printf '\377\377\377\377\377\377\002\000\000\000\000\001\010\000\105\000\000\056\022\064\000\000\100\021\000\000\012\000\000\001\012\000\000\002' > "$T/pkt"
head -c 26 /dev/zero >> "$T/pkt"

# urun OBJ [ARGS...]: uxdp -j prog run; output in $out, exit status in $rc;
# a signal or a hang is recorded against the object
urun() {
	obj=$1
	shift
	out=$(timeout 120 "$UXDP" -j prog run "$obj" data_in "$T/pkt" "$@" 2>"$T/uerr")
	rc=$?
	# 0 and 2 are uxdp's; anything else (a signal, a hang, a sanitizer's
	# report) is a crash
	if { [ $rc -ne 0 ] && [ $rc -ne 2 ]; } ||
	   grep -Eq 'Sanitizer|runtime error:' "$T/uerr"; then
		crashed="$crashed $(basename "$obj")"
		out="exit $rc (crashed or hung): $(grep -E -m1 'ERROR|runtime error' "$T/uerr" | cut -c1-160)"
		rc=3
	fi
}

# reject OBJ REGEX: exit 2, a JSON error matching REGEX (insn N: reason)
reject() {
	urun "$1"
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
	urun "$obj" "$@"
	got=$(echo "$out" | jq -r "[.retval, .aborts.$key] | join(\" \")" 2>/dev/null)
	if [ $rc -eq 0 ] && [ "$got" = "0 1" ]; then
		ok "$(basename "$obj"): aborted at run time ($key)"
	else
		nok "$(basename "$obj"): expected abort $key, got exit $rc: $out"
	fi
}

# The kernel oracle: root, bpftool and a bpffs where an XDP program loads.
kernel=0
skip=1
why="not root"
if [ "${UXDP_HOSTILE_KERNEL:-1}" = 0 ]; then
	why="UXDP_HOSTILE_KERNEL=0"
	skip=0
elif [ "$(id -u)" -ne 0 ]; then
	:
elif ! command -v bpftool >/dev/null; then
	why="bpftool not installed"
elif [ "$(stat -f -c %T /sys/fs/bpf 2>/dev/null)" != bpf_fs ]; then
	why="no bpffs at /sys/fs/bpf"
elif ! mkdir "$PIN" || ! bpftool prog loadall "$B/ok_pkt_var.o" "$PIN/probe" >"$T/klog" 2>&1; then
	why="the kernel refuses a plain XDP program: $(grep -E 'libbpf|Error' "$T/klog" | tail -1)"
else
	kernel=1
	rm -rf "$PIN/probe"
fi
[ $kernel -eq 1 ] || echo "# SKIP kernel oracle ($why): the kernel's verdicts are not checked, uxdp is compared with the recorded ones"

# judge NAME: a kernel row about NAME starts; knok fails it and marks NAME
# (a program agrees with the kernel when all its rows do)
judge() {
	case " $judged " in *" $1 "*) ;; *) judged="$judged $1" ;; esac
}
knok() {
	case " $disagree " in *" $name "*) ;; *) disagree="$disagree $name" ;; esac
	nok "$@"
}

# kload OBJ: load every program of OBJ in the kernel under $PIN/OBJNAME,
# its maps under $PIN/OBJNAME_maps; the output (libbpf messages, verifier
# log) in $T/klog
kload() {
	kdir=$PIN/$(basename "$1" .o)
	bpftool prog loadall "$1" "$kdir" pinmaps "${kdir}_maps" >"$T/klog" 2>&1
	krc=$?
	[ $krc -eq 0 ] || rm -rf "$kdir" "${kdir}_maps"
	return $krc
}

# klast: the verifier log's last meaningful line (or libbpf's last word)
klast() {
	sed -n '/BEGIN PROG LOAD LOG/,/END PROG LOAD LOG/p' "$T/klog" |
		grep -Ev 'PROG LOAD LOG|^processed |^verification time|^stack depth|^$' | tail -1
}

# kpolicy: the kernel refused the last load by its build's policy, not by the
# verifier's rules: the sandboxed 6.18 builds forbid some kfuncs outright
# ("bpf_dynptr_slice_rdwr() is not allowed" at the call). The row is then
# judged against its recorded verdict, as without a kernel.
kpolicy() {
	local kmsg

	kmsg=$(klast)
	printf '%s\n' "$kmsg" | grep -Eq '^[a-z0-9_]+\(\) is not allowed$' || return 1
	echo "# $name: the kernel's build forbids ${kmsg%%(*} (policy): uxdp is compared with the recorded verdict"
}

# kreject OBJ REGEX [UXDP_REGEX]: the kernel rejects OBJ with REGEX in its
# log, and uxdp rejects it at load (exit 2) with an error matching REGEX
# (or UXDP_REGEX where the kernel's refusal is libbpf's, not the verifier's)
kreject() {
	obj=$1
	name=$(basename "$obj")
	judge "$name"
	if [ $kernel -eq 1 ]; then
		if kload "$obj"; then
			rm -rf "$kdir" "${kdir}_maps"
			knok "$name: the kernel accepts it now (expected /$2/): update the row"
			return
		fi
		if ! grep -Eq "$2" "$T/klog" && ! kpolicy; then
			knok "$name: the kernel's message changed (expected /$2/): $(klast)"
			return
		fi
	fi
	urun "$obj"
	err=$(echo "$out" | jq -r .error 2>/dev/null)
	if [ $rc -eq 2 ] && echo "$err" | grep -Eq "${3:-$2}"; then
		ok "$name: kernel and uxdp reject: $(echo "$err" | tail -1 | cut -c1-80)"
	elif [ $rc -eq 2 ]; then
		knok "$name: kernel /$2/, uxdp rejects with another message: $(echo "$err" | tr '\n' ' ' | sed 's/.*checker[^:]*: *//' | cut -c1-120)"
	else
		knok "$name: kernel /$2/, uxdp loads it (exit $rc): $(echo "$out" | jq -c '{retval, aborts}' 2>/dev/null || echo "$out")"
	fi
}

# kaccept OBJ PROG RETVAL [JMP TARGET]: the kernel loads OBJ and
# BPF_PROG_TEST_RUN of PROG over the frame returns RETVAL ('*': a value
# that depends on addresses or stack garbage, not compared); uxdp loads it,
# runs it without an abort and returns the same value. With JMP TARGET,
# slot 0 of the PROG_ARRAY JMP holds the program TARGET on both sides.
kaccept() {
	obj=$1
	prog=$2
	want=$3
	name=$(basename "$obj")
	slot=""
	[ $# -eq 5 ] && slot="map $4 key 00000000 value prog $5"
	judge "$name"
	if [ $kernel -eq 1 ] && ! kload "$obj"; then
		if ! kpolicy; then
			knok "$name: the kernel rejects it now: $(klast)"
			return
		fi
	elif [ $kernel -eq 1 ]; then
		[ -z "$slot" ] || bpftool map update pinned "${kdir}_maps/$4" \
			key 0 0 0 0 value pinned "$kdir/$5" >>"$T/klog" 2>&1
		kret=$(bpftool prog run pinned "$kdir/$prog" data_in "$T/pkt" 2>&1 |
			sed -n 's/^Return value: \([0-9]*\).*/\1/p')
		rm -rf "$kdir" "${kdir}_maps"
		if [ "$want" != '*' ] && [ "$kret" != "$want" ]; then
			knok "$name: the kernel returns '$kret' now (expected $want): update the row"
			return
		fi
	fi
	# shellcheck disable=SC2086 # $slot is words
	urun "$obj" name "$prog" $slot
	got=$(echo "$out" | jq -r '[.retval, (.aborts | length)] | join(" ")' 2>/dev/null)
	if [ $rc -eq 0 ] && { [ "$got" = "$want 0" ] || { [ "$want" = '*' ] && [ "${got#* }" = 0 ]; }; }; then
		ok "$name: kernel and uxdp accept, return $want"
	elif [ $rc -eq 2 ]; then
		knok "$name: the kernel accepts it (returns $want), uxdp rejects: $(echo "$out" | jq -r .error | tr '\n' ' ' | sed 's/.*checker[^:]*: *//' | cut -c1-120)"
	else
		knok "$name: the kernel accepts it (returns $want), uxdp: exit $rc: $(echo "$out" | jq -c '{retval, aborts}' 2>/dev/null || echo "$out")"
	fi
}

# uxdp's own expectations, rejected at load.
reject "$B/oob_ctx.o" '^insn [0-9]+: invalid bpf_context access off=64'
reject "$B/ctx_write.o" '^insn [0-9]+: invalid bpf_context access off=0'
reject "$B/uninit_reg.o" '^insn [0-9]+: R5 !read_ok'
reject "$B/deep_calls.o" '^insn [0-9]+: the call stack of [0-9]+ frames is too deep'
reject "$B/unknown_helper.o" '^insn [0-9]+: invalid func unknown#999'
reject "$B/bad_opcode.o" '^insn [0-9]+: unknown opcode ff'
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
urun "$B/tail_call_loop.o" map jmp key 00000000 value prog tail_loop dump-maps
got=$(echo "$out" | jq -r '[.retval, .maps.count[0].value] | join(" ")' 2>/dev/null)
if [ "$got" = "1 2200000000000000" ]; then
	ok "tail_call_loop.o: 34 runs, then falls through (XDP_DROP)"
else
	nok "tail_call_loop.o: expected '1 2200000000000000', got: $out"
fi

# The kernel's verdicts (the privileged verifier of Linux 6.18, as root).
# The programs of uxdp's own rows above.
kreject "$B/oob_pkt.o" 'R1 offset is outside of the packet'
kreject "$B/oob_pkt_var.o" 'R1 offset is outside of the packet'
kreject "$B/oob_map.o" 'R0 max value is outside of the allowed memory range'
kreject "$B/oob_stack.o" 'invalid variable-offset write to stack R2 var_off=\(0x0; 0xff\) off=-16 size=1'
kreject "$B/oob_ctx.o" 'invalid bpf_context access off=64 size=4'
kreject "$B/ctx_write.o" 'invalid bpf_context access off=0 size=4'
kreject "$B/uninit_reg.o" 'R5 !read_ok'
kaccept "$B/uninit_stack.o" uninit_stack '*'
kaccept "$B/ptr_leak_map.o" ptr_leak_map 2
kreject "$B/loop_unbounded.o" 'BPF program is too large. Processed 1000001 insn'
kreject "$B/deep_calls.o" 'the call stack of 9 frames is too deep'
kaccept "$B/tail_call_loop.o" tail_loop 1
kaccept "$B/tail_call_loop.o" tail_loop 1 jmp tail_loop
kreject "$B/oversized.o" "prog 'oversized': failed to load: -7" 'more than 1048576 instructions'
kreject "$B/unknown_helper.o" 'invalid func unknown#999'
kreject "$B/bad_opcode.o" 'unknown opcode ff'
kreject "$B/bad_jump.o" 'jump out of range from insn 0 to 1001'
kreject "$S/bad_elf_text.o" 'is not a proper ELF object' 'not an ELF object'
kreject "$B/bad_elf_trunc.o" "failed to get section names strings|invalid .Elf. handle" 'malformed ELF'

# Helpers writing through an argument over a spilled pointer.
kreject "$B/snprintf_spill_pkt.o" "R1 invalid mem access 'scalar'"
kreject "$B/snprintf_spill_map.o" "R1 invalid mem access 'scalar'"
kreject "$B/snprintf_partial.o" "R1 invalid mem access 'scalar'"
kreject "$B/check_mtu_spill_lo.o" "R1 invalid mem access 'scalar'"
kreject "$B/check_mtu_spill_hi.o" "R1 invalid mem access 'scalar'"
kreject "$B/load_bytes_spill.o" "R1 invalid mem access 'scalar'"
kreject "$B/load_bytes_spill_byte.o" "R1 invalid mem access 'scalar'"
kreject "$B/map_value_copy_spill.o" "R1 invalid mem access 'scalar'"
kaccept "$B/map_update_spilled_ptr.o" map_update_spilled_ptr 2

# Variable-offset stack accesses, other frames, the 512-byte frame.
kreject "$B/subprog_var_write_spill.o" "R1 invalid mem access 'scalar'"
kreject "$B/subprog_var_read_spill.o" "R1 invalid mem access 'scalar'"
kreject "$B/subprog_helper_overflow.o" 'invalid write to stack R3 off=-16 size=24'
kreject "$B/stack_var_neg.o" 'invalid variable-offset write to stack R1 var_off=\(0x0; 0xf\) off=-520 size=1'
kreject "$B/stack_var_pos.o" 'invalid variable-offset write to stack R1 var_off=\(0x0; 0xf\) off=-8 size=1'
kreject "$B/stack_idx_unmasked.o" 'invalid variable-offset write to stack R1 var_off=\(0x0; 0xff\) off=-16 size=1'
kreject "$B/subprog_ret_fp.o" 'cannot return stack pointer to the caller'
kreject "$B/r10_stx_fp0.o" 'invalid write to stack R10 off=0 size=8'
kreject "$B/r10_stx_fp_neg520.o" 'invalid write to stack R10 off=-520 size=8'
kreject "$B/r10_write.o" 'frame pointer is read only'

# Tail calls and packet pointers after the packet may have moved.
kreject "$B/tail_call_subprog_pkt.o" "R7 invalid mem access 'scalar'"
kreject "$B/tail_call_subprog_r0.o" 'R0 !read_ok'
kreject "$B/tail_call_big_frame.o" 'tail_calls are not allowed when call stack of previous frames is 320 bytes. Too large'
kaccept "$B/tail_call_pkt.o" tail_call_pkt 255
kaccept "$B/tail_call_pkt.o" tail_call_pkt 2 jmp tail_adjust
kreject "$B/adjust_head_pkt.o" "R7 invalid mem access 'scalar'"
kreject "$B/adjust_tail_pkt.o" "R7 invalid mem access 'scalar'"
kreject "$B/adjust_meta_pkt.o" "R7 invalid mem access 'scalar'"
kreject "$B/adjust_head_spilled.o" "R1 invalid mem access 'scalar'"
kreject "$B/adjust_head_subprog.o" "R7 invalid mem access 'scalar'"

# Pointers: partial fills, 32-bit copies, arithmetic, leaks, returns.
kreject "$B/spill_fill4.o" 'invalid size of register fill'
kreject "$B/spill_fill2.o" 'invalid size of register fill'
kreject "$B/spill_fill1.o" 'invalid size of register fill'
kreject "$B/spill_fill4_hi.o" 'invalid size of register fill'
kreject "$B/ptr_mov32.o" "R1 invalid mem access 'scalar'"
kreject "$B/ptr_alu32.o" 'R7 32-bit pointer arithmetic prohibited'
kreject "$B/ptr_sub_pkt_map.o" 'math between map_value pointer and register with unbounded min value is not allowed'
kreject "$B/ptr_sub_fp_pkt.o" 'math between pkt pointer and register with unbounded min value is not allowed'
kreject "$B/ptr_add_unbounded.o" 'math between pkt pointer and register with unbounded min value is not allowed'
kreject "$B/ptr_mul.o" 'R7 pointer arithmetic with \*= operator prohibited'
kreject "$B/ptr_div.o" 'R7 pointer arithmetic with /= operator prohibited'
kreject "$B/ptr_lsh.o" 'R7 pointer arithmetic with <<= operator prohibited'
kreject "$B/ptr_and.o" 'R7 bitwise operator &= on pointer prohibited'
kreject "$B/ptr_or.o" 'R7 bitwise operator \|= on pointer prohibited'
kreject "$B/ptr_neg.o" "R7 invalid mem access 'scalar'"
kaccept "$B/ptr_cmp_leak.o" ptr_cmp_leak 2
kaccept "$B/ptr_store_pkt.o" ptr_store_pkt 2
kaccept "$B/ptr_store_ringbuf.o" ptr_store_ringbuf 2
kaccept "$B/ret_ptr.o" ret_ptr '*'
kreject "$B/subprog_ret_pkt.o" 'R0 offset is outside of the packet'
kreject "$B/store_rel_fp_ptr.o" 'R1 offset is outside of the packet'

# Uninitialised registers and stack, NULL checks, ringbuf references.
kreject "$B/uninit_ptr_reg.o" 'R3 !read_ok'
kreject "$B/uninit_after_call.o" 'R1 !read_ok'
kaccept "$B/uninit_stack_var.o" uninit_stack_var 2
kreject "$B/uninit_stack_ptr.o" "R1 invalid mem access 'scalar'"
kreject "$B/map_null_nocheck.o" "R0 invalid mem access 'map_value_or_null'"
kreject "$B/map_null_other_copy.o" "R0 invalid mem access 'map_value_or_null'"
kreject "$B/map_null_var_key.o" "R0 invalid mem access 'map_value_or_null'"
kreject "$B/ringbuf_double_submit.o" 'R1 type=scalar expected=ringbuf_mem'
kreject "$B/ringbuf_leak.o" 'BPF_EXIT instruction in main prog would lead to reference leak'
kreject "$B/ringbuf_use_after_submit.o" "R6 invalid mem access 'scalar'"
kreject "$B/ringbuf_null_nocheck.o" "R6 invalid mem access 'ringbuf_mem_or_null'"
kreject "$B/ringbuf_oob.o" 'R0 min value is outside of the allowed memory range'

# Packet and map value bounds.
kreject "$B/pkt_var_unchecked.o" 'R7 offset is outside of the packet'
kreject "$B/eth_proto_unchecked.o" 'R1 offset is outside of the packet'
kreject "$B/pkt_off_by_one.o" 'R7 offset is outside of the packet'
kreject "$B/pkt_wrong_reg.o" 'R2 offset is outside of the packet'
kreject "$B/pkt_wrong_end.o" 'R7 offset is outside of the packet'
kreject "$B/pkt_jmp32_cmp.o" 'R7 offset is outside of the packet'
kreject "$B/pkt_var_umax.o" 'R7 offset is outside of the packet'
kreject "$B/map_idx_signed.o" 'R0 min value is negative, either use unsigned index or do a if \(index >=0\) check.'
kreject "$B/map_idx_off_by_one.o" 'R0 max value is outside of the allowed memory range'
kreject "$B/map_var_umax.o" 'R0 max value is outside of the allowed memory range'
kreject "$B/map_null_jmp32.o" 'invalid access to map value, value_size=8 off=64 size=8'
kreject "$B/ctx_var_off.o" 'variable ctx access var_off=\(0x0; 0x4\) disallowed'

# Helper sizes, load-acquire/store-release.
kaccept "$B/csum_diff_1mib.o" csum_diff_1mib 2
kreject "$B/csum_diff_past_value.o" 'R1 min value is outside of the allowed memory range'
kreject "$B/store_bytes_overlap.o" 'helper access to the packet is not allowed'
kreject "$B/load_bytes_unbounded.o" 'R4 invalid zero-sized read: u64=\[0,4294967295\]'
kreject "$B/load_bytes_over_buf.o" 'invalid write to stack R3 off=-64 size=255'
kaccept "$B/load_acq_fp.o" load_acq_fp 2
kreject "$B/load_acq_pkt.o" 'BPF_ATOMIC loads from R7 pkt is not allowed'
kreject "$B/load_acq_pkt_end.o" "R8 invalid mem access 'pkt_end'"
kreject "$B/store_rel_ctx.o" 'invalid bpf_context access off=0 size=4'
kreject "$B/store_rel_rodata.o" 'write into map forbidden, value_size=8 off=0 size=8'

# Loops.
kreject "$B/loop_forever_pkt.o" 'infinite loop detected at insn [0-9]+'
kaccept "$B/loop_nonmonotonic.o" loop_nonmonotonic 2
kreject "$B/loop_1m.o" 'BPF program is too large. Processed 1000001 insn'
kreject "$B/self_jump.o" 'infinite loop detected at insn 1'
kreject "$B/loop_callback_forever.o" 'the call stack of 9 frames is too deep'
kreject "$B/loop_cb_recursion.o" 'the call stack of 9 frames is too deep'
kreject "$B/loop_cb_counter_1m.o" 'BPF program is too large. Processed 1000001 insn'

# bpf_loop() callbacks: what they may return, read and write, and keep.
kreject "$B/loop_cb_ret2.o" 'At callback return the register R0 has smin=2 smax=2 should have been in \[0, 1\]'
kreject "$B/loop_cb_stack_oob.o" 'invalid write to stack R2 off=56 size=8'
kreject "$B/loop_cb_uninit_r3.o" 'R3 !read_ok'
kreject "$B/loop_cb_ringbuf_leak.o" 'Unreleased reference id=2 alloc_insn=16'
kreject "$B/loop_cb_tail_call.o" 'callback unexpected regs 1'
kreject "$B/loop_cb_tail_call_sub.o" 'cannot tail call within callback'

# Read-only memory and ctx.
kreject "$B/rodata_write.o" 'write into map forbidden, value_size=4 off=0 size=4'
kreject "$B/rodata_helper_write.o" 'write into map forbidden, value_size=16 off=0 size=16'
kreject "$B/ctx_write_rxq.o" 'invalid bpf_context access off=16 size=4'
kreject "$B/ctx_write_ptr.o" 'invalid bpf_context access off=0 size=8'
kreject "$B/ctx_read_misaligned.o" 'invalid bpf_context access off=2 size=4'
kreject "$B/ctx_read_u64.o" 'invalid bpf_context access off=0 size=8'
kreject "$B/ctx_read_narrow.o" 'invalid bpf_context access off=4 size=1'
kreject "$B/ctx_read_neg.o" 'invalid bpf_context access off=-4 size=4'

# bpf_spin_lock misuse, kfunc references, device-bound kfuncs.
kreject "$B/spin_lock_exit.o" 'BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region'
kreject "$B/spin_lock_double.o" 'function calls are not allowed while holding a lock'
kreject "$B/spin_lock_helper.o" 'function calls are not allowed while holding a lock'
kreject "$B/spin_unlock_nolock.o" 'bpf_spin_unlock without taking a lock'
kreject "$B/spin_unlock_other.o" 'bpf_spin_unlock of different lock'
kreject "$B/spin_lock_direct.o" 'bpf_spin_lock cannot be accessed directly by load/store'
kreject "$B/spin_lock_var_off.o" "R1 doesn't have constant offset. bpf_spin_lock has to be at the constant offset"
kreject "$B/ct_leak.o" 'BPF_EXIT instruction in main prog would lead to reference leak'
kreject "$B/ct_leak_jmp32.o" 'BPF_EXIT instruction in main prog would lead to reference leak'
kreject "$B/ct_release_null.o" 'Possibly NULL pointer passed to trusted arg0'
kreject "$B/ct_release_init.o" 'kernel function bpf_ct_release args#0 expected pointer to STRUCT nf_conn but R1 has a pointer to STRUCT nf_conn___init'
kreject "$B/ct_use_after_release.o" "R6 invalid mem access 'scalar'"
kreject "$B/rx_meta_unbound.o" 'metadata kfuncs require device-bound program'
# dynptrs
kreject "$B/dynptr_uninit.o" 'Expected an initialized dynptr as arg #2'
kreject "$B/dynptr_overwrite.o" 'Expected an initialized dynptr as arg #0'
kreject "$B/dynptr_stack_read.o" 'invalid read from stack off -16\+0 size 8'
kreject "$B/dynptr_slice_null.o" "R0 invalid mem access 'rdonly_mem_or_null'"
kreject "$B/dynptr_slice_oob.o" 'R1 min value is outside of the allowed memory range'
kreject "$B/dynptr_slice_rdonly.o" 'R0 cannot write into rdonly_mem'
kreject "$B/dynptr_slice_adjust_head.o" "R7 invalid mem access 'scalar'"
kreject "$B/dynptr_slice_var_size.o" 'R4 must be a known constant'
kreject "$B/dynptr_misaligned.o" 'Dynptr has to be an uninitialized dynptr'
kreject "$B/dynptr_not_stack.o" 'arg#2 expected pointer to stack or const struct bpf_dynptr'

# Controls the kernel accepts (over-rejection is a failure too).
kaccept "$B/ok_csum_loop.o" ok_csum_loop 0
kaccept "$B/ok_pkt_var.o" ok_pkt_var 2
kaccept "$B/ok_ringbuf.o" ok_ringbuf 2
kaccept "$B/ok_map_null.o" ok_map_null 3
kaccept "$B/ok_bpf_loop.o" ok_bpf_loop 3
kaccept "$B/ok_spin_lock.o" ok_spin_lock 2
kaccept "$B/ok_ct_lookup.o" ok_ct_lookup 2
kaccept "$B/ok_dynptr.o" ok_dynptr 2
kaccept "$B/ok_dynptr_overwrite.o" ok_dynptr_overwrite 2
kaccept "$B/ok_loop_counter.o" ok_loop_counter 3
kaccept "$B/ok_loop_runtime.o" ok_loop_runtime 139

[ -z "$crashed" ] || echo "# uxdp crashed or hung on:$crashed"
total=$(echo "$judged" | wc -w)
bad=$(echo "$disagree" | wc -w)
echo "uxdp agrees with the kernel on $((total - bad)) of $total hostile programs"
[ "$bad" -eq 0 ] || fail=1
echo "1..$n"
[ $fail -eq 0 ] && [ $kernel -eq 0 ] && [ $skip -eq 1 ] && exit 77
exit $fail
