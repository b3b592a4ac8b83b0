"""The suite's own scheduling: the long files named in tests/conftest.py exist and go first."""

from pathlib import Path

from tests.conftest import LONG_FILES

ROOT = Path(__file__).resolve().parents[1]


def test_every_long_file_named_exists():
    # A renamed or deleted file would silently drop out of the head of the queue.
    assert [name for name in LONG_FILES if not (ROOT / name).is_file()] == []


def test_the_long_files_are_collected_first(request):
    files = list(dict.fromkeys(item.nodeid.split("::")[0] for item in request.session.items))
    collected_long = [name for name in LONG_FILES if name in files]
    assert files[: len(collected_long)] == collected_long
