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

Every figure is laid out by matplotlib's constrained layout engine when it is drawn, so labels set
after a chart function returns (a y-axis label added by a section) still fit; :func:`save` first
wraps a title or axis label wider than the canvas (:func:`fit`), and :func:`overflow` names any text
still outside the canvas (the report tests assert it names none).
"""

from __future__ import annotations

import struct
import sys
import textwrap
from pathlib import Path

import matplotlib as mpl
import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from meeplelab.play.runfolder import replacing

STYLE = {
    "figure.figsize": (7.0, 4.0), "figure.dpi": 110, "axes.grid": True, "grid.alpha": 0.3,
    "axes.spines.top": False, "axes.spines.right": False, "font.size": 10, "axes.titleweight": "bold",
}
COLORS = ["#3b6ea8", "#d1843b", "#4c9a5b", "#b9484e", "#7b62a3", "#8c6d4f", "#c36fb0", "#6f6f6f"]


def _fig(title: str):
    """A new Figure (not registered with pyplot, constrained layout) with one styled Axes titled ``title``."""
    with mpl.rc_context(STYLE):
        fig = Figure(layout="constrained")
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
    return fig


def ladder_chart(rungs: pl.DataFrame, *, title: str = "Skill ladder") -> Figure:
    """The skill ladder (:mod:`meeplelab.analysis.ladder`): per rung (rows in ladder order, weakest at the top), its win
    rate against the heuristic (left) and against the rung below (right), percent with 95% Wilson intervals,
    and a dashed line at 50% (even). A rung without that comparison (the heuristic against itself, the first
    rung below nothing) has no bar.

    Args:
        rungs: the ``rungs`` table of :func:`meeplelab.analysis.ladder.rung_table` (``label``, ``h_score``, ``h_low``,
            ``h_high``, ``b_score``, ``b_low``, ``b_high``, ``below``).
    """
    n = rungs.height
    with mpl.rc_context({**STYLE, "figure.figsize": (9.0, max(3.0, 0.38 * n + 1.4))}):
        fig = Figure()
        axes = fig.subplots(1, 2, sharey=True)
    labels = [str(x) for x in rungs["label"].to_list()]
    y = np.arange(n)
    for ax, pre, name in ((axes[0], "h", "against the heuristic"), (axes[1], "b", "against the rung below")):
        est = np.array([np.nan if v is None else v for v in rungs[f"{pre}_score"].to_list()], float) * 100
        lo = np.array([np.nan if v is None else v for v in rungs[f"{pre}_low"].to_list()], float) * 100
        hi = np.array([np.nan if v is None else v for v in rungs[f"{pre}_high"].to_list()], float) * 100
        ok = np.isfinite(est)
        err = np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)])[:, ok]
        ax.barh(y[ok], est[ok], xerr=err, color=[COLORS[i % len(COLORS)] for i in np.flatnonzero(ok)], capsize=3,
                alpha=0.85)
        ax.axvline(50, color="k", ls="--", lw=1, label="even (50%)")
        ax.set_xlim(0, 100)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("win rate (%, 95% Wilson)")
        ax.grid(True, alpha=STYLE["grid.alpha"])
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
    axes[0].set_yticks(y, labels)
    axes[0].invert_yaxis()
    axes[1].legend(loc="upper right", fontsize=8)  # the first rung has no rung below: free space
    fig.suptitle(title, fontweight="bold")
    fig.tight_layout()
    return fig


def change_chart(df: pl.DataFrame, label_col: str, panels, *, title: str) -> Figure:
    """Paired changes with their 95% intervals, one horizontal bar per row of ``df``, one panel per measure side
    by side on the same rows ("what changed for whom": each strategy's change of win rate and of VP).

    Args:
        df: one row per bar: ``label_col`` and, per panel prefix ``p``, ``p_est``, ``p_low``, ``p_high``.
        panels: ``[(prefix, x-axis label)]``, left to right.
        title: the figure's title.

    A bar whose interval lies clear of 0 is drawn solid (blue: a gain, red: a loss), one whose interval holds 0
    pale grey; a dashed line marks no change in every panel.
    """
    n = df.height
    with mpl.rc_context({**STYLE, "figure.figsize": (3.6 * len(panels) + 1.6, max(2.6, 0.34 * n + 1.5))}):
        fig = Figure(layout="constrained")
        axes = np.atleast_1d(fig.subplots(1, len(panels), sharey=True))
    y = np.arange(n)
    for ax, (pre, xlabel) in zip(axes, panels):
        est, lo, hi = (np.array([np.nan if v is None else v for v in df[f"{pre}_{c}"].to_list()], float)
                       for c in ("est", "low", "high"))
        clear = (lo > 0) | (hi < 0)
        colour = np.where(~clear, "#c9ced6", np.where(est > 0, COLORS[0], COLORS[3]))
        err = np.nan_to_num(np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)]))
        ax.barh(y, np.nan_to_num(est), xerr=err, color=colour, capsize=3)
        ax.axvline(0, color="k", ls="--", lw=1)
        _ref_inside(ax, 0.0)
        ax.set_xlabel(xlabel)
        ax.grid(True, alpha=STYLE["grid.alpha"])
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
    axes[0].set_yticks(y, [str(x) for x in df[label_col].to_list()])
    axes[0].invert_yaxis()
    fig.suptitle(title, fontweight="bold")
    return fig


def mechanics_chart(df: pl.DataFrame, name=str, *, title: str = "Mechanics by skill") -> Figure:
    """Share of seat-games in which the seat took each action, one group of bars per action (rows), one bar per rung
    (colours, weakest first, in the legend), percent with 95% Wilson intervals.

    Args:
        df: the pooled rows of :func:`meeplelab.analysis.mechanics.use_table` (``rung``, ``action``, ``share``,
            ``low``, ``high``; shares in [0, 1]).
        name: the action's words from its code (a label function).
    """
    rungs = list(dict.fromkeys(df["rung"].to_list()))
    acts = list(dict.fromkeys(df["action"].to_list()))
    with mpl.rc_context({**STYLE, "figure.figsize": (7.0, max(3.0, 0.22 * len(acts) * len(rungs) + 1.6))}):
        fig, ax = _fig(title)
    h = 0.8 / len(rungs)
    y = np.arange(len(acts))
    for i, rung in enumerate(rungs):
        sub = df.filter(pl.col("rung") == rung)
        by = {a: r for a, r in zip(sub["action"].to_list(), sub.iter_rows(named=True))}
        est = np.array([by[a]["share"] if a in by else np.nan for a in acts]) * 100
        lo = np.array([by[a]["low"] if a in by else np.nan for a in acts]) * 100
        hi = np.array([by[a]["high"] if a in by else np.nan for a in acts]) * 100
        err = np.nan_to_num(np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)]))
        ax.barh(y + (i - (len(rungs) - 1) / 2) * h, np.nan_to_num(est), height=h, xerr=err, capsize=2,
                color=COLORS[i % len(COLORS)], alpha=0.85, label=str(rung))
    ax.set_yticks(y, [name(a) for a in acts])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("seat-games taking the action (%, 95% Wilson)")
    fig.legend(loc="outside lower center", ncols=min(len(rungs), 3), fontsize=8)  # below the axes: no bar hidden
    return fig


def rates_by_count_chart(df: pl.DataFrame, label_col: str, *, title: str, xlabel: str = "win rate (%)",
                         series: str | None = None) -> Figure:
    """Win rates per player count, one panel per count side by side, each with its fair share 100/players as a
    dashed line (the first screen's balance of strategies and seat advantage).

    Args:
        df: one row per bar: ``players``, ``label_col`` (a strategy, a seat), ``est``, ``low``, ``high`` in
            percent; with ``series`` (e.g. the skill rung) several bars per label, one colour per series value.
        title: the figure's title.
    """
    counts = sorted({int(p) for p in df["players"].to_list()})
    labels = list(dict.fromkeys(str(x) for x in df[label_col].to_list()))
    groups = list(dict.fromkeys(df[series].to_list())) if series else [None]
    rows = max(len(labels), 1)
    with mpl.rc_context({**STYLE, "figure.figsize": (max(6.5, 2.6 * len(counts) + 1.8), max(2.6, 0.32 * rows * len(groups) + 1.6))}):
        fig = Figure(layout="constrained")
        axes = np.atleast_1d(fig.subplots(1, len(counts), sharey=True, squeeze=False)[0])
    h = 0.8 / len(groups)
    for ax, p in zip(axes, counts):
        sub = df.filter(pl.col("players") == p)
        for k, g in enumerate(groups):
            part = sub if g is None else sub.filter(pl.col(series) == g)
            at = {str(r[label_col]): r for r in part.iter_rows(named=True)}
            y = np.array([i + (k - (len(groups) - 1) / 2) * h for i, lab in enumerate(labels) if lab in at])
            rs = [at[lab] for lab in labels if lab in at]
            if not rs:
                continue
            est = np.array([r["est"] for r in rs], float)
            err = np.nan_to_num(np.vstack([np.maximum(est - np.array([r["low"] for r in rs], float), 0),
                                           np.maximum(np.array([r["high"] for r in rs], float) - est, 0)]))
            ax.barh(y, est, h * 0.9, xerr=err, capsize=3, alpha=0.85, color=COLORS[k % len(COLORS)],
                    label=None if g is None else str(g))
        ax.axvline(100.0 / p, color="k", ls="--", lw=1, label="fair share (1/players)")
        _ref_inside(ax, 100.0 / p)
        ax.set_title(f"{p} players", fontsize=10)
        ax.set_xlabel(xlabel)
        ax.grid(True, alpha=STYLE["grid.alpha"])
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
    axes[0].set_yticks(np.arange(len(labels)), labels)
    axes[0].invert_yaxis()
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncols=min(len(names), 3), fontsize=8)
    fig.suptitle(title, fontweight="bold")
    return fig


def rungs_chart(df: pl.DataFrame, label_col: str, rungs, *, title: str, xlabel: str) -> Figure:
    """One conclusion a row, its figure at each skill rung as a dot with its 95% interval (the first screen's
    "what to change first": a conclusion whose dots sit on opposite sides of 0 reverses with skill).

    Args:
        df: ``label_col`` and, per rung prefix ``r``, ``r_est``, ``r_low``, ``r_high`` (missing: not measured).
        rungs: ``[(prefix, legend words)]``, drawn top to bottom within each row.
    """
    n = df.height
    with mpl.rc_context({**STYLE, "figure.figsize": (7.0, max(2.4, 0.42 * n * max(len(rungs), 1) + 1.5))}):
        fig = Figure(layout="constrained")
        ax = fig.subplots()
    h = 0.7 / max(len(rungs), 1)
    for k, (pre, name) in enumerate(rungs):
        est, lo, hi = (np.array([np.nan if v is None else v for v in df[f"{pre}_{c}"].to_list()], float)
                       for c in ("est", "low", "high"))
        y = np.arange(n) + (k - (len(rungs) - 1) / 2) * h
        err = np.nan_to_num(np.vstack([np.maximum(est - lo, 0), np.maximum(hi - est, 0)]))
        ax.errorbar(est, y, xerr=err, fmt="o", capsize=3, color=COLORS[k % len(COLORS)], label=name)
    ax.axvline(0, color="k", ls="--", lw=1)
    _ref_inside(ax, 0.0)
    ax.set_yticks(np.arange(n), [str(x) for x in df[label_col].to_list()])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.grid(True, alpha=STYLE["grid.alpha"])
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    fig.legend(loc="outside lower center", ncols=max(len(rungs), 1), fontsize=8)
    fig.suptitle(title, fontweight="bold")
    return fig


def relative_luminance(colour) -> float:
    """WCAG 2.x relative luminance of a colour (any matplotlib colour: name, hex, RGB(A) in [0, 1]):
    ``0.2126 R + 0.7152 G + 0.0722 B`` of the linearised sRGB channels (``c / 12.92`` up to 0.04045,
    else ``((c + 0.055) / 1.055) ** 2.4``); 0 for black, 1 for white. Source: WCAG 2.2, "relative
    luminance"."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in mpl.colors.to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b) -> float:
    """WCAG contrast ratio ``(L1 + 0.05) / (L2 + 0.05)`` of two colours (L1 the lighter), 1 to 21."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(background, dark: str = "black", light: str = "white") -> str:
    """The text colour of ``dark`` and ``light`` with the higher WCAG contrast ratio against ``background``
    (black on light cells, white on dark ones such as the maroon and navy ends of a diverging map)."""
    return dark if contrast_ratio(dark, background) >= contrast_ratio(light, background) else light


def _drawn_ticklabels(axis) -> list:
    """The major tick labels of ``axis`` that are drawn: those of ticks inside its view interval (a
    locator may place ticks outside it; matplotlib does not draw those)."""
    lo, hi = sorted(axis.get_view_interval())
    eps = 1e-9 * max(1.0, abs(hi - lo))
    return [t for loc, t in zip(axis.get_majorticklocs(), axis.get_majorticklabels()) if lo - eps <= loc <= hi + eps]


def _texts(fig: Figure):
    """The visible text artists of a figure: titles, axis labels, tick labels, legend and free texts."""
    out = [t for t in (fig._suptitle, fig._supxlabel, fig._supylabel) if t is not None]
    out += list(fig.texts)
    for ax in fig.axes:
        out += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        out += _drawn_ticklabels(ax.xaxis) + _drawn_ticklabels(ax.yaxis) + list(ax.texts)
        leg = ax.get_legend()
        if leg is not None:
            out += list(leg.get_texts())
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def _layout(fig: Figure) -> None:
    """Lay the figure out as saving it would (runs its layout engine; no file is written)."""
    fig.draw_without_rendering()


def fit(fig: Figure, max_width: float = 11.0, draw=None) -> Figure:
    """Make every text of ``fig`` fit its canvas before it is saved.

    A figure without a layout engine (one a caller laid out with ``tight_layout`` before adding labels)
    gets constrained layout; y tick labels wider than 45% of the canvas widen the figure (to at most
    ``max_width`` inches); a title, suptitle or x-axis label that reaches past the canvas (a title is
    centred over its axes, which long tick labels push to the right) is wrapped onto more lines until it
    fits the room around its centre (a y-axis label likewise, vertically). Returns ``fig``.

    ``draw`` (no arguments) draws the figure, running its layout engine; by default a draw without rendering.
    Every change is followed by a draw, so the last one shows the fitted figure (:func:`save` passes its
    Agg canvas's ``draw`` and writes that drawing).
    """
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    if fig.get_layout_engine() is None or isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine):
        try:
            fig.set_layout_engine("constrained")
        except RuntimeError:  # a colorbar made under another engine: tight layout again after each change
            pass

    def relayout():
        if isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine):
            fig.tight_layout()  # twice: the second pass sees the label positions the first one set
            fig.tight_layout()
        if draw is None:
            _layout(fig)
        else:
            draw()

    relayout()
    widest = max((t.get_window_extent().width for ax in fig.axes for t in _drawn_ticklabels(ax.yaxis)
                  if t.get_visible() and t.get_text()), default=0.0)
    w, h = fig.get_size_inches()
    if widest > 0.45 * fig.bbox.width and w < max_width:
        fig.set_size_inches(min(max_width, w + (widest - 0.45 * fig.bbox.width) / fig.dpi), h)
        relayout()
    wrappable = [t for t in (fig._suptitle, fig._supxlabel) if t is not None]
    for ax in fig.axes:
        wrappable += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label]
    for _ in range(4):
        changed = False
        for t in wrappable + [ax.yaxis.label for ax in fig.axes]:
            text = t.get_text()
            if not text.strip() or not t.get_visible():
                continue
            ext = t.get_window_extent()
            vertical = t.get_rotation() % 180 == 90
            # the room a text has on the canvas: twice the distance from its anchor (a title is centred
            # over its axes, which long tick labels push off the canvas's centre) to the nearer edge
            lo, hi, size = (ext.y0, ext.y1, fig.bbox.height) if vertical else (ext.x0, ext.x1, fig.bbox.width)
            need = hi - lo
            room = (2 * max(0.0, min((lo + hi) / 2, size - (lo + hi) / 2)) if t.get_ha() == "center"
                    else size - max(lo, 0.0) if t.get_ha() == "left" else min(hi, size))
            if need > room or lo < -0.5 or hi > size + 0.5:
                longest = max(len(line) for line in text.split("\n"))
                t.set_text(textwrap.fill(" ".join(text.split()), max(8, int(longest * min(0.95 * room / need, 0.9))),
                                         break_on_hyphens=False))
                changed = True
        if not changed:
            break
        relayout()
    return fig


def overflow(fig: Figure, tol: float = 1.0) -> list[str]:
    """The texts of ``fig`` (as it would be saved) that reach outside its canvas, each as
    ``"'text' (x0, y0, x1, y1 px) outside the 0..W x 0..H canvas"``; empty when the figure's tight
    bounding box lies inside the canvas (``tol`` pixels of slack)."""
    _layout(fig)
    W, H = fig.bbox.width, fig.bbox.height
    out = []
    for t in _texts(fig):
        e = t.get_window_extent()
        if e.x0 < -tol or e.y0 < -tol or e.x1 > W + tol or e.y1 > H + tol:
            out.append(f"{t.get_text()!r} ({e.x0:.0f}, {e.y0:.0f}, {e.x1:.0f}, {e.y1:.0f} px) outside the "
                       f"0..{W:.0f} x 0..{H:.0f} canvas")
    tb = fig.get_tightbbox()  # inches
    wi, hi = fig.get_size_inches()
    if not out and (tb.x0 < -tol / fig.dpi or tb.y0 < -tol / fig.dpi or tb.x1 > wi + tol / fig.dpi
                    or tb.y1 > hi + tol / fig.dpi):
        out.append(f"tight bounding box ({tb.x0:.2f}, {tb.y0:.2f}, {tb.x1:.2f}, {tb.y1:.2f} in) outside the "
                   f"{wi:.2f} x {hi:.2f} in canvas")
    return out


def png_size(path: Path) -> tuple[int, int]:
    """Width and height in pixels of a PNG file (from its IHDR chunk).

    Raises:
        ValueError: not a PNG file.
    """
    head = Path(path).read_bytes()[:24]
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{str(path)!r} is not a PNG file")
    return struct.unpack(">II", head[16:24])


def close(fig: Figure) -> None:
    """Release a figure: forget it in pyplot when a caller made it there (pyplot is never imported
    here), and drop its artists."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close(fig)
    fig.clear()


def freeze(fig: Figure) -> None:
    """Keep the layout :func:`fit` computed when the figure is saved: saving would run the layout engine again on the
    same figure and canvas (the same positions; a third of a report figure's drawing time)."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    if not isinstance(fig.get_layout_engine(), (type(None), PlaceHolderLayoutEngine)):
        fig.set_layout_engine("none")


def mark_descriptive(fig: Figure) -> Figure:
    """Say "descriptive" in the title of a chart of observed groups (groups that differ in more than the thing
    compared: who Abjures early, what Coffee bought), unless one of its titles says so already: at the end of the
    figure's suptitle, else of its first Axes title (inside its closing parenthesis, when it ends with one)."""
    sup = fig._suptitle
    titles = [ax.title for ax in fig.axes] + ([sup] if sup is not None else [])
    if any("descriptive" in t.get_text().lower() for t in titles):
        return fig
    first = sup if sup is not None and sup.get_text() else next((t for t in titles if t.get_text()), None)
    if first is not None:  # "VP per Coffee (95% interval)" -> "VP per Coffee (95% interval; descriptive)"
        text = first.get_text()
        first.set_text(f"{text[:-1]}; descriptive)" if text.endswith(")") else f"{text} (descriptive)")
    elif fig.axes:
        fig.axes[0].set_title("Descriptive")
    return fig


def save(fig: Figure, path: Path) -> Path:
    """Save as PNG after :func:`fit`, and close the figure.

    The figure is drawn on an Agg canvas (whatever the backend) by :func:`fit` itself, and the PNG is that
    canvas's last drawing, the fitted one: each figure is laid out and rendered once, not laid out again by
    ``savefig`` (the same pixels as ``fig.savefig(path, format="png")`` after :func:`fit` and :func:`freeze`).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        canvas = FigureCanvasAgg(fig)
        fit(fig, draw=canvas.draw)
        with replacing(path) as tmp:  # a full disk leaves no half-written PNG (and an earlier one whole)
            # what savefig's PNG writer does after its own draw (same pixels, dpi and metadata)
            mpl.image.imsave(tmp, canvas.buffer_rgba(), format="png", origin="upper", dpi=fig.dpi)
    finally:
        close(fig)
    return path
