"""The combo table: what each breath composition of each weapon buys per Energy, at each rung of the ma.

A *composition* is a breath's run of attack techniques of one weapon (a multiset, played in catalog
order), whose base Energy fits the attacker's breath limit. Each cell plays
the composition on the real engine, from the attacker's first breath, with the ma set to the rung,
against a **fixed defender** — a kenshi (uchigatana) who takes every hit and declines every counter,
so the numbers compare offence only — and measures the Wounds dealt, the guard shaved and the Energy
paid (range and Ma cost modifiers included). A composition some rung does not allow (out of reach)
has no cell there. Where the duel has hit locations (MA-040), each single attack is also tried
**aimed** at each location (``aim:attack_a:face``: +1 Energy, MA-041, and the location's effect).

**Exact where the dice allow**: the engine is run under every sequence of d10 faces it asks for
(depth-first, each face 1/10), so a cell whose play rolls at most ``exact_dice`` d10s (a single attack:
two) gets its expectation as an exact fraction; otherwise it is the mean of ``samples`` seeded
Monte Carlo playouts, with a standard error. Both run the engine itself, so every rule the engine
applies (fatigue, criticals, hit locations, guard shaving) is in the numbers.

The attacker with a weapon is the first archetype in the content carrying it (its trained wielder,
so skill applies), else a kenshi carrying it. Each weapon is one independent job
(:func:`combo_job`), so an execution backend (:func:`combo_table`: the process pool, or Ray) runs them.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tqdm import tqdm

from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.stats.metrics import composition_spans
from issoku.evaluation.games.records import MatchRecord
from issoku.rules.breath.kinds import BREATH
from issoku.rules.kernel.chance import CountingDice, enumerate_chance
from issoku.rules.kernel.dice import Dice
from issoku.rules.ma.duel import MaModule
from issoku.rules.ma.ladder import RUNG_NAMES, Rung
from issoku.common.outcomes import Proportion, wilson
from issoku.common.backend import ENV_FACTORY, Workers, backend_of

EnvFactory = Callable[..., Any]

DEFENDER = "kenshi"
"""The fixed defender's archetype (with its own uchigatana)."""
COMBO_TABLE = "combo_table"
"""The match store's artifact kind for combo tables."""
MAX_COMPOSITION = 3
"""At most this many attacks per composition (the breath limit usually binds first)."""


@dataclass(frozen=True)
class ComboCell:
    """One composition of one weapon at one rung: expected Wounds, guard shaved and Energy per breath."""

    weapon: str
    rung: str
    composition: tuple[str, ...]
    wounds: float
    guard: float
    energy: float
    exact: bool
    samples: int
    wounds_se: float = 0.0
    aim: str = ""
    """For an aimed single attack: the slot and location (``attack_a:face``); empty for plain attacks."""

    @property
    def wounds_per_energy(self) -> float:
        return self.wounds / self.energy if self.energy else math.nan

    @property
    def guard_per_energy(self) -> float:
        return self.guard / self.energy if self.energy else math.nan

    @property
    def name(self) -> str:
        """``"yari: thrust + sweep"``."""
        aimed = f" @{self.aim.split(':')[1]}" if self.aim else ""
        return f"{self.weapon}: " + " + ".join(key.split(".", 1)[1] for key in self.composition) + aimed

    @property
    def key(self) -> tuple[tuple[str, ...], str]:
        """What identifies the composition across rungs."""
        return self.composition, self.aim


@dataclass(frozen=True)
class ComboJob:
    """One weapon's cells: everything a worker needs, picklable."""

    env_factory: EnvFactory = dataclasses.field(metadata=ENV_FACTORY)
    env_kwargs: Mapping[str, Any]
    weapon: str
    samples: int
    exact_dice: int
    seed: int = 0
    defender: str = DEFENDER


def wielder(catalog: Any, weapon: str) -> dict[str, str]:
    """The fighter spec of a weapon's trained wielder: the first archetype carrying it, else a kenshi with it."""
    for archetype in catalog.archetypes.values():
        if archetype.weapon == weapon:
            return {"archetype": archetype.key}
    return {"archetype": DEFENDER, "weapon": weapon}


