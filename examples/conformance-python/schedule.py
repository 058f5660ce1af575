"""What comes next: who takes the next turn, and which steps, phases and turns are passed over.

CR 101.4, 103.8a, 500.7, 508.8, 510.4, 614.10, 800.4k, 800.4m. The state keeps `rotation`, the
player the regular turn order continues from (an extra turn does not move it), and `extraTurns`,
the extra turns still to come, the most recently created last.
"""


class Schedule:
    """The schedule's part of Game (a mixin: it reads and changes `self.s`)."""

    def skipped_by_effect(self, what):
        """CR 614.10: a skip effect of the active player skips this step or phase."""
        return self.skips_every(self.s["active"], what)

    def skip_rule(self, step):
        """The rule that passes over the next step, or None (the first that applies, in this order)."""
        s = self.s
        c = s["combat"]
        if step == "draw" and s["turn"] == 1 and s["active"] == s["startingPlayer"] and len(s["seats"]) == 2:
            return "103.8a"  # 103.8c: in a multiplayer game nobody skips it
        if s["phase"] == "combat" and step in ("declareBlockers", "firstStrikeDamage", "combatDamage") and c is not None and c["attacksDeclared"] and not c["declared"]:
            return "508.8"
        if s["phase"] == "combat" and step == "firstStrikeDamage" and not self.has_first_striker():
            return "510.4"
        if self.skipped_by_effect(step):
            return "614.10"
        return None

    def pass_over_step(self, step):
        """A step passed over emits nothing; a passed-over declare attackers step declares no attackers (508.8)."""
        if step == "declareAttackers" and self.s["combat"] is not None:
            self.s["combat"]["attacksDeclared"] = True

    def next_turn(self):
        """Who takes the next turn: (player, extra).

        Extra turns come first, the most recently created first (CR 500.7); then the next player in
        turn order after the last regular turn. A player who has left never begins a turn (800.4k);
        a skip effect on turns (or on extra turns) passes that turn over (614.10). If every turn
        would be skipped for ever, a turn is taken anyway once a round of every kind has been passed.
        """
        s = self.s
        budget = len(s["extraTurns"]) + len(s["seats"]) * 2 + 1
        while True:
            extra = len(s["extraTurns"]) > 0
            turn = s["extraTurns"].pop() if extra else None
            player = turn["player"] if extra else self.other(s["rotation"])
            if not extra:
                s["rotation"] = player
            if player not in s["players"]:
                continue
            budget -= 1
            skipped = self.skips_every(player, "turn") or (extra and self.skips_every(player, "extraTurn"))
            if budget > 0 and skipped:
                continue
            return player, turn

    def departed_passed_over(self, start, end):
        """The players who have left whose seats the rotation went past between `start` and `end` (800.4m)."""
        seats = self.s["seats"]
        out = []
        if start == end:
            return out
        i = seats.index(start)
        for k in range(1, len(seats)):
            seat = seats[(i + k) % len(seats)]
            if seat == end:
                break
            if seat not in self.s["players"]:
                out.append(seat)
        return out
