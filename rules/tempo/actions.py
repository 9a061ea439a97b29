"""The 003 action catalogue and the flat action codec of the tempo duel.

A *technique* is one action of the text (Parry, Combat Move...) with its AP cost, allowed statuses,
action-check skill, outcome table, and what it answers or replaces. A flat *action* is one technique
as a decision: ``proactive:melee_attack``, ``proactive:move:close``, ``react:parry``,
``ct:counter_attack`` and ``pass`` (end the turn / no reaction / keep the original action). The
numbering comes from :data:`CODEC`; every per-action table below is indexed by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from issoku.rules.kernel import ActionCodec
from issoku.rules.tempo import tables as t

# Statuses (TP-016, TP-017, TP-018, TP-019, TP-020), as indices and bits.
OFF_GUARD, ON_GUARD, BOUND, GRAPPLED, PINNED = range(5)
STATUS_NAMES = ("off_guard", "on_guard", "bound", "grappled", "pinned")
ANY_STATUS = 0b11111

# Skills (TP-G01), as indices into a fighter's skill tuple.
MELEE, RANGED, WRESTLING, ATHLETICS, DEFENCE, ENDURANCE = range(6)
SKILL_NAMES = ("melee", "ranged", "wrestling", "athletics", "defence", "endurance")

PROACTIVE, REACTIVE, COUNTER_TEMPO, SPECIAL = "proactive", "reactive", "counter_tempo", "special"
"""Action types: proactive on one's own turn (TP-011), reactive on an opponent's in response (TP-012),
counter-tempo on one's turn replacing the proactive action (TP-013). TP-A01: a technique with ``responds_to``
is reactive, with ``replaces`` counter-tempo, the rest proactive; an action is opposable when some technique
responds to it. TP-A02: a status's allowed actions are those whose ``statuses`` include it."""

# What a technique does when it resolves (TempoState._effect dispatches on it).
STRIKE = "strike"          # damage on a hit / critical (TP-029, TP-031, TP-032, TP-034, TP-036, TP-037, TP-039,
#                            TP-045, TP-047)
STOP = "stop"              # success makes the opposed action fail (TP-038, TP-040, TP-041, TP-043, TP-044, TP-046)
MOVE = "move"              # distance change (TP-023, TP-024, TP-042)
STATE = "state"            # a status or flag change (ready, aim, disarm, grapple, pin, escape, withdraw...)
NOTHING = "nothing"        # feint: a feint that resolves has no effect (TP-027)


def _bits(*statuses: int) -> int:
    mask = 0
    for status in statuses:
        mask |= 1 << status
    return mask


@dataclass(frozen=True, slots=True)
class Technique:
    """One 003 action. ``cost`` None means "By Weapon" (TP-G04); ``skill`` None means no check (result 0)."""

    name: str
    kind: str
    rule: str
    cost: int | None
    statuses: int
    skill: int | None
    table: t.OutcomeTable
    effect: str
    responds_to: frozenset[str] = frozenset()
    replaces: frozenset[str] = frozenset()

    def allowed_in(self, status: int) -> bool:
        """TP-014: may a fighter in ``status`` take this technique?"""
        return bool(self.statuses >> status & 1)


