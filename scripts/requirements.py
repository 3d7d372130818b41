"""Print the packages ``pyproject.toml`` asks for, one per line, for ``pip install -r``.

``make test`` installs these first (and the package from its sources), then compiles the engine
on one core while the suite and the linters run (Makefile). pip has no "dependencies only" install, so
this reads them: the build's requirements (setuptools, mypy for mypyc), the package's own
dependencies and those of each extra named, following ``flipflop-bot[...]`` self-references.

    python scripts/requirements.py test
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
SELF = re.compile(r"^flipflop-bot\[(?P<extras>[^\]]+)\]$")


def requirements(extras: list[str], project: dict[str, object]) -> list[str]:
    """The build's, the package's and the extras' requirements, each once, in their order."""
    build = project["build-system"]
    meta = project["project"]
    assert isinstance(build, dict) and isinstance(meta, dict)
    optional: dict[str, list[str]] = meta.get("optional-dependencies", {})
    out: list[str] = []
    todo = [*build["requires"], *meta["dependencies"]]
    seen: set[str] = set()
    pending = list(extras)
    while todo or pending:
        if not todo:
            extra = pending.pop(0)
            if extra in seen:
                continue
            if extra not in optional:
                raise SystemExit(f"pyproject.toml has no extra {extra!r}")
            seen.add(extra)
            todo = list(optional[extra])
            continue
        requirement = todo.pop(0)
        found = SELF.match(requirement.strip())
        if found:
            pending += [e.strip() for e in found.group("extras").split(",")]
        elif requirement not in out:
            out.append(requirement)
    return out


def main(argv: list[str]) -> int:
    """Print the requirements of the extras in ``argv``."""
    with PYPROJECT.open("rb") as f:
        project = tomllib.load(f)
    print("\n".join(requirements(argv, project)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
