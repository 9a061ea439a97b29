"""``encounter_duel_v0``: a 1v1 encounter (seed 001: XkY dice, Armor Target Numbers, raises, five stances,
Wounds toward thresholds, grapples, Void Points) as a PettingZoo AEC env.

    from issoku.envs import encounter_duel_v0
    env = encounter_duel_v0.env(fighters=("kenshi", "ono_brute"), start_distance=2)

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over
:class:`~issoku.rules.encounters.EncounterDuel`; the adapter's module docstring holds the conventions every
issoku env shares. Rules and gap decisions: docs/rules/encounters.md.

Agents
    ``player_0``, ``player_1`` (the two characters, in the order given). Turn order comes from initiative
    (EN-002), re-sorted each round (Void stance, Accelerate); within a turn the acting agent decides many
    times in a row, and the other agent is asked when it may spend a Void Point (round start, Endure) or
    agree to end a grapple (Nevermind).

Decisions (``infos[agent]["decision_kind"]`` and the ``decision`` observation field)
    ``stance``: the opening stance (reverse initiative order) and the stance at the start of each turn
    from round 2 (``stance:<air|earth|fire|void|water>``).
    ``round_start``: a Void Point for ``void:accelerate`` or ``void:deflect``, or ``pass``.
    ``act``: an action of the turn (attacks with their declared raises ``attack[:feint][:<maneuver>][:ed<n>]``,
    ``earth_defend``, moves, ``stand``, weapon handling, ``grapple`` and the grapple actions, ``void:boost``)
    or ``pass`` to end the turn.
    ``extra_attack``: the Free attack a successful Extra Attack grants, or ``pass``.
    ``endure``: the target of damage spends a Void Point to take 10 less (``void:endure``) or not (``pass``).
    ``nevermind``: the other side of a grapple agrees to end it (``grapple:nevermind``) or not (``pass``).
    A decision whose only legal action is ``pass`` is taken by the rules and never reaches an agent.

Action space
    ``Discrete(102)``: ``pass``, 5 stances, 72 attacks (Feint or not × none/Disarm/Knockdown/Push 5 ft/Push
    10 ft/Pull/Extra Attack/Focused Attack on the head/Tactical Strike × 0..3 Extra Damage raises; the head
    only with ``focused_attack``), ``earth_defend``, ``guard``, 6 moves, ``stand``, ``let_go``,
    ``recover_weapon``, ``ready_weapon``, ``grapple``, ``weapon_grapple``, 5 grapple actions, 5 Void Point
    uses (``env.action_names``; the mask narrows them to the stance, actions left, distance, weapon and
    statuses). Tactical Strike, ``guard`` and ``void:swap`` need a party and are never legal in a duel.

Observation space
    ``Dict(observation=Box(0, 1, (131,), float32), action_mask=Box(0, 1, (102,), int8))``. Named fields
    (``env.ruleset.observation_spec.unpack(obs)``), ego-centric: decision, turn, round, distance,
    pending_damage, then for self and opponent: wounds, rank, stance, numbers (Void Points, ATN,
    initiative, Simple Actions left, movement used, Earth bonus), flags, profile (traits, rings, weapon,
    armour, skills). Everything in 001 is open at the table, so both sides are fully visible.

Rewards (to both agents when the encounter ends, whoever moved last)
    ==================================  =======  ========
    outcome                             winner   loser
    ==================================  =======  ========
    the other character Out or Dead     +1       −1
    round limit (truncation, EN-G18)    0        0
    illegal action, terminate           0        ``illegal_reward`` (the offender; default −1)
    ==================================  =======  ========

Keyword arguments
    ``fighters``, ``start_distance``, ``round_limit``, ``max_distance`` (in 5-ft squares), ``ten_dice_rule``,
    ``focused_attack``: the fields of :class:`~issoku.rules.encounters.EncounterConfig`, where each one's rule ID
    and default are stated once (kenshi against ono_brute, four squares apart). ``data``: a folder holding
    skills.toml, weapons.toml, armour.toml and archetypes.toml replacing the shipped ones; ``variant``: a rules
    variant folder (:mod:`issoku.rules.variant`) whose ``encounters/data/`` files replace the shipped ones, the
    others kept (one or the other, not both; the content keywords of every env, :mod:`issoku.envs.content`). Plus
    the adapter's ``render_mode`` (None, "ansi", "human"), ``illegal_action`` ("raise", "terminate"),
    ``illegal_reward``, ``record_events``.
    ``round_limit_payoff="health_lead"`` pays a fight stopped by the round limit each side's health lead
    instead of 0 (opt-in; :mod:`issoku.envs.adapter`).

Version history
    v0 — first release: the EN duel of docs/rules/encounters.md (what is in and what is not yet).
    v0, amended: two readings fixed from the seed text, same spaces and actions: Deflect's +10 survives the
    Grappled formula (EN-108), the Readying-Phase Stun test takes no −3k0 (EN-113). The ruleset is version 1, so
    its rules fingerprint moved: stored games of version 0 are played again, not reused, and the shipped
    checkpoint was retrained (a grappled fighter's observed ATN after Deflect changed, and with
    ``focused_attack`` a Stun can now be shaken off).
"""

