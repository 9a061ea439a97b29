"""Extension points: how a variant (Ma and Blade, spells, the skirmish's zones) adds to the breath engine.

A variant is a :class:`BreathModule` handed to :class:`~issoku.rules.breath.ruleset.BreathRuleset`.
It is composition, not inheritance: the engine owns the count, the breath, Energy, reservations,
attacks and Wounds, and calls each module at the points below. A module adds

* **orders** (actions) of its own kinds to the action table (``extra_orders``), which the engine offers
  at its decisions (``order_legal``, or ``legal_orders`` for all its orders at once) and hands back to it
  (``apply_order``);
* **decisions** of its own kinds (``decision_kinds``): it pushes a :class:`Pending` onto the state's stack
  (``state.push(...)``) and resolves it when the deciding seat answers (``pending_legal`` /
  ``resolve_pending``);
* **modifiers** to attack checks, to every check a fighter rolls (``check_modifiers``: "all checks −2"),
  Energy costs, Defense and Wounds, and **vetoes** on attacks;
* **per-fight data** (``new_data``; anything with a ``clone()``), kept at ``state.ext[module.name]``;
* **observation fields** and a line of rendering.

Every hook has a no-op default, so a module overrides only what it changes. Hooks receive the live
:class:`~issoku.rules.breath.engine.BreathState`; they may call its public helpers (``state.emit``,
``state.dice``, ``state.pay``, ``state.declare_attack``, ``state.target_in_slot``...).
"""

from __future__ import annotations

from collections.abc import Container, Hashable, MutableSequence, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mypy_extensions import mypyc_attr

from issoku.rules.breath.costs import Modifier

if TYPE_CHECKING:
    from issoku.rules.breath.content import Catalog, Technique
    from issoku.rules.breath.engine import Attack, BreathState
    from issoku.rules.breath.fighter import Fighter
    from issoku.rules.kernel.encoding import FieldEncoding

Order = tuple[Any, ...]


