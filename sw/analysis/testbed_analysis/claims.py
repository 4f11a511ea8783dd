"""The claims ledger: every claim of a seed paper as a row, checked against the run.

The ledger is data, one TOML file per seed in sw/analysis/claims/ (seedNNN.toml):

  [values.NAME]      a measured value, found in a generated results doc (docs/results/*.md): a
                     markdown table cell (after = a line the table follows, row = its first cell,
                     col = its column's header) or a regular expression with one group (find);
                     doc = the doc's file name ("@" is the doc being written). Or expr = an
                     arithmetic expression over other values. Never a number typed in.
  [[claim]]          id, seed, where (section or figure), quote (the seed's words, verbatim),
                     seed_value (the value as the seed prints it: it must appear in the quote),
                     check (below), explained_by ("doc.md#heading": the A/B run or the section that
                     measures the cause of a difference) or not_attempted (why), note;
                     explained_check (a check as below, on values of the A/B run): with it the row
                     is explained only while the A/B run shows the gap closed or flipped.

A check fails in both directions (tests/claims/test_claims_ledger.py mutates each measured value
to its opposite and expects the verdict to flip):

  {kind = "order", values = ["a", "b", ...]}        a < b < ... strictly
  {kind = "band", value = "a", ref = "b" | ref_seed = true, lo = L, hi = H}
                                                    L <= a / ref <= H, both finite
  {kind = "sign", value = "a", sign = "+" | "-"}    a > 0 or a < 0

The verdict is computed, never written: the check holds -> "reproduced" (within the band, or in
shape for an order or a sign); it fails and the row points to a measurement of its cause ->
"explained" (when the row has an explained_check: only while that check holds); it fails without
one -> "unexplained"; no check (not_attempted) -> "not attempted".

The same values fill the prose templates ({{NAME}} or {{NAME:FORMAT}}, FORMAT a Python format
spec) of the *_why.md and *_intro.md texts pasted into the docs: prose carries no number of its
own (prose_numbers() below says which number is allowed).

  python3 -m testbed_analysis.claims --docs docs/results --out docs/results/claims.md
  python3 -m testbed_analysis.claims --prose FILE...   (exit 1 on a hand-written number)
"""
import argparse
import ast
import glob
import math
import operator
import os
import re
import sys
import tomllib

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # sw/analysis
ROOT = os.path.dirname(os.path.dirname(HERE))
LEDGER_DIR = os.path.join(HERE, "claims")
SEEDS = ["000", "001", "002", "003", "004"]
VERDICTS = ["reproduced", "explained", "unexplained", "not attempted"]


class LedgerError(Exception):
    pass


def seeds_dir():
    """The seed papers' text (../shared/seeds beside the clone, or TESTBED_SHARED_DIR/seeds)."""
    shared = os.environ.get("TESTBED_SHARED_DIR") or os.path.join(os.path.dirname(ROOT), "shared")
    return os.path.join(shared, "seeds")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def seed_text(seed):
    files = glob.glob(os.path.join(seeds_dir(), "%s_*.txt" % seed))
    if not files:
        raise LedgerError("seed %s: no %s_*.txt in %s" % (seed, seed, seeds_dir()))
    return read(files[0])


def normalise(s):
    """Whitespace runs to one space, typographic quotes and dashes to ASCII: how a quote is compared."""
    s = s.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("\u2018", "'")
    s = s.replace("\u2013", "-").replace("\u2014", "-").replace("\u00b5", "\u03bc")
    return re.sub(r"\s+", " ", s).strip()


def load(seed, ledger_dir=None):
    path = os.path.join(ledger_dir or LEDGER_DIR, "seed%s.toml" % seed)
    with open(path, "rb") as f:
        led = tomllib.load(f)
    led.setdefault("values", {})
    led.setdefault("claim", [])
    led["path"] = path
    return led


def load_all(ledger_dir=None):
    return {s: load(s, ledger_dir) for s in SEEDS if os.path.exists(os.path.join(ledger_dir or LEDGER_DIR, "seed%s.toml" % s))}


# ---------------------------------------------------------------- values from the docs

