"""What every configured encounter is, duel or skirmish: the one type the encounter engine is written for.

:class:`~.state.EncounterState` (the duel's state machine, which the skirmish's state extends), the legality
functions and the encoders read the ruleset through :class:`EncounterRules`; :class:`~.ruleset.EncounterDuel` and
:class:`~.skirmish.EncounterSkirmish` derive from it and set it up. Compiled (``ISSOKU_COMPILE=1``), code checks
the values it is handed against its annotations: typed for the duel's ruleset, the shared engine would refuse the
skirmish's, so it is typed for this base both pass.
"""

from __future__ import annotations

from typing import Any

from issoku.rules.encounters.actions import content_items
from issoku.rules.encounters.content import Archetype, Catalog
from issoku.rules.encounters.kinds import DECISION_KINDS
from issoku.rules.kernel import ObservationSpec


class EncounterRules:
    """The settings, sheets and seats the engine reads, and the kernel hooks both set-ups answer alike."""

    name: str
    data_systems: tuple[str, ...] = ("encounters",)
    """The folders under ``rules/`` whose data files this ruleset reads: what a loadout can own
    (:func:`issoku.evaluation.design.variants.data_files`; names repeat across rulesets)."""
    decision_kinds: tuple[str, ...] = DECISION_KINDS
    parties: bool
    """EN-082 / EN-G09: whether each side is a party with a Tactics Pool (the skirmish) or not (the duel)."""
    action_names: tuple[str, ...]
    observation_spec: ObservationSpec
    catalog: Catalog
    config: Any
    fighters: tuple[str, ...]
    """The archetype of each seat."""
    sheets: tuple[Archetype, ...]
    seat_names: tuple[str, ...]
    seat_teams: tuple[int, ...]
    start_distance: int
    max_distance: int
    """EN-G10: the farthest two characters can stand apart, in 5-ft squares."""
    round_limit: int
    ten_dice_rule: bool
    focused_attack: bool
    atn_memos: tuple[dict, ...]
    """Each seat's ATN by situation (:meth:`~.fighter.Combatant.atn`)."""
    fingerprint: str

    def action_content(self, name: str) -> tuple[str, ...]:
        """The content items action ``name`` exercises (the kernel's content hook): a weapon attack exercises each
        maneuver it declares with raises (``maneuver:feint``, ``maneuver:knockdown``, ``maneuver:extra_damage``;
        EN-G03), a plain one the ``attack`` itself; any other action (a stance, a Void Point use, a grapple
        move...) is its own item; a skirmish's target slot is no content."""
        if name not in self.action_names:
            raise KeyError(f"no action {name!r} in the {self.name.replace('_', ' ')}'s table")
        return content_items(name)

    def seat_content(self, seat: int) -> tuple[str, ...]:
        """The content keys a seat fields (archetype, weapon, armour): what a data edit can touch."""
        return self.sheets[seat].content()