class Pending:
    """A decision the rules wait for: ``kind`` (a decision kind), the ``seat`` that decides, the context.

    ``owner`` is the module that resolves it (None for the engine's own ``defend`` and ``counter``).
    """

    __slots__ = ("kind", "seat", "context", "owner")

    def __init__(self, kind: str, seat: int, context: Any = None, owner: "BreathModule | None" = None) -> None:
        self.kind = kind
        self.seat = seat
        self.context = context
        self.owner = owner


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: variants and tests subclass it in Python
class BreathModule:
    """Base class of a variant; every hook is a no-op (see the module docstring)."""

    name: str = "module"
    order_kinds: ClassVar[tuple[str, ...]] = ()
    """First element of every order this module adds; the engine routes those orders to it."""
    decision_kinds: ClassVar[tuple[str, ...]] = ()

    # -- setup -----------------------------------------------------------------------------------
    def extra_orders(self, catalog: "Catalog", max_targets: int) -> list[Order]:
        """Orders (hashable tuples) appended to the action table, in a fixed order."""
        return []

    def order_content(self, order: Order) -> tuple[str, ...]:
        """The content items one of this module's orders exercises (``"category:item"``); empty: the order itself."""
        return ()

    def new_data(self, state: "BreathState") -> Any:
        """Per-fight data (must have ``clone()``), created with the initial state."""
        return None

    # -- orders and decisions --------------------------------------------------------------------
    def order_legal(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """Whether ``fighter`` may play one of this module's orders now, in its breath."""
        return False

    def legal_orders(self, state: "BreathState", fighter: "Fighter", orders: Sequence[Order]) -> Container[Order]:
        """Which of ``orders`` (this module's, as a breath decision of ``fighter`` could offer them) it may
        play now; what :meth:`order_legal` says of each. The engine asks once per breath decision it scans;
        a module that knows the whole set at once (from a memo) may return it, extra orders and all."""
        return {order for order in orders if self.order_legal(state, fighter, order)}

    def legal_key(self, state: "BreathState", fighter: "Fighter") -> Hashable | None:
        """What this module's breath-decision hooks (``order_legal``, ``legal_orders``, ``attack_allowed``,
        ``cost_modifiers``) read of the fight beyond the engine's own situation key (the acting
        fighter's seat, weapon, Energy, stance, flags, 0-Energy and [Kata] uses, Core Zone flag, and
        who is defeated); ``None``: not memoisable.

        The engine memoises a breath decision's legal actions on the two keys together, so a module
        whose hooks read more must return it here. It also memoises the prices of its own maneuvers on
        the two keys less the Energy (they are legal when price <= Energy), so a module whose
        ``attack_allowed`` or ``cost_modifiers`` reads the Energy must put it in its key too. The default is ``()`` for a module that overrides
        none of those hooks and ``None`` (no memo, always correct) for one that overrides any.
        """
        cls = type(self)
        if (cls.order_legal is BreathModule.order_legal and cls.legal_orders is BreathModule.legal_orders
                and cls.attack_allowed is BreathModule.attack_allowed
                and cls.cost_modifiers is BreathModule.cost_modifiers):
            return ()
        return None

    def apply_order(self, state: "BreathState", fighter: "Fighter", order: Order) -> None:
        """Carry out one of this module's orders in ``fighter``'s breath."""

    def pending_legal(self, state: "BreathState", pending: Pending, order: Order) -> bool:
        """Whether ``order`` answers this module's pending decision; the engine asks only about this
        module's own orders (those of its ``order_kinds``), the only answers its decisions can take."""
        return False

    def resolve_pending(self, state: "BreathState", pending: Pending, order: Order) -> None:
        """Carry out the answer to this module's pending decision (already popped from the stack)."""

    # -- the rules' arithmetic -------------------------------------------------------------------
    def attack_allowed(self, state: "BreathState", attacker: "Fighter", target: "Fighter",
                       technique: "Technique") -> bool:
        """Veto an attack technique (out of range, in a bind...)."""
        return True

    def attack_modifiers(self, state: "BreathState", attack: "Attack") -> list[Modifier]:
        """Named modifiers to an attack check, before the roll."""
        return []

    def cost_modifiers(self, state: "BreathState", fighter: "Fighter", technique: "Technique | None",
                       order: Order) -> list[Modifier]:
        """Named Energy penalties/bonuses for an order (Rule 2 sums them with the engine's own)."""
        return []

    def check_modifiers(self, state: "BreathState", fighter: "Fighter") -> list[Modifier]:
        """Named modifiers on *every* check ``fighter`` rolls (attack, defense, overload, a module's own
        contests): "all checks −2" from a face wound, glare. ``state.check_modifiers`` gathers them."""
        return []

    def defense_modifiers(self, state: "BreathState", attack: "Attack") -> tuple[int, int]:
        """``(defense_bonus, direct)``: Defense added, and extra [Direct N] for this attack."""
        return 0, 0

    def defense_roll_modifiers(self, state: "BreathState", attack: "Attack", defender: "Fighter") -> list[Modifier]:
        """Named modifiers to a triggered defense technique's roll."""
        return []

    def forces_critical(self, state: "BreathState", attack: "Attack") -> bool:
        """Make a hit Critical without doubles (a Ma-and-Blade guard-break window)."""
        return False

    def hit_wounds(self, state: "BreathState", attack: "Attack", wounds: int) -> int:
        """Adjust the Wounds a hit removes (a torso hit +1; sparring turns them into points: 0)."""
        return wounds

    def after_attack(self, state: "BreathState", attack: "Attack", hit: bool) -> None:
        """React to a resolved attack (guard shaving, location effects, points)."""

    def may_veto(self, state: "BreathState", fighter: "Fighter") -> bool:
        """Whether :meth:`vetoes_order` may forbid ``fighter`` anything now; False spares the engine asking it order
        by order (a module that vetoes only in some situation says when)."""
        return True

    def vetoes_order(self, state: "BreathState", fighter: "Fighter", order: Order) -> bool:
        """Forbid an order the engine or another module offers ``fighter`` now (a caster preparing a spell
        may not relocate nor take another stance, SP-036/SP-037). Asked only of modules that override it, and
        only when a legal set is computed afresh (``legal_key`` must cover what it reads)."""
        return False

    def on_stance_end(self, state: "BreathState", fighter: "Fighter", why: str) -> None:
        """``fighter``'s stance has just ended: ``released`` (BR-079), ``replaced`` by another (BR-078) or
        ``defenseless`` (BR-G11); ``fighter.stance`` still holds the stance that ends (a spell's
        preparation is interrupted, SP-039)."""

    def breath_expansions(self, state: "BreathState", fighter: "Fighter") -> list[Modifier]:
        """Named one-breath limit expansions (BR-009)."""
        return []

    def is_defeated(self, state: "BreathState", fighter: "Fighter") -> bool:
        """An extra way to lose (sparring points); Wounds at 0 always defeat."""
        return False

    # -- the timeline ----------------------------------------------------------------------------
    def on_breath_start(self, state: "BreathState", fighter: "Fighter") -> None:
        """A breath begins."""

    def on_lull(self, state: "BreathState") -> None:
        """The lull (BR-006), before the next round's reset."""

    def on_round_start(self, state: "BreathState") -> None:
        """A new round begins, after the Energy reset."""

    # -- observation and rendering ---------------------------------------------------------------
    def observation_fields(self, num_fighters: int) -> Sequence[tuple[str, int, float, float]]:
        """Extra ``(name, size, low, high)`` observation fields; ``num_fighters`` is the number of fighter
        slots (``ruleset.observed_slots``)."""
        return ()

    def observation_encodings(self, slots: Sequence[str]) -> "Sequence[FieldEncoding] | None":
        """What fills each of :meth:`observation_fields`, in order (:mod:`issoku.rules.kernel.encoding`); ``slots``
        labels the fighter slots. None (the default for a module with fields) where the module does not say: its
        ruleset's observation then has no encodings, and an export cannot describe it to a port."""
        return None if self.observation_fields(len(slots)) else ()

    def describe_observation(self, state: "BreathState", order: Sequence[int | None]) -> dict[str, Any]:
        """The game values of this module's fields for the observer whose slots are ``order``, in the terms of
        :meth:`observation_encodings` (``GameState.describe_observation``)."""
        return {}

    def write_observation(self, state: "BreathState", order: Sequence[int | None], out: MutableSequence[float]) -> None:
        """Fill this module's fields of ``out``, the observation being built (a ``memoryview`` of an
        ``array.array("f")``, zeros where nothing was written, that becomes the float32 observation): store
        and read single values by index.
        ``order`` lists seats ego-first, one per observation slot (None: an empty padded slot, only under
        a ruleset ``capacity``)."""

    def render_line(self, state: "BreathState") -> str:
        """One line for the text rendering ('' for none)."""
        return ""
