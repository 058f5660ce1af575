"""The rules eras (the `rules` option), side by side: what distinguishes one era's turn from another's.

'current' is today's Comprehensive Rules; 'm10' the rules from Magic 2010 (July 2009) until
November 2024; 'classic' the rules before Magic 2010 (the Sixth Edition rules, 1999-2009).
"""

ERAS = {
    "current": {
        "manaEmpties": "step",  # CR 500.5: pools empty as each step and each phase ends
        "manaBurn": False,
        "combatDamageOnStack": False,
        "damageAssignmentOrder": False,
        "noAttackersSkipsRestOfStep": False,
    },
    "m10": {
        "manaEmpties": "step",
        "manaBurn": False,
        "combatDamageOnStack": False,
        "damageAssignmentOrder": True,  # 509.2, 509.3 of 2009-2024: blockers and attackers are put in order
        "noAttackersSkipsRestOfStep": False,
    },
    "classic": {
        "manaEmpties": "phase",  # classic 300.3: pools empty only as a phase ends ...
        "manaBurn": True,  # ... and unspent mana burns its owner, 1 life each
        "combatDamageOnStack": True,  # classic 310.4: combat damage is one object on the stack, dealt when it resolves
        "damageAssignmentOrder": False,
        "noAttackersSkipsRestOfStep": True,  # classic 308.5: no attackers skips the rest of the declare attackers step
    },
}


def era(state):
    """The era record of a game's state."""
    return ERAS[state["rules"]]
