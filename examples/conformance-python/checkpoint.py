"""The checkpoint (CR 117.5, 704.3): state-based actions and triggers are checked through the host's hook (the runner's `checkpoint`)."""

from events import DECISIONS, LEAVING, Refused, is_object_id, is_player_id, parse_event

MAX_CHECKPOINT_ROUNDS = 100


class Checkpoint:
    """The checkpoint's part of Game (a mixin: it reads and changes `self.s`)."""

    def call_hook(self, about):
        view = self.view(about)
        pending = self.s["pending"]
        self.s["pending"] = []
        try:
            result = self.hook(view, pending)
        except Exception as err:  # the runner answered an error, or went away
            raise Refused("HOOK_FAILED", f"the checkpoint hook failed: {err}")
        if result is None:
            return [], False, []
        if not isinstance(result, dict):
            raise Refused("HOOK_FAILED", "the checkpoint hook must return { triggers?, stateBasedActions?, events? }")
        triggers = result.get("triggers") or []
        events = result.get("events") or []
        sba = result.get("stateBasedActions") is True
        if not isinstance(triggers, list) or not all(isinstance(t, dict) and is_object_id(t.get("id")) and is_player_id(t.get("controller")) for t in triggers):
            raise Refused("HOOK_FAILED", "result.triggers: must be a list of { id, controller }")
        for i, t in enumerate(triggers):
            if t["controller"] not in self.s["seats"]:
                raise Refused("HOOK_FAILED", f"result.triggers[{i}].controller: {t['controller']!r} is not a player of this game")
        if not isinstance(events, list):
            raise Refused("HOOK_FAILED", "result.events: must be a list of events")
        return [{"id": t["id"], "controller": t["controller"]} for t in triggers], sba, events

    def checkpoint(self, about, hold=False):
        """The check before a player receives priority: returns whether anything happened (CR 514.3a)."""
        s = self.s
        if self.hook is None and (hold or not s["pendingTriggers"]):
            s["pending"] = []
            return False
        activity = False
        shown = about
        for _ in range(MAX_CHECKPOINT_ROUNDS):
            if self.hook is not None:
                reported, sba, events = self.call_hook(shown)
            else:
                reported, sba, events = [], False, []
                s["pending"] = []
            if not reported and not sba and not events and not s["pendingTriggers"]:
                return s["result"] is not None or activity
            applied, stop = self.apply_hook_events(events)
            triggers = [t for t in s["pendingTriggers"] + reported + applied if t["controller"] in s["players"]]
            ids = [o["id"] for o in s["stack"]] + [t["id"] for t in (s["triggerOrder"] or {}).get("batch", [])]
            for t in triggers:
                if t["id"] in ids:
                    raise Refused("HOOK_FAILED", f"result.triggers: an object with id {t['id']} is already on the stack (CR 405.1)")
                ids.append(t["id"])
            acted = sba or bool(reported) or bool(applied) or (not hold and bool(s["pendingTriggers"]))
            if stop or s["result"] is not None:
                return True
            if not acted and not events:
                return activity
            if acted:
                activity = True
            if hold:
                s["pendingTriggers"] = [t for t in s["pendingTriggers"] + reported + applied if t["controller"] in s["players"]]
            elif self.needs_ordering(triggers):
                s["pendingTriggers"] = []
                s["triggerOrder"] = {"batch": triggers, "orders": {}, "about": about}
                return True
            else:
                self.stack_triggers(triggers)
                s["pendingTriggers"] = []
                if triggers:
                    s["passed"] = []
                    self.end_yields_on_stack_change()
            shown = None if about is None else self.active_or_next()
        raise Refused("HOOK_FAILED", f"the checkpoint hook still reported something after {MAX_CHECKPOINT_ROUNDS} checks in a row (CR 704.3)")

    def apply_hook_events(self, events):
        """The host events a checkpoint returned, applied in order as if sent (724.1a: one that ends the turn drops the rest)."""
        triggers = []
        for i, raw in enumerate(events):
            try:
                event = parse_event(raw, self.s["seats"])
                self.check_legal(event)
            except Refused as refusal:
                raise Refused("HOOK_FAILED", f"result.events[{i}] was refused: {refusal.message}")
            kind = event["type"]
            if kind in DECISIONS:
                raise Refused("HOOK_FAILED", f"result.events[{i}]: {kind} is a player's decision, not a host event")
            if kind == "END_TURN" or (kind == "END_COMBAT" and self.s["phase"] == "combat"):
                self.raised.append(event)
                return triggers, True
            if kind == "END_COMBAT":
                continue
            if kind == "TRIGGER":
                triggers += [{"id": t["id"], "controller": t["controller"]} for t in event["triggers"] if t["controller"] in self.s["players"]]
                continue
            if kind in LEAVING:
                self.leave(event)
                if self.s["result"] is not None:
                    return triggers, True
                continue
            self.host_effect(event)
        return triggers, False

    def needs_ordering(self, triggers):
        if self.s["orderTriggers"] != "players":
            return False
        controllers = [t["controller"] for t in triggers]
        return len(controllers) != len(set(controllers))

    def stack_triggers(self, triggers):
        """CR 603.3b: the active player's triggers first (lowest), then the other player's, each in the order given."""
        for p in self.apnap():
            for t in triggers:
                if t["controller"] == p:
                    self.s["stack"].append({"id": t["id"], "controller": p, "kind": "trigger"})

    def trigger_order_due(self):
        order = self.s["triggerOrder"]
        if order is None:
            return None
        for p in self.apnap():
            ours = [t["id"] for t in order["batch"] if t["controller"] == p]
            if len(ours) >= 2 and p not in order["orders"]:
                return p, ours
        return None
