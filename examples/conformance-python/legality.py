"""What makes an event illegal now: ILLEGAL_ACTION, naming the rule (CR 117, 305, 307, 405, 508, 509, 514, 603, 800)."""

from events import DECISIONS, Refused, illegal, order_violation
from schedule import MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS


class Legality:
    """The legality checks of Game (a mixin: it reads `self.s`)."""

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
            if spell:
                checks.append(lambda: self.spell_limit_violation(player))
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
                played, allowed = s["landsPlayed"].get(player, 0), self.land_plays_allowed(player)
                if played >= allowed:
                    return illegal("305.2", f"{player} has already played {played} land(s) this turn (allowed: {allowed})")
                return None
            checks.insert(0, land)
        elif kind == "DECLARE_ATTACKERS":
            checks.insert(0, lambda: self.awaited("declareAttackers", player, "508.1", "a declaration of attackers"))
            checks.append(lambda: self.attack_violation(player, e["attackers"]))
        elif kind == "DECLARE_BLOCKERS":
            checks.insert(0, lambda: self.awaited("declareBlockers", player, "509.1", "a declaration of blockers"))
            checks.append(lambda: self.block_violation(player, e["blockers"]))
        elif kind in ("ORDER_BLOCKERS", "ORDER_ATTACKERS"):
            # 509.2, 509.3 (2009-2024): the order awaited, for that creature, listing each of its creatures once.
            blockers = kind == "ORDER_BLOCKERS"
            awaited_kind, rule, key, listed = ("orderBlockers", "509.2", "attacker", "blockers") if blockers else ("orderAttackers", "509.3", "blocker", "attackers")
            checks.insert(0, lambda: self.awaited(awaited_kind, player, rule, "a damage assignment order"))
            checks.append(lambda: None if self.awaiting()[key] == e[key] else illegal(rule, f"the order awaited is for {key} {self.awaiting()[key]}, not {e[key]}"))
            checks.append(lambda: order_violation(self.awaiting()[listed], e["order"], rule))
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
            checks.append(lambda: None if self.cards_to_bottom(s["pregame"]["mulligans"][player] + 1) <= s["handSize"] else illegal("103.5", f"{player} has no cards left to mulligan"))
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
        elif kind in ("HAND_SIZE", "ADD_MANA", "LOSE", "WIN", "SET_STOPS", "YIELD"):
            checks = [lambda: self.in_game(player)]
        elif kind == "SPEND_MANA":
            checks = [lambda: self.in_game(player), lambda: None if s["mana"].get(player, 0) >= e["amount"] else illegal("106.4", f"{player}'s pool holds {s['mana'].get(player, 0)} mana; cannot spend {e['amount']}")]
        elif kind == "PUT_ON_STACK":
            checks = [
                lambda: self.in_game(e["object"]["controller"], "object.controller"),
                lambda: self.spell_limit_violation(e["object"]["controller"]) if e.get("cast") is True else None,
                lambda: self.id_taken([e["object"]["id"]]),
            ]
        elif kind in ("ADD_EXTRA_COMBAT", "ADD_EXTRA_PHASE", "ADD_EXTRA_STEP"):
            checks = [lambda: self.add_extra(e, dry=True)]
        elif kind == "ADD_EXTRA_TURN":
            checks = [lambda: self.in_game(player), lambda: None if len(s["extraTurns"]) < MAX_PENDING_EXTRA_TURNS else illegal("500.7", f"at most {MAX_PENDING_EXTRA_TURNS} extra turns can be pending at once")]
        elif kind == "SKIP_NEXT":
            checks = [
                lambda: self.in_game(player),
                lambda: None if s["skips"].get(player, {}).get(e["what"], 0) < MAX_PENDING_SKIPS else illegal("614.10a", f"at most {MAX_PENDING_SKIPS} skips of the same thing can be pending for one player"),
            ]
        elif kind == "ADD_EFFECT":
            checks = [lambda: self.effect_violation(e)]
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

    # The decisions that would be accepted now (the protocol's legalActions; the runner does not ask it).


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
                elif kind == "orderBlockers":
                    candidates.append({"type": "ORDER_BLOCKERS", "player": p, "attacker": a["attacker"], "choose": ["order"]})
                elif kind == "orderAttackers":
                    candidates.append({"type": "ORDER_ATTACKERS", "player": p, "blocker": a["blocker"], "choose": ["order"]})
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
        fills = {"id": f"object-{len(self.s['stack'])}", "attackers": [], "blockers": [], "order": next((awaiting[k] for k in ("triggers", "blockers", "attackers") if k in (awaiting or {})), []), "starting": template["player"]}
        for field in template["choose"]:
            event[field] = fills[field]
        try:
            self.check_legal(event)
            return True
        except Refused:
            return False
