"""The encounter skirmish's flat action table: the duel's table, then the orders that name another character.

The duel's 102 actions keep their numbers (so ``pass``, the stances, Void Points and the weapon handling are
the same flats in both envs); the duel's own attacks and moves, which are about "the opponent", are never
legal in a skirmish. Appended, over padded slots (``CAPACITY`` a side, ego-centric):

* ``<attack>:enemy<k>``: every attack of the duel's table (EN-066, raises declared, EN-G03) against enemy
  ``k`` (0..3), Tactical Strike included (EN-082);
* ``guard:ally<k>``: Guard the ``k``-th ally (1..3, EN-100); ``void:swap:ally<k>`` (EN-111);
* ``<free_move|simple_move|crawl>:<toward|away>:enemy<k>`` and ``...:toward:ally<k>`` (EN-101, EN-102, EN-103, EN-104
  on the grid, EN-G10);
* ``tactics:free_raise``: take a Free Raise from the side's Tactics Pool for the next attack (EN-G09);
* grapples among many (EN-083..EN-099): ``grapple:enemy<k>`` and ``weapon_grapple:enemy<k>`` start a grapple with an
  adjacent enemy or join the one it is in (EN-084); ``grapple:hit:enemy<k>``, ``grapple:throw:enemy<k>``;
  ``grapple:drag:away:enemy<k>`` and ``grapple:drag:toward:ally<k>`` (EN-096). ``grapple:break``,
  ``grapple:maintain`` and ``grapple:nevermind`` are the duel's own flats.
"""

from __future__ import annotations

from issoku.rules.encounters.actions import ACTION_NAMES, ATTACKS, DIRECTIONS, GUARD, ORDERS, action
from issoku.rules.kernel import ActionCodec

CAPACITY = 4
"""The most fighters a side may field; ally and enemy slots are padded to it."""
ENEMY_SLOTS = tuple(f"enemy{k}" for k in range(CAPACITY))
ALLY_SLOTS = tuple(f"ally{k}" for k in range(1, CAPACITY))
MOVE_KINDS = ("free_move", "simple_move", "crawl")
VOID_SWAP = action("void:swap")

_TARGETED: tuple[tuple[str, ...], ...] = (
    *((attack.name, slot) for slot in ENEMY_SLOTS for attack in ATTACKS),
    *(("guard", slot) for slot in ALLY_SLOTS),
    *(("void:swap", slot) for slot in ALLY_SLOTS),
    *((f"{kind}:{d}", slot) for kind in MOVE_KINDS for d in DIRECTIONS for slot in ENEMY_SLOTS),
    *((f"{kind}:toward", slot) for kind in MOVE_KINDS for slot in ALLY_SLOTS),
    *((start, slot) for start in ("grapple", "weapon_grapple", "grapple:hit", "grapple:throw") for slot in ENEMY_SLOTS),
)
_DRAGS: tuple[tuple[str, ...], ...] = (
    *(("grapple:drag:away", slot) for slot in ENEMY_SLOTS),
    *(("grapple:drag:toward", slot) for slot in ALLY_SLOTS),
)
_DUEL_NAMES: dict[object, str] = dict(zip(ORDERS, ACTION_NAMES))
SKIRMISH_CODEC: ActionCodec[object] = ActionCodec(
    (*ORDERS, *_TARGETED, ("tactics", "free_raise"), *_DRAGS),
    lambda order: _DUEL_NAMES.get(order) or ":".join(order))  # type: ignore[arg-type]
SKIRMISH_ACTION_NAMES: tuple[str, ...] = SKIRMISH_CODEC.names
TACTICS_RAISE = SKIRMISH_CODEC.by_name("tactics:free_raise")

TARGETED: dict[int, tuple[int, str, int]] = {
    SKIRMISH_CODEC.encode(order): (action(order[0]), order[1][:-1], int(order[1][-1])) for order in _TARGETED}
"""Each appended flat action: (the duel's flat action it plays, ``"enemy"`` or ``"ally"``, the slot number)."""
BY_TARGET: dict[tuple[int, str, int], int] = {value: flat for flat, value in TARGETED.items()}
"""The inverse: (duel flat, ``"enemy"``/``"ally"``, slot) to the skirmish's flat action."""
DRAGS: dict[int, tuple[str, str, int]] = {
    SKIRMISH_CODEC.encode(order): (order[0].rsplit(":", 1)[1], order[1][:-1], int(order[1][-1])) for order in _DRAGS}
"""Each Drag (EN-096): (``"toward"``/``"away"``, ``"enemy"``/``"ally"``, slot)."""
DRAG_BY_TARGET: dict[tuple[str, str, int], int] = {value: flat for flat, value in DRAGS.items()}

__all__ = ["ALLY_SLOTS", "BY_TARGET", "CAPACITY", "DRAGS", "DRAG_BY_TARGET", "ENEMY_SLOTS", "GUARD",
           "SKIRMISH_ACTION_NAMES", "SKIRMISH_CODEC", "TACTICS_RAISE", "TARGETED", "VOID_SWAP"]
