"""The encounter skirmish (001) as a :class:`~issoku.rules.kernel.protocol.Ruleset`: two sides of one to four
characters each on EN-G10's 5-ft grid.

The engine is the duel's (:mod:`.state`), with positions per character
(:class:`~issoku.rules.encounters.skirmish_state.SkirmishState`); this module holds the sides' sheets, the
table settings, the starting squares, the action table (the duel's, then the orders that name a slot:
:mod:`.skirmish_actions`) and the padded observation (:mod:`.skirmish_observation`).
"""

from __future__ import annotations

import hashlib
from array import array
from dataclasses import dataclass
from pathlib import Path

from mypy_extensions import mypyc_attr

from issoku.rules.encounters.configured import EncounterRules
from issoku.rules.encounters.content import DATA_DIR, Catalog, load_catalog
from issoku.rules.encounters.observation import profile
from issoku.rules.encounters.skirmish_actions import CAPACITY, SKIRMISH_ACTION_NAMES
from issoku.rules.encounters.skirmish_observation import SPEC, spec_for
from issoku.rules.encounters.skirmish_state import SkirmishState
from issoku.rules.kernel import Dice, EventLog


@mypyc_attr(native_class=False)  # a Python class when compiled: callers read its defaults as class attributes
@dataclass(frozen=True)
class SkirmishConfig:
    """Options of an encounter skirmish. Default: kenshi and yari_guard against ono_brute and tonfa_monk."""

    sides: tuple[tuple[str, ...], ...] = (("kenshi", "yari_guard"), ("ono_brute", "tonfa_monk"))
    """Two sequences of 1..4 archetype names (rules/encounters/data/archetypes.toml), side 0 first."""
    start_distance: int = 4
    """EN-G10: squares between the two sides' columns at the start."""
    round_limit: int = 30
    """EN-G18: an undecided encounter is cut off (a draw) after this many rounds."""
    arena: int = 13
    """EN-G10: the arena is ``arena`` × ``arena`` 5-ft squares."""
    ten_dice_rule: bool = True
    """EN-G01: the Ten Dice Rule on rolled and kept dice."""
    focused_attack: bool = False
    """EN-G08: offer the Focused Attack on the head, which Stuns (EN-079, EN-113); off by default."""


def start_squares(sizes: tuple[int, ...], start_distance: int, arena: int) -> tuple[tuple[int, int], ...]:
    """EN-G10: each side in one column, its members on consecutive rows centred, the columns
    ``start_distance`` apart and centred in the arena."""
    left = (arena - 1 - start_distance) // 2
    return tuple((left + side * start_distance, (arena - size) // 2 + row)
                 for side, size in enumerate(sizes) for row in range(size))


class EncounterSkirmish(EncounterRules):
    """A configured N-v-M encounter (the inventory's EN SKIRMISH ruleset; docs/rules/encounters.md says which
    rules are in)."""

    name = "encounter_skirmish"
    version = 1
    """In the fingerprint; moves with the duel's (see :attr:`EncounterDuel.version`)."""
    parties = True
    """EN-082 / EN-G09: each side is a party with a Tactics Pool."""
    action_names: tuple[str, ...] = SKIRMISH_ACTION_NAMES
    observation_spec = SPEC

    def __init__(self, config: SkirmishConfig = SkirmishConfig(), *, catalog: Catalog | None = None,
                 data_dir: Path | str = DATA_DIR) -> None:
        """The encounter ``config`` describes, its fighters from ``catalog`` (default: loaded from ``data_dir``)."""
        self.catalog = catalog if catalog is not None else load_catalog(data_dir)
        sides = tuple(tuple(side) for side in config.sides)
        if len(sides) != 2 or any(not 1 <= len(side) <= CAPACITY for side in sides):
            raise ValueError(f"sides must be two sequences of 1 to {CAPACITY} fighters, not {config.sides!r}")
        unknown = sorted({name for side in sides for name in side if name not in self.catalog.archetypes})
        if unknown:
            raise ValueError(f"unknown fighter(s) {unknown}; known: {sorted(self.catalog.archetypes)}")
        if not 2 * CAPACITY <= config.arena <= 40:
            raise ValueError(f"arena must lie in {2 * CAPACITY}..40 squares")
        if not 1 <= config.start_distance < config.arena:
            raise ValueError("start_distance must lie in 1..arena-1")
        if config.round_limit < 1:
            raise ValueError("round_limit must be >= 1")
        self.config = config
        self.sides = sides
        self.fighters = tuple(name for side in sides for name in side)
        self.seat_teams = tuple(team for team, side in enumerate(sides) for _ in side)
        self.allies_of = tuple(tuple(s for s, t in enumerate(self.seat_teams) if t == team and s != seat)
                               for seat, team in enumerate(self.seat_teams))
        """Each seat's allies in seat order (ally slot ``k`` is ``allies_of[seat][k - 1]``)."""
        self.enemies_of = tuple(tuple(s for s, t in enumerate(self.seat_teams) if t != team)
                                for team in self.seat_teams)
        """Each seat's enemies in seat order (enemy slot ``k`` is ``enemies_of[seat][k]``)."""
        self.others_of = tuple(tuple(("enemy", k, s) for k, s in enumerate(self.enemies_of[seat]))
                               + tuple(("ally", k, s) for k, s in enumerate(self.allies_of[seat], start=1))
                               for seat in range(len(self.seat_teams)))
        """Each seat's ("enemy"/"ally", slot, seat) of every other character, enemies first."""
        self.seat_names = tuple(f"side_{team}_fighter_{rank + 1}" for team, side in enumerate(sides)
                                for rank in range(len(side)))
        self.sheets = tuple(self.catalog.archetypes[name] for name in self.fighters)
        self.start_distance = self.max_distance = config.start_distance
        self.arena = config.arena
        self.start_positions = start_squares(tuple(len(side) for side in sides), config.start_distance, config.arena)
        self.round_limit = config.round_limit
        self.observation_spec = spec_for(config.round_limit, config.arena)
        self.ten_dice_rule = config.ten_dice_rule
        self.focused_attack = config.focused_attack
        unarmed = self.catalog.weapons["unarmed"]
        self.profiles = tuple((array("f", profile(sheet, sheet.weapon)), array("f", profile(sheet, unarmed)))
                              for sheet in self.sheets)
        """Each seat's observation profile (:mod:`.observation`), its own weapon readied and bare hands."""
        self.atn_memos = tuple({} for _ in self.sheets)
        self.side_blocks: dict[tuple, array] = {}
        """Observation blocks by character and situation (:func:`~.skirmish_observation.side_block`)."""
        settings = (self.name, self.version, sides, config.start_distance, config.round_limit, config.arena,
                    config.ten_dice_rule, config.focused_attack, self.catalog.digest)
        self.fingerprint = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]

    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True,
                          dice: Dice | None = None) -> SkirmishState:
        """A fresh encounter drawing chance from ``default_rng(seed)``, or from ``dice`` (ScriptedDice in tests)."""
        return SkirmishState(self, dice if dice is not None else Dice(seed), EventLog(enabled=record_events))

    def __repr__(self) -> str:
        return f"EncounterSkirmish(sides={self.sides}, fingerprint={self.fingerprint})"
