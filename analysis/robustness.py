"""Analysis of a robustness run: conclusion values per design point, Morris and Sobol indices, verdicts.

Per conclusion (see :mod:`meeplelab.analysis.conclusions`):

- the baseline: its quantity ``q`` at the default rules with a 95% interval and the number of
  paired observations;
- the share of design points where it holds (Wilson 95% interval over the points);
- the points where it **flips**: the interval at that point lies on the wrong side, at a
  Bonferroni-corrected level over all points (one-sided ``0.05 / points``), so that seed noise at
  one of many points is not reported as a flip;
- the assumptions that move it most: Morris ``mu`` (signed mean elementary effect, the change of
  ``q`` from the low to the high end of the range, with a 95% t interval over the trajectories),
  ``mu*`` with SALib's bootstrap interval, ``sigma``; Sobol ``S1``/``ST`` where the Sobol stage ran;
- a verdict line: ``robust`` (no flip and the lower Wilson bound of the share holding >= 0.9),
  ``depends on A-.. (flips when name <= v)`` (the single-parameter threshold rule that best separates
  flipped from holding points), or ``not resolved with this budget`` (with the reason).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from scipy import stats as st

from .stats import bonferroni_z, holm, holm_words, wilson, z_value
from meeplelab.sim.plausible import format_value as fv

ROBUST_SHARE = 0.9


def conclusion_values(study, tables) -> dict:
    """``{name: {"q", "se", "n": float arrays [points], "frame": dict}}`` (nan where a point is missing)."""
    base = tables[0]
    out = {}
    for c in study.conclusions:
        fr = c.frame(base)
        q = np.full(len(tables), np.nan)
        se = np.full(len(tables), np.nan)
        n = np.zeros(len(tables))
        for i, t in enumerate(tables):
            if t is not None:
                q[i], se[i], n[i] = c.measure(t, fr)
        out[c.name] = {"q": q, "se": se, "n": n, "frame": fr}
    return out


def morris_indices(d, y: np.ndarray) -> dict:
    """SALib Morris analysis of ``y`` (``[r * (k + 1)]``, the Morris points in design order).

    Returns ``{"mu", "mu_star", "sigma", "mu_star_conf", "mu_conf"}`` arrays ``[k]`` (conclusion units per
    full plausible range); zeros when ``y`` is constant."""
    from SALib.analyze import morris as morris_analyze

    k = len(d.factors)
    y = np.asarray(y, float)
    if np.nanstd(y) == 0 or not np.isfinite(y).all():
        z = np.zeros(k) if np.isfinite(y).all() else np.full(k, np.nan)
        return {"mu": z, "mu_star": z, "sigma": z, "mu_star_conf": z, "mu_conf": z}
    problem = {"num_vars": k, "names": d.factors, "bounds": [[0.0, 1.0]] * k}
    si = morris_analyze.analyze(problem, np.asarray(d.morris_X), y, num_resamples=1000, conf_level=0.95,
                                num_levels=4, seed=d.seed)
    sigma = np.nan_to_num(np.asarray(si["sigma"], float))
    tq = st.t.ppf(0.975, max(d.r - 1, 1))
    return {"mu": np.asarray(si["mu"], float), "mu_star": np.asarray(si["mu_star"], float), "sigma": sigma,
            "mu_star_conf": np.nan_to_num(np.asarray(si["mu_star_conf"], float)), "mu_conf": tq * sigma / math.sqrt(d.r)}


def sobol_indices(d, y: np.ndarray) -> dict | None:
    """SALib Sobol analysis (first-order and total, bootstrap 95% intervals) of the Sobol points' ``y``."""
    from SALib.analyze import sobol as sobol_analyze

    if not d.sobol_X:
        return None
    y = np.asarray(y, float)
    m = len(d.sobol_factors)
    if np.nanstd(y) == 0:
        z = np.zeros(m)
        return {"S1": z, "S1_conf": z, "ST": z, "ST_conf": z}
    problem = {"num_vars": m, "names": d.sobol_factors, "bounds": [[0.0, 1.0]] * m}
    si = sobol_analyze.analyze(problem, y, calc_second_order=False, num_resamples=1000, conf_level=0.95, seed=d.seed)
    return {k: np.asarray(si[k], float) for k in ("S1", "S1_conf", "ST", "ST_conf")}


def _unit_matrix(d, ranges) -> np.ndarray:
    """``[points, k]`` unit coordinates of every factor at every point (defaults where a point leaves it)."""
    pts = d.points()
    u = np.empty((len(pts), len(d.factors)))
    for j, f in enumerate(d.factors):
        u0 = ranges[f].unit_of(ranges[f].default)
        for i, p in enumerate(pts):
            u[i, j] = p.get(f, u0)
    return u


def _rule_scale(r, x: float) -> float:
    """A point's value of a factor as one number ordered like the value (tuples: their sum; choices: index)."""
    v = r.value(x)
    if r.choices is not None:
        return float(r.choices.index(v))
    return float(sum(v)) if isinstance(v, tuple) else float(v)


