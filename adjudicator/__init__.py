"""Rules engines for the five games, and the replay that turns a record into a report.

See ``spec/rules/``. Importing this package registers every game.
"""

from adjudicator import implo, petrify, pilare, pilo, pletore  # noqa: F401  (registration)
from adjudicator.base import RULES, Outcome, Rules, get_rules, register

__all__ = ["RULES", "Outcome", "Rules", "get_rules", "register"]
