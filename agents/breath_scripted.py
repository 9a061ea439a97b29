"""Scripted fighters for the breath duel: aggressive, reserve-first defensive, and a heuristic.

Each is a policy ``(observation, action_mask) -> action`` built for one ruleset, from which it takes
only public knowledge: the action names, the observation schema and the content catalog (technique
costs, damage, bonuses). Everything about the fight itself comes from the observation and the mask, so
the same agent plays in the AEC env, the training wrapper, tournaments and engine playouts.
Costs are read at their base value: a variant's modifiers may make the real cost differ, which at
worst makes an agent pick a maneuver it would not have preferred; the mask keeps it legal.
In a skirmish (the zones module) a fighter with nobody in reach first moves toward its nearest enemy
(:mod:`issoku.agents.breath_approach`), then fights as in a duel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from issoku.agents.breath_approach import Approach
from issoku.rules.breath.content import Technique
from issoku.rules.breath.kinds import (ATTACK, BREATH, COUNTER, DEFEND, END_BREATH, IMPROVISE, KATA, RESERVE, STANCE,
                                        STAND, TAKE_HIT, USE_RESERVED)
from issoku.rules.breath.observe import SCALE
from issoku.rules.breath.ruleset import BreathRuleset


@dataclass(frozen=True, slots=True)
class View:
    """The few numbers a scripted fighter reads, unscaled."""

    kind: str
    energy: float
    limit: float
    spent: float
    wounds: float
    reservations: float
    foe_energy: float
    foe_wounds: float
    incoming_critical: bool


VIEW_FIELDS = (("energy", 0), ("breath_limit", 0), ("spent", 0), ("wounds", 0), ("reservations", 0))
"""The observing fighter's fields a :class:`View` holds, in its order (slot 0 is the observer)."""


class BreathScripted:
    """Shared reading of observations and action names; subclasses choose."""

    def __init__(self, ruleset: BreathRuleset, seed: int | None = None) -> None:
        if not isinstance(ruleset, BreathRuleset):  # it reads the breath catalog, slots and observation
            raise ValueError(f"a breath agent (breath_duel_v0, breath_skirmish_v0), it reads the breath rules' "
                             f"actions and observation, not those of the "
                             f"{getattr(ruleset, 'name', type(ruleset).__name__)!r} rules")
        self.ruleset = ruleset
        self.names = ruleset.action_names
        self.spec = ruleset.observation_spec
        self.catalog = ruleset.catalog
        self.rng = np.random.default_rng(seed)
        self._technique = [ruleset.slots[a].technique for a in range(len(self.names))]
        self._kind_of = [ruleset.slots[a].kind for a in range(len(self.names))]
        self.approach = Approach(ruleset)
        self._fields = [(self.spec.slice(name).start + slot, SCALE.get(name, 1.0)) for name, slot in VIEW_FIELDS]
        self._kinds = self.spec.slice("decision_kind")
        self._present, self._ally = self.spec.slice("present"), self.spec.slice("ally")
        self._foe_fields = [(self.spec.slice(name).start, SCALE.get(name, 1.0)) for name in ("energy", "wounds")]
        self._incoming_critical = self.spec.slice("incoming_attack").start + 1

    def view(self, observation: np.ndarray) -> View:
        """Decode the observing fighter (slot 0) and its first enemy."""
        return self.view_of(observation.tolist())

    def view_of(self, values: list[float]) -> View:
        """:meth:`view` of the observation as a list (one ``tolist()``, read by offsets fixed at set-up)."""
        # Every field read here counts whole things; rounding undoes the float32 scaling (5/12*12 < 5).
        energy, limit, spent, wounds, reservations = (float(round(values[at] * scale)) for at, scale in self._fields)
        kinds = values[self._kinds]
        # The first enemy: the first present slot that is no ally (padded slots are absent); slot 0 without one.
        foe = next((slot for slot, (present, ally) in enumerate(zip(values[self._present], values[self._ally]))
                    if present > ally), 0)
        (energy_at, energy_scale), (wounds_at, wounds_scale) = self._foe_fields
        return View(kind=self.ruleset.decision_kinds[kinds.index(max(kinds))], energy=energy, limit=limit,
                    spent=spent, wounds=wounds, reservations=reservations,
                    foe_energy=float(round(values[energy_at + foe] * energy_scale)),
                    foe_wounds=float(round(values[wounds_at + foe] * wounds_scale)),
                    incoming_critical=bool(values[self._incoming_critical]))

    def legal(self, mask: np.ndarray) -> list[int]:
        """Legal actions, ascending."""
        return np.flatnonzero(mask).tolist()

    def of_kind(self, legal: list[int], kind: str) -> list[int]:
        """Legal actions of one order kind (``attack``, ``reserve``...)."""
        return [a for a in legal if self._kind_of[a] == kind]

    def cost(self, action: int) -> int:
        """Base Energy of a technique action (0 for the rest)."""
        technique = self._technique[action]
        return technique.cost if technique is not None else 0

    def attack_value(self, action: int) -> float:
        """Expected worth of an attack technique per Energy: damage, check bonus and [Direct] per cost."""
        t: Technique = self._technique[action]
        return (t.damage + 0.15 * t.check_bonus + 0.1 * t.direct) / t.cost

    def best_attack(self, attacks: list[int], budget: float) -> int | None:
        """The most valuable attack that fits ``budget`` Energy, or None."""
        fitting = [a for a in attacks if self.cost(a) <= budget]
        return max(fitting, key=lambda a: (self.attack_value(a), -a)) if fitting else None

    def finish(self, legal: list[int]) -> int:
        """End the breath, or stand when nothing was spent."""
        for kind in (END_BREATH, STAND):
            found = self.of_kind(legal, kind)
            if found:
                return found[0]
        return legal[0]

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = self.legal(action_mask)
        if not legal:
            raise ValueError(f"{type(self).__name__} got an all-zero action mask")
        return self.decide(self.view(observation), legal, observation)

    def decide(self, view: View, legal: list[int], observation: np.ndarray) -> int:
        """The choice for an observation already read (``view``) and its legal actions (ascending, not empty):
        a Ma duelist that delegates to its breath fighter reads the observation once, not twice."""
        if view.kind == BREATH and not self.of_kind(legal, ATTACK):  # nobody in reach (a skirmish)
            move = self.approach.move(observation, legal, view.limit - view.spent)
            if move is not None:
                return move
        choose = {BREATH: self.breath, DEFEND: self.defend, COUNTER: self.counter}.get(view.kind)
        return choose(view, legal) if choose is not None else self.other(view, legal)

    # -- the choices (subclasses override) --------------------------------------------------------------
    def breath(self, view: View, legal: list[int]) -> int:
        raise NotImplementedError

    def defend(self, view: View, legal: list[int]) -> int:
        """Use a reservation if one fits; otherwise take it."""
        return (self.of_kind(legal, USE_RESERVED) or self.of_kind(legal, TAKE_HIT) or legal)[0]

    def counter(self, view: View, legal: list[int]) -> int:
        """Always take the free counterattack, with the best technique."""
        counters = self.of_kind(legal, COUNTER)
        return max(counters, key=self.attack_value) if counters else legal[0]

    def other(self, view: View, legal: list[int]) -> int:
        """A decision kind a variant adds: a random legal answer (variants ship their own agents)."""
        return int(self.rng.choice(legal))


