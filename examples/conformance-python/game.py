"""A deliberately small Magic: The Gathering turn engine, written from the contract alone.

Two players, no variants, the current rules: the turn structure (CR 500-514), priority and
the stack of opaque objects (CR 117, 405, 608), combat with first and double strike
(CR 506-511), cleanup and its discard (CR 514), land drops (CR 305), the mana pool (CR 106.4),
hand sizes, the checkpoint hook (CR 117.5, 704.3), players leaving (CR 104, 800.4), objects put
on and taken off the stack outside priority, changes to combat, ending the turn (CR 724), the
pregame (CR 103) and players ordering their own triggers (CR 603.3b).

It knows nothing of the project's source: it is an example of an engine that the conformance
runner (`npx mtg-turn-engine conformance run`) can test through the protocol of
docs/conformance.md. The whole game state is one JSON-able dict, so persisting is a copy.
"""

import copy
import math
import random

PHASE_STEPS = {
    "beginning": ["untap", "upkeep", "draw"],
    "main": ["main"],
    "combat": ["beginningOfCombat", "declareAttackers", "declareBlockers", "firstStrikeDamage", "combatDamage", "endOfCombat"],
    "ending": ["end", "cleanup"],
}
REGULAR_PHASES = ["beginning", "main", "combat", "main", "ending"]
MAX_ID = 256
MAX_AMOUNT = 1_000_000
MAX_LIST = 1000
MAX_CHECKPOINT_ROUNDS = 100
MAX_CLEANUP_STEPS = 100
# Ids JavaScript objects already have: the reference engine refuses them as player ids.
RESERVED_IDS = {
    "constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__",
    "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString", "prototype",
}
PERSISTED_FORMAT = "conformance-python/1"


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


# ----------------------------------------------------------------------------------------
# The seeded random numbers: mulberry32, as docs/conformance.md describes (CR 103.1's choice).


def seed_state(seed):
    return math.floor(abs(seed) * 1000003) % 2**32


def next_random(state):
    s = (state + 0x6D2B79F5) & 0xFFFFFFFF
    t = s
    t = imul(t ^ (t >> 15), t | 1)
    t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
    return s, ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296


def imul(a, b):
    return (a * b) & 0xFFFFFFFF


def random_index(state, n):
    state, value = next_random(state)
    return state, min(n - 1, math.floor(value * n))


# ----------------------------------------------------------------------------------------
# Reading events (the schema): INVALID_EVENT names the field.


def is_player_id(v):
    return isinstance(v, str) and 1 <= len(v) <= MAX_ID and v not in RESERVED_IDS


def is_object_id(v):
    return isinstance(v, str) and 1 <= len(v) <= MAX_ID


def is_whole(v, low):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return float(v).is_integer() and low <= v <= MAX_AMOUNT


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


SCHEMAS = {
    "PASS_PRIORITY": decision,
    "CAST_SPELL": lambda e: (decision(e), need(e, "id", is_object_id, "an object id"), need(e, "speed", lambda v: v in ("sorcery", "instant"), "'sorcery' or 'instant'")),
    "ACTIVATE_ABILITY": lambda e: (decision(e), need(e, "id", is_object_id, "an object id"), need(e, "speed", lambda v: v in ("sorcery", "instant"), "'sorcery' or 'instant'")),
    "PLAY_LAND": decision,
    "DECLARE_ATTACKERS": lambda e: (decision(e), check_list(e, "attackers", lambda a: is_object_id(a.get("id")) and is_player_id(a.get("defender")) and strikes_ok(a))),
    "DECLARE_BLOCKERS": lambda e: (decision(e), check_list(e, "blockers", lambda b: is_object_id(b.get("id")) and is_object_id(b.get("attacker")) and strikes_ok(b))),
    "DISCARD": lambda e: (decision(e), need(e, "count", lambda v: is_whole(v, 1), "a whole number from 1")),
    "ORDER_TRIGGERS": lambda e: (decision(e), need(e, "order", lambda v: isinstance(v, list) and len(v) <= MAX_LIST and all(is_object_id(x) for x in v), "a list of ids")),
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
}


def players_named(e):
    """The player ids an event names, with their fields (an unknown one is INVALID_EVENT)."""
    out = []
    for field in ("player", "by", "starting"):
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


# ----------------------------------------------------------------------------------------
# The game.


