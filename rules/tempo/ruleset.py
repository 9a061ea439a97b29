"""The tempo duel (003) as a :class:`~issoku.rules.kernel.protocol.Ruleset`: two fighters, one distance.

The ruleset is the immutable part: the two fighters (from validated data), the table settings every
gap default needs (AP per round, round limit, Base Combat Movement, starting distance, who initiated
combat), the action table and the observation schema. ``new_initial_state`` starts a duel.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from issoku.rules.kernel import Dice, EventLog
from issoku.rules.tempo.actions import ACTION_NAMES
from issoku.rules.tempo.content import DATA_DIR, UNARMED, Roster, load_roster
from issoku.rules.tempo.loadout import Loadout, loadouts
from issoku.rules.tempo.observation import SPEC
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.state import TempoState


@dataclass(frozen=True)
class TempoConfig:
    """Options of a tempo duel (the table settings every gap default needs). Defaults: a formal duel,
    fencer against knight, four squares apart (docs/rules/tempo.md)."""

    fighters: tuple[str, str] = ("fencer", "knight")
    """Two fighter names from the data (rules/tempo/data/fighters.toml), seat 0 first."""
    initiator: int | None = None
    """TP-021: the seat that started the fight (it starts On Guard, the other Off Guard); None: a formal
    duel, both On Guard."""
    start_distance: int = 4
    """TP-G07: squares between the fighters at the start (1..``max_distance``)."""
    round_limit: int = 30
    """TP-G14: an undecided duel is cut off (a draw) after this many rounds."""
    ap_per_round: int = 12
    """TP-G05: the Action Points a fighter starts with and recovers up to."""
    base_movement: int = 4
    """TP-G07: Base Combat Movement, the squares one Move covers."""
    max_distance: int = 12
    """TP-G07: the farthest the fighters can stand apart."""


class TempoDuel:
    """A configured 1v1 tempo duel (the inventory's TP DUEL ruleset: TP-001..058, TP-G01..G15)."""

    name = "tempo_duel"
    version = 1
    seat_names = ("player_0", "player_1")
    seat_teams = (0, 1)
    action_names = ACTION_NAMES
    decision_kinds = DECISION_KINDS
    observation_spec = SPEC

    def __init__(self, config: TempoConfig = TempoConfig(), *, roster: Roster | None = None,
                 data_dir: Path | str = DATA_DIR) -> None:
        """The duel ``config`` describes, its fighters from ``roster`` (default: loaded from ``data_dir``)."""
        fighters, initiator, start_distance = config.fighters, config.initiator, config.start_distance
        round_limit, ap_per_round, base_movement = config.round_limit, config.ap_per_round, config.base_movement
        max_distance = config.max_distance
        self.roster = roster if roster is not None else load_roster(data_dir)
        if len(fighters) != 2:
            raise ValueError("a duel needs exactly two fighters")
        unknown = [name for name in fighters if name not in self.roster.fighters]
        if unknown:
            raise ValueError(f"unknown fighter(s) {unknown}; known: {sorted(self.roster.fighters)}")
        if initiator not in (None, 0, 1):
            raise ValueError("initiator must be None, 0 or 1")
        if not 1 <= start_distance <= max_distance:
            raise ValueError("start_distance must lie in 1..max_distance")
        if min(round_limit, ap_per_round, base_movement) < 1:
            raise ValueError("round_limit, ap_per_round and base_movement must be >= 1")
        self.config = config
        self.fighters = tuple(fighters)
        self.initiator = initiator
        self.start_distance = start_distance
        self.round_limit = round_limit
        self.ap_per_round = ap_per_round
        self.base_movement = base_movement
        self.max_distance = max_distance
        self.unarmed = self.roster.weapons[UNARMED]
        self.loadouts: tuple[tuple[Loadout, Loadout], ...] = tuple(
            loadouts(self.roster.fighters[name], self.unarmed) for name in fighters)
        settings = (self.name, self.version, self.fighters, initiator, start_distance, round_limit, ap_per_round,
                    base_movement, max_distance, self.roster.digest)
        self.fingerprint = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]

    def action_content(self, name: str) -> tuple[str, ...]:
        """The content items action ``name`` exercises (the kernel's content hook): each tempo action is its own
        item (a maneuver ``proactive:*``, a reply ``react:*``, a counter-tempo ``ct:*``)."""
        if name not in self.action_names:
            raise KeyError(f"no action {name!r} in the tempo duel's table")
        return (name,)

    def seat_content(self, seat: int) -> tuple[str, ...]:
        """The content keys a seat fields (fighter, weapon, armour): what a data edit can touch."""
        fighter = self.roster.fighters[self.fighters[seat]]
        return (fighter.name, fighter.weapon.name, fighter.armour.name)

    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True,
                          dice: Dice | None = None) -> TempoState:
        """A fresh duel drawing chance from ``default_rng(seed)``, or from ``dice`` (ScriptedDice in tests)."""
        return TempoState(self, dice if dice is not None else Dice(seed), EventLog(enabled=record_events))

    def __repr__(self) -> str:
        return f"TempoDuel(fighters={self.fighters}, initiator={self.initiator}, fingerprint={self.fingerprint})"
