#!/usr/bin/env python3
"""Every relative link of the Markdown files under a folder resolves.

Usage: check_links.py DIR. Checks [text](target) links whose target is not
a URL or a bare #anchor: the file must exist relative to the page. Prints
one line per broken link and "N links, M broken"; exits 1 if any is.
"""
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def main():
    root = sys.argv[1]
    links = broken = 0
    for base, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            page = os.path.join(base, name)
            text = open(page, encoding="utf-8").read()
            # Code blocks and spans are not links.
            text = re.sub(r"```.*?```", "", text, flags=re.S)
            text = re.sub(r"`[^`\n]*`", "", text)
            for target in LINK.findall(text):
                if re.match(r"^[a-z]+://|^#|^mailto:", target):
                    continue
                links += 1
                path = target.split("#", 1)[0]
                if not os.path.exists(os.path.join(base, path)):
                    broken += 1
                    print(f"{os.path.relpath(page, root)}: broken link "
                          f"{target}")
    print(f"{links} links, {broken} broken")
    return 1 if broken or not links else 0


if __name__ == "__main__":
    sys.exit(main())
