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


def test_bin_test_keeps_the_collection_order_when_it_hands_out_files():
    # pytest-xdist reorders files by their number of tests unless told not to: the long files,
    # with few tests each, would then start last and the suite end on one busy process.
    command = next(
        line for line in (ROOT / "bin" / "test").read_text().splitlines() if "-m pytest -n" in line
    )
    assert "--dist loadfile" in command and "--no-loadscope-reorder" in command
