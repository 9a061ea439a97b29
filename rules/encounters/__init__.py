"""Encounters (system 001): XkY dice, Armor Target Numbers, raises, stances, Wounds, grapples."""

from issoku.rules.encounters.actions import ACTION_NAMES, action
from issoku.rules.encounters.content import load_catalog
from issoku.rules.encounters.ruleset import EncounterConfig, EncounterDuel
from issoku.rules.encounters.skirmish import EncounterSkirmish, SkirmishConfig
from issoku.rules.encounters.state import EncounterState

__all__ = ["ACTION_NAMES", "EncounterConfig", "EncounterDuel", "EncounterSkirmish", "EncounterState", "SkirmishConfig", "action", "load_catalog"]