NUM = re.compile(r"[-+\u2212]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


def parse_number(text):
    m = NUM.search(text)
    if not m:
        return None
    return float(m.group(0).replace(",", "").replace("\u2212", "-"))


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table_from(text, pos):
    """The header and the body rows of the markdown table on or after the line holding `pos` (the
    line itself may be the table's header); ([], []) if none follows."""
    header, rows = None, []
    for ln in text[text.rfind("\n", 0, pos) + 1:].split("\n"):
        if not ln.startswith("|"):
            if header is not None:
                break
            continue
        cells = _cells(ln)
        if header is None:
            header = cells
        elif not set("".join(cells)) <= set("-: "):
            rows.append(cells)
    return header or [], rows


def table_cell(text, after, row, col, nth=1):
    """The cell of the markdown table that follows the line containing `after` (its nth occurrence)."""
    pos = -1
    for _ in range(nth):
        pos = text.find(after, pos + 1)
        if pos < 0:
            return None
    header, rows = _table_from(text, pos)
    for cells in rows:
        if cells[0] == row:
            if col not in header:
                return None
            i = header.index(col)
            return cells[i] if i < len(cells) else None
    return None


def crossover(text, after, below, above):
    """The first row (its first cell) of the table after `after` from which column `below` stays
    under column `above` in every later row; None if it never does."""
    pos = text.find(after)
    if pos < 0:
        return None
    header, body = _table_from(text, pos)
    if below not in header or above not in header:
        return None
    rows = [(c[0], parse_number(c[header.index(below)]), parse_number(c[header.index(above)])) for c in body]
    first = None
    for key, a, b in rows:
        if a is not None and b is not None and a < b:
            first = first or key
        else:
            first = None
    return first


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _eval(node, env):
    if isinstance(node, ast.Expression):
        return _eval(node.body, env)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, env)
    if isinstance(node, ast.Name):
        return env(node.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        # a constant is only a unit's factor (1000 for ms -> µs, 100 for percent): see the tests
        return float(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max", "abs"):
        f = {"min": min, "max": max, "abs": abs}[node.func.id]
        return f(*[_eval(a, env) for a in node.args])
    raise LedgerError("expression: %s not allowed" % ast.dump(node))


PROSE_MARK = "<!-- prose: "
CLAIMS_MARK = "<!-- claims: "


def run_part(text):
    """A doc without what the ledger and the prose templates add to it: values are read from the
    run's own tables and lines, never from a filled template or a claims table."""
    cut = [i for i in (text.find(PROSE_MARK), text.find(CLAIMS_MARK)) if i >= 0]
    return text[:min(cut)] if cut else text


class Docs:
    """The generated docs the values are read from; `current` is the doc being written (name, text)."""

    def __init__(self, docs_dir, current=None):
        self.dir, self.current, self.cache = docs_dir, current, {}

    def text(self, name):
        if self.current and name in ("@", self.current[0]):
            return run_part(self.current[1])
        if name == "@":
            return None
        if name not in self.cache:
            p = os.path.join(self.dir, name)
            self.cache[name] = run_part(read(p)) if os.path.exists(p) else None
        return self.cache[name]


def resolve(led, docs, overrides=None):
    """{name: (number or None, text as printed or None, where)} for every value of the ledger."""
    out = {}
    specs = led["values"]

    def get(name):
        if overrides and name in overrides:
            return overrides[name]
        if name in out:
            return out[name][0]
        if name not in specs:
            raise LedgerError("%s: no value %r" % (led["path"], name))
        sp = specs[name]
        doc = sp.get("doc", led.get("doc", "@"))
        shown, where = None, doc
        if "expr" in sp:
            try:
                v = _eval(ast.parse(sp["expr"], mode="eval"), get)
            except (TypeError, ZeroDivisionError):
                v = None
            shown = None if v is None else ("%" + sp.get("format", ".3g")) % v
            where = "= " + sp["expr"]
        else:
            text = docs.text(doc)
            cell = None
            if text is not None:
                if "below" in sp:
                    cell = crossover(text, sp["after"], sp["below"], sp["above"])
                elif "find" in sp:
                    start = text.find(sp["after"]) if "after" in sp else 0
                    m = re.search(sp["find"], text[start:]) if start >= 0 else None
                    cell = m.group(1) if m else None
                else:
                    cell = table_cell(text, sp["after"], sp["row"], sp["col"], sp.get("nth", 1))
            v = parse_number(cell) if cell is not None else None
            if v is not None and "scale" in sp:
                v *= sp["scale"]
            shown = cell.strip() if cell is not None else None
        out[name] = (v, shown, where)
        return v

    for n in specs:
        get(n)
    return out


# ---------------------------------------------------------------- checks and verdicts

def check_names(check):
    if check["kind"] == "order":
        return list(check["values"])
    names = [check["value"]]
    if check.get("ref"):
        names.append(check["ref"])
    return names


WORD_NUMBERS = {"twice": 2.0, "half": 0.5, "three times": 3.0}


def seed_number(claim):
    v = parse_number(claim["seed_value"])
    if v is None:
        v = WORD_NUMBERS.get(claim["seed_value"].strip().lower())
    if v is None:
        raise LedgerError("%s: seed_value %r has no number" % (claim["id"], claim["seed_value"]))
    return v


def run_check(claim, vals):
    """True / False, or None when a value is missing."""
    c = claim["check"]
    k = c["kind"]
    xs = [vals.get(n) for n in check_names(c)]
    if any(x is None for x in xs):
        return None
    if k == "order":
        return all(a < b for a, b in zip(xs, xs[1:]))
    if k == "sign":
        return xs[0] > 0 if c["sign"] == "+" else xs[0] < 0
    if k == "band":
        ref = xs[1] if c.get("ref") else 1.0 if c.get("absolute") else seed_number(claim)
        if ref == 0:
            return False
        r = xs[0] / ref
        return c["lo"] <= r <= c["hi"]
    raise LedgerError("%s: unknown check kind %r" % (claim["id"], k))


def opposites(claim, vals):
    """Measured values turned to their opposite: each must flip the check's outcome."""
    c = claim["check"]
    k = c["kind"]
    names = check_names(c)
    xs = [vals[n] for n in names]
    ok = run_check(claim, vals)
    out = []
    if k == "order":
        s = sorted(xs)
        if ok:
            new = s[::-1]
        else:  # put them in order; equal values are spread apart, a tie being no order
            step = max(max(abs(x) for x in s) * 0.01, 1e-6)
            new = [x + i * step for i, x in enumerate(s)]
        out.append(dict(vals, **dict(zip(names, new))))
    elif k == "sign":
        out.append(dict(vals, **{names[0]: -xs[0]}))
    elif k == "band":
        ref = xs[1] if c.get("ref") else 1.0 if c.get("absolute") else seed_number(claim)
        lo, hi = c["lo"], c["hi"]
        if ok:
            span = (hi - lo) if math.isfinite(hi - lo) else 1.0
            for r in (hi + span + abs(hi), lo - span - abs(lo)):
                out.append(dict(vals, **{names[0]: r * ref}))
        else:
            out.append(dict(vals, **{names[0]: (lo + hi) / 2.0 * ref}))
    return out


def describe_check(claim):
    c = claim["check"]
    if c["kind"] == "order":
        return " < ".join(c["values"])
    if c["kind"] == "sign":
        return "%s %s 0" % (c["value"], ">" if c["sign"] == "+" else "<")
    if c.get("absolute"):
        return "%g <= %s <= %g" % (c["lo"], c["value"], c["hi"])
    ref = c.get("ref") or "seed"
    return "%g <= %s / %s <= %g" % (c["lo"], c["value"], ref, c["hi"])


def evaluate(led, docs, overrides=None):
    """Each claim with its measured values, check outcome and verdict."""
    vals = resolve(led, docs, overrides)
    nums = {n: v[0] for n, v in vals.items()}
    rows = []
    for cl in led["claim"]:
        r = {"claim": cl, "values": {}, "ok": None}
        if "not_attempted" in cl:
            r["verdict"] = "not attempted"
            r["why"] = cl["not_attempted"]
            rows.append(r)
            continue
        for n in check_names(cl["check"]):
            r["values"][n] = vals[n]
        ok = run_check(cl, nums)
        r["ok"] = ok
        if ok:
            r["verdict"] = "reproduced"
            c = cl["check"]
            r["why"] = ("within the band of the seed's value" if c["kind"] == "band" and not c.get("ref")
                        and not c.get("absolute") else "in shape")
        elif ok is None:
            r["verdict"] = "unexplained"
            r["why"] = "a measured value was not found in the doc: " + ", ".join(
                n for n, v in r["values"].items() if v[0] is None)
        elif cl.get("explained_by"):
            ab = cl.get("explained_check")
            for n in check_names(ab) if ab else ():
                r["values"][n] = vals[n]
            if ab and not run_check({"id": cl["id"], "check": ab, "seed_value": cl["seed_value"]}, nums):
                r["verdict"] = "unexplained"
                r["why"] = "the check fails, and so does its A/B run's (%s)" % describe_check({"check": ab})
            else:
                r["verdict"] = "explained"
                r["why"] = "the check fails; the cause is measured in " + cl["explained_by"]
        else:
            r["verdict"] = "unexplained"
            r["why"] = "the check fails and no measurement of this run shows why"
        rows.append(r)
    return rows


def _link(ref, from_results=True):
    doc, _, anchor = ref.partition("#")
    slug = re.sub(r"[^\w\- ]", "", anchor.lower()).replace(" ", "-")
    return "[%s](%s%s)" % (ref, doc, "#" + slug if slug else "")


def _measured(r):
    if not r["values"]:
        return "-"
    return "; ".join("%s = %s" % (n, v[1] if v[1] is not None else "(not found)") for n, v in r["values"].items())


def rows_markdown(rows):
    out = ["| id | where | the seed's words | seed's value | measured (this run) | check | verdict |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        cl = r["claim"]
        check = "-" if "not_attempted" in cl else "%s: **%s**" % (
            describe_check(cl), {True: "holds", False: "fails", None: "no value"}[r["ok"]])
        verdict = "**%s**: %s" % (r["verdict"], r["why"])
        if cl.get("note"):
            verdict += " (%s)" % cl["note"]
        if r["verdict"] == "explained":
            verdict = "**explained**: %s" % _link(cl["explained_by"])
            if "explained_check" in cl:
                verdict += " (A/B: %s **holds**)" % describe_check({"check": cl["explained_check"]})
        out.append("| %s | %s | \"%s\" | %s | %s | %s | %s |" % (
            cl["id"], cl["where"], normalise(cl["quote"]).replace("|", "/"), cl["seed_value"], _measured(r), check, verdict))
    return "\n".join(out) + "\n"


def counts(rows):
    c = {v: 0 for v in VERDICTS}
    for r in rows:
        c[r["verdict"]] += 1
    return c


def rows_for_doc(led, rows, doc_name):
    """The rows whose every value is read from doc_name (or from the doc being written)."""
    out = []
    for r in rows:
        cl = r["claim"]
        if cl.get("doc", led.get("doc")) == doc_name:
            out.append(r)
    return out


def doc_section(seed, doc_name, text, docs_dir=None, level=2):
    """The claims section a results doc shows: its rows of the ledger, evaluated on its own text."""
    led = load(seed)
    docs = Docs(docs_dir or os.path.join(ROOT, "docs", "results"), (doc_name, text))
    rows = rows_for_doc(led, evaluate(led, docs), doc_name)
    if not rows:
        return ""
    c = counts(rows)
    return ("%s Claims ledger: this doc's rows\n\nEach row is a claim of seed %s (`sw/analysis/claims/seed%s.toml`), "
            "its measured values read from the tables above, its check able to fail either way; the verdict is "
            "computed (reproduced / explained / unexplained / not attempted). Here: %s. All seeds: "
            "[claims.md](claims.md).\n\n%s\n" % (
                "#" * level, seed, seed, ", ".join("%d %s" % (c[v], v) for v in VERDICTS), rows_markdown(rows)))


def doc_tail(seed, doc_name, body, prose=None, docs_dir=None):
    """What follows a results doc's run: its prose template filled from the run (prose: a path
    under sw/analysis) and its claims rows. Every seed's doc writer ends its doc with this, and
    `docs-claims` (refresh) writes it again in place, so a change of the ledger or of the prose
    shows without a new simulation; the run's tables and figures above stay as the run wrote them."""
    out = []
    if prose:
        rel = os.path.relpath(prose, ROOT)
        out.append("%s%s, its numbers filled from the tables above -->\n%s\n" % (
            PROSE_MARK, rel, render(read(prose), seed, doc_name, body, docs_dir)))
    sec = doc_section(seed, doc_name, body, docs_dir)
    if sec:
        out.append("%sgenerated from sw/analysis/claims/seed%s.toml -->\n%s" % (CLAIMS_MARK, seed, sec))
    return "".join(out)


# The prose each doc ends with (its first line is how a doc written before the markers is cut).
DOC_PROSE = {"section3.md": ("000", "section3_why.md"), "section3-1994.md": ("000", "section3_why.md"),
             "section4.md": ("000", "section4_why.md"), "section4-1994.md": ("000", "section4_why.md"),
             "seed001.md": ("001", "seed001_why.md"), "seed003.md": ("003", "seed003_why.md"),
             "seed002.md": ("002", None), "seed004.md": ("004", None), "filter-machine.md": ("000", None)}


def refresh(docs_dir, names=None):
    """Write each doc's tail again (doc_tail) from its run part; returns the docs changed."""
    changed = []
    for name, (seed, prose) in DOC_PROSE.items():
        if names and name not in names:
            continue
        p = os.path.join(docs_dir, name)
        if not os.path.exists(p):
            continue
        text = read(p)
        body = run_part(text)
        if prose and body == text:  # written before the markers: the prose starts at its heading
            first = read(os.path.join(HERE, prose)).split("\n", 1)[0]
            i = text.find("\n" + first + "\n")
            if i >= 0:
                body = text[:i + 1]
        new = body + doc_tail(seed, name, body, os.path.join(HERE, prose) if prose else None, docs_dir)
        if new != text:
            with open(p, "w", encoding="utf-8") as f:
                f.write(new)
            changed.append(name)
    return changed


def claims_markdown(docs_dir, ledger_dir=None):
    leds = load_all(ledger_dir)
    docs = Docs(docs_dir)
    per, body = {}, []
    for seed, led in leds.items():
        rows = evaluate(led, docs)
        per[seed] = counts(rows)
        body.append("## Seed %s: %s\n\n%s" % (seed, led.get("title", ""), rows_markdown(rows)))
    head = ["# Claims ledger: how much of each seed stands on the Testbed\n\n",
            "Generated by `cmake --build build --target docs-claims` (`python3 -m testbed_analysis.claims --docs "
            "docs/results --out docs/results/claims.md`; do not edit by hand) from the ledger in "
            "`sw/analysis/claims/seedNNN.toml` and the generated results docs beside this file. A row is one claim "
            "of a seed: its words (a test checks they are in the seed's text), the value it prints, our value read "
            "from the run's doc (never typed in), a check that can fail either way (a test turns each measured "
            "value to its opposite and expects the check to flip), and the verdict, computed: **reproduced** "
            "(within the band, or in shape), **explained** (the check fails and the row points to the measurement "
            "of its cause), **unexplained** (it fails with no such measurement), **not attempted** (with why).\n\n",
            "| seed | reproduced | explained | unexplained | not attempted | rows |\n|---|---|---|---|---|---|\n"]
    for seed, c in per.items():
        head.append("| %s | %s | %d |\n" % (seed, " | ".join(str(c[v]) for v in VERDICTS), sum(c.values())))
    tot = {v: sum(c[v] for c in per.values()) for v in VERDICTS}
    head.append("| all | %s | %d |\n\n" % (" | ".join(str(tot[v]) for v in VERDICTS), sum(tot.values())))
    return "".join(head) + "\n".join(body)


# ---------------------------------------------------------------- the ledger's own rules (tests/claims)

def quote_problems(claim, text):
    """Why a claim's quotation is not the seed's: its words not verbatim in the seed's text
    (whitespace, typographic quotes and dashes aside), or its value not in its words."""
    out = []
    q, sv, t = normalise(claim.get("quote", "")), normalise(claim.get("seed_value", "")), normalise(text)
    if not q or q not in t:
        out.append("quote not in the seed's text: %r" % claim.get("quote"))
    if not sv or sv not in q:
        out.append("seed_value %r is not in the quote" % claim.get("seed_value"))
    return out


UNIT_FACTORS = {0.0, 1.0, 100.0, 1000.0}


def value_problems(name, spec):
    """A value must be read from a doc (find, or after/row/col) or computed from other values;
    the only numbers an expression may hold are unit factors (1, 100, 1000)."""
    if "expr" in spec:
        for node in ast.walk(ast.parse(spec["expr"], mode="eval")):
            if isinstance(node, ast.Constant) and float(node.value) not in UNIT_FACTORS:
                return ["%s: the number %r typed into its expression" % (name, node.value)]
        return []
    if "find" in spec or all(k in spec for k in ("after", "row", "col")) or all(
            k in spec for k in ("after", "below", "above")):
        return []
    return ["%s: neither read from a doc (find, or after/row/col) nor computed (expr): %r" % (name, spec)]


def one_sided(claim, vals):
    """True when the check cannot flip: some opposite of the measured values leaves its outcome."""
    c = claim["check"]
    if c["kind"] == "band" and not (math.isfinite(c["lo"]) and math.isfinite(c["hi"])):
        return True
    if c["kind"] == "order" and len(c["values"]) < 2:
        return True
    if c["kind"] == "band" and c.get("ref") == c.get("value"):
        return True
    ok = run_check(claim, vals)
    opp = opposites(claim, vals)
    return not opp or any(run_check(claim, o) == ok for o in opp)


def anchor_problems(ref, docs_dir):
    doc, _, head = ref.partition("#")
    p = os.path.join(docs_dir, doc)
    if not os.path.exists(p):
        return ["%s: no such doc" % doc]
    if head and not re.search(r"^#+ " + re.escape(head) + r"\s*$", read(p), re.M):
        return ["%s: no heading %r" % (doc, head)]
    return []


# ---------------------------------------------------------------- prose templates

SLOT = re.compile(r"\{\{\s*([A-Za-z_][\w]*)\s*(?::([^}]*))?\}\}")


def render(text, seed, doc_name, doc_text, docs_dir=None):
    """Fill the {{NAME}} slots of a prose text from the ledger's values, read from the doc being written."""
    led = load(seed)
    vals = resolve(led, Docs(docs_dir or os.path.join(ROOT, "docs", "results"),
                             (doc_name, doc_text) if doc_name else None))

    def fill(m):
        name, fmt = m.group(1), m.group(2)
        if name not in vals:
            raise LedgerError("template slot {{%s}}: no such value in seed%s.toml" % (name, seed))
        v, shown, _w = vals[name]
        if v is None:
            return "(not measured)"
        if fmt:
            return format(v, fmt)
        m = NUM.search(shown or "")
        return m.group(0) if m else "%g" % v
    return SLOT.sub(fill, text)


# The words that make the number after them a name, not a quantity: "Figures 7-7 to 7-10",
# "Tables 7.1 and 7.2", "section 3.3.7", "issue #32", "seed 003". A list of such names goes on
# after a comma, "and", "to", "or" or "-".
ID_WORDS = r"(?:Figures?|Figs?\.|Tables?|[Ss]ections?|Appendix|[Cc]hapters?|[Ii]ssues?|[Ss]eeds?|equation|Blocks?|phases?|[Ss]teps?|commits?)"
ID_BEFORE = re.compile(r"(?:" + ID_WORDS + r"\s+|#)(?:[\dA-Z][\w.]*(?:-[\w.]+)*(?:'s)?\s*(?:,|and|to|or|-|/)\s*)*$")
# Names that contain digits: the processors, the compiler, the profile and NI called after the year.
NAMES = re.compile(r"\b(?:MC)?680[0-4]0\b|\bGCC \d+\b|\bCM-5\b|\b1994(?= (?:NI|profile|mode|machine|pages|side))|"
                   r"-O2\b|\bTLM-2\.0\b|\bSystemC 2\.3\.4\b|\bC\d+\b|\bPVM ?3\b|\b8x8\b|\b4x4\b|\bSun 3/50s?\b|"
                   r"\bSPARC ?\d+\b|\br\u00b2|\u03b1[\u2081\u2082]|\bX[0-9]\b|"
                   r"\b\d+\.\d+\.\d+\b|"  # a section's number, 3.3.7
                   r"(?:et al\.|\b[A-Z][a-z]+) (?:19|20)\d\d\b")  # a citation, Hsieh 1995
PROSE_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*")


def _spans(pattern, text):
    return [(m.start(), m.end()) for m in re.finditer(pattern, text, re.S)]


def prose_numbers(text, seed_texts=()):
    """The hand-written numbers of a prose text: [(line, number, context)].

    A number (a run of ASCII digits, with . or , inside) is allowed only
      - inside a template slot {{...}} (filled from the run),
      - inside a code span `...`, a link's target (...) or an HTML comment (names of files, commands),
      - inside a double-quoted span "..." that is, whitespace aside, verbatim in one of seed_texts
        (a quotation of a seed),
      - as a name: after one of ID_WORDS (Figure 7-11, Tables 7.1 and 7.2, section 3.3.7,
        issue #32, seed 003) or inside NAMES (68010, GCC 12, CM-5, the 1994 NI).
    Every other number is the prose's own and is reported."""
    allowed = _spans(r"\{\{.*?\}\}", text) + _spans(r"`[^`]*`", text) + _spans(r"\]\([^)]*\)", text) \
        + _spans(r"<!--.*?-->", text) + _spans(NAMES.pattern, text)
    seeds = [normalise(s) for s in seed_texts]
    for a, b in _spans(r"[\"\u201c][^\"\u201d]{3,400}?[\"\u201d]", text):
        q = normalise(text[a + 1:b - 1])
        if any(q in s for s in seeds):
            allowed.append((a, b))
    bad = []
    for m in PROSE_NUMBER.finditer(text):
        if any(a <= m.start() < b for a, b in allowed):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = text[max(line_start - 200, 0):m.start()].replace("\n", " ")
        if ID_BEFORE.search(before):
            continue
        line = text.count("\n", 0, m.start()) + 1
        ctx = text[max(m.start() - 30, 0):m.end() + 30].replace("\n", " ")
        bad.append((line, m.group(0), ctx))
    return bad


PROSE_SEEDS = {"seed001": ["001"], "seed003": ["003"], "section3": ["000"], "section4": ["000"], "profiles": ["000"]}


def prose_seed_texts(path):
    base = os.path.basename(path)
    for k, seeds in PROSE_SEEDS.items():
        if base.startswith(k):
            return [seed_text(s) for s in seeds]
    return [seed_text(s) for s in SEEDS]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="testbed-claims", description=__doc__.split("\n")[0])
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs", "results"))
    ap.add_argument("--out", help="write claims.md here")
    ap.add_argument("--refresh", action="store_true", help="write each results doc's prose and claims rows again "
                    "from its run part (doc_tail)")
    ap.add_argument("--ledger", default=LEDGER_DIR)
    ap.add_argument("--prose", nargs="*", help="report the hand-written numbers of these prose texts (exit 1 if any)")
    ap.add_argument("--render", nargs=3, metavar=("TEMPLATE", "SEED", "OUT"),
                    help="fill a prose template from the docs (e.g. docs/profiles.md from its template)")
    args = ap.parse_args(argv)
    if args.prose is not None:
        n = 0
        for p in args.prose:
            for line, num, ctx in prose_numbers(read(p), prose_seed_texts(p)):
                print("%s:%d: %s  (...%s...)" % (p, line, num, ctx))
                n += 1
        return 1 if n else 0
    if args.render:
        tpl, seed, out = args.render
        text = render(read(tpl), seed, None, None, args.docs)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % out)
    if args.refresh:
        for name in refresh(args.docs):
            print("wrote %s (its prose and claims, from its run)" % os.path.join(args.docs, name))
    if args.out:
        md = claims_markdown(args.docs, args.ledger)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(md)
        print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
