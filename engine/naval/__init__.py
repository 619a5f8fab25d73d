"""The naval ruleset's engine: the naval rulebook (../shared/rules/naval.md) as pure Python.

Standard library only: no Django, no database, no clock, no I/O. A world and orders in, a result
with events out; dice passed in. The pipeline is `engine.naval.turn.resolve_turn`.
"""

# ruff: noqa: E402 (the package's path is set before its modules are imported)

from pathlib import Path

from engine.kernel.compiled import compiled_folder

# The compiled build of the hot modules (tools/compile_engine.py, mypyc), when it is that of
# these sources (engine/kernel/compiled.py); the modules it lacks, and every module without a
# fresh build, are the sources below. The same results either way: tests/engine/naval/
# test_golden.py runs the build, test_compiled.py the sources beside it.
_COMPILED = compiled_folder(Path(__file__).resolve().parent)
if _COMPILED is not None:
    __path__.insert(0, _COMPILED)
COMPILED = _COMPILED is not None

from engine.kernel.dice import Dice, ScriptedDice, SeededDice, dice_for
from engine.kernel.problems import Problem, ScenarioError
from engine.naval.legal import LegalOrders, legal_orders
from engine.naval.odds import Odds, battle_odds
from engine.naval.orders import RawOrder
from engine.naval.piracy import suggest_pirate_orders
from engine.naval.refusals import Refusal
from engine.naval.scenario import (
    Scenario,
    adjudicate,
    parse_scenario,
    resolve,
    result_to_dict,
    state_to_dict,
    world_to_dict,
)
from engine.naval.turn import TurnResult, resolve_turn
from engine.naval.validation import validate_order
from engine.naval.world import World

__all__ = [
    "COMPILED",
    "Dice",
    "LegalOrders",
    "Odds",
    "Problem",
    "RawOrder",
    "Refusal",
    "Scenario",
    "ScenarioError",
    "ScriptedDice",
    "SeededDice",
    "TurnResult",
    "World",
    "adjudicate",
    "battle_odds",
    "dice_for",
    "legal_orders",
    "parse_scenario",
    "resolve",
    "resolve_turn",
    "result_to_dict",
    "state_to_dict",
    "suggest_pirate_orders",
    "validate_order",
    "world_to_dict",
]
