"""Whether this package runs its compiled build or its sources (engine.kernel.compiled: the
build of the sources as they are now, unless `ADMIRALTY_PURE_ENGINE` is set)."""

from __future__ import annotations

from pathlib import Path

from engine.kernel import compiled
from engine.kernel.compiled import FOLDER, compiled_digest

PACKAGE = Path(__file__).resolve().parent

__all__ = ["FOLDER", "PACKAGE", "compiled_digest", "compiled_folder"]


def compiled_folder(package: Path = PACKAGE) -> str | None:
    """The build's folder when it is the one to run, else None (the sources run)."""
    return compiled.compiled_folder(package)
