"""Which rule modules run compiled, and the guard that keeps a stale build from running.

Installing the package (``make run``, ``make test``) compiles the modules in
``MODULES`` with mypyc, mypy's compiler (``setup.py``): each becomes a C
extension beside its source, the same code in about 28% fewer machine
instructions a round (README, "Engine speed"). The sources stay the truth,
and this module decides at import which of the two runs:

- no compiled files (no C compiler at install, or ``FLIPFLOP_PURE_ENGINE=1``
  then): the sources, as always;
- ``FLIPFLOP_PURE_ENGINE=1`` at run time: the sources (to debug, or to compare);
- a source changed since it was compiled (its SHA-256 is not the one the build
  wrote to ``engine/.compiled.json``), or a build that is not whole: all of
  them run from their sources, with a warning, until the next ``make``
  rebuilds them. All or none, because compiled modules call each other
  directly: one stale module would keep its old code alive in the others.

``engine/actions.py`` and ``engine/errors.py`` are left as Python on purpose:
callers build actions (a value of the wrong type then gets the engine's coded
refusal, not a ``TypeError``), and other modules subclass the errors. Nothing
else in the engine runs often enough to be worth compiling.

Standard library only, and nothing happens on import: ``setup.py`` loads this
file on its own, before the package can be imported.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

MODULES = (
    "cards",
    "spreads",
    "settings",
    "state",
    "events",
    "pots",
    "showing",
    "turns",
    "deal",
    "legal",
    "ending",
    "game",
)
"""The rule modules that run at every step, compiled together (``engine.<name>``)."""

GROUP = "flipflop_engine"
"""mypyc's name for the set: its shared library is the top-level module ``flipflop_engine__mypyc``."""

RECORD = ".compiled.json"
"""Written by the build beside the sources: each compiled module's source SHA-256."""

PURE_ENV = "FLIPFLOP_PURE_ENGINE"

HERE = Path(__file__).resolve().parent


def source_hashes(folder: Path) -> dict[str, str]:
    """The SHA-256 of each compiled module's source in ``folder``, as the build records them."""
    return {name: hashlib.sha256((folder / f"{name}.py").read_bytes()).hexdigest() for name in MODULES}


def built_modules(folder: Path) -> list[str]:
    """The modules of ``MODULES`` that have a compiled file in ``folder``."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return [name for name in MODULES if any((folder / f"{name}{s}").exists() for s in suffixes)]


def why_sources(folder: Path, built: Sequence[str], pure: bool, group_found: bool) -> str | None:
    """Why the engine must run from its sources although something was compiled; ``None`` if it need not."""
    if pure:
        return f"{PURE_ENV} is set"
    if len(built) < len(MODULES) or not group_found:
        return "the compiled build is not whole"
    try:
        recorded = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None  # an installed wheel: its sources are not edited in place
    except (OSError, ValueError):
        return f"engine/{RECORD} can not be read"
    current = source_hashes(folder)
    changed = [name for name in MODULES if recorded.get(name) != current[name]]
    if changed:
        return f"engine/{changed[0]}.py changed since it was compiled (`make run` or `make test` rebuilds it)"
    return None


class _Sources(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' sources, ahead of the compiled files beside them."""

    def __init__(self, folder: Path) -> None:
        self.sources = {f"engine.{name}": folder / f"{name}.py" for name in MODULES}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def choose() -> tuple[bool, str]:
    """Run compiled if the build is whole and current, else from the sources: (compiled?, how, in words).

    ``engine/__init__.py`` calls it once, before any rule module is imported.
    """
    built = built_modules(HERE)
    if not built:
        return False, "not compiled"
    pure = bool(os.environ.get(PURE_ENV))
    reason = why_sources(HERE, built, pure, importlib.util.find_spec(f"{GROUP}__mypyc") is not None)
    if reason is None:
        return True, "compiled with mypyc"
    if not any(isinstance(finder, _Sources) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Sources(HERE))
    if not pure:
        warnings.warn(f"the engine runs from its sources, slower: {reason}", RuntimeWarning, stacklevel=3)
    return False, f"from its sources: {reason}"


if __name__ == "engine._compiled":  # imported with the package, first (setup.py loads the file on its own)
    COMPILED, HOW_IT_RUNS = choose()
