"""The view (docs/api.md, TurnView): what the game shows, and the input it awaits (`awaiting`)."""

import copy


class View:
    """The view's part of Game (a mixin: it reads `self.s`)."""

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
        if s["stage"] == "ordering" and self.order_due() is not None:
            return self.order_due()
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
            "currentTurn": self.current_turn(),
            "turn": s["turn"],
            "activePlayer": active,
            "activeTeam": None,
            "phase": s["phase"],
            "step": s["step"],
            "priority": priority if s["result"] is None else None,
            "awaiting": awaiting,
            "decidedBy": {p: p for p in players},
            "stack": copy.deepcopy(s["stack"]),
            "landsPlayed": s["landsPlayed"].get(active, 0) if active is not None else 0,
            "landsPlayedBy": {p: s["landsPlayed"].get(p, 0) for p in players},
            "landPlaysAllowed": self.land_plays_allowed(active),
            "landPlaysAllowedBy": {p: (self.land_plays_allowed(p) if p == active else 0) for p in players},
            "spellsCast": {p: s["spellsCast"].get(p, 0) for p in players},
            "manaPool": {p: s["mana"].get(p, 0) for p in players},
            "handSizes": {p: s["hands"].get(p, 0) for p in players},
            "maxHandSize": {p: self.max_hand_size(p) for p in players},
            "players": list(players),
            "teams": None,
            "dayNight": None,
            "combat": combat,
            "effects": self.effects_view(),
            "stops": {p: copy.deepcopy(s["stops"].get(p)) for p in players},
            "gameOver": None if s["result"] is None else copy.deepcopy(s["result"]),
            "rules": s["rules"],
        }
        return view

    def current_turn(self):
        """Whose turn is in progress (also after they left), and whether it is an extra turn (CR 500.7)."""
        s = self.s
        if s["phase"] == "pregame":
            return None
        turn = {"player": s["turnOwner"], "extra": s["extraTurn"] is not None}
        if s["extraTurn"] is not None and s["extraTurn"].get("id") is not None:
            turn["id"] = s["extraTurn"]["id"]
        return turn
