"""Unconscious Mind content: TOML data files validated on load and compiled into integer arrays.

Every effect (tile sides, card bottoms, dreams, client bonuses, Location effects and bonuses, district slots,
reputation-track sections) is a list of opcode strings from one vocabulary (:data:`OPCODES`), compiled into
rows ``(op, a, b)`` of one effect table the kernels interpret.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import Field

from meeplelab.sim.core.content import Entry, load_entries, parse_effect
from meeplelab.sim.core.errors import ContentError

from . import codes

QUALITIES = ("growth", "freedom", "passion")
LEVELS = ("minor", "median", "major")
COLOURS = ("red", "blue", "green", "yellow")
SYMBOLS = ("mother", "father", "death", "desire")
LOCATIONS = ("cafe", "library", "theater", "opera", "museum", "university")
MT_ACTIONS = ("tile_stack", "tile_center", "tile_right", "generate", "elevate_transfer", "research_draw",
              "research_play", "move_professor", "move_freud")
MAX_OPS = 4
MAX_CARDS = 48
MAX_TREATISES = 24
MAX_VOLUMES = 5

# effect opcodes (value = code in the effect table)
OP = {"coffee": 1, "vp": 2, "bright": 3, "heart": 4, "reputation": 5, "generate": 6, "elevate": 7, "transfer": 8,
      "draw": 9, "play": 10, "tile": 11, "therapy": 12, "hearts": 13}
OPCODES = {
    "coffee": (int,), "vp": (int,), "bright": (int,), "heart": (int,), "reputation": (int,),
    "generate": (QUALITIES + ("any",), LEVELS), "elevate": (int,), "transfer": (int,), "draw": (int,),
    "play": (int,), "tile": (int,), "therapy": (int,), "hearts": (int,),
}
END_OP = {"end_per_cured": codes.END_PER_CURED, "end_per_treatise": codes.END_PER_TREATISE,
          "end_per_inplay": codes.END_PER_INPLAY, "end_per_heart": codes.END_PER_HEART}
END_OPCODES = {k: (int,) for k in END_OP}
GOAL_OP = {"tags": codes.GOAL_TAGS, "cured": codes.GOAL_CURED, "treatises": codes.GOAL_TREATISES,
           "inplay": codes.GOAL_INPLAY}
GOAL_OPCODES = {"tags": (LOCATIONS, int), "cured": (int,), "treatises": (int,), "inplay": (int,)}
INK_KIND = {"plain": 0, "row": 1, "column": 2, "reputation": 3}


class TileM(Entry):
    level: Literal[1, 2]
    main: list[str]
    banner: list[str]


class CardM(Entry):
    volume: Literal["red", "blue", "green", "yellow"]
    tag: Literal["cafe", "library", "theater", "opera", "museum", "university"]
    effect: list[str]


class TreatiseM(Entry):
    volumes: list[Literal["red", "blue", "green", "yellow"]] = Field(min_length=3, max_length=MAX_VOLUMES)
    vp: int = Field(ge=0)
    cite_vp: int = Field(ge=0)
    tags: list[Literal["cafe", "library", "theater", "opera", "museum", "university"]] = Field(min_length=2,
                                                                                            max_length=2)


class ClientM(Entry):
    kind: Literal["routine", "case"]
    hearts: int = Field(ge=0, le=8)
    grief: int = Field(ge=0, le=8)
    symbol: Literal["mother", "father", "death", "desire"]
    vp: int = Field(ge=0)
    tag: Literal["cafe", "library", "theater", "opera", "museum", "university"]
    catharsis: list[str]
    ability: list[str]
    end: list[str]


class DreamM(Entry):
    kind: Literal["latent", "manifest"]
    cost: str
    effect: list[str]
    symbol: Literal["mother", "father", "death", "desire"]


class DistrictM(Entry):
    slot_rewards: list[str] = Field(min_length=4, max_length=4)


class LocationM(Entry):
    district: str
    effects: list[str] = Field(min_length=3, max_length=3)
    bonuses: list[str] = Field(min_length=3, max_length=3)


class GoalM(Entry):
    condition: str
    reputation: int = Field(ge=0, le=3)
    tag: Literal["cafe", "library", "theater", "opera", "museum", "university"]


class ActionM(Entry):
    row: int = Field(ge=0, le=2)
    col: int = Field(ge=0, le=2)
    move: int = Field(ge=1, le=6)


class SpaceM(Entry):
    actions: list[str] = Field(min_length=1, max_length=4)


class InkpotM(Entry):
    kind: Literal["plain", "row", "column", "reputation"]
    row: int = Field(ge=0, le=2)
    generate: str
    gain_idea: bool


class SectionM(Entry):
    first: int = Field(ge=0)
    reward: list[str]
    action: str


FILES = ("board.toml", "notebook.toml", "research.toml", "treatises.toml", "clients.toml", "dreams.toml", "city.toml")


@dataclass
class Content:
    """Compiled content: names for logs and replay, integer arrays for the kernels."""

    files: list[Path]
    effects: np.ndarray          # int32[E, MAX_OPS, 3] (op, a, b); effect 0 is empty
    effect_text: list[str]
    arrays: dict                 # name -> numpy array (kernel constants)
    tile_ids: list[str]
    card_ids: list[str]
    treatise_ids: list[str]
    client_ids: list[str]
    dream_ids: list[str]
    space_ids: list[str]
    goal_ids: list[str]
    district_ids: list[str]


class _Effects:
    def __init__(self):
        self.rows = [np.zeros((MAX_OPS, 3), np.int32)]
        self.text = [""]
        self.index = {(): 0}

    def add(self, ops: list[str], where: str) -> int:
        if len(ops) > MAX_OPS:
            raise ContentError(f"{where}: at most {MAX_OPS} effects, got {len(ops)}")
        parsed = tuple(parse_effect(t, OPCODES, where=where) for t in ops)
        if parsed in self.index:
            return self.index[parsed]
        row = np.zeros((MAX_OPS, 3), np.int32)
        for i, p in enumerate(parsed):
            row[i, 0] = OP[p[0]]
            if p[0] == "generate":
                row[i, 1] = (QUALITIES + ("any",)).index(p[1])
                row[i, 2] = LEVELS.index(p[2])
            else:
                row[i, 1] = p[1]
        self.index[parsed] = len(self.rows)
        self.rows.append(row)
        self.text.append("; ".join(ops))
        return self.index[parsed]


def load_content(folder: Path) -> Content:
    """Load, validate and compile every content file of ``folder``.

    Raises:
        ContentError: a file, entry or field is invalid (the message names them).
    """
    folder = Path(folder)
    f = {n: folder / n for n in FILES}
    eff = _Effects()
    A: dict[str, np.ndarray] = {}

    # ---- board
    acts = load_entries(f["board.toml"], "action", ActionM, min_count=9)
    names = [a.id for a in acts]
    if sorted(names) != sorted(MT_ACTIONS):
        raise ContentError(f"board.toml: [[action]] ids must be exactly {', '.join(MT_ACTIONS)}; got {', '.join(names)}")
    by = {a.id: a for a in acts}
    A["act_row"] = np.array([by[n].row for n in MT_ACTIONS], np.int32)
    A["act_move"] = np.array([by[n].move for n in MT_ACTIONS], np.int32)
    spaces = load_entries(f["board.toml"], "space", SpaceM)
    sa = np.full((len(spaces), 4), -1, np.int32)
    for i, s in enumerate(spaces):
        for j, a in enumerate(s.actions):
            if a not in MT_ACTIONS:
                raise ContentError(f"board.toml: [[space]] entry {s.id!r}: field 'actions': unknown action {a!r}")
            sa[i, j] = MT_ACTIONS.index(a)
    A["space_act"] = sa
    ink = load_entries(f["board.toml"], "inkpot", InkpotM, min_count=2)
    A["ink_kind"] = np.array([INK_KIND[s.kind] for s in ink], np.int32)
    A["ink_row"] = np.array([s.row for s in ink], np.int32)
    A["ink_gen"] = np.array([eff.add([s.generate] if s.generate else [], f"board.toml: [[inkpot]] entry {s.id!r}: "
                                     f"field 'generate'") for s in ink], np.int32)
    A["ink_idea"] = np.array([s.gain_idea for s in ink], np.int32)
    secs = load_entries(f["board.toml"], "section", SectionM)
    A["sec_first"] = np.array([s.first for s in secs], np.int32)
    A["sec_reward"] = np.array([eff.add(s.reward, f"board.toml: [[section]] entry {s.id!r}: field 'reward'")
                                for s in secs], np.int32)
    A["sec_action"] = np.array([eff.add([s.action], f"board.toml: [[section]] entry {s.id!r}: field 'action'")
                                for s in secs], np.int32)

    # ---- notebook tiles (level I ids first, then level II)
    tiles = load_entries(f["notebook.toml"], "tile", TileM, min_count=2)
    tiles = [t for t in tiles if t.level == 1] + [t for t in tiles if t.level == 2]
    w = lambda t, fld: f"notebook.toml: [[tile]] entry {t.id!r}: field {fld!r}"  # noqa: E731
    A["tile_level"] = np.array([t.level - 1 for t in tiles], np.int32)
    A["tile_main"] = np.array([eff.add(t.main, w(t, "main")) for t in tiles], np.int32)
    A["tile_banner"] = np.array([eff.add(t.banner, w(t, "banner")) for t in tiles], np.int32)

    # ---- research cards
    cards = load_entries(f["research.toml"], "card", CardM, min_count=4)
    if len(cards) > MAX_CARDS:
        raise ContentError(f"research.toml: [[card]] at most {MAX_CARDS} entries, found {len(cards)}")
    A["card_col"] = np.array([COLOURS.index(c.volume) for c in cards], np.int32)
    A["card_tag"] = np.array([LOCATIONS.index(c.tag) for c in cards], np.int32)
    A["card_eff"] = np.array([eff.add(c.effect, f"research.toml: [[card]] entry {c.id!r}: field 'effect'")
                              for c in cards], np.int32)

    trs = load_entries(f["treatises.toml"], "treatise", TreatiseM, min_count=1)
    if len(trs) > MAX_TREATISES:
        raise ContentError(f"treatises.toml: [[treatise]] at most {MAX_TREATISES} entries, found {len(trs)}")
    A["tr_len"] = np.array([len(t.volumes) for t in trs], np.int32)
    tc = np.full((len(trs), MAX_VOLUMES), -1, np.int32)
    for i, t in enumerate(trs):
        tc[i, :len(t.volumes)] = [COLOURS.index(v) for v in t.volumes]
    A["tr_cols"] = tc
    A["tr_vp"] = np.array([t.vp for t in trs], np.int32)
    A["tr_cite_vp"] = np.array([t.cite_vp for t in trs], np.int32)
    A["tr_tags"] = np.array([[LOCATIONS.index(x) for x in t.tags] for t in trs], np.int32)

    # ---- clients and dreams
    cls_ = load_entries(f["clients.toml"], "client", ClientM, min_count=2)
    cw = lambda c, fld: f"clients.toml: [[client]] entry {c.id!r}: field {fld!r}"  # noqa: E731
    A["cl_kind"] = np.array([codes.CLIENT_ROUTINE if c.kind == "routine" else codes.CLIENT_CASE for c in cls_], np.int32)
    A["cl_start"] = np.array([c.hearts + c.grief for c in cls_], np.int32)
    A["cl_sym"] = np.array([SYMBOLS.index(c.symbol) for c in cls_], np.int32)
    A["cl_vp"] = np.array([c.vp for c in cls_], np.int32)
    A["cl_tag"] = np.array([LOCATIONS.index(c.tag) for c in cls_], np.int32)
    A["cl_cath"] = np.array([eff.add(c.catharsis, cw(c, "catharsis")) for c in cls_], np.int32)
    A["cl_abil"] = np.array([eff.add(c.ability, cw(c, "ability")) for c in cls_], np.int32)
    ce = np.zeros((len(cls_), 2, 2), np.int32)
    for i, c in enumerate(cls_):
        if len(c.end) > 2:
            raise ContentError(f"{cw(c, 'end')}: at most 2 end-scoring effects")
        for j, t in enumerate(c.end):
            p = parse_effect(t, END_OPCODES, where=cw(c, "end"))
            ce[i, j] = (END_OP[p[0]], p[1])
    A["cl_end"] = ce
    drs = load_entries(f["dreams.toml"], "dream", DreamM, min_count=2)
    dw = lambda d, fld: f"dreams.toml: [[dream]] entry {d.id!r}: field {fld!r}"  # noqa: E731
    dq, dl = [], []
    for d in drs:
        parts = d.cost.split()
        if len(parts) != 2 or parts[0] not in QUALITIES + ("any",) or parts[1] not in LEVELS:
            raise ContentError(f"{dw(d, 'cost')}: {d.cost!r} must be '<growth|freedom|passion|any> "
                               f"<minor|median|major>'")
        dq.append((QUALITIES + ("any",)).index(parts[0]))
        dl.append(LEVELS.index(parts[1]))
    A["dr_kind"] = np.array([codes.DREAM_LATENT if d.kind == "latent" else codes.DREAM_MANIFEST for d in drs], np.int32)
    A["dr_cq"] = np.array(dq, np.int32)
    A["dr_cl"] = np.array(dl, np.int32)
    A["dr_eff"] = np.array([eff.add(d.effect, dw(d, "effect")) for d in drs], np.int32)
    A["dr_sym"] = np.array([SYMBOLS.index(d.symbol) for d in drs], np.int32)

    # ---- city
    dists = load_entries(f["city.toml"], "district", DistrictM, min_count=3)
    if len(dists) != 3:
        raise ContentError(f"city.toml: [[district]] needs exactly 3 entries, found {len(dists)}")
    dnames = [d.id for d in dists]
    A["dist_rew"] = np.array([[eff.add([r], f"city.toml: [[district]] entry {d.id!r}: field 'slot_rewards'")
                               for r in d.slot_rewards] for d in dists], np.int32)
    locs = load_entries(f["city.toml"], "location", LocationM, min_count=6)
    if [lo.id for lo in locs] != list(LOCATIONS):
        raise ContentError(f"city.toml: [[location]] ids must be, in clockwise order: {', '.join(LOCATIONS)}")
    ld = []
    for lo in locs:
        if lo.district not in dnames:
            raise ContentError(f"city.toml: [[location]] entry {lo.id!r}: field 'district': unknown district "
                               f"{lo.district!r}")
        ld.append(dnames.index(lo.district))
    A["loc_dist"] = np.array(ld, np.int32)
    lw = lambda lo, fld: f"city.toml: [[location]] entry {lo.id!r}: field {fld!r}"  # noqa: E731
    A["loc_eff"] = np.array([[eff.add([e], lw(lo, "effects")) for e in lo.effects] for lo in locs], np.int32)
    A["loc_bon"] = np.array([[eff.add([e], lw(lo, "bonuses")) for e in lo.bonuses] for lo in locs], np.int32)
    goals = load_entries(f["city.toml"], "goal", GoalM, min_count=1)
    gc = np.zeros((len(goals), 3), np.int32)
    for i, gl in enumerate(goals):
        p = parse_effect(gl.condition, GOAL_OPCODES, where=f"city.toml: [[goal]] entry {gl.id!r}: field 'condition'")
        if p[0] == "tags":
            gc[i] = (GOAL_OP["tags"], LOCATIONS.index(p[1]), p[2])
        else:
            gc[i] = (GOAL_OP[p[0]], 0, p[1])
    A["goal_cond"] = gc
    A["goal_rep"] = np.array([gl.reputation for gl in goals], np.int32)
    A["goal_tag"] = np.array([LOCATIONS.index(gl.tag) for gl in goals], np.int32)

    return Content(files=[f[n] for n in FILES], effects=np.stack(eff.rows).astype(np.int32), effect_text=eff.text,
                   arrays=A, tile_ids=[t.id for t in tiles], card_ids=[c.id for c in cards],
                   treatise_ids=[t.id for t in trs], client_ids=[c.id for c in cls_], dream_ids=[d.id for d in drs],
                   space_ids=[s.id for s in spaces], goal_ids=[gl.id for gl in goals], district_ids=dnames)
