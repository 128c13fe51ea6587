"""End-game scoring: End-Game Inventions, Copernican Truth, the Stake (A-GT-20, A-GT-21)."""

from __future__ import annotations

from ..cols import BESIDE, COPER, END_LOSS, INV_OWNER, LEVEL, OVER, PHASE, PHIL, SUSP
from ..content import EG_FLAT, EG_PER_INVENTION, EG_PER_SEAL, EG_PER_TILE
from meeplelab.sim.core.jit import rule
from ..state import C_END_LOSS, C_INVENTION, C_SEALS, C_SUSPICION, C_TRUTH, IT_ENDGAME, N_BANDS, PH_STAKE, P_OVER
from ..pcols import (PRM_SEAL_BESIDE_VP, PRM_STAKE_VP, PRM_SUSPICION_BAND_STARTS, PRM_SUSPICION_BAND_VP,
                     PRM_TRUTH_VP_FLAT, PRM_TRUTH_VP_PER_TILE)
from .academy import count_inventions, count_tiles, count_treatise_seals
from .ledger import add_vp


@rule
def final_scoring(S, C, prm, g):
    """End-game VP of every seat: End-Game Inventions, Copernican Truth bonus, Stake or Suspicion band (A-GT-20,
    A-GT-21)."""
    P = S.seat.shape[1]
    for p in range(P):
        for i in range(C.INV_TYPE.shape[0]):
            if S.inv[g, i, INV_OWNER] == p and C.INV_TYPE[i] == IT_ENDGAME:
                k = C.INV_END_KIND[i]
                n = C.INV_END_N[i]
                if k == EG_FLAT:
                    v = n
                elif k == EG_PER_TILE:
                    v = n * count_tiles(S, g, p)
                elif k == EG_PER_SEAL:
                    v = n * count_treatise_seals(S, g, p)
                elif k == EG_PER_INVENTION:
                    v = n * count_inventions(S, g, p)
                else:
                    v = n * S.seat[g, p, LEVEL]
                add_vp(S, g, p, v, C_INVENTION, i)
        if S.seat[g, p, COPER]:
            add_vp(S, g, p, prm[PRM_TRUTH_VP_FLAT] + prm[PRM_TRUTH_VP_PER_TILE] * count_tiles(S, g, p), C_TRUTH, -1)
        if S.seat[g, p, PHIL] == PH_STAKE:
            add_vp(S, g, p, prm[PRM_STAKE_VP], C_SUSPICION, -1)
        else:
            band = 0
            for k in range(N_BANDS):
                if S.seat[g, p, SUSP] >= prm[PRM_SUSPICION_BAND_STARTS + k]:
                    band = k
            add_vp(S, g, p, prm[PRM_SUSPICION_BAND_VP + band], C_SUSPICION, -1)
        add_vp(S, g, p, -S.seat[g, p, END_LOSS], C_END_LOSS, -1)
        add_vp(S, g, p, S.seat[g, p, BESIDE] * prm[PRM_SEAL_BESIDE_VP], C_SEALS, -1)
    S.game[g, OVER] = True
    S.game[g, PHASE] = P_OVER
