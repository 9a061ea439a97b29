"""``tempo_duel_v0``: a tempo duel (seed 003: 12 AP rounds, proactive / reactive / counter-tempo actions,
secret feints) as a PettingZoo AEC env.

    from issoku.envs import tempo_duel_v0
    env = tempo_duel_v0.env(fighters=("fencer", "spearman"), start_distance=2)

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over :class:`~issoku.rules.tempo.TempoDuel`; the
adapter's module docstring holds the conventions every issoku env shares. Rules and gap decisions:
docs/rules/tempo.md.

Agents
    ``player_0``, ``player_1`` (the two fighters, in the order given). Turn order comes from initiative
    (TP-G06), fixed for the duel; within a turn the acting agent decides many times in a row, and the
    other agent is asked whenever it may react.

Decisions (``infos[agent]["decision_kind"]`` and the ``decision`` observation field)
    ``act``: the turn's fighter declares a proactive action (``proactive:<action>``, moves as
    ``proactive:move:close`` / ``:open``) or ends its turn (``pass``; Recover Stamina follows).
    ``react``: the opponent answers the declared action (``react:<reaction>``) or lets it go (``pass``).
    ``counter``: the actor replaces its action with a counter-tempo action (``ct:counter_attack``,
    ``ct:parry``, ``ct:feint_counter_attack``) or keeps it (``pass``). Asked after every Parry or
    Counter-Attack against a declared Melee Attack, so that it reveals no feint.
    A decision whose only legal action is ``pass`` is taken by the rules and never reaches an agent,
    except that counter decision.

Action space
    ``Discrete(31)``: ``pass``, 18 proactive orders, 9 reactions, 3 counter-tempo replacements
    (``env.action_names``; the mask narrows them to the fighter's status, AP, weapon and distance).

Observation space
    ``Dict(observation=Box(0, 1, (82,), float32), action_mask=Box(0, 1, (31,), int8))``. Named fields
    (``env.ruleset.observation_spec.unpack(obs)``), ego-centric: decision, turn, self_health, self_ap,
    self_status, self_flags, opponent_health, opponent_ap, opponent_status, opponent_flags, distance,
    round, declared, reaction, self_profile, opponent_profile. All of it is public except ``declared``
    in the declarer's own view: a feint shows as ``feint`` there and as ``melee_attack`` to the opponent.

Rewards (to both agents when the duel ends, whoever moved last)
    ================================  =======  ========
    outcome                           winner   loser
    ================================  =======  ========
    a fighter at 0 Health (TP-G14)    +1       −1
    both at 0 in one exchange         0        0
    round limit (truncation)          0        0
    illegal action                    0        ``illegal_reward`` (the offender; default −1)
    ================================  =======  ========

Keyword arguments
    ``fighters`` (two fighter names from the data), ``initiator`` (TP-021: the seat that started the
    fight starts On Guard, the other Off Guard; None, a formal duel with both On Guard),
    ``start_distance``, ``round_limit``, ``ap_per_round``, ``base_movement``, ``max_distance``: the fields
    of :class:`~issoku.rules.tempo.TempoConfig`, where each one's rule ID and default are stated once
    (fencer against knight, a formal duel four squares apart). ``data``: a folder holding weapons.toml,
    armour.toml and fighters.toml replacing the shipped ones; ``variant``: a rules variant folder whose tempo files
    replace the shipped ones (one or the other; the content keywords of every env, :mod:`issoku.envs.content`).
    Plus the adapter's ``render_mode`` (None, "ansi", "human"), ``illegal_action`` ("terminate", the default, or
    "raise"), ``illegal_reward``, ``record_events``.
    ``round_limit_payoff="health_lead"`` pays a fight stopped by the round limit each side's health lead
    instead of 0 (opt-in; :mod:`issoku.envs.adapter`).

Version history
    v0 — first release: every TP rule of seed 003 in a 1v1 duel on one distance, with the gap
    defaults of docs/rules/tempo.md.
    v0, amended, same spaces, actions and rules (so no new version: checkpoints and
    stored games stay valid): infos hold integers only (``decision_kind`` an index into
    ``metadata["decision_kinds"]``), one dict per agent, fresh each reset; a fallen fighter stays
    until the end and is paid its side's result; an illegal action ends the fight by default
    (``illegal_action="raise"`` on request); ``parallel_env()``.
"""

from __future__ import annotations

from typing import Any, cast

from pettingzoo import ParallelEnv

from issoku.envs.adapter import RulesetAECEnv, as_parallel
from issoku.envs.content import DataPaths, FolderRules, PathLike, choose_content, folder_ruleset
from issoku.rules.tempo import TempoConfig, TempoDuel
from issoku.rules.tempo.content import DATA_DIR, load_roster
from issoku.rules.variant import Variant

ENV_ID = "tempo_duel_v0"


TEMPO_RULES = FolderRules("weapons.toml, armour.toml and fighters.toml", DATA_DIR, load_roster, "roster",
                          Variant.tempo_files)
"""The tempo data as both tempo envs read it."""


def make_ruleset(config: TempoConfig = TempoConfig(), *, data: DataPaths | None = None,
                 variant: PathLike | None = None, terrain: PathLike | None = None) -> TempoDuel:
    """The tempo ruleset ``config`` describes (immutable, so envs built alike share one while the data
    files' bytes stay the same); the content keywords as every env reads them (:mod:`issoku.envs.content`)."""
    return folder_ruleset(TempoDuel, config, choose_content(ENV_ID, data, variant, terrain), TEMPO_RULES)


def raw_env(fighters: tuple[str, str] | list[str] = TempoConfig.fighters, *,
            initiator: int | None = TempoConfig.initiator, start_distance: int = TempoConfig.start_distance,
            round_limit: int = TempoConfig.round_limit, ap_per_round: int = TempoConfig.ap_per_round,
            base_movement: int = TempoConfig.base_movement, max_distance: int = TempoConfig.max_distance,
            data: DataPaths | None = None, variant: PathLike | None = None, terrain: PathLike | None = None,
            **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); the rules options make a :class:`TempoConfig`, ``env_options`` go
    to :class:`RulesetAECEnv`."""
    if isinstance(fighters, str):
        raise TypeError("fighters must be two fighter names, not one string")
    pair = cast(tuple[str, str], tuple(fighters))  # two by the type; TempoDuel refuses another count in one line
    config = TempoConfig(pair, initiator, start_distance, round_limit, ap_per_round, base_movement,
                         max_distance)
    ruleset = make_ruleset(config, data=data, variant=variant, terrain=terrain)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(fighters: tuple[str, str] | list[str] = TempoConfig.fighters, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(fighters, **kwargs)


def parallel_env(fighters: tuple[str, str] | list[str] = TempoConfig.fighters, *, idle_mask: str = "zeros",
                 **kwargs: Any) -> ParallelEnv:
    """The same env as a PettingZoo ``ParallelEnv`` (:func:`~issoku.envs.adapter.as_parallel`; ``idle_mask``:
    ``"placeholder"`` for a library that samples every agent's action each step, such as TorchRL)."""
    return as_parallel(raw_env(fighters, **kwargs), idle_mask)
