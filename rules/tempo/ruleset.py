"""The tempo rules (003) as :class:`~issoku.rules.kernel.protocol.Ruleset`: one engine, two table set-ups.

:class:`TempoDuel` is two fighters on one distance (the duel every ``tempo_duel_v0`` fight plays);
:class:`TempoSkirmish` is one to four fighters a side on a square grid, with the many-combatant defaults
TP-G06 (initiative among many), TP-G07 (threatened areas) and TP-G08 (reactors, pairwise resolution).
Both are :class:`TempoRules`: the fighters (from validated data), the table settings every gap default
needs (AP per round, round limit, Base Combat Movement, starting distance, who initiated combat), the
action table and the observation schema; ``new_initial_state`` starts a fight on the one
:class:`~issoku.rules.tempo.state.TempoState` engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

from issoku.rules.kernel import Dice, EventLog, ObservationSpec
from issoku.rules.tempo.actions import DUEL_TABLE, ActionTable, targeted_orders
from issoku.rules.tempo.content import DATA_DIR, UNARMED, Roster, load_roster
from issoku.rules.tempo.loadout import Loadout, loadouts
from issoku.rules.tempo.observation import SPEC, spec_for
from issoku.rules.tempo.provenance import decision_drivers
from issoku.rules.tempo.kinds import DECISION_KINDS
from issoku.rules.tempo.skirmish_observation import skirmish_spec_for
from issoku.rules.tempo.state import TempoState

SKIRMISH_CAPACITY = 4
"""The most fighters a skirmish side may field; observation and target slots are padded to it."""


@mypyc_attr(native_class=False)  # a Python class when compiled: callers read its defaults as class attributes
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


@mypyc_attr(native_class=False)  # a Python class when compiled: callers read its defaults as class attributes
@dataclass(frozen=True)
class TempoSkirmishConfig:
    """Options of a tempo skirmish: the duel's table settings, with sides instead of two fighters
    (docs/rules/tempo.md, § Skirmish)."""

    sides: tuple[tuple[str, ...], tuple[str, ...]] = (("fencer", "knight"), ("spearman", "archer"))
    """Two sequences of 1..4 fighter names from the data, side 0 first; seats follow in that order."""
    initiator: int | None = None
    """TP-021: the side that started the fight (its fighters start On Guard, the others Off Guard); None:
    everyone On Guard."""
    start_distance: int = 4
    """TP-G07: squares between the two lines at the start (1..``max_distance``)."""
    round_limit: int = 30
    """TP-G14: an undecided skirmish is cut off (a draw) after this many rounds."""
    ap_per_round: int = 12
    """TP-G05: the Action Points a fighter starts with and recovers up to."""
    base_movement: int = 4
    """TP-G07: Base Combat Movement, the squares one Move covers."""
    max_distance: int = 12
    """TP-G07: the grid is ``max_distance + 1`` squares a side, so no two fighters stand farther apart."""


class TempoRules:
    """What both set-ups share: fighters by seat with their sides, settings, loadouts, fingerprint."""

    name = "tempo"
    version = 1
    data_systems = ("tempo",)
    """The folders under ``rules/`` whose data files this ruleset reads: what a loadout can own
    (:func:`issoku.evaluation.design.variants.data_files`; names repeat across rulesets)."""
    decision_kinds: tuple[str, ...] = DECISION_KINDS
    seat_names: tuple[str, ...]
    seat_teams: tuple[int, ...]
    action_names: tuple[str, ...]
    observation_spec: ObservationSpec
    table: ActionTable
    many: bool
    """True on the skirmish's grid (positions, target slots, several reactors); False in the duel."""
    capacity = 1
    """The most fighters a side may field (observation and target slots are padded to it)."""

    def _set_up(self, config: Any, fighters: Sequence[str], seat_teams: Sequence[int], roster: Roster | None,
                data_dir: Path | str) -> None:
        """Validate ``config`` and build the per-seat numbers (every option's meaning: the config class)."""
        self.roster = roster if roster is not None else load_roster(data_dir)
        unknown = [name for name in fighters if name not in self.roster.fighters]
        if unknown:
            raise ValueError(f"unknown fighter(s) {unknown}; known: {sorted(self.roster.fighters)}")
        if config.initiator not in (None, 0, 1):
            raise ValueError("initiator must be None, 0 or 1")
        if not 1 <= config.start_distance <= config.max_distance:
            raise ValueError("start_distance must lie in 1..max_distance")
        if min(config.round_limit, config.ap_per_round, config.base_movement) < 1:
            raise ValueError("round_limit, ap_per_round and base_movement must be >= 1")
        self.config = config
        self.fighters = tuple(fighters)
        self.seat_teams = tuple(seat_teams)
        self.initiator = config.initiator
        self.start_distance = config.start_distance
        self.round_limit = config.round_limit
        self.ap_per_round = config.ap_per_round
        self.base_movement = config.base_movement
        self.max_distance = config.max_distance
        self.action_names = self.table.names
        self.unarmed = self.roster.weapons[UNARMED]
        self.loadouts: tuple[tuple[Loadout, Loadout], ...] = tuple(
            loadouts(self.roster.fighters[name], self.unarmed, self.table) for name in fighters)
        seats = range(len(self.fighters))
        self.allies: tuple[tuple[int, ...], ...] = tuple(
            tuple(o for o in seats if o != s and self.seat_teams[o] == self.seat_teams[s]) for s in seats)
        self.enemies: tuple[tuple[int, ...], ...] = tuple(
            tuple(o for o in seats if self.seat_teams[o] != self.seat_teams[s]) for s in seats)
        """Each seat's enemies by seat: enemy slot ``k`` of a targeted order is ``enemies[seat][k]``."""
        self.action_targets: dict[tuple[int, int], tuple[int, ...]] = {}
        """(seat, bind or grapple partner) -> the seat each flat action aims at (``TempoState._targets``)."""
        self.side_seats: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in seats if self.seat_teams[s] == side) for side in (0, 1))
        """The seats of each side, so asking whether a side is down (every step) walks only its own seats."""
        settings: tuple[Any, ...] = (self.name, self.version, self.fighters, self.initiator, self.start_distance, self.round_limit,
                    self.ap_per_round, self.base_movement, self.max_distance, self.roster.digest)
        if self.many:
            settings += (self.seat_teams,)
        self.fingerprint = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]

    def action_content(self, name: str) -> tuple[str, ...]:
        """The content items action ``name`` exercises (the kernel's content hook): each tempo action is its own
        item (a maneuver ``proactive:*``, a reply ``react:*``, a counter-tempo ``ct:*``)."""
        if name not in self.action_names:
            raise KeyError(f"no action {name!r} in the {self.name}'s table")
        return (name,)

    def decision_drivers(self, label: str) -> list[str]:
        """The project decisions behind fighter ``label``'s standout values, each with its ID (the report's provenance
        hook: :func:`~issoku.rules.tempo.provenance.decision_drivers` over this ruleset's roster)."""
        return decision_drivers(self.roster, label)

    def seat_content(self, seat: int) -> tuple[str, ...]:
        """The content keys a seat fields (fighter, weapon, armour): what a data edit can touch."""
        fighter = self.roster.fighters[self.fighters[seat]]
        return (fighter.name, fighter.weapon.name, fighter.armour.name)

    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True,
                          dice: Dice | None = None) -> TempoState:
        """A fresh fight drawing chance from ``default_rng(seed)``, or from ``dice`` (ScriptedDice in tests)."""
        return TempoState(self, dice if dice is not None else Dice(seed), EventLog(enabled=record_events))


