"""Reading scenario files from disk: JSON (required by the format) or YAML with the same shape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from engine.naval import Problem, ScenarioError

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


def described(problems: list[Problem], text: str | None) -> list[str]:
    """The problems as lines to show, each with its line in the file when the file's text can
    say (YAML, and JSON read as YAML; a second parse, on the error path only)."""
    lines = _lines(text) if text else {}
    out = []
    for problem in problems:
        line = _line_of(problem.path, lines)
        text_line = f"{problem} (line {line})" if line else str(problem)
        # An id from the file may hold a lone surrogate, which no terminal or page can show.
        out.append(text_line.encode("utf-8", "backslashreplace").decode("utf-8"))
    return out


def read_text(path: Path | str) -> str | None:
    """The file's text, for `described`, or None."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


# Past this size a file's problems are shown without line numbers (parsing it twice is slow).
MAX_LINED = 2_000_000


def _lines(text: str) -> dict[str, int]:
    """path -> line (1-based) of every key and item, with the paths the parser reports."""
    if len(text) > MAX_LINED:
        return {}
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return {}
    lines: dict[str, int] = {}
    stack: list[tuple[yaml.Node | None, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = key.value if isinstance(key, yaml.ScalarNode) else "?"
                if name.isidentifier():
                    child = f"{path}.{name}" if path else name
                else:
                    child = f"{path}[{name!r}]"
                lines.setdefault(child, key.start_mark.line + 1)
                stack.append((value, child))
        elif isinstance(node, yaml.SequenceNode):
            for n, item in enumerate(node.value):
                child = f"{path}[{n}]"
                lines.setdefault(child, item.start_mark.line + 1)
                stack.append((item, child))
    return lines


_LAST_STEP = re.compile(r"(\.[^.\[]+|\[[^\]]*\])$")


def _line_of(path: str, lines: dict[str, int]) -> int | None:
    """The line of the path, or of the nearest place above it that the file has (a missing key
    is reported at its parent's line)."""
    while path:
        if path in lines:
            return lines[path]
        shorter = _LAST_STEP.sub("", path)
        if shorter == path:
            return None
        path = shorter
    return None
