#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Help for every command, printed from the command tables: `uxdp help`,
# `uxdp OBJECT --help`, `uxdp prog VERB help`, `help` and `OBJECT COMMAND
# help` in scripts and the shell, `link help` with every kind by its
# registered name; the bash completion lists every command and verb; the
# man pages are built and name every command; the shell on a terminal
# keeps a history (libedit), completes on TAB, and reads piped lines as a
# script.
# Usage: help.sh UXDP COMPLETION MANDIR
set -u
UXDP=$1
COMPLETION=$2
MANDIR=$3
. "$(dirname "$0")/lib.sh"

# The objects and prog verbs, as `uxdp help` and `uxdp prog help` list them.
objects=$("$UXDP" help | sed -n 's/^  uxdp \([a-z]*\).*/\1/p')
verbs=$("$UXDP" prog help | sed -n 's/^  uxdp prog \([a-z]*\).*/\1/p')
[ "$(echo $objects | wc -w)" -ge 7 ] && [ "$(echo $verbs | wc -w)" -ge 3 ]
check "uxdp help lists the objects ($(echo $objects)) and prog verbs ($(echo $verbs))" $?

bad=
for o in $objects; do
	for h in help --help -h; do
		out=$("$UXDP" "$o" "$h" 2>&1)
		rc=$?
		[ $rc -eq 0 ] && grep -q "^ *\(Usage: \)\?uxdp $o" <<<"$out" || bad="$bad $o/$h($rc)"
	done
	"$UXDP" help "$o" 2>&1 | grep -q "uxdp $o" || bad="$bad help-$o"
done
[ -z "$bad" ]
check "uxdp OBJECT help|--help|-h and uxdp help OBJECT print usage, exit 0${bad:+:$bad}" $?

bad=
for v in $verbs; do
	"$UXDP" prog "$v" help 2>&1 | grep -q "^Usage: uxdp prog $v" || bad="$bad $v"
	"$UXDP" help prog "$v" 2>&1 | grep -q "^Usage: uxdp prog $v" || bad="$bad help-$v"
done
[ -z "$bad" ]
check "uxdp prog VERB help and uxdp help prog VERB print the verb's usage${bad:+:$bad}" $?

out=$("$UXDP" run --help 2>&1)
[ $? -eq 0 ] && grep -q "^Usage: uxdp run SCRIPT" <<<"$out" && grep -q "^  link add NAME type KIND" <<<"$out" &&
	! grep -q "No such file" <<<"$out"
check "uxdp run --help: the usage and the script commands, not a missing file" $?

out=$("$UXDP" prog run help 2>&1)
[ $? -eq 0 ] && grep -q "data_in FILE" <<<"$out" && ! grep -q "is required" <<<"$out"
check "uxdp prog run help: the usage, not 'data_in FILE is required'" $?

"$UXDP" help nosuch > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "unknown command 'nosuch'" "$T/err"
check "uxdp help NOSUCH: exit 2, the command named" $?

# Scripts: help, OBJECT help, OBJECT COMMAND help; the script goes on after help.
printf 'help\nlink add d0 type dummy\nlink help\nmap help\nroute add help\nrun help\n' > "$T/h.uxdp"
"$UXDP" run "$T/h.uxdp" > "$T/out" 2>&1
rc=$?
script_objs=$(sed -n 's/^  \([a-z]*\).*/\1/p' "$T/out" | sort -u)
[ $rc -eq 0 ] && for w in link map run stats addr route neigh sysctl snmp expect help; do
	grep -qx "$w" <<<"$script_objs" || { echo "missing $w"; false; } || break
done
check "help in a script lists every script command and the script goes on" $?
grep -q "^  route add \[blackhole" "$T/out" && grep -q "^  map update OBJ:MAP" "$T/out" &&
	grep -q "^  run \[DURATION" "$T/out"
check "OBJECT help and OBJECT COMMAND help in a script print their usage" $?

kinds=$(sed -n 's/^  link add NAME type \([a-z-]*\).*/\1/p' "$T/out")
printf 'link add x type afpackt\n' | "$UXDP" run - > /dev/null 2> "$T/err"
bad=
for k in $kinds; do grep -q "[( ]$k[,)]" "$T/err" || bad="$bad $k"; done
[ "$(echo $kinds | wc -w)" -ge 9 ] && grep -q "dsa-switch" <<<"$kinds" && ! grep -q "(null)" "$T/out" &&
	[ -z "$bad" ]
check "link help: every kind by its registered name; an unknown kind lists them all${bad:+ (missing$bad)}" $?

