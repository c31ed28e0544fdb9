"""Rules engines for the five games, and the replay that turns a record into a report.

See ``spec/rules.md``. Importing this package registers every game.
"""

from adjudicator.base import RULES, Outcome, Rules, get_rules, register

from adjudicator import implo, petrify, pilare, pilo, pletore  # noqa: E402,F401  (registration)

__all__ = ["RULES", "Outcome", "Rules", "get_rules", "register"]
