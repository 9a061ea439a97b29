"""Dice: the only source of chance in a ruleset.

Every roll comes from one seeded ``numpy.random.Generator`` handed in by the caller (``reset(seed)``
in an env, a seed in a test), never from a global RNG. Draws are taken from the generator in blocks
and served one by one: a scalar ``Generator.integers`` call costs microseconds, and engine playouts
roll a lot. d10s (every 2d10 check) have one block; every other die size (the d20 checks and d3..d12
damage of system 003) has a block of its own, drawn from the same generator when first needed. Block
sizes are fixed, so the same seed gives the same rolls in any process.

Exact distributions (:func:`sum_pmf`, :func:`prob_at_least`) sit beside the sampler so that analysis
(hit and overload probabilities, the combo table) can enumerate chance instead of sampling it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from mypy_extensions import mypyc_attr
import numpy as np

_BLOCK = 512
_CHUNK = 64
"""A d10 block is drawn in chunks of this many, as the rolls need them (a fight rolls about fifty)."""
_OTHER_BLOCK = 256


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A ``dice + modifier >= target`` check, kept whole for the event log."""

    dice: tuple[int, ...]
    modifier: int
    target: int

    @property
    def total(self) -> int:
        """Dice sum plus modifier."""
        return sum(self.dice) + self.modifier

    @property
    def success(self) -> bool:
        """Meeting the target number succeeds (≥ TN, the inventory's convention)."""
        return self.total >= self.target


@dataclass(frozen=True, slots=True)
class ContestResult:
    """Two opposed ``2d10 + modifier`` rolls. ``winner`` is 0 (first side), 1 (second) or None on a tie."""

    dice: tuple[tuple[int, ...], tuple[int, ...]]
    modifiers: tuple[int, int]

    @property
    def totals(self) -> tuple[int, int]:
        """Each side's dice sum plus modifier."""
        return (sum(self.dice[0]) + self.modifiers[0], sum(self.dice[1]) + self.modifiers[1])

    @property
    def winner(self) -> int | None:
        """Index of the higher total; ties are left to the rules (None)."""
        a, b = self.totals
        if a == b:
            return None
        return 0 if a > b else 1


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class Dice:
    """Seeded dice over one ``numpy.random.Generator``.

    ``clone()`` copies the generator and the unread part of the current block, so a cloned game
    state rolls exactly what the original would have rolled. The copy of the generator is made when the clone
    first draws from it (most clones a search makes never do: they read their block, or get new dice): until
    then the clone keeps the generator's state as it was (``_state``), and a new generator costs ten times more.
    """

    __slots__ = ("_rng", "_block", "_next", "_other_blocks", "_owed", "_state")

    def __init__(self, rng: np.random.Generator | int | None) -> None:
        self._rng: np.random.Generator | None = rng if isinstance(rng, np.random.Generator) else \
            np.random.default_rng(rng)
        self._state: tuple[type[np.random.BitGenerator], Mapping[str, Any]] | None = None
        """A clone's generator not made yet: its bit generator's type and state (``_rng`` is None then)."""
        self._block: list[int] = []
        self._next = 0
        self._other_blocks: dict[int, list] = {}
        """Per die size other than 10: ``[block, next index]``."""
        self._owed = 0
        """d10s of the current block of ``_BLOCK`` not drawn from the generator yet (see :meth:`_more_d10s`)."""

    def _more_d10s(self) -> None:
        """Draw the next chunk of d10s, the current block is read.

        A block of ``_BLOCK`` d10s is drawn in chunks of ``_CHUNK`` (the first costs a fight's set-up about
        half as much as the whole block): ``integers`` draws each d10 from the generator's next 32 bits and
        keeps nothing between calls, so consecutive chunks are the block's d10s. Before another die size
        draws its block, :meth:`_draw_owed_d10s` draws the rest, so every draw keeps its place in the stream.
        """
        if not self._owed:
            self._owed = _BLOCK
        count = _CHUNK if self._owed > _CHUNK else self._owed
        self._owed -= count
        self._block = self._generator().integers(1, 11, size=count).tolist()
        self._next = 0

    def _draw_owed_d10s(self) -> None:
        """Draw what is left of the current d10 block now (another die size is about to draw)."""
        if self._owed:
            self._block = self._block[self._next:] + self._generator().integers(1, 11, size=self._owed).tolist()
            self._next = 0
            self._owed = 0

    def d10(self) -> int:
        """One ten-sided die, 1..10."""
        if self._next >= len(self._block):
            self._more_d10s()
        value = self._block[self._next]
        self._next += 1
        return value

    def die(self, sides: int) -> int:
        """One die of ``sides`` sides, 1..sides."""
        if sides == 10:
            return self.d10()
        buffer = self._other_blocks.get(sides)
        if buffer is None or buffer[1] >= len(buffer[0]):
            self._draw_owed_d10s()
            buffer = self._other_blocks[sides] = [self._generator().integers(1, sides + 1, size=_OTHER_BLOCK).tolist(),
                                                  0]
        value = buffer[0][buffer[1]]
        buffer[1] += 1
        return value

    def roll(self, count: int, sides: int = 10) -> tuple[int, ...]:
        """``count`` dice of ``sides`` sides."""
        if sides == 10:
            start = self._next
            end = start + count
            if end <= len(self._block):  # the common case: straight from the block (what d10() would read)
                self._next = end
                return tuple(self._block[start:end])
            return tuple(self.d10() for _ in range(count))
        return tuple(self.die(sides) for _ in range(count))

    def check(self, modifier: int, target: int, count: int = 2) -> CheckResult:
        """``count``d10 + modifier against a target number (2d10 by default, the canon check)."""
        return CheckResult(dice=self.roll(count), modifier=modifier, target=target)

    def contest(self, modifier_a: int, modifier_b: int) -> ContestResult:
        """Opposed 2d10 rolls; side a rolls first, which only matters for reproducibility."""
        return ContestResult(dice=(self.roll(2), self.roll(2)), modifiers=(modifier_a, modifier_b))

    def exploding_d10(self, explode_on: int = 10) -> tuple[int, ...]:
        """One d10 that is rolled again and added while it shows ``explode_on`` or more (system 001)."""
        faces = [self.d10()]
        while faces[-1] >= explode_on:
            faces.append(self.d10())
        return tuple(faces)

    def roll_and_keep(self, roll: int, keep: int, explode_on: int | None = 10) -> tuple[tuple[int, ...], int]:
        """XkY: roll ``roll`` d10s (exploding unless ``explode_on`` is None), keep the ``keep`` highest.

        Returns the per-die totals (highest first) and the kept sum.
        """
        if explode_on is None:
            dice = [self.d10() for _ in range(roll)]
        else:
            dice = [sum(self.exploding_d10(explode_on)) for _ in range(roll)]
        dice.sort(reverse=True)
        return tuple(dice), sum(dice[:keep])

    def _generator(self) -> np.random.Generator:
        """The generator to draw from; a clone's is made here, at its first draw, from the state it kept."""
        rng = self._rng
        if rng is None:
            assert self._state is not None  # one of the two is always set
            kind, state = self._state
            bit_generator = kind()
            bit_generator.state = state
            rng = self._rng = np.random.Generator(bit_generator)
            self._state = None
        return rng

    def clone(self) -> "Dice":
        """An independent copy that will roll the same sequence (its generator made when it first draws)."""
        copy = Dice.__new__(Dice)
        if self._rng is None:
            copy._rng, copy._state = None, self._state  # the state dict is never changed, only replaced
        else:
            bit_generator = self._rng.bit_generator
            copy._rng, copy._state = None, (type(bit_generator), bit_generator.state)
        copy._block = self._block  # blocks are never mutated, only replaced
        copy._next = self._next
        copy._owed = self._owed
        copy._other_blocks = {sides: [block, position] for sides, (block, position) in self._other_blocks.items()}
        return copy


