"""Every ``>>>`` example in the project runs: the modules are found by walking the packages,
not listed by hand, so a new module's examples run from the day it is written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import accounts
import arena
import config
import engine
import home
import league
import ratings

PACKAGES = (engine, ratings, league, arena, accounts, home, config)

MODULES = sorted(
    name
    for package in PACKAGES
    for name in [
        package.__name__,
        *(info.name for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")),
    ]
    # Migrations hold no examples and import the models' history, not the models.
    if ".migrations" not in name
)


def test_the_walk_finds_the_games_the_shared_modules_and_the_apps() -> None:
    assert {
        "engine.catlady.observation",
        "engine.splitmix",
        "engine.cantankerous.rules",
        "engine.catlady.strategies.greedy",
        "arena.replay",
        "ratings.charts",
    } <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert failures == 0
