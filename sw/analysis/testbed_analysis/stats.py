"""Least squares, spreads and the shape checks of issue 16."""
import bisect

import numpy as np


def fit(x, y):
    """y = slope * x + intercept; spread = largest |residual|; r2."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 2 or np.ptp(x) == 0:
        m = float(np.mean(y)) if len(y) else float("nan")
        return {"slope": 0.0, "intercept": m, "spread": float(np.max(np.abs(y - m))) if len(y) else float("nan"),
                "r2": float("nan"), "n": len(x)}
    a, b = np.polyfit(x, y, 1)
    r = y - (a * x + b)
    ss = float(np.sum((y - y.mean()) ** 2))
    return {"slope": float(a), "intercept": float(b), "spread": float(np.max(np.abs(r))),
            "r2": 1 - float(np.sum(r ** 2)) / ss if ss > 0 else 1.0, "n": len(x),
            "above": float(np.max(r)), "below": float(-np.min(r))}


def summary(v):
    v = np.asarray([x for x in v if x is not None], float)
    if not len(v):
        return {"n": 0, "min": float("nan"), "mean": float("nan"), "max": float("nan"), "median": float("nan")}
    return {"n": len(v), "min": float(v.min()), "mean": float(v.mean()), "max": float(v.max()),
            "median": float(np.median(v)), "p95": float(np.percentile(v, 95))}


def per_size_median(sizes, values):
    """Each size's median: the time most of its repetitions took, where one repetition served the
    other way round (the sender first, its copy the receive's service) would be the minimum."""
    d = {}
    for s, v in zip(sizes, values):
        d.setdefault(s, []).append(v)
    xs = sorted(d)
    return xs, [float(np.median(d[x])) for x in xs]


def per_size_majority(sizes, values, agree):
    """Each size's level where most of its repetitions agree: the median of the largest group of
    values within `agree` of one another when that group is more than half of them. A size whose
    repetitions split evenly between two ways of serving (the sender first or the receiver) has no
    level and is left out -- the median of such a split is a time no repetition took, and a level
    half way between two modes reads as a step at the next size."""
    d = {}
    for s, v in zip(sizes, values):
        d.setdefault(s, []).append(float(v))
    xs, ys = [], []
    for s in sorted(d):
        vs = sorted(d[s])
        # the widest run of sorted values within `agree` of its first
        best = max((vs[i:bisect.bisect_right(vs, v + agree)] for i, v in enumerate(vs)), key=len)
        if 2 * len(best) > len(vs):
            xs.append(s)
            ys.append(float(np.median(best)))
    return xs, ys


def page_steps(xs, ys, page=1024):
    """Steps in a service time that otherwise grows linearly: where the rise between two
    neighbouring sizes stands out of the usual rise and is not taken back by the next. Returns (steps as byte positions, verdict,
    reason). The verdict holds when there is at least one step per page the sizes cross and the
    steps recur every `page` bytes (to within one size step), in at most two families (the
    sender's and the receiver's page boundaries, the report's "pairs of steps")."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    if len(xs) < 8:
        return [], False, "too few sizes"
    dx = np.diff(xs)
    step = float(np.median(dx))
    # the usual rise is per byte: a size with no uninterrupted repetition leaves a gap of two
    # or more steps, whose rise is that many usual ones, not a step
    slope = float(np.median(np.diff(ys) / dx))
    d = np.diff(ys) - slope * dx  # each rise less the usual one
    mad = float(np.median(np.abs(d))) or 1e-6
    thr = max(6 * mad, 0.002)
    # A step is a change of level that stays; a rise the next size takes back (a fall as far below
    # the usual rise) is one size served slowly -- every repetition of it met an interrupt or the
    # send's slower mode -- not a page boundary.
    rise, fall = d > thr, d < -thr
    idx = [i for i in np.where(rise)[0] if not (i + 1 < len(d) and fall[i + 1])]
    pos = [float(xs[i + 1]) for i in idx]
    crossings = int(xs[-1] // page) - int(xs[0] // page)
    if crossings < 1:
        return pos, False, "the sizes cross no page boundary"
    if len(pos) < crossings:
        return pos, False, "%d steps for %d page boundaries crossed" % (len(pos), crossings)
    fams = []
    for p in pos:
        for f in fams:
            if abs(((p - f[-1]) % page + page / 2) % page - page / 2) <= step:
                f.append(p)
                break
        else:
            fams.append([p])
    if len(fams) > 2:
        return pos, False, "steps fall in %d families modulo %d bytes (expected at most 2)" % (len(fams), page)
    for f in fams:
        for a, b in zip(f, f[1:]):
            if abs((b - a) - page * round((b - a) / page)) > step or round((b - a) / page) < 1:
                return pos, False, "steps at %d and %d bytes are not a page apart" % (a, b)
    return pos, True, "%d steps in %d famil%s, every %d bytes" % (len(pos), len(fams), "y" if len(fams) == 1 else "ies", page)
