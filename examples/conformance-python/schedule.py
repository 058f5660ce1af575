"""What comes next: the phases and steps still to come, who takes the next turn, and what is passed over.

CR 101.4, 103.8a, 500.7-500.10, 505.1a, 508.8, 510.4, 614.10, 800.4k, 800.4m. The state keeps one
queue: `steps`, the steps left in this phase, and `phases`, the phases left in this turn, each
phase { kind, steps, extra? } and each step { step, passedOver? } (passedOver: the rule that passes
it over whatever happens, 500.10). Added phases and steps (ADD_EXTRA_COMBAT, ADD_EXTRA_PHASE,
ADD_EXTRA_STEP) go into that queue and are taken as regular ones are. `rotation` is the player the
regular turn order continues from (an extra turn does not move it), `extraTurns` the extra turns
still to come (the most recently created last), `skips` the pending "skip your next ..." of each
player: { player: { what: count } }.
"""

from events import illegal

KIND_STEPS = {
    "beginning": ["untap", "upkeep", "draw"],
    "main": ["main"],
    "combat": ["beginningOfCombat", "declareAttackers", "declareBlockers", "firstStrikeDamage", "combatDamage", "endOfCombat"],
    "ending": ["end", "cleanup"],
}
REGULAR_PHASES = ["beginning", "main", "combat", "main", "ending"]
MAX_PHASES = 64
MAX_STEPS = 64
MAX_PENDING_SKIPS = 64
MAX_PENDING_EXTRA_TURNS = 256


def kind_of(phase):
    """Both main phases are main phases."""
    return "main" if phase in ("precombatMain", "postcombatMain") else phase


def kind_of_step(step):
    return next(kind for kind, steps in KIND_STEPS.items() if step in steps)


def phase_name(kind, main_seen):
    """CR 505.1a: the first main phase of a turn, taken or skipped, is the precombat main phase."""
    return ("postcombatMain" if main_seen else "precombatMain") if kind == "main" else kind


def new_phase(kind, extra=False, only=None):
    """A phase of a kind with all its steps; `only`: its one step, the others passed over (CR 500.10)."""
    steps = [{"step": step} if only is None or step == only else {"step": step, "passedOver": "500.10"} for step in KIND_STEPS[kind]]
    return {"kind": kind, "steps": steps, "extra": True} if extra else {"kind": kind, "steps": steps}