class Game:
    """One game. `hook(view, pending)` is the checkpoint hook (None: no hook); it returns a dict or None."""

    def __init__(self, options, hook=None, state=None):
        self.hook = hook
        self.out = []
        self.raised = []
        if state is not None:
            self.s = state
            return
        self.s = self.initial_state(options)
        self.run(self.start)
        # The events of createGame itself (turn 1's first steps): answered by createGame, not by the first send.
        self.created = self.take_out()

    # -- options ----------------------------------------------------------------------

    @staticmethod
    def initial_state(o):
        if not isinstance(o, dict):
            raise BadOptions("INVALID_OPTIONS", "options: must be an object")
        players = o.get("players")
        if not isinstance(players, list) or len(players) != 2 or not all(is_player_id(p) for p in players) or players[0] == players[1]:
            raise BadOptions("INVALID_OPTIONS", "options.players: this engine plays exactly two players with unique non-empty ids")
        for key, allowed in (("rules", ("current",)), ("variant", ("freeForAll",)), ("attack", ("all",)), ("orderTriggers", ("host", "players"))):
            if key in o and o[key] is not None and o[key] not in allowed:
                raise BadOptions("INVALID_OPTIONS", f"options.{key}: this engine supports only {', '.join(allowed)}")
        for key in ("teams", "rangeOfInfluence", "clock", "undo", "away"):
            if o.get(key) is not None:
                raise BadOptions("INVALID_OPTIONS", f"options.{key}: not supported by this engine")
        starting = o.get("startingPlayer", players[0])
        if starting not in players:
            raise BadOptions("INVALID_OPTIONS", "options.startingPlayer: must be one of the players")
        for key in ("maxHandSize", "handSize"):
            if key in o and not is_whole(o[key], 0):
                raise BadOptions("INVALID_OPTIONS", f"options.{key}: must be a whole number from 0")
        pregame = o.get("pregame") is True
        seed = o.get("seed")
        if seed is None:
            seed = random.randrange(2**32)
        if isinstance(seed, bool) or not isinstance(seed, (int, float)) or not math.isfinite(seed):
            raise BadOptions("INVALID_OPTIONS", "options.seed: must be a finite number")
        hand = int(o.get("handSize", 7))
        rng = seed_state(seed)
        pre = None
        if pregame:
            rng, index = random_index(rng, len(players))
            pre = {"stage": "choosing", "chooser": players[index], "starting": None, "mulligans": {p: 0 for p in players}, "kept": [], "decided": [], "bottom": {}, "done": []}
        return {
            "format": PERSISTED_FORMAT,
            "seats": list(players),
            "players": list(players),
            "startingPlayer": starting,
            "turnOwner": starting,
            "maxHand": int(o.get("maxHandSize", 7)),
            "handSize": hand,
            "orderTriggers": o.get("orderTriggers", "host"),
            "rng": rng,
            "turn": 1,
            "active": None,
            "phase": "pregame" if pregame else "beginning",
            "step": "pregame" if pregame else "untap",
            "steps": [],
            "phases": [],
            "mainSeen": False,
            "stage": None,
            "priority": None,
            "passed": [],
            "stack": [],
            "pendingTriggers": [],
            "triggerOrder": None,
            "landsPlayed": {},
            "spellsCast": {p: 0 for p in players},
            "mana": {p: 0 for p in players},
            "hands": {p: (0 if pregame else hand) for p in players},
            "combat": None,
            "result": None,
            "reasons": {},
            "cleanupCheck": None,
            "cleanupSteps": 0,
            "endedInSend": False,
            "version": 0,
            "seq": 0,
            "pending": [],
            "pregame": pre,
        }

    def start(self):
        if self.s["pregame"] is None:
            self.begin_first_turn()

    # -- the outside ------------------------------------------------------------------

    def send(self, raw):
        """Plays one event: {ok: True, events} or {ok: False, error}; a refused event changes nothing."""
        saved = copy.deepcopy(self.s)
        try:
            event = parse_event(raw, self.s["seats"])
            if self.s["result"] is not None:
                raise Refused("GAME_OVER", "the game is over; no event is accepted")
            self.check_legal(event)
            self.s["endedInSend"] = False
            self.run(lambda: self.apply(event))
            self.s["version"] += 1
            return {"ok": True, "events": self.take_out()}
        except Refused as refusal:
            self.s = saved
            self.out = []
            self.raised = []
            error = {"code": refusal.code, "message": refusal.message}
            if refusal.rule is not None:
                error["rule"] = refusal.rule
            return {"ok": False, "error": error}

    def take_out(self):
        out, self.out = self.out, []
        return out

    def run(self, action):
        """Does `action`, lets the game go on until it waits for input, then plays the events a checkpoint raised."""
        action()
        self.settle()
        while self.raised and self.s["result"] is None:
            event = self.raised.pop(0)
            self.end_turn_or_combat(event)
            self.settle()

    def emit(self, event):
        self.s["seq"] += 1
        event["seq"] = self.s["seq"]
        self.out.append(event)
        self.s["pending"].append(copy.deepcopy(event))

    def persist(self):
        return copy.deepcopy(self.s)

    @classmethod
    def restore(cls, data, hook=None):
        if not isinstance(data, dict) or data.get("format") != PERSISTED_FORMAT:
            raise BadOptions("INVALID_SNAPSHOT", f"not a game persisted by this engine (format {PERSISTED_FORMAT})")
        return cls(None, hook, copy.deepcopy(data))

    # -- helpers ------------------------------------------------------------------------

    def other(self, player):
        """The next player in turn order still in the game after `player` (CR 117.3d)."""
        seats, players = self.s["seats"], self.s["players"]
        start = seats.index(player)
        for i in range(1, len(seats) + 1):
            seat = seats[(start + i) % len(seats)]
            if seat in players:
                return seat
        return None

    def apnap(self):
        """Players in APNAP order (CR 101.4): from the turn's owner, in turn order."""
        seats, owner = self.s["seats"], self.s["turnOwner"]
        i = seats.index(owner)
        return [p for p in seats[i:] + seats[:i] if p in self.s["players"]]

    def active_or_next(self):
        return self.s["active"] if self.s["active"] is not None else self.other(self.s["turnOwner"])

    def is_main_phase(self):
        return self.s["phase"] in ("precombatMain", "postcombatMain")

    # -- the view -----------------------------------------------------------------------

    def awaiting(self):
        s = self.s
        if s["result"] is not None:
            return None
        if s["priority"] is not None:
            return {"kind": "priority", "player": s["priority"]}
        due = self.trigger_order_due()
        if due is not None:
            return {"kind": "orderTriggers", "player": due[0], "triggers": due[1]}
        pre = s["pregame"]
        if pre is not None:
            if pre["stage"] == "choosing":
                return {"kind": "chooseStartingPlayer", "player": pre["chooser"]}
            if pre["stage"] == "bottom" and self.bottom_due() is not None:
                player, count = self.bottom_due()
                return {"kind": "bottom", "player": player, "count": count}
            if pre["stage"] == "mulligans" and self.mulligan_due() is not None:
                player = self.mulligan_due()
                return {"kind": "mulligan", "player": player, "mulligans": pre["mulligans"][player]}
            if pre["stage"] == "openingHand" and self.opening_hand_due() is not None:
                return {"kind": "openingHandActions", "player": self.opening_hand_due()}
        if s["stage"] == "declareAttackers" and s["active"] is not None:
            return {"kind": "declareAttackers", "player": s["active"], "defenders": self.attackable()}
        if s["stage"] == "declareBlockers" and self.awaited_defender() is not None:
            return {"kind": "declareBlockers", "player": self.awaited_defender()}
        if s["stage"] == "discarding" and self.discard_due() > 0:
            return {"kind": "discard", "player": s["active"], "count": self.discard_due()}
        return None

    def view(self, about=False):
        """The TurnView; `about` shows a player about to receive priority (the checkpoint's view)."""
        s = self.s
        players = s["players"]
        active = s["active"]
        awaiting = self.awaiting() if about is False else ({"kind": "priority", "player": about} if about is not None else None)
        priority = s["priority"] if about is False else about
        combat = None
        if s["combat"] is not None:
            combat = {
                "attackers": [{k: a[k] for k in ("id", "defender", "firstStrike", "doubleStrike", "blocked", "blockedBy")} for a in s["combat"]["attackers"]],
                "blockers": [{k: b[k] for k in ("id", "blocking", "firstStrike", "doubleStrike")} for b in s["combat"]["blockers"]],
            }
        view = {
            "version": s["version"],
            "seq": s["seq"],
            "currentTurn": None if s["phase"] == "pregame" else {"player": s["turnOwner"], "extra": False},
            "turn": s["turn"],
            "activePlayer": active,
            "activeTeam": None,
            "phase": s["phase"],
            "step": s["step"],
            "priority": priority if s["result"] is None else None,
            "awaiting": awaiting,
            "decidedBy": {p: p for p in players},
            "stack": [dict(o) for o in s["stack"]],
            "landsPlayed": s["landsPlayed"].get(active, 0) if active is not None else 0,
            "landsPlayedBy": {p: s["landsPlayed"].get(p, 0) for p in players},
            "landPlaysAllowed": 0 if active is None else 1,
            "landPlaysAllowedBy": {p: (1 if p == active else 0) for p in players},
            "spellsCast": {p: s["spellsCast"].get(p, 0) for p in players},
            "manaPool": {p: s["mana"].get(p, 0) for p in players},
            "handSizes": {p: s["hands"].get(p, 0) for p in players},
            "maxHandSize": {p: s["maxHand"] for p in players},
            "players": list(players),
            "teams": None,
            "dayNight": None,
            "combat": combat,
            "effects": [],
            "stops": {p: None for p in players},
            "gameOver": None if s["result"] is None else copy.deepcopy(s["result"]),
            "rules": "current",
        }
        return view

    # -- the checkpoint (CR 117.5, 704.3) ----------------------------------------------

    def call_hook(self, about):
        view = self.view(about)
        pending = self.s["pending"]
        self.s["pending"] = []
        try:
            result = self.hook(view, pending)
        except Exception as err:  # the runner answered an error, or went away
            raise Refused("HOOK_FAILED", f"the checkpoint hook failed: {err}")
        if result is None:
            return [], False, []
        if not isinstance(result, dict):
            raise Refused("HOOK_FAILED", "the checkpoint hook must return { triggers?, stateBasedActions?, events? }")
        triggers = result.get("triggers") or []
        events = result.get("events") or []
        sba = result.get("stateBasedActions") is True
        if not isinstance(triggers, list) or not all(isinstance(t, dict) and is_object_id(t.get("id")) and is_player_id(t.get("controller")) for t in triggers):
            raise Refused("HOOK_FAILED", "result.triggers: must be a list of { id, controller }")
        for i, t in enumerate(triggers):
            if t["controller"] not in self.s["seats"]:
                raise Refused("HOOK_FAILED", f"result.triggers[{i}].controller: {t['controller']!r} is not a player of this game")
        if not isinstance(events, list):
            raise Refused("HOOK_FAILED", "result.events: must be a list of events")
        return [{"id": t["id"], "controller": t["controller"]} for t in triggers], sba, events

    def checkpoint(self, about, hold=False):
        """The check before a player receives priority: returns whether anything happened (CR 514.3a)."""
        s = self.s
        if self.hook is None and (hold or not s["pendingTriggers"]):
            s["pending"] = []
            return False
        activity = False
        shown = about
        for _ in range(MAX_CHECKPOINT_ROUNDS):
            if self.hook is not None:
                reported, sba, events = self.call_hook(shown)
            else:
                reported, sba, events = [], False, []
                s["pending"] = []
            if not reported and not sba and not events and not s["pendingTriggers"]:
                return s["result"] is not None or activity
            applied, stop = self.apply_hook_events(events)
            triggers = [t for t in s["pendingTriggers"] + reported + applied if t["controller"] in s["players"]]
            ids = [o["id"] for o in s["stack"]] + [t["id"] for t in (s["triggerOrder"] or {}).get("batch", [])]
            for t in triggers:
                if t["id"] in ids:
                    raise Refused("HOOK_FAILED", f"result.triggers: an object with id {t['id']} is already on the stack (CR 405.1)")
                ids.append(t["id"])
            acted = sba or bool(reported) or bool(applied) or (not hold and bool(s["pendingTriggers"]))
            if stop or s["result"] is not None:
                return True
            if not acted and not events:
                return activity
            if acted:
                activity = True
            if hold:
                s["pendingTriggers"] = [t for t in s["pendingTriggers"] + reported + applied if t["controller"] in s["players"]]
            elif self.needs_ordering(triggers):
                s["pendingTriggers"] = []
                s["triggerOrder"] = {"batch": triggers, "orders": {}, "about": about}
                return True
            else:
                self.stack_triggers(triggers)
                s["pendingTriggers"] = []
                if triggers:
                    s["passed"] = []
            shown = None if about is None else self.active_or_next()
        raise Refused("HOOK_FAILED", f"the checkpoint hook still reported something after {MAX_CHECKPOINT_ROUNDS} checks in a row (CR 704.3)")

    def apply_hook_events(self, events):
        """The host events a checkpoint returned, applied in order as if sent (724.1a: one that ends the turn drops the rest)."""
        triggers = []
        for i, raw in enumerate(events):
            try:
                event = parse_event(raw, self.s["seats"])
                self.check_legal(event)
            except Refused as refusal:
                raise Refused("HOOK_FAILED", f"result.events[{i}] was refused: {refusal.message}")
            kind = event["type"]
            if kind in DECISIONS:
                raise Refused("HOOK_FAILED", f"result.events[{i}]: {kind} is a player's decision, not a host event")
            if kind == "END_TURN" or (kind == "END_COMBAT" and self.s["phase"] == "combat"):
                self.raised.append(event)
                return triggers, True
            if kind == "END_COMBAT":
                continue
            if kind == "TRIGGER":
                triggers += [{"id": t["id"], "controller": t["controller"]} for t in event["triggers"] if t["controller"] in self.s["players"]]
                continue
            if kind in LEAVING:
                self.leave(event)
                if self.s["result"] is not None:
                    return triggers, True
                continue
            self.host_effect(event)
        return triggers, False

    def needs_ordering(self, triggers):
        if self.s["orderTriggers"] != "players":
            return False
        controllers = [t["controller"] for t in triggers]
        return len(controllers) != len(set(controllers))

    def stack_triggers(self, triggers):
        """CR 603.3b: the active player's triggers first (lowest), then the other player's, each in the order given."""
        for p in self.apnap():
            for t in triggers:
                if t["controller"] == p:
                    self.s["stack"].append({"id": t["id"], "controller": p, "kind": "trigger"})

    def trigger_order_due(self):
        order = self.s["triggerOrder"]
        if order is None:
            return None
        for p in self.apnap():
            ours = [t["id"] for t in order["batch"] if t["controller"] == p]
            if len(ours) >= 2 and p not in order["orders"]:
                return p, ours
        return None

    # -- priority (CR 117) ----------------------------------------------------------------

    def give_priority(self, player, fresh):
        s = self.s
        if player is None or s["result"] is not None or s["triggerOrder"] is not None:
            return
        self.checkpoint(player)
        if s["result"] is not None:
            return
        if s["triggerOrder"] is not None:
            s["priority"] = None
            s["passed"] = []
            return
        s["priority"] = player if player in s["players"] else self.active_or_next()
        if fresh:
            s["passed"] = []

    def give_priority_to_active(self):
        self.give_priority(self.active_or_next(), True)

    def all_passed(self):
        return len(self.s["players"]) > 0 and all(p in self.s["passed"] for p in self.s["players"])

    def is_step_over(self):
        s = self.s
        if s["result"] is not None or s["triggerOrder"] is not None:
            return False
        return s["priority"] is None and not s["stack"] and self.all_passed()

    def pass_priority(self, player):
        s = self.s
        resolves = s["priority"] == player and s["stack"] and all(p == player or p in s["passed"] for p in s["players"])
        if player not in s["passed"]:
            s["passed"].append(player)
        s["priority"] = None
        if not self.all_passed():
            self.give_priority(self.other(player), False)
        if resolves:
            top = s["stack"].pop()
            s["passed"] = []
            self.emit({"type": "resolve", "object": dict(top)})
            self.give_priority_to_active()

    # -- legality (ILLEGAL_ACTION names the rule) ---------------------------------------

    def priority_violation(self, player, rule, doing):
        if player not in self.s["players"]:
            return illegal("800.4a", f"{player} has left the game and can no longer {doing}")
        if self.s["priority"] == player:
            return None
        holder = "no player holds priority now" if self.s["priority"] is None else f"{self.s['priority']} holds priority"
        return illegal(rule, f"{player} cannot {doing}: {holder}")

    def sorcery_violation(self, player, rule):
        if player != self.s["active"]:
            return illegal(rule, f"{player} can act at sorcery speed only during their own turn")
        if not self.is_main_phase():
            return illegal(rule, f"sorcery-speed actions need a main phase; this is the {self.s['phase']} phase")
        if self.s["stack"]:
            return illegal(rule, "sorcery-speed actions need an empty stack")
        return None

    def awaited(self, kind, player, rule, what):
        a = self.awaiting()
        if a is not None and a["kind"] == kind and a["player"] == player:
            return None
        now = "nothing is awaited" if a is None else f"the game awaits {a['kind']} from {a['player']}"
        return illegal(rule, f"{what} by {player} is not awaited now: {now}")

    def id_taken(self, ids):
        s = self.s
        taken = {o["id"] for o in s["stack"]} | {t["id"] for t in s["pendingTriggers"]} | {t["id"] for t in (s["triggerOrder"] or {}).get("batch", [])}
        for i in ids:
            if i in taken:
                return illegal("405.1", f"an object with id {i} is already on the stack (or waiting to be put on it)")
            taken.add(i)
        return None

    def in_game(self, player, field="player"):
        return None if player in self.s["players"] else illegal("800.4a", f"{field} {player} has left the game")

    def in_combat(self, creature):
        c = self.s["combat"]
        return c is not None and (any(a["id"] == creature for a in c["attackers"]) or any(b["id"] == creature for b in c["blockers"]))

    def in_combat_phase(self, what):
        return None if self.s["phase"] == "combat" and self.s["combat"] is not None else illegal("506.4", f"{what} needs a combat phase; this is the {self.s['phase']} phase")

    def check_legal(self, e):
        """Raises ILLEGAL_ACTION (with the rule) when the event is not allowed now."""
        s = self.s
        kind = e["type"]
        player = e.get("player")
        checks = []
        if kind in DECISIONS and kind != "CONCEDE" and "by" in e and e["by"] is not None and e["by"] != player:
            checks.append(lambda: illegal("723.5", f"{e['by']} cannot make {player}'s decisions: {player} does"))
        if kind == "PASS_PRIORITY":
            checks.insert(0, lambda: self.priority_violation(player, "117.3d", "pass priority"))
        elif kind in ("CAST_SPELL", "ACTIVATE_ABILITY"):
            spell = kind == "CAST_SPELL"
            checks.insert(0, lambda: self.priority_violation(player, "117.1a" if spell else "117.1b", "cast a spell" if spell else "activate an ability"))
            if e["speed"] == "sorcery":
                checks.insert(1, lambda: self.sorcery_violation(player, "307.1" if spell else "307.5"))
            checks.append(lambda: self.id_taken([e["id"]]))
        elif kind == "PLAY_LAND":
            def land():
                if player in s["players"] and player != s["active"]:
                    return illegal("305.3", f"{player} cannot play a land: it is not their turn")
                v = self.priority_violation(player, "305.1", "play a land")
                if v:
                    return v
                if not self.is_main_phase():
                    return illegal("305.1", f"lands are played in a main phase; this is the {s['phase']} phase")
                if s["stack"]:
                    return illegal("305.1", "lands are played only while the stack is empty")
                if s["landsPlayed"].get(player, 0) >= 1:
                    return illegal("305.2", f"{player} has already played a land this turn")
                return None
            checks.insert(0, land)
        elif kind == "DECLARE_ATTACKERS":
            checks.insert(0, lambda: self.awaited("declareAttackers", player, "508.1", "a declaration of attackers"))
            checks.append(lambda: self.attack_violation(player, e["attackers"]))
        elif kind == "DECLARE_BLOCKERS":
            checks.insert(0, lambda: self.awaited("declareBlockers", player, "509.1", "a declaration of blockers"))
            checks.append(lambda: self.block_violation(player, e["blockers"]))
        elif kind == "DISCARD":
            checks.insert(0, lambda: self.awaited("discard", player, "514.1", "a discard"))
            checks.append(lambda: None if e["count"] == self.discard_due() else illegal("514.1", f"{player} must discard exactly {self.discard_due()} card(s), not {e['count']}"))
        elif kind == "ORDER_TRIGGERS":
            checks.insert(0, lambda: self.awaited("orderTriggers", player, "603.3b", "an order of triggered abilities"))
            checks.append(lambda: order_violation((self.awaiting() or {}).get("triggers", []), e["order"], "603.3b"))
        elif kind == "CHOOSE_STARTING_PLAYER":
            checks.insert(0, lambda: self.awaited("chooseStartingPlayer", player, "103.1", "a choice of the starting player"))
            checks.append(lambda: self.in_game(e["starting"], "starting"))
        elif kind == "MULLIGAN":
            checks.insert(0, lambda: self.awaited("mulligan", player, "103.5", "a mulligan"))
            checks.append(lambda: None if s["pregame"]["mulligans"][player] + 1 <= s["handSize"] else illegal("103.5", f"{player} has no cards left to mulligan"))
        elif kind == "KEEP":
            checks.insert(0, lambda: self.awaited("mulligan", player, "103.5", "keeping a hand"))
        elif kind == "BOTTOM":
            checks.insert(0, lambda: self.awaited("bottom", player, "103.5", "putting cards on the bottom"))
            checks.append(lambda: None if (self.bottom_due() or (None, 0))[1] == e["count"] else illegal("103.5", f"{player} must put exactly {(self.bottom_due() or (None, 0))[1]} card(s) on the bottom"))
        elif kind == "OPENING_HAND_DONE":
            checks.insert(0, lambda: self.awaited("openingHandActions", player, "103.6", "the end of opening hand actions"))
        elif kind == "CONCEDE":
            checks = [lambda: self.in_game(player), lambda: None if e.get("by") in (None, player) else illegal("723.6", f"{e['by']} cannot make {player} concede")]
        elif kind == "TRIGGER":
            checks = [lambda: self.id_taken([t["id"] for t in e["triggers"] if t["controller"] in s["players"]])]
        elif kind in ("HAND_SIZE", "ADD_MANA", "LOSE", "WIN"):
            checks = [lambda: self.in_game(player)]
        elif kind == "SPEND_MANA":
            checks = [lambda: self.in_game(player), lambda: None if s["mana"].get(player, 0) >= e["amount"] else illegal("106.4", f"{player}'s pool holds {s['mana'].get(player, 0)} mana; cannot spend {e['amount']}")]
        elif kind == "PUT_ON_STACK":
            checks = [lambda: self.in_game(e["object"]["controller"], "object.controller"), lambda: self.id_taken([e["object"]["id"]])]
        elif kind == "SET_COMBAT_ABILITIES":
            checks = [lambda: self.in_combat_phase("changing a creature in combat"), lambda: None if self.in_combat(e["id"]) else illegal("506.4", f"{e['id']} is not attacking or blocking")]
        elif kind == "ADD_ATTACKER":
            checks = [
                lambda: self.in_combat_phase("putting a creature onto the battlefield attacking"),
                lambda: None if s["active"] is not None else illegal("800.4j", "there is no active player to attack for"),
                lambda: illegal("508.4", f"{e['id']} is already in combat") if self.in_combat(e["id"]) else None,
                lambda: None if e["defender"] in self.attackable() else illegal("508.4", f"{e['defender']} cannot be attacked in this combat"),
            ]
        elif kind == "ADD_BLOCKER":
            def blocker():
                v = self.in_combat_phase("putting a creature onto the battlefield blocking")
                if v:
                    return v
                c = s["combat"]
                attacker = next((a for a in c["attackers"] if a["id"] == e["attacker"]), None)
                if attacker is None:
                    return illegal("509.4", f"{e['attacker']} is not an attacking creature")
                if attacker["defender"] not in s["players"]:
                    return illegal("800.4a", f"{e['attacker']} attacks a player who has left the game")
                if any(a["id"] == e["id"] for a in c["attackers"]):
                    return illegal("509.4", f"{e['id']} is attacking and cannot block")
                if any(b["id"] == e["id"] and e["attacker"] in b["blocking"] for b in c["blockers"]):
                    return illegal("509.4", f"{e['id']} is already blocking {e['attacker']}")
                return None
            checks = [blocker]
        for check in checks:
            v = check()
            if v is not None:
                raise v

    # -- what events do -------------------------------------------------------------------

    def apply(self, e):
        s = self.s
        kind = e["type"]
        player = e.get("player")
        if kind == "PASS_PRIORITY":
            self.pass_priority(player)
        elif kind in ("CAST_SPELL", "ACTIVATE_ABILITY"):
            s["stack"].append({"id": e["id"], "controller": player, "kind": "spell" if kind == "CAST_SPELL" else "ability"})
            if kind == "CAST_SPELL":
                s["spellsCast"][player] = s["spellsCast"].get(player, 0) + 1
            s["passed"] = []
            self.give_priority(s["priority"], False)  # CR 117.3c
        elif kind == "PLAY_LAND":
            s["landsPlayed"][player] = s["landsPlayed"].get(player, 0) + 1
            s["passed"] = []
            self.give_priority(s["priority"], False)
        elif kind == "DECLARE_ATTACKERS":
            c = s["combat"]
            c["attacksDeclared"] = True
            c["declared"] = c["declared"] or len(e["attackers"]) > 0
            c["attackers"] += [combat_attacker(a) for a in e["attackers"]]
            s["stage"] = "priority"
            self.give_priority_to_active()  # CR 508.2
        elif kind == "DECLARE_BLOCKERS":
            for b in e["blockers"]:
                with_block(s["combat"], player, b)
            s["combat"]["declaredBy"].append(player)
        elif kind == "DISCARD":
            s["hands"][player] -= e["count"]
            self.emit({"type": "discard", "player": player, "count": e["count"]})
        elif kind == "TRIGGER":
            s["pendingTriggers"] += [{"id": t["id"], "controller": t["controller"]} for t in e["triggers"] if t["controller"] in s["players"]]
            if s["priority"] is not None:
                self.give_priority(s["priority"], False)
        elif kind == "ORDER_TRIGGERS":
            order = s["triggerOrder"]
            order["orders"][player] = list(e["order"])
            if self.trigger_order_due() is None:
                self.finish_trigger_order()
        elif kind in LEAVING:
            held = s["priority"]
            self.leave(e)
            if s["result"] is None and held is not None and s["priority"] is None and held not in s["players"]:
                self.give_priority(self.other(held), False)
        elif kind in ("END_TURN", "END_COMBAT"):
            self.end_turn_or_combat(e)
        elif kind in PREGAME:
            self.pregame_decision(e)
        else:
            self.host_effect(e)

    def host_effect(self, e):
        s = self.s
        kind = e["type"]
        player = e.get("player")
        if kind == "HAND_SIZE":
            s["hands"][player] = int(e["size"])
        elif kind == "ADD_MANA":
            s["mana"][player] += int(e["amount"])
        elif kind == "SPEND_MANA":
            s["mana"][player] -= int(e["amount"])
        elif kind == "REMOVE_FROM_STACK":
            found = next((o for o in s["stack"] if o["id"] == e["id"]), None)
            if found is not None:
                s["stack"].remove(found)
                self.emit({"type": "removedFromStack", "object": dict(found), "reason": e.get("reason") or "removed"})
        elif kind == "PUT_ON_STACK":
            o = e["object"]
            s["stack"].append({"id": o["id"], "controller": o["controller"], "kind": o["kind"]})
            if e.get("cast") is True and o["kind"] == "spell":
                s["spellsCast"][o["controller"]] = s["spellsCast"].get(o["controller"], 0) + 1
            s["passed"] = []
        elif kind == "REMOVE_FROM_COMBAT":
            if s["combat"] is not None and self.in_combat(e["id"]):
                removed_from_combat(s["combat"], e["id"])
        elif kind == "SET_COMBAT_ABILITIES":
            for c in s["combat"]["attackers"] + s["combat"]["blockers"]:
                if c["id"] == e["id"]:
                    for k in ("firstStrike", "doubleStrike"):
                        if e.get(k) is not None:
                            c[k] = e[k]
        elif kind == "ADD_ATTACKER":
            s["combat"]["declared"] = True
            s["combat"]["attackers"].append(combat_attacker(e))
        elif kind == "ADD_BLOCKER":
            attacker = next(a for a in s["combat"]["attackers"] if a["id"] == e["attacker"])
            with_block(s["combat"], attacker["defender"], e)

    # -- leaving the game (CR 104, 800.4) -----------------------------------------------

    def leave(self, e):
        s = self.s
        kind = e["type"]
        if kind == "DRAW_GAME":
            reasons = dict(s["reasons"])
            for p in s["players"]:
                reasons[p] = "draw"
            s["result"] = {"winners": [], "draw": True, "reasons": reasons}
            s["priority"] = None
            self.emit({"type": "gameOver", "winners": [], "draw": True})
            return
        if kind == "WIN":
            for p in [p for p in s["players"] if p != e["player"]]:
                if s["result"] is None:
                    self.leave_one(p, "another player won")
            return
        self.leave_one(e["player"], "conceded" if kind == "CONCEDE" else (e.get("reason") or "lost"))

    def leave_one(self, player, reason):
        s = self.s
        if player not in s["players"]:
            return
        s["players"] = [p for p in s["players"] if p != player]
        removed = [o for o in s["stack"] if o["controller"] == player]
        s["stack"] = [o for o in s["stack"] if o["controller"] != player]
        if s["active"] == player:
            s["active"] = None
        if s["priority"] == player:
            s["priority"] = None
        s["passed"] = [p for p in s["passed"] if p != player]
        s["pendingTriggers"] = [t for t in s["pendingTriggers"] if t["controller"] != player]
        for record in ("mana", "hands"):
            s[record].pop(player, None)
        s["reasons"][player] = reason
        self.emit({"type": "playerLeft", "player": player, "reason": reason})
        for o in reversed(removed):
            self.emit({"type": "removedFromStack", "object": dict(o), "reason": "removed"})
        if len(s["players"]) == 1:
            s["result"] = {"winners": list(s["players"]), "draw": False, "reasons": dict(s["reasons"])}
            self.emit({"type": "gameOver", "winners": list(s["players"]), "draw": False})

    # -- combat (CR 506-511) ----------------------------------------------------------------

    def attackable(self):
        return [p for p in self.s["players"] if p != self.s["active"]] if self.s["active"] is not None else []

    def attack_violation(self, player, attackers):
        seen = set()
        allowed = self.attackable()
        for i, a in enumerate(attackers):
            if a["id"] in seen:
                return illegal("508.1a", f"attackers[{i}]: creature {a['id']} is declared as an attacker twice")
            if any(c["id"] == a["id"] for c in self.s["combat"]["attackers"]):
                return illegal("508.1a", f"attackers[{i}]: creature {a['id']} is already attacking")
            seen.add(a["id"])
            if a["defender"] == player:
                return illegal("508.1b", f"attackers[{i}]: {player} cannot attack themselves")
            if a["defender"] not in self.s["players"]:
                return illegal("508.1b", f"attackers[{i}]: defender {a['defender']} is not a player in the game")
            if a["defender"] not in allowed:
                return illegal("506.2", f"attackers[{i}]: {a['defender']} is not a defending player in this combat")
        return None

    def block_violation(self, player, blockers):
        c = self.s["combat"]
        attacker_ids = {a["id"] for a in c["attackers"]}
        pairs = set()
        for i, b in enumerate(blockers):
            attacker = next((a for a in c["attackers"] if a["id"] == b["attacker"]), None)
            if attacker is None:
                return illegal("509.1a", f"blockers[{i}]: {b['attacker']} is not an attacking creature")
            if attacker["defender"] != player:
                return illegal("509.1a", f"blockers[{i}]: {b['attacker']} is attacking {attacker['defender']}, not {player}")
            if b["id"] in attacker_ids:
                return illegal("509.1a", f"blockers[{i}]: {b['id']} is an attacking creature and cannot block")
            if (b["id"], b["attacker"]) in pairs:
                return illegal("509.1a", f"blockers[{i}]: {b['id']} is declared blocking {b['attacker']} twice")
            pairs.add((b["id"], b["attacker"]))
        return None

    def awaited_defender(self):
        c = self.s["combat"]
        if c is None:
            return None
        attacked = {a["defender"] for a in c["attackers"]}
        return next((p for p in self.apnap() if p in attacked and p not in c["declaredBy"]), None)

    def has_first_striker(self):
        c = self.s["combat"]
        return c is not None and any(x["firstStrike"] or x["doubleStrike"] for x in c["attackers"] + c["blockers"])

    def deal_combat_damage(self, first):
        """CR 510.1, 510.4: who deals combat damage in this step (the host deals it)."""
        c = self.s["combat"]
        if c is None:
            return
        strikes = lambda x: x["firstStrike"] or x["doubleStrike"]

        def deals(x):
            if first:
                return strikes(x)
            if c["firstStrikeStep"]:
                return not x["dealtFirst"] or x["doubleStrike"]
            return True

        ids = []
        present = set()
        for a in c["attackers"]:
            if a["defender"] not in self.s["players"]:
                continue
            present.add(a["id"])
            if a["blocked"] and not a["blockedBy"]:
                continue
            if deals(a):
                ids.append(a["id"])
        for b in c["blockers"]:
            if deals(b) and any(x in present for x in b["blocking"]) and b["id"] not in ids:
                ids.append(b["id"])
        if first:
            c["firstStrikeStep"] = True
            for x in c["attackers"] + c["blockers"]:
                if strikes(x):
                    x["dealtFirst"] = True
        self.emit({"type": "combatDamage", "first": first, "creatures": ids})

    # -- cleanup (CR 514) -------------------------------------------------------------------

    def discard_due(self):
        s = self.s
        if s["active"] is None or s["result"] is not None:
            return 0
        return max(0, s["hands"].get(s["active"], 0) - s["maxHand"])

    # -- the pregame (CR 103) ---------------------------------------------------------------

    def from_starting(self):
        pre = self.s["pregame"]
        if pre["starting"] is None:
            return []
        seats = self.s["seats"]
        i = seats.index(pre["starting"])
        return [p for p in seats[i:] + seats[:i] if p in self.s["players"]]

    def mulligan_due(self):
        pre = self.s["pregame"]
        order = [p for p in self.from_starting() if p not in pre["kept"]]
        return next((p for p in order if p not in pre["decided"]), order[0] if order else None)

    def bottom_due(self):
        for player, count in self.s["pregame"]["bottom"].items():
            if count > 0 and player in self.s["players"]:
                return player, count
        return None

    def opening_hand_due(self):
        pre = self.s["pregame"]
        return next((p for p in self.from_starting() if p not in pre["done"]), None)

    def next_round(self, decided, kept):
        open_players = [p for p in self.s["players"] if p not in kept]
        return [] if all(p in decided for p in open_players) else decided

    def pregame_decision(self, e):
        s = self.s
        pre = s["pregame"]
        kind, player = e["type"], e["player"]
        if kind == "CHOOSE_STARTING_PLAYER":
            pre["starting"] = e["starting"]
            s["startingPlayer"] = s["turnOwner"] = e["starting"]
            for p in self.from_starting():
                s["hands"][p] = s["handSize"]
                self.emit({"type": "drawHand", "player": p, "size": s["handSize"]})
            pre["stage"] = "mulligans"
        elif kind == "MULLIGAN":
            pre["mulligans"][player] += 1
            pre["decided"] = self.next_round(pre["decided"] + [player], pre["kept"])
            s["hands"][player] = s["handSize"]
            self.emit({"type": "mulligan", "player": player, "number": pre["mulligans"][player]})
            self.emit({"type": "drawHand", "player": player, "size": s["handSize"]})
        elif kind == "KEEP":
            count = min(pre["mulligans"][player], s["hands"].get(player, 0))  # CR 103.5: London mulligan, none free with two players
            pre["kept"].append(player)
            pre["decided"] = self.next_round(pre["decided"] + [player], pre["kept"])
            if count > 0:
                pre["bottom"][player] = count
        elif kind == "BOTTOM":
            del pre["bottom"][player]
            s["hands"][player] = max(0, s["hands"].get(player, 0) - e["count"])
            pre["stage"] = "mulligans"
        elif kind == "OPENING_HAND_DONE":
            pre["done"].append(player)

    # -- the turn: steps, phases and turns (CR 500) ------------------------------------------

    def begin_first_turn(self):
        s = self.s
        starting = s["pregame"]["starting"] if s["pregame"] is not None else s["startingPlayer"]
        s["pregame"] = None
        s["startingPlayer"] = starting
        self.new_turn(starting)
        self.emit({"type": "turnBegan", "turn": s["turn"], "activePlayer": starting, "extra": False})
        self.next_phase()

    def new_turn(self, player):
        s = self.s
        s.update({
            "active": player, "turnOwner": player, "phase": "beginning", "step": "untap", "steps": [], "phases": list(REGULAR_PHASES),
            "mainSeen": False, "priority": None, "passed": [], "landsPlayed": {}, "spellsCast": {p: 0 for p in s["players"]},
            "combat": None, "cleanupSteps": 0, "cleanupCheck": None, "stage": None,
        })

    def begin_turn(self):
        s = self.s
        player = self.other(s["turnOwner"])
        s["turn"] += 1
        self.new_turn(player)
        self.emit({"type": "turnBegan", "turn": s["turn"], "activePlayer": player, "extra": False})
        self.next_phase()

    def next_phase(self):
        s = self.s
        if not s["phases"]:
            if s["result"] is None:
                self.begin_turn()
            return
        kind = s["phases"].pop(0)
        s["phase"] = ("postcombatMain" if s["mainSeen"] else "precombatMain") if kind == "main" else kind
        s["mainSeen"] = s["mainSeen"] or kind == "main"
        s["steps"] = list(PHASE_STEPS[kind])
        if kind == "combat":
            s["combat"] = {"attackers": [], "blockers": [], "declared": False, "attacksDeclared": False, "declaredBy": [], "firstStrikeStep": False}
        self.next_step()

    def skip_rule(self, step):
        """The rule that passes over the next step, or None."""
        s = self.s
        c = s["combat"]
        if step == "draw" and s["turn"] == 1 and s["active"] == s["startingPlayer"]:
            return "103.8a"
        if s["phase"] == "combat" and step in ("declareBlockers", "firstStrikeDamage", "combatDamage") and c is not None and c["attacksDeclared"] and not c["declared"]:
            return "508.8"
        if step == "firstStrikeDamage" and not self.has_first_striker():
            return "510.4"
        return None

    def next_step(self):
        s = self.s
        while s["steps"]:
            step = s["steps"].pop(0)
            if self.skip_rule(step) is None:
                self.begin_step(step)
                return
        self.end_phase()
        self.next_phase()

    def empty_mana(self):
        """CR 500.5: mana empties as each step and phase ends."""
        s = self.s
        if s["result"] is not None:
            return
        for p in s["players"]:
            if s["mana"].get(p, 0) > 0:
                amount = s["mana"][p]
                s["mana"][p] = 0
                self.emit({"type": "manaEmptied", "player": p, "amount": amount})

    def end_step(self):
        self.empty_mana()

    def end_phase(self):
        if self.s["phase"] == "combat":
            self.s["combat"] = None  # CR 511.3
        self.empty_mana()

    def begin_step(self, step):
        s = self.s
        s.update({"step": step, "priority": None, "passed": [], "cleanupCheck": None, "stage": "priority"})
        if step == "cleanup":
            s["cleanupSteps"] += 1
        self.emit({"type": "stepBegan", "turn": s["turn"], "phase": s["phase"], "step": step})
        active = s["active"]
        if step == "untap":
            if active is not None:
                self.emit({"type": "phasing", "player": active})
                self.emit({"type": "untap", "player": active})
            s["stage"] = None
            self.end_step()
            self.next_step()
            return
        if step == "draw" and active is not None:
            s["hands"][active] = min(MAX_AMOUNT, s["hands"].get(active, 0) + 1)
            self.emit({"type": "draw", "player": active})
        if step == "main" and s["phase"] == "precombatMain" and active is not None:
            self.emit({"type": "loreCounters", "player": active})
            self.emit({"type": "visitAttractions", "player": active})
        if step == "declareAttackers":
            s["stage"] = "declareAttackers"
            if active is None:
                s["combat"]["attacksDeclared"] = True
                s["stage"] = "priority"
                self.give_priority_to_active()
            return
        if step == "declareBlockers":
            s["stage"] = "declareBlockers"
            return
        if step == "firstStrikeDamage":
            self.deal_combat_damage(True)
        if step == "combatDamage":
            self.deal_combat_damage(False)
        if step == "cleanup":
            s["stage"] = "discarding"
            return
        self.give_priority_to_active()

    def cleanup_check(self):
        """CR 514.2, 514.3a: damage wears off; if the check finds anything, players receive priority."""
        s = self.s
        self.emit({"type": "cleanup", "player": s["active"]})
        activity = self.checkpoint(None) or bool(s["stack"])
        if activity and s["cleanupSteps"] >= MAX_CLEANUP_STEPS:
            raise Refused("HOOK_FAILED", f"turn {s['turn']}: a turn has at most {MAX_CLEANUP_STEPS} cleanup steps (CR 514.3a)")
        s["cleanupCheck"] = "active" if activity else "quiet"
        if activity:
            s["stage"] = "cleanupPriority"
            self.give_priority_to_active()
        else:
            self.end_step()
            self.next_step()

    def finish_trigger_order(self):
        s = self.s
        order = s["triggerOrder"]
        batch = []
        for p in self.apnap():
            ours = [t for t in order["batch"] if t["controller"] == p]
            for i in order["orders"].get(p, [t["id"] for t in ours]):
                batch += [t for t in ours if t["id"] == i]
        s["triggerOrder"] = None
        self.stack_triggers(batch)
        s["passed"] = []
        about = order["about"]
        self.give_priority(about if about is not None and about in s["players"] else self.active_or_next(), False)

    def end_turn_or_combat(self, e):
        """CR 724.1, 724.2: triggers waiting cease to exist, the stack is exiled, the check runs (its triggers wait); then cleanup, or the next phase."""
        s = self.s
        if e["type"] == "END_COMBAT" and s["phase"] != "combat":
            return  # CR 724.2g
        s["pendingTriggers"] = []
        s["triggerOrder"] = None
        for o in reversed(s["stack"]):
            self.emit({"type": "removedFromStack", "object": dict(o), "reason": "exiled"})
        s["stack"] = []
        s["priority"] = None
        s["passed"] = []
        s["endedInSend"] = True
        self.checkpoint(None, hold=True)
        if s["result"] is not None:
            return
        if e["type"] == "END_COMBAT":
            s["steps"] = []
            s["stage"] = None
            self.end_phase()
            self.next_phase()
            return
        if s["combat"] is not None:
            s["combat"] = None
        self.empty_mana()
        s.update({"phase": "ending", "steps": [], "phases": []})
        self.begin_step("cleanup")

    def settle(self):
        """The game goes on by itself until it waits for a player (the chart's eventless transitions)."""
        s = self.s
        while s["result"] is None:
            pre = s["pregame"]
            if pre is not None:
                if pre["stage"] == "mulligans":
                    if self.bottom_due() is not None:
                        pre["stage"] = "bottom"
                        continue
                    if self.mulligan_due() is None:
                        pre["stage"] = "openingHand"
                        continue
                if pre["stage"] == "bottom" and self.bottom_due() is None:
                    pre["stage"] = "mulligans"
                    continue
                if pre["stage"] == "openingHand" and self.opening_hand_due() is None:
                    self.begin_first_turn()
                    continue
                return
            if s["triggerOrder"] is not None:
                if self.trigger_order_due() is None:
                    self.finish_trigger_order()
                    continue
                return
            stage = s["stage"]
            if stage == "declareBlockers" and self.awaited_defender() is None:
                s["stage"] = "priority"
                self.give_priority_to_active()  # CR 509.5
                continue
            if stage == "discarding" and self.discard_due() == 0:
                s["stage"] = "checking"
                self.cleanup_check()
                continue
            if stage in ("priority", "cleanupPriority") and self.is_step_over():
                self.end_step()
                if stage == "cleanupPriority":
                    self.begin_step("cleanup")  # CR 514.3a: another cleanup step
                else:
                    self.next_step()
                continue
            return

    # -- legal actions (for tools; the runner does not ask) ---------------------------------------

    def legal_actions(self, player=None):
        out = []
        a = self.awaiting()
        for p in self.s["players"]:
            if player is not None and p != player:
                continue
            candidates = []
            if a is not None and a["player"] == p:
                kind = a["kind"]
                if kind == "priority":
                    candidates += [{"type": "PASS_PRIORITY", "player": p, "choose": []}]
                    for t in ("CAST_SPELL", "ACTIVATE_ABILITY"):
                        for speed in ("instant", "sorcery"):
                            candidates.append({"type": t, "player": p, "speed": speed, "choose": ["id"]})
                    candidates.append({"type": "PLAY_LAND", "player": p, "choose": []})
                elif kind == "declareAttackers":
                    candidates.append({"type": "DECLARE_ATTACKERS", "player": p, "choose": ["attackers"]})
                elif kind == "declareBlockers":
                    candidates.append({"type": "DECLARE_BLOCKERS", "player": p, "choose": ["blockers"]})
                elif kind == "discard":
                    candidates.append({"type": "DISCARD", "player": p, "count": a["count"], "choose": []})
                elif kind == "orderTriggers":
                    candidates.append({"type": "ORDER_TRIGGERS", "player": p, "choose": ["order"]})
                elif kind == "chooseStartingPlayer":
                    candidates.append({"type": "CHOOSE_STARTING_PLAYER", "player": p, "choose": ["starting"]})
                elif kind == "mulligan":
                    candidates += [{"type": "KEEP", "player": p, "choose": []}, {"type": "MULLIGAN", "player": p, "choose": []}]
                elif kind == "bottom":
                    candidates.append({"type": "BOTTOM", "player": p, "count": a["count"], "choose": []})
                elif kind == "openingHandActions":
                    candidates.append({"type": "OPENING_HAND_DONE", "player": p, "choose": []})
            candidates.append({"type": "CONCEDE", "player": p, "choose": []})
            for c in candidates:
                if self.s["result"] is None and self.would_accept(c, a):
                    out.append(c)
        return out

    def would_accept(self, template, awaiting):
        event = {k: v for k, v in template.items() if k != "choose"}
        fills = {"id": f"object-{len(self.s['stack'])}", "attackers": [], "blockers": [], "order": (awaiting or {}).get("triggers", []), "starting": template["player"]}
        for field in template["choose"]:
            event[field] = fills[field]
        try:
            self.check_legal(event)
            return True
        except Refused:
            return False


