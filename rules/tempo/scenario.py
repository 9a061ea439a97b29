"""Scripted duels from TOML scenario files: fixed dice, named decisions, expected events.

A scenario is how a designer pins down an exchange ("attack, counter-attack, CT parry into a bind, a
wind, a withdraw") and how tests hold it: the dice faces are listed in the order the engine rolls
them (d20s and damage dice alike), the decisions by action name, and the expected events as a
subsequence of the log (each names a rule, a kind, optionally the actor, and any data fields it
checks). :func:`replay` plays it and raises :class:`ScenarioMismatch` on the first difference.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from issoku.rules.kernel.content import load_model
from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.tempo.actions import CODEC, STATUS_NAMES
from issoku.rules.tempo.ruleset import TempoConfig, TempoDuel
from issoku.rules.tempo.state import TempoState


class ExpectedEvent(BaseModel):
    """One expected event: ``rule`` and ``kind``, optionally ``actor``; any other key is a data field."""

    model_config = ConfigDict(extra="allow", frozen=True)

    rule: str
    kind: str
    actor: int | None = Field(default=None, ge=0, le=1)

    def matches(self, event_dict: dict[str, Any]) -> bool:
        """Does a logged event (as :meth:`Event.to_dict`) carry every field this expectation names?"""
        wanted = {"rule": self.rule, "kind": self.kind, **(self.model_extra or {})}
        if self.actor is not None:
            wanted["actor"] = self.actor
        return all(_same(event_dict.get(key), value) for key, value in wanted.items())


def _same(logged: Any, expected: Any) -> bool:
    if isinstance(logged, tuple):
        return list(logged) == list(expected) if isinstance(expected, list) else False
    return logged == expected


class Final(BaseModel):
    """The state a scenario must end in (every field optional)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: tuple[str, str] | None = None
    health: tuple[int, int] | None = None
    ap: tuple[int, int] | None = None
    distance: int | None = None
    decision: str | None = None
    seat: int | None = None


class Scenario(BaseModel):
    """A scenario file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = ""
    fighters: tuple[str, str]
    initiator: int | None = Field(default=None, ge=0, le=1)
    start_distance: int = Field(default=1, ge=1)
    dice: list[int]
    actions: list[str]
    expect: list[ExpectedEvent] = []
    final: Final = Final()


class ScenarioMismatch(AssertionError):
    """The replayed duel differs from what the scenario expects."""


def replay(path: Path | str) -> TempoState:
    """Play a scenario file and check its expectations; returns the final state."""
    scenario = load_model(path, Scenario)
    ruleset = TempoDuel(TempoConfig(scenario.fighters, scenario.initiator, scenario.start_distance))
    state = ruleset.new_initial_state(dice=ScriptedDice(scenario.dice))
    for step, name in enumerate(scenario.actions):
        try:
            state.apply(CODEC.by_name(name))
        except (KeyError, ValueError) as error:
            raise ScenarioMismatch(f"{path}: step {step} ({name}): {error}") from None
    _check_events(path, state, scenario.expect)
    _check_final(path, state, scenario.final)
    return state


def _check_events(path: Path | str, state: TempoState, expected: list[ExpectedEvent]) -> None:
    logged = [event.to_dict() for event in state.events]
    position = 0
    for want in expected:
        while position < len(logged) and not want.matches(logged[position]):
            position += 1
        if position == len(logged):
            raise ScenarioMismatch(f"{path}: expected event not found in order: {want!r}\nlog:\n"
                                   + "\n".join(event.describe() for event in state.events))
        position += 1


def _check_final(path: Path | str, state: TempoState, final: Final) -> None:
    actual = {
        "statuses": tuple(STATUS_NAMES[s] for s in state.status),
        "health": tuple(state.hp),
        "ap": tuple(state.ap),
        "distance": state.distance,
        "decision": state.decision_kind(),
        "seat": state.current_seat(),
    }
    for key, value in final.model_dump(exclude_none=True).items():
        if actual[key] != value:
            raise ScenarioMismatch(f"{path}: final {key} is {actual[key]!r}, expected {value!r}")
