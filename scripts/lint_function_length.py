#!/usr/bin/env python3
"""Refuse any function in the given trees (default: sim/) longer than --max lines.

A long entry function hides the order of its steps; cut it into named steps instead. The scan
is a brace count, not a parser: comments, string and character literals and preprocessor lines
are blanked first (line numbers kept), then every brace block at namespace or class scope whose
header is not a namespace, class, struct, union, enum or extern block, nor an initializer
(`= {`), is a function body. Its length is counted from the line of its opening brace to the
line of its closing brace; lambdas and local classes inside it count as part of it.

  lint_function_length.py [--max N] [PATH...]   exit 1 and list every function over N lines
  lint_function_length.py --self-test           prove the scan on files it writes itself
"""
import argparse
import pathlib
import re
import sys
import tempfile

CONTAINER = re.compile(r"\b(namespace|class|struct|union|enum|extern)\b")
TEMPLATE = re.compile(r"\btemplate\s*<")


def blank(text):
    """Comments, literals and preprocessor lines replaced by spaces, newlines kept."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a directive, with its continuation lines
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delim = text[i + 2:open_paren]
            end = text.find(")" + delim + '"', open_paren)
            end = n if end < 0 or open_paren < 0 else end + len(delim) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):  # not a digit separator
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_templates(header):
    """The header without its `template <...>` prefixes (whose `class` is no class)."""
    while True:
        m = TEMPLATE.search(header)
        if not m:
            return header
        depth, j = 0, m.end() - 1
        while j < len(header):
            depth += {"<": 1, ">": -1}.get(header[j], 0)
            if depth == 0:
                break
            j += 1
        header = header[:m.start()] + " " + header[j + 1:]


def matching(text, i):
    """Index of the brace closing the one at i."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def functions(text):
    """(first line, last line) of every function body in blanked text."""
    found = []

    def scope(begin, end):
        header_start = begin
        i = begin
        while i < end:
            c = text[i]
            if c in ";}":
                header_start = i + 1
            elif c == "{":
                close = matching(text, i)
                header = strip_templates(text[header_start:i]).strip()
                after = text[close + 1:close + 80].lstrip()
                if "(" in header and after[:1] in (",", "{"):
                    i = close + 1  # a member's brace initializer inside a constructor's header
                    continue
                before_paren = header.split("(")[0]
                if CONTAINER.search(before_paren):
                    scope(i + 1, close)
                elif header.endswith("=") or header.endswith(",") or not header:
                    pass  # an initializer (a table), not code
                elif "(" in header or "[" in header:
                    found.append((text.count("\n", 0, i) + 1, text.count("\n", 0, close) + 1))
                header_start = close + 1
                i = close
            i += 1

    scope(0, len(text))
    return found


def scan(paths, limit):
    too_long = []
    for root in paths:
        root = pathlib.Path(root)
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.suffix in (".cpp", ".h"))
        for f in files:
            for first, last in functions(blank(f.read_text(encoding="utf-8", errors="replace"))):
                if last - first + 1 > limit:
                    too_long.append(f"{f}:{first}: function of {last - first + 1} lines (at most {limit})")
    return too_long


def body(lines):
    return "\n".join(f"  x += {k};  // {{ not a brace" for k in range(lines - 2))


def self_test(limit):
    """The scan finds a function one line too long and passes one at the limit, through
    lambdas, literals, comments, templates, classes and constructor initializers."""
    tricky = (
        'namespace a {\n'
        'template <class T> struct S {\n'
        '  S() : v_{1}, w_(2) {}\n'
        '  int v_{0}; int w_;\n'
        '  const char* s = "}}}";\n'
        '};\n'
        'static const int kTable[] = {\n' + ",\n".join(["1"] * (limit + 5)) + '\n};\n'
    )
    cases = {
        "ok.cpp": tricky + "void f() {\n" + body(limit) + "\n}\n}  // namespace a\n",
        "long.cpp": tricky + "void f() {\n" + body(limit + 1) + "\n}\n}  // namespace a\n",
        "long_lambda.cpp": "struct K {\n  int g() const {\n    auto l = [&] { return '}'; };\n"
        + body(limit - 1) + "\n    /* } */ return R\"x(})x\"[0] + 1'000;\n  }\n};\n",
    }
    with tempfile.TemporaryDirectory() as d:
        for name, src in cases.items():
            (pathlib.Path(d) / name).write_text(src)
        got = {name: scan([pathlib.Path(d) / name], limit) for name in cases}
    failures = []
    if got["ok.cpp"]:
        failures.append(f"a function of {limit} lines was refused: {got['ok.cpp']}")
    if len(got["long.cpp"]) != 1 or f"of {limit + 1} lines" not in got["long.cpp"][0]:
        failures.append(f"a function of {limit + 1} lines was not found: {got['long.cpp']}")
    if len(got["long_lambda.cpp"]) != 1 or f"of {limit + 1} lines" not in got["long_lambda.cpp"][0]:
        failures.append(f"a member function of {limit + 1} lines with a lambda inside was not found: "
                        f"{got['long_lambda.cpp']}")
    for f in failures:
        print("self-test:", f)
    if not failures:
        print(f"self-test: a function of {limit + 1} lines is refused, one of {limit} passes")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=120)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("paths", nargs="*", default=[str(pathlib.Path(__file__).resolve().parent.parent / "sim")])
    a = ap.parse_args()
    if a.self_test:
        return self_test(a.max)
    too_long = scan(a.paths, a.max)
    for t in too_long:
        print(t)
    if not too_long:
        print(f"every function in {', '.join(a.paths)} has at most {a.max} lines")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
