"""Players leaving the game (CR 104, 800.4): conceding, losing, winning, a drawn game."""

from combat import removed_from_combat


class Leaving:
    """Leaving's part of Game (a mixin: it reads and changes `self.s`)."""

    def leave(self, e):
        s = self.s
        kind = e["type"]
        if kind == "DRAW_GAME":
            reasons = dict(s["reasons"])
            for p in s["players"]:
                reasons[p] = "draw"
            s["result"] = {"winners": [], "draw": True, "reasons": reasons}
            s["priority"] = None
            s["combat"] = None  # the game leaves its combat phase as it ends
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
        was_active = s["active"] == player
        if was_active:
            s["active"] = None  # CR 800.4j: the turn goes on without an active player
        # CR 800.4a: priority held by the player passes to the next player in turn order, who has not passed yet.
        priority_to = self.other(player) if s["priority"] == player and len(s["players"]) > 1 else None
        if s["priority"] == player:
            s["priority"] = None
        s["passed"] = [p for p in s["passed"] if p != player and p != priority_to]
        # CR 800.4d: their triggered abilities are never put on the stack.
        s["pendingTriggers"] = [t for t in s["pendingTriggers"] if t["controller"] != player]
        if s["triggerOrder"] is not None:
            s["triggerOrder"]["batch"] = [t for t in s["triggerOrder"]["batch"] if t["controller"] != player]
        if s["combat"] is not None:
            # CR 800.4a, 506.4: their creatures leave combat (their attackers if the turn was theirs, their blockers).
            c = s["combat"]
            gone = [a["id"] for a in c["attackers"]] if was_active else []
            for creature in gone + [b["id"] for b in c["blockers"] if b["player"] == player]:
                removed_from_combat(c, creature)
        s["extraTurns"] = [t for t in s["extraTurns"] if t["player"] != player]  # CR 800.4k
        for record in ("mana", "hands", "stops", "yields", "skips"):
            s[record].pop(player, None)
        s["reasons"][player] = reason
        self.emit({"type": "playerLeft", "player": player, "reason": reason})
        for o in reversed(removed):
            self.emit({"type": "removedFromStack", "object": dict(o), "reason": "removed"})
        if len(s["players"]) == 1:
            s["result"] = {"winners": list(s["players"]), "draw": False, "reasons": dict(s["reasons"])}
            s["combat"] = None  # the game leaves its combat phase as it ends
            self.emit({"type": "gameOver", "winners": list(s["players"]), "draw": False})
