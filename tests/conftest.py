"""Test settings shared by every test module.

Property tests draw the same examples on every run (``derandomize``): a random draw that
happens to build a large puzzle made one CI run of the brute-force comparisons take minutes
while others took seconds. The examples still cover what the strategies describe; changing
a strategy changes them.
"""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from puzzlebox.engine import kernel_choice

settings.register_profile("puzzlebox", derandomize=True, deadline=None)
settings.load_profile("puzzlebox")


@pytest.fixture(scope="session", autouse=True)
def config_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The user's configuration folder, where a checkpoint's signing key is made on first
    use (parallel/checkpoint.py), is a folder of the session's own: no test writes into
    the real home. Set in the environment, so the commands a test starts inherit it."""
    folder = str(tmp_path_factory.mktemp("config"))
    before = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = folder
    yield folder
    if before is None:
        os.environ.pop("XDG_CONFIG_HOME", None)
    else:
        os.environ["XDG_CONFIG_HOME"] = before


@pytest.fixture(scope="session", autouse=True)
def state_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The user's state folder, where the web page keeps the searches it saves
    (web/saved.py), is the session's own too."""
    folder = str(tmp_path_factory.mktemp("state"))
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = folder
    yield folder
    if before is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = before


@pytest.fixture(scope="module", params=kernel_choice.available())
def kernels(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each backend of the compiled kernels in turn (engine/kernel_choice.py): the C ones
    built at installation and numba's, which must give the same answers node for node.
    A module that runs its engine tests on both says ``pytestmark =
    pytest.mark.usefixtures("kernels")``."""
    kernel_choice.use(request.param)
    yield request.param
    kernel_choice.use(None)


@pytest.fixture(params=kernel_choice.available())
def each_kernels(request: pytest.FixtureRequest) -> Iterator[str]:
    """:func:`kernels` for one test at a time (``pytest.mark.usefixtures("each_kernels")``),
    where only some tests of a module run on both backends: the others then run with the
    default kernels, not with whichever a module-wide fixture left set."""
    kernel_choice.use(request.param)
    yield request.param
    kernel_choice.use(None)
