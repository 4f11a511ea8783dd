#!/usr/bin/env python3
"""Every relative link of the Markdown documents under a folder leads somewhere (ctest -L docs):
the file it names exists, and a `#fragment` into a Markdown file names one of its headings (by
GitHub's rule: lower case, punctuation dropped, spaces to hyphens, a repeated heading -1, -2...).
Links in fenced code blocks and in `code` are not links; http(s):, mailto: and the like are not
checked (no network).

usage: links_resolve.py DIR [--need FILE...]   (--need: files that must be among the documents)
"""
import argparse, os, re, sys

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def prose(text):
    """The text without fenced code blocks and inline code, line numbers kept."""
    text = re.sub(r"^(\s*)(```|~~~).*?^\s*\2\s*$", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.M | re.S)
    return re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), text)


def anchors(path, cache={}):
    if path not in cache:
        seen, out = {}, set()
        for line in prose(open(path, encoding="utf-8").read()).split("\n"):
            m = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", re.sub(r"<[^>]+>", "", m.group(1)).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else "%s-%d" % (slug, n))
        for m in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", open(path, encoding="utf-8").read()):
            out.add(m.group(1))
        cache[path] = out
    return cache[path]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--need", nargs="*", default=[])
    a = ap.parse_args()
    docs = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.dir) for f in fs if f.endswith(".md"))
    if not docs:
        print("FAIL: no Markdown documents under", a.dir)
        sys.exit(1)
    missing = [n for n in a.need if not os.path.isfile(os.path.join(a.dir, n))]
    broken, checked = [], 0
    for doc in docs:
        text = prose(open(doc, encoding="utf-8").read())
        for m in LINK.finditer(text):
            url = m.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url):
                continue
            checked += 1
            line = text.count("\n", 0, m.start()) + 1
            where = "%s:%d: %s" % (os.path.relpath(doc, a.dir), line, url)
            path, _, frag = url.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not os.path.exists(target):
                broken.append(where + " (no such file)")
            elif not os.path.realpath(target).startswith(os.path.realpath(a.dir) + os.sep):
                broken.append(where + " (outside the documents)")
            elif frag and target.endswith(".md") and frag not in anchors(target):
                broken.append(where + " (no heading #%s there)" % frag)
    for n in missing:
        print("FAIL: not among the documents:", n)
    for b in broken:
        print("FAIL: broken link", b)
    if missing or broken:
        sys.exit(1)
    print("PASS: %d relative links of %d documents resolve" % (checked, len(docs)))


if __name__ == "__main__":
    main()
