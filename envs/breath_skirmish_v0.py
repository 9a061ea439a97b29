"""``breath_skirmish_v0``: a breath skirmish (seed 002) on the canon zones, 1v1 up to 4v4, as a PettingZoo AEC env.

    from issoku.envs import breath_skirmish_v0
    env = breath_skirmish_v0.env(sides=[["kenshi", "shinobi"], ["ronin", {"archetype": "ashigaru"}]])

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over a
:class:`~issoku.rules.breath.ruleset.BreathRuleset` with the
:class:`~issoku.rules.breath.zones.ZonesModule`; the adapter's module docstring holds the conventions
every issoku env shares. The rules and every decision we made are in ``docs/rules/breath.md``
(§ Skirmish zones).

Agents
    One per fighter: ``side_<s>_fighter_<k>`` (``s`` 0 or 1, ``k`` from 1 in the order given), e.g.
    ``side_0_fighter_1, side_0_fighter_2, side_1_fighter_1`` for a 2v1. Sides may be uneven, 1 to 4
    fighters each. Who decides is the rules' count timeline over all fighters (BR-005, ties BR-007 with
    side ``allies_side`` first, BR-A07): an agent may make many decisions in a row (one per maneuver of
    its breath) and is interrupted by the replies of whoever it attacks.

Decisions (``infos[agent]["decision_kind"]`` and the ``decision_kind`` observation field)
    ``breath``: one maneuver of the fighter whose count it is — ``attack:<weapon>.<technique>:enemy<k>``
    (target slot ``k``: the fighter's ``k``-th enemy by seat, masked by reach: melee within one zone,
    bow and teppo up to 2 zones and never in or into the Core), ``reserve:<weapon>.<defense>``,
    ``stance:<stance>``, ``release_stance``, ``kata:<kata>``, the movement maneuvers ``walk:<zone>``,
    ``sprint:<zone>``, ``breakthrough:<zone>``, ``free_core_entry``, ``force_core_breakthrough``,
    ``forced_core_exit:<front>``, ``enter_outside_zone`` (zones named ego-centrically: ``own_rear``,
    ``own_front``, ``core``, ``enemy_front``, ``enemy_rear``, ``outside``), ``end_breath``, or ``stand``.
    ``defend``: an attacked fighter's reply — ``use_reserved:<defense>``, ``improvise:<defense>`` or
    ``take_hit``. ``counter``: a samurai-guard fighter's free counterattack after a miss —
    ``counter:<attack>`` or ``decline_counter``.

Action space
    ``Discrete(155)`` for the shipped content, the same for every size up to 4v4: the whole catalog,
    attacks times 4 target slots, and the 17 movement orders. The mask narrows it to the fighter's own
    weapon, stances, [Kata], reach and position. Names: ``env.action_names``; ``env.action_id(name)``.

Observation space
    ``Dict(observation=Box(0, 1, (363,), float32), action_mask=Box(0, 1, (155,), int8))``, the same for
    every size up to 4v4: fixed, padded, ego-centric slots — slot 0 the observer, slots 1–3 its allies
    (by seat), slots 4–7 its enemies (enemy ``k`` in slot ``4 + k``, the ``enemy<k>`` of its attacks); an
    empty slot is all zeros. Named fields (``env.ruleset.observation_spec.unpack(obs)``): decision_kind,
    round, pending_check_bonus, incoming_attack; per slot: present, ally, acting, energy, max_energy,
    wounds, max_wounds, breath_limit, spent, standing, defenseless, defeated, attack_checks,
    reservations, defense, finesse, physique, zero_energy_used; one-hot weapon, armor, stance per slot;
    own_reserved, own_kata_used; zone (one-hot ego zone per slot), zone_enemy_controlled (the observer's
    ego zones that enemies hold), sprint_bonus. Everything at a breath table is public; only the dice
    are hidden. So one policy plays any seat of any size.

Rewards (team rewards: every member of a side gets its side's outcome)
    ==========================================  =======  ========
    outcome                                     winners  losers
    ==========================================  =======  ========
    a side defeated (BR-G20)                    +1       −1
    round limit (truncation)                    0        0
    illegal action                              0        ``illegal_reward`` (the offender; default −1)
    ==========================================  =======  ========
    A defeated fighter stays in the agents, never selected (``infos[agent]["eliminated"] == 1``),
    until the fight ends; then it gets its side's result with everyone else (+1 if its side wins)
    and leaves by PettingZoo's dead step. Falling early is never worth more than fighting on.

Keyword arguments
    ``sides``: two sequences of fighters (side 0, side 1), each fighter an archetype name, a mapping of
    :class:`~issoku.rules.breath.ruleset.FighterSpec` fields (``archetype``, ``weapon``, ``armor``,
    ``finesse``, ``physique``, ``wits``, ``courage``; the side is its sequence) or a ``FighterSpec``;
    default ``[["kenshi", "ashigaru"], ["ronin", "shinobi"]]``. ``round_limit`` (BR-G20; default
    ``BreathConfig.round_limit``).
    ``allies_side`` (BR-A07, default 0). ``data``: content TOML files or folders replacing the shipped
    ones; ``variant``: a rules variant folder (:mod:`issoku.rules.variant`) laid over them instead (one or the
    other; :mod:`issoku.envs.content`). Plus the
    adapter's ``render_mode`` (None, "ansi", "human"), ``illegal_action`` ("terminate", the default, or
    "raise"), ``illegal_reward``, ``record_events``.
    ``round_limit_payoff="health_lead"`` pays a fight stopped by the round limit each side's health lead
    instead of 0 (opt-in; :mod:`issoku.envs.adapter`).

Training and tournaments
    ``issoku train --env breath_skirmish_v0`` (``--set env_kwargs='{"sides": ...}'``) trains one fighter's
    seat, drawn each fight, with the opponent policy playing every other fighter. ``issoku balance-report
    --env breath_skirmish_v0`` plays side against side (one policy per side; ``issoku.envs.teams``).
    Scenario: ``scenarios/breath_skirmish/flank_and_core.toml`` (``issoku replay``).

Version history
    v0 — first release: the breath fight with the zone line, Core and Outside Zones, movement
    maneuvers and reach (BR-G15, BR-G16, BR-G17, BR-G21, BR-Z01..BR-Z08). No squads, shikigami, transfer,
    high ground or spells.
    v0, amended: casters (onmyoji, exorcist, barrier_priest, diviner) are archetypes; a
    fight that fields one adds the spells module (seed 004, docs/rules/spells.md): its orders
    ``cast:<spell>:enemyN``, ``channel``, ``activate``, ``abandon``, ``command:enemyN`` and ``sp_*``
    observation fields. Fights without a caster keep their spaces, actions and rules.
    v0, amended, same spaces, actions and rules (so no new version: checkpoints and
    stored games stay valid): infos hold integers only (``decision_kind`` an index into
    ``metadata["decision_kinds"]``), one dict per agent, fresh each reset; a fallen fighter stays
    until the end and is paid its side's result; an illegal action ends the fight by default
    (``illegal_action="raise"`` on request); ``parallel_env()``.
    v0, amended: a preparing caster may cast a one-stage (instant) spell (SP-036); same spaces and actions; the
    spells module's version 1 moves every caster fight's fingerprint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from pettingzoo import ParallelEnv

from issoku.envs.adapter import RulesetAECEnv, as_parallel
from issoku.envs.breath_duel_v0 import FighterLike, breath_sources, fighter_specs
from issoku.envs.content import DataPaths, PathLike, choose_content
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec
from issoku.rules.breath.zones import ZonesModule
from issoku.rules.spells import with_spells
from issoku.rules.spells.content import spell_content_at
from issoku.rules.variant import data_digest

ENV_ID = "breath_skirmish_v0"
CAPACITY = 4
"""The most fighters a side may field; observation and target slots are padded to it."""
DEFAULT_SIDES: tuple[tuple[str, ...], ...] = (("kenshi", "ashigaru"), ("ronin", "shinobi"))


def side_specs(sides: Sequence[Sequence[FighterLike]] | None) -> tuple[FighterSpec, ...]:
    """Normalise ``sides`` (two sequences of fighters) to specs whose ``side`` is their sequence's index."""
    sides = DEFAULT_SIDES if sides is None else sides
    if isinstance(sides, (str, Mapping)) or len(sides) != 2:
        raise ValueError("sides must be two sequences of fighters: side 0's and side 1's")
    specs: list[FighterSpec] = []
    for side, fighters in enumerate(sides):
        if isinstance(fighters, (str, Mapping)) or not 1 <= len(fighters) <= CAPACITY:
            raise ValueError(f"side {side} must be a sequence of 1 to {CAPACITY} fighters, not {fighters!r}")
        specs += [replace(spec, side=side) for spec in fighter_specs(fighters)]
    return tuple(specs)


