"""``tempo_skirmish_v0``: a tempo skirmish (seed 003 with several fighters a side, 1v1 up to 4v4) as a PettingZoo
AEC env.

    from issoku.envs import tempo_skirmish_v0
    env = tempo_skirmish_v0.env(sides=[["fencer", "knight"], ["spearman", "archer"]])

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over :class:`~issoku.rules.tempo.TempoSkirmish`, the
tempo engine of ``tempo_duel_v0`` on a grid; the adapter's module docstring holds the conventions every
issoku env shares. Rules and gap decisions: docs/rules/tempo.md (§ Skirmish: TP-G06, TP-G07, TP-G08, TP-G10, TP-G13).

Agents
    One per fighter: ``side_<s>_fighter_<k>`` (``s`` 0 or 1, ``k`` from 1 in the order given). Sides may be
    uneven, 1 to 4 fighters each. Turn order is initiative among all fighters (TP-G06), fixed for the fight;
    within a turn the acting agent decides many times in a row, and opponents are asked, one at a time in
    turn order, whenever they may react (TP-G08: an attack only by its target; a Move, Combat Move or Aim by
    every opponent whose reach or range it starts or ends in).

Decisions (``infos[agent]["decision_kind"]`` and the ``decision`` observation field)
    ``act``: a proactive order, aimed ones with the target's enemy slot (``proactive:melee_attack:enemy1``,
    ``proactive:move:close:enemy0`` / ``:open:``; bind and grapple actions act on one's partner), or
    ``pass`` (end the turn; Recover Stamina follows). ``react``: ``react:<reaction>`` or ``pass``.
    ``counter``: ``ct:counter_attack``, ``ct:parry``, ``ct:feint_counter_attack`` or ``pass``; asked after
    every Parry or Counter-Attack against a declared Melee Attack, so that it reveals no feint. A decision
    whose only legal action is ``pass`` is taken by the rules, except that counter decision.

Action space
    ``Discrete(58)`` for every size up to 4v4: ``pass``, the 7 aimed proactive orders (moves twice, close
    and open) times 4 enemy slots, the 9 other proactive orders, 9 reactions, 3 counter-tempo replacements
    (``env.action_names``). The mask narrows them to the fighter's status, AP, weapon, the target's
    distance, and standing enemies (an empty or fallen enemy's slot is never legal).

Observation space
    ``Dict(observation=Box(0, 1, (364,), float32), action_mask=Box(0, 1, (58,), int8))`` for every size up to
    4v4: ego-centric padded slots — slot 0 the observer, 1–3 its allies by seat, 4–7 its enemies (enemy
    ``k`` in slot ``4 + k``, the ``enemy<k>`` of its orders); an empty slot is all zeros. Named fields
    (``env.ruleset.observation_spec.unpack(obs)``): decision, round, declared, then per slot ``slot_present``,
    ``slot_standing``, ``slot_health``, ``slot_ap``, ``slot_status``, ``slot_flags``, ``slot_dx``, ``slot_dy``,
    ``slot_distance``, ``slot_partner``, ``slot_acting``, ``slot_targeted``, ``slot_reaction``,
    ``slot_initiative``, ``slot_profile``. Everything is public except a feint: only the declarer sees
    ``feint`` in ``declared``, every other fighter, allies included, sees ``melee_attack``.

Rewards (team rewards: every member of a side gets its side's outcome)
    ==========================================  =======  ========
    outcome                                     winners  losers
    ==========================================  =======  ========
    a side's fighters all at 0 Health (TP-G14)  +1       −1
    both sides at once                          0        0
    round limit (truncation)                    0        0
    illegal action                              0        ``illegal_reward`` (the offender; default −1)
    ==========================================  =======  ========
    A fallen fighter stays in the agents, never selected (``infos[agent]["eliminated"] == 1``), until the
    fight ends; then it gets its side's result with everyone else (+1 if its side wins) and leaves by
    PettingZoo's dead step. Falling early is never worth more than fighting on, and never less than the
    side's result.

Keyword arguments
    ``sides``: two sequences of fighter names from the data (side 0, side 1), 1 to 4 each; default
    ``[["fencer", "knight"], ["spearman", "archer"]]``. ``initiator`` (TP-021: the side that started the
    fight starts On Guard, the other Off Guard; None, everyone On Guard), ``start_distance`` (squares between
    the two lines), ``round_limit``, ``ap_per_round``, ``base_movement``, ``max_distance`` (the grid is
    ``max_distance + 1`` squares a side): the fields of :class:`~issoku.rules.tempo.TempoSkirmishConfig`.
    ``data``: a folder holding weapons.toml, armour.toml and fighters.toml replacing the shipped ones;
    ``variant``: a rules variant folder (one or the other; :mod:`issoku.envs.content`). Plus the adapter's ``render_mode`` (None, "ansi", "human"),
    ``illegal_action`` ("terminate", the default, or "raise"), ``illegal_reward``, ``record_events``.
    ``round_limit_payoff="health_lead"`` pays a fight stopped by the round limit each side's health lead
    instead of 0 (opt-in; :mod:`issoku.envs.adapter`).

Training and tournaments
    ``issoku train --env tempo_skirmish_v0`` trains one fighter's seat, drawn each fight, with the opponent
    policy playing every other fighter, the learner's allies included (``SingleAgentEnv``). A learner whose
    fighter falls stays in its episode: the others play the rest of the fight inside the step that saw it
    fall, and it is paid its side's result, +1 if its allies go on to win, −1 if they lose, 0 for a draw or
    the round limit; there is no penalty for falling beyond that. ``issoku balance-report --env tempo_skirmish_v0`` plays side against
    side (one policy per side; ``issoku.envs.teams``). Scripted team agent: ``tempo_focus_fire``.
    Scenario: ``scenarios/tempo_skirmish/crossfire.toml`` (``issoku replay``).

Version history
    v0 — first release: every TP rule of seed 003 with 1 to 4 fighters a side on a grid, with the
    many-combatant defaults TP-G06, TP-G07, TP-G08 of docs/rules/tempo.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo import ParallelEnv

from issoku.envs.adapter import RulesetAECEnv, as_parallel
from issoku.envs.content import DataPaths, PathLike, choose_content, folder_ruleset
from issoku.rules.tempo import TempoSkirmish, TempoSkirmishConfig
from issoku.envs.tempo_duel_v0 import TEMPO_RULES

ENV_ID = "tempo_skirmish_v0"


def side_names(sides: Sequence[Sequence[str]] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``sides`` as two tuples of fighter names (the default when None); ValueError when it is not two sequences."""
    if sides is None:
        return TempoSkirmishConfig.sides
    if isinstance(sides, str) or len(sides) != 2 or any(isinstance(side, str) for side in sides):
        raise ValueError("sides must be two sequences of fighter names: side 0's and side 1's")
    return tuple(sides[0]), tuple(sides[1])


