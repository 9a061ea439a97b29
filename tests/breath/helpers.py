"""Shared set-up for breath tests: rulesets by fighters, scripted dice, playing actions by name."""

from __future__ import annotations

from issoku.rules.breath.engine import BreathState
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec
from issoku.rules.kernel.dice import ScriptedDice


def ruleset(*fighters: FighterSpec, **options) -> BreathRuleset:
    """A ruleset with these fighters (default kenshi vs ronin)."""
    if not fighters:
        fighters = (FighterSpec("kenshi", 0), FighterSpec("ronin", 1))
    return BreathRuleset(BreathConfig(tuple(fighters), **options))


def scripted(rules: BreathRuleset, faces: list[int]) -> BreathState:
    """A fight whose dice show exactly ``faces``, in order."""
    return BreathState.initial(rules, None, dice=ScriptedDice(faces))


def play(state: BreathState, *names: str) -> None:
    """Apply actions by name, in order."""
    for name in names:
        state.apply(state.ruleset.codec.by_name(name))


def legal_names(state: BreathState) -> set[str]:
    """Names of the current legal actions."""
    return {state.ruleset.action_names[a] for a in state.legal_actions()}


def kinds(state: BreathState) -> list[str]:
    """Event kinds in order."""
    return [event.kind for event in state.events]
