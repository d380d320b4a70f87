# SPDX-License-Identifier: GPL-2.0
"""Fixtures of the uxdp pytest suite.

The example objects come from $UXDP_PROGS_DIR (meson test sets it to the
build's examples/progs); the library from $UXDP_LIB or an installed
package. `kernel` runs a program through the kernel's BPF_PROG_TEST_RUN
with bpftool when running as root, and skips otherwise.
"""
import json
import os
import shutil
import subprocess
import tempfile

import pytest

import uxdp


@pytest.fixture(scope="session")
def progs_dir():
    d = os.environ.get("UXDP_PROGS_DIR")
    if not d or not os.path.isdir(d):
        pytest.skip("UXDP_PROGS_DIR (the built examples/progs) is not set")
    return d


@pytest.fixture
def open_obj(progs_dir):
    """open_obj("xdp1") -> uxdp.Object, closed after the test."""
    opened = []

    def _open(name, **kw):
        obj = uxdp.Object(os.path.join(progs_dir, name + ".o"), **kw)
        opened.append(obj)
        return obj

    yield _open
    for obj in opened:
        obj.close()


class KernelRunner:
    """The kernel's BPF_PROG_TEST_RUN through bpftool (load, pin, run, unpin)."""

    def __init__(self, bpftool):
        self.bpftool = bpftool
        self.dir = tempfile.mkdtemp(prefix="uxdp-pytest-", dir="/sys/fs/bpf")

    def run(self, obj_path, data, prog=None, maps=None):
        """(retval, data_out) of program @prog (default: the first) of @obj_path,
        after writing @maps ({map name: {key bytes: value bytes}})."""
        pins, mpins = os.path.join(self.dir, "progs"), os.path.join(self.dir, "maps")
        with tempfile.TemporaryDirectory() as tmp:
            din, dout = os.path.join(tmp, "in"), os.path.join(tmp, "out")
            with open(din, "wb") as f:
                f.write(bytes(data))
            r = subprocess.run([self.bpftool, "prog", "loadall", obj_path, pins, "type", "xdp",
                                "pinmaps", mpins], capture_output=True, text=True)
            if r.returncode:
                pytest.skip(f"the kernel does not load {obj_path}: {r.stderr.strip()}")
            try:
                for name, elems in (maps or {}).items():
                    for k, v in elems.items():
                        subprocess.run([self.bpftool, "map", "update", "pinned",
                                        os.path.join(mpins, name), "key", "hex"] +
                                       [f"{b:02x}" for b in k] + ["value", "hex"] +
                                       [f"{b:02x}" for b in v], check=True)
                names = sorted(os.listdir(pins))
                name = prog if prog in names else names[0]
                r = subprocess.run([self.bpftool, "-j", "prog", "run", "pinned",
                                    os.path.join(pins, name), "data_in", din, "data_out", dout],
                                   capture_output=True, text=True, check=True)
                with open(dout, "rb") as f:
                    return json.loads(r.stdout)["retval"], f.read()
            finally:
                shutil.rmtree(pins, ignore_errors=True)
                shutil.rmtree(mpins, ignore_errors=True)

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def kernel():
    if os.geteuid() != 0:
        pytest.skip("comparing with the kernel's BPF_PROG_TEST_RUN needs root")
    bpftool = shutil.which("bpftool")
    if not bpftool or not os.path.ismount("/sys/fs/bpf"):
        pytest.skip("bpftool or bpffs (/sys/fs/bpf) missing")
    try:
        k = KernelRunner(bpftool)
    except OSError as e:
        pytest.skip(f"cannot use /sys/fs/bpf: {e}")
    yield k
    k.close()
