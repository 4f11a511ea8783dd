"""Figures as PNG and SVG, one or more stacked panels each (the report's figures are stacked
"upper / middle / lower graph" panels), axes and units as the report's."""
import os
import textwrap

import matplotlib

matplotlib.use("Agg")
# A figure regenerated from the same run is the same file: SVG ids from a fixed salt, no date.
matplotlib.rcParams["svg.hashsalt"] = "testbed"
import matplotlib.pyplot as plt  # noqa: E402


def figure(out_dir, name, title, panels, sharex=False):
    """panels: list of dicts: title, xlabel, ylabel, series: list of dicts (x, y, label, style:
    'dots' | 'line' | 'step' | 'hist', bins, color), lines: [(slope, intercept, label)],
    hlines: [(y, label)], logx. Returns the file names written (PNG, SVG)."""
    n = len(panels)
    fig, axes = plt.subplots(n, 1, figsize=(7.5, 2.6 * n + 0.6), sharex=sharex, squeeze=False)
    for ax, p in zip(axes[:, 0], panels):
        for s in p.get("series", []):
            st = s.get("style", "dots")
            if st == "dots":
                ax.plot(s["x"], s["y"], ".", ms=3, label=s.get("label"), color=s.get("color"))
            elif st == "line":
                ax.plot(s["x"], s["y"], "-", lw=1, label=s.get("label"), color=s.get("color"))
            elif st == "step":
                ax.step(s["x"], s["y"], where="post", lw=0.8, label=s.get("label"), color=s.get("color"))
            elif st == "hist":
                ax.hist(s["x"], bins=s.get("bins", 40), range=s.get("range"), histtype="step", lw=1.2, label=s.get("label"),
                        linestyle=s.get("linestyle", "-"), color=s.get("color"))
        if p.get("logx"):  # message sizes from 1 byte to 16 KB
            ax.set_xscale("log", base=2)
        xlo, xhi = ax.get_xlim()
        for a, b, lab in p.get("lines", []):
            ax.plot([xlo, xhi], [a * xlo + b, a * xhi + b], "--", lw=0.8, label=lab)
        for y, lab in p.get("hlines", []):
            ax.axhline(y, ls="--", lw=0.8, color="gray", label=lab)
        ax.set_xlim(*p.get("xlim", (xlo, xhi)))
        ax.set_title("\n".join(textwrap.wrap(p.get("title", ""), 110)), fontsize=9)
        ax.set_xlabel(p.get("xlabel", ""))
        ax.set_ylabel(p.get("ylabel", ""))
        ax.grid(alpha=0.3)
        if any(s.get("label") for s in p.get("series", [])) or p.get("lines") or p.get("hlines"):
            ax.legend(fontsize=7, loc=p.get("legend", "best"))
    fig.suptitle("\n".join(textwrap.wrap(title, 95)), fontsize=10)
    fig.tight_layout()
    os.makedirs(out_dir, exist_ok=True)
    files = []
    for ext in ("png", "svg"):
        f = os.path.join(out_dir, "%s.%s" % (name, ext))
        fig.savefig(f, dpi=110, metadata={"Date": None} if ext == "svg" else None)
        files.append(f)
    plt.close(fig)
    return files
