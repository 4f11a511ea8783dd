"""A figure drawn twice from the same data is the same file (PNG and SVG), and drawn from other
data is not: the reports regenerated from the same runs do not change in git."""
import os
import sys
import time

sys.path.insert(0, sys.argv[1])  # sw/analysis
from testbed_analysis import plots  # noqa: E402

out = sys.argv[2]
panels = [{"title": "a panel", "xlabel": "x", "ylabel": "y",
           "series": [{"x": [1, 2, 3, 4], "y": [1.0, 4.0, 9.0, 16.0], "label": "squares"}],
           "lines": [(2.0, 1.0, "a line")]}]


def draw(folder, ys=None):
    p = [dict(panels[0], series=[dict(panels[0]["series"][0], y=ys or panels[0]["series"][0]["y"])])]
    return [open(f, "rb").read() for f in plots.figure(os.path.join(out, folder), "fig", "a figure", p)]


first = draw("a")
time.sleep(1.1)  # a date in the file would now differ
again = draw("b")
other = draw("c", [1.0, 4.0, 9.0, 15.0])
fails = 0
for ext, x, y, z in zip(("png", "svg"), first, again, other):
    same, differs = x == y, x != z
    print("%s %s: drawn twice %s; other data %s" % ("ok  " if same and differs else "FAIL", ext,
                                                     "identical" if same else "DIFFERENT", "differs" if differs else "IDENTICAL"))
    fails += not (same and differs)
sys.exit(1 if fails else 0)
