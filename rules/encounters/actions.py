"""The flat action table of the encounter duel: every decision the text gives a player.

Structured orders, numbered by an :class:`~issoku.rules.kernel.codec.ActionCodec`:

* ``pass``: end the turn (EN-015), or decline (a Void Point at the start of the round, Endure, the
  Extra Attack).
* ``stance:<air|earth|fire|void|water>``: the opening stance (EN-005) and the stance of each turn (EN-011).
* ``attack[:feint][:<special>][:ed<n>]``: a weapon attack (EN-066) with its raises declared before the
  roll (EN-G03): Feint (EN-078) may be combined with one of Disarm, Knockdown, Push (5 or 10 ft), Pull or Extra
  Attack (EN-075, EN-080, EN-081, EN-076) or a Focused Attack on the head (EN-079, only with the ruleset's
  ``focused_attack`` option, EN-G08) and with 0..3 raises of Extra Damage (EN-077). Tactical Strike
  (EN-082) is in the table but never legal in a duel: it feeds a party's Tactics Pool.
* ``earth_defend``: Earth stance's Defense/Reflexes test (EN-062).
* ``free_move:<toward|away>``, ``simple_move:<toward|away>``, ``crawl:<toward|away>``, ``stand``
  (EN-102, EN-103, EN-121).
* ``let_go``, ``recover_weapon``, ``ready_weapon`` (EN-022, EN-030, EN-020/EN-027).
* ``grapple`` (EN-083) and the grapple actions ``grapple:hit``, ``grapple:throw``, ``grapple:maintain``,
  ``grapple:break`` (EN-093, EN-094, EN-095, EN-096, EN-097); ``grapple:nevermind`` proposes ending the
  grapple, and is the other participant's agreement (EN-099); ``weapon_grapple`` starts one with a weapon that can
  (EN-088).
* ``void:boost`` (arms EN-107 for the next test or contest), ``void:accelerate``, ``void:deflect``
  (EN-106, EN-108, at the start of the round), ``void:endure`` (EN-109, before damage is taken).
* ``guard`` (EN-100) and ``void:swap`` (EN-111) need an ally: in the table, never legal in a duel.
"""

from __future__ import annotations

from dataclasses import dataclass

from issoku.rules.encounters.combat import MANEUVER_RAISES, STANCES
from issoku.rules.kernel import ActionCodec

SPECIALS = ("none", "disarm", "knockdown", "push", "push_10", "pull", "extra_attack", "focus_head", "tactical_strike")
MAX_EXTRA_DAMAGE = 3
DIRECTIONS = ("toward", "away")


@dataclass(frozen=True, slots=True)
class Attack:
    """A declared weapon attack: its maneuvers and the raises they need (EN-G03: raises add up)."""

    feint: bool
    special: str
    extra_damage: int

    @property
    def raises(self) -> int:
        """Raises declared: the sum over the maneuvers called."""
        return ((MANEUVER_RAISES["feint"] if self.feint else 0)
                + (MANEUVER_RAISES[self.special] if self.special != "none" else 0)
                + MANEUVER_RAISES["extra_damage"] * self.extra_damage)

    @property
    def name(self) -> str:
        """``attack``, ``attack:feint:knockdown:ed2``..."""
        parts = ["attack"] + (["feint"] if self.feint else []) + ([self.special] if self.special != "none" else [])
        return ":".join(parts + ([f"ed{self.extra_damage}"] if self.extra_damage else []))


ATTACKS = tuple(Attack(feint, special, extra) for feint in (False, True) for special in SPECIALS
                for extra in range(MAX_EXTRA_DAMAGE + 1))

ORDERS: tuple[object, ...] = (
    ("pass",),
    *(("stance", stance) for stance in STANCES),
    *ATTACKS,
    ("earth_defend",),
    ("guard",),
    *(("free_move", d) for d in DIRECTIONS),
    *(("simple_move", d) for d in DIRECTIONS),
    *(("crawl", d) for d in DIRECTIONS),
    ("stand",),
    ("let_go",),
    ("recover_weapon",),
    ("ready_weapon",),
    ("grapple",),
    ("weapon_grapple",),
    ("grapple", "hit"),
    ("grapple", "throw"),
    ("grapple", "maintain"),
    ("grapple", "break"),
    ("grapple", "nevermind"),
    ("void", "boost"),
    ("void", "accelerate"),
    ("void", "deflect"),
    ("void", "endure"),
    ("void", "swap"),
)


def _name(order: object) -> str:
    if isinstance(order, Attack):
        return order.name
    return ":".join(order)  # type: ignore[arg-type]


CODEC: ActionCodec[object] = ActionCodec(ORDERS, _name)
ACTION_NAMES: tuple[str, ...] = CODEC.names
NUM_ACTIONS = len(CODEC)
PASS = CODEC.encode(("pass",))
STANCE_ACTIONS = {stance: CODEC.encode(("stance", stance)) for stance in STANCES}
ATTACK_ACTIONS = tuple(CODEC.encode(attack) for attack in ATTACKS)


def action(name: str) -> int:
    """The flat action with this stable name (``"attack:feint:ed1"``)."""
    return CODEC.by_name(name)

# Flat actions the rules test for by identity (legality and the state machine share them).
EARTH_DEFEND, GUARD, STAND, LET_GO = action("earth_defend"), action("guard"), action("stand"), action("let_go")
RECOVER, READY_WEAPON, GRAPPLE = action("recover_weapon"), action("ready_weapon"), action("grapple")
WEAPON_GRAPPLE = action("weapon_grapple")
G_HIT, G_THROW, G_MAINTAIN = action("grapple:hit"), action("grapple:throw"), action("grapple:maintain")
G_BREAK, G_NEVERMIND = action("grapple:break"), action("grapple:nevermind")
VOID_BOOST, VOID_ACCELERATE = action("void:boost"), action("void:accelerate")
VOID_DEFLECT, VOID_ENDURE = action("void:deflect"), action("void:endure")
MOVES = {action(f"{kind}:{d}"): (kind, d) for kind in ("free_move", "simple_move", "crawl") for d in DIRECTIONS}
"""Each move action's kind and direction."""


def content_items(name: str) -> tuple[str, ...]:
    """The content items action ``name`` exercises (the kernel's content hook): a weapon attack exercises each
    maneuver it declares with raises (``maneuver:feint``, ``maneuver:knockdown``, ``maneuver:extra_damage``;
    EN-G03), a plain one the ``attack`` itself; any other action is its own item. The slot a skirmish action
    names (``enemy2``, ``ally1``) is no content."""
    parts = [part for part in name.split(":") if not part.startswith(("enemy", "ally"))]
    if parts[0] != "attack":
        return (":".join(parts),)
    if len(parts) == 1:
        return ("attack",)
    return tuple(dict.fromkeys("maneuver:" + ("extra_damage" if part.startswith("ed") else part)
                               for part in parts[1:]))
