#!/usr/bin/env bash
# Builds the manual (docs/, mdBook pinned in scripts/setup.sh) into target/book and checks every link
# of the built pages offline: each relative link and picture must reach a file of the book, and each
# #anchor an id on its page; a link may not leave the book (a repository file is named, not linked).
set -euo pipefail
cd "$(dirname "$0")/.."
mdbook=${MDBOOK:-.tools/bin/mdbook}
[ -x "$mdbook" ] || { echo "book: $mdbook is missing; run scripts/setup.sh --tests" >&2; exit 1; }
rm -rf target/book
"$mdbook" build docs >&2
python3 - target/book <<'PY'
import html.parser, os, sys, urllib.parse
root = os.path.realpath(sys.argv[1])

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "img", "link", "script"):
                self.links.append((tag, attrs[key]))

pages = {}
for folder, _, files in os.walk(root):
    for name in files:
        if name.endswith(".html"):
            path = os.path.join(folder, name)
            page = Page()
            page.feed(open(path, encoding="utf-8").read())
            pages[path] = page
# mdBook's own pages and theme files are not the chapters' links.
own = {"print.html", "404.html", "toc.html"}
broken, checked = [], 0
for path, page in pages.items():
    if os.path.basename(path) in own:
        continue
    for tag, link in page.links:
        parts = urllib.parse.urlsplit(link)
        if parts.scheme or link.startswith("//") or link.startswith("mailto:"):
            continue
        checked += 1
        target = path if not parts.path else os.path.realpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(parts.path)))
        where = os.path.relpath(path, root)
        if not target.startswith(root + os.sep) and target != root:
            broken.append(f"{where}: {link} leaves the book")
            continue
        if os.path.isdir(target):
            target = os.path.join(target, "index.html")
        if not os.path.exists(target):
            broken.append(f"{where}: {link} reaches no file")
        elif parts.fragment and target.endswith(".html") and parts.fragment not in pages[target].ids:
            broken.append(f"{where}: {link} reaches no anchor #{parts.fragment}")
chapters = len([p for p in pages if os.path.basename(p) not in own])
print(f"book: {chapters} pages, {checked} links checked, {len(broken)} broken")
for b in broken:
    print(f"book: {b}", file=sys.stderr)
sys.exit(1 if broken else 0)
PY