printf 'help\nquit\n' | "$UXDP" shell > "$T/out" 2>&1
[ $? -eq 0 ] && grep -q "^  link add NAME type KIND" "$T/out"
check "help in uxdp shell (stdin a pipe)" $?

# The bash completion, generated from the same tables.
bash -c '
	. "$1" || exit 1
	comp() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _uxdp; echo "${COMPREPLY[*]}"; }
	echo "top: $(comp uxdp "")"
	echo "prog: $(comp uxdp prog "")"
	echo "run: $(comp uxdp prog run x.o "")"
	echo "help: $(comp uxdp help "")"
	echo "j: $(comp uxdp -j pr)"
' _ "$COMPLETION" > "$T/comp" 2>&1
bad=
for o in $objects; do
	grep -q "^top: .*\b$o\b" "$T/comp" || bad="$bad $o"
	grep -q "^help: .*\b$o\b" "$T/comp" || bad="$bad help-$o"
done
for v in $verbs; do grep -q "^prog: .*\b$v\b" "$T/comp" || bad="$bad prog-$v"; done
for kw in $("$UXDP" prog run help | head -1 | grep -o '\b[a-z][a-z_-]*\b' | sort -u); do
	case $kw in uxdp|prog|run) continue ;; esac
	grep -q "^run: .*\b$kw\b" "$T/comp" || bad="$bad run-$kw"
done
[ -z "$bad" ] && grep -q "^j: prog$" "$T/comp"
check "bash completion: every command, every prog verb, every prog run keyword${bad:+ (missing$bad)}" $?

# The man pages: built, render, and name every command.
bad=
for p in uxdp uxdp-prog uxdp-run; do
	[ -s "$MANDIR/$p.8" ] || { bad="$bad $p.8"; continue; }
	if command -v man > /dev/null; then
		MANWIDTH=200 man -l "$MANDIR/$p.8" 2> /dev/null > "$T/$p.txt" || bad="$bad render-$p"
	else
		cp "$MANDIR/$p.8" "$T/$p.txt"
	fi
done
for o in $objects; do grep -q "\b$o\b" "$T/uxdp.txt" 2> /dev/null || bad="$bad uxdp.8-$o"; done
for v in $verbs; do grep -q "prog $v\b\|\b$v\b" "$T/uxdp-prog.txt" 2> /dev/null || bad="$bad prog.8-$v"; done
for w in link map run stats addr route neigh sysctl snmp expect; do
	grep -q "\b$w\b" "$T/uxdp-run.txt" 2> /dev/null || bad="$bad run.8-$w"
done
[ -z "$bad" ]
check "man pages uxdp(8), uxdp-prog(8), uxdp-run(8) built and naming every command${bad:+ (missing$bad)}" $?

# The shell on a terminal: line editing, history kept in ~/.uxdp_history.
if command -v script > /dev/null && ldd "$UXDP" 2> /dev/null | grep -q libedit; then
	mkdir "$T/home"
	(printf 'link add d0 type dummy\n'; sleep 0.5; printf 'link show\n'; sleep 0.5; printf 'quit\n'; sleep 0.3) |
		HOME=$T/home timeout 20 script -qfec "$UXDP shell" /dev/null > "$T/tty" 2>&1
	grep -qE 'd0: <[A-Z_,]*UP' "$T/tty" && grep -q 'link\\040add\\040d0\\040type\\040dummy' "$T/home/.uxdp_history"
	check "uxdp shell on a terminal: libedit, the history written" $?
	# TAB: objects, their commands, usage keywords, link kinds and a kind's own keywords.
	mkdir "$T/home2"
	(printf 'li\tad\td1 ty\tdum\t\n'; sleep 0.5; printf 'li\tadd v0 type ve\tpe\tna\tv1\n'; sleep 0.5
	 printf 'sta\t\n'; sleep 0.5; printf 'quit\n'; sleep 0.3) |
		HOME=$T/home2 timeout 20 script -qfec "$UXDP shell" /dev/null > "$T/tty" 2>&1
	grep -qx 'link\\040add\\040d1\\040type\\040dummy\\040' "$T/home2/.uxdp_history" &&
		grep -qx 'link\\040add\\040v0\\040type\\040veth\\040peer\\040name\\040v1' "$T/home2/.uxdp_history" &&
		grep -qx 'stats\\040' "$T/home2/.uxdp_history" && grep -q '^  v1 ' "$T/tty"
	check "uxdp shell: TAB completes objects, commands, link kinds and their keywords" $?
else
	echo "ok - # SKIP uxdp shell on a terminal (no script(1) or uxdp built without libedit)"
fi
exit $fail
