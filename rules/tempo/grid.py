"""The skirmish's square grid (TP-G07): Chebyshev distance, straight-line steps, the opening line-up.

The duel needs one distance; a skirmish needs where everyone stands. Squares are ``(x, y)`` pairs on a
board of ``size`` squares a side. A step toward another square moves one square on each axis that
differs (so the Chebyshev distance drops by exactly one); a step away does the opposite, sliding along
an edge when the straight step would leave the board. Squares are never blocked (docs/rules/tempo.md,
TP-G07): only distances to the fighters that react or are aimed at matter.
"""

from __future__ import annotations

Square = tuple[int, int]


def chebyshev(a: Square, b: Square) -> int:
    """TP-G07: squares between ``a`` and ``b``, diagonals counting one."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def step_toward(square: Square, anchor: Square) -> Square:
    """One square straight toward ``anchor`` (the distance drops by one; no move when already there)."""
    return (square[0] + _sign(anchor[0] - square[0]), square[1] + _sign(anchor[1] - square[1]))


def step_away(square: Square, anchor: Square, size: int) -> Square:
    """One square that raises the distance to ``anchor`` by one: straight away if the board allows, else
    sliding along the edge; ``square`` itself when no neighbouring square on the board is farther."""
    x, y = square
    ax, ay = anchor
    sx, sy = _sign(x - ax), _sign(y - ay)
    if sx == sy == 0:
        sx = 1
    distance = max(abs(x - ax), abs(y - ay))
    for mx, my in ((sx, sy), (sx, 0), (0, sy), (sx, 1), (sx, -1), (1, sy), (-1, sy)):
        cx, cy = x + mx, y + my
        if 0 <= cx < size and 0 <= cy < size and max(abs(cx - ax), abs(cy - ay)) > distance:   # chebyshev
            return (cx, cy)
    return square


def walk(square: Square, anchor: Square, distance: int, size: int) -> Square:
    """Where a fighter on ``square`` ends when it moves straight toward or away from ``anchor`` until it
    stands ``distance`` squares from it (or the board's edge stops it)."""
    while chebyshev(square, anchor) > distance:
        square = step_toward(square, anchor)
    while chebyshev(square, anchor) < distance:
        farther = step_away(square, anchor, size)
        if farther == square:
            break
        square = farther
    return square


def line_up(sides: tuple[int, int], start_distance: int, size: int) -> list[Square]:
    """The opening squares, seat by seat: each side a column two squares apart, centred on the board,
    the two columns ``start_distance`` apart (side 0 to the west)."""
    x0 = (size - 1 - start_distance) // 2
    squares = []
    for side, count in enumerate(sides):
        x = x0 + side * start_distance
        top = size // 2 - (count - 1)
        squares += [(x, top + 2 * k) for k in range(count)]
    return squares
