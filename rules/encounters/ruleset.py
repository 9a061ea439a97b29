"""The encounter duel (001) as a :class:`~issoku.rules.kernel.protocol.Ruleset`: two characters, one distance.

With two characters on EN-G10's open 5-ft grid only the distance between them matters (a step changes
the Chebyshev distance by at most one square), so the duel tracks that distance in squares, from 1
(adjacent) to ``max_distance`` (the arena's edge). The ruleset holds the two sheets (from validated
data), the table settings (start distance, round limit, the ten-dice rule), the action table and the
observation schema; ``new_initial_state`` starts an encounter.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from mypy_extensions import mypyc_attr

from issoku.rules.encounters.actions import ACTION_NAMES
from issoku.rules.encounters.configured import EncounterRules
from issoku.rules.encounters.content import DATA_DIR, Catalog, load_catalog
from issoku.rules.encounters.observation import SPEC, profile, spec_for, templates
from issoku.rules.encounters.state import EncounterState
from issoku.rules.kernel import Dice, EventLog


@mypyc_attr(native_class=False)  # a Python class when compiled: callers read its defaults as class attributes
@dataclass(frozen=True)
class EncounterConfig:
    """Options of an encounter duel. Defaults: kenshi against ono_brute, four squares apart."""

    fighters: tuple[str, str] = ("kenshi", "ono_brute")
    """Two archetype names from the data (rules/encounters/data/archetypes.toml), seat 0 first."""
    start_distance: int = 4
    """EN-G10: 5-ft squares between the fighters at the start (1..``max_distance``)."""
    round_limit: int = 30
    """EN-G18: an undecided encounter is cut off (a draw) after this many rounds."""
    max_distance: int = 12
    """EN-G10: the farthest the fighters can stand apart, in 5-ft squares."""
    ten_dice_rule: bool = True
    """EN-G01: the Ten Dice Rule on rolled and kept dice."""
    focused_attack: bool = False
    """EN-G08: offer the Focused Attack on the head, which Stuns (EN-079, EN-113); off by default."""


class EncounterDuel(EncounterRules):
    """A configured 1v1 encounter (the inventory's EN DUEL ruleset; docs/rules/encounters.md says which
    rules are in)."""

    name = "encounter_duel"
    version = 1
    """In the fingerprint, so stored games, reference suites and checkpoints of older rules are not taken for
    today's. 1: Deflect survives the grapple formula (EN-108), the Stun shake-off takes no −3k0 (EN-113).
    ``tests/test_play_under_fingerprint.py`` fails when seeded play moves and it does not."""
    seat_names: tuple[str, ...] = ("player_0", "player_1")
    seat_teams: tuple[int, ...] = (0, 1)
    parties = False
    """EN-082: no party, so no Tactics Pool and no Tactical Strike."""
    action_names: tuple[str, ...] = ACTION_NAMES
    observation_spec = SPEC

    def __init__(self, config: EncounterConfig = EncounterConfig(), *, catalog: Catalog | None = None,
                 data_dir: Path | str = DATA_DIR) -> None:
        """The encounter ``config`` describes, its fighters from ``catalog`` (default: loaded from ``data_dir``)."""
        fighters, start_distance, round_limit = config.fighters, config.start_distance, config.round_limit
        max_distance, ten_dice_rule, focused_attack = config.max_distance, config.ten_dice_rule, config.focused_attack
        self.catalog = catalog if catalog is not None else load_catalog(data_dir)
        if len(fighters) != 2:
            raise ValueError("a duel needs exactly two fighters")
        unknown = [name for name in fighters if name not in self.catalog.archetypes]
        if unknown:
            raise ValueError(f"unknown fighter(s) {unknown}; known: {sorted(self.catalog.archetypes)}")
        if not 1 <= start_distance <= max_distance:
            raise ValueError("start_distance must lie in 1..max_distance")
        if round_limit < 1:
            raise ValueError("round_limit must be >= 1")
        self.config = config
        self.fighters = tuple(fighters)
        self.sheets = tuple(self.catalog.archetypes[name] for name in fighters)
        self.start_distance = start_distance
        self.round_limit = round_limit
        self.max_distance = max_distance
        self.ten_dice_rule = ten_dice_rule
        self.focused_attack = focused_attack
        unarmed = self.catalog.weapons["unarmed"]
        self.profiles = tuple((profile(sheet, sheet.weapon), profile(sheet, unarmed)) for sheet in self.sheets)
        self.observation_templates = templates(self.profiles)   # the encoder copies one per observation
        self.observation_spec = spec_for(round_limit, max_distance)
        self.atn_memos = ({}, {})
        settings = (self.name, self.version, self.fighters, start_distance, round_limit, max_distance,
                    ten_dice_rule, focused_attack, self.catalog.digest)
        self.fingerprint = hashlib.sha256(repr(settings).encode()).hexdigest()[:16]

    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True,
                          dice: Dice | None = None) -> EncounterState[EncounterDuel]:
        """A fresh encounter drawing chance from ``default_rng(seed)``, or from ``dice`` (ScriptedDice in tests)."""
        return EncounterState(self, dice if dice is not None else Dice(seed), EventLog(enabled=record_events))

    def __repr__(self) -> str:
        return f"EncounterDuel(fighters={self.fighters}, fingerprint={self.fingerprint})"
