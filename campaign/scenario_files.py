"""Reading scenario files from disk: JSON (required by the format) or YAML with the same shape."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from engine import Problem, ScenarioError


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
            return yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise ScenarioError([Problem("", f"not valid YAML: {error}")]) from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        message = f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        raise ScenarioError([Problem("", message)]) from error
