"""Charts: one function per chart, each returning a matplotlib Figure with labelled axes (units)
and its intervals drawn. :func:`save` writes PNG files for reports.

Figures are ``matplotlib.figure.Figure`` objects made without pyplot: importing this module never
chooses or switches the caller's matplotlib backend (a notebook's ``%matplotlib inline`` keeps
working, and ``display(fig)`` or a cell ending in ``fig`` shows the chart), and no figure is
registered with pyplot, so none stays open when a caller drops it. PNG files are written with
matplotlib's Agg renderer whatever the backend.

Axes of whole-number quantities (Cycles, turns, integer parameter values) get integer tick labels,
histograms of them one bin per whole number (or per run of whole numbers), and a reference line
(break-even, no difference) is always drawn inside the plotted range, never on the frame.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib as mpl
import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

STYLE = {
    "figure.figsize": (7.0, 4.0), "figure.dpi": 110, "axes.grid": True, "grid.alpha": 0.3,
    "axes.spines.top": False, "axes.spines.right": False, "font.size": 10, "axes.titleweight": "bold",
}
COLORS = ["#3b6ea8", "#d1843b", "#4c9a5b", "#b9484e", "#7b62a3", "#8c6d4f", "#c36fb0", "#6f6f6f"]


def _fig(title: str):
    """A new Figure (not registered with pyplot) with one styled Axes titled ``title``."""
    with mpl.rc_context(STYLE):
        fig = Figure()
        ax = fig.subplots()
    ax.set_title(title)
    for k, v in STYLE.items():
        if k.startswith("axes.grid") and v:
            ax.grid(True, alpha=STYLE["grid.alpha"])
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    return fig, ax


def is_whole(values) -> bool:
    """True when every finite value is a whole number (and there is at least one)."""
    v = np.asarray(values, dtype=float).ravel()
    v = v[np.isfinite(v)]
    return v.size > 0 and bool(np.all(v == np.round(v)))


def integer_ticks(ax, values, max_fixed: int = 12) -> None:
    """Whole-number tick labels on the x axis: ticks at the ``values`` themselves when there are
    at most ``max_fixed`` of them, else ``MaxNLocator(integer=True)``."""
    v = np.asarray(values, dtype=float).ravel()
    uniq = np.unique(v[np.isfinite(v)])
    if 0 < uniq.size <= max_fixed:
        ax.set_xticks(uniq, [str(int(u)) for u in uniq])
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _ref_inside(ax, ref: float, pad: float = 0.05) -> None:
    """Widen the x limits so a vertical reference line at ``ref`` sits inside the axes, not on the
    frame (bars start at 0 and autoscaling puts the limit exactly there, hiding a line at 0)."""
    lo, hi = ax.get_xlim()
    span = max(hi, ref) - min(lo, ref) or 1.0
    if ref <= lo + pad * span / 2:
        lo = ref - pad * span
    if ref >= hi - pad * span / 2:
        hi = ref + pad * span
    ax.set_xlim(lo, hi)


def _err(df: pl.DataFrame, scale: float = 1.0):
    est = df["est"].to_numpy() * scale
    lo = np.maximum(np.nan_to_num(est - df["low"].to_numpy() * scale), 0.0)  # rounding at 0% / 100%
    hi = np.maximum(np.nan_to_num(df["high"].to_numpy() * scale - est), 0.0)
    return est, np.vstack([lo, hi])


def bar_with_interval(df: pl.DataFrame, label_col: str, *, title: str, xlabel: str, scale: float = 1.0,
                      ref: float | None = None, ref_label: str = "") -> Figure:
    """Horizontal bars of ``est`` with ``low``/``high`` error bars, one per row of ``df``.

    ``ref`` (in ``est`` units) draws a dashed reference line labelled ``ref_label`` in the legend;
    the x range is widened so that the line lies inside the axes and can be seen.
    """
    fig, ax = _fig(title)
    labels = [str(x) for x in df[label_col].to_list()]
    est, err = _err(df, scale)
    y = np.arange(len(labels))
    ax.barh(y, est, xerr=err, color=[COLORS[i % len(COLORS)] for i in range(len(labels))], capsize=4, alpha=0.85)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    if ref is not None:
        ax.axvline(ref * scale, color="k", ls="--", lw=1, label=ref_label)
        _ref_inside(ax, ref * scale)
        ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def win_rate_chart(df: pl.DataFrame, by: str = "strategy") -> Figure:
    """Win rate by ``by`` (percent) with Wilson 95% intervals."""
    return bar_with_interval(df, by, title="Win rate (95% Wilson interval)", xlabel="win rate (%)", scale=100)


def seat_advantage_chart(df: pl.DataFrame) -> Figure:
    """Win rate by seat with Wilson intervals against the fair share 1/players."""
    fig, ax = _fig("Win rate by seat (95% Wilson interval)")
    for i, (players, sub) in enumerate(df.group_by("players", maintain_order=True)):
        p = int(players[0])
        est, err = _err(sub, 100)
        x = sub["seat"].to_numpy() + 1 + (i * 0.15)
        ax.errorbar(x, est, yerr=err, fmt="o", capsize=4, color=COLORS[i % len(COLORS)], label=f"{p} players")
        ax.axhline(100 / p, color=COLORS[i % len(COLORS)], ls="--", lw=1)
    seats = sorted(set(int(x) for x in df["seat"].to_list()))
    ax.set_xticks([x + 1 for x in seats], [str(x + 1) for x in seats])
    ax.set_xlabel("seat (1 = first player)")
    ax.set_ylabel("win rate (%)")
    ax.legend()
    fig.tight_layout()
    return fig


def mean_chart(df: pl.DataFrame, label_col: str, *, title: str, xlabel: str) -> Figure:
    """Means with t intervals as horizontal bars."""
    return bar_with_interval(df, label_col, title=title, xlabel=xlabel)


def breakdown_chart(df: pl.DataFrame, group: str = "strategy") -> Figure:
    """Mean VP per score category, grouped bars per ``group`` value, t intervals."""
    fig, ax = _fig("Final VP by category (95% t interval)")
    cats = sorted(df["category"].unique().to_list())
    groups = df[group].unique(maintain_order=True).to_list()
    w = 0.8 / max(len(groups), 1)
    x = np.arange(len(cats))
    for i, gname in enumerate(groups):
        sub = df.filter(pl.col(group) == gname)
        m = {c: r for c, r in zip(sub["category"].to_list(), sub.iter_rows(named=True))}
        est = np.array([m[c]["est"] if c in m else 0 for c in cats], float)
        lo = np.array([m[c]["est"] - m[c]["low"] if c in m else 0 for c in cats], float)
        hi = np.array([m[c]["high"] - m[c]["est"] if c in m else 0 for c in cats], float)
        ax.bar(x + i * w, est, w, yerr=np.nan_to_num(np.vstack([lo, hi])), capsize=2, label=str(gname),
               color=COLORS[i % len(COLORS)])
    ax.set_xticks(x + w * (len(groups) - 1) / 2, cats, rotation=30, ha="right")
    ax.set_ylabel("mean VP per seat")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def integer_bins(values, max_bins: int = 30) -> np.ndarray:
    """Bin edges for whole numbers: at ``k - 0.5``, each bin ``w`` whole numbers wide (``w`` the
    smallest width giving at most ``max_bins`` bins), so no bin is empty for lack of a whole number
    and none holds more whole numbers than another."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    lo, hi = int(v.min()), int(v.max())
    w = max(1, -(-(hi - lo + 1) // max_bins))
    return np.arange(lo, hi + w + 1, w) - 0.5


def histogram(values: np.ndarray, *, title: str, xlabel: str, bins: int = 30) -> Figure:
    """Histogram of one measure (e.g. game length in turns) with its mean marked.

    Whole-number values (turns, rounds) get bins aligned on the whole numbers (edges at
    ``k - 0.5``, at most ``bins`` of them, see :func:`integer_bins`) and integer tick labels;
    other values get ``bins`` equal bins.
    """
    fig, ax = _fig(title)
    values = np.asarray(values)
    whole = is_whole(values)
    ax.hist(values, bins=integer_bins(values, bins) if whole else bins, color=COLORS[0], alpha=0.8)
    if whole:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if len(values):
        ax.axvline(float(np.mean(values)), color="k", ls="--", lw=1, label=f"mean {np.mean(values):.1f}")
        ax.legend()
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    fig.tight_layout()
    return fig


def line_with_band(x, est, low, high, *, title: str, xlabel: str, ylabel: str, labels=None) -> Figure:
    """One or more lines with shaded interval bands (sweeps, trajectories).

    When every ``x`` is a whole number (Cycles, turns, integer parameter values) the x axis gets
    integer tick labels (see :func:`integer_ticks`).
    """
    fig, ax = _fig(title)
    x = np.asarray(x)
    est, low, high = (np.atleast_2d(np.asarray(a, float)) for a in (est, low, high))
    for i in range(est.shape[0]):
        c = COLORS[i % len(COLORS)]
        ax.plot(x, est[i], marker="o", color=c, label=None if labels is None else labels[i])
        ax.fill_between(x, low[i], high[i], color=c, alpha=0.2)
    if is_whole(x):
        integer_ticks(ax, x)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if labels is not None:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def close(fig: Figure) -> None:
    """Release a figure: forget it in pyplot when a caller made it there (pyplot is never imported
    here), and drop its artists."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close(fig)
    fig.clear()


def save(fig: Figure, path: Path) -> Path:
    """Save as PNG (Agg renderer, whatever the backend) and close the figure."""
    from meeplelab.play.runfolder import replacing

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with replacing(path) as tmp:  # a full disk leaves no half-written PNG (and an earlier one whole)
            fig.savefig(tmp, format="png")
    finally:
        close(fig)
    return path
