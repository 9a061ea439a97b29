"""Closing in on the zone line: the movement maneuver that brings a scripted breath fighter toward reach.

The scripted breath agents choose among techniques. In a skirmish (rulesets with the zones module) the
enemies may all stand in other zones, where no attack reaches; a fighter then moves first, toward its
nearest enemy, and cuts once it is there. Everything is read in ego-centric terms from the observation
(each slot's ``zone`` one-hot) and the action table, so either side, any size, plays the same way; in a
ruleset without zones there is nothing to do and :meth:`Approach.move` returns None.
"""

from __future__ import annotations

import numpy as np

from issoku.rules.breath.ruleset import BreathRuleset
from issoku.rules.breath.zones import DESTINATIONS, DISTANCE, EGO_ZONES


class Approach:
    """For one ruleset: each movement action's ego destination and base cost, and the observation fields."""

    def __init__(self, ruleset: BreathRuleset) -> None:
        spec = ruleset.observation_spec
        self.active = "zone" in spec.names
        self.destination: dict[int, int] = {}
        self.cost: dict[int, int] = {}
        if not self.active:
            return
        self.zone = spec.slice("zone")
        self.present, self.ally, self.defeated = (spec.slice(name) for name in ("present", "ally", "defeated"))
        for action, slot in enumerate(ruleset.slots):
            if slot.order in DESTINATIONS:
                self.destination[action] = DESTINATIONS[slot.order][0]  # side A's zones are the ego zones
                self.cost[action] = ruleset.catalog.maneuvers[slot.kind].cost

    def move(self, observation: np.ndarray, legal: list[int], budget: float) -> int | None:
        """The legal move within ``budget`` Energy that brings the fighter nearest an active enemy (the
        cheapest among equals), or None when no move gets closer."""
        if not self.active:
            return None
        zones = observation[self.zone].reshape(-1, len(EGO_ZONES)).argmax(axis=1)
        enemy = (observation[self.present] > 0) & (observation[self.ally] == 0) & (observation[self.defeated] == 0)
        targets = [int(zones[slot]) for slot in np.flatnonzero(enemy)]
        if not targets:
            return None

        def gap(zone: int) -> int:
            return min(DISTANCE[zone][target] for target in targets)

        now = gap(int(zones[0]))
        options = [(gap(self.destination[a]), self.cost[a], a) for a in legal
                   if a in self.destination and self.cost[a] <= budget and gap(self.destination[a]) < now]
        return min(options)[2] if options else None
