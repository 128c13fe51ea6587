"""Load, validate and compile the Galileo's Truth content files into the arrays the kernels read.

Icons are one opcode vocabulary (:data:`OPCODES`). Every list of icons (a card page, an action
space, an Invention, an Observation tile or Window space) becomes an *icon set*: two groups of up
to :data:`K_ICONS` icons and a separator (none, plain line, Suspicion line, Principle split),
stored as rows of ``ISET_*`` arrays. Round-framed (Secondary Action) opcodes are the ones in
:data:`SECONDARY`; every other opcode is an unframed, mandatory Effect.
"""

from __future__ import annotations

from collections import namedtuple
from pathlib import Path
from typing import Literal

import numpy as np

from meeplelab.sim.core import ContentError
from meeplelab.sim.core.content import Entry, load_entries, parse_effect

SUBJECTS = ("astronomy", "physics", "mathematics", "philosophy")
N_SUBJECTS = len(SUBJECTS)   # Subjects (Book tracks), purple excluded (A-GT-07)
PURPLE = 4
ASTRONOMY, PHYSICS, MATHEMATICS, PHILOSOPHY = 0, 1, 2, 3
K_ICONS = 4           # icons per group
N_GROUPS = 2          # icon groups per icon set (A, B; seed 001 §Resolving icons)
T_MAX = 32            # card types (treatise + penance)
NB = 10               # treatise boards in the pyramid
NI_MAX = 24           # inventions
NS_MAX = 16           # philosopher spaces
WROWS, WCOLS = 3, 4   # Window grid
SEAL_SPACES = 4       # seal spaces over each treatise board
NT_MAX = 16           # observation tiles per level

# opcode -> argument specs (parse_effect). Order defines the integer code (1-based; 0 = empty).
_S = SUBJECTS
OPCODES: dict[str, tuple] = {
    "coins": (int,), "research": (int,), "vp": (int,), "vp_plus": (int,), "vp_x2": (), "vp_end": (int,),
    "vp_xlevel": (), "vp_lvl": (int, int, int, int), "susp_down": (int,), "susp_down_diff": (),
    "susp_up": (int,), "susp_up_others": (int,), "susp_up_copernicans": (int,), "books": (_S, int),
    "books_pay": (_S, int, int), "book_any": (int,), "book_diff": (), "book_up": (), "mastery": (int,),
    "mentor_seal": (), "phil_back": (), "income_physics": (), "income_mathematics": (),
    # round-framed Secondary Actions
    "write": (), "copy": (int, int, int), "read": (int, int, int), "invent": (), "observe": (), "draw": (),
    "remove": (),
}
OP = {name: i + 1 for i, name in enumerate(OPCODES)}
SECONDARY = ("write", "copy", "read", "invent", "observe", "draw", "remove")
N_SECONDARY = len(SECONDARY)   # Secondary Action kinds (seed 001 §Secondary Actions)
SEC_KIND = {name: i for i, name in enumerate(SECONDARY)}
CHOICE_OPS = ("book_any", "book_diff", "book_up")
# ops allowed where nothing can be chosen (income / ongoing inventions)
SIMPLE_ONLY = tuple(o for o in OPCODES if o not in SECONDARY and o not in CHOICE_OPS)
# an Observation's own icons cannot Observe again: the seed lays the tile (step 5) after its icons (step 4), so a
# nested Observation could see the space still empty (A-GT-33)
NO_OBSERVE = tuple(o for o in OPCODES if o != "observe")
SEP = {"none": 0, "line": 1, "suspicion": 2, "principle": 3}
INV_TYPES = ("income", "ongoing", "once", "endgame")
TRIGGERS = ("write", "observe", "invent", "upgrade", "play", "read", "copy")
ENDGAME = {"flat": 0, "per_tile": 1, "per_seal": 2, "per_invention": 3, "per_level": 4}
#: End-Game Invention kinds (INV_END_KIND), the codes of ENDGAME
EG_FLAT, EG_PER_TILE, EG_PER_SEAL, EG_PER_INVENTION, EG_PER_LEVEL = (ENDGAME[k] for k in ENDGAME)
#: card kinds (CARD_KIND): no card, basic Treatise (starting deck), pyramid Treatise (Write/Copy), Penance
CK_NONE, CK_BASIC, CK_PYRAMID, CK_PENANCE = -1, 0, 1, 2
REQS = ("treatises", "tiles", "inventions", "books", "research", "coins")
#: columns of GRAD_REQ (a Graduation tile's requirements), in REQS order
REQ_TREATISES, REQ_TILES, REQ_INVENTIONS, REQ_BOOKS, REQ_RESEARCH, REQ_COINS = range(len(REQS))

