"""A tiny ruleset that exercises every part of the kernel protocol the env adapter relies on.

Dice race for 2–3 seats (free-for-all, one team per seat). Each seat has a position, 3 hit points and
a secret boost (1–3, rolled at the start, seen only by its owner). On its turn a seat picks one move:

* ``step``  — advance 1;
* ``dash``  — roll a d10: 4+ advances 2, otherwise the seat stumbles and loses 1 hit point;
* ``boost`` — advance by its secret value, once per fight;
* ``strike`` — attack the next seat still in the race; *that* seat then answers (a second decision
  kind, taken by a seat other than the one whose turn it is): ``dodge`` (d10 6+ takes nothing, else
  2 damage) or ``block`` (1 damage).

A seat at 0 hit points is eliminated at once (return −1, it leaves the env). Reaching ``target`` wins
(+1, everyone else −1); so does being the last seat standing. After ``max_turns`` turns the fight is
truncated with returns 0 for the seats still in it.
"""

from __future__ import annotations

import numpy as np

from issoku.rules.kernel import ActionCodec, Dice, EventLog, IllegalActionError, ObservationSpec

STEP, DASH, BOOST, STRIKE, DODGE, BLOCK = range(6)
MOVE_ACTIONS = [STEP, DASH, BOOST, STRIKE]
ANSWER_ACTIONS = [DODGE, BLOCK]
KINDS = ("move", "answer")
MAX_HP = 3


class ToyRace:
    """The immutable game: number of seats, goal, turn limit."""

    version = 1

    def __init__(self, num_seats: int = 2, target: int = 8, max_turns: int = 60, with_renderer: bool = False) -> None:
        if not 2 <= num_seats <= 3:
            raise ValueError("ToyRace seats 2 or 3")
        self.name = "toy_race"
        self.num_seats = num_seats
        self.target = target
        self.max_turns = max_turns
        self.seat_names = tuple(f"racer_{i}" for i in range(num_seats))
        self.seat_teams = tuple(range(num_seats))
        self.codec = ActionCodec(["step", "dash", "boost", "strike", "dodge", "block"])
        self.action_names = self.codec.names
        self.decision_kinds = KINDS
        others = num_seats - 1
        self.observation_spec = ObservationSpec((
            ("own_position", 1, 0.0, 1.0),
            ("own_hp", 1, 0.0, 1.0),
            ("own_secret", 1, 0.0, 1.0),
            ("own_boost_used", 1, 0.0, 1.0),
            ("other_position", others, 0.0, 1.0),
            ("other_hp", others, 0.0, 1.0),
            ("other_boost_used", others, 0.0, 1.0),
            ("turn", 1, 0.0, 1.0),
            ("decision_kind", len(KINDS), 0.0, 1.0),
        ))
        self.fingerprint = f"toy_race:{num_seats}:{target}:{max_turns}"
        if with_renderer:
            self.render_text = self._render_text

    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True) -> "ToyState":
        """A fresh race; secrets are the first rolls of the seeded dice."""
        dice = Dice(seed)
        events = EventLog(enabled=record_events)
        secrets = [1 + (dice.d10() - 1) % 3 for _ in range(self.num_seats)]
        events.emit("TOY-01", "secrets_rolled", None, count=self.num_seats)
        return ToyState(self, dice, events, [0] * self.num_seats, [MAX_HP] * self.num_seats, secrets,
                        [False] * self.num_seats, 0, 0, None, None)

    def _render_text(self, state: "ToyState") -> str:
        """The optional protocol hook: a one-line track per seat."""
        return "\n".join(f"  {name}: {'#' * state.position[seat]}{'.' * (self.target - state.position[seat])}"
                         f" hp {state.hp[seat]}" for seat, name in enumerate(self.seat_names))