DECISIONS = {"PASS_PRIORITY", "CAST_SPELL", "ACTIVATE_ABILITY", "PLAY_LAND", "DECLARE_ATTACKERS", "DECLARE_BLOCKERS", "DISCARD", "ORDER_TRIGGERS",
             "CHOOSE_STARTING_PLAYER", "MULLIGAN", "KEEP", "BOTTOM", "OPENING_HAND_DONE", "CONCEDE"}
LEAVING = {"CONCEDE", "LOSE", "WIN", "DRAW_GAME"}
PREGAME = {"CHOOSE_STARTING_PLAYER", "MULLIGAN", "KEEP", "BOTTOM", "OPENING_HAND_DONE"}


def order_violation(expected, order, rule):
    if sorted(order) != sorted(expected):
        return illegal(rule, f"order must list each of {', '.join(expected)} exactly once")
    return None


def combat_attacker(a):
    return {"id": a["id"], "defender": a["defender"], "firstStrike": a.get("firstStrike") is True, "doubleStrike": a.get("doubleStrike") is True,
            "blockedBy": [], "blocked": False, "dealtFirst": False}


def with_block(combat, player, b):
    """One more block (CR 509.1h): the attacker becomes blocked; a blocker may block several attackers (509.1b)."""
    for a in combat["attackers"]:
        if a["id"] == b["attacker"]:
            a["blocked"] = True
            a["blockedBy"].append(b["id"])
    existing = next((x for x in combat["blockers"] if x["id"] == b["id"]), None)
    if existing is not None:
        existing["blocking"].append(b["attacker"])
        for k in ("firstStrike", "doubleStrike"):
            if b.get(k) is not None:
                existing[k] = b[k]
    else:
        combat["blockers"].append({"id": b["id"], "player": player, "blocking": [b["attacker"]], "firstStrike": b.get("firstStrike") is True,
                                   "doubleStrike": b.get("doubleStrike") is True, "dealtFirst": False})


def removed_from_combat(combat, creature):
    """CR 506.4: the creature stops attacking or blocking; a blocked attacker stays blocked (509.1h)."""
    combat["attackers"] = [a for a in combat["attackers"] if a["id"] != creature]
    for a in combat["attackers"]:
        a["blockedBy"] = [x for x in a["blockedBy"] if x != creature]
    combat["blockers"] = [b for b in combat["blockers"] if b["id"] != creature]
    for b in combat["blockers"]:
        b["blocking"] = [x for x in b["blocking"] if x != creature]
