"""``encounter_duel_v0``: a 1v1 encounter (seed 001: XkY dice, Armor Target Numbers, raises, five stances,
Wounds toward thresholds, grapples, Void Points) as a PettingZoo AEC env.

    from issoku.envs import encounter_duel_v0
    env = encounter_duel_v0.env(fighters=("kenshi", "ono_brute"), start_distance=4, round_limit=30)

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
    ``fighters``: two archetype names from the data (default kenshi against ono_brute).
    ``start_distance`` (4 squares of 5 ft), ``round_limit`` (30), ``max_distance`` (12 squares),
    ``ten_dice_rule`` (True, EN-G01), ``focused_attack`` (False: EN-G08's Focused Attack on the head, which
    Stuns, EN-113). ``data``: a folder holding skills.toml, weapons.toml, armour.toml and
    archetypes.toml replacing the shipped ones. Plus the adapter's ``render_mode`` (None, "ansi", "human"),
    ``illegal_action`` ("raise", "terminate"), ``illegal_reward``, ``record_events``.

Version history
    v0 — first release: the EN duel of docs/rules/encounters.md (what is in and what is not yet).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from issoku.envs.adapter import RulesetAECEnv
from issoku.rules.encounters import EncounterDuel
from issoku.rules.encounters.content import DATA_DIR

ENV_ID = "encounter_duel_v0"


@lru_cache(maxsize=64)
def make_ruleset(fighters: tuple[str, str] = ("kenshi", "ono_brute"), start_distance: int = 4,
                 round_limit: int = 30, max_distance: int = 12, ten_dice_rule: bool = True,
                 focused_attack: bool = False, data: str | None = None) -> EncounterDuel:
    """The encounter ruleset these arguments configure (immutable, so envs built alike share one)."""
    return EncounterDuel(fighters, data_dir=DATA_DIR if data is None else data, start_distance=start_distance,
                         round_limit=round_limit, max_distance=max_distance, ten_dice_rule=ten_dice_rule,
                         focused_attack=focused_attack)


def raw_env(fighters: tuple[str, str] | list[str] = ("kenshi", "ono_brute"), *, start_distance: int = 4,
            round_limit: int = 30, max_distance: int = 12, ten_dice_rule: bool = True,
            focused_attack: bool = False, data: Path | str | None = None, **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); ``env_options`` go to :class:`RulesetAECEnv`."""
    if isinstance(fighters, str):
        raise TypeError("fighters must be two archetype names, not one string")
    ruleset = make_ruleset(tuple(fighters), start_distance, round_limit, max_distance, ten_dice_rule,
                           focused_attack, None if data is None else str(data))
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(fighters: tuple[str, str] | list[str] = ("kenshi", "ono_brute"), **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(fighters, **kwargs)