_OG = _bits(ON_GUARD)
TECHNIQUES: dict[str, Technique] = {tech.name: tech for tech in (
    # Proactive (TP-022..TP-035) and the added Recover Weapon (TP-G10).
    Technique("aim", PROACTIVE, "TP-022", 4, _OG, None, t.SUCCESS_AT_0, STATE),
    Technique("move", PROACTIVE, "TP-023", 2, _bits(OFF_GUARD, ON_GUARD), None, t.SUCCESS_AT_0, MOVE),
    Technique("combat_move", PROACTIVE, "TP-024", 3, _OG, ATHLETICS, t.MOVEMENT, MOVE),
    Technique("disarm", PROACTIVE, "TP-025", None, _bits(BOUND), MELEE, t.SUCCESS_AT_8, STATE),
    Technique("escape", PROACTIVE, "TP-026", 3, _bits(GRAPPLED, PINNED), WRESTLING, t.SUCCESS_AT_1, STATE),
    Technique("feint", PROACTIVE, "TP-027", None, _OG, MELEE, t.FEINT, NOTHING),
    Technique("grapple", PROACTIVE, "TP-028", None, _bits(BOUND), WRESTLING, t.SUCCESS_AT_8, STATE),
    Technique("melee_attack", PROACTIVE, "TP-029", None, _OG, MELEE, t.STRIKE, STRIKE),
    Technique("pin", PROACTIVE, "TP-030", 3, _bits(GRAPPLED), WRESTLING, t.PIN, STATE),
    Technique("press", PROACTIVE, "TP-031", None, _bits(BOUND), MELEE, t.PRESS, STRIKE),
    Technique("ranged_attack", PROACTIVE, "TP-032", None, _OG, RANGED, t.STRIKE, STRIKE),
    Technique("ready", PROACTIVE, "TP-033", 1, _bits(OFF_GUARD), None, t.ALWAYS, STATE),
    Technique("unarmed_attack", PROACTIVE, "TP-034", 3, _bits(GRAPPLED, ON_GUARD), WRESTLING, t.STRIKE, STRIKE),
    Technique("withdraw", PROACTIVE, "TP-035", 2, _bits(BOUND), MELEE, t.SUCCESS_AT_1, STATE),
    Technique("recover_weapon", PROACTIVE, "TP-G10", 2, _bits(OFF_GUARD, ON_GUARD), None, t.ALWAYS, STATE),
    Technique("reload", PROACTIVE, "TP-G04", None, _bits(OFF_GUARD, ON_GUARD), None, t.ALWAYS, STATE),
    # Reactive (TP-036..TP-044).
    Technique("counter_attack", REACTIVE, "TP-036", None, _OG, MELEE, t.STRIKE, STRIKE,
              responds_to=frozenset({"move", "combat_move", "melee_attack", "unarmed_attack"})),
    Technique("counter_fire", REACTIVE, "TP-037", None, _OG, RANGED, t.STRIKE, STRIKE,
              responds_to=frozenset({"aim", "move", "combat_move"})),
    Technique("dodge", REACTIVE, "TP-038", 2, _OG, ATHLETICS, t.SUCCESS_AT_0, STOP,
              responds_to=frozenset({"ranged_attack"})),
    Technique("double", REACTIVE, "TP-039", None, _bits(BOUND), MELEE, t.STRIKE, STRIKE,
              responds_to=frozenset({"disarm", "grapple", "press", "withdraw"})),
    Technique("evade", REACTIVE, "TP-040", 2, _OG, ATHLETICS, t.SUCCESS_AT_0, STOP,
              responds_to=frozenset({"melee_attack", "unarmed_attack"})),
    Technique("parry", REACTIVE, "TP-041", None, _OG, MELEE, t.PARRY, STOP,
              responds_to=frozenset({"melee_attack", "unarmed_attack"})),
    Technique("retreat", REACTIVE, "TP-042", 3, _OG, ATHLETICS, t.MOVEMENT, MOVE,   # TP-A06: toward or away
              responds_to=frozenset({"move", "combat_move"})),
    Technique("struggle", REACTIVE, "TP-043", 3, _bits(GRAPPLED), WRESTLING, t.SUCCESS_AT_0, STOP,
              responds_to=frozenset({"escape", "pin", "unarmed_attack"})),
    Technique("wind", REACTIVE, "TP-044", None, _bits(BOUND), MELEE, t.SUCCESS_AT_0, STOP,
              responds_to=frozenset({"disarm", "grapple", "press", "withdraw"})),
    # Counter-tempo (TP-045, TP-046, TP-047).
    Technique("ct_counter_attack", COUNTER_TEMPO, "TP-045", None, _OG, MELEE, t.STRIKE, STRIKE,
              responds_to=frozenset({"counter_attack"}), replaces=frozenset({"feint", "melee_attack"})),
    Technique("ct_parry", COUNTER_TEMPO, "TP-046", None, _OG, MELEE, t.PARRY, STOP,
              responds_to=frozenset({"counter_attack"}), replaces=frozenset({"feint", "melee_attack"})),
    Technique("feint_counter_attack", COUNTER_TEMPO, "TP-047", None, _OG, MELEE, t.STRIKE, STRIKE,  # TP-A07
              responds_to=frozenset({"parry"}), replaces=frozenset({"feint"})),
    # Special (TP-048): taken by the table at the end of every turn, never chosen.
    Technique("recover_stamina", SPECIAL, "TP-048", 0, ANY_STATUS, ENDURANCE, t.ALWAYS, STATE),
)}

FEINT_COUNTER_BONUS = 3      # TP-047
UNARMED_COUNTER_BONUS = 5    # TP-034

# Directions of the duel's one-dimensional movement (TP-G07).
CLOSE, OPEN = "close", "open"

# The flat actions: structured orders (decision, technique, direction) in a fixed order.
ORDERS: tuple[tuple[str, ...], ...] = (
    ("pass",),
    ("proactive", "aim"),
    ("proactive", "move", CLOSE),
    ("proactive", "move", OPEN),
    ("proactive", "combat_move", CLOSE),
    ("proactive", "combat_move", OPEN),
    ("proactive", "disarm"),
    ("proactive", "escape"),
    ("proactive", "feint"),
    ("proactive", "grapple"),
    ("proactive", "melee_attack"),
    ("proactive", "pin"),
    ("proactive", "press"),
    ("proactive", "ranged_attack"),
    ("proactive", "ready"),
    ("proactive", "unarmed_attack"),
    ("proactive", "withdraw"),
    ("proactive", "recover_weapon"),
    ("proactive", "reload"),
    ("react", "counter_attack"),
    ("react", "counter_fire"),
    ("react", "dodge"),
    ("react", "double"),
    ("react", "evade"),
    ("react", "parry"),
    ("react", "retreat"),
    ("react", "struggle"),
    ("react", "wind"),
    ("ct", "counter_attack"),
    ("ct", "parry"),
    ("ct", "feint_counter_attack"),
)