def _threshold_rule(d, ranges, u, flipped, holds, mu_star):
    """Best single-factor rule ``value <= t`` / ``value >= t`` separating flipped from holding points (Youden),
    on the values actually played (rounded), returned with the unit coordinate of a point at the threshold.
    A factor whose Morris ``mu*`` is exactly 0 (its steps never changed the quantity, on common seeds)
    cannot cause a flip and is never named (None when no other factor is left)."""
    best = None
    for j, f in enumerate(d.factors):
        if mu_star[j] == 0:
            continue
        vals = np.array([_rule_scale(ranges[f], x) for x in u[:, j]])
        for t in np.unique(vals[flipped | holds]):
            at = float(u[np.flatnonzero(vals == t)[0], j])
            for sense in ("<=", ">="):
                pick = vals <= t if sense == "<=" else vals >= t
                if pick[0]:  # a rule must exclude the default rules (point 0), where the conclusion is stated
                    continue
                tpr = (pick & flipped).sum() / max(flipped.sum(), 1)
                fpr = (pick & holds).sum() / max(holds.sum(), 1)
                key = (round(tpr - fpr, 9), mu_star[j] if np.isfinite(mu_star[j]) else 0.0)
                if best is None or key > best[0]:
                    best = (key, f, at, sense, int((pick & flipped).sum()), int((pick & holds).sum()))
    return best


def analyse(d, study, ranges, tables) -> dict:
    """Everything the report shows; ``{"json": results dict, "points": DataFrame per point and conclusion}``."""
    vals = conclusion_values(study, tables)
    npts = len(tables)
    nm = 1 + len(d.morris_X)
    zb = bonferroni_z(npts)  # one-sided Bonferroni over the points: no flip is claimed by chance (5% family-wise)
    u = _unit_matrix(d, ranges)
    stage = np.array(["default"] + ["morris"] * len(d.morris_X) + ["sobol"] * (npts - nm))
    rows, out = [], []
    # whether each directional conclusion is established at the defaults is one claim per conclusion:
    # Holm over them (the flips at the points are Bonferroni over the points, above)
    p0 = {}
    for c in study.conclusions:
        q_, se_ = vals[c.name]["q"][0], vals[c.name]["se"][0]
        if c.test != "within":
            p0[c.name] = float(2 * st.norm.sf(abs(q_) / se_)) if (np.isfinite(se_) and se_ > 0 and np.isfinite(q_)) else 1.0
    adj0 = dict(zip(p0, holm(list(p0.values())))) if p0 else {}
    for c in study.conclusions:
        v = vals[c.name]
        q, se, n, fr = v["q"], v["se"], v["n"], v["frame"]
        ok = np.isfinite(q)
        if c.test == "within":
            centre, tol = c.tol(fr)
            dev = np.abs(q - centre)
            holds = ok & (dev <= tol)
            flipped = ok & (dev - zb * se > tol)
            established = True
        else:
            centre = 0.0
            sign = 1.0 if q[0] >= 0 else -1.0
            s = q * sign
            holds = ok & (s > 0)
            flipped = ok & (s + zb * se < 0)
            # se is never 0 with 2 or more games (meeplelab.analysis.conclusions.mean_se); without one, nothing is
            # established; Holm-adjusted over the directional conclusions of the study
            established = bool(adj0[c.name] < 0.05)
        mi = morris_indices(d, q[1:nm])
        si = sobol_indices(d, q[nm:]) if npts > nm else None
        share, slo, shi = (float(x) for x in wilson(holds[ok].sum(), max(ok.sum(), 1)))
        order = np.argsort(-np.nan_to_num(mi["mu_star"], nan=-1))
        top = [d.factors[j] for j in order[:3]]
        morris = [{"factor": f, "id": ranges[f].source, "range": ranges[f].text(), "mu": float(mi["mu"][j]),
                   "mu_low": float(mi["mu"][j] - mi["mu_conf"][j]), "mu_high": float(mi["mu"][j] + mi["mu_conf"][j]),
                   "mu_star": float(mi["mu_star"][j]), "mu_star_conf": float(mi["mu_star_conf"][j]),
                   "sigma": float(mi["sigma"][j])} for j, f in ((j, d.factors[j]) for j in order)]
        sobol = None
        if si is not None:
            sobol = sorted(({"factor": f, "id": ranges[f].source, "S1": float(si["S1"][j]), "S1_conf": float(si["S1_conf"][j]),
                             "ST": float(si["ST"][j]), "ST_conf": float(si["ST_conf"][j])}
                            for j, f in enumerate(d.sobol_factors)), key=lambda r: -r["ST"])
        flips = [{"point": int(i), "q": float(q[i]), **dict(zip(("low", "high"), _bounds(q[i], se[i], c.unit))),
                  **{f: format_value(ranges, f, u[i, d.factors.index(f)]) for f in top}}
                 for i in np.flatnonzero(flipped)]
        # a flip below and a flip above the baseline are separate rules (a "within" quantity can leave both ways)
        sides = [flipped & (q < centre), flipped & (q > centre)] if c.test == "within" else [flipped]
        rules = sorted((r for r in (_threshold_rule(d, ranges, u, fl, holds & ~flipped, mi["mu_star"]) for fl in sides
                                    if fl.any()) if r is not None), key=lambda r: -r[4])  # most flips explained first
        verdict = _verdict(c, established, q[0], se[0], n[0], flipped, holds, ok, share, slo, shi, rules, ranges, morris,
                           note=f"; {holm_words(len(p0))}: p = {adj0[c.name]:.2g}" if c.name in adj0 else "")
        out.append({
            "name": c.name, "title": c.title, "unit": c.unit, "test": c.test,
            "statement": c.statement(fr, float(q[0])),
            "baseline": {"q": float(q[0]), **dict(zip(("low", "high"), _bounds(q[0], se[0], c.unit))),
                         "n": int(n[0])},
            "points": int(ok.sum()), "holds": int(holds.sum()), "share": share, "share_low": slo, "share_high": shi,
            "flipped": int(flipped.sum()), "flips": flips[:20], "morris": morris, "sobol": sobol, "verdict": verdict,
            "rules": [{"factor": r[1], "sense": r[3], "value": format_value(ranges, r[1], r[2]),
                       "flipped_in": r[4], "holding_in": r[5]} for r in rules],
        })
        for i in range(npts):
            rows.append((i, stage[i], c.name, float(q[i]), float(se[i]), int(n[i]), bool(holds[i]), bool(flipped[i])))
    points = pl.DataFrame(rows, schema=["point", "stage", "conclusion", "q", "se", "n", "holds", "flipped"], orient="row")
    meta = {"game": d.game, "budget": d.budget, "games_per_lineup": d.games, "lineups": len(d.lineups),
            "games_per_point": d.games_per_point, "points": npts, "morris_points": nm - 1, "trajectories": d.r,
            "sobol_points": npts - nm, "sobol_factors": d.sobol_factors or [], "sobol_N": d.sobol_N,
            "games_played": sum(t is not None for t in tables) * d.games_per_point,
            "factors": d.factors, "flip_z": zb, "seed": d.seed,
            "established_correction": holm_words(len(p0)) + " (directional conclusions at the defaults)"}
    return {"json": {"meta": meta, "conclusions": out}, "points": points}


