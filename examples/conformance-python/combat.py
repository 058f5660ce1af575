"""Combat (CR 506-511): declarations, who deals damage in each damage step, creatures entering and leaving combat."""

from eras import era
from events import illegal


class Combat:
    """Combat's part of Game (a mixin: it reads and changes `self.s`)."""

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

    def attacks_declared(self):
        """CR 508.2: the active player receives priority; in 'classic' with no attackers the rest of the step is skipped (classic 308.5)."""
        s = self.s
        if era(s)["noAttackersSkipsRestOfStep"] and not s["combat"]["declared"]:
            s["stage"] = None
            self.end_step()
            self.next_step()
            return
        s["stage"] = "priority"
        self.give_priority_to_active()

    def order_due(self):
        """The next damage assignment order of the 'm10' era (509.2, 509.3 of 2009-2024), as the awaited input, or None.

        First, for each attacker blocked by two or more creatures, in the order declared, the active
        player orders its blockers; then for each blocker blocking two or more attackers, its controller.
        """
        s = self.s
        c = s["combat"]
        if c is None or s["result"] is not None or not era(s)["damageAssignmentOrder"]:
            return None
        if s["active"] is not None:
            for a in c["attackers"]:
                if not a["ordered"] and len(a["blockedBy"]) >= 2:
                    return {"kind": "orderBlockers", "player": s["active"], "attacker": a["id"], "blockers": list(a["blockedBy"])}
        for b in c["blockers"]:
            if not b["ordered"] and len(b["blocking"]) >= 2:
                return {"kind": "orderAttackers", "player": b["player"], "blocker": b["id"], "attackers": list(b["blocking"])}
        return None

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
        s = self.s
        if not era(s)["combatDamageOnStack"] or not ids:
            self.emit({"type": "combatDamage", "first": first, "creatures": ids})
            return
        # classic 310.4: one object on the stack, controlled by the active player; players then get priority.
        s["stack"].append({"id": f"combat-damage-{s['nextObjectId']}", "controller": s["active"] or s["turnOwner"], "kind": "combatDamage", "creatures": ids})
        s["nextObjectId"] += 1
        self.end_yields_on_stack_change()


def combat_attacker(a):
    return {"id": a["id"], "defender": a["defender"], "firstStrike": a.get("firstStrike") is True, "doubleStrike": a.get("doubleStrike") is True,
            "blockedBy": [], "blocked": False, "dealtFirst": False, "ordered": False}


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
                                   "doubleStrike": b.get("doubleStrike") is True, "dealtFirst": False, "ordered": False})


def removed_from_combat(combat, creature):
    """CR 506.4: the creature stops attacking or blocking; a blocked attacker stays blocked (509.1h)."""
    combat["attackers"] = [a for a in combat["attackers"] if a["id"] != creature]
    for a in combat["attackers"]:
        a["blockedBy"] = [x for x in a["blockedBy"] if x != creature]
    combat["blockers"] = [b for b in combat["blockers"] if b["id"] != creature]
    for b in combat["blockers"]:
        b["blocking"] = [x for x in b["blocking"] if x != creature]


def order_blockers(combat, attacker, order):
    """509.2 (2009-2024): the damage assignment order of an attacker's blockers."""
    for a in combat["attackers"]:
        if a["id"] == attacker:
            a["blockedBy"], a["ordered"] = list(order), True


def order_attackers(combat, blocker, order):
    """509.3 (2009-2024): the damage assignment order of a blocker's attackers."""
    for b in combat["blockers"]:
        if b["id"] == blocker:
            b["blocking"], b["ordered"] = list(order), True
