"""``breath_duel_v0``: the Ma and Blade duel (seed 000 on the seed 002 breath engine) as a PettingZoo AEC env.

    from issoku.envs import breath_duel_v0
    env = breath_duel_v0.env(fighters=["kenshi", {"archetype": "ronin", "weapon": "yari"}],
                             kind="hatashiai", mode="shinken_shobu", stage="high_ground")

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over the breath engine's ruleset with the Ma
module (``issoku.rules.ma.ma_duel``); the adapter's module docstring holds the conventions every
issoku env shares. ``ma=False`` plays the core breath fight instead (no distance ladder, any number of
fighters on any number of sides).

Agents
    ``player_0``, ``player_1``, one per fighter in the order given. Each fighter belongs to a side
    (``side``; by default its position). Who decides is the rules' count timeline, not a fixed turn
    order: an agent may make many decisions in a row (one per maneuver of its breath) and is
    interrupted by the other's replies.

Decisions (``infos[agent]["decision_kind"]`` and the ``decision_kind`` observation field)
    ``breath``: one maneuver of the fighter whose count it is — ``attack:<weapon>.<technique>``,
    ``aim:attack_a|attack_b:<location>`` (the weapon in hand's Attack A or B at a hit location, +1
    Energy, MA-041; locations wrist, arm, leg, torso, face),
    ``reserve:<weapon>.<defense>``, ``half_step:close`` / ``half_step:open``, ``stance:<stance>``,
    ``release_stance``, ``kata:<kata>``, at tsubazeriai ``push_out``, ``slip_away``,
    ``empty_hand:<move>``, after a won slip-away ``slip_counter:attack_a|attack_b``, when disarmed
    ``pick_up``, and ``end_breath`` or ``stand`` (BR-G09).
    ``defend``: an attacked fighter's reply — ``use_reserved:<defense>`` (0 Energy, BR-019),
    ``improvise:<defense>`` (1.5× cost, BR-020) or ``take_hit`` (BR-G03/BR-G08).
    ``counter``: a samurai-guard fighter's free counterattack after a miss — ``counter:<attack>`` or
    ``decline_counter`` (BR-050, BR-G14).
    ``resist``: the other fighter's answer to a half-step — ``resist`` (1 Energy, a contest) or
    ``yield`` (MA-011, MA-G01).

Action space
    ``Discrete(100)`` for the shipped content in shinken shobu with hit locations (``Discrete(90)``
    in sparring or with ``hit_locations=False``; ``Discrete(78)`` with ``ma=False``): the whole
    catalog, so one policy can play any loadout; the mask narrows it to the fighter's own weapon,
    stances and [Kata] and to what the ma allows. Names: ``env.action_names``; ``env.action_id(name)``.

Observation space
    ``Dict(observation=Box(0, 1, (129,), float32), action_mask=Box(0, 1, (N,), int8))`` for the shipped
    content (``(92,)`` with ``ma=False``). Named fields (``env.ruleset.observation_spec.unpack(obs)``):
    decision_kind, round, pending_check_bonus, incoming_attack; per fighter, ego-centric (self, then
    the opponent): present, ally, acting, energy, max_energy, wounds, max_wounds, breath_limit, spent,
    standing, defenseless, defeated, attack_checks, reservations, defense, finesse, physique,
    zero_energy_used; one-hot weapon, armor, stance per fighter; own_reserved, own_kata_used; and the
    duel's ma_rung, ma_can_attack, ma_guard, ma_guard_open, ma_window, ma_injuries, ma_points,
    ma_loss_streak, ma_stage_side, ma_step_in, ma_counter_owed, ma_first_contest,
    ma_half_step_declared. Everything at the
    table is public; only the dice are hidden.

Rewards (to both agents when the fight ends, whoever moved last)
    ===================================  =======  ========
    outcome                              winner   loser
    ===================================  =======  ========
    a fighter defeated (BR-G20), or the  +1       −1
    sparring match won (MA-048, MA-G14)
    round limit (truncation)             0        0
    illegal action (the default policy)  0        ``illegal_reward`` (the offender; default −1)
    ===================================  =======  ========
    With ``ma=False`` and more than two fighters a defeated fighter stays (never selected,
    ``infos[agent]["eliminated"] == 1``) until the fight ends and gets its side's result then. With
    three or more sides only the last side standing wins; every other side gets −1, whenever it fell
    (docs/rules/breath.md, BR-G20).

Keyword arguments
    ``fighters``: two fighters (any number with ``ma=False``), each an archetype name, a mapping of
    :class:`~issoku.rules.breath.ruleset.FighterSpec` fields (``archetype``, ``side``, ``weapon``,
    ``armor``, ``finesse``, ``physique``, ``wits``, ``courage``) or a ``FighterSpec``; default kenshi
    (uchigatana) against ronin (nodachi).
    ``kind``: ``"ikkiuchi"`` (default, starts at issoku itto) or ``"hatashiai"`` (starts at far range)
    (MA-008, MA-009). ``mode``: ``"shinken_shobu"`` (default, real blades) or ``"sparring"`` (points)
    (MA-047, MA-048). ``hit_locations`` (MA-040, default True). ``stage``: None or a terrain stage of
    ``terrain`` (shipped: sandbar, narrow_path, high_ground, backlight; MA-049). ``stage_side``: the
    seat a sided stage favours, None to draw it from the seed (MA-G21). ``step_in_edge`` (MA-016,
    MA-G05) and ``long_weapon_opening`` (MA-024): optional rules, off by default.
    ``round_limit`` (BR-G20; default ``BreathConfig.round_limit``). ``allies_side``: the side that acts
    first on count ties (BR-A07, default 0). ``data``: breath content TOML files or folders replacing the shipped ones;
    ``terrain``: a terrain TOML file replacing the shipped one. ``variant``: a rules variant folder
    (:mod:`issoku.rules.variant`: edited copies of files under ``rules/``) laid over the shipped data
    (not with ``data`` or ``terrain``; :mod:`issoku.envs.content`). ``ma``: False for the core breath fight
    (then the duel options above must stay at their defaults).
    Plus the adapter's ``render_mode`` (None, "ansi", "human"), ``illegal_action`` ("terminate",
    the default, or "raise"), ``illegal_reward``, ``record_events``.
    ``round_limit_payoff="health_lead"`` pays a fight stopped by the round limit each side's health lead
    instead of 0 (opt-in; :mod:`issoku.envs.adapter`).

Version history
    v0 — first release: the Ma and Blade duel on the breath engine with the gap decisions of
    docs/rules/breath.md and docs/rules/ma.md; ``ma=False`` for the core breath fight.
    v0, amended, same spaces, actions and rules (so no new version: checkpoints and
    stored games stay valid): infos hold integers only (``decision_kind`` an index into
    ``metadata["decision_kinds"]``), one dict per agent, fresh each reset; a fallen fighter stays
    until the end and is paid its side's result; an illegal action ends the fight by default
    (``illegal_action="raise"`` on request); ``parallel_env()``.
    v0, amended: casters are archetypes (``onmyoji``, ``exorcist``, ``barrier_priest``,
    ``diviner``; with and without Ma). A fight that fields one adds the spells module (seed 004,
    docs/rules/spells.md): the breath orders ``cast:<spell>`` (``:enemyN`` with several enemies),
    ``channel``, ``activate``, ``abandon`` and ``command``, the preparation stance, and the ``sp_*``
    observation fields (per fighter: preparing, progress, ward, buff, units, exhausted; the observer's
    own spell in progress and slots left). Its spaces are larger (``Discrete(131)`` and ``(176,)`` with
    Ma and one caster); fights without a caster keep their spaces, actions and rules. Scripted casters:
    ``spells_caster``, ``ma_spells_caster``; scenarios ``broken_focus``, ``forced_omen``,
    ``paper_shikigami``.
    v0, amended: a preparing caster may cast a one-stage (instant) spell (SP-036, docs/rules/spells.md); same
    spaces and actions; the spells module's version 1 moves every caster fight's fingerprint. Fights without a
    caster are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pettingzoo import ParallelEnv

from issoku.envs.adapter import RulesetAECEnv, as_parallel
from issoku.envs.content import ContentChoice, DataPaths, PathLike, choose_content
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec
from issoku.rules.ma.config import DuelMode, MaDuelConfig
from issoku.rules.ma.content import DEFAULT_TERRAIN, load_content
from issoku.rules.ma.duel import ma_duel
from issoku.rules.ma.ladder import DuelKind
from issoku.rules.spells import with_spells
from issoku.rules.spells.content import spell_content_at
from issoku.rules.variant import data_digest

ENV_ID = "breath_duel_v0"

FighterLike = FighterSpec | str | Mapping[str, Any]


def fighter_specs(fighters: Sequence[FighterLike] | None) -> tuple[FighterSpec, ...]:
    """Normalise ``fighters`` (names, mappings, specs); a name or mapping without ``side`` fights for
    the side numbered by its position."""
    if fighters is None:
        return BreathConfig().fighters
    if isinstance(fighters, (str, Mapping)):
        raise TypeError("fighters must be a sequence of fighters, not a single one")
    specs = []
    for position, fighter in enumerate(fighters):
        if isinstance(fighter, FighterSpec):
            specs.append(fighter)
        elif isinstance(fighter, str):
            specs.append(FighterSpec(archetype=fighter, side=position))
        elif isinstance(fighter, Mapping):
            specs.append(FighterSpec(**{"side": position, **fighter}))
        else:
            raise TypeError(f"fighter {position} must be an archetype name, a mapping or a FighterSpec, "
                            f"not {type(fighter).__name__}")
    return tuple(specs)


def duel_config(kind: str = "ikkiuchi", mode: str = "shinken_shobu", hit_locations: bool = True,
                stage: str | None = None, stage_side: int | None = None, step_in_edge: bool = False,
                long_weapon_opening: bool = False) -> MaDuelConfig:
    """The Ma duel options from plain values (what keyword arguments and scenario files hold)."""
    return MaDuelConfig(kind=_choice(DuelKind, kind, "kind"), mode=_choice(DuelMode, mode, "mode"),
                        hit_locations=hit_locations, stage=stage, stage_side=stage_side, step_in_edge=step_in_edge,
                        long_weapon_opening=long_weapon_opening)


def _choice(enum: type[DuelKind] | type[DuelMode], value: Any, what: str) -> Any:
    if isinstance(value, enum):
        return value
    try:
        return enum(value)
    except ValueError:
        raise ValueError(f"{what} must be one of {[member.value for member in enum]}, not {value!r}") from None


def make_ruleset(fighters: Sequence[FighterLike] | None = None, *, ma: bool = True,
                 round_limit: int = BreathConfig.round_limit, allies_side: int = 0, data: DataPaths | None = None,
                 variant: PathLike | None = None, terrain: PathLike | None = None,
                 **duel_options: Any) -> BreathRuleset:
    """The ruleset these arguments configure (shared between envs built with the same ones); the content keywords
    as every env reads them (:mod:`issoku.envs.content`), ``terrain`` with the Ma module only.

    ``duel_options`` are :func:`duel_config`'s; with ``ma=False`` none may be given.
    """
    if not ma and duel_options:
        raise ValueError(f"duel options {sorted(duel_options)} need ma=True")
    content = choose_content(ENV_ID, data, variant, terrain, reads_terrain=ma)
    sources, terrain_file, spell_files = breath_sources(content)
    duel = duel_config(**duel_options) if ma else None
    digest = data_digest(*(sources or ()), terrain_file if ma else None, *(spell_files or ()))
    return _cached_ruleset(fighter_specs(fighters), round_limit, allies_side, sources, duel,
                           terrain_file if ma else None, spell_files, digest)


def breath_sources(content: ContentChoice) -> tuple[tuple[str, ...] | None, str | None,
                                                     tuple[str, str, str, str] | None]:
    """The breath data files, the terrain file and the spells files (None: the shipped ones) ``content`` chooses:
    its own, or a variant's copies laid over the shipped ones (the spells files only where it edits spells)."""
    overlay = content.overlay()
    if overlay is None:
        return content.data, content.terrain, None
    return (tuple(str(path) for path in overlay.breath_data()), str(overlay.terrain()),
            overlay.spell_files() if overlay.touches("spells") else None)