Sep = Literal["none", "line", "suspicion", "principle"]


class IconsEntry(Entry):
    icons: list[str] = []
    icons_b: list[str] = []
    sep: Sep = "none"


class CardModel(IconsEntry):
    subject: Literal["astronomy", "physics", "mathematics", "philosophy", "purple"]
    books: int
    kind: Literal["basic", "pyramid"]


class BoardModel(Entry):
    row: int
    pos: int
    card: str
    book_costs: list[str]
    research: list[int]
    seal_vp: list[int]


class PenanceModel(Entry):
    coins: int
    count: int


class InventionModel(IconsEntry):
    period: Literal[1, 2, 3]
    type: Literal["income", "ongoing", "once", "endgame"]
    coins: int = 0
    research: int = 0
    book_costs: list[str] = []
    bottom: list[str] = []
    trigger: Literal["write", "observe", "invent", "upgrade", "play", "read", "copy", "none"] = "none"
    endgame: str = ""


class TileModel(IconsEntry):
    level: Literal[1, 2, 3]


class WindowSpaceModel(IconsEntry):
    row: int
    col: int
    research: int
    astronomy: int


class SpaceModel(IconsEntry):
    level: Literal[1, 2, 3, 4]
    exclusive: bool


class GradModel(Entry):
    level: Literal[2, 3, 4]
    requires: list[str]


class TrackModel(Entry):
    vp: list[int]


FILES = ("treatises.toml", "pyramid.toml", "penance.toml", "inventions.toml", "observation.toml", "board.toml",
         "graduation.toml", "mastery.toml")

Content = namedtuple("Content", [
    "ISET_SEP", "ISET_OP", "ISET_ARG", "ISET_PAY",
    "CARD_SUBJ", "CARD_BOOKS", "CARD_ISET", "CARD_PEN_COINS", "CARD_KIND",
    "BOARD_ROW", "BOARD_POS", "BOARD_CARD", "BOARD_BOOKS", "BOARD_RES", "BOARD_SEALVP", "BOARD_BELOW",
    "PEN_TYPES",
    "INV_PERIOD", "INV_TYPE", "INV_COINS", "INV_RES", "INV_BOOKS", "INV_ISET", "INV_BOTTOM", "INV_TRIG",
    "INV_END_KIND", "INV_END_N",
    "TILE_LEVEL", "TILE_ISET", "WIN_RES", "WIN_ASTRO", "WIN_ISET",
    "SPACE_LEVEL", "SPACE_EXCL", "SPACE_ISET",
    "GRAD_LEVEL", "GRAD_REQ",
    "MASTERY_VP",
    "BASIC_CARDS",
])


class Compiled:
    """Compiled content: the kernels' arrays (``arrays``, a :class:`Content`) and the names."""

    def __init__(self):
        self.card_ids: list[str] = []
        self.board_ids: list[str] = []
        self.inv_ids: list[str] = []
        self.tile_ids: list[str] = []
        self.space_ids: list[str] = []
        self.window_ids: list[str] = []   # Window spaces in cell order (row * WCOLS + col)
        self.grad_ids: list[str] = []
        self.track_ids: list[str] = []
        self.isets: list[tuple] = []
        self.arrays: Content | None = None
        self.files: list[Path] = []


def _where(fname: str, table: str, eid: str, field: str) -> str:
    return f"{fname}: [[{table}]] entry {eid!r}: field {field!r}"


