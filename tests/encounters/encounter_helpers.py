"""Shared helpers of the encounter tests: duels on scripted dice and decisions by name.

The default pair is the kenshi (seat 0: Reflexes 3, Agility 3, Strength 3, Earth 2, Air 2, Water 2,
Void 2, Insight 2, Weapon: Samurai 5, Defense 3, Jujutsu 2, katana 3k2, light armour +5/R3) against the
ono_brute (seat 1: Reflexes 2, Agility 2, Strength 5, Earth 3, Water 2, Void 2, Insight 2, Kanaboujutsu 5,
Jujutsu 3, ono 0k4 [Large], heavy armour +10/R5). ``duel`` prepends initiative faces that put seat 0
first (kenshi 5k3 on 9,9,9,1,1 = 27; brute 4k2 on 1,1,1,1 = 2).
"""

from issoku.rules.encounters import EncounterConfig, EncounterDuel, action
from issoku.rules.kernel.dice import ScriptedDice

SEAT_0_FIRST = [9, 9, 9, 1, 1, 1, 1, 1, 1]


def duel(faces=(), *, fighters=("kenshi", "ono_brute"), start_distance=1, initiative=SEAT_0_FIRST, **settings):
    """A fresh encounter on scripted dice, at the first opening-stance decision."""
    ruleset = EncounterDuel(EncounterConfig(fighters, start_distance=start_distance, **settings))
    return ruleset.new_initial_state(dice=ScriptedDice(list(initiative) + list(faces)))


def started(faces=(), stances=("water", "water"), **kwargs):
    """An encounter past the opening stances (``stances`` by seat; they are asked in reverse initiative
    order, EN-005) and the first round's Void Point decisions."""
    state = duel(faces, **kwargs)
    while state.decision_kind() == "stance":
        play(state, f"stance:{stances[state.current_seat()]}")
    return to_turn(state)


def play(state, *names):
    """Apply decisions by name."""
    for name in names:
        state.apply(action(name))


def legal_names(state):
    """The current legal actions by name."""
    return [state.ruleset.action_names[a] for a in state.legal_actions()]


def kinds(state, kind):
    """Every logged event of a kind, as dicts."""
    return [event.to_dict() for event in state.events if event.kind == kind]


def last(state, kind):
    """The last logged event of a kind, as a dict."""
    return kinds(state, kind)[-1]


def to_turn(state):
    """Pass every start-of-round Void Point decision (EN-007) until a turn's decision comes up."""
    while state.decision_kind() == "round_start":
        play(state, "pass")
    return state
