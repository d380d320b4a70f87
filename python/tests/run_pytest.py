#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""meson test entry of the pytest suite: run pytest on python/tests with an
interpreter that has it (this one, else the system's /usr/bin/python3, where
Debian's python3-pytest lives); exit 77 (skip) with the reason when none has.

  run_pytest.py [PYTEST ARGS...]
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def has_pytest(python):
    return subprocess.run([python, "-c", "import pytest"], capture_output=True).returncode == 0


for python in (sys.executable, "/usr/bin/python3"):
    if os.path.exists(python) and has_pytest(python):
        break
else:
    print("run_pytest: pytest is not installed (Debian: python3-pytest); skipped")
    sys.exit(77)
env = dict(os.environ)
env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.path.dirname(here), env.get("PYTHONPATH")]))
env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
sys.exit(subprocess.run([python, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-rs", here]
                        + sys.argv[1:], env=env).returncode)
