#!/usr/bin/env python3
"""Runs the shell recipes of a Markdown document (ctest -L docs), so that they cannot rot.

Every ```sh block of the document must be preceded by a marker line:

    <!-- recipe: run[, same shell][; expect: REGEX]...[; status: N] -->
    <!-- recipe: not run: WHY -->

A block to run is run with bash -e from a scratch folder that looks like the clone's root (the
source tree's folders and `build` are symbolic links into the real ones; testbed-out/ and any
file a recipe writes land in the scratch folder), with HOME another scratch folder (so that
`~/tos-sdk` is fresh). `same shell` runs it in the shell of the block before (its `cd` and
`export` hold, as in a reader's terminal); otherwise it starts afresh at the clone's root.
Each `expect` regex must match the block's output (stdout and stderr), and its last command
must end with `status` (default 0). A block without a marker, or an unknown marker, fails the
test: a new recipe must say whether it runs.

usage: run_recipes.py DOC.md --source DIR --build DIR
       run_recipes.py DOC.md --installed PREFIX

With --installed, the recipes run as a user of `cmake --install` would run them: from an empty
scratch folder, with no clone and no build, PREFIX/bin first on PATH and ~/tos-sdk the prefix. A
recipe runs when it names a tool the prefix installed, its paths in the clone mapped to the
install's (INSTALLED_PATHS); the recipes that make the install (they name `build`) and those
naming no installed tool are listed as not run, with the reason. What a mapped recipe needs and
the install lacks fails it.
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

MARK = re.compile(r"^\s*<!--\s*recipe:\s*(.*?)\s*-->\s*$")


def fail(msg, out=""):
    print("FAIL:", msg)
    if out:
        print("----\n" + out)
    sys.exit(1)


def recipes(path):
    lines = open(path).read().split("\n")
    found, i = [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        if lang == "sh":
            body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i + 1:j]]
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            mark = MARK.match(lines[k]) if k >= 0 else None
            if not mark:
                fail("%s:%d: a ```sh block without a <!-- recipe: run|not run: WHY --> line before it" % (path, i + 1))
            found.append({"line": i + 1, "mark": mark.group(1), "body": "\n".join(body)})
        i = j + 1
    return found


def parse_mark(r, path):
    text = r["mark"]
    if text.startswith("not run:") and len(text) > len("not run:") + 3:
        r["run"] = False
        return r
    parts = [p.strip() for p in text.split(";")]
    head = [h.strip() for h in parts[0].split(",")]
    if head[0] != "run" or any(h != "same shell" for h in head[1:]):
        fail("%s:%d: unknown recipe marker %r" % (path, r["line"], text))
    r.update(run=True, same="same shell" in head[1:], expect=[], status=0)
    for p in parts[1:]:
        key, _, val = p.partition(":")
        val = val.strip()
        if key == "expect" and val:
            r["expect"].append(val)
        elif key == "status" and val.isdigit():
            r["status"] = int(val)
        else:
            fail("%s:%d: unknown recipe field %r" % (path, r["line"], p))
    return r


# The clone's paths in the recipes and where an install has them (cmake/install.cmake).
INSTALLED_PATHS = [
    (r"python3 waveforms/tbwaves\.py\b", "tbwaves"),
    (r"\bbuild/bin/", ""),
    (r"\bbuild/firmware\b", "{prefix}/share/testbed/firmware"),
    (r"(?<![\w/.-])sim/configs/", "{prefix}/share/testbed/configs/"),
    (r"(?<![\w/.-])waveforms/", "{prefix}/share/testbed/waveforms/"),
    (r"(?<![\w/.-])tests/waveforms/sample/", "{prefix}/share/testbed/waveforms/sample/"),
]


def for_the_install(r, prefix):
    """r's body mapped to the install and whether it names an installed tool; or None and why it
    is not run there."""
    tools = set(os.listdir(os.path.join(prefix, "bin")))
    body = r["body"]
    if re.search(r"cmake --install build\b|cmake --build build --target\b", body):
        return None, "makes the install or builds in the clone"
    for m in re.finditer(r"\bbuild/bin/([\w.-]+)", body):
        if m.group(1) not in tools:
            return None, "build/bin/%s is not installed" % m.group(1)
    for pat, rep in INSTALLED_PATHS:
        body = re.sub(pat, rep.format(prefix=prefix).replace("\\", "\\\\"), body)
    words = set(re.findall(r"(?:^|[\s;|&(])([\w.-]+)(?=\s|$)", body, re.M))
    return body, bool(words & tools)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("doc")
    ap.add_argument("--source")
    ap.add_argument("--build")
    ap.add_argument("--installed", help="run them against this installed prefix instead")
    a = ap.parse_args()
    if not a.installed and not (a.source and a.build):
        ap.error("--source and --build, or --installed")
    rs = [parse_mark(r, a.doc) for r in recipes(a.doc)]
    if a.installed:
        a.installed = os.path.abspath(a.installed)
        # a shell's recipes (the first and those run in its shell after it) run together if one
        # of them names an installed tool; one that makes the install is left out, and the next
        # starts the shell afresh (PATH and ~/tos-sdk are the install's already)
        chains = []
        for r in rs:
            if r["run"]:
                body, tool = for_the_install(r, a.installed)
                if body is None:
                    r.update(run=False, mark="not run in the install: " + tool)
                    continue
                r.update(body=body, tool=tool)
                if r["same"] and chains and chains[-1][-1] is rs[rs.index(r) - 1]:
                    chains[-1].append(r)
                else:
                    r["same"] = False
                    chains.append([r])
        for c in chains:
            if not any(r["tool"] for r in c):
                for r in c:
                    r.update(run=False, mark="not run in the install: names no installed tool")
    run = [r for r in rs if r["run"]]
    for r in rs:
        if not r["run"]:
            print("%s:%d: %s" % (os.path.basename(a.doc), r["line"], r["mark"]))
    if not run:
        fail("no recipe to run in " + a.doc)
    scratch = tempfile.mkdtemp(prefix="recipes-")
    clone, home = os.path.join(scratch, "clone"), os.path.join(scratch, "home")
    os.makedirs(clone)
    os.makedirs(home)
    env = dict(os.environ, HOME=home)
    if a.installed:
        os.symlink(a.installed, os.path.join(home, "tos-sdk"))
        env["PATH"] = os.path.join(a.installed, "bin") + os.pathsep + env.get("PATH", "")
    else:
        for e in os.listdir(a.source):
            if e not in ("build", ".git") and not e.startswith("build") and not e.startswith("testbed-out"):
                os.symlink(os.path.join(a.source, e), os.path.join(clone, e))
        os.symlink(os.path.abspath(a.build), os.path.join(clone, "build"))

    # One bash script: a block in a subshell of its own, or in its predecessor's. Markers in the
    # output split it per block; a failing block's marker is the last one printed.
    script = ["exec 2>&1", "set -o pipefail"]
    open_group = False
    for n, r in enumerate(run):
        if not r["same"]:
            if open_group:
                script.append(') || { echo "@@failed@@"; exit 1; }')
            script.append('(\nset -e\ncd "%s"' % clone)
            open_group = True
        script.append("echo '@@recipe %d@@'" % n)
        if r["status"]:
            script.append("set +e\n{\n%s\n}\nrc=$?\nset -e" % r["body"])
            script.append('if [ $rc != %d ]; then echo "@@status $rc@@"; exit 1; fi' % r["status"])
        else:
            script.append(r["body"])
    script.append(') || { echo "@@failed@@"; exit 1; }')
    script.append("echo '@@done@@'")
    try:
        proc = subprocess.run(["bash", "-c", "\n".join(script)], cwd=clone, env=env, capture_output=True,
                              text=True, timeout=1500, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        fail("the recipes timed out", (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""))
    out = proc.stdout
    pieces = re.split(r"^@@recipe (\d+)@@$", out, flags=re.M)
    seen = {}
    for k in range(1, len(pieces), 2):
        seen[int(pieces[k])] = pieces[k + 1]
    for n, r in enumerate(run):
        where = "%s:%d" % (os.path.basename(a.doc), r["line"])
        if n not in seen:
            fail("%s: not reached" % where, out)
        text = seen[n]
        st = re.search(r"^@@status (\d+)@@$", text, re.M)
        if st or "@@failed@@" in text:
            fail("%s: failed%s\n%s" % (where, " with status %s, not %d" % (st.group(1), r["status"]) if st else "",
                                         r["body"]), text)
        for e in r["expect"]:
            if not re.search(e, text, re.M):
                fail("%s: no match for %r in its output\n%s" % (where, e, r["body"]), text)
        print("%s: ran%s" % (where, "".join(", saw %r" % e for e in r["expect"])))
    if "@@done@@" not in out:
        fail("the recipes did not run to the end", out)
    shutil.rmtree(scratch, ignore_errors=True)
    print("PASS: %d recipes run, %d not run (each with its reason)" % (len(run), len(rs) - len(run)))


if __name__ == "__main__":
    main()
