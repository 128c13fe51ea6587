"""``meeplelab content-value``: the causal value of content items, by removing them or denying them to one seat.

Each chosen item (``kind:id``, e.g. ``invention:telescope``; a bare id when only one kind has it) is
one arm of an experiment (:mod:`meeplelab.play.experiment`): the same content with that one ``[[table]]`` entry
deleted from its file, played on the same seed and the same seat orders as the control (the content
unchanged), so game ``i`` of every arm is the same game seed in the same seat order and the arms
differ only by the missing item. ``meeplelab.analysis.content.removal_effects`` pairs every seat-result with
itself in the control: the change of mean final VP of every seat, of each strategy's win rate and VP,
and of the seats that took the item in the control game (its value to the seats that use it), with
intervals, Holm-adjusted claims and the games needed.

``--mode deny`` (or ``both``) adds, per item, an arm in which the content is unchanged and the item is
denied to one seat of every game only (roster position ``game seed mod P``, so every seat is denied in an
equal share of the games): the seat's legal mask loses every action that would take it
(:mod:`meeplelab.play.deny`, a rule-free per-seat treatment; neither engine has a per-seat content hook).
Its pairs read the item's value to one seat while the others keep it; any kind can be denied, also the
kinds that cannot be removed.

Removal is a content edit checked like any content: the edited files must load
(``ContentError`` otherwise: the message names the file and the rule) and a game must set up with
them. Kinds the content rules fix in number are refused with the reason (Galileo's Truth's pyramid
boards and Window spaces, Unconscious Mind's Locations; :data:`meeplelab.analysis.content.KINDS`).

The edited content folders are written to a temporary folder while the arms play; each arm's run
folder keeps its own copy in ``content/`` (as every run with ``--content`` does), so a resumed
experiment rebuilds the same bytes (the same content hash) and the report reads each arm's copy.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import tempfile
import tomllib
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from meeplelab.play.config import RunConfig
from meeplelab.play.plan import validated
from meeplelab.sim.core.errors import ConfigError, ContentError
from meeplelab.play.experiment import Variant, _folder
from meeplelab.sim.registry import get_game_class
from meeplelab.analysis.content import kinds_of, removal_effects, removal_line, removal_sections
from meeplelab.analysis.report import build_report
from meeplelab.analysis.retune import record_lines, section, with_sections
from meeplelab.play.experiment import read_experiment, run_experiment
from meeplelab.sim.core.params import apply_overrides
from meeplelab.sim.registry import available_games, make_game
from meeplelab.studies.retune import check_request, clear, run_retuned

_HEADER = re.compile(r"^\s*\[")


def _kinds(game: str):
    kinds = kinds_of(game)
    if not kinds:
        allowed = [g for g in available_games() if kinds_of(g)]
        raise ConfigError(f"--game {game!r} has no content catalogue for content-value: allowed {', '.join(allowed)}")
    return kinds


def item_list(game: str, content_dir: Path | str | None = None) -> list[tuple[str, str, bool]]:
    """Every content item of ``game``: ``(kind, id, removable)`` in catalogue order (the packaged content,
    or ``content_dir``)."""
    kinds = _kinds(game)
    content = get_game_class(game)(content_dir=content_dir).content
    return [(k.kind, ident, k.removable) for k in kinds for ident in k.ids(content) if ident is not None]


def parse_items(game: str, text: str, content_dir: Path | str | None = None, *,
                removable: bool = True) -> list[tuple[str, str]]:
    """``"invention:telescope,compass"`` -> ``[("invention", "telescope"), ("invention", "compass")]``.

    A bare id names the one kind that has it. With ``removable=False`` (``--mode deny``: an item is
    denied to a seat, not removed) the kinds the content rules fix in number are accepted too.

    Raises:
        ConfigError: an empty list, an unknown kind or id, an id of several kinds without its kind, an item
            listed twice, or (``removable``) an item of a kind that cannot be removed (the reason named).
    """
    kinds = {k.kind: k for k in _kinds(game)}
    items = item_list(game, content_dir)
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        ex = next(f"{k}:{i}" for k, i, r in items if r)
        raise ConfigError(f"--items {text!r}: name at least one item as kind:id (e.g. {ex}); "
                          f"`meeplelab content-value --game {game} --list` lists them")
    out: list[tuple[str, str]] = []
    for s in specs:
        kind, sep, ident = s.partition(":")
        if not sep:
            ident = kind
            hits = sorted({k for k, i, _ in items if i == ident})
            if not hits:
                raise ConfigError(f"--items: unknown item {ident!r} of {game}: allowed kind:id with kind one of "
                                  f"{', '.join(kinds)} (`meeplelab content-value --game {game} --list` lists the ids)")
            if len(hits) > 1:
                raise ConfigError(f"--items: {ident!r} is an id of several kinds ({', '.join(hits)}): write "
                                  f"{hits[0]}:{ident}")
            kind = hits[0]
        if kind not in kinds:
            raise ConfigError(f"--items {s!r}: unknown kind {kind!r}: allowed {', '.join(kinds)}")
        ids = [i for k, i, _ in items if k == kind]
        if ident not in ids:
            raise ConfigError(f"--items {s!r}: {game} has no {kind} {ident!r}: allowed {', '.join(ids)}")
        k = kinds[kind]
        if removable and not k.removable:
            allowed = ", ".join(x.kind for x in kinds.values() if x.removable)
            raise ConfigError(f"--items {s!r}: a {k.label} cannot be removed: {k.fixed}; removable kinds: {allowed} "
                              "(--mode deny denies any item to one seat instead)")
        if (kind, ident) in out:
            raise ConfigError(f"--items: {kind}:{ident} is listed twice: list each item once")
        out.append((kind, ident))
    return out


def remove_entry(text: str, table: str, ident: str, *, where: str = "content file") -> str:
    """The TOML ``text`` without the ``[[table]]`` entry whose ``id`` is ``ident`` (the entry's lines, from its
    header to the next header, are deleted; every other byte is kept, comments included).

    Raises:
        ContentError: no such entry, or the edit would change anything but that entry (checked by parsing
            both texts).
    """
    lines = text.splitlines(keepends=True)
    heads = [i for i, ln in enumerate(lines) if _HEADER.match(ln)] + [len(lines)]
    want = re.compile(rf"^\s*id\s*=\s*([\"']){re.escape(ident)}\1\s*(#.*)?$")
    for a, b in zip(heads, heads[1:]):
        if lines[a].strip() != f"[[{table}]]":
            continue
        if any(want.match(ln.rstrip("\n")) for ln in lines[a + 1:b]):
            new = "".join(lines[:a] + lines[b:])
            old_d, new_d = tomllib.loads(text), tomllib.loads(new)
            expect = [e for e in old_d.get(table, []) if e.get("id") != ident]
            if new_d.get(table, []) != expect or {k: v for k, v in new_d.items() if k != table} != {
                    k: v for k, v in old_d.items() if k != table}:
                raise ContentError(f"{where}: removing [[{table}]] entry {ident!r} would change other entries "
                                   "(an entry spread over several tables); edit the file by hand")
            return new
    raise ContentError(f"{where}: no [[{table}]] entry with id {ident!r}")


def removed_content(game: str, kind: str, ident: str, dest: Path, base: Path | str | None = None) -> Path:
    """Write into ``dest`` the content of ``base`` (the packaged content when None) with one item removed.

    Raises:
        ConfigError: the kind cannot be removed.
        ContentError: the entry is not in its file, or the edited content does not validate.
    """
    kinds = {k.kind: k for k in _kinds(game)}
    k = kinds[kind]
    if not k.removable:
        raise ConfigError(f"a {k.label} cannot be removed: {k.fixed}")
    cls = get_game_class(game)
    src = Path(base) if base is not None else cls.default_content_dir()
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    files = [Path(f) for f in cls(content_dir=src).content_files()]
    for f in files:
        shutil.copyfile(f, dest / f.name)
    target = dest / k.file
    target.write_text(remove_entry(target.read_text(), k.table, ident, where=k.file))
    return dest


def check_removal(game: str, players: int, params: dict, folder: Path, what: str) -> None:
    """Check that ``folder`` (content with one item removed) is legal content: it loads, the rule
    parameters accept it, and a game of ``players`` seats sets up on it with its invariants holding.

    Raises:
        ConfigError: naming the item (``what``) and the content rule it breaks.
    """
    import numpy as np

    cls = get_game_class(game)
    try:
        g = make_game(game, apply_overrides(cls.Params(), params or {}), folder)
        state = g.init(np.arange(2, dtype=np.int64), 0, players)
    except (ContentError, ConfigError) as e:
        raise ConfigError(f"--items {what}: removing it is not a legal content edit: {e}") from None
    bad = g.check_invariants(state)
    if bad:
        raise ConfigError(f"--items {what}: removing it leaves a game that breaks the rules at setup: {bad[0]}")


#: ``--mode``: how an item's value is measured (arms per item, in this order)
MODES = {"remove": ("remove",), "deny": ("deny",), "both": ("remove", "deny")}


@contextmanager
def removal_arms(base: RunConfig, items: list[tuple[str, str]], mode: str = "remove") -> Iterator[list[Variant]]:
    """The control and, per item, a removal arm and/or a deny arm, the removal arms' edited content in a
    temporary folder that lives while the ``with`` block plays them.

    A removal arm plays the content with the item's entry deleted (every seat loses it); a deny arm plays
    the unchanged content with the item denied to one seat per game (roster position ``game seed mod P``,
    rotated so every seat is denied equally; ``treatment = {"deny": "kind:id"}``,
    :mod:`meeplelab.play.deny`). Every arm has the control's seed and seat orders.

    Args:
        base: game, players, strategies (one per seat, or one for all), games, seed, seating, ``params``,
            ``content`` (the control's content; None = packaged) and ``out`` (the experiment folder).
        items: ``(kind, id)`` pairs (:func:`parse_items`).
        mode: ``remove``, ``deny`` or ``both`` (:data:`MODES`).

    Raises:
        ConfigError: an unknown mode, an item whose removal is not a legal content edit, or a bad run setting.
    """
    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}: allowed {', '.join(MODES)}")
    roster = tuple(base.strategies) if len(base.strategies) > 1 else tuple(base.strategies) * base.players
    tmp = Path(tempfile.mkdtemp(prefix="meeplelab-content-value-"))
    try:
        control = dataclasses.replace(base, strategies=roster, out=str(Path(base.out) / "control"))
        arms = [Variant("control", validated(control), {"content": "unchanged"})]
        for kind, ident in items:
            if "deny" in MODES[mode]:
                label = f"deny:{kind}:{ident}"
                cfg = validated(dataclasses.replace(base, strategies=roster, treatment={"deny": f"{kind}:{ident}"},
                                          out=str(Path(base.out) / _folder(label))))
                deny_arm = Variant(label, cfg, {"deny": f"{kind}:{ident}"})
            if "remove" not in MODES[mode]:
                arms.append(deny_arm)
                continue
            label = f"remove:{kind}:{ident}"
            folder = removed_content(base.game, kind, ident, tmp / _folder(label), base.content)
            check_removal(base.game, base.players, base.params, folder, f"{kind}:{ident}")
            cfg = validated(dataclasses.replace(base, strategies=roster, content=str(folder),
                                      out=str(Path(base.out) / _folder(label))))
            arms.append(Variant(label, cfg, {"remove": f"{kind}:{ident}"}))
            if "deny" in MODES[mode]:
                arms.append(deny_arm)
        yield arms
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_content_value(base: RunConfig, items: list[tuple[str, str]], *, mode: str = "remove", overwrite: bool = False,
                      resume: bool = False, on_variant=None, progress: bool = False, settings: str | None = None,
                      retune: int = 0, say: Callable[[str], None] | None = None) -> Path:
    """Play the control and every removal and/or deny arm (``mode``, :func:`removal_arms`) into ``base.out``
    (an experiment folder: ``experiment.json``, one run folder per arm) and return it; ``progress`` draws a
    bar of arms and each arm's games (:mod:`meeplelab.play.progress`); ``settings`` (TOML text) is written as
    ``OUT/config.toml``.

    ``retune`` (games of each re-tuning; 0: players fixed): every tunable roster entry is re-tuned to each arm's
    content (the control's and each removal's) and the arm played again on the same games
    (:func:`meeplelab.studies.retune.run_retuned`: ``OUT/retuned/<arm>/run``, recorded in ``OUT/retuned.json``);
    ``say`` receives a line per re-tuning. Without it a re-tuning an earlier experiment left is removed.

    Raises:
        ConfigError: see :func:`removal_arms` and :func:`check_retune` (before any game).
        RunFolderError: see :func:`meeplelab.play.experiment.run_experiment`.
    """
    with removal_arms(base, items, mode) as arms:
        check_retune(base, arms, retune, resume=resume)

        def retuned(work: Path) -> None:  # in the folder the experiment is built in, before it replaces another
            run_retuned(arms[0].config, [{} for _ in arms], [Path(a.config.out).name for a in arms], work, retune,
                        progress=progress, say=say, contents=[a.config.content for a in arms],
                        shown=[{} if a.label == "control" else a.change for a in arms])

        return run_experiment(arms, base.out, overwrite=overwrite, resume=resume, on_variant=on_variant,
                              progress=progress, settings=settings,
                              finish=retuned if retune else None if resume else clear)


def check_retune(base: RunConfig, arms: list[Variant], retune: int, *, resume: bool = False) -> None:
    """``content-value --retune BUDGET`` checked before any game: 0 (players fixed), or every arm a removal (a deny
    arm treats one seat, which a tuning cannot play) and a roster :func:`meeplelab.studies.retune.check_request`
    accepts (a tunable strategy among distinct ones; a resume with the budget it was re-tuned with).

    Raises:
        ConfigError: the first deny arm named, or what that check refuses.
    """
    deny = next((a for a in arms if "deny" in a.change), None)
    if retune and deny is not None:
        raise ConfigError(f"--retune {retune}: arm {deny.label!r} denies an item to one seat, which a re-tuning cannot "
                          "play; allowed with --retune: --mode remove")
    check_request(base, retune, base.out, resume=resume)


__all__ = ["MODES", "check_removal", "check_retune", "item_list", "parse_items", "removal_arms", "remove_entry", "removed_content",
           "run_content_value"]


def report_lines(out: Path, *, retune: int, progress: bool = False) -> Iterator[str]:
    """The content-value experiment in ``out`` (played): its report written into ``out/report`` (the removal
    sections; with ``retune`` the players re-tuned to each arm's content), then what ``meeplelab content-value``
    says: each item's effect on the seats that took it or were denied it, the re-tuned record, where it was written
    (lines, one at a time as they are known)."""
    meta = read_experiment(out)
    again = [x for x in [section(out)] if x is not None]  # --retune: the players re-tuned to each arm's content
    page = build_report([out / a["folder"] for a in meta["arms"]], out / "report",
                        sections=with_sections(removal_sections(out), again), kind="content-value", progress=progress)
    for r in removal_effects(out).iter_rows(named=True):
        if r["group"] in ("took it in control", "all seats", "denied seat", "denied seat, took it in control"):
            yield removal_line(r)
    yield from (record_lines(out, to="each arm's content") if retune else [])
    yield f"wrote {len(meta['arms'])} arms to {out}; report {page}"