class Schedule:
    """The schedule's part of Game (a mixin: it reads and changes `self.s`)."""

    # -- passing over (CR 614.10) ------------------------------------------------------------

    def skipped_by_effect(self, what):
        """CR 614.10: a skip effect or a pending "skip your next ..." of the active player skips this step or phase.

        Uses up the pending skip: ask only when the step or phase is about to begin."""
        s = self.s
        player = s["active"]
        if player is None:
            return False
        if self.skips_every(player, what):
            return True
        return self.use_pending_skip(player, what)

    def use_pending_skip(self, player, what):
        mine = self.s["skips"].get(player, {})
        if mine.get(what, 0) <= 0:
            return False
        mine[what] -= 1
        if mine[what] == 0:
            del mine[what]
        if not mine:
            self.s["skips"].pop(player, None)
        return True

    def skip_rule(self, entry):
        """The rule that passes over the next step, or None: the first that applies, in this order."""
        s = self.s
        c = s["combat"]
        step = entry["step"]
        if "passedOver" in entry:
            return entry["passedOver"]  # CR 500.10: a step of an added phase that has only another step
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

    # -- added steps and phases (CR 500.8-500.10) ---------------------------------------------

    def gets_on_this_turn(self, player):
        """CR 500.10a: a step or phase that a player "gets" goes only into a turn of theirs; without `player`, into any turn."""
        return player is None or (self.s["active"] is not None and self.s["active"] == player)

    def add_phases(self, added, after, dry=False):
        """CR 500.8: directly after the current phase, or after the first phase named `after` still to come this turn."""
        s = self.s
        if len(s["phases"]) + len(added) > MAX_PHASES:
            raise illegal("500.8", f"a turn has at most {MAX_PHASES} phases to come")
        if (after or s["phase"]) == "ending" and any(p["kind"] == "combat" for p in added):
            raise illegal("500.8", "an additional combat phase cannot be added after the ending phase: the turn ends with its cleanup step")
        at = None
        if after is None or after == s["phase"]:
            at = 0
        else:
            main_seen = s["mainSeen"]
            for i, entry in enumerate(s["phases"]):
                name = phase_name(entry["kind"], main_seen)
                main_seen = main_seen or entry["kind"] == "main"
                if name == after:
                    at = i + 1
                    break
        if at is None:
            raise illegal("500.8", f"there is no {after} phase still to come this turn")
        if not dry:
            s["phases"][at:at] = added

    def add_step(self, step, after=None, before=None, dry=False):
        """CR 500.9: directly after the current step (the default), or after or before the first step of that name still to come."""
        s = self.s
        if step == "main":
            raise illegal("505.2", "the main phase has no steps: add a main phase instead (ADD_EXTRA_PHASE, or ADD_EXTRA_STEP with afterPhase)")
        kind = kind_of_step(step)
        anchor = before if before is not None else after
        offset = 0 if before is not None else 1
        queues = [(kind_of(s["phase"]), s["steps"])] + [(p["kind"], p["steps"]) for p in s["phases"]]
        if anchor is None or (before is None and anchor == s["step"]):
            where = (queues[0], 0)
        else:
            where = next(((q, i + offset) for q in queues for i, x in enumerate(q[1]) if x["step"] == anchor), None)
            if where is None:
                raise illegal("500.9", f"there is no {anchor} step still to come this turn to add a step {'before' if before is not None else 'after'}")
        (phase_kind, steps), at = where
        if phase_kind != kind:
            raise illegal("500.9", f"a {step} step can only be added to a {kind} phase")
        if len(steps) >= MAX_STEPS:
            raise illegal("500.9", f"a phase has at most {MAX_STEPS} steps to come")
        if not dry:
            steps.insert(at, {"step": step})

    def add_extra(self, e, dry=False):
        """ADD_EXTRA_COMBAT, ADD_EXTRA_PHASE, ADD_EXTRA_STEP: checked with `dry` (ILLEGAL_ACTION), then added."""
        s = self.s
        kind = e["type"]
        if kind == "ADD_EXTRA_COMBAT":
            if s["phase"] in ("ending", "pregame"):
                raise illegal("500.8", f"an additional combat phase cannot be added during the {s['phase']} phase: no phase of this turn comes after it")
            added = [new_phase("combat", True)] + ([] if e.get("followedByMain") is False else [new_phase("main", True)])
            self.add_phases([new_phase("combat", True), new_phase("main", True)] if dry else added, e.get("after"), dry)
            return
        if e.get("player") is not None and e["player"] not in s["players"]:
            raise illegal("800.4a", f"player {e['player']} has left the game")
        if s["phase"] == "pregame":
            raise illegal("500.9" if kind == "ADD_EXTRA_STEP" else "500.8", "nothing can be added before the game has begun")
        if kind == "ADD_EXTRA_STEP" and e.get("after") is not None and e.get("before") is not None:
            raise illegal("500.9", "name `after` or `before`, not both")
        if not self.gets_on_this_turn(e.get("player")):
            return  # CR 500.10a: nothing is added
        if kind == "ADD_EXTRA_PHASE":
            self.add_phases([new_phase(kind_of(e["phase"]), True)], e.get("after"), dry)
        elif e.get("afterPhase") is not None:
            # CR 500.10: a new phase of the step's kind with only that step, directly after that phase.
            self.add_phases([new_phase(kind_of_step(e["step"]), True, e["step"])], e["afterPhase"], dry)
        else:
            self.add_step(e["step"], e.get("after"), e.get("before"), dry)

    # -- turns (CR 500.7, 614.10a, 800.4k) ---------------------------------------------------

    def next_turn(self):
        """Who takes the next turn: (player, the extra turn or None).

        Extra turns come first, the most recently created first (CR 500.7); then the next player in
        turn order after the last regular turn. A player who has left never begins a turn (800.4k);
        a pending "skip your next turn" (614.10a) or a skip effect on turns or extra turns (614.10)
        passes that turn over. If every turn would be skipped for ever, a turn is taken anyway once
        a round of every kind has been passed over.
        """
        s = self.s
        budget = len(s["extraTurns"]) + len(s["seats"]) * 2 + sum(m.get("turn", 0) for m in s["skips"].values()) + 1
        while True:
            extra = s["extraTurns"].pop() if s["extraTurns"] else None
            player = extra["player"] if extra is not None else self.other(s["rotation"])
            if extra is None:
                s["rotation"] = player
            if player not in s["players"]:
                continue
            budget -= 1
            by_effect = self.skips_every(player, "turn") or (extra is not None and self.skips_every(player, "extraTurn"))
            if budget > 0 and (by_effect or s["skips"].get(player, {}).get("turn", 0) > 0):
                if not by_effect:
                    self.use_pending_skip(player, "turn")
                continue
            return player, extra

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
