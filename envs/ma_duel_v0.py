"""``ma_duel_v0``: a Ma and Blade duel (seed 000 on the breath engine, seed 002) as a PettingZoo AEC env.

    from issoku.envs import ma_duel_v0
    env = ma_duel_v0.env(fighters=["kenshi", "ronin"], kind="hatashiai", stage="high_ground", stage_side=1)

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over :func:`issoku.rules.ma.duel.ma_duel`: the
breath fight of ``breath_duel_v0`` plus the distance ladder, the guard track, hit locations and the
stage. Rules decisions: ``docs/rules/ma.md``; the adapter's module docstring holds the conventions
every issoku env shares.

Agents
    ``player_0``, ``player_1``: exactly two fighters (MA-001), side 0 against side 1 by default. Who
    decides is the count timeline: an agent may make several decisions in a row.

Decisions (``infos[agent]["decision_kind"]`` and the ``decision_kind`` observation field)
    ``breath``: the breath fight's maneuvers (``attack:<weapon>.<technique>``, ``reserve:...``,
    ``stance:...``, ``release_stance``, ``kata:...``, ``end_breath``, ``stand``) plus the duel's own:
    ``half_step:close|open`` (MA-011), ``aim:attack_a|attack_b:<wrist|arm|leg|torso|face>`` (the weapon in
    hand's Attack A or B at a hit location, +1 Energy, MA-041), ``push_out``, ``slip_away``,
    ``empty_hand:<draw_dagger|foot_trip|headbutt>`` (tsubazeriai, MA-026..028),
    ``slip_counter:attack_a|attack_b`` (MA-G06) and ``pick_up`` (MA-G15).
    ``defend``: ``use_reserved:<defense>``, ``improvise:<defense>`` or ``take_hit``.
    ``counter``: the samurai guard stance's ``counter:<attack>`` or ``decline_counter``.
    ``resist``: the answer to the other's half-step, ``resist`` (1 Energy, a contest) or ``yield`` (MA-G01).

Action space
    ``Discrete(100)`` for the shipped content in shinken shobu (``Discrete(90)`` in sparring or with
    ``hit_locations=False``, which drop the ``aim`` actions). Names: ``env.action_names``.

Observation space
    ``Dict(observation=Box(0, 1, (129,), float32), action_mask=Box(0, 1, (100,), int8))`` for the shipped
    content. The breath fight's fields (see ``breath_duel_v0``) plus: ma_rung (one-hot, shared by both
    views), and ego first per fighter ma_can_attack, ma_guard, ma_guard_open, ma_window, ma_injuries
    (wrist, arm, leg, face, bleeding, disarmed), ma_points, ma_loss_streak, ma_stage_side; then
    ma_step_in, ma_counter_owed, ma_first_contest, ma_half_step_declared (close, open). Everything is public; only the dice are hidden.

Rewards
    As ``breath_duel_v0``: +1 / −1 when a side is defeated (0 Wounds, or the opponent's third point in
    sparring), 0 at the round limit, ``illegal_reward`` to an illegal mover under ``illegal_action="terminate"``.

Keyword arguments
    ``fighters`` (two; names, mappings of ``FighterSpec`` fields, or specs), ``round_limit``,
    ``allies_side``, ``data`` as in ``breath_duel_v0``; the duel's ``kind`` ("ikkiuchi", "hatashiai"),
    ``mode`` ("shinken_shobu", "sparring"), ``hit_locations``, ``stage`` (None, "sandbar", "narrow_path",
    "high_ground", "backlight"), ``stage_side``, ``step_in_edge``, ``long_weapon_opening`` (see
    :class:`~issoku.rules.ma.config.MaDuelConfig`); plus the adapter's ``render_mode``, ``illegal_action``,
    ``illegal_reward``, ``record_events``.

Version history
    v0 — first release: every MA- rule of seed 000 with the decisions of docs/rules/ma.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.breath_duel_v0 import FighterLike, fighter_specs
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec
from issoku.rules.ma.config import DuelMode, MaDuelConfig
from issoku.rules.ma.duel import ma_duel
from issoku.rules.ma.ladder import DuelKind

ENV_ID = "ma_duel_v0"


def make_ruleset(fighters: Sequence[FighterLike] | None = None, round_limit: int = 20, allies_side: int = 0,
                 data: Sequence[Path | str] | Path | str | None = None, *, kind: str = "ikkiuchi",
                 mode: str = "shinken_shobu", hit_locations: bool = True, stage: str | None = None,
                 stage_side: int | None = None, step_in_edge: bool = False,
                 long_weapon_opening: bool = False) -> BreathRuleset:
    """The duel ruleset these arguments configure (shared between envs built with the same ones)."""
    sources = None if data is None else tuple(str(p) for p in ([data] if isinstance(data, (str, Path)) else data))
    config = MaDuelConfig(kind=DuelKind(kind), mode=DuelMode(mode), hit_locations=hit_locations, stage=stage,
                          stage_side=stage_side, step_in_edge=step_in_edge, long_weapon_opening=long_weapon_opening)
    return _cached_ruleset(fighter_specs(fighters), round_limit, allies_side, sources, config)


@lru_cache(maxsize=64)
def _cached_ruleset(fighters: tuple[FighterSpec, ...], round_limit: int, allies_side: int,
                    data: tuple[str, ...] | None, config: MaDuelConfig) -> BreathRuleset:
    """Rulesets are immutable, so vectorised envs share one instead of each loading the content."""
    breath = BreathConfig(fighters=fighters, round_limit=round_limit, allies_side=allies_side)
    return ma_duel(config, breath, data=data)


def raw_env(fighters: Sequence[FighterLike] | None = None, *, round_limit: int = 20, allies_side: int = 0,
            data: Sequence[Path | str] | Path | str | None = None, kind: str = "ikkiuchi",
            mode: str = "shinken_shobu", hit_locations: bool = True, stage: str | None = None,
            stage_side: int | None = None, step_in_edge: bool = False, long_weapon_opening: bool = False,
            **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); ``env_options`` go to :class:`RulesetAECEnv`."""
    ruleset = make_ruleset(fighters, round_limit, allies_side, data, kind=kind, mode=mode,
                           hit_locations=hit_locations, stage=stage, stage_side=stage_side,
                           step_in_edge=step_in_edge, long_weapon_opening=long_weapon_opening)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(fighters: Sequence[FighterLike] | None = None, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(fighters, **kwargs)
