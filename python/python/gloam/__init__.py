"""gloam: tabletop skirmish games from data, played from Python.

The rules (Warhammer Underworlds: Harrowdeep, Shadespire and its modes, Embergard) ship
inside this package; ``gloam.Game("harrowdeep", seed=1)`` is all a game needs. See
``docs/python.md`` in the gloam repository.
"""

from ._gloam import (
    DataError,
    Game,
    IllegalAnswer,
    Request,
    RuleFailure,
    play,
    rulesets,
    shipped_data,
)

__all__ = [
    "DataError",
    "Game",
    "IllegalAnswer",
    "Request",
    "RuleFailure",
    "play",
    "rulesets",
    "shipped_data",
]
