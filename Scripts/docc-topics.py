#!/usr/bin/env python3
"""Fails when a DocC page's Topics list the same article or symbol twice.

A page's `## Topics` groups its links under headings; a link listed under two headings shows
up twice in the rendered navigation, and a reader cannot tell which group is meant. Checks
every Markdown file of every package's DocC catalog (run by Scripts/docc-site.sh).
"""
import collections
import glob
import re
import sys

LINK = re.compile(r"^- (<doc:[^>]+>|``[^`]+``)", re.MULTILINE)


def duplicates(path):
    """The links listed more than once under the `## Topics` heading of `path`."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    if "## Topics" not in text:
        return []
    topics = text[text.index("## Topics"):]
    counts = collections.Counter(LINK.findall(topics))
    return sorted(link for link, count in counts.items() if count > 1)


def main():
    failed = False
    for path in sorted(glob.glob("Packages/*/Sources/*/*.docc/**/*.md", recursive=True)):
        for link in duplicates(path):
            print(f"{path}: {link} is listed more than once in Topics")
            failed = True
    if failed:
        sys.exit(1)
    print("no DocC page lists a topic twice")


if __name__ == "__main__":
    main()
