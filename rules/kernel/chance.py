"""Chance as something to count and enumerate, not only to sample.

Analysis tools (the combo table, exact best responses) ask what a piece of play is worth over *every* way the
dice can fall. They must not reach into an engine for that: they hand a state other dice through its public
``set_dice`` and let the play run. Two such dice live here, both on :class:`~issoku.rules.kernel.dice.DrawDice`
so that every face, including the 2d10 the seeded dice serve from a block, passes through them:

- :class:`CountingDice` plays seeded faces and counts them (is this play small enough to enumerate?);
- :func:`enumerate_chance` replays the play depth-first over every face sequence, each with its exact
  probability, stopping (None) when a sequence needs more than ``max_dice`` faces.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

from issoku.rules.kernel.dice import Dice, DrawDice

T = TypeVar("T")


class CountingDice(DrawDice):
    """Seeded dice that count the faces they draw."""

    __slots__ = ("_source", "drawn")

    def __init__(self, seed: int | None = 0) -> None:
        super().__init__()
        self._source = Dice(seed)
        self.drawn = 0

    def draw(self, sides: int) -> int:
        """The seeded die's next face, counted."""
        self.drawn += 1
        return self._source.die(sides)

    def clone(self) -> "CountingDice":
        """A copy that goes on counting from the same count and draws the same faces."""
        copy = CountingDice.__new__(CountingDice)
        DrawDice.__init__(copy)
        copy._source = self._source.clone()
        copy.drawn = self.drawn
        return copy


class NeedFace(Exception):
    """Prefix dice ran past their faces: the play needs one more die of ``sides`` sides."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class PrefixDice(DrawDice):
    """Dice that play a fixed prefix of faces, then raise :class:`NeedFace` (the depth-first step)."""

    __slots__ = ("_faces", "_used")

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__()
        self._faces = tuple(faces)
        self._used = 0

    def draw(self, sides: int) -> int:
        """The next face of the prefix; past its end, ask for one more die."""
        if self._used >= len(self._faces):
            raise NeedFace(sides)
        self._used += 1
        return self._faces[self._used - 1]

    def clone(self) -> "PrefixDice":
        """A copy at the same point of the same prefix."""
        copy = PrefixDice(self._faces)
        copy._used = self._used
        return copy


def enumerate_chance(play: Callable[[Dice], T], max_dice: int) -> list[tuple[Fraction, T]] | None:
    """Every outcome of ``play`` with its exact probability, or None if some branch needs more than ``max_dice`` faces.

    ``play(dice)`` must run the whole piece of play on those dice (on a fresh copy of the state each call) and
    return its outcome; it is called once per face sequence, depth-first, faces in ascending order. Dice of
    different sizes may mix: each branch point opens the faces of the die the play asked for.
    """
    outcomes: list[tuple[Fraction, T]] = []
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        faces, probability = stack.pop()
        try:
            outcome = play(PrefixDice(faces))
        except NeedFace as need:
            if len(faces) >= max_dice:
                return None
            branch = probability / need.sides
            stack.extend((faces + (face,), branch) for face in range(need.sides, 0, -1))
            continue
        outcomes.append((probability, outcome))
    return outcomes
