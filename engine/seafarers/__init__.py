"""The seafaring ruleset's engine (../shared/rules/seafarers.md): see README.md in this folder.

Standard library only: no Django, no clock, no I/O. `adjudicate(document)` runs a
seafarers-scenario/1 document; `apply_action(state, action)` checks and applies one action
(seafarers.md X25); chance is documented in `engine.seafarers.chance` (X22).
"""

# ruff: noqa: E402 (the package's path is set before its modules are imported)

from engine.seafarers.compiled import compiled_folder

# The compiled build of the hot modules, when it is that of these sources (compiled.py); the
# modules it lacks, and every module without a fresh build, are the sources below.
_COMPILED = compiled_folder()
if _COMPILED is not None:
    __path__.insert(0, _COMPILED)
COMPILED = _COMPILED is not None

from engine.kernel.problems import Problem, ScenarioError
from engine.seafarers.bot import bot_action
from engine.seafarers.game import apply_action, check
from engine.seafarers.generator import generate_board, new_game
from engine.seafarers.legal import legal_actions
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
    "COMPILED",
    "Problem",
    "Refusal",
    "Refused",
    "Scenario",
    "ScenarioError",
    "State",
    "adjudicate",
    "apply_action",
    "bot_action",
    "check",
    "generate_board",
    "legal_actions",
    "longest_route",
    "new_game",
    "parse_scenario",
    "run",
    "snapshot",
    "state_to_dict",
]
