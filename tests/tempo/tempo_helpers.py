"""Shared helpers of the tempo tests: scripted duels and named actions.

The default pair is the fencer (seat 0: melee 3, athletics 2, defence 2, endurance 2, longsword 4 AP d10,
light armour 2/1, 14 Health) against the knight (seat 1: melee 2, wrestling 2, athletics 1, defence 1,
endurance 3, arming sword 4 AP d8, heavy armour 6/3, 16 Health). ``duel`` prepends the initiative faces
15 and 3, so seat 0 always takes the first turn.
"""

from issoku.envs.adapter import legal_mask
from issoku.rules.tempo import TempoConfig, TempoDuel, action
from issoku.rules.kernel.dice import ScriptedDice

SEAT_0_FIRST = [15, 3]


def duel(faces=(), *, fighters=("fencer", "knight"), start_distance=1, **settings):
    """A duel on scripted dice (initiative already scripted: seat 0 first)."""
    ruleset = TempoDuel(TempoConfig(fighters, start_distance=start_distance, **settings))
    return ruleset.new_initial_state(dice=ScriptedDice(SEAT_0_FIRST + list(faces)))


def play(state, *names):
    """Apply decisions by name."""
    for name in names:
        state.apply(action(name))


def decide(policy, state):
    """A policy's choice at the state's current decision, from that seat's observation and legal mask."""
    seat = state.current_seat()
    return policy(state.observation(seat), legal_mask(state.legal_actions(), len(state.ruleset.action_names)))


def legal_names(state):
    """The current legal actions by name."""
    return [state.ruleset.action_names[a] for a in state.legal_actions()]


def last(state, kind):
    """The last logged event of a kind, as a dict."""
    return [event.to_dict() for event in state.events if event.kind == kind][-1]


def kinds(state, kind):
    """Every logged event of a kind, as dicts."""
    return [event.to_dict() for event in state.events if event.kind == kind]


def roster_with(tmp_path, *, weapons="", armour="", fighters=""):
    """The shipped data with extra TOML text appended to each file, loaded from ``tmp_path``."""
    from issoku.rules.tempo.content import DATA_DIR, load_roster

    for name, extra in (("weapons", weapons), ("armour", armour), ("fighters", fighters)):
        text = (DATA_DIR / f"{name}.toml").read_text()
        (tmp_path / f"{name}.toml").write_text(text + "\n" + extra)
    return load_roster(tmp_path)


def bound(faces=(), **settings):
    """Fencer and knight caught in a bind: attack 14 -> 7 against parry 15 -> 7 (TP-T04). AP 8 each."""
    state = duel([14, 15, *faces], **settings)
    play(state, "proactive:melee_attack", "react:parry", "pass")
    return state


def grappled(faces=()):
    """From the bind, the fencer's unanswered Grapple (d20 17: 17 - 10 + 1 = 8). Fencer 4 AP, knight 8."""
    state = bound([17, *faces])
    play(state, "proactive:grapple", "pass")
    return state