class ToyState:
    """One race in progress (absolute seats)."""

    __slots__ = ("ruleset", "dice", "events", "position", "hp", "secret", "boost_used", "turn_seat", "turns",
                 "striker", "winner")

    def __init__(self, ruleset: ToyRace, dice: Dice, events: EventLog, position: list[int], hp: list[int],
                 secret: list[int], boost_used: list[bool], turn_seat: int, turns: int, striker: int | None,
                 winner: int | None) -> None:
        self.ruleset = ruleset
        self.dice = dice
        self.events = events
        self.position = position
        self.hp = hp
        self.secret = secret
        self.boost_used = boost_used
        self.turn_seat = turn_seat
        self.turns = turns
        self.striker = striker
        self.winner = winner

    # -- whose decision ----------------------------------------------------------------------------

    def _over(self) -> bool:
        return self.winner is not None or self.turns >= self.ruleset.max_turns

    def current_seat(self) -> int | None:
        if self._over():
            return None
        return self._next_alive(self.striker) if self.striker is not None else self.turn_seat

    def decision_kind(self) -> str:
        return "answer" if self.striker is not None else "move"

    def legal_actions(self) -> list[int]:
        if self._over():
            return []
        if self.striker is not None:
            return list(ANSWER_ACTIONS)
        seat = self.turn_seat
        return [a for a in MOVE_ACTIONS if not (a == BOOST and self.boost_used[seat])]

    # -- transitions -------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(action, legal, self.ruleset.action_names, self.decision_kind())
        if self.striker is not None:
            self._answer(action)
            return
        seat = self.turn_seat
        if action == STRIKE:
            self.striker = seat
            self.events.emit("TOY-05", "strike", seat, target=self._next_alive(seat))
            return
        if action == STEP:
            self._advance(seat, 1, "TOY-02")
        elif action == DASH:
            roll = self.dice.d10()
            if roll >= 4:
                self._advance(seat, 2, "TOY-03", roll=roll)
            else:
                self._hurt(seat, 1, "TOY-03", roll=roll)
        else:
            self.boost_used[seat] = True
            self._advance(seat, self.secret[seat], "TOY-04")
        self._end_turn()

    def _answer(self, action: int) -> None:
        defender = self._next_alive(self.striker)
        if action == DODGE:
            roll = self.dice.d10()
            if roll < 6:
                self._hurt(defender, 2, "TOY-06", roll=roll)
            else:
                self.events.emit("TOY-06", "dodged", defender, roll=roll)
        else:
            self._hurt(defender, 1, "TOY-07")
        self.striker = None
        self._end_turn()

    def _advance(self, seat: int, steps: int, rule: str, **numbers: int) -> None:
        before = self.position[seat]
        self.position[seat] = min(self.ruleset.target, before + steps)
        self.events.emit(rule, "advance", seat, before=before, after=self.position[seat], **numbers)
        if self.position[seat] >= self.ruleset.target:
            self.winner = seat
            self.events.emit("TOY-08", "finish", seat)

    def _hurt(self, seat: int, damage: int, rule: str, **numbers: int) -> None:
        before = self.hp[seat]
        self.hp[seat] = max(0, before - damage)
        self.events.emit(rule, "hurt", seat, before=before, after=self.hp[seat], **numbers)
        if self.hp[seat] == 0:
            self.events.emit("TOY-09", "eliminated", seat)
            alive = [s for s in range(self.ruleset.num_seats) if self.hp[s] > 0]
            if len(alive) == 1:
                self.winner = alive[0]
                self.events.emit("TOY-09", "last_standing", alive[0])

    def _end_turn(self) -> None:
        if self.winner is not None:
            return
        self.turns += 1
        self.turn_seat = self._next_alive(self.turn_seat)

    def _next_alive(self, seat: int) -> int:
        n = self.ruleset.num_seats
        for offset in range(1, n + 1):
            other = (seat + offset) % n
            if self.hp[other] > 0:
                return other
        return seat

    # -- outcome -----------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_truncated(self) -> bool:
        return self.winner is None and self.turns >= self.ruleset.max_turns

    def is_eliminated(self, seat: int) -> bool:
        return self.hp[seat] == 0

    def returns(self) -> tuple[float, ...]:
        seats = range(self.ruleset.num_seats)
        if self.winner is not None:
            return tuple(1.0 if s == self.winner else -1.0 for s in seats)
        return tuple(-1.0 if self.hp[s] == 0 else 0.0 for s in seats)

    # -- views -------------------------------------------------------------------------------------

    def observation(self, seat: int) -> np.ndarray:
        rules = self.ruleset
        n = rules.num_seats
        others = [(seat + k) % n for k in range(1, n)]
        vector = [self.position[seat] / rules.target, self.hp[seat] / MAX_HP, self.secret[seat] / 3,
                  float(self.boost_used[seat])]
        vector += [self.position[o] / rules.target for o in others]
        vector += [self.hp[o] / MAX_HP for o in others]
        vector += [float(self.boost_used[o]) for o in others]
        vector.append(min(self.turns, rules.max_turns) / rules.max_turns)
        vector += [float(self.striker is None), float(self.striker is not None)]
        return np.array(vector, dtype=np.float32)

    def clone(self) -> "ToyState":
        return ToyState(self.ruleset, self.dice.clone(), self.events.clone(), self.position[:], self.hp[:],
                        self.secret[:], self.boost_used[:], self.turn_seat, self.turns, self.striker, self.winner)


def toy_env(num_seats: int = 2, target: int = 8, max_turns: int = 60, with_renderer: bool = False, **env_options):
    """An env factory in the registry's shape: ruleset keywords plus the adapter's options."""
    from issoku.envs.adapter import RulesetAECEnv

    return RulesetAECEnv(ToyRace(num_seats, target, max_turns, with_renderer), **env_options)