def make_ruleset(config: TempoSkirmishConfig = TempoSkirmishConfig(), *, data: DataPaths | None = None,
                 variant: PathLike | None = None, terrain: PathLike | None = None) -> TempoSkirmish:
    """The skirmish ruleset ``config`` describes (immutable, so envs built alike share one while the data
    files' bytes stay the same); the content keywords as every env reads them (:mod:`issoku.envs.content`)."""
    return folder_ruleset(TempoSkirmish, config, choose_content(ENV_ID, data, variant, terrain), TEMPO_RULES)


def raw_env(sides: Sequence[Sequence[str]] | None = None, *, initiator: int | None = TempoSkirmishConfig.initiator,
            start_distance: int = TempoSkirmishConfig.start_distance,
            round_limit: int = TempoSkirmishConfig.round_limit, ap_per_round: int = TempoSkirmishConfig.ap_per_round,
            base_movement: int = TempoSkirmishConfig.base_movement,
            max_distance: int = TempoSkirmishConfig.max_distance, data: DataPaths | None = None,
            variant: PathLike | None = None, terrain: PathLike | None = None, **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); the rules options make a :class:`TempoSkirmishConfig`,
    ``env_options`` go to :class:`RulesetAECEnv`."""
    config = TempoSkirmishConfig(side_names(sides), initiator, start_distance, round_limit, ap_per_round,
                                 base_movement, max_distance)
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
