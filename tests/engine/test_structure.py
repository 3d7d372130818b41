"""The engine's shape: small modules by rule chapter, no import circle, nothing outside the package."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def engine_imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine"):
                if "." in node.module:
                    deps.add(node.module.split(".")[1])
                else:
                    deps |= {a.name for a in node.names}
        graph[path.stem] = deps - {path.stem}
    return graph


def test_no_import_circle() -> None:
    graph = engine_imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
    assert "game" in graph["__init__"] and "state" in graph["legal"]


def test_no_module_is_long() -> None:
    lengths = {p.name: len(p.read_text().splitlines()) for p in ENGINE.glob("*.py")}
    assert max(lengths.values()) <= 400, lengths


def test_the_engine_reads_nothing_outside_the_repository() -> None:
    for path in ENGINE.glob("*.py"):
        assert "../shared" not in path.read_text(), path.name
