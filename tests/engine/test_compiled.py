"""The compiled engine (engine/_compiled.py): what runs, and a stale build never does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import engine
from engine import _compiled
from engine._compiled import MODULES, PURE_ENV, RECORD, built_modules, source_hashes, why_sources

ENGINE = Path(engine.__file__).resolve().parent


def test_the_engine_runs_compiled_where_it_was_built() -> None:
    # .ci/run sets FLIPFLOP_REQUIRE_COMPILED: a build that silently fell back would go unnoticed.
    if os.environ.get("FLIPFLOP_REQUIRE_COMPILED") and not os.environ.get(PURE_ENV):
        assert engine.COMPILED, engine.HOW_IT_RUNS
    if engine.COMPILED:
        assert Path(sys.modules["engine.game"].__file__ or "").suffix != ".py"
        assert built_modules(ENGINE) == list(MODULES)
    else:
        assert Path(sys.modules["engine.game"].__file__ or "").suffix == ".py"


def test_the_list_names_real_modules_and_leaves_the_inputs_as_python() -> None:
    assert all((ENGINE / f"{name}.py").is_file() for name in MODULES)
    assert "actions" not in MODULES and "errors" not in MODULES  # what callers build and subclass


def _folder(tmp_path: Path, hashes: dict[str, str] | None) -> Path:
    folder = tmp_path / "engine"
    folder.mkdir()
    for name in MODULES:
        shutil.copy(ENGINE / f"{name}.py", folder / f"{name}.py")
    if hashes is not None:
        (folder / RECORD).write_text(json.dumps(hashes), encoding="utf-8")
    return folder


def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    folder = _folder(tmp_path, source_hashes(ENGINE))
    assert why_sources(folder, list(MODULES), pure=False, group_found=True) is None


def test_a_wheel_without_a_record_runs_compiled(tmp_path: Path) -> None:
    folder = _folder(tmp_path, None)
    assert why_sources(folder, list(MODULES), pure=False, group_found=True) is None


def test_an_edited_source_sends_every_module_to_its_source(tmp_path: Path) -> None:
    folder = _folder(tmp_path, source_hashes(ENGINE))
    with (folder / "pots.py").open("a", encoding="utf-8") as f:
        f.write("# edited\n")
    reason = why_sources(folder, list(MODULES), pure=False, group_found=True)
    assert reason is not None and "engine/pots.py changed since it was compiled" in reason


def test_a_build_that_is_not_whole_or_a_choice_runs_the_sources(tmp_path: Path) -> None:
    folder = _folder(tmp_path, source_hashes(ENGINE))
    assert why_sources(folder, list(MODULES[:-1]), pure=False, group_found=True) == (
        "the compiled build is not whole"
    )
    assert why_sources(folder, list(MODULES), pure=False, group_found=False) == (
        "the compiled build is not whole"
    )
    assert why_sources(folder, list(MODULES), pure=True, group_found=True) == f"{PURE_ENV} is set"
    (folder / RECORD).write_text("{not json", encoding="utf-8")
    assert why_sources(folder, list(MODULES), pure=False, group_found=True) == (
        f"engine/{RECORD} can not be read"
    )


def test_the_choice_is_made_before_any_rule_module_loads() -> None:
    # In a fresh process: asked for the sources, every rule module comes from its .py file.
    script = (
        "import sys, engine\n"
        "from engine import _compiled\n"
        f"names = {list(MODULES)!r}\n"
        "print(engine.COMPILED, all(sys.modules['engine.' + n].__file__.endswith('.py') for n in names))\n"
    )
    env = {**os.environ, PURE_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
    assert "RuntimeWarning" not in out.stderr  # asked for: no warning


def test_how_it_runs_is_said_in_words() -> None:
    assert engine.HOW_IT_RUNS in ("compiled with mypyc", "not compiled") or engine.HOW_IT_RUNS.startswith(
        "from its sources: "
    )
    assert _compiled.GROUP == "flipflop_engine"