@lru_cache(maxsize=64)
def _cached_ruleset(fighters: tuple[FighterSpec, ...], round_limit: int, allies_side: int,
                    data: tuple[str, ...] | None, duel: MaDuelConfig | None, terrain: str | None,
                    spell_files: tuple[str, str, str, str] | None, digest: str) -> BreathRuleset:
    """Rulesets are immutable, so vectorised envs share one instead of each loading the content;
    ``spell_files``: a variant's spells files (:meth:`Variant.spell_files`); ``digest``: the bytes of the
    data files (:func:`~issoku.rules.variant.data_digest`), so an edited file builds a new ruleset."""
    config = BreathConfig(fighters=fighters, round_limit=round_limit, allies_side=allies_side)
    content = spell_content_at(*spell_files) if spell_files is not None else None
    data, spells = with_spells([f.archetype for f in fighters], data, content)  # casters only: else unchanged
    if duel is None:
        return BreathRuleset(config, data=data, modules=spells, name="breath_fight")
    return ma_duel(duel, config, data=data, content=load_content(terrain or DEFAULT_TERRAIN), more_modules=spells)


def raw_env(fighters: Sequence[FighterLike] | None = None, *, ma: bool = True,
            round_limit: int = BreathConfig.round_limit, allies_side: int = 0, data: DataPaths | None = None,
            variant: PathLike | None = None, terrain: PathLike | None = None, kind: str | None = None,
            mode: str | None = None, hit_locations: bool | None = None,
            stage: str | None = None, stage_side: int | None = None, step_in_edge: bool | None = None,
            long_weapon_opening: bool | None = None, **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); ``env_options`` go to :class:`RulesetAECEnv`."""
    given = {"kind": kind, "mode": mode, "hit_locations": hit_locations, "stage": stage, "stage_side": stage_side,
             "step_in_edge": step_in_edge, "long_weapon_opening": long_weapon_opening}
    duel_options = {name: value for name, value in given.items() if value is not None}
    ruleset = make_ruleset(fighters, ma=ma, round_limit=round_limit, allies_side=allies_side, data=data,
                           terrain=terrain, variant=variant, **duel_options)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(fighters: Sequence[FighterLike] | None = None, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(fighters, **kwargs)


def parallel_env(fighters: Sequence[FighterLike] | None = None, *, idle_mask: str = "zeros",
                 **kwargs: Any) -> ParallelEnv:
    """The same env as a PettingZoo ``ParallelEnv`` (:func:`~issoku.envs.adapter.as_parallel`; ``idle_mask``:
    ``"placeholder"`` for a library that samples every agent's action each step, such as TorchRL)."""
    return as_parallel(raw_env(fighters, **kwargs), idle_mask)
