"""Admiralty's rules engine: the naval rulebook (../shared/rules/naval.md) as pure Python.

Standard library only: no Django, no database, no clock, no I/O. A world and orders in, a result
with events out; dice passed in. The pipeline is `engine.turn.resolve_turn`.
"""

from engine.dice import Dice, ScriptedDice, SeededDice, dice_for
from engine.legal import LegalOrders, legal_orders
from engine.odds import Odds, battle_odds
from engine.orders import RawOrder
from engine.piracy import suggest_pirate_orders
from engine.refusals import Refusal
from engine.scenario import (
    Problem,
    Scenario,
    ScenarioError,
    adjudicate,
    parse_scenario,
    resolve,
    result_to_dict,
    state_to_dict,
    world_to_dict,
)
from engine.turn import TurnResult, resolve_turn
from engine.validation import validate_order
from engine.world import World

__all__ = [
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
