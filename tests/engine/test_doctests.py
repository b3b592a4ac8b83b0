"""Every ``>>>`` example in the engine runs: the modules are found by walking the package,
not listed by hand, so a new module's examples run from the day it is written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine

MODULES = sorted(
    ["engine", *(info.name for info in pkgutil.walk_packages(engine.__path__, "engine."))]
)


def test_the_walk_finds_both_games_and_the_shared_modules() -> None:
    assert {"engine.observation", "engine.splitmix", "engine.cantankerous.rules",
            "engine.strategies.greedy"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert failures == 0
