"""``breath_duel_v0``: a breath fight (seed 002, Energy & Breath) as a PettingZoo AEC env.

    from issoku.envs import breath_duel_v0
    env = breath_duel_v0.env(fighters=["kenshi", {"archetype": "ronin", "weapon": "yari"}], round_limit=20)

The env is :class:`~issoku.envs.adapter.RulesetAECEnv` over :class:`~issoku.rules.breath.BreathRuleset`;
the adapter's module docstring holds the conventions every issoku env shares.

Agents
    ``player_0``, ``player_1`` (one per fighter, in the order given; more fighters, more agents). Each
    fighter belongs to a side (``side``; by default its position, so a duel is side 0 against side 1).
    Who decides is the rules' count timeline, not a fixed turn order: an agent may make many decisions
    in a row (one per maneuver of its breath) and is interrupted by the other's replies.

Decisions (``infos[agent]["decision_kind"]`` and the ``decision_kind`` observation field)
    ``breath``: one maneuver of the fighter whose count it is — ``attack:<weapon>.<technique>``,
    ``reserve:<weapon>.<defense>``, ``stance:<stance>``, ``release_stance``, ``kata:<kata>``,
    ``end_breath``, or ``stand`` (BR-G09).
    ``defend``: an attacked fighter's reply — ``use_reserved:<defense>`` (0 Energy, BR-019),
    ``improvise:<defense>`` (1.5× cost, BR-020) or ``take_hit`` (BR-G03/G08).
    ``counter``: a samurai-guard fighter's free counterattack after a miss — ``counter:<attack>`` or
    ``decline_counter`` (BR-050, BR-G14).

Action space
    ``Discrete(78)`` for the shipped content: the whole catalog, so one policy can play any loadout;
    the mask narrows it to the fighter's own weapon, stances and [Kata]. Names: ``env.action_names``;
    ``env.action_id(name)`` is the inverse. With more than one enemy, attacks carry a target slot
    (``attack:<technique>:enemy<k>``, ``k`` counted in the fighter's ego-centric enemy order).

Observation space
    ``Dict(observation=Box(0, 1, (92,), float32), action_mask=Box(0, 1, (78,), int8))`` for the shipped
    content and two fighters. Named fields (``env.ruleset.observation_spec.unpack(obs)``): decision_kind,
    round, pending_check_bonus, incoming_attack; per fighter, ego-centric (self, allies, enemies):
    present, ally, acting, energy, max_energy, wounds, max_wounds, breath_limit, spent, standing,
    defenseless, defeated, attack_checks, reservations, defense, finesse, physique, zero_energy_used;
    one-hot weapon, armor, stance per fighter; own_reserved, own_kata_used. Everything at a breath
    table is public; only the dice are hidden.

Rewards (to every agent when the fight ends, whoever moved last)
    ==========================  =======  ========
    outcome                     winner   loser
    ==========================  =======  ========
    a side defeated (BR-G20)    +1       −1
    round limit (truncation)    0        0
    illegal action, terminate   0        ``illegal_reward`` (the offender; default −1)
    ==========================  =======  ========
    In fights of more than two fighters a defeated fighter leaves at once with 0 while its side fights
    on (−1 if that ends the fight).

Keyword arguments
    ``fighters``: a sequence of fighters, each an archetype name, a mapping of
    :class:`~issoku.rules.breath.ruleset.FighterSpec` fields (``archetype``, ``side``, ``weapon``,
    ``armor``, ``finesse``, ``physique``, ``wits``, ``courage``) or a ``FighterSpec``; default kenshi
    (uchigatana) against ronin (nodachi). ``round_limit`` (BR-G20, default 20). ``allies_side``: the
    side that acts first on count ties (BR-A07, default 0). ``data``: content TOML files or folders
    replacing the shipped ones. Plus the adapter's ``render_mode`` (None, "ansi", "human"),
    ``illegal_action`` ("raise", "terminate"), ``illegal_reward``, ``record_events``.

Version history
    v0 — first release: the core breath fight (seed 002) with the engine's gap decisions
    (docs/rules/breath.md); no Ma and Blade module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from issoku.envs.adapter import RulesetAECEnv
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec

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


def make_ruleset(fighters: Sequence[FighterLike] | None = None, round_limit: int = 20, allies_side: int = 0,
                 data: Sequence[Path | str] | Path | str | None = None) -> BreathRuleset:
    """The breath ruleset these arguments configure (shared between envs built with the same ones)."""
    sources = None if data is None else tuple(str(p) for p in ([data] if isinstance(data, (str, Path)) else data))
    return _cached_ruleset(fighter_specs(fighters), round_limit, allies_side, sources)


@lru_cache(maxsize=64)
def _cached_ruleset(fighters: tuple[FighterSpec, ...], round_limit: int, allies_side: int,
                    data: tuple[str, ...] | None) -> BreathRuleset:
    """Rulesets are immutable, so vectorised envs share one instead of each loading the content."""
    config = BreathConfig(fighters=fighters, round_limit=round_limit, allies_side=allies_side)
    return BreathRuleset(config, data=data, name="breath_duel")


def raw_env(fighters: Sequence[FighterLike] | None = None, *, round_limit: int = 20, allies_side: int = 0,
            data: Sequence[Path | str] | Path | str | None = None, **env_options: Any) -> RulesetAECEnv:
    """The env (see the module docstring); ``env_options`` go to :class:`RulesetAECEnv`."""
    ruleset = make_ruleset(fighters, round_limit, allies_side, data)
    return RulesetAECEnv(ruleset, name=ENV_ID, **env_options)


def env(fighters: Sequence[FighterLike] | None = None, **kwargs: Any) -> RulesetAECEnv:
    """Same as :func:`raw_env`: the adapter makes PettingZoo's wrapper checks itself, so nothing wraps it."""
    return raw_env(fighters, **kwargs)