class TempoDuel(TempoRules):
    """A configured 1v1 tempo duel (the inventory's TP DUEL ruleset: TP-001..TP-058, TP-G01..TP-G15)."""

    name = "tempo_duel"
    seat_names: tuple[str, ...] = ("player_0", "player_1")
    action_names = DUEL_TABLE.names
    observation_spec = SPEC
    table = DUEL_TABLE
    many = False

    def __init__(self, config: TempoConfig = TempoConfig(), *, roster: Roster | None = None,
                 data_dir: Path | str = DATA_DIR) -> None:
        """The duel ``config`` describes, its fighters from ``roster`` (default: loaded from ``data_dir``)."""
        if len(config.fighters) != 2:
            raise ValueError("a duel needs exactly two fighters")
        self._set_up(config, config.fighters, (0, 1), roster, data_dir)
        self.observation_spec = spec_for(self.ap_per_round, self.max_distance, self.round_limit)

    def __repr__(self) -> str:
        return f"TempoDuel(fighters={self.fighters}, initiator={self.initiator}, fingerprint={self.fingerprint})"


class TempoSkirmish(TempoRules):
    """A configured tempo skirmish, 1..4 fighters a side (the inventory's TP SKIRMISH ruleset: the duel's rules
    plus the many-combatant defaults TP-G06, TP-G07 and TP-G08)."""

    name = "tempo_skirmish"
    many = True

    def __init__(self, config: TempoSkirmishConfig = TempoSkirmishConfig(), *, roster: Roster | None = None,
                 data_dir: Path | str = DATA_DIR, capacity: int = SKIRMISH_CAPACITY) -> None:
        """The skirmish ``config`` describes; actions and observations are padded to ``capacity`` a side."""
        sides = config.sides
        if isinstance(sides, str) or len(sides) != 2:
            raise ValueError("sides must be two sequences of fighter names: side 0's and side 1's")
        for side, names in enumerate(sides):
            if isinstance(names, str) or not 1 <= len(names) <= capacity:
                raise ValueError(f"side {side} must be a sequence of 1 to {capacity} fighter names, not {names!r}")
        self.capacity = capacity
        self.table = ActionTable(targeted_orders(capacity))
        teams = [side for side, names in enumerate(sides) for _ in names]
        self.seat_names = tuple(f"side_{side}_fighter_{k + 1}" for side, names in enumerate(sides)
                                for k in range(len(names)))
        self._set_up(config, [name for names in sides for name in names], teams, roster, data_dir)
        self.observation_spec = skirmish_spec_for(capacity, self.ap_per_round, self.max_distance, self.round_limit)

    def __repr__(self) -> str:
        return f"TempoSkirmish(sides={self.config.sides}, initiator={self.initiator}, fingerprint={self.fingerprint})"