def compositions(weapon: Any, breath_limit: int) -> list[tuple[str, ...]]:
    """Every multiset of the weapon's attack techniques (1 to ``MAX_COMPOSITION``) whose base cost fits the limit."""
    found = []
    for size in range(1, MAX_COMPOSITION + 1):
        for combo in itertools.combinations_with_replacement(weapon.attacks, size):
            if sum(t.cost for t in combo) <= breath_limit:
                found.append(tuple(t.key for t in combo))
    return found


def aimed(weapon: Any, breath_limit: int, locations: Sequence[str]) -> list[tuple[tuple[str, ...], str]]:
    """Every single attack of the weapon aimed at each location (+1 Energy) within the limit: (composition, aim)."""
    return [((technique.key,), f"attack_{chr(ord('a') + index)}:{location}")
            for index, technique in enumerate(weapon.attacks) if technique.cost + 1 <= breath_limit
            for location in locations]


class _Bench:
    """The attacker's first breath, ready to play compositions from, at any rung."""

    def __init__(self, job: ComboJob) -> None:
        probe = job.env_factory(**job.env_kwargs)
        catalog = probe.unwrapped.ruleset.catalog
        probe.close()
        kwargs = dict(job.env_kwargs)
        kwargs["fighters"] = [wielder(catalog, job.weapon), {"archetype": job.defender}]
        env = job.env_factory(**kwargs)
        self.ruleset = env.unwrapped.ruleset
        env.close()
        self.catalog = self.ruleset.catalog
        self.ids = {name: i for i, name in enumerate(self.ruleset.action_names)}
        self.ma = next((m for m in self.ruleset.modules if isinstance(m, MaModule)), None)
        self.locations = [name.split(":")[2] for name in self.ruleset.action_names if name.startswith("aim:attack_a:")]

    def start(self, seed: int) -> Any:
        """A fresh fight at the attacker's (seat 0's) first breath decision; the defender passes its breaths."""
        state = self.ruleset.new_initial_state(seed, record_events=False)
        while not (state.current_seat() == 0 and state.decision_kind() == BREATH):
            self._defender_move(state)
        return state

    def rungs(self) -> list[Rung | None]:
        """The rungs to set (``None``: a duel without the ma, one column)."""
        return [None] if self.ma is None else list(Rung)

    def set_rung(self, state: Any, rung: Rung | None) -> bool:
        """Put the ma at ``rung``; False when the stage makes it unusable."""
        if rung is None or self.ma is None:
            return True
        ladder = self.ma.data(state).ladder
        if ladder.set(rung) != rung:
            return False
        state.invalidate_legal()  # the ladder moved outside the engine: its cached legal actions are stale
        return True

    def _defender_move(self, state: Any) -> None:
        names = self.ruleset.action_names
        legal = state.legal_actions()
        for wanted in ("take_hit", "decline_counter", "yield", "end_breath", "stand"):
            if self.ids.get(wanted) in legal:
                state.apply(self.ids[wanted])
                return
        raise RuntimeError(f"fixed defender has no passive answer among {[names[a] for a in legal]}")

    def play(self, state: Any, composition: Sequence[str], aim: str = "") -> tuple[int, int, int] | None:
        """Play the composition and the defender's answers.

        ``aim`` plays the single attack aimed instead. Returns (Wounds dealt, guard shaved, Energy
        paid), or None when the rung forbids a technique.
        """
        attacker, defender = state.fighters
        wounds, energy = defender.wounds, attacker.energy
        guard = self.ma.data(state).guards[1].value if self.ma is not None else 0
        for key in composition:
            if state.is_terminal():  # the defender fell before the composition ended
                break
            action = self.ids[f"aim:{aim}" if aim else f"attack:{key}"]
            if action not in state.legal_actions():
                return None
            state.apply(action)
            while not state.is_terminal() and state.current_seat() == 1 and state.decision_kind() != BREATH:
                self._defender_move(state)
        shaved = guard - self.ma.data(state).guards[1].value if self.ma is not None else 0
        return wounds - defender.wounds, max(0, shaved), energy - attacker.energy


