"""The combo table over every maneuver: what each breath composition bought in the stored games, and where the
Energy went.

The engine table (:mod:`issoku.evaluation.design.combos`) prices attack compositions against a defender who only takes
hits, so it cannot price a stance, a reserved defence, a half-step or a [Kata]: their worth shows only against an
opponent who fights back. Here the stored games themselves are **replayed** from their seeds (event for event,
:func:`issoku.evaluation.games.viewing.trace_record`), and every breath of every seat (``breath_start`` to ``breath_end``,
BR-005) becomes one observation of its composition — the multiset of every maneuver it played: attacks and aimed
attacks, stances and their release, reserved defences, half-steps, [Kata] — with what it bought:

* the Energy it paid (``energy_spent``, BR-002) and the Wounds its attacks dealt within it (``hit``);
* the blocks its seat made before its next breath (``defense_roll`` blocked: what a reserve or a guard stance buys);
* the Energy left when it ended and why (``breath_end``: ended by choice, or at the limit): the ``end_breath`` timing.

The **Energy economy** adds up every ``energy_spent`` event by what paid it (attack, aim, reserve, improvise,
half_step, stance...), inside breaths or out (a defence improvised on the opponent's breath), and per policy the
Energy spent per Wound dealt. Only envs whose events carry breaths (the breath engine's duels) get these tables;
at most :data:`PLAYED_GAMES` games are replayed per section (the first by key: deterministic).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.games.viewing import replayed

PLAYED_GAMES = 60
"""At most this many stored games are replayed per env section (a fraction of a second each)."""
CLOSING = ("end_breath", "stand")
"""Actions that close a breath: its timing, not part of its composition."""


@dataclass
class Breath:
    """One breath of one seat: its maneuvers and what they bought."""

    policy: str
    actions: list[str] = field(default_factory=list)
    spent: int = 0
    wounds: int = 0
    blocks: int = 0
    left: int = 0
    chosen: bool = False
    """Ended by ``end_breath`` (rather than at the limit, or out of Energy)."""

    @property
    def composition(self) -> tuple[str, ...]:
        """The maneuvers, sorted (a multiset), closing actions left out."""
        return tuple(sorted(action for action in self.actions if action not in CLOSING))


def category(name: str) -> str:
    """What kind of maneuver an action or an ``energy_spent`` payer is: the part before ``:`` or a space; a bare
    technique key (``nodachi.cut``: the engine names an attack's payment so, BR-045) is an ``attack``."""
    head = name.replace(" ", ":").split(":", 1)[0]
    return "attack" if "." in head else head


def replay_breaths(records: Sequence[MatchRecord], games: int = PLAYED_GAMES) -> tuple[list[Breath], Counter[str]]:
    """Every breath of the first ``games`` games (in the order given: the store's canonical order, which no agent's
    code fingerprint moves) that can be replayed here, and the Energy spent by payer category over every decision
    of those games."""
    breaths: list[Breath] = []
    energy: Counter[str] = Counter()
    for record in records[:games]:
        fight = replayed(record)  # None: another machine's rules or env, skipped
        if fight is not None:
            breaths += _breaths(fight.frames, record, energy)
    return breaths, energy


def _breaths(frames: Iterable[Any], record: MatchRecord, energy: Counter[str]) -> list[Breath]:
    seat_of = {agent: seat for seat, agent in enumerate(record.agents)}
    open_: dict[int, Breath] = {}
    standing: dict[int, Breath] = {}  # each seat's last closed breath: its reserves stand until the next one
    done = []
    for frame in frames:
        seat = seat_of.get(frame.agent) if frame.agent is not None else None
        if frame.action and seat in open_:
            open_[seat].actions.append(frame.action)
        for event in frame.events:
            kind, actor = event.get("kind"), event.get("actor")
            if kind == "breath_start" and actor in seat_of.values():
                open_[actor] = Breath(record.policies[actor])
            elif kind == "energy_spent":
                energy[category(str(event.get("what", "")))] += int(event.get("cost", 0))
                if actor in open_:
                    open_[actor].spent += int(event.get("cost", 0))
            elif kind == "hit" and actor in open_:
                open_[actor].wounds += int(event.get("wounds", 0))
            elif kind == "defense_roll" and event.get("blocked") and actor in standing:
                standing[actor].blocks += 1
            elif kind == "breath_end" and actor in open_:
                breath = open_.pop(actor)
                breath.left, breath.chosen = int(event.get("energy", 0)), event.get("why") == "ended"
                done.append(breath)
                standing[actor] = breath
    return done


@dataclass(frozen=True)
class CompositionPlay:
    """One composition over the breaths that played it."""

    composition: tuple[str, ...]
    breaths: int
    energy: float
    wounds: float
    blocks: float
    left: float
    players: tuple[tuple[str, int], ...]

    @property
    def wounds_per_energy(self) -> float:
        return self.wounds / self.energy if self.energy else math.nan


def composition_play(breaths: Sequence[Breath]) -> list[CompositionPlay]:
    """Per composition, the means over its breaths, most played first."""
    groups: dict[tuple[str, ...], list[Breath]] = {}
    for breath in breaths:
        groups.setdefault(breath.composition, []).append(breath)
    out = []
    for composition, group in groups.items():
        n = len(group)
        players = Counter(breath.policy for breath in group)
        out.append(CompositionPlay(composition, n, sum(b.spent for b in group) / n, sum(b.wounds for b in group) / n,
                                   sum(b.blocks for b in group) / n, sum(b.left for b in group) / n,
                                   tuple(sorted(players.items(), key=lambda kv: (-kv[1], kv[0])))))
    return sorted(out, key=lambda play: (-play.breaths, play.composition))


@dataclass(frozen=True)
class CategoryPlay:
    """One kind of maneuver: its Energy, the breaths that included it, and their Wounds per Energy against the
    breaths that did not."""

    category: str
    energy: int
    energy_share: float
    breaths: int
    with_it: float
    without_it: float


def category_play(breaths: Sequence[Breath], energy: Mapping[str, int]) -> list[CategoryPlay]:
    """Every category of maneuver played or paid for, most Energy first."""
    total = sum(energy.values())
    names = set(energy) | {category(action) for b in breaths for action in b.composition}

    def rate(group: Sequence[Breath]) -> float:
        spent = sum(b.spent for b in group)
        return sum(b.wounds for b in group) / spent if spent else math.nan

    out = []
    for name in names:
        spent = energy.get(name, 0)
        including = [b for b in breaths if any(category(action) == name for action in b.composition)]
        excluding = [b for b in breaths if not any(category(action) == name for action in b.composition)]
        out.append(CategoryPlay(name, spent, spent / total if total else 0.0, len(including),
                                rate(including), rate(excluding)))
    return sorted(out, key=lambda play: (-play.energy, -play.breaths, play.category))


@dataclass(frozen=True)
class PolicyEconomy:
    """One policy's Energy economy: per breath, Energy spent and left; its Energy spent per Wound dealt; how often it
    ended a breath by choice."""

    policy: str
    breaths: int
    spent: float
    left_when_chosen: float
    chosen_share: float
    energy_per_wound: float


def policy_economy(breaths: Sequence[Breath]) -> list[PolicyEconomy]:
    """Per policy (sorted), its economy over its breaths."""
    out = []
    for policy in sorted({b.policy for b in breaths}):
        mine = [b for b in breaths if b.policy == policy]
        chosen = [b for b in mine if b.chosen]
        spent, wounds = sum(b.spent for b in mine), sum(b.wounds for b in mine)
        out.append(PolicyEconomy(policy, len(mine), spent / len(mine),
                                 sum(b.left for b in chosen) / len(chosen) if chosen else math.nan,
                                 len(chosen) / len(mine), spent / wounds if wounds else math.inf))
    return out
