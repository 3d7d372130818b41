"""The code's shape: layers that import only downward, no import circle, small modules, simple functions.

The three packages are layers: ``engine`` (the rules, pure) < ``bot`` (runtime,
storage, rendering) < ``cogs`` (Discord glue). A module may import from its own
layer or a lower one, never a higher one. Every import counts, also one made
only for type checking (``if TYPE_CHECKING:``) or inside a function: a circle
hidden that way is still a circle for a reader.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import discord
from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "bot", "cogs")
MAX_LINES = {"engine": 400, "bot": 800, "cogs": 400}
"""The longest module each layer may have (the bot's is back at 800 now that a table has one owner, the
runtime, with its data, repository and pure transitions in ``bot/table``; the Discord glue's is the
~400 lines issue 11 set, its cogs split into mixins of one concern each)."""

SIMPLE_ENOUGH = "C"
"""The worst radon grade a function may have (D is a cyclomatic complexity of 21 or more)."""
COMPLEX_ON_PURPOSE = {
    "engine/ai/rollout.py:play_dealt": "the fast play-out: R6-R7 again as one flat loop, for speed (its "
    "equivalence test guards it)",
    "engine/replay.py:replay": "the replay loop reads a whole transcript and must name every way it can be "
    "wrong, in order, with one exit status",
}
"""Functions allowed a D or worse on purpose, and why."""
NOT_SPLIT_YET: dict[str, str] = {}
"""Functions graded D or worse that are known debt, outside the engine; this list may only shrink."""


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The project modules ``path`` imports, anywhere in it (type-checking and function imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    deps: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                deps.add(target)
    return deps


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, name, known) for name, path in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles (Tarjan's strongly connected components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle() -> None:
    graph = import_graph()
    assert circles(graph) == []
    assert "engine.game" in graph["engine"] and "engine.state" in graph["engine.legal"]


def test_a_hidden_circle_is_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


UPWARD_NOT_FIXED_YET: dict[str, str] = {}
"""Known imports from a higher layer, and why they are still there; this list may only shrink."""


def test_nothing_is_imported_from_a_higher_layer() -> None:
    upward = [
        f"{name} imports {dep}"
        for name, deps in import_graph().items()
        for dep in deps
        if LAYERS.index(dep.split(".")[0]) > LAYERS.index(name.split(".")[0])
    ]
    assert [u for u in upward if u not in UPWARD_NOT_FIXED_YET] == []
    assert set(UPWARD_NOT_FIXED_YET) <= set(upward)  # a fixed one leaves the list


CLIENT_EDGE = {
    "bot/client.py": "starts the discord.py client (intents, shards, command tree); fits what it sends;"
    " the one module that reads discord.py's internals (each read says why)",
    "bot/i18n/discord_translator.py": "discord.py's translator: command names in Discord's picker",
    "bot/testing_api.py": "points discord.py's HTTP and gateway at a local fake Discord (tests, playground)",
    "bot/playground.py": "runs the bot against simcord's simulated Discord (make play)",
}
"""The modules of ``bot/`` that start and connect the Discord client, and may import discord."""


def discord_importers(layer: str) -> set[str]:
    """The modules of ``layer`` that import discord anywhere (type checking and functions too)."""
    found = set()
    for path in (ROOT / layer).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            if any(n == "discord" or n.startswith("discord.") for n in names):
                found.add(str(path.relative_to(ROOT)))
    return found


def test_only_the_client_edge_imports_discord() -> None:
    assert discord_importers("engine") == set()
    extra = discord_importers("bot") - set(CLIENT_EDGE)
    assert extra == set(), "presentation, storage and runtime are free of Discord: move it to cogs/"


def discord_private_names() -> set[str]:
    """The private attribute names discord.py's own classes use (``self._state``, ``_view_store``, …)."""
    names: set[str] = set()
    for path in Path(discord.__file__).parent.rglob("*.py"):
        text = path.read_text()
        names |= set(re.findall(r"self\.(_[a-z][a-z0-9_]*)\b", text))
        names |= set(re.findall(r"^\s+(_[a-z][a-z0-9_]*)\s*[:=]", text, re.M))
    return names


