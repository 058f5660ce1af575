"""Priority (CR 117): who receives it, passing it, and the top of the stack resolving when all have passed (CR 608)."""


class Priority:
    """Priority's part of Game (a mixin: it reads and changes `self.s`)."""

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
        if player not in s["players"]:
            # CR 800.4a: that player left meanwhile: the next player in turn order still in the game.
            player = (self.other(player) if player in s["seats"] else None) or self.active_or_next()
        s["priority"] = player
        s["priorityFresh"] = True  # automatic passes are decided now (stops.py)
        if fresh:
            s["passed"] = []
        if not s["stack"]:
            self.end_yields("stackResolved")

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
            if top["kind"] == "combatDamage":  # classic 310.4: combat damage is dealt as its object resolves (no resolve event)
                self.emit({"type": "combatDamage", "first": s["step"] == "firstStrikeDamage", "creatures": list(top["creatures"])})
            else:
                self.emit({"type": "resolve", "object": dict(top)})
            self.give_priority_to_active()
