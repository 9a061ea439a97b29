"""A scripted duelist for Ma and Blade: it fights for its weapon's distance, then cuts like the breath heuristic.

The breath engine's scripted fighters know nothing of the ladder; in a Ma and Blade duel they answer a
half-step at random and never take one. :class:`MaHeuristic` adds the duel's judgement around the
breath :class:`~issoku.agents.breath_scripted.Heuristic` (composition: the breath choices are its):

* outside its weapon's ideal range it half-steps towards it before cutting (MA-022);
* it resists a half-step that would take it further from its ideal range, and yields to one that
  brings it closer (MA-G01);
* in tsubazeriai a blade that wants distance slips away to issoku itto, a short arm pushes out to close
  fighting, and a tanto or bare hands rattles the guard with a headbutt (MA-026..028); a won slip-away's
  counterattack is always taken (MA-G06);
* now and then it aims its cut at the wrist, hoping to disarm (MA-042).

Like the breath fighters it reads only public knowledge: the action names, the observation schema and
the catalog; everything about the fight comes from the observation and the mask.
"""

from __future__ import annotations

import numpy as np

from issoku.agents.breath_scripted import Heuristic
from issoku.rules.breath.ruleset import BreathRuleset
from issoku.rules.ma.ladder import CLOSER, OPENER, Rung
from issoku.rules.ma.reach import WeaponReach

AIM_CHANCE = 0.3
"""How often a cut that could be aimed is aimed at the wrist."""


class MaHeuristic:
    """Distance first, then the breath heuristic's cuts (see the module docstring)."""

    def __init__(self, ruleset: BreathRuleset, seed: int | None = None) -> None:
        self.breath_fighter = Heuristic(ruleset, seed)
        self.rng = np.random.default_rng(None if seed is None else seed + 7919)
        self.names = ruleset.action_names
        self.spec = ruleset.observation_spec
        self.kinds = ruleset.decision_kinds
        self.weapons = list(ruleset.catalog.weapons.values())
        self.reaches = [WeaponReach.of(weapon) for weapon in self.weapons]
        self.action = {name: a for a, name in enumerate(self.names)}

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = set(int(a) for a in np.flatnonzero(action_mask))
        if not legal:
            raise ValueError("MaHeuristic got an all-zero action mask")
        kind = self.kinds[int(np.argmax(observation[self.spec.slice("decision_kind")]))]
        reach = self.reaches[int(np.argmax(observation[self.spec.slice("weapon")][:len(self.weapons)]))]
        rung = Rung(int(np.argmax(observation[self.spec.slice("ma_rung")])))
        if kind == "resist":
            return self._answer_step(observation, reach, rung, legal)
        if kind == "breath":
            choice = self._duel_move(reach, rung, legal)
            if choice is not None:
                return choice
        choice = self.breath_fighter(observation, action_mask)
        return self._maybe_aim(choice, legal) if kind == "breath" else choice

    def _answer_step(self, observation: np.ndarray, reach: WeaponReach, rung: Rung, legal: set[int]) -> int:
        declared = observation[self.spec.slice("ma_half_step_declared")]
        direction = CLOSER if declared[0] else OPENER
        after = Rung(min(Rung.TSUBAZERIAI, max(Rung.FAR, rung + direction)))
        worse = reach.rungs_off(after) > reach.rungs_off(rung)
        resist = self.action["resist"]
        return resist if worse and resist in legal else self.action["yield"]

    def _duel_move(self, reach: WeaponReach, rung: Rung, legal: set[int]) -> int | None:
        for slot in ("attack_a", "attack_b"):
            counter = self.action.get(f"slip_counter:{slot}")
            if counter in legal:
                return counter
        if rung is Rung.TSUBAZERIAI:
            if reach.ideal_near is Rung.TSUBAZERIAI:
                wanted = "empty_hand:headbutt"
            else:
                wanted = "slip_away" if reach.ideal_far <= Rung.ISSOKU_ITTO else "push_out"
            return self.action[wanted] if self.action[wanted] in legal else None
        if rung < reach.ideal_far:
            step = self.action["half_step:close"]
        elif rung > reach.ideal_near:
            step = self.action["half_step:open"]
        else:
            return None
        return step if step in legal else None

    def _maybe_aim(self, choice: int, legal: set[int]) -> int:
        """Turn a cut into the same cut at the wrist, now and then, when the extra Energy is there."""
        name = self.names[choice]
        if not name.startswith("attack:") or self.rng.random() >= AIM_CHANCE:
            return choice
        for slot in ("attack_a", "attack_b"):
            aimed = self.action.get(f"aim:{slot}:wrist")
            if aimed in legal and self._slot_of(name) == slot:
                return aimed
        return choice

    def _slot_of(self, attack_name: str) -> str:
        key = attack_name.split(":")[1]
        weapon = next(w for w in self.weapons if w.key == key.split(".")[0])
        index = [t.key for t in weapon.attacks].index(key)
        return f"attack_{chr(ord('a') + index)}"