class Aggressive(BreathScripted):
    """Cuts with everything the breath allows, overloads once when fresh, never improvises a defense."""

    def breath(self, view: View, legal: list[int]) -> int:
        free = [a for a in self.of_kind(legal, KATA) + self.of_kind(legal, STANCE) if self._zero_cost(a)]
        if free:
            return free[0]
        attacks = self.of_kind(legal, ATTACK)
        budget = view.limit - view.spent
        if view.energy >= 8 and view.spent > 0:
            budget += 1  # one step past the limit while there is Energy to lose
        choice = self.best_attack(attacks, budget)
        return choice if choice is not None else self.finish(legal)

    def _zero_cost(self, action: int) -> bool:
        kind, key = self._kind_of[action], self.ruleset.slots[action].key
        if kind == KATA:
            return self.catalog.katas[key].cost == 0 and self.catalog.katas[key].effect == "check_bonus"
        return self.catalog.stances[key].cost == 0


class Defensive(BreathScripted):
    """Reserve first: two reservations, then one attack if the breath has room; improvises when it can."""

    def breath(self, view: View, legal: list[int]) -> int:
        budget = view.limit - view.spent
        reserves = [a for a in self.of_kind(legal, RESERVE) if self.cost(a) <= budget]
        if reserves and view.reservations < 2:
            return min(reserves, key=self.cost)
        choice = self.best_attack(self.of_kind(legal, ATTACK), budget)
        if choice is not None and view.spent < view.limit - 1:
            return choice
        return self.finish(legal)

    def defend(self, view: View, legal: list[int]) -> int:
        return (self.of_kind(legal, USE_RESERVED) or self.of_kind(legal, IMPROVISE)
                or self.of_kind(legal, TAKE_HIT) or legal)[0]


class Heuristic(Aggressive):
    """The aggressive line, sharpened: free edges first (a 0-Energy stance, a +Defense stance for 1), the
    one step past the limit only while fresh, and an improvised defense against a Critical or when the
    next hits would finish it, since the economy rewards cutting over guarding everywhere else."""

    def breath(self, view: View, legal: list[int]) -> int:
        free = [a for a in self.of_kind(legal, STANCE) + self.of_kind(legal, KATA) if self._free_edge(a)]
        if free:
            return free[0]
        return super().breath(view, legal)

    def _free_edge(self, action: int) -> bool:
        kind, key = self._kind_of[action], self.ruleset.slots[action].key
        if kind == STANCE:
            stance = self.catalog.stances[key]
            return stance.cost == 0
        return self.catalog.katas[key].cost == 0

    def defend(self, view: View, legal: list[int]) -> int:
        reserved = self.of_kind(legal, USE_RESERVED)
        if reserved:
            return reserved[0]
        improvise = self.of_kind(legal, IMPROVISE)
        if improvise and (view.incoming_critical or view.wounds <= 2):
            return min(improvise, key=self.cost)
        return (self.of_kind(legal, TAKE_HIT) or improvise or legal)[0]  # a restricted mask may lack take_hit


SCRIPTED = {"aggressive": Aggressive, "defensive": Defensive, "heuristic": Heuristic}
"""Scripted breath fighters by name."""
