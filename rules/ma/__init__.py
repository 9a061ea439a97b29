"""Ma and Blade (seed 000): the 1:1 duel variant, composed onto the breath engine.

``ma_duel(MaDuelConfig(...), BreathConfig(...))`` builds the ruleset (``duel.py``). The pure pieces
each do one job: the shared distance ladder (``ladder``), ideal ranges (``reach``), the half-step and
its contest (``halfstep``), tsubazeriai (``tsubazeriai``), the guard track (``guard``), hit locations
(``locations``), sparring points (``sparring``), terrain (``terrain`` over the validated ``content``),
named contest modifiers (``modifiers``), and what a seat sees (``observe``). Gap decisions:
``docs/rules/ma.md``.
"""

from issoku.rules.ma.config import DuelMode, MaDuelConfig
from issoku.rules.ma.duel import MaModule, ma_duel
from issoku.rules.ma.ladder import DuelKind, Rung

__all__ = ["DuelKind", "DuelMode", "MaDuelConfig", "MaModule", "Rung", "ma_duel"]