def test_only_one_module_reads_discord_py_internals() -> None:
    """A private attribute of a discord.py object is read in ``bot/client.py`` only."""
    private = discord_private_names()
    assert {"_connection", "_view_store", "_parent"} <= private  # the scan sees discord.py's names
    readers = {
        f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}"
        for layer in ("engine", "bot", "cogs")
        for path in (ROOT / layer).rglob("*.py")
        if path.relative_to(ROOT).as_posix() != "bot/client.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and node.attr in private
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    }
    assert readers == set(), "read discord.py's internals in bot/client.py's last section (and say why)"


MENTION = re.compile(r"<[@#&]!?\{|</\{")
"""A Discord mention written from a value: ``<@{id}>``, ``<#{id}>``, ``<@&{id}>``, ``</{path}:{id}>``."""


def test_only_the_client_edge_writes_a_discord_mention() -> None:
    """Below the client, a member or a command is named through ``bot.i18n.mentions`` (the edge's form)."""
    writers = {
        str(path.relative_to(ROOT))
        for layer in ("engine", "bot")
        for path in (ROOT / layer).rglob("*.py")
        if MENTION.search(path.read_text())
    }
    assert writers <= set(CLIENT_EDGE), writers - set(CLIENT_EDGE)


TELLING = re.compile(r"\._(?:publish|deliver|tell)\(|runtime\.tell\(")
"""A call that tells the channel an outcome: only the runtime makes it, on a command's way out."""


def test_no_caller_tells_the_channel_an_outcome_itself() -> None:
    """Every command is told on its one way out (``TableRuntime._deliver``); callers only reply."""
    from bot.runtime import TableRuntime

    callers = {
        str(path.relative_to(ROOT))
        for layer in ("bot", "cogs")
        for path in (ROOT / layer).rglob("*.py")
        if path.relative_to(ROOT).parts[:2] != ("bot", "runtime") and TELLING.search(path.read_text())
    }
    assert callers == set()
    assert not hasattr(TableRuntime, "tell"), "a public tell would be a second way out"


def test_the_rules_do_not_import_computer_play() -> None:
    graph = import_graph()
    rules = [n for n in graph if n.split(".")[0] == "engine" and not n.startswith("engine.ai")]
    leaks = [f"{n} imports {d}" for n in rules for d in graph[n] if d.startswith("engine.ai")]
    assert leaks == []


def test_no_module_is_long() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for name, path in modules().items()
        if (n := len(path.read_text().splitlines())) > MAX_LINES[name.split(".")[0]]
    }
    assert long == {}


def test_no_function_is_too_complex() -> None:
    complex_ = {}
    for path in modules().values():
        rel = path.relative_to(ROOT).as_posix()
        for block in cc_visit(path.read_text()):
            key = f"{rel}:{block.name}"
            allowed = key in COMPLEX_ON_PURPOSE or key in NOT_SPLIT_YET
            if cc_rank(block.complexity) > SIMPLE_ENOUGH and not allowed:
                complex_[key] = f"{cc_rank(block.complexity)} ({block.complexity})"
    assert complex_ == {}


def test_no_engine_function_is_known_debt() -> None:
    assert not [key for key in NOT_SPLIT_YET if key.startswith("engine/")]


def test_the_exceptions_still_exist_and_are_complex() -> None:
    for key in COMPLEX_ON_PURPOSE:
        rel, name = key.split(":")
        grades = {b.name: cc_rank(b.complexity) for b in cc_visit((ROOT / rel).read_text())}
        assert grades.get(name, "A") > SIMPLE_ENOUGH, key


def test_nothing_reads_outside_the_repository() -> None:
    for path in modules().values():
        assert "../shared" not in path.read_text(), path
