"""The files the packages read that live beside them in a checkout: the catalogs and the web pages.

In a checkout (``make run``, ``pip install -e .``) they are ``locales/`` and ``web/`` at the
repository's root. ``pip install .`` installs them as the package's data files, under
``<prefix>/share/flipflop-bot/`` (``setup.py``): the prefix of the site-packages the
packages were installed in (a virtual environment, ``--user``, ``--prefix``), else Python's.
"""

from __future__ import annotations

import sys
from pathlib import Path

SHARED = ("share", "flipflop-bot")
"""Where ``pip install .`` puts the data files, under the installation's prefix."""
ASSETS = ("locales", "web")
"""The folders of the checkout that are shipped as data files."""


def asset(*parts: str) -> Path:
    """A shipped file or folder (``asset("locales")``): the checkout's, else the installed copy."""
    packages = Path(__file__).resolve().parents[1]  # the checkout, or <prefix>/lib/pythonX.Y/site-packages
    checkout = (packages / "pyproject.toml").is_file()  # not another package's web/ in site-packages
    prefix = packages.parents[2] if len(packages.parents) > 2 else packages
    bases = ([packages] if checkout else []) + [prefix.joinpath(*SHARED), Path(sys.prefix).joinpath(*SHARED)]
    for base in bases:
        found = base.joinpath(*parts)
        if found.exists():
            return found
    return packages.joinpath(*parts)  # nowhere: the checkout's path, in the error that follows
