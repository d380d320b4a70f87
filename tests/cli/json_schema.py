#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every command's -j output against its schema in Documentation/schema.

Runs each command of the table below with -j (and once with -p), reads
the JSON documents it prints (one, or JSON lines) and validates each
against the command's schema (JSON Schema 2020-12, python3-jsonschema).
Fails when a document does not validate (the schemas refuse keys they do
not declare, so a command that starts emitting a new key needs its
schema first), when a command of `uxdp help` has no case here, or when
a schema file is used by no case.

Usage: json_schema.py UXDP PROGS_DIR SCHEMA_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

UXDP, PROGS, SCHEMAS = (os.path.abspath(a) for a in sys.argv[1:4])
# objects of `uxdp help` that print no JSON of their own, and why
NO_JSON = {
    "shell": "the same document as run (run.json), line by line",
    "help": "prints null with -j",
    "completion": "a bash script, not JSON, with or without -j",
}
failed = 0


def fail(msg):
    global failed
    failed += 1
    print("not ok - " + msg)


def documents(text):
    """The JSON documents in @text, in order (one, or JSON lines)."""
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        doc, i = dec.raw_decode(text, i)
        out.append(doc)


def script(tmp, name, lines):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


tmpdir = tempfile.TemporaryDirectory(prefix="uxdp-schema.")
tmp = tmpdir.name
pkt = os.path.join(tmp, "pkt")
with open(pkt, "wb") as f:
    f.write(bytes.fromhex("ffffffffffff020000000001080045000020000000004011000"
                          "0c6120002c6130002003500350008000000") + bytes(18))
obj = os.path.join(PROGS, "xdp1.o")
everything = script(tmp, "all.uxdp", [
    "link add g0 type gen size 64 proto udp src 198.18.0.2 dst 198.19.0.2",
    "link add v0 type veth peer name v1",
    "link set dev v1 xdp obj %s" % obj,
    "link set dev v0 xdpgeneric obj %s" % obj,
    "addr add 198.18.0.1/24 dev g0",
    "addr add 198.19.0.1/24 dev v0",
    "addr add 2001:2::1/64 dev v0",
    "neigh add 198.19.0.2 lladdr 02:00:00:00:00:02 dev v0",
    "route add 198.20.0.0/16 via 198.19.0.2",
    "route add blackhole 198.21.0.0/16",
    "sysctl net.ipv4.ip_forward=1",
    "link show", "addr show", "route show", "neigh show", "ntable show", "snmp",
    "run 100ms interval 20ms label first",
    "run count 100 latency measure v1",
    "stats", "stats dev v1", "stats maps", "stats drops", "stats trace", "stats records",
    "map dump xdp1:rxcnt",
    "expect dev v1 xdp_drop >= 1",
])
# two lab variants: 12 generations of 5 rounds make the 6 blocks the lab
# needs for an interval, so the bounds are numbers (fewer: null)
ab_a = script(tmp, "ab-a.uxdp", [
    "link add g0 type gen size 64 proto udp src 198.18.0.1 dst 198.19.0.1",
    "link set dev g0 xdpgeneric obj %s" % obj, "run 1s measure g0"])
ab_b = script(tmp, "ab-b.uxdp", [
    "link add g0 type gen size 128 proto udp src 198.18.0.1 dst 198.19.0.1",
    "link set dev g0 xdpgeneric obj %s" % obj, "run 1s measure g0"])
failing = script(tmp, "late-error.uxdp", [
    "link add g0 type gen count 10", "run", "link add g0 type gen"])
