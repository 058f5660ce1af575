"""The turn (CR 500-514, 724): steps, phases and turns, cleanup, ending the turn, and the game going on by itself until it waits."""

from eras import era
from events import MAX_AMOUNT, Refused
from schedule import REGULAR_PHASES, new_phase, phase_name

MAX_CLEANUP_STEPS = 100
MAX_EMPTY_TURNS_PER_PLAYER = 2


class Turn:
    """The turn's part of Game (a mixin: it reads and changes `self.s`)."""

    def begin_first_turn(self):
        s = self.s
        starting = s["pregame"]["starting"] if s["pregame"] is not None else s["startingPlayer"]
        if starting not in s["players"]:
            starting = self.other(starting)  # CR 800.4k: a player who left during the pregame takes no turn
        s["pregame"] = None
        s["startingPlayer"] = s["rotation"] = starting
        self.new_turn(starting)
        self.emit({"type": "turnBegan", "turn": s["turn"], "activePlayer": starting, "extra": False})
        self.next_phase()

    def new_turn(self, player):
        s = self.s
        s.update({
            "active": player, "turnOwner": player, "phase": "beginning", "step": "untap", "steps": [], "phases": [new_phase(k) for k in REGULAR_PHASES],
            "mainSeen": False, "priority": None, "passed": [], "landsPlayed": {}, "spellsCast": {p: 0 for p in s["players"]},
            "combat": None, "cleanupSteps": 0, "cleanupCheck": None, "stage": None,
        })

    def begin_turn(self):
        """The next turn begins (CR 500.7, 614.10, 800.4k); 'untilYourNextTurn' effects end right after turnBegan.

        Its first phase is for the caller, next_phase, to begin."""
        s = self.s
        if s["emptyTurns"] >= MAX_EMPTY_TURNS_PER_PLAYER * len(s["seats"]):
            # CR 104.4b: turn after turn with every phase and step skipped is a loop of mandatory actions: a draw.
            self.leave({"type": "DRAW_GAME"})
            return
        rotation = s["rotation"]
        player, extra = self.next_turn()
        s["turn"] += 1
        s["emptyTurns"] += 1
        s["autoPassTurns"] += 1 if s["autoPasses"] > 0 else 0  # the loop guard counts the turns automatic passes began
        self.new_turn(player)
        s["extraTurn"] = extra
        began = {"type": "turnBegan", "turn": s["turn"], "activePlayer": player, "extra": extra is not None}
        if extra is not None and extra.get("id") is not None:
            began["id"] = extra["id"]
        self.emit(began)
        # CR 800.4m: the turns of players who have left that the rotation went past.
        self.expire({"at": "turnBegan", "player": player, "passedOver": self.departed_passed_over(rotation, s["rotation"])})
        self.end_yields("nextTurn", "endOfTurn")

    def next_phase(self):
        """The next phase of the queue begins; after the last one, the next turn (a loop: turns may pass with everything skipped)."""
        s = self.s
        while s["result"] is None:
            if not s["phases"]:
                self.begin_turn()
                continue
            entry = s["phases"].pop(0)
            kind = entry["kind"]
            name = phase_name(kind, s["mainSeen"])
            s["mainSeen"] = s["mainSeen"] or kind == "main"  # CR 505.1a: a skipped first main phase still is the precombat one
            if self.skipped_by_effect(name):
                continue  # CR 614.10: a skipped phase emits nothing
            s["phase"] = name
            s["steps"] = [dict(x) for x in entry["steps"]]
            if kind == "combat":
                s["combat"] = {"attackers": [], "blockers": [], "declared": False, "attacksDeclared": False, "declaredBy": [], "firstStrikeStep": False}
            self.next_step()
            return

    def next_step(self):
        s = self.s
        while s["steps"]:
            entry = s["steps"].pop(0)
            if self.skip_rule(entry) is None:
                self.begin_step(entry["step"])
                return
            self.pass_over_step(entry["step"])
        self.end_phase()
        self.next_phase()

    def empty_mana(self, boundary):
        """CR 500.5: mana empties as each step and phase ends; in 'classic' only as a phase ends, and it burns (classic 300.3)."""
        s = self.s
        if s["result"] is not None or (boundary == "step" and era(s)["manaEmpties"] == "phase"):
            return
        for p in s["players"]:
            if s["mana"].get(p, 0) > 0 and not self.keeps_mana(p):
                amount = s["mana"][p]
                s["mana"][p] = 0
                self.emit({"type": "manaEmptied", "player": p, "amount": amount})
                if era(s)["manaBurn"]:
                    self.emit({"type": "manaBurn", "player": p, "amount": amount})

    def end_step(self):
        self.empty_mana("step")

    def end_combat(self):
        """CR 511.3, 500.5a: the combat phase ends: creatures leave combat, 'endOfCombat' effects end."""
        self.s["combat"] = None
        self.expire({"at": "endOfCombat"})

    def end_phase(self):
        if self.s["phase"] == "combat":
            self.end_combat()
        self.empty_mana("phase")  # after the phase's own effects ended (500.5)

    def begin_step(self, step):
        s = self.s
        s.update({"step": step, "priority": None, "passed": [], "cleanupCheck": None, "stage": "priority", "emptyTurns": 0})
        if step == "cleanup":
            s["cleanupSteps"] += 1
        self.emit({"type": "stepBegan", "turn": s["turn"], "phase": s["phase"], "step": step})
        self.expire({"at": "stepBegan", "step": step, "player": s["active"], "turn": s["turn"]})
        if step in ("end", "cleanup"):
            self.end_yields("endOfTurn")  # so the player is asked in the end step (513.1a)
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
                s["combat"]["attacksDeclared"] = True  # CR 800.4j: nobody declares attackers
                self.attacks_declared()
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

    def discard_due(self):
        """CR 514.1: how many cards the active player must discard down to their maximum hand size."""
        s = self.s
        if s["active"] is None or s["result"] is not None:
            return 0
        most = self.max_hand_size(s["active"])
        return 0 if most is None else max(0, s["hands"].get(s["active"], 0) - most)

    def cleanup_check(self):
        """CR 514.2, 514.3a: damage wears off; if the check finds anything, players receive priority."""
        s = self.s
        self.emit({"type": "cleanup", "player": s["active"]})
        self.expire({"at": "cleanup"})  # CR 514.2: "until end of turn" effects end
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
        self.end_yields_on_stack_change()
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
            self.end_combat()
        self.empty_mana("phase")
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
                s["stage"] = "ordering"
                continue
            if stage == "ordering" and self.order_due() is None:
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
            reason = self.auto_pass_reason()
            if reason is not None:
                self.auto_pass(reason)
                continue
            return
