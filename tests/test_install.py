"""``pip install .`` (README, "Running on a host"): the installed bot finds its catalogs and web pages.

In a checkout they are ``locales/`` and ``web/`` beside the packages; an installed package
reads them from its data files (``setup.py``, ``engine/assets.py``). The wheel is built from a
copy of the sources (nothing written into this checkout), without compiling the engine, and
installed under a prefix of its own; the checks run from another folder, so nothing of the
checkout is imported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "engine", "bot", "cogs", "locales", "web")
CHECK = """
import bot, engine.assets
from bot.i18n.catalogs import LOCALES_DIR
from bot.live.server import WEB
from bot.playground import REPLAY_PAGE
from bot.i18n import texts
print(bot.__file__)
print(LOCALES_DIR)
print((WEB / "live" / "index.html").is_file(), (REPLAY_PAGE / "index.html").is_file())
print(texts("ko").gettext("refusal.table_full"))
"""


def test_an_installed_package_reads_its_catalogs_and_pages(tmp_path: Path) -> None:
    before = _installed()
    source = tmp_path / "source"
    source.mkdir()
    ignore = shutil.ignore_patterns("node_modules", "__pycache__", "*.so", ".compiled.json")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    env = {**os.environ, "FLIPFLOP_PURE_ENGINE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    pip = [sys.executable, "-m", "pip", "--quiet"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "wheel"), str(source)],
        check=True, env=env, cwd=tmp_path, capture_output=True,
    )  # fmt: skip
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    prefix = tmp_path / "prefix"
    alone = ["--no-deps", "--no-build-isolation", "--ignore-installed"]
    subprocess.run(
        [*pip, "install", *alone, "--prefix", str(prefix), str(wheel)],
        check=True, env=env, cwd=tmp_path, capture_output=True,
    )  # fmt: skip
    # --ignore-installed: pip would otherwise uninstall this checkout's own install first
    (packages,) = prefix.glob("lib/python*/site-packages")
    (packages / "web").mkdir()  # another package's web/ beside ours (web.py has one): never taken for ours
    (packages / "web" / "__init__.py").write_text("", encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-c", CHECK],
        env={**env, "PYTHONPATH": str(packages)}, cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    installed, locales, pages, korean = ran.stdout.splitlines()
    assert installed.startswith(str(packages))  # the installed copy, not this checkout
    assert locales == str(prefix / "share" / "flipflop-bot" / "locales")
    assert pages == "True True"
    assert korean.startswith("테이블이 꽉 찼어요")  # the Korean catalog, read from the data files
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    replay = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(bad)],
        env={**env, "PYTHONPATH": str(packages)}, cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert replay.returncode == 2 and "Traceback" not in replay.stderr and "not valid JSON" in replay.stderr
    assert _installed() == before  # this environment's own install untouched


def _installed() -> str:
    """Where this environment's Python imports the bot from, seen from outside the checkout."""
    ran = subprocess.run(
        [sys.executable, "-c", "import bot; print(bot.__file__)"],
        cwd=Path(sys.prefix), capture_output=True, text=True, check=False,
    )  # fmt: skip
    return ran.stdout + ran.stderr[-200:]
