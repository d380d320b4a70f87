#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `meson install --destdir D`, then use what was installed as an outsider:
#   - a C program built with `pkg-config --cflags --libs uxdp` only, linked
#     against libuxdp.so and against libuxdp.a (pkg-config --static), runs
#     an installed example program and checks its verdict;
#   - the installed uxdp finds the installed example programs (a script
#     naming xdp_drop.o) and carries no build-tree path;
#   - the installed Python package imports and runs a program.
#   install_test.sh BUILD_DIR SANITIZE(none|address,undefined...)
set -euo pipefail
build=$(realpath "$1")
sanitize=${2:-none}
src=$(realpath "$(dirname "$0")/../..")
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }
# meson test points LD_LIBRARY_PATH at the build tree: use only what is installed
unset LD_LIBRARY_PATH

meson install -C "$build" --destdir "$D" --no-rebuild --quiet >/dev/null
pc=$(find "$D" -name uxdp.pc | head -1)
[ -n "$pc" ] || fail "no uxdp.pc installed"
# uxdp.pc as written for the real prefix, relocated into the destdir (the
# system libraries it requires stay where they are)
export PKG_CONFIG_PATH=$(dirname "$pc")
prefix=$(pkg-config --variable=prefix uxdp)
pc_cmd=(pkg-config --define-variable=prefix="$D$prefix")
cflags=$("${pc_cmd[@]}" --cflags uxdp)
libs=$("${pc_cmd[@]}" --libs uxdp)
libdir=$("${pc_cmd[@]}" --variable=libdir uxdp)
[ "${libdir#$D}" != "$libdir" ] || fail "uxdp.pc: libdir $libdir does not follow the prefix"
progs=$D$prefix/share/uxdp/progs
bin=$D$prefix/bin
for f in "$libdir/libuxdp.so.0" "$libdir/libuxdp.a" "$progs/xdp_drop.o" "$progs/xdp1.c" \
	 "$D$prefix/include/uxdp/uxdp_bpf.h" "$D$prefix/include/uxdp/uxdp_bpf_cov.h" "$bin/uxdp" \
	 "$D$prefix/share/doc/uxdp/Documentation/libuxdp.rst"; do
	[ -e "$f" ] || fail "not installed: ${f#$D}"
done
# the bash completion and, where rst2man built them, the man pages
[ -e "$D$prefix/share/bash-completion/completions/uxdp.bash" ] ||
	fail "not installed: share/bash-completion/completions/uxdp.bash"
for p in uxdp uxdp-prog uxdp-run; do
	[ ! -e "$build/Documentation/man/$p.8" ] || [ -e "$D$prefix/share/man/man8/$p.8" ] ||
		fail "not installed: share/man/man8/$p.8"
done
# no kernel-internal header next to the public ones
[ -z "$(find "$D$prefix/include" -name '*.h' ! -path '*/include/uxdp/*')" ] ||
	fail "headers outside include/uxdp: $(find "$D$prefix/include" -name '*.h' ! -path '*/include/uxdp/*')"

san=()
[ "$sanitize" = none ] || san=(-fsanitize="$sanitize" -fno-sanitize=alignment)
# shellcheck disable=SC2086
cc -Wall -Wextra -Werror "${san[@]}" $cflags "$src/tests/libuxdp/consumer.c" $libs \
	-Wl,-rpath,"$libdir" -o "$D/consumer"
"$D/consumer" "$progs/xdp_drop.o" 1 || fail "consumer (libuxdp.so) failed"
ldd "$D/consumer" > "$D/ldd.txt"
grep -qF "$libdir/libuxdp.so.0" "$D/ldd.txt" || fail "consumer does not use the installed libuxdp.so: $(grep uxdp "$D/ldd.txt")"
# libuxdp.a with what uxdp.pc says it needs (Requires.private, Libs.private),
# those as shared libraries: not every -dev package ships static archives
priv=$("${pc_cmd[@]}" --print-requires-private uxdp | awk '{print $1}')
# shellcheck disable=SC2086
static_libs="$libdir/libuxdp.a $(pkg-config --libs $priv) $(sed -n 's/^Libs.private: //p' "$pc")"

# shellcheck disable=SC2086
cc -Wall -Wextra -Werror "${san[@]}" $cflags "$src/tests/libuxdp/consumer.c" $static_libs \
	-o "$D/consumer-static"
"$D/consumer-static" "$progs/xdp_drop.o" 1 || fail "consumer (libuxdp.a) failed"
if ldd "$D/consumer-static" | grep libuxdp >/dev/null; then fail "static consumer links libuxdp.so"; fi

# The installed binaries and the library know no build or source tree.
for exe in "$bin"/* "$libdir/libuxdp.so.0"; do
	for path in "$build" "$src"; do
		if readelf -p .rodata -p .data "$exe" 2>/dev/null | grep -F "$path" >/dev/null; then
			fail "${exe#$D} has $path baked in"
		fi
	done
done
printf '%s\n' 'link add g0 type gen size 64 proto udp' 'link set dev g0 xdp obj xdp_drop.o' \
	'run count 100' > "$D/t.uxdp"
(cd / && env -u UXDP_PROGS_DIR "$bin/uxdp" -j run "$D/t.uxdp") > "$D/run.json" ||
	fail "installed uxdp cannot run a script naming xdp_drop.o"
"$bin/uxdp" -j prog run "$progs/xdp_drop.o" data_in <(printf '%042d' 0) | grep '"retval":1' >/dev/null ||
	fail "installed uxdp prog run"

# The Python package, from the destdir only.
pkg=$(find "$D" -path '*/uxdp/__init__.py' | head -1)
if [ -z "$pkg" ]; then
	fail "the Python package is not installed"
fi
pyenv=(env -u UXDP_LIB PYTHONPATH="$(dirname "$(dirname "$pkg")")")
if [ "$sanitize" != none ]; then
	# the interpreter is not sanitized: the runtimes come first
	pyenv+=(LD_PRELOAD="$(cc -print-file-name=libasan.so) $(cc -print-file-name=libubsan.so)"
		ASAN_OPTIONS=detect_leaks=0)
fi
(cd / && "${pyenv[@]}" python3 -c "
import sys, uxdp
assert uxdp.__file__.startswith('$D'), uxdp.__file__
assert uxdp.library_path().startswith('$D'), uxdp.library_path()
with uxdp.Object('$progs/xdp_drop.o') as obj:
    r = obj.programs['xdp_drop_prog'].run(bytes(64))
    assert r.verdict == 'XDP_DROP', r
print('python from destdir: ok', uxdp.version())
") || fail "the installed Python package"
echo "install_test: ok"
