"""The seafaring ruleset's engine (../shared/rules/seafarers.md): see README.md in this folder.

Standard library only: no Django, no clock, no I/O. `adjudicate(document)` runs a
seafarers-scenario/1 document; `apply_action(state, action)` checks and applies one action
(seafarers.md X25); chance is documented in `engine.seafarers.chance` (X22).
"""

from engine.kernel.problems import Problem, ScenarioError
from engine.seafarers.game import apply_action, check
from engine.seafarers.refusals import Refusal, Refused
from engine.seafarers.routes import longest_route
from engine.seafarers.scenario import (
    Scenario,
    adjudicate,
    parse_scenario,
    run,
    snapshot,
    state_to_dict,
)
from engine.seafarers.state import State

__all__ = [
    "Problem",
    "Refusal",
    "Refused",
    "Scenario",
    "ScenarioError",
    "State",
    "adjudicate",
    "apply_action",
    "check",
    "longest_route",
    "parse_scenario",
    "run",
    "snapshot",
    "state_to_dict",
]
