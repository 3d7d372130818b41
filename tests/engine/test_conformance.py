"""Every worked rule case in tests/engine/cases, one test each, compared as that folder's README says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((Path(__file__).resolve().parent / "cases").glob("*.json"))


def first_difference(expect: Any, actual: Any, path: str = "", winners: bool = False) -> str | None:
    """None when ``actual`` contains ``expect`` (tests/engine/cases/README.md), else where they differ."""
    if isinstance(expect, dict):
        if not isinstance(actual, dict):
            return f"{path or 'result'}: expected an object, got {actual!r}"
        for key, value in expect.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            if key == "error" and value is not None:
                got = actual[key] or {}
                if (got.get("round"), got.get("action")) != (value["round"], value["action"]):
                    return f"{path}.error: expected {value}, got {actual[key]}"
                continue
            diff = first_difference(value, actual[key], f"{path}.{key}", winners or key == "winners")
            if diff:
                return diff
        return None
    if isinstance(expect, list):
        if not isinstance(actual, list):
            return f"{path}: expected a list, got {actual!r}"
        if winners:
            return (
                None
                if set(expect) == set(actual) and len(expect) == len(actual)
                else (f"{path}: expected {sorted(expect)}, got {sorted(actual)}")
            )
        if len(expect) != len(actual):
            return f"{path}: expected {len(expect)} items, got {len(actual)}"
        for i, (e, a) in enumerate(zip(expect, actual, strict=True)):
            diff = first_difference(e, a, f"{path}[{i}]", winners)
            if diff:
                return diff
        return None
    return None if expect == actual else f"{path}: expected {expect!r}, got {actual!r}"


def test_cases_are_there() -> None:
    assert len(CASES) >= 9


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_conformance_case(path: Path, tmp_path: Path) -> None:
    case = json.loads(path.read_text())
    transcript = tmp_path / "transcript.json"
    transcript.write_text(json.dumps(case["transcript"]))
    proc = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(transcript)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert "Traceback" not in proc.stderr
    result = json.loads(proc.stdout)
    diff = first_difference(case["expect"], result)
    assert diff is None, f"{case['name']}: {diff}"
    want_status = 0 if case["expect"].get("error") is None else 1
    assert proc.returncode == want_status, f"{case['name']}: exit status {proc.returncode}"
