"""Whether this package runs its compiled build (tools/compile_engine.py, mypyc) or its sources.

The build is the same sources compiled; it is used only when it was built from the sources as
they are now (its `SOURCES` digest), for this Python, and `ADMIRALTY_PURE_ENGINE` is not set.
Reading the package's own sources once at import is the only file this engine reads, and this
module the only one that may (tests/engine/seafarers/test_boundaries.py).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

FOLDER = "_compiled"
PACKAGE = Path(__file__).resolve().parent


def compiled_digest(package: Path) -> str:
    """The digest of the package's sources, for this Python (its cache tag: cpython-311)."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for source in sorted(package.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_folder(package: Path = PACKAGE) -> str | None:
    """The build's folder when it is the one to run, else None (the sources run)."""
    if os.environ.get("ADMIRALTY_PURE_ENGINE"):
        return None
    folder = package / FOLDER
    try:
        stamp = (folder / "SOURCES").read_text(encoding="utf-8")
    except OSError:
        return None
    return str(folder) if stamp == compiled_digest(package) else None