# Techniques aimed at one enemy: in a skirmish their orders name the target's slot (``enemy<k>``, TP-G08).
TARGETED_TECHNIQUES: tuple[str, ...] = ("aim", "move", "combat_move", "feint", "melee_attack", "ranged_attack",
                                        "unarmed_attack")
# Techniques acting on the fighter one is bound or grappled with (its *partner*, TP-G10): never a slot.
PARTNER_TECHNIQUES: frozenset[str] = frozenset({"disarm", "escape", "grapple", "pin", "press", "withdraw"})
TARGET_PREFIX = "enemy"

_CT_TECHNIQUE = {"counter_attack": "ct_counter_attack", "parry": "ct_parry",
                 "feint_counter_attack": "feint_counter_attack"}


def _technique_of(order: tuple[str, ...]) -> Technique | None:
    if order[0] == "pass":
        return None
    if order[0] == "ct":
        return TECHNIQUES[_CT_TECHNIQUE[order[1]]]
    return TECHNIQUES[order[1]]


def targeted_orders(enemy_slots: int) -> tuple[tuple[str, ...], ...]:
    """The skirmish's orders: the duel's, each targeted proactive order once per enemy slot
    (``proactive:melee_attack:enemy0``, ``proactive:move:close:enemy2``)."""
    orders: list[tuple[str, ...]] = []
    for order in ORDERS:
        if order[0] == "proactive" and order[1] in TARGETED_TECHNIQUES:
            orders += [(*order, f"{TARGET_PREFIX}{k}") for k in range(enemy_slots)]
        else:
            orders.append(order)
    return tuple(orders)


class ActionTable:
    """A flat action space over the 003 techniques: the codec and, per flat action, its technique (None for
    ``pass``), movement direction and target slot (None: the duel's one opponent, or no slot)."""

    def __init__(self, orders: tuple[tuple[str, ...], ...]) -> None:
        self.orders = orders
        self.codec: ActionCodec[tuple[str, ...]] = ActionCodec(orders)
        self.names: tuple[str, ...] = self.codec.names
        self.technique_of: tuple[Technique | None, ...] = tuple(_technique_of(order) for order in orders)
        self.direction_of: tuple[str | None, ...] = tuple(
            order[2] if len(order) > 2 and order[2] in (CLOSE, OPEN) else None for order in orders)
        self.target_of: tuple[int | None, ...] = tuple(
            int(order[-1][len(TARGET_PREFIX):]) if order[-1].startswith(TARGET_PREFIX) else None
            for order in orders)
        self.proactive = tuple(a for a, order in enumerate(orders) if order[0] == "proactive")
        self.reactive = tuple(a for a, order in enumerate(orders) if order[0] == "react")
        self.counter_tempo = tuple(a for a, order in enumerate(orders) if order[0] == "ct")

    def __len__(self) -> int:
        return len(self.orders)


DUEL_TABLE = ActionTable(ORDERS)
"""The duel's flat actions (no target slots: everything aims at the one opponent)."""
CODEC = DUEL_TABLE.codec
ACTION_NAMES: tuple[str, ...] = DUEL_TABLE.names
NUM_ACTIONS = len(DUEL_TABLE)
PASS = CODEC.encode(("pass",))

# Per duel flat action: its technique (None for pass) and movement direction (None if not a move).
TECHNIQUE_OF = DUEL_TABLE.technique_of
DIRECTION_OF = DUEL_TABLE.direction_of
PROACTIVE_ACTIONS = DUEL_TABLE.proactive
REACTIVE_ACTIONS = DUEL_TABLE.reactive
COUNTER_TEMPO_ACTIONS = DUEL_TABLE.counter_tempo

# Proactive techniques in a fixed order (the observation's one-hot of a declared action).
PROACTIVE_TECHNIQUES: tuple[str, ...] = tuple(dict.fromkeys(ORDERS[a][1] for a in PROACTIVE_ACTIONS))
REACTIVE_TECHNIQUES: tuple[str, ...] = tuple(ORDERS[a][1] for a in REACTIVE_ACTIONS)
COUNTER_TEMPO_TECHNIQUES: tuple[str, ...] = tuple(ORDERS[a][1] for a in COUNTER_TEMPO_ACTIONS)

# Actions the text prices "By Weapon" (TP-G04): data may override them per weapon. A Feint always
# costs what a Melee Attack costs (it is declared as one, TP-G13), and a reload costs the weapon's
# ``reload_ap``, so neither is overridable.
FEINT_PRICED_AS = "melee_attack"
BY_WEAPON_TECHNIQUES: frozenset[str] = frozenset(
    name for name, tech in TECHNIQUES.items() if tech.cost is None and name not in ("feint", "reload"))


def action(name: str) -> int:
    """The flat action with this stable name (``"react:parry"``)."""
    return CODEC.by_name(name)
