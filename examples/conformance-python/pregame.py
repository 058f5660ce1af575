"""The pregame (CR 103): the seeded choice of who chooses the starting player, mulligans, the bottom, opening hands."""

import math


# The seeded random numbers: mulberry32, as docs/conformance.md describes (CR 103.1's choice).


def seed_state(seed):
    return math.floor(abs(seed) * 1000003) % 2**32


def next_random(state):
    s = (state + 0x6D2B79F5) & 0xFFFFFFFF
    t = s
    t = imul(t ^ (t >> 15), t | 1)
    t ^= (t + imul(t ^ (t >> 7), t | 61)) & 0xFFFFFFFF
    return s, ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296


def imul(a, b):
    return (a * b) & 0xFFFFFFFF


def random_index(state, n):
    state, value = next_random(state)
    return state, min(n - 1, math.floor(value * n))


class Pregame:
    """The pregame's part of Game (a mixin: it reads and changes `self.s`)."""

    def from_starting(self):
        pre = self.s["pregame"]
        if pre["starting"] is None:
            return []
        seats = self.s["seats"]
        i = seats.index(pre["starting"])
        return [p for p in seats[i:] + seats[:i] if p in self.s["players"]]

    def cards_to_bottom(self, mulligans):
        """CR 103.5: London mulligan; 103.5c: a multiplayer game's first mulligan is free."""
        return max(0, mulligans - (1 if len(self.s["seats"]) > 2 else 0))

    def mulligan_due(self):
        pre = self.s["pregame"]
        order = [p for p in self.from_starting() if p not in pre["kept"]]
        return next((p for p in order if p not in pre["decided"]), order[0] if order else None)

    def bottom_due(self):
        for player, count in self.s["pregame"]["bottom"].items():
            if count > 0 and player in self.s["players"]:
                return player, count
        return None

    def opening_hand_due(self):
        pre = self.s["pregame"]
        return next((p for p in self.from_starting() if p not in pre["done"]), None)

    def next_round(self, decided, kept):
        open_players = [p for p in self.s["players"] if p not in kept]
        return [] if all(p in decided for p in open_players) else decided

    def pregame_decision(self, e):
        s = self.s
        pre = s["pregame"]
        kind, player = e["type"], e["player"]
        if kind == "CHOOSE_STARTING_PLAYER":
            pre["starting"] = e["starting"]
            s["startingPlayer"] = s["turnOwner"] = e["starting"]
            for p in self.from_starting():
                s["hands"][p] = s["handSize"]
                self.emit({"type": "drawHand", "player": p, "size": s["handSize"]})
            pre["stage"] = "mulligans"
        elif kind == "MULLIGAN":
            pre["mulligans"][player] += 1
            pre["decided"] = self.next_round(pre["decided"] + [player], pre["kept"])
            s["hands"][player] = s["handSize"]
            self.emit({"type": "mulligan", "player": player, "number": pre["mulligans"][player]})
            self.emit({"type": "drawHand", "player": player, "size": s["handSize"]})
        elif kind == "KEEP":
            count = min(self.cards_to_bottom(pre["mulligans"][player]), s["hands"].get(player, 0))
            pre["kept"].append(player)
            pre["decided"] = self.next_round(pre["decided"] + [player], pre["kept"])
            if count > 0:
                pre["bottom"][player] = count
        elif kind == "BOTTOM":
            del pre["bottom"][player]
            s["hands"][player] = max(0, s["hands"].get(player, 0) - e["count"])
            pre["stage"] = "mulligans"
        elif kind == "OPENING_HAND_DONE":
            pre["done"].append(player)
