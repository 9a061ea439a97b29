"""Shared set-up for skirmish tests: rulesets with the zones module, placing fighters, reading events."""

from __future__ import annotations

from pathlib import Path

import issoku.rules.breath as breath_package
from issoku.rules.breath.engine import BreathState
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec
from issoku.rules.breath.zones import ZONE_NAMES, ZonesModule
from issoku.rules.kernel.dice import ScriptedDice

ZONES = ZonesModule()
SHIPPED_DATA = Path(breath_package.__file__).parent / "data"
EXTRA_DATA = Path(__file__).parent / "data" / "skirmish_extra.toml"


def skirmish(*fighters: FighterSpec, extra: bool = False, capacity: int | None = 4, **options) -> BreathRuleset:
    """A zoned ruleset with these fighters; ``extra`` adds the test archetypes (infiltrator, archer)."""
    data = [SHIPPED_DATA, EXTRA_DATA] if extra else None
    return BreathRuleset(BreathConfig(tuple(fighters), **options), data=data, modules=(ZONES,),
                         name="breath_skirmish", seat_naming="side_fighter", capacity=capacity)


def scripted(rules: BreathRuleset, faces: list[int] = ()) -> BreathState:
    """A fight whose dice show exactly ``faces`` (running out raises, so an unexpected roll fails a test)."""
    return BreathState.initial(rules, None, dice=ScriptedDice(list(faces)))


def place(state: BreathState, **zones: str) -> None:
    """Put fighters in zones by seat name: ``place(state, side_0_fighter_1="core")`` (absolute names)."""
    seats = state.ruleset.seat_names
    for seat_name, zone in zones.items():
        ZONES.place(state, state.fighters[seats.index(seat_name)], ZONE_NAMES.index(zone))
    state.invalidate_legal()  # a set-up outside the rules: the next legal_actions() recomputes


def zone_of(state: BreathState, seat: int) -> str:
    """The absolute zone name of ``seat``."""
    return ZONE_NAMES[ZONES.zone_of(state, state.fighters[seat])]


def play(state: BreathState, *names: str) -> None:
    """Apply actions by name, in order."""
    for name in names:
        state.apply(state.ruleset.codec.by_name(name))


def legal_names(state: BreathState) -> set[str]:
    """Names of the current legal actions."""
    return {state.ruleset.action_names[a] for a in state.legal_actions()}


def new_events(state: BreathState, mark: int, kind: str) -> list:
    """Events of ``kind`` logged since position ``mark``."""
    return [e for e in state.events.since(mark) if e.kind == kind]
