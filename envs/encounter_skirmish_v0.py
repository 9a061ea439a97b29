"""``encounter_skirmish_v0``: an N-v-M encounter (seed 001) on a 5-ft grid as a PettingZoo AEC env — one to
four characters a side (1v1 … 4v4, and uneven sides such as one duelist against three mooks).

    from issoku.envs import encounter_skirmish_v0
    env = encounter_skirmish_v0.env(sides=[["kenshi"], ["bandit", "bandit", "bandit"]])

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over
:class:`~issoku.rules.encounters.EncounterSkirmish`: the encounter duel's engine (everything of
``encounter_duel_v0``) with a square per character, plus Guard (EN-100), Swap (EN-111), Tactical Strike and
the Tactics Pool (EN-082, EN-G09), grapples among many (EN-083..EN-099: joining, the contest among all, Drag),
mooks (EN-040, EN-056, EN-057, EN-058, EN-059, EN-060), who Downed or Killed whom (EN-054/EN-055, ``state.credits``)
and initiative ties among three or more (EN-003, EN-007). Rules and gap decisions: docs/rules/encounters.md.

Agents
    ``side_<s>_fighter_<n>``: every character is an agent (side 0's first). Turn order comes from initiative,
    re-sorted each round; within a turn the acting agent decides many times in a row; other agents are asked
    for their Void Points at the round's start, for Endure when they are hit, and to agree to end a grapple.

Decisions (``infos[agent]["decision_kind"]`` and the ``decision`` observation field)
    ``stance``, ``round_start`` (``void:accelerate``, ``void:deflect``, ``void:swap:ally<k>``), ``act``,
    ``extra_attack``, ``endure``, ``nevermind`` (each other participant of a grapple, in turn, agrees to end it or
    not). A decision whose only legal action is ``pass`` is taken by the rules and never reaches an agent.

Action space
    ``Discrete(453)``, the same for every size up to 4v4: the duel's 102 actions with their numbers (its
    untargeted attacks, moves, ``guard``, ``void:swap``, ``grapple``, ``weapon_grapple``, ``grapple:hit`` and
    ``grapple:throw`` are never legal here; ``grapple:break``, ``grapple:maintain``, ``grapple:nevermind`` are),
    then every attack against ``enemy<k>`` (k = 0..3, Tactical Strike included), ``guard:ally<k>`` and
    ``void:swap:ally<k>`` (k = 1..3), moves ``<free_move|simple_move|crawl>:<toward|away>:enemy<k>`` and
    ``...:toward:ally<k>``, ``grapple:enemy<k>``, ``weapon_grapple:enemy<k>``, ``grapple:hit:enemy<k>``,
    ``grapple:throw:enemy<k>``, ``tactics:free_raise``, and Drag ``grapple:drag:away:enemy<k>`` /
    ``grapple:drag:toward:ally<k>``. The mask allows only enemies within reach and still able to act.

Observation space
    ``Dict(observation=Box(0, 1, (564,), float32), action_mask=Box(0, 1, (453,), int8))``, the same for every
    size up to 4v4: decision, turn, round, pending_damage, tactics_pool (own side, enemy side), then eight
    padded ego-centric slots — slot 0 the observer, slots 1–3 its allies (by seat), slots 4–7 its enemies
    (enemy ``k`` in slot ``4 + k``, the ``enemy<k>`` of its actions) — each with the duel's side fields
    (wounds, rank, stance, numbers, flags, profile) and ``place`` (present, able, dx, dy, distance,
    guarded, guarding, acting, in_my_grapple). An empty slot is all zeros. Everything in 001 is open at the table.

Rewards (team rewards: every member of a side gets its side's outcome)
    ==========================================  =======  ========
    outcome                                     winners  losers
    ==========================================  =======  ========
    a side with nobody able to act (EN-G18)     +1       −1
    round limit (truncation)                    0        0
    illegal action                              0        ``illegal_reward`` (the offender; default −1)
    ==========================================  =======  ========
    A fallen fighter (Out or Dead) stays in the agents, never selected (``infos[agent]["eliminated"] == 1``),
    until the fight ends; then it gets its side's result with everyone else (+1 if its side wins) and leaves
    by PettingZoo's dead step. Falling early is never worth more than fighting on.

Keyword arguments
    ``sides``: two sequences of 1..4 archetype names (default ``[["kenshi", "yari_guard"], ["ono_brute",
    "tonfa_monk"]]``); ``start_distance`` (squares between the sides' columns), ``round_limit``, ``arena``
    (squares a side of the grid), ``ten_dice_rule``, ``focused_attack``: the fields of
    :class:`~issoku.rules.encounters.SkirmishConfig`. ``data``: a folder of encounter data files replacing
    the shipped ones; ``variant``: a rules variant folder whose encounter files replace the shipped ones (one
    or the other, as the duel's). Plus the adapter's ``render_mode``, ``illegal_action``, ``illegal_reward``,
    ``record_events``.
    ``round_limit_payoff="health_lead"`` pays a fight stopped by the round limit each side's health lead
    instead of 0 (opt-in; :mod:`issoku.envs.adapter`).

Training and tournaments
    ``issoku balance-report --env encounter_skirmish_v0`` and ``issoku head-to-head --env encounter_skirmish_v0``
    play side against side (one policy per side; ``issoku.envs.teams``). Scenarios:
    ``scenarios/encounter_skirmish/`` (``issoku replay``).

Version history
    v0 — first release: the EN skirmish of docs/rules/encounters.md, grapples among many included.
    v0, amended: as ``encounter_duel_v0`` (EN-108 Deflect in a grapple, EN-113 the Stun test); same spaces and
    actions, ruleset version 1 (a new fingerprint). Here Deflect does matter: an ally's attack on a grappled fighter who Deflected, and
    joining that grapple, meet ATN 5 + Armor + 10.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo import ParallelEnv

from issoku.envs.adapter import RulesetAECEnv, as_parallel
from issoku.envs.content import DataPaths, PathLike, choose_content, folder_ruleset
from issoku.envs.encounter_duel_v0 import ENCOUNTER_RULES
from issoku.rules.encounters import EncounterSkirmish, SkirmishConfig

ENV_ID = "encounter_skirmish_v0"


def make_ruleset(config: SkirmishConfig = SkirmishConfig(), *, data: DataPaths | None = None,
                 variant: PathLike | None = None, terrain: PathLike | None = None) -> EncounterSkirmish:
    """The skirmish ruleset ``config`` describes (immutable, so envs built alike share one while the data files'
    bytes stay the same); the content keywords as every env reads them (:mod:`issoku.envs.content`)."""
    return folder_ruleset(EncounterSkirmish, config, choose_content(ENV_ID, data, variant, terrain),
                          ENCOUNTER_RULES)


def raw_env(sides: Sequence[Sequence[str]] | None = None, *, start_distance: int = SkirmishConfig.start_distance,
            round_limit: int = SkirmishConfig.round_limit, arena: int = SkirmishConfig.arena,
            ten_dice_rule: bool = SkirmishConfig.ten_dice_rule, focused_attack: bool = SkirmishConfig.focused_attack,
            data: DataPaths | None = None, variant: PathLike | None = None, terrain: PathLike | None = None,
            **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); the rules options make a :class:`SkirmishConfig`, ``env_options`` go
    to :class:`RulesetAECEnv`."""
    if sides is None:
        sides = SkirmishConfig.sides
    if isinstance(sides, str) or any(isinstance(side, str) for side in sides):
        raise TypeError("sides must be two sequences of archetype names, not strings")
    config = SkirmishConfig(tuple(tuple(side) for side in sides), start_distance, round_limit, arena, ten_dice_rule,
                            focused_attack)
    ruleset = make_ruleset(config, data=data, variant=variant, terrain=terrain)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(sides: Sequence[Sequence[str]] | None = None, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(sides, **kwargs)


def parallel_env(sides: Sequence[Sequence[str]] | None = None, *, idle_mask: str = "zeros",
                 **kwargs: Any) -> ParallelEnv:
    """The same env as a PettingZoo ``ParallelEnv`` (:func:`~issoku.envs.adapter.as_parallel`; ``idle_mask``:
    ``"placeholder"`` for a library that samples every agent's action each step, such as TorchRL)."""
    return as_parallel(raw_env(sides, **kwargs), idle_mask)
