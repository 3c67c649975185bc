"""Runs a command that reads a damaged trace: it must end within 120 s with
exit status 0 or 1, print at most one line on stderr (an "otter: error:"
line when it fails; on success, a warning about a damaged thread file),
and leave no output file (or directory) larger than 25 times the archive
it read (the command's last argument), nor 100 MB if that is more: a read
that loops over the same events again would pass any bound.
Usage: bounded.py OUTPUT_PATH COMMAND..."""
import os
import subprocess
import sys

out, cmd = sys.argv[1], sys.argv[2:]
try:
    r = subprocess.run(cmd, timeout=120, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
except subprocess.TimeoutExpired:
    sys.exit(f"{cmd}: still running after 120 s")
err = r.stderr.strip().splitlines()
if r.returncode not in (0, 1):
    sys.exit(f"{cmd}: exit status {r.returncode}")
if r.returncode == 1 and (len(err) != 1 or not err[0].startswith("otter: error:")):
    sys.exit(f"{cmd}: expected one error line, got {err!r}")
size = 0
if os.path.isdir(out):
    for root, _, names in os.walk(out):
        size += sum(os.path.getsize(os.path.join(root, n)) for n in names)
elif os.path.exists(out):
    size = os.path.getsize(out)
archive = 0
for root, _, names in os.walk(cmd[-1]):
    archive += sum(os.path.getsize(os.path.join(root, n)) for n in names)
limit = max(100 * 2**20, 25 * archive)
if size > limit:
    sys.exit(f"{cmd}: wrote {size} bytes to {out} (limit {limit})")
