"""A deliberately small Magic: The Gathering turn engine, written from the contract alone.

Two or more players (free-for-all, every opponent attacked at will), no variants, the rules eras
'current', 'm10' and 'classic': the turn structure (CR 500-514), priority and the stack of
opaque objects (CR 117, 405, 608), combat with first and double strike (CR 506-511) and, in
'm10', damage assignment order (509.2, 509.3 of 2009-2024), cleanup and its discard (CR 514),
land drops (CR 305), the mana pool (CR 106.4; mana burn in 'classic'), hand sizes, the
checkpoint hook (CR 117.5, 704.3), players leaving (CR 104, 800.4), objects put on and taken off
the stack outside priority, changes to combat, ending the turn (CR 724), the pregame (CR 103),
players ordering their own triggers (CR 603.3b) and continuous effects that change the turn
(CR 611, 613.7, 614.10).

The game is split by subject into mixins over one state dict `self.s`: view.py, priority.py,
turn.py, schedule.py, checkpoint.py, pregame.py, combat.py, effects.py, leaving.py and
legality.py; events.py reads events, eras.py tells the rules eras apart.

It knows nothing of the project's source: it is an example of an engine that the conformance
runner (`npx mtg-turn-engine conformance run`) can test through the protocol of
docs/conformance.md. The whole game state is one JSON-able dict, so persisting is a copy.
"""

import copy
import math
import random

from checkpoint import Checkpoint
from combat import Combat, combat_attacker, order_attackers, order_blockers, removed_from_combat, with_block
from effects import Effects
from eras import ERAS
from events import LEAVING, PREGAME, BadOptions, Refused, is_player_id, is_whole, parse_event
from leaving import Leaving
from legality import Legality
from pregame import Pregame, random_index, seed_state
from priority import Priority
from schedule import Schedule
from stops import Stops
from turn import Turn
from view import View

PERSISTED_FORMAT = "conformance-python/1"


# ----------------------------------------------------------------------------------------
# The game.


class Game(View, Priority, Turn, Schedule, Checkpoint, Pregame, Combat, Effects, Stops, Leaving, Legality):
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
        if not isinstance(players, list) or len(players) < 2 or not all(is_player_id(p) for p in players) or players[0] == players[1]:
            raise BadOptions("INVALID_OPTIONS", "options.players: a list of at least two unique non-empty player ids")
        for key, allowed in (("rules", tuple(ERAS)), ("variant", ("freeForAll",)), ("attack", ("all",)), ("orderTriggers", ("host", "players"))):
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
            "rotation": starting,  # the player the regular turn order continues from (CR 500.7: not moved by an extra turn)
            "extraTurns": [],
            "skips": {},
            "extraTurn": None,
            "emptyTurns": 0,  # turns in a row in which no step began (CR 104.4b)
            "effects": [],
            "stops": {p: None for p in players},
            "yields": {},
            "priorityFresh": False,  # a player received priority in this send: an automatic pass may be due
            "autoPasses": 0,  # automatic passes in this send, and the turns they began (the loop guard)
            "autoPassTurns": 0,
            "maxHand": int(o.get("maxHandSize", 7)),
            "handSize": hand,
            "orderTriggers": o.get("orderTriggers", "host"),
            "rules": o.get("rules") or "current",
            "nextObjectId": 1,  # the number of the next combat damage object (classic)
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
            self.s.update({"endedInSend": False, "priorityFresh": False, "autoPasses": 0, "autoPassTurns": 0})
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
            self.end_yields_on_stack_change()
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
            self.attacks_declared()
        elif kind == "DECLARE_BLOCKERS":
            for b in e["blockers"]:
                with_block(s["combat"], player, b)
            s["combat"]["declaredBy"].append(player)
        elif kind == "ORDER_BLOCKERS":
            order_blockers(s["combat"], e["attacker"], e["order"])
        elif kind == "ORDER_ATTACKERS":
            order_attackers(s["combat"], e["blocker"], e["order"])
        elif kind == "DISCARD":
            s["hands"][player] -= e["count"]
            self.emit({"type": "discard", "player": player, "count": e["count"]})
        elif kind == "TRIGGER":
            kept = [{"id": t["id"], "controller": t["controller"]} for t in e["triggers"] if t["controller"] in s["players"]]
            s["pendingTriggers"] += kept
            if kept:
                self.end_yields_on_stack_change()
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
        if kind in ("ADD_EXTRA_COMBAT", "ADD_EXTRA_PHASE", "ADD_EXTRA_STEP"):
            self.add_extra(e)
        elif kind == "ADD_EXTRA_TURN":
            s["extraTurns"].append({"player": player} if e.get("id") is None else {"player": player, "id": e["id"]})  # CR 500.7
        elif kind == "SKIP_NEXT":
            mine = s["skips"].setdefault(player, {})
            mine[e["what"]] = mine.get(e["what"], 0) + 1  # CR 614.10a: two skips skip two
        elif kind == "SET_STOPS":
            self.set_stops(e)
        elif kind == "YIELD":
            self.set_yield(e)
        elif kind == "ADD_EFFECT":
            self.add_effect(e)
        elif kind == "REMOVE_EFFECT":
            self.remove_effect(e["id"])
        elif kind == "HAND_SIZE":
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
            if e.get("cast") is True:  # any object cast this way counts, a copy included (707.12)
                s["spellsCast"][o["controller"]] = s["spellsCast"].get(o["controller"], 0) + 1
            s["passed"] = []
            self.end_yields_on_stack_change()
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
