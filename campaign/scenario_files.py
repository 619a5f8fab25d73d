"""Reading scenario files from disk: JSON (required by the format) or YAML with the same shape."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from engine import Problem, ScenarioError

# Deeper than any scenario or campaign file goes (a fleet's ship is 4 levels down); a file nested
# deeper is refused before anything walks it, so that no reader runs out of stack.
MAX_DEPTH = 32


def read_scenario_document(path: Path | str, text: str | None = None) -> object:
    """The document in a scenario file; a file that cannot be read raises ScenarioError."""
    name = str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ScenarioError([Problem("", f"cannot read {name}: {error}")]) from error
    if name.endswith((".yaml", ".yml")):
        try:
            document = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise ScenarioError([Problem("", f"not valid YAML: {error}")]) from error
        except (RecursionError, ValueError) as error:  # nested too deep; a number too long
            raise ScenarioError(
                [Problem("", f"not a YAML file this tool reads: {error}")]
            ) from error
    else:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            message = f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
            raise ScenarioError([Problem("", message)]) from error
        except (RecursionError, ValueError) as error:
            raise ScenarioError(
                [Problem("", f"not a JSON file this tool reads: {error}")]
            ) from error
    where = _too_deep(document)
    if where is not None:
        raise ScenarioError([Problem(where, f"nested more than {MAX_DEPTH} levels deep")])
    return document


def _too_deep(document: object) -> str | None:
    """The path of the first value nested deeper than MAX_DEPTH, or None (without recursion)."""
    stack: list[tuple[object, str, int]] = [(document, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            return path
        if isinstance(value, dict):
            stack.extend(
                (v, f"{path}.{k}" if path else str(k), depth + 1) for k, v in value.items()
            )
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{n}]", depth + 1) for n, v in enumerate(value))
    return None