def _exact(bench: _Bench, start: Any, composition: Sequence[str], aim: str,
           max_dice: int) -> tuple[Fraction, ...] | None:
    """Exact expectations (Wounds, guard, Energy) over every face sequence of at most ``max_dice`` dice, else None."""
    probe = start.clone()
    counter = CountingDice(0)
    probe.set_dice(counter)
    if bench.play(probe, composition, aim) is None or counter.drawn > max_dice:
        return None

    def play(dice: Dice) -> tuple[int, int, int] | None:
        state = start.clone()
        state.set_dice(dice)
        return bench.play(state, composition, aim)

    outcomes = enumerate_chance(play, max_dice)
    if outcomes is None or any(outcome is None for _, outcome in outcomes):
        return None
    weights = [probability for probability, _ in outcomes]
    return tuple(sum((weight * value for weight, value in zip(weights, column)), Fraction(0))
                 for column in zip(*(outcome for _, outcome in outcomes)))


def _measure(bench: _Bench, at_rung: Sequence[Any], composition: Sequence[str], aim: str,
             exact_dice: int) -> tuple[float, float, float, bool, int, float] | None:
    """(Wounds, guard, Energy, exact, samples, Wounds' standard error) of one cell; None when the rung forbids it."""
    exact = _exact(bench, at_rung[0], composition, aim, exact_dice) if exact_dice else None
    if exact is not None:
        return float(exact[0]), float(exact[1]), float(exact[2]), True, 0, 0.0
    outcomes = [bench.play(state.clone(), composition, aim) for state in at_rung]
    if any(outcome is None for outcome in outcomes):
        return None
    w, g, e = zip(*outcomes)
    se = statistics.stdev(w) / math.sqrt(len(w)) if len(w) > 1 else 0.0
    return statistics.fmean(w), statistics.fmean(g), statistics.fmean(e), False, len(w), se


def combo_job(job: ComboJob) -> list[ComboCell]:
    """Every cell of one weapon (runs in a worker process)."""
    bench = _Bench(job)
    weapon = bench.catalog.weapons[job.weapon]
    cells = []
    starts = [bench.start(job.seed + i) for i in range(job.samples)]
    limit = starts[0].fighters[0].limit
    for rung in bench.rungs():
        rung_name = "any" if rung is None else RUNG_NAMES[rung]
        at_rung = [state.clone() for state in starts]
        if not all(bench.set_rung(state, rung) for state in at_rung):
            continue
        plays = [(composition, "") for composition in compositions(weapon, limit)]
        for composition, aim in plays + aimed(weapon, limit, bench.locations):
            cell = _measure(bench, at_rung, composition, aim, job.exact_dice)
            if cell is not None:
                cells.append(ComboCell(job.weapon, rung_name, composition, *cell, aim=aim))
    return cells


