"""Install hook: compile the engine's rule modules with mypyc where a C compiler is at hand.

Everything else about the package is in ``pyproject.toml``. Which modules, why,
and how a stale build is kept from running: ``engine/_compiled.py``. Without a
compiler, without mypyc, or with ``FLIPFLOP_PURE_ENGINE=1``, the install goes
on with the sources alone: the same game, slower.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "engine"


def _load_compiled() -> ModuleType:
    """``engine/_compiled.py`` on its own (the package can not be imported before it is installed)."""
    spec = importlib.util.spec_from_file_location("_flipflop_engine_build", ENGINE / "_compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = _load_compiled()


def _say(text: str) -> None:
    print(f"flipflop-bot: {text}", file=sys.stderr)


def ext_modules() -> list[Any]:
    """The compiled modules, or none (the engine then runs from its sources)."""
    if os.environ.get(COMPILED.PURE_ENV):
        _say(f"the engine is not compiled ({COMPILED.PURE_ENV} is set)")
        return []
    try:
        from mypyc.build import mypycify

        return list(
            mypycify(
                [f"engine/{name}.py" for name in COMPILED.MODULES], opt_level="3", group_name=COMPILED.GROUP
            )
        )
    except (Exception, SystemExit) as error:  # no mypyc, or it refused the sources
        _say(f"the engine is not compiled, it runs from its sources ({error!r})")
        return []


class OptionalBuildExt(build_ext):
    """Build the compiled modules if the machine can; record what they were compiled from."""

    def run(self) -> None:
        """Compile; on failure say so and go on; after an editable build, record the sources' hashes."""
        try:
            super().run()
        except Exception as error:  # no C compiler, or it failed: the sources still work
            _say(f"compiling the engine failed, it runs from its sources ({error!r})")
            return
        if self.inplace and self.extensions:  # an editable install: the sources may be edited later
            record = json.dumps(COMPILED.source_hashes(ENGINE), indent=1)
            (ENGINE / COMPILED.RECORD).write_text(record + "\n", encoding="utf-8")


def data_files() -> list[tuple[str, list[str]]]:
    """``locales/`` and the served ``web/`` pages, for ``pip install .`` (``engine/assets.py`` finds them).

    A checkout reads them where they are; an installed package from ``<prefix>/share/flipflop-bot/``.
    """
    shipped = [
        *sorted(ROOT.glob("locales/*/LC_MESSAGES/*.po")),
        *sorted(p for p in (ROOT / "web").rglob("*") if p.is_file() and p.parent.name != "web"),
    ]
    folders: dict[str, list[str]] = {}
    for path in shipped:
        relative = path.relative_to(ROOT)
        if "node_modules" not in relative.parts:
            folders.setdefault(str(Path(*SHARED, *relative.parent.parts)), []).append(str(relative))
    return sorted(folders.items())


SHARED = ("share", "flipflop-bot")
"""As ``engine.assets.SHARED``."""

setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt}, data_files=data_files())
