"""A sweep's effects twice, players fixed and players re-tuned (issue 28 item 2; ``meeplelab sweep --retune``).

For every variant after the first (the control) and every roster entry (by its position: a re-tuned entry is a
different preset in every variant), the entry's win rate and final VP in the variant minus in the control,
paired game by game (the same game index is the same seed and seat order in every run of the sweep): once with
the players fixed (the sweep's own variant runs) and once with the players re-tuned to each variant's rules
(:mod:`meeplelab.studies.retune`). Win shares: Agresti-Min adjusted Wald; VP: t intervals. The last column
compares the two (:func:`meeplelab.analysis.stronger.compare`, which treats them as independent: the two runs share
their seeds, so the interval of the difference is conservative).
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

FILE = "retuned.json"


def _by_position(folder: Path, specs: list[str], game: str) -> pl.DataFrame:
    """Seat-results of run ``folder`` with ``pos``, the roster position of each row's strategy."""
    from meeplelab.strategies.registry import make_strategy

    from .load import scan_run

    ids = {make_strategy(game, s).id: i for i, s in enumerate(specs)}
    ids.update({s: i for i, s in enumerate(specs)})
    g = scan_run(str(folder), "games").select("game", "seat", "strategy", "vp", "win_share", "game_seed").collect()
    return g.with_columns(pl.col("strategy").cast(pl.String).replace_strict(ids, default=-1).alias("pos"))


def _paired(arm: pl.DataFrame, ctrl: pl.DataFrame, pos: int) -> dict:
    from .stats import paired_shares
    from .versions import _paired_mean

    j = arm.filter(pl.col("pos") == pos).join(ctrl.filter(pl.col("pos") == pos), on="game", suffix="_c").sort("game")
    cl = j["game_seed"].to_numpy()  # one seed in several seat orders: correlated games (stats.cluster_means)
    w = paired_shares(j["win_share"].to_numpy(), j["win_share_c"].to_numpy(), cluster=cl)
    v = _paired_mean(j["vp"].to_numpy().astype(float) - j["vp_c"].to_numpy().astype(float), cluster=cl)
    return {"win": {"est": w["est"] * 100, "low": w["low"] * 100, "high": w["high"] * 100, "n": int(w["n"])},
            "vp": {"est": v["est"], "low": v["low"], "high": v["high"], "n": int(v["n"])}}


def effects(folder: Path | str, file: str = FILE) -> pl.DataFrame:
    """One row per (variant, roster entry, metric): ``variant, strategy, metric, fixed, fixed_low, fixed_high,
    retuned, retuned_low, retuned_high, n, verdict`` (win in percentage points, VP in VP; ``strategy`` the
    entry as the sweep names it, "(re-tuned)" when it was tuned); empty without ``retuned.json`` (``file``: a
    balance search's record of one rotated field, ``retuned-field-4.json``)."""
    from meeplelab.play.sweep import read_sweep

    from .stronger import compare

    folder = Path(folder)
    if not (folder / file).is_file():
        return pl.DataFrame()
    meta = json.loads((folder / file).read_text())
    game = meta.get("game") or read_sweep(folder)["game"]  # a sweep's or an experiment's re-tuning
    roster = meta["roster"]
    vs = meta["variants"]
    fixed = [_by_position(folder / v["folder"], roster, game) for v in vs]
    tuned = [_by_position(folder / "retuned" / v["folder"] / "run", v["strategies"], game) for v in vs]
    rows = []
    for k in range(1, len(vs)):
        name = ", ".join(f"{a}={b}" for a, b in vs[k]["values"].items())
        for i, s in enumerate(roster):
            f, t = _paired(fixed[k], fixed[0], i), _paired(tuned[k], tuned[0], i)
            for m in ("win", "vp"):
                verdict, _ = compare(f[m], t[m])
                rows.append({"variant": name, "strategy": s + (" (re-tuned)" if i in meta["positions"] else ""),
                             "metric": m, "fixed": f[m]["est"], "fixed_low": f[m]["low"], "fixed_high": f[m]["high"],
                             "retuned": t[m]["est"], "retuned_low": t[m]["low"], "retuned_high": t[m]["high"],
                             "n": f[m]["n"], "verdict": verdict})
    return pl.DataFrame(rows)


def section(folder: Path | str):
    """The sweep report's section "Players fixed and players re-tuned", or None without ``retuned.json``."""
    from .report import Section, TableFormat

    folder = Path(folder)
    df = effects(folder)
    if not df.height:
        return None
    meta = json.loads((folder / FILE).read_text())
    control = ", ".join(f"{a}={b}" for a, b in meta["variants"][0]["values"].items())
    tuned = ", ".join(meta["roster"][i] for i in meta["positions"])
    text = (f"Each effect twice: the variant minus the control ({control}) with the players fixed (the runs above) "
            f"and with the players re-tuned to each variant's rules ({tuned}: `meeplelab tune` under the variant's "
            f"rules against the rest of the roster, {meta['budget']:,} games each, then the variant played again on "
            "the same seeds and seat orders). Paired game by game, 95% intervals (win: Agresti-Min; VP: t). "
            "*holds*: the two are not told apart; *changes*: the re-tuned effect differs (resolved); *reverses*: "
            "both resolved with opposite signs. A rule change whose effect changes once the players re-tune is "
            "partly arithmetic and partly how people would play under it.")
    return Section("Players fixed and players re-tuned", text, [],
                   [("Effect of each variant, players fixed and re-tuned (win in percentage points, VP in VP)", df,
                     TableFormat(decimals={"fixed": 2, "fixed_low": 2, "fixed_high": 2, "retuned": 2,
                                           "retuned_low": 2, "retuned_high": 2}))])


__all__ = ["effects", "section"]