def make_ruleset(sides: Sequence[Sequence[FighterLike]] | None = None, round_limit: int = BreathConfig.round_limit,
                 allies_side: int = 0, *, data: DataPaths | None = None, variant: PathLike | None = None,
                 terrain: PathLike | None = None) -> BreathRuleset:
    """The skirmish ruleset these arguments configure (shared between envs built with the same ones); the content
    keywords as every env reads them (:mod:`issoku.envs.content`)."""
    sources, _, spell_files = breath_sources(choose_content(ENV_ID, data, variant, terrain))
    digest = data_digest(*(sources or ()), *(spell_files or ()))
    return _cached_ruleset(side_specs(sides), round_limit, allies_side, sources, spell_files, digest)


@lru_cache(maxsize=64)
def _cached_ruleset(fighters: tuple[FighterSpec, ...], round_limit: int, allies_side: int,
                    data: tuple[str, ...] | None, spell_files: tuple[str, str, str, str] | None,
                    digest: str) -> BreathRuleset:
    """Rulesets are immutable, so vectorised envs share one instead of each loading the content;
    ``spell_files``: a variant's spells files (:meth:`Variant.spell_files`); ``digest``: the bytes of the
    data files (:func:`~issoku.rules.variant.data_digest`), so an edited file builds a new ruleset."""
    config = BreathConfig(fighters=fighters, round_limit=round_limit, allies_side=allies_side)
    content = spell_content_at(*spell_files) if spell_files is not None else None
    data, spells = with_spells([f.archetype for f in fighters], data, content)  # casters only: else unchanged
    return BreathRuleset(config, data=data, modules=(ZonesModule(), *spells), name="breath_skirmish",
                         seat_naming="side_fighter", capacity=CAPACITY)


def raw_env(sides: Sequence[Sequence[FighterLike]] | None = None, *, round_limit: int = BreathConfig.round_limit,
            allies_side: int = 0, data: DataPaths | None = None, variant: PathLike | None = None,
            terrain: PathLike | None = None, **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); ``env_options`` go to :class:`RulesetAECEnv`."""
    ruleset = make_ruleset(sides, round_limit, allies_side, data=data, variant=variant, terrain=terrain)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(sides: Sequence[Sequence[FighterLike]] | None = None, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(sides, **kwargs)


def parallel_env(sides: Sequence[Sequence[FighterLike]] | None = None, *, idle_mask: str = "zeros",
                 **kwargs: Any) -> ParallelEnv:
    """The same env as a PettingZoo ``ParallelEnv`` (:func:`~issoku.envs.adapter.as_parallel`; ``idle_mask``:
    ``"placeholder"`` for a library that samples every agent's action each step, such as TorchRL)."""
    return as_parallel(raw_env(sides, **kwargs), idle_mask)
