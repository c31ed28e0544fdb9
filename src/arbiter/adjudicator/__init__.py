"""Rules engines for the five games, and the replay that turns a record into a report.

See ``spec/rules/``. Each game is one module whose rules class owns the game's description;
importing this package registers them, in the order below (the order in which every list of
games is given). A new game is one new module and one line here.
"""

from arbiter.adjudicator.base import RULES, Outcome, Rules, get_rules, register, unregister
from arbiter.adjudicator.implo import ImploRules
from arbiter.adjudicator.petrify import PetrifyRules
from arbiter.adjudicator.pilare import PilareRules
from arbiter.adjudicator.pilo import PiloRules
from arbiter.adjudicator.pletore import PletoreRules

for _rules in (PiloRules, PetrifyRules, ImploRules, PletoreRules, PilareRules):
    register(_rules)

__all__ = ["RULES", "Outcome", "Rules", "get_rules", "register", "unregister"]
