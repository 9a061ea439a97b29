"""Structured orders <-> flat ``Discrete(N)`` actions.

A ruleset lists its structured orders once (e.g. ``("attack", "uchigatana.horizontal_cut", "wrist")``,
``("reserve", "parry")``, ``("end_breath",)``); the codec numbers them in that order and names them.
``N`` is derived from the list, never written as a literal, and the round trip
``decode(encode(order)) == order`` holds by construction (tests check it for every ruleset).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Generic, TypeVar

Order = TypeVar("Order", bound=Hashable)


def default_name(order: Hashable) -> str:
    """``("attack", "thrust", "wrist")`` -> ``"attack:thrust:wrist"``."""
    if isinstance(order, tuple):
        return ":".join(str(part) for part in order if part is not None)
    return str(order)


class ActionCodec(Generic[Order]):
    """An ordered, duplicate-free table of structured orders."""

    __slots__ = ("_orders", "_index", "names")

    def __init__(self, orders: Iterable[Order], name: Callable[[Order], str] = default_name) -> None:
        self._orders: tuple[Order, ...] = tuple(orders)
        self._index: dict[Order, int] = {}
        for i, order in enumerate(self._orders):
            if order in self._index:
                raise ValueError(f"action {order!r} listed twice")
            self._index[order] = i
        self.names: tuple[str, ...] = tuple(name(order) for order in self._orders)
        if len(set(self.names)) != len(self.names):
            raise ValueError("two actions share a name")

    def __len__(self) -> int:
        return len(self._orders)

    def encode(self, order: Order) -> int:
        """The flat action of a structured order (KeyError if the table lacks it)."""
        return self._index[order]

    def decode(self, action: int) -> Order:
        """The structured order of a flat action."""
        return self._orders[action]

    def by_name(self, name: str) -> int:
        """The flat action with this name (scenario files and the play command use names)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"no action named {name!r}") from None

    @property
    def orders(self) -> Sequence[Order]:
        """All structured orders in action order."""
        return self._orders
