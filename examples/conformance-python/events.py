"""Reading events as the contract writes them (INVALID_EVENT names the field), and the refusals."""

MAX_ID = 256
MAX_AMOUNT = 1_000_000
MAX_LIST = 1000
MAX_PLAYERS = 64
MAX_STOPS = 64
STEP_NAMES = ("untap", "upkeep", "draw", "main", "beginningOfCombat", "declareAttackers", "declareBlockers", "firstStrikeDamage", "combatDamage",
              "endOfCombat", "end", "cleanup")
PHASE_NAMES = ("beginning", "precombatMain", "combat", "postcombatMain", "ending")
SKIP_TARGETS = STEP_NAMES + PHASE_NAMES + ("turn",)
# Ids JavaScript objects already have: the reference engine refuses them as player ids.
RESERVED_IDS = {
    "constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__",
    "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString", "prototype",
}


class Refused(Exception):
    """A refused event: the error code, a message and the rule."""

    def __init__(self, code, message, rule=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


def illegal(rule, message):
    return Refused("ILLEGAL_ACTION", message, rule)


def invalid(message):
    return Refused("INVALID_EVENT", message)


class BadOptions(Exception):
    """createGame options this engine refuses (INVALID_OPTIONS) or a snapshot it cannot restore (INVALID_SNAPSHOT)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def is_player_id(v):
    return isinstance(v, str) and 1 <= len(v) <= MAX_ID and v not in RESERVED_IDS


def is_object_id(v):
    return isinstance(v, str) and 1 <= len(v) <= MAX_ID


def is_whole(v, low):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return float(v).is_integer() and low <= v <= MAX_AMOUNT


def is_step(v):
    return v in STEP_NAMES


def is_phase(v):
    return v in PHASE_NAMES


def is_signed(v):
    return is_whole(v, -MAX_AMOUNT)


def is_id_list(v):
    return isinstance(v, list) and len(v) <= MAX_LIST and all(is_object_id(x) for x in v)


def need(event, field, test, what):
    if field not in event or not test(event[field]):
        raise invalid(f"event.{field}: must be {what}")


def optional(event, field, test, what):
    if field in event and event[field] is not None and not test(event[field]):
        raise invalid(f"event.{field}: must be {what}")


def check_list(event, field, item, minimum=0):
    value = event.get(field)
    if not isinstance(value, list) or not minimum <= len(value) <= MAX_LIST:
        raise invalid(f"event.{field}: must be a list of {minimum} to {MAX_LIST} entries")
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or not item(entry):
            raise invalid(f"event.{field}[{i}]: malformed")


def strikes_ok(entry):
    return all(not (k in entry and entry[k] is not None and not isinstance(entry[k], bool)) for k in ("firstStrike", "doubleStrike"))


def need_strikes(event):
    if not strikes_ok(event):
        raise invalid("event.firstStrike, event.doubleStrike: must be booleans")


def decision(event):
    need(event, "player", is_player_id, "a player id")
    optional(event, "by", is_player_id, "a player id")


# The fields of each kind of effect (ADD_EFFECT): (name, test, what it must be, required).
EFFECT_SCHEMAS = {
    "skip": [("what", lambda v: v in SKIP_TARGETS + ("extraTurn",), "a step, a phase, 'turn' or 'extraTurn'", True)],
    "maxHandSize": [("set", lambda v: v is None or is_whole(v, 0), "a whole number from 0, or null", False), ("change", is_signed, "a whole number", False)],
    "landPlays": [("change", is_signed, "a whole number", False), ("set", lambda v: is_whole(v, 0), "a whole number from 0", False)],
    "spellLimit": [("perTurn", lambda v: is_whole(v, 0), "a whole number from 0", True)],
    "keepMana": [],
}


def check_effect(e):
    """ADD_EFFECT: { id, effect, duration?, controller? }; 'untilYourNextTurn' needs the controller (CR 611.2b)."""
    need(e, "id", is_object_id, "an object id")
    effect = e.get("effect")
    if not isinstance(effect, dict) or effect.get("kind") not in EFFECT_SCHEMAS:
        raise invalid(f"event.effect.kind: must be one of {', '.join(EFFECT_SCHEMAS)}")
    for name, test, what, required in EFFECT_SCHEMAS[effect["kind"]]:
        if (required or name in effect) and (name not in effect or not test(effect[name])):
            raise invalid(f"event.effect.{name}: must be {what}")
    players = effect.get("players", [])
    if not isinstance(players, list) or len(players) > MAX_PLAYERS or not all(is_player_id(p) for p in players):
        raise invalid(f"event.effect.players: must be a list of at most {MAX_PLAYERS} player ids")
    duration = e.get("duration", "untilRemoved")
    if isinstance(duration, dict):
        if duration.get("untilStep") not in STEP_NAMES or ("ofPlayer" in duration and not is_player_id(duration["ofPlayer"])):
            raise invalid("event.duration: { untilStep } must name a step, and ofPlayer a player")
    elif duration not in ("untilRemoved", "endOfTurn", "endOfCombat", "untilYourNextTurn"):
        raise invalid("event.duration: must be 'untilRemoved', 'endOfTurn', 'endOfCombat', 'untilYourNextTurn' or { untilStep, ofPlayer? }")
    if "controller" in e and not is_player_id(e["controller"]):
        raise invalid("event.controller: must be a player id")
    if duration == "untilYourNextTurn" and "controller" not in e:
        raise invalid("event.controller: is required with duration 'untilYourNextTurn' (the effect lasts until its controller's next turn, CR 611.2b)")


def stops_ok(stops):
    """SET_STOPS: null, or stops { step, turn: 'own' | 'others' | 'any' }; no stop in the untap step (no priority there, CR 502.4)."""
    if stops is None:
        return True
    return isinstance(stops, list) and len(stops) <= MAX_STOPS and all(
        isinstance(x, dict) and x.get("step") in STEP_NAMES and x["step"] != "untap" and x.get("turn") in ("own", "others", "any") for x in stops)


SCHEMAS = {
    "PASS_PRIORITY": decision,
    "CAST_SPELL": lambda e: (decision(e), need(e, "id", is_object_id, "an object id"), need(e, "speed", lambda v: v in ("sorcery", "instant"), "'sorcery' or 'instant'")),
    "ACTIVATE_ABILITY": lambda e: (decision(e), need(e, "id", is_object_id, "an object id"), need(e, "speed", lambda v: v in ("sorcery", "instant"), "'sorcery' or 'instant'")),
    "PLAY_LAND": decision,
    "DECLARE_ATTACKERS": lambda e: (decision(e), check_list(e, "attackers", lambda a: is_object_id(a.get("id")) and is_player_id(a.get("defender")) and strikes_ok(a))),
    "DECLARE_BLOCKERS": lambda e: (decision(e), check_list(e, "blockers", lambda b: is_object_id(b.get("id")) and is_object_id(b.get("attacker")) and strikes_ok(b))),
    "ORDER_BLOCKERS": lambda e: (decision(e), need(e, "attacker", is_object_id, "an object id"), need(e, "order", is_id_list, "a list of ids")),
    "ORDER_ATTACKERS": lambda e: (decision(e), need(e, "blocker", is_object_id, "an object id"), need(e, "order", is_id_list, "a list of ids")),
    "DISCARD": lambda e: (decision(e), need(e, "count", lambda v: is_whole(v, 1), "a whole number from 1")),
    "ORDER_TRIGGERS": lambda e: (decision(e), need(e, "order", is_id_list, "a list of ids")),
    "CHOOSE_STARTING_PLAYER": lambda e: (decision(e), need(e, "starting", is_player_id, "a player id")),
    "MULLIGAN": decision,
    "KEEP": decision,
    "BOTTOM": lambda e: (decision(e), need(e, "count", lambda v: is_whole(v, 1), "a whole number from 1")),
    "OPENING_HAND_DONE": decision,
    "CONCEDE": decision,
    "TRIGGER": lambda e: check_list(e, "triggers", lambda t: is_object_id(t.get("id")) and is_player_id(t.get("controller")), 1),
    "HAND_SIZE": lambda e: (need(e, "player", is_player_id, "a player id"), need(e, "size", lambda v: is_whole(v, 0), "a whole number from 0")),
    "ADD_MANA": lambda e: (need(e, "player", is_player_id, "a player id"), need(e, "amount", lambda v: is_whole(v, 0), "a whole number from 0")),
    "SPEND_MANA": lambda e: (need(e, "player", is_player_id, "a player id"), need(e, "amount", lambda v: is_whole(v, 0), "a whole number from 0")),
    "REMOVE_FROM_STACK": lambda e: (need(e, "id", is_object_id, "an object id"), optional(e, "reason", lambda v: v in ("countered", "exiled", "removed"), "'countered', 'exiled' or 'removed'")),
    "PUT_ON_STACK": lambda e: (
        need(e, "object", lambda o: isinstance(o, dict) and is_object_id(o.get("id")) and is_player_id(o.get("controller")) and o.get("kind") in ("spell", "ability", "trigger", "copy"), "{ id, controller, kind }"),
        optional(e, "cast", lambda v: isinstance(v, bool), "a boolean"),
    ),
    "END_TURN": lambda e: None,
    "END_COMBAT": lambda e: None,
    "REMOVE_FROM_COMBAT": lambda e: need(e, "id", is_object_id, "an object id"),
    "SET_COMBAT_ABILITIES": lambda e: (need(e, "id", is_object_id, "an object id"), need_strikes(e)),
    "ADD_ATTACKER": lambda e: (need(e, "id", is_object_id, "an object id"), need(e, "defender", is_player_id, "a player id"), need_strikes(e)),
    "ADD_BLOCKER": lambda e: (need(e, "id", is_object_id, "an object id"), need(e, "attacker", is_object_id, "an object id"), need_strikes(e)),
    "LOSE": lambda e: (need(e, "player", is_player_id, "a player id"), optional(e, "reason", is_object_id, "a string")),
    "WIN": lambda e: need(e, "player", is_player_id, "a player id"),
    "DRAW_GAME": lambda e: None,
    "ADD_EFFECT": check_effect,
    "ADD_EXTRA_TURN": lambda e: (need(e, "player", is_player_id, "a player id"), optional(e, "id", is_object_id, "an object id")),
    "ADD_EXTRA_COMBAT": lambda e: (optional(e, "followedByMain", lambda v: isinstance(v, bool), "a boolean"), optional(e, "after", is_phase, "a phase")),
    "ADD_EXTRA_PHASE": lambda e: (need(e, "phase", is_phase, "a phase"), optional(e, "after", is_phase, "a phase"), optional(e, "player", is_player_id, "a player id")),
    "ADD_EXTRA_STEP": lambda e: (
        need(e, "step", is_step, "a step"),
        *(optional(e, k, is_step, "a step") for k in ("after", "before")),
        optional(e, "afterPhase", is_phase, "a phase"),
        optional(e, "player", is_player_id, "a player id"),
    ),
    "SKIP_NEXT": lambda e: (need(e, "player", is_player_id, "a player id"), need(e, "what", lambda v: v in SKIP_TARGETS, "a step, a phase or 'turn'")),
    "SET_STOPS": lambda e: (need(e, "player", is_player_id, "a player id"), need(e, "stops", stops_ok, f"null or a list of at most {MAX_STOPS} {{ step, turn }}")),
    "YIELD": lambda e: (
        need(e, "player", is_player_id, "a player id"),
        need(e, "until", lambda v: v in (None, "stackResolved", "endOfTurn", "nextTurn"), "'stackResolved', 'endOfTurn', 'nextTurn' or null"),
        optional(e, "evenIfStackChanges", lambda v: isinstance(v, bool), "a boolean"),
    ),
    "REMOVE_EFFECT": lambda e: need(e, "id", is_object_id, "an object id"),
}


def players_named(e):
    """The player ids an event names, with their fields (an unknown one is INVALID_EVENT)."""
    out = []
    for field in ("player", "by", "starting", "controller"):
        if isinstance(e.get(field), str):
            out.append((field, e[field]))
    for i, a in enumerate(e.get("attackers") or []):
        out.append((f"attackers[{i}].defender", a["defender"]))
    for i, t in enumerate(e.get("triggers") or []):
        out.append((f"triggers[{i}].controller", t["controller"]))
    if isinstance(e.get("object"), dict):
        out.append(("object.controller", e["object"]["controller"]))
    if e["type"] == "ADD_ATTACKER":
        out.append(("defender", e["defender"]))
    if e["type"] == "ADD_EFFECT":
        out += [(f"effect.players[{i}]", p) for i, p in enumerate(e["effect"].get("players", []))]
        if isinstance(e.get("duration"), dict) and "ofPlayer" in e["duration"]:
            out.append(("duration.ofPlayer", e["duration"]["ofPlayer"]))
    return out


def parse_event(raw, seats):
    if not isinstance(raw, dict):
        raise invalid("event: must be an object with a type")
    kind = raw.get("type")
    if kind not in SCHEMAS:
        raise invalid(f"event.type: must be one of {', '.join(SCHEMAS)}; got {kind!r}")
    if "turnMarker" in raw and raw["turnMarker"] is not None and not (is_whole(raw["turnMarker"], 1) and raw["turnMarker"] <= 64):
        raise invalid("event.turnMarker: must be a whole number from 1 to 64")
    SCHEMAS[kind](raw)
    for field, player in players_named(raw):
        if player not in seats:
            raise invalid(f"event.{field}: {player!r} is not a player of this game")
    return raw


DECISIONS = {"PASS_PRIORITY", "CAST_SPELL", "ACTIVATE_ABILITY", "PLAY_LAND", "DECLARE_ATTACKERS", "DECLARE_BLOCKERS", "ORDER_BLOCKERS", "ORDER_ATTACKERS", "DISCARD", "ORDER_TRIGGERS",
             "CHOOSE_STARTING_PLAYER", "MULLIGAN", "KEEP", "BOTTOM", "OPENING_HAND_DONE", "CONCEDE"}
LEAVING = {"CONCEDE", "LOSE", "WIN", "DRAW_GAME"}
PREGAME = {"CHOOSE_STARTING_PLAYER", "MULLIGAN", "KEEP", "BOTTOM", "OPENING_HAND_DONE"}


def order_violation(expected, order, rule):
    if sorted(order) != sorted(expected):
        return illegal(rule, f"order must list each of {', '.join(expected)} exactly once")
    return None
