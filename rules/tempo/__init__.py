"""The tempo rules (system 003): 12 AP rounds of proactive, reactive and counter-tempo actions, as a duel or a skirmish."""

from issoku.rules.tempo.actions import ACTION_NAMES, action
from issoku.rules.tempo.content import load_roster
from issoku.rules.tempo.ruleset import TempoConfig, TempoDuel, TempoRules, TempoSkirmish, TempoSkirmishConfig
from issoku.rules.tempo.state import TempoState, counter_tempo_payment

__all__ = ["ACTION_NAMES", "TempoConfig", "TempoDuel", "TempoRules", "TempoSkirmish", "TempoSkirmishConfig", "TempoState", "action", "counter_tempo_payment", "load_roster"]
