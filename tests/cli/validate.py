#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# validate.py SCHEMA FILE: exit 0 if FILE (one JSON document) is valid
# against SCHEMA (JSON Schema 2020-12), else 1 and every error's path.
import json
import sys

import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
with open(sys.argv[2]) as f:
    doc = json.load(f)
v = jsonschema.Draft202012Validator(schema)
errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
for e in errors[:20]:
    print("%s: /%s: %s" % (sys.argv[2], "/".join(map(str, e.absolute_path)), e.message[:300]))
sys.exit(1 if errors else 0)