CASES = [
    # (object of `uxdp help`, argv after uxdp -j, schema, expected exit status)
    ("version", ["version"], "version.json", 0),
    ("prog", ["prog", "show", obj], "prog-show.json", 0),
    ("prog", ["prog", "run", obj, "data_in", pkt, "dump-maps"], "prog-run.json", 0),
    ("prog", ["prog", "run", obj], "error.json", 2),
    ("prog", ["prog", "dump", "xlated", obj, "linum", "opcodes"], "prog-dump-xlated.json", 0),
    ("prog", ["prog", "dump", "xlated", "xdp_globals.o"], "prog-dump-xlated.json", 0),
    ("prog", ["prog", "dump", "jited", obj], "prog-dump-jited.json", 0),
    ("run", ["run", everything], "run.json", 0),
    ("run", ["run", failing], "run.json", 2),
    ("run", ["run", os.path.join(tmp, "missing.uxdp")], "error.json", 2),
    ("test", ["test", everything], "test.json", 0),
    ("ab", ["ab", ab_a, ab_b, "--rounds", "60", "--time", "0.01", "--respawn", "5"], "ab.json", 0),
    ("ab", ["ab", ab_a, ab_b, "--rounds", "10", "--time", "0.01", "--respawn", "5"], "ab.json", 0),
    ("ab", ["ab", ab_a, ab_b, "--metric", "p50", "--rounds", "4", "--time", "0.05"], "ab.json", 0),
]

validators = {}
for name in sorted(os.listdir(SCHEMAS)):
    if name.endswith(".json"):
        with open(os.path.join(SCHEMAS, name)) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[name] = jsonschema.Draft202012Validator(schema)

used = set()
for obj_name, argv, schema, want_rc in CASES:
    for opt in ("-j", "-p"):
        what = "uxdp %s %s" % (opt, " ".join(argv))
        p = subprocess.run([UXDP, opt] + argv, capture_output=True, text=True, cwd=PROGS,
                           timeout=120)
        if p.returncode != want_rc:
            fail("%s: exit status %d, want %d: %s" % (what, p.returncode, want_rc,
                                                      (p.stdout + p.stderr)[:300]))
            continue
        try:
            docs = documents(p.stdout)
        except ValueError as e:
            fail("%s: not JSON (%s): %s" % (what, e, p.stdout[:300]))
            continue
        if not docs:
            fail("%s: no JSON at all" % what)
            continue
        if schema not in validators:
            fail("%s: no schema %s in %s" % (what, schema, SCHEMAS))
            continue
        used.add(schema)
        errors = [e for d in docs for e in validators[schema].iter_errors(d)]
        for e in errors[:5]:
            fail("%s: %s: /%s: %s" % (what, schema, "/".join(map(str, e.absolute_path)),
                                      e.message[:200]))
        if not errors:
            print("ok - %s: %d document%s valid against %s" %
                  (what, len(docs), "" if len(docs) == 1 else "s", schema))

# the late error keeps the completed run
p = subprocess.run([UXDP, "-j", "run", failing], capture_output=True, text=True)
d = json.loads(p.stdout)
if len(d.get("runs", [])) != 1 or d.get("error", {}).get("line") != 3 or \
        "g0" not in d["error"].get("message", ""):
    fail("late error: want the completed run and error line 3: %s" % p.stdout[:300])
else:
    print("ok - an error on line 3 keeps the run of line 2")

# the lab prints an interval only from enough blocks, and null below that
for rounds, enough in (("60", True), ("10", False)):
    p = subprocess.run([UXDP, "-j", "ab", ab_a, ab_b, "--rounds", rounds, "--time", "0.01",
                        "--respawn", "5"], capture_output=True, text=True, cwd=PROGS, timeout=120)
    r = json.loads(p.stdout)["variants"][1]["ratio"]
    if r["enough_data"] != enough or (r["lo"] is not None) != enough:
        fail("ab --rounds %s: enough_data %s, lo %s; want %s" % (rounds, r["enough_data"], r["lo"],
                                                                   enough))
    else:
        print("ok - ab --rounds %s: %s" % (rounds, "an interval" if enough else "no interval (null)"))

p = subprocess.run([UXDP, "help"], capture_output=True, text=True)
objects = set(re.findall(r"^  uxdp (\w+)", p.stdout, re.M))
if not objects:
    fail("no commands in `uxdp help`: %s" % p.stdout[:300])
for o in sorted(objects):
    if o in NO_JSON:
        print("ok - uxdp %s: no JSON of its own (%s)" % (o, NO_JSON[o]))
    elif o not in {c[0] for c in CASES}:
        fail("uxdp %s prints JSON that no case here validates" % o)
for s in sorted(set(validators) - used):
    fail("schema %s is used by no command" % s)
print("%s: json_schema" % ("FAIL" if failed else "PASS"))
sys.exit(1 if failed else 0)