def _bounds(q: float, se: float, unit: str) -> tuple[float, float]:
    """The 95% normal interval ``q +- z se``; a difference of win rates in points cannot leave [-100, 100] (a tiny
    budget's interval, +50 [-18, +118], is cut there)."""
    lo, hi = float(q - z_value() * se), float(q + z_value() * se)
    if unit == "points":
        lo, hi = max(lo, -100.0), min(hi, 100.0)
    return lo, hi


def format_value(ranges, f, unit: float) -> str:
    return fv(ranges[f].value(unit))


def _verdict(c, established, q0, se0, n0, flipped, holds, ok, share, slo, shi, rules, ranges, morris, note: str = "") -> str:
    movers = ", ".join(f"{m['id']} {m['factor']} (mu* {m['mu_star']:.2g} +- {m['mu_star_conf']:.2g} {c.unit})"
                       for m in morris[:2] if m["mu_star"] > 0)
    at = f"{share:.0%} [{slo:.0%}, {shi:.0%}] of {int(ok.sum())} points"
    if not established:
        lo, hi = _bounds(q0, se0, c.unit)
        return (f"not resolved with this budget: not established at the defaults ({q0:+.2f} "
                f"[{lo:+.2f}, {hi:+.2f}] {c.unit}, n={int(n0)}{note}); holds at {at}")
    if flipped.any() and not rules:
        return (f"depends on the assumptions jointly (flipped at {int(flipped.sum())} points; no single assumption "
                f"separates them); holds at {at}")
    if flipped.any():
        ids = ", ".join(dict.fromkeys(ranges[r[1]].source for r in rules))
        whens = " or ".join(f"{f} {sense} {format_value(ranges, f, t)}" for _, f, t, sense, _, _ in rules)
        counts = ", ".join(f"{fin} of {int(flipped.sum())} flipped points and {hin} holding "
                           f"point{'' if hin == 1 else 's'} there"
                           for *_, fin, hin in rules)
        return f"depends on {ids} (flips when {whens}: {counts}); holds at {at}"
    if slo >= ROBUST_SHARE:
        return f"robust: holds at {at}, none flipped" + (f"; moved most by {movers}" if movers else "")
    return (f"not resolved with this budget: holds at {at}, none flipped significantly"
            + (f"; moved most by {movers}" if movers else ""))
