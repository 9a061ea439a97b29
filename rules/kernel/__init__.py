"""The kernel every ruleset shares: dice, the event log, the state-machine protocol, data loading."""

from issoku.rules.kernel.codec import ActionCodec
from issoku.rules.kernel.dice import Dice
from issoku.rules.kernel.events import Event, EventLog
from issoku.rules.kernel.protocol import (
    GameState,
    IllegalActionError,
    ObservationSpec,
    Ruleset,
)
from issoku.rules.kernel.content import DataError, load_model

__all__ = [
    "ActionCodec",
    "DataError",
    "Dice",
    "Event",
    "EventLog",
    "GameState",
    "IllegalActionError",
    "ObservationSpec",
    "Ruleset",
    "load_model",
]
