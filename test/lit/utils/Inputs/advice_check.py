"""Prints each advice of the kind given (argv[2]) in `otter diagnose --json`
(argv[1]): the check it answers, its kind and site, the cores it was
replayed on, and whether the time predicted with the change applied is below
the time predicted as is. FileCheck checks these lines: the predicted times
themselves vary from run to run."""
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
for finding in report["findings"]:
    a = finding.get("advice")
    if not a or a["kind"] != sys.argv[2]:
        continue
    before, after = a["predicted_before_ns"], a["predicted_after_ns"]
    print(f'{finding["check"]} {a["kind"]} {a["where"]} cores={a["cores"]} '
          f'after<before={after < before} after<=before={after <= before} '
          f'transformation={a["transformation"].split(":")[0]}')