def _iconset(comp: Compiled, fname: str, table: str, e, a: list[str], b: list[str], sep: str,
             allowed: tuple | None = None, field_a: str = "icons", no_pay: bool = False) -> int:
    if sep != "none" and not b:
        raise ContentError(f"{_where(fname, table, e.id, 'icons_b')}: separator {sep!r} needs a second icon group")
    if sep == "none" and b:
        raise ContentError(f"{_where(fname, table, e.id, 'sep')}: two icon groups need a separator")
    groups = []
    for field, lst in ((field_a, a), ("icons_b", b)):
        if len(lst) > K_ICONS:
            raise ContentError(f"{_where(fname, table, e.id, field)}: at most {K_ICONS} icons per group")
        g = []
        for txt in lst:
            parsed = parse_effect(txt, OPCODES, where=_where(fname, table, e.id, field))
            if allowed is not None and parsed[0] not in allowed:
                raise ContentError(f"{_where(fname, table, e.id, field)}: icon {txt!r} is not allowed here")
            if no_pay and (parsed[0] == "books_pay" or (parsed[0] in ("coins", "research") and parsed[1] < 0)):
                raise ContentError(f"{_where(fname, table, e.id, field)}: icon {txt!r} is a payment; payments are "
                                   f"not allowed here (nobody can decline these icons, A-GT-32)")
            g.append(parsed)
        groups.append(g)
    comp.isets.append((SEP[sep], groups))
    return len(comp.isets) - 1


def _book_cost(txt: str, where: str) -> tuple[int, int]:
    parts = txt.split()
    if len(parts) != 2 or parts[0] not in SUBJECTS:
        raise ContentError(f"{where}: book cost {txt!r} must be '<subject> <n>' with subject one of {', '.join(SUBJECTS)}")
    try:
        n = int(parts[1])
    except ValueError:
        raise ContentError(f"{where}: book cost {txt!r}: {parts[1]!r} is not an integer") from None
    return SUBJECTS.index(parts[0]), n