class DrawDice(Dice):
    """Dice whose every face comes through one overridable method, :meth:`draw`.

    The seeded :class:`Dice` serves 2d10 straight from its block for speed, so a subclass that overrode
    ``d10`` alone would miss those faces. Subclass this instead (scripted faces, counting, exact enumeration
    in :mod:`issoku.rules.kernel.chance`): ``d10``, ``die``, ``roll`` and everything built on them ask ``draw``.
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(0)

    def draw(self, sides: int) -> int:
        """The next face of a die of ``sides`` sides."""
        raise NotImplementedError

    def d10(self) -> int:
        """One ten-sided die, through :meth:`draw`."""
        return self.draw(10)

    def die(self, sides: int) -> int:
        """One die of ``sides`` sides, through :meth:`draw`."""
        return self.draw(sides)

    def roll(self, count: int, sides: int = 10) -> tuple[int, ...]:
        """``count`` dice, each through :meth:`draw`."""
        return tuple(self.draw(sides) for _ in range(count))


class ScriptedDice(DrawDice):
    """Dice that return a fixed list of faces, for worked examples and table-driven rule tests."""

    __slots__ = ("_faces",)

    def __init__(self, faces: list[int]) -> None:
        super().__init__()
        self._faces = list(faces)

    def draw(self, sides: int) -> int:
        """The next scripted face, which must fit the die (a face of 15 on a d10 is a test bug); running out
        is a test bug too, so it raises."""
        if not self._faces:
            raise IndexError("ScriptedDice ran out of faces")
        face = self._faces.pop(0)
        if not 1 <= face <= sides:
            raise ValueError(f"scripted face {face} cannot come up on a d{sides}")
        return face

    def clone(self) -> "ScriptedDice":
        """A copy with the same faces still to come."""
        return ScriptedDice(list(self._faces))


@lru_cache(maxsize=None)
def sum_pmf(count: int = 2, sides: int = 10) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``count`` dice of ``sides`` sides."""
    pmf: dict[int, Fraction] = {0: Fraction(1)}
    face = Fraction(1, sides)
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for total, p in pmf.items():
            for value in range(1, sides + 1):
                nxt[total + value] = nxt.get(total + value, Fraction(0)) + p * face
        pmf = nxt
    return pmf


@lru_cache(maxsize=4096)
def prob_at_least(threshold: int, count: int = 2, sides: int = 10) -> Fraction:
    """P(sum of ``count`` d``sides`` ≥ threshold), exactly."""
    return sum((p for total, p in sum_pmf(count, sides).items() if total >= threshold), Fraction(0))


def prob_check(modifier: int, target: int, count: int = 2) -> Fraction:
    """P(``count``d10 + modifier ≥ target), exactly."""
    return prob_at_least(target - modifier, count)
