"""Continuous effects that change the turn (ADD_EFFECT, REMOVE_EFFECT): what they do and when they end.

CR 305.2, 402.2, 500.5, 500.5a, 514.2, 611.2b, 613.7, 614.10, 800.4m. Each effect in force is
{ id, effect, duration, controller?, since } (since: the turn it was created in); the view shows
all but `since`, in the order they were created (their timestamps, 613.7).
"""

from events import MAX_AMOUNT, illegal

MAX_EFFECTS = 1000
LANDS_PER_TURN = 1


class Effects:
    """The effects' part of Game (a mixin: it reads and changes `self.s`)."""

    def effects_of(self, kind, player):
        """The effects of one kind that apply to a player (those it names, or every player), oldest first (613.7)."""
        out = []
        for e in self.s["effects"]:
            effect = e["effect"]
            if effect["kind"] == kind and ("players" not in effect or player in effect["players"]):
                out.append(effect)
        return out

    def max_hand_size(self, player):
        """CR 402.2: the game's maximum, then each effect in timestamp order, `set` (None: no maximum) then `change`."""
        size = self.s["maxHand"]
        for e in self.effects_of("maxHandSize", player):
            if "set" in e:
                size = e["set"]
            if "change" in e and size is not None:
                size = max(0, size + e["change"])
        return size

    def land_plays_allowed(self, player):
        """CR 305.2: one land each turn, then each effect, `set` then `change` (Exploration +1, "can't play lands" 0)."""
        if player is None:
            return 0
        plays = LANDS_PER_TURN
        for e in self.effects_of("landPlays", player):
            if "set" in e:
                plays = e["set"]
            if "change" in e:
                plays = max(0, plays + e["change"])
        return plays

    def spell_limit_violation(self, player):
        """CR 101.2: with `spellLimit` effects a player can't cast more than the smallest limit each turn ("can't" wins)."""
        limits = [e["perTurn"] for e in self.effects_of("spellLimit", player)]
        cast = self.s["spellsCast"].get(player, 0)
        if limits and cast >= min(limits):
            return illegal("101.2", f"{player} can't cast more than {min(limits)} spell(s) each turn and has cast {cast}")
        return None

    def keeps_mana(self, player):
        """CR 500.5: "mana doesn't empty" from this player's pool."""
        return len(self.effects_of("keepMana", player)) > 0

    def skips_every(self, player, what):
        """CR 614.10: a skip effect makes the player skip every such step, phase, combat phase, turn or extra turn."""
        return player is not None and any(e["what"] == what for e in self.effects_of("skip", player))

    # -- adding, removing and ending ------------------------------------------------------

    def effect_violation(self, e):
        """ADD_EFFECT: an id already in force, too many effects, or a controller who has left (ILLEGAL_ACTION)."""
        effects = self.s["effects"]
        if any(x["id"] == e["id"] for x in effects):
            return illegal("613.7", f"an effect with id {e['id']} is already in force; remove it first or use another id")
        if len(effects) >= MAX_EFFECTS:
            return illegal("613.7", f"at most {MAX_EFFECTS} effects can be in force at once")
        if e.get("controller") is not None and e["controller"] not in self.s["players"]:
            return illegal("800.4a", f"controller {e['controller']} has left the game")
        return None

    def add_effect(self, e):
        entry = {"id": e["id"], "effect": known_fields(e["effect"]), "duration": e.get("duration") or "untilRemoved", "since": self.s["turn"]}
        if isinstance(entry["duration"], dict):
            entry["duration"] = {k: entry["duration"][k] for k in ("untilStep", "ofPlayer") if k in entry["duration"]}
        if e.get("controller") is not None:
            entry["controller"] = e["controller"]
        self.s["effects"].append(entry)

    def remove_effect(self, effect_id):
        """The effect ends (its source left, ...); an id not in force already ended and nothing happens."""
        s = self.s
        if any(x["id"] == effect_id for x in s["effects"]):
            s["effects"] = [x for x in s["effects"] if x["id"] != effect_id]
            self.emit({"type": "effectEnded", "id": effect_id})

    def expire(self, moment):
        """The effects that end at a moment end, each with `effectEnded`, in the order they were created."""
        s = self.s
        ended = [e for e in s["effects"] if ends_at(e, moment)]
        if not ended:
            return
        s["effects"] = [e for e in s["effects"] if not ends_at(e, moment)]
        for e in ended:
            self.emit({"type": "effectEnded", "id": e["id"]})

    def effects_view(self):
        return [{k: copy_json(e[k]) for k in ("id", "effect", "duration", "controller") if k in e} for e in self.s["effects"]]


def ends_at(e, moment):
    """Whether an effect ends at a moment: {at: 'cleanup'}, {at: 'endOfCombat'}, {at: 'turnBegan', player, passedOver}
    or {at: 'stepBegan', step, player, turn}.

    'endOfTurn' ends in the cleanup step (514.2), 'endOfCombat' as the combat phase ends (500.5a),
    'untilYourNextTurn' as its controller's next turn begins (611.2b), {untilStep, ofPlayer?} as that
    step of that player's next turn begins. For a player who has left, as the turn begins that
    takes the place of theirs (800.4m: they neither end at once nor last for ever).
    """
    d = e["duration"]
    if d == "untilRemoved":
        return False
    if d == "endOfTurn":
        return moment["at"] == "cleanup"
    if d == "endOfCombat":
        return moment["at"] == "endOfCombat"
    owner = e.get("controller") if d == "untilYourNextTurn" else d.get("ofPlayer", e.get("controller"))
    if moment["at"] == "turnBegan" and owner is not None and owner in moment.get("passedOver", []):
        return True
    if d == "untilYourNextTurn":
        return moment["at"] == "turnBegan" and owner is not None and owner == moment["player"]
    if moment["at"] != "stepBegan" or moment["step"] != d["untilStep"] or moment["turn"] <= e["since"]:
        return False
    return owner is None or owner == moment["player"]


# The fields of each kind of effect (docs/api.md, "Turn-changing effects"); others are dropped.
EFFECT_FIELDS = {
    "skip": ("what", "players"),
    "maxHandSize": ("set", "change", "players"),
    "landPlays": ("change", "set", "players"),
    "spellLimit": ("perTurn", "players"),
    "keepMana": ("players",),
}


def known_fields(effect):
    out = {"kind": effect["kind"]}
    for k in EFFECT_FIELDS[effect["kind"]]:
        if k in effect:
            out[k] = copy_json(effect[k])
    return out


def copy_json(value):
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_AMOUNT:
        return int(value)
    return value
