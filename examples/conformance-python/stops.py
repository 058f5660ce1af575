"""Stops, yields and automatic passes (docs/api.md, "Stops and auto-pass"): where each player wants to be asked.

An automatic pass is a pass (CR 117.4) that emits `autoPass` first. It is decided as a player
receives priority, after the checkpoint (`priorityFresh`: a setting changed while they hold
priority applies from the next time, but a YIELD given by the player holding priority passes at
once). A yield in force passes whatever the stack holds; with an empty stack, stops that match
nothing here pass. The loop guard: within one send, once automatic passes have begun as many new
turns as there are players, or reached MAX_AUTO_PASSES, the player is asked anyway.
"""

MAX_AUTO_PASSES = 10_000


class Stops:
    """The stops' part of Game (a mixin: it reads and changes `self.s`)."""

    def matches_stop(self, player):
        """Whether one of the player's stops names this step ('own'/'others' seen from them; no active player: 'others')."""
        s = self.s
        own = s["active"] is not None and s["active"] == player
        return any(x["step"] == s["step"] and (x["turn"] == "any" or (x["turn"] == "own") == own) for x in s["stops"][player])

    def auto_pass_reason(self):
        """Why the player holding priority passes automatically now ('yield' or 'noStop'), or None if they are asked."""
        s = self.s
        player = s["priority"]
        if player is None or s["result"] is not None or not s["priorityFresh"]:
            return None
        if s["autoPassTurns"] >= len(s["players"]) or s["autoPasses"] >= MAX_AUTO_PASSES:
            return None  # the loop guard
        if player in s["yields"]:
            return "yield"
        if s["stops"].get(player) is None or s["stack"]:
            return None
        return None if self.matches_stop(player) else "noStop"

    def auto_pass(self, reason):
        s = self.s
        player = s["priority"]
        s["autoPasses"] += 1
        s["priorityFresh"] = False
        self.emit({"type": "autoPass", "player": player, "turn": s["turn"], "step": s["step"], "reason": reason})
        self.pass_priority(player)

    # -- the settings -----------------------------------------------------------------------

    def set_stops(self, e):
        stops = e["stops"]
        self.s["stops"][e["player"]] = None if stops is None else [{"step": x["step"], "turn": x["turn"]} for x in stops]

    def set_yield(self, e):
        s = self.s
        player = e["player"]
        if e["until"] is None:
            s["yields"].pop(player, None)
            return
        s["yields"][player] = {"until": e["until"], "evenIfStackChanges": e.get("evenIfStackChanges") is True}
        if s["priority"] == player:
            s["priorityFresh"] = True  # given by the player holding priority, it passes at once

    def end_yields(self, *kinds):
        """'stackResolved' ends the next time anyone receives priority with an empty stack, 'endOfTurn' as the end
        step (or, without one, the cleanup step) begins, 'nextTurn' (and at the latest 'endOfTurn') at the next turnBegan."""
        yields = self.s["yields"]
        for p in [p for p, y in yields.items() if y["until"] in kinds]:
            del yields[p]

    def end_yields_on_stack_change(self):
        """A new object on the stack ends every yield that does not hold "even if the stack changes"."""
        yields = self.s["yields"]
        for p in [p for p, y in yields.items() if not y["evenIfStackChanges"]]:
            del yields[p]