def load(content_dir: Path) -> Compiled:
    """Validate every content file in ``content_dir`` and compile the arrays.

    Raises:
        ContentError: naming file, entry and field.
    """
    d = Path(content_dir)
    comp = Compiled()
    comp.files = [d / f for f in FILES]
    cards = load_entries(d / "treatises.toml", "card", CardModel)
    boards = load_entries(d / "pyramid.toml", "board", BoardModel, min_count=NB)
    pens = load_entries(d / "penance.toml", "penance", PenanceModel)
    invs = load_entries(d / "inventions.toml", "invention", InventionModel)
    tiles = load_entries(d / "observation.toml", "tile", TileModel)
    wins = load_entries(d / "observation.toml", "space", WindowSpaceModel, min_count=WROWS * WCOLS)
    spaces = load_entries(d / "board.toml", "space", SpaceModel)
    grads = load_entries(d / "graduation.toml", "tile", GradModel)
    tracks = load_entries(d / "mastery.toml", "track", TrackModel)

    comp.isets.append((0, [[], []]))  # iset 0: no icons
    nt = len(cards) + len(pens)
    if nt > T_MAX:
        raise ContentError(f"treatises.toml: {len(cards)} cards + {len(pens)} penance types exceed {T_MAX}")
    card_subj = np.zeros(T_MAX, np.int64)
    card_books = np.zeros(T_MAX, np.int64)
    card_iset = np.zeros(T_MAX, np.int64)
    card_pen = np.full(T_MAX, -1, np.int64)
    card_kind = np.full(T_MAX, CK_NONE, np.int64)
    cid = {}
    for i, c in enumerate(cards):
        allowed = tuple(o for o in OPCODES if o not in ("read", "copy"))
        card_iset[i] = _iconset(comp, "treatises.toml", "card", c, c.icons, c.icons_b, c.sep, allowed)
        card_subj[i] = PURPLE if c.subject == "purple" else SUBJECTS.index(c.subject)
        if c.books < 0:
            raise ContentError(f"{_where('treatises.toml', 'card', c.id, 'books')} is {c.books}: allowed 0 or more")
        card_books[i] = c.books
        card_kind[i] = CK_BASIC if c.kind == "basic" else CK_PYRAMID
        cid[c.id] = i
        comp.card_ids.append(c.id)
    pen_types = []
    for j, pn in enumerate(pens):
        t = len(cards) + j
        for f in ("coins", "count"):
            if getattr(pn, f) < 0:
                raise ContentError(f"{_where('penance.toml', 'penance', pn.id, f)} is {getattr(pn, f)}: allowed 0 or "
                                   "more")
        card_pen[t] = pn.coins
        card_kind[t] = CK_PENANCE
        card_subj[t] = -1
        pen_types += [t] * pn.count
        comp.card_ids.append(pn.id)
    basic = np.array([i for i, c in enumerate(cards) if c.kind == "basic"], np.int64)

    if len(boards) != NB:
        raise ContentError(f"pyramid.toml: [[board]] needs exactly {NB} entries, found {len(boards)}")
    b_row = np.zeros(NB, np.int64)
    b_pos = np.zeros(NB, np.int64)
    b_card = np.zeros(NB, np.int64)
    b_books = np.zeros((NB, 4), np.int64)
    b_res = np.zeros((NB, 2), np.int64)
    b_vp = np.zeros((NB, SEAL_SPACES), np.int64)
    where_rp = {}
    used_cards = set()
    for i, b in enumerate(boards):
        w = lambda f: _where("pyramid.toml", "board", b.id, f)  # noqa: E731
        if not (0 <= b.row < 4) or not (0 <= b.pos < 4 - b.row):
            raise ContentError(f"{w('pos')}: row {b.row} pos {b.pos} is outside the 4/3/2/1 pyramid")
        if (b.row, b.pos) in where_rp:
            raise ContentError(f"{w('pos')}: row {b.row} pos {b.pos} is used twice")
        where_rp[(b.row, b.pos)] = i
        if b.card not in cid or cards[cid[b.card]].kind != "pyramid":
            raise ContentError(f"{w('card')}: {b.card!r} is not a pyramid card of treatises.toml")
        if b.card in used_cards:
            raise ContentError(f"{w('card')}: card {b.card!r} is on two boards")
        used_cards.add(b.card)
        for txt in b.book_costs:
            s, n = _book_cost(txt, w("book_costs"))
            b_books[i, s] += n
        need = 0 if b.row == 0 else 2
        if len(b.research) != need:
            raise ContentError(f"{w('research')}: row {b.row} needs {need} Research cost(s), got {len(b.research)}")
        b_res[i, :need] = b.research
        if len(b.seal_vp) != SEAL_SPACES:
            raise ContentError(f"{w('seal_vp')}: needs {SEAL_SPACES} values, got {len(b.seal_vp)}")
        b_vp[i] = b.seal_vp
        b_row[i], b_pos[i], b_card[i] = b.row, b.pos, cid[b.card]
        comp.board_ids.append(b.id)
    below = np.full((NB, 2), -1, np.int64)
    for i in range(NB):
        if b_row[i] > 0:
            below[i, 0] = where_rp[(b_row[i] - 1, b_pos[i])]
            below[i, 1] = where_rp[(b_row[i] - 1, b_pos[i] + 1)]

    if len(invs) > NI_MAX:
        raise ContentError(f"inventions.toml: at most {NI_MAX} inventions, found {len(invs)}")
    ni = len(invs)
    i_period = np.zeros(ni, np.int64)
    i_type = np.zeros(ni, np.int64)
    i_coins = np.zeros(ni, np.int64)
    i_res = np.zeros(ni, np.int64)
    i_books = np.zeros((ni, 4), np.int64)
    i_iset = np.zeros(ni, np.int64)
    i_bottom = np.zeros(ni, np.int64)
    i_trig = np.full(ni, -1, np.int64)
    i_endk = np.full(ni, -1, np.int64)
    i_endn = np.zeros(ni, np.int64)
    for i, v in enumerate(invs):
        w = lambda f: _where("inventions.toml", "invention", v.id, f)  # noqa: E731
        simple = v.type in ("income", "ongoing")
        i_iset[i] = _iconset(comp, "inventions.toml", "invention", v, v.icons, v.icons_b, v.sep,
                             SIMPLE_ONLY if simple else None, no_pay=simple)
        if simple and v.sep != "none":
            raise ContentError(f"{w('sep')}: {v.type} inventions take one icon group")
        i_bottom[i] = _iconset(comp, "inventions.toml", "invention", v, v.bottom, [], "none", SIMPLE_ONLY, "bottom")
        i_period[i] = v.period
        i_type[i] = INV_TYPES.index(v.type)
        i_coins[i], i_res[i] = v.coins, v.research
        for txt in v.book_costs:
            s, n = _book_cost(txt, w("book_costs"))
            i_books[i, s] += n
        if v.type == "ongoing":
            if v.trigger == "none":
                raise ContentError(f"{w('trigger')}: an ongoing invention needs a trigger")
            i_trig[i] = TRIGGERS.index(v.trigger)
        if v.type == "endgame":
            parts = v.endgame.split()
            if len(parts) != 2 or parts[0] not in ENDGAME:
                raise ContentError(f"{w('endgame')}: {v.endgame!r} must be '<kind> <n>' with kind one of {', '.join(ENDGAME)}")
            try:
                i_endn[i] = int(parts[1])
            except ValueError:
                raise ContentError(f"{w('endgame')}: {parts[1]!r} is not an integer") from None
            i_endk[i] = ENDGAME[parts[0]]
        comp.inv_ids.append(v.id)

    t_level = np.zeros(len(tiles), np.int64)
    t_iset = np.zeros(len(tiles), np.int64)
    for i, t in enumerate(tiles):
        t_iset[i] = _iconset(comp, "observation.toml", "tile", t, t.icons, t.icons_b, t.sep, NO_OBSERVE, no_pay=True)
        t_level[i] = t.level
        comp.tile_ids.append(t.id)
    for lv in (1, 2, 3):
        n = int((t_level == lv).sum())
        if n == 0 or n > NT_MAX:
            raise ContentError(f"observation.toml: [[tile]] level {lv} needs 1 to {NT_MAX} tiles, found {n}")
    w_res = np.zeros((WROWS, WCOLS), np.int64)
    w_astro = np.zeros((WROWS, WCOLS), np.int64)
    w_iset = np.full((WROWS, WCOLS), -1, np.int64)
    for ws in wins:
        w = lambda f: _where("observation.toml", "space", ws.id, f)  # noqa: E731
        for f, v, n in (("row", ws.row, WROWS), ("col", ws.col, WCOLS)):
            if not 0 <= v < n:
                raise ContentError(f"{w(f)} is {v}: outside the {WROWS}x{WCOLS} Window, allowed 0 to {n - 1}")
        if w_iset[ws.row, ws.col] >= 0:
            raise ContentError(f"{w('col')}: Window space row {ws.row} col {ws.col} given twice")
        w_iset[ws.row, ws.col] = _iconset(comp, "observation.toml", "space", ws, ws.icons, ws.icons_b, ws.sep,
                                               NO_OBSERVE)
        w_res[ws.row, ws.col], w_astro[ws.row, ws.col] = ws.research, ws.astronomy
    if (w_iset < 0).any():
        raise ContentError(f"observation.toml: [[space]] must cover all {WROWS}x{WCOLS} Window spaces")
    cell_id = {ws.row * WCOLS + ws.col: ws.id for ws in wins}
    comp.window_ids = [cell_id[k] for k in range(WROWS * WCOLS)]

    if len(spaces) > NS_MAX:
        raise ContentError(f"board.toml: at most {NS_MAX} action spaces, found {len(spaces)}")
    s_level = np.zeros(len(spaces), np.int64)
    s_excl = np.zeros(len(spaces), np.bool_)
    s_iset = np.zeros(len(spaces), np.int64)
    for i, sp in enumerate(spaces):
        s_iset[i] = _iconset(comp, "board.toml", "space", sp, sp.icons, sp.icons_b, sp.sep)
        s_level[i], s_excl[i] = sp.level, sp.exclusive
        comp.space_ids.append(sp.id)

    g_level = np.zeros(len(grads), np.int64)
    g_req = np.zeros((len(grads), len(REQS)), np.int64)
    for i, gt in enumerate(grads):
        for txt in gt.requires:
            parts = txt.split()
            if len(parts) != 2 or parts[0] not in REQS or not parts[1].lstrip("-").isdigit():
                raise ContentError(f"{_where('graduation.toml', 'tile', gt.id, 'requires')}: {txt!r} must be "
                                   f"'<kind> <n>' with kind one of {', '.join(REQS)}")
            g_req[i, REQS.index(parts[0])] = int(parts[1])
        g_level[i] = gt.level
        comp.grad_ids.append(gt.id)
    for lv in (2, 3, 4):
        if not (g_level == lv).any():
            raise ContentError(f"graduation.toml: [[tile]] needs at least one tile of level {lv}")

    ml = max(len(t.vp) for t in tracks)
    m_vp = np.full((len(tracks), ml), -999, np.int64)   # -999 = no space
    for i, t in enumerate(tracks):
        m_vp[i, :len(t.vp)] = t.vp
        comp.track_ids.append(t.id)
    # mastery icons must name an existing track
    for k, (_, groups) in enumerate(comp.isets):
        for grp in groups:
            for ic in grp:
                if ic[0] == "mastery" and not (0 <= ic[1] < len(tracks)):
                    raise ContentError(f"mastery icon {' '.join(map(str, ic))!r} names no track "
                                       f"(mastery.toml has {len(tracks)})")
                if ic[0] in ("copy", "read") and not (1 <= ic[1] <= 4):
                    raise ContentError(f"{ic[0]} icon level {ic[1]} must be 1..4")

    nis = len(comp.isets)
    sep = np.zeros(nis, np.int64)
    ops = np.zeros((nis, 2, K_ICONS), np.int64)
    args = np.zeros((nis, 2, K_ICONS, 4), np.int64)
    has_pay = np.zeros(nis, np.bool_)   # any mandatory payment (red Coins / Research / Books)
    for k, (sp, groups) in enumerate(comp.isets):
        sep[k] = sp
        for gi, grp in enumerate(groups):
            for j, ic in enumerate(grp):
                if ic[0] == "books_pay" or (ic[0] in ("coins", "research") and ic[1] < 0):
                    has_pay[k] = True
                ops[k, gi, j] = OP[ic[0]]
                vals = [SUBJECTS.index(x) if isinstance(x, str) else x for x in ic[1:]]
                args[k, gi, j, :len(vals)] = vals
    comp.arrays = Content(
        ISET_SEP=sep, ISET_OP=ops, ISET_ARG=args, ISET_PAY=has_pay,
        CARD_SUBJ=card_subj, CARD_BOOKS=card_books, CARD_ISET=card_iset, CARD_PEN_COINS=card_pen, CARD_KIND=card_kind,
        BOARD_ROW=b_row, BOARD_POS=b_pos, BOARD_CARD=b_card, BOARD_BOOKS=b_books, BOARD_RES=b_res, BOARD_SEALVP=b_vp,
        BOARD_BELOW=below, PEN_TYPES=np.array(pen_types, np.int64),
        INV_PERIOD=i_period, INV_TYPE=i_type, INV_COINS=i_coins, INV_RES=i_res, INV_BOOKS=i_books, INV_ISET=i_iset,
        INV_BOTTOM=i_bottom, INV_TRIG=i_trig, INV_END_KIND=i_endk, INV_END_N=i_endn,
        TILE_LEVEL=t_level, TILE_ISET=t_iset, WIN_RES=w_res, WIN_ASTRO=w_astro, WIN_ISET=w_iset,
        SPACE_LEVEL=s_level, SPACE_EXCL=s_excl, SPACE_ISET=s_iset,
        GRAD_LEVEL=g_level, GRAD_REQ=g_req, MASTERY_VP=m_vp, BASIC_CARDS=basic,
    )
    return comp