from __future__ import annotations

from typing import Any, cast

from pettingzoo import ParallelEnv

from issoku.envs.adapter import RulesetAECEnv, as_parallel
from issoku.envs.content import DataPaths, FolderRules, PathLike, choose_content, folder_ruleset
from issoku.rules.encounters import EncounterConfig, EncounterDuel
from issoku.rules.encounters.content import DATA_DIR, load_catalog
from issoku.rules.variant import Variant

ENV_ID = "encounter_duel_v0"


ENCOUNTER_RULES = FolderRules("skills.toml, weapons.toml, armour.toml and archetypes.toml", DATA_DIR, load_catalog,
                              "catalog", Variant.encounter_files)
"""The encounter data as both encounter envs read it."""


def make_ruleset(config: EncounterConfig = EncounterConfig(), *, data: DataPaths | None = None,
                 variant: PathLike | None = None, terrain: PathLike | None = None) -> EncounterDuel:
    """The encounter ruleset ``config`` describes (immutable, so envs built alike share one while the data files'
    bytes stay the same); the content keywords as every env reads them (:mod:`issoku.envs.content`)."""
    return folder_ruleset(EncounterDuel, config, choose_content(ENV_ID, data, variant, terrain), ENCOUNTER_RULES)


def raw_env(fighters: tuple[str, str] | list[str] = EncounterConfig.fighters, *,
            start_distance: int = EncounterConfig.start_distance, round_limit: int = EncounterConfig.round_limit,
            max_distance: int = EncounterConfig.max_distance, ten_dice_rule: bool = EncounterConfig.ten_dice_rule,
            focused_attack: bool = EncounterConfig.focused_attack, data: DataPaths | None = None,
            variant: PathLike | None = None, terrain: PathLike | None = None, **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); the rules options make an :class:`EncounterConfig`, ``env_options`` go
    to :class:`RulesetAECEnv`."""
    if isinstance(fighters, str):
        raise TypeError("fighters must be two archetype names, not one string")
    pair = cast(tuple[str, str], tuple(fighters))  # two by the type; EncounterDuel refuses another count in one line
    config = EncounterConfig(pair, start_distance, round_limit, max_distance, ten_dice_rule, focused_attack)
    ruleset = make_ruleset(config, data=data, variant=variant, terrain=terrain)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(fighters: tuple[str, str] | list[str] = EncounterConfig.fighters, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(fighters, **kwargs)


def parallel_env(fighters: tuple[str, str] | list[str] = EncounterConfig.fighters, *, idle_mask: str = "zeros",
                 **kwargs: Any) -> ParallelEnv:
    """The same env as a PettingZoo ``ParallelEnv`` (:func:`~issoku.envs.adapter.as_parallel`; ``idle_mask``:
    ``"placeholder"`` for a library that samples every agent's action each step, such as TorchRL)."""
    return as_parallel(raw_env(fighters, **kwargs), idle_mask)