@dataclass(frozen=True)
class ComboTable:
    """Every cell, and the questions a designer asks of them."""

    cells: tuple[ComboCell, ...]
    defender: str = DEFENDER

    def weapons(self) -> list[str]:
        return sorted({cell.weapon for cell in self.cells})

    def rungs(self) -> list[str]:
        seen: dict[str, None] = {}
        for cell in self.cells:
            seen.setdefault(cell.rung)
        return list(seen)

    def best(self) -> dict[tuple[tuple[str, ...], str], ComboCell]:
        """Per composition (aimed or not), its cell of most Wounds per Energy (over rungs)."""
        best: dict[tuple[tuple[str, ...], str], ComboCell] = {}
        for cell in self.cells:
            if cell.energy and (cell.key not in best or cell.wounds_per_energy > best[cell.key].wounds_per_energy):
                best[cell.key] = cell
        return best

    def suspicious(self, top: int | None = None, per_weapon: int | None = None) -> list[tuple[ComboCell, float]]:
        """Compositions by how far their best Wounds per Energy stands above the median composition's.

        Returns ``(best cell, ratio to the median)``, most suspicious first: a composition buying
        several times the typical damage per Energy is the first thing a designer should look at.
        ``per_weapon`` keeps only each weapon's first few, so one weapon's variations do not fill the list.
        """
        best = sorted(self.best().values(), key=lambda c: (-c.wounds_per_energy, -c.guard_per_energy, c.name))
        if not best:
            return []
        values = sorted(c.wounds_per_energy for c in best)
        median = values[len(values) // 2] or math.nan
        shown: dict[str, int] = {}
        ranked = []
        for cell in best:
            shown[cell.weapon] = shown.get(cell.weapon, 0) + 1
            if per_weapon is None or shown[cell.weapon] <= per_weapon:
                ranked.append((cell, cell.wounds_per_energy / median))
        return ranked[:top] if top else ranked

    def to_json(self) -> str:
        """The table as JSON text (what the match store keeps)."""
        return json.dumps({"defender": self.defender, "cells": [dataclasses.asdict(cell) for cell in self.cells]})

    @classmethod
    def from_json(cls, text: str) -> ComboTable:
        """The table :meth:`to_json` wrote."""
        data = json.loads(text)
        cells = tuple(ComboCell(**{**cell, "composition": tuple(cell["composition"])}) for cell in data["cells"])
        return cls(cells, data["defender"])


def combo_table(env_factory: EnvFactory, env_kwargs: Mapping[str, Any] | None = None,
                weapons: Sequence[str] | None = None, samples: int = 200, exact_dice: int = 3, seed: int = 0,
                workers: Workers = None, progress: bool = True) -> ComboTable:
    """The combo table of every weapon (default: every melee and ranged weapon of the content), one job each.

    ``workers=0`` computes in this process; otherwise a process pool (default: one worker per CPU), or a
    :class:`~issoku.common.backend.Backend` (Ray).
    """
    env_kwargs = dict(env_kwargs or {})
    if weapons is None:
        probe = env_factory(**env_kwargs)
        weapons = list(probe.unwrapped.ruleset.catalog.weapons)
        probe.close()
    jobs = [ComboJob(env_factory, env_kwargs, weapon, samples, exact_dice, seed) for weapon in weapons]
    by_weapon: dict[str, list[ComboCell]] = {}
    with tqdm(total=len(jobs), desc="combo table", unit="weapon", disable=not progress) as bar:
        for job, cells in backend_of(workers).map_unordered(combo_job, jobs):
            by_weapon[job.weapon] = cells
            bar.update()
    return ComboTable(tuple(cell for weapon in weapons for cell in by_weapon[weapon]))


ATTACK_PREFIX = "attack:"


def attacks_of(composition: Sequence[str]) -> tuple[str, ...]:
    """The plain attack techniques of a played composition, as a sorted multiset (aimed attacks left out)."""
    return tuple(sorted(action[len(ATTACK_PREFIX):] for action in composition if action.startswith(ATTACK_PREFIX)))


def played_combos(record: MatchRecord, seat: int, spec: CompositionSpec) -> dict[tuple[str, ...], int]:
    """The combos the seat's breaths included in one game, each a sorted multiset of its plain attacks, with the
    index of the seat's decision that opened the first breath playing it."""
    played: dict[tuple[str, ...], int] = {}
    for start, composition in composition_spans(record.actions[seat], record.kinds[seat], spec):
        played.setdefault(attacks_of(composition), start)
    played.pop((), None)
    return played


def combo_usage(records: Iterable[MatchRecord], spec: CompositionSpec,
                confidence: float = 0.95) -> tuple[dict[tuple[str, ...], Proportion], int]:
    """How often play used each combo: per sorted multiset of attacks, the score of the seats whose breaths
    included it at least once (Wilson interval; its ``n`` is how many seats), and the number of seats seen.

    This ties the combo table to the games: a combo that is both efficient on paper and played
    often by winners is the one to look at first.
    """
    scores: dict[tuple[str, ...], list[float]] = {}
    seats = 0
    for record in records:
        for seat in range(record.num_seats):
            seats += 1
            for key in played_combos(record, seat, spec):
                scores.setdefault(key, []).append(record.score(seat))
    return {key: wilson(sum(values), len(values), confidence) for key, values in scores.items()}, seats
