"""The dice of 003: d20 checks and d3..d12 damage dice, buffered like the kernel's d10s.

The kernel's :class:`~issoku.rules.kernel.dice.Dice` buffers only d10s and calls numpy once per other
die, which is most of a tempo playout's time (every check is a d20, TP-G01). :class:`BufferedDice`
keeps one block per die size, drawn from the same seeded generator, so the same seed still gives the
same rolls in any process. :class:`ScriptedRolls` scripts every die size for worked examples.
"""

from __future__ import annotations

import numpy as np

from issoku.rules.kernel.dice import Dice, ScriptedDice

_BLOCK = 256


class BufferedDice(Dice):
    """Seeded dice with a buffered block per die size."""

    __slots__ = ("_buffers",)

    def __init__(self, rng: np.random.Generator | int | None) -> None:
        super().__init__(rng)
        self._buffers: dict[int, list] = {}

    def roll(self, count: int, sides: int = 10) -> tuple[int, ...]:
        """``count`` dice of ``sides`` sides, served from that size's block."""
        if sides == 10:
            return super().roll(count)
        return tuple(self.die(sides) for _ in range(count))

    def die(self, sides: int) -> int:
        """One die of ``sides`` sides."""
        buffer = self._buffers.get(sides)
        if buffer is None or buffer[1] >= len(buffer[0]):
            buffer = self._buffers[sides] = [self._rng.integers(1, sides + 1, size=_BLOCK).tolist(), 0]
        value = buffer[0][buffer[1]]
        buffer[1] += 1
        return value

    def clone(self) -> "BufferedDice":
        """An independent copy that will roll the same sequence (blocks are never mutated, only replaced)."""
        base = Dice.clone(self)
        copy = BufferedDice.__new__(BufferedDice)
        copy._rng, copy._block, copy._next = base._rng, base._block, base._next
        copy._buffers = {sides: [block, position] for sides, (block, position) in self._buffers.items()}
        return copy


class ScriptedRolls(ScriptedDice):
    """ScriptedDice for every die size: 003 rolls d20 checks and d3..d12 damage (TP-G01, TP-G03)."""

    __slots__ = ()

    def roll(self, count: int, sides: int = 10) -> tuple[int, ...]:
        """The next ``count`` scripted faces, each checked against the die's size."""
        faces = tuple(self.d10() for _ in range(count))
        for face in faces:
            if not 1 <= face <= sides:
                raise ValueError(f"scripted face {face} cannot come up on a d{sides}")
        return faces

    def clone(self) -> "ScriptedRolls":
        """A copy with the same faces still to come."""
        return ScriptedRolls(list(self._faces))
