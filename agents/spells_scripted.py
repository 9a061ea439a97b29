"""A scripted caster for fights with the spells module (seed 004), in the breath fight and under Ma and Blade.

:class:`SpellCaster` is the breath heuristic with a spell book in front: it finishes a spell it prepares
(``activate``/``channel`` when the next stage fits the breath without overloading), commands a summoned
unit, dispels an opponent it sees preparing, and otherwise begins the best spell whose first stage fits
(attack, then summon, ward, buff), never one with dispersed stages (whose one-round completion would
exhaust it, SP-041). With no spell to play it cuts like :class:`~issoku.agents.breath_scripted.Heuristic`.
:class:`MaSpellCaster` is the same caster in the Ma duel, keeping to the far end of its weapon's range.
It reads only the action names, the observation and the spell catalog, like every scripted agent.
"""

from __future__ import annotations

import numpy as np

from issoku.agents.breath_scripted import Heuristic, View
from issoku.agents.ma_scripted import MaScripted, MaView
from issoku.rules.breath.ruleset import BreathRuleset
from issoku.rules.ma.ladder import Rung
from issoku.rules.spells.content import Spell
from issoku.rules.spells.module import ACTIVATE, CAST, CHANNEL, COMMAND, SpellsModule

EFFECT_PREFERENCE = {"attack": 4, "summon": 3, "ward": 2, "buff": 1, "dispel": 0}
"""What the caster begins first when nobody is preparing a spell against it."""


class SpellCaster(Heuristic):
    """The breath heuristic that casts first (see the module docstring)."""

    def __init__(self, ruleset: BreathRuleset, seed: int | None = None) -> None:
        super().__init__(ruleset, seed)
        module = next((m for m in ruleset.modules if isinstance(m, SpellsModule)), None)
        self.spells: list[Spell] = list(module.content.spells.values()) if module is not None else []
        self._spell_of = {a: module.content.spells[str(slot.key)] for a, slot in enumerate(ruleset.slots)
                          if slot.kind == CAST} if module is not None else {}
        self._observation: np.ndarray | None = None

    def decide(self, view: View, legal: list[int], observation: np.ndarray) -> int:
        self._observation = observation
        return super().decide(view, legal, observation)

    def breath(self, view: View, legal: list[int]) -> int:
        choice = self.spell_choice(view, legal) if self.spells else None
        return choice if choice is not None else super().breath(view, legal)

    def spell_choice(self, view: View, legal: list[int]) -> int | None:
        """The spell maneuver to play now, or None to fight with the blade."""
        room = view.limit - view.spent
        going = self.of_kind(legal, ACTIVATE) + self.of_kind(legal, CHANNEL)
        if going:
            return going[0] if self._next_stage_cost() <= room else None
        commands = self.of_kind(legal, COMMAND)
        if commands:
            return commands[0]
        casts = [a for a in self.of_kind(legal, CAST)
                 if not self._spell_of[a].dispersed and self._spell_of[a].stages[0].energy <= room]
        if not casts:
            return None
        preparing = self._enemies_preparing()
        dispels = [a for a in casts if self._spell_of[a].effect == "dispel" and self._enemy_slot(a) in preparing]
        if dispels:
            return dispels[0]
        useful = [a for a in casts if self._spell_of[a].effect != "dispel"]
        if not useful:
            return None
        return max(useful, key=lambda a: (EFFECT_PREFERENCE[self._spell_of[a].effect], self._spell_of[a].amount, -a))

    def _field(self, name: str) -> np.ndarray:
        assert self._observation is not None
        return self._observation[self.spec.slice(name)]

    def _next_stage_cost(self) -> int:
        own = self._field("sp_own_spell")
        if not own.any():
            return 0
        spell = self.spells[int(np.argmax(own))]
        paid = int(round(float(self._field("sp_progress")[0]) * len(spell.stages)))
        return spell.stages[min(paid, len(spell.stages) - 1)].energy

    def _enemies_preparing(self) -> set[int]:
        """The enemy target slots (``enemyN``) whose fighter is preparing a spell: enemy N sits in observation
        slot 1 + the ruleset's ally slots + N."""
        preparing = self._field("sp_preparing")
        first = 1 + self.ruleset.ally_slots
        return {slot - first for slot in range(first, len(preparing)) if preparing[slot] > 0}

    def _enemy_slot(self, action: int) -> int:
        order = self.ruleset.slots[action].order
        return int(str(order[-1])[5:]) if str(order[-1]).startswith("enemy") else 0


class MaSpellCaster(MaScripted):
    """The caster in the Ma duel: the far end of its weapon's ideal range, spells first."""

    breath_class = SpellCaster

    def wanted(self, view: MaView) -> tuple[Rung, ...]:
        return (min(view.mine.ideal_far, Rung.CLOSE),)


__all__ = ["MaSpellCaster", "SpellCaster"]
