"""Checks that docs/trace.md documents the event table as `otter dump --kinds`
prints it (stdin): a row per kind with its fields, OTF2 record and graph
role, in the table's order, and every field name in the list below it.

usage: otter dump --kinds | python3 doc_kinds.py docs/trace.md
Prints each difference; exit status 1 if there is one."""
import re
import sys

doc = open(sys.argv[1]).read()
rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \| ([^|]*) \| (\w+) \|$", doc, re.M)
documented = [(n, f.strip(), r.replace("`", "").strip(), g) for n, f, r, g in rows]
glossary = doc[doc.find("The fields, by their name"):]
glossary = glossary[:glossary.find("\n## ")]
want, labels = [], set()
for line in sys.stdin:
    m = re.match(r"(\w+):((?: \w+)*) \[(.*); graph: (\w+)\]$", line.strip())
    if not m:
        sys.exit("doc_kinds.py: unexpected line from otter dump --kinds: " + line)
    name, fields, record, graph = m.groups()
    want.append((name, ", ".join(fields.split()) or "-", record, graph))
    labels.update(fields.split())
bad = False
if not want:
    sys.exit("doc_kinds.py: no kinds on stdin")
for w, d in zip(want, documented):
    if w != d:
        print("table says %s, docs say %s" % (w, d))
        bad = True
if len(want) != len(documented):
    print("%d kinds, %d documented" % (len(want), len(documented)))
    bad = True
for label in sorted(labels):
    if not re.search(r"`%s`" % re.escape(label), glossary):
        print("field %s is not described" % label)
        bad = True
sys.exit(1 if bad else 0)
