"""Named modifiers of the duel's opposed rolls, so contest events show where every point came from."""

from __future__ import annotations

Modifier = tuple[str, int]
"""A named modifier, ``("finesse", 3)``, named as the breath engine names its own."""
SeatModifiers = tuple[tuple[Modifier, ...], tuple[Modifier, ...]]
"""Each seat's named modifiers for one contest, seat 0 first."""


def summed(modifiers: SeatModifiers) -> tuple[int, int]:
    """Each seat's total modifier."""
    return (sum(delta for _, delta in modifiers[0]), sum(delta for _, delta in modifiers[1]))
