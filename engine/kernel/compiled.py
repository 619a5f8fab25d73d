"""Whether a package runs its compiled build (tools/compile_engine.py, mypyc) or its sources.

Two packages have a build: the seafaring engine (issue 12's speed) and the naval map's drawing
(`maps`, issue 20's 200 ms). A build is the same sources compiled; it is used only when it was
built from the package's sources as they are now (its `SOURCES` digest), for this Python, and
`ADMIRALTY_PURE_ENGINE` is not set (the one switch for every package: the bench's plain-Python
figures, the tests that compare the two). Reading the package's own sources once at import is
the only file this reads.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

FOLDER = "_compiled"
PURE = "ADMIRALTY_PURE_ENGINE"


def compiled_digest(package: Path) -> str:
    """The digest of the package's sources, for this Python (its cache tag: cpython-311)."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    for source in sorted(package.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def compiled_folder(package: Path) -> str | None:
    """The build's folder when it is the one to run, else None (the sources run)."""
    if os.environ.get(PURE):
        return None
    folder = package / FOLDER
    try:
        stamp = (folder / "SOURCES").read_text(encoding="utf-8")
    except OSError:
        return None
    return str(folder) if stamp == compiled_digest(package) else None
