#!/usr/bin/env python3
"""Checks that every relative link in the documentation resolves inside the repository.

Usage: python3 .ci/check-links.py [FILE.md ...]
Without arguments it checks README.md, CONTRIBUTING.md, docs/*.md and examples/README.md. A link's
path must exist inside the repository; a #fragment must name a heading of the Markdown file it points
to (GitHub's anchors). Links to other sites are not fetched. Exits 1 and lists each bad link.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')


def prose(text):
    """The text without fenced code blocks and code spans, where brackets are not links."""
    text = re.sub(r'^\s*(```|~~~).*?^\s*\1[^\n]*$', '', text, flags=re.M | re.S)
    return re.sub(r'(`+)(?:(?!\1).)+?\1', '', text, flags=re.S)


def anchors(path):
    seen, found = {}, set()
    text = re.sub(r'^\s*(```|~~~).*?^\s*\1[^\n]*$', '', path.read_text(encoding='utf-8'), flags=re.M | re.S)
    for heading in re.findall(r'^#{1,6}\s+(.+?)\s*#*\s*$', text, flags=re.M):
        slug = re.sub(r'[^\w\- ]', '', heading.replace('`', '').strip().lower()).replace(' ', '-')
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f'{slug}-{n}')
    return found


def check(md):
    bad = []
    for target in LINK.findall(prose(md.read_text(encoding='utf-8'))):
        if re.match(r'^[a-z][a-z0-9+.-]*:', target, flags=re.I):
            continue  # http:, https:, mailto:
        path, _, fragment = target.partition('#')
        dest = (md.parent / path).resolve() if path else md
        if ROOT not in dest.parents and dest != ROOT:
            bad.append(f'{target}: outside the repository')
        elif not dest.exists():
            bad.append(f'{target}: no such file')
        elif fragment and dest.suffix == '.md' and fragment not in anchors(dest):
            bad.append(f'{target}: no heading #{fragment} in {dest.relative_to(ROOT)}')
    return bad


def main(args):
    files = [Path(a).resolve() for a in args] or [
        ROOT / 'README.md', ROOT / 'CONTRIBUTING.md', *sorted((ROOT / 'docs').glob('*.md')), ROOT / 'examples' / 'README.md']
    failures = 0
    for md in files:
        for problem in check(md):
            print(f'{md.relative_to(ROOT)}: {problem}')
            failures += 1
    print(f'check-links: {len(files)} files, {failures} bad link(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
