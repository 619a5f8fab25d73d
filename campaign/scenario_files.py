"""Reading scenario files from disk: JSON (required by the format) or YAML with the same shape.

Every read is bounded in time and memory: a file is at most MAX_FILE_BYTES (a YAML file, read
more slowly, MAX_YAML_BYTES), and YAML's aliases may repeat at most MAX_ALIASED values in all — a
few hundred bytes of nested aliases (a "billion laughs") would otherwise expand to billions of
values in every reader that walks the document."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import IO, Any

import yaml

from engine.kernel.problems import Problem, ScenarioError

# Deeper than any scenario or campaign file goes (a fleet's ship is 4 levels down); a file nested
# deeper is refused before anything walks it, so that no reader runs out of stack.
MAX_DEPTH = 32
# A 2,000-fleet turn written as JSON is about 4 MB; YAML is read at about 200 KB a second
# (the bundled campaign is 18 KB).
MAX_FILE_BYTES = 16_000_000
MAX_YAML_BYTES = 1_000_000
# Values repeated by aliases, counted as expanded (an alias of a list of 9 counts 10).
MAX_ALIASED = 100_000


class AliasBudgetExceeded(ValueError):
    """The file's aliases repeat more values than MAX_ALIASED."""


class BoundedLoader(yaml.SafeLoader):
    """yaml.SafeLoader, with every alias counted as the values it repeats: past MAX_ALIASED the
    file is refused while it is being read, before anything is expanded."""

    def __init__(self, stream: str | IO[str]) -> None:
        super().__init__(stream)
        self._sizes: dict[int, int] = {}  # id(node) -> values in it, aliases expanded
        self._aliased = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        node = super().compose_node(parent, index)
        if isinstance(event, yaml.AliasEvent):
            # A node aliased inside itself is still being composed: the depth check stops it.
            self._aliased += self._sizes.get(id(node), 1)
            if self._aliased > MAX_ALIASED:
                line = event.start_mark.line + 1 if event.start_mark else "?"
                raise AliasBudgetExceeded(
                    f"its aliases repeat more than {MAX_ALIASED:,} values (line {line})"
                )
        else:
            children: list[Any] = []
            if isinstance(node, yaml.MappingNode):
                children = [part for pair in node.value for part in pair]
            elif isinstance(node, yaml.SequenceNode):
                children = node.value
            self._sizes[id(node)] = 1 + sum(self._sizes.get(id(c), 1) for c in children)
        return node


def check_size(name: str, size: int) -> None:
    """Raises ScenarioError if a file of this name and size in bytes is over its limit."""
    limit = MAX_YAML_BYTES if name.endswith((".yaml", ".yml")) else MAX_FILE_BYTES
    if size > limit:
        raise ScenarioError([Problem("", f"the file is larger than {limit:,} bytes")])


def read_limited(stream: IO[bytes], name: str) -> str:
    """At most the size limit of text from a binary stream (a file, stdin, an upload); a longer
    or non-UTF-8 stream raises ScenarioError."""
    data = stream.read(MAX_FILE_BYTES + 1)
    check_size(name, len(data))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError([Problem("", f"cannot read {name}: {error}")]) from error


def read_scenario_document(path: Path | str, text: str | None = None) -> object:
    """The document in a scenario file; a file that cannot be read raises ScenarioError."""
    name = str(path)
    if text is None:
        try:
            with open(path, "rb") as stream:
                text = read_limited(stream, name)
        except OSError as error:
            raise ScenarioError([Problem("", f"cannot read {name}: {error}")]) from error
    check_size(name, len(text.encode("utf-8", "surrogatepass")))
    if name.endswith((".yaml", ".yml")):
        try:
            document = yaml.load(text, Loader=BoundedLoader)  # SafeConstructor: plain values only
        except yaml.YAMLError as error:
            raise ScenarioError([Problem("", f"not valid YAML: {error}")]) from error
        except (RecursionError, ValueError) as error:  # too deep; a number too long; aliases
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
    """The file's text, for `described`, or None (also past the size limit)."""
    try:
        with open(path, "rb") as stream:
            return read_limited(stream, str(path))
    except (OSError, ScenarioError):
        return None


# Past this size a file's problems are shown without line numbers (parsing it twice is slow).
MAX_LINED = MAX_YAML_BYTES


def _lines(text: str) -> dict[str, int]:
    """path -> line (1-based) of every key and item, with the paths the parser reports."""
    if len(text) > MAX_LINED:
        return {}
    try:
        root = yaml.compose(text, Loader=BoundedLoader)
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
