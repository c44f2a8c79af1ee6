"""The cache of parsed data files (core/datacache.py, issue 59): the same data as parsing
the file, never an entry made for other content, a damaged entry ignored and rebuilt."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from gettysburg.boc.oob import DATA_DIR, DataError, read_yaml
from gettysburg.core import datacache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(datacache.ENV, str(folder))
    return folder


class Counting:
    """A parser that counts its calls: a cache hit does not call it."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, content: bytes) -> Any:
        self.calls += 1
        return json.loads(content)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bin"))


def test_every_shipped_yaml_file_reads_the_same_cold_and_warm(cache: Path) -> None:
    """Byte for byte: the repr (which tells 1 from 1.0 from True, and keeps key order) of
    the cached data is that of PyYAML's own reading of the file."""
    files = sorted(DATA_DIR.rglob("*.yaml"))
    assert len(files) >= 6
    for f in files:
        slow = yaml.safe_load(f.read_text(encoding="utf-8"))
        cold = read_yaml(f)
        warm = read_yaml(f)
        assert repr(cold) == repr(slow) and repr(warm) == repr(slow), f
    assert len(_entries(cache)) == len({f.read_bytes() for f in files})


def test_a_hit_does_not_parse_and_an_edit_is_never_served_stale(cache: Path,
                                                                 tmp_path: Path) -> None:
    f = tmp_path / "data.json"
    f.write_text('{"a": 1}')
    parse = Counting()
    assert datacache.load(f, parse, "json") == {"a": 1}
    assert datacache.load(f, parse, "json") == {"a": 1}
    assert parse.calls == 1
    f.write_text('{"a": 2}')  # same size, same second: only the content tells
    assert datacache.load(f, parse, "json") == {"a": 2}
    assert parse.calls == 2
    f.write_text('{"a": 1}')  # back to the first content: its entry is still good
    assert datacache.load(f, parse, "json") == {"a": 1}
    assert parse.calls == 2


def test_another_parser_tag_has_its_own_entries(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "data.json"
    f.write_text("[1, 2]")
    parse = Counting()
    datacache.load(f, parse, "json")
    assert datacache.load(f, lambda c: "other", "json-v2") == "other"
    assert parse.calls == 1 and len(_entries(cache)) == 2


def test_an_entry_of_other_content_under_this_name_is_ignored(cache: Path,
                                                              tmp_path: Path) -> None:
    """An entry copied over another key's name (its header names its own key) is never
    served: the file is parsed again and the entry replaced."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text('"from a"')
    b.write_text('"from b"')
    parse = Counting()
    datacache.load(a, parse, "json")
    (entry_a,) = _entries(cache)
    datacache.load(b, parse, "json")
    (entry_b,) = [e for e in _entries(cache) if e != entry_a]
    entry_b.write_bytes(entry_a.read_bytes())
    assert datacache.load(b, parse, "json") == "from b"
    assert parse.calls == 3
    assert datacache.load(b, parse, "json") == "from b" and parse.calls == 3  # rebuilt


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_corrupt_entry_is_ignored_and_rebuilt(cache: Path, tmp_path: Path,
                                                damage: str) -> None:
    f = tmp_path / "data.json"
    f.write_text(json.dumps({"units": [{"id": "x", "strength": 4}], "ok": True}))
    parse = Counting()
    want = datacache.load(f, parse, "json")
    (entry,) = _entries(cache)
    blob = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(blob[:-3])
    elif damage == "flip":  # a payload byte changed: its hash no longer matches
        entry.write_bytes(blob[:-5] + bytes([blob[-5] ^ 0xFF]) + blob[-4:])
    elif damage == "empty":
        entry.write_bytes(b"")
    else:
        entry.write_bytes(b"\x00" * len(blob))
    assert datacache.load(f, parse, "json") == want
    assert parse.calls == 2
    assert entry.read_bytes() == blob  # rebuilt as it was
    assert datacache.load(f, parse, "json") == want and parse.calls == 2


def test_data_marshal_cannot_hold_is_parsed_every_time(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "dated.yaml"
    f.write_text("day: 1863-07-01\n")
    assert read_yaml(f) == {"day": datetime.date(1863, 7, 1)}
    assert read_yaml(f) == {"day": datetime.date(1863, 7, 1)}
    assert _entries(cache) == []


def test_a_folder_that_cannot_be_written_only_costs_the_parse(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(datacache.ENV, str(blocker / "cache"))
    f = tmp_path / "data.json"
    f.write_text("[3]")
    parse = Counting()
    assert datacache.load(f, parse, "json") == [3]
    assert datacache.load(f, parse, "json") == [3]
    assert parse.calls == 2


@pytest.mark.parametrize("setting", ["off", "0", ""])
def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     setting: str) -> None:
    monkeypatch.setenv(datacache.ENV, setting)
    assert datacache.cache_dir() is None
    f = tmp_path / "data.json"
    f.write_text("{}")
    parse = Counting()
    datacache.load(f, parse, "json")
    datacache.load(f, parse, "json")
    assert parse.calls == 2


def test_without_a_setting_the_users_cache_folder_is_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from platformdirs import user_cache_dir

    monkeypatch.delenv(datacache.ENV, raising=False)
    assert datacache.cache_dir() == Path(user_cache_dir("gettysburg")) / "data"


def test_errors_of_the_file_and_of_the_parser_reach_the_caller(cache: Path,
                                                               tmp_path: Path) -> None:
    """The cache never hides a bad file: a missing file, bad YAML and bad UTF-8 are the
    DataErrors they always were, and nothing is cached for them."""
    with pytest.raises(DataError) as missing:
        read_yaml(tmp_path / "nope.yaml")
    assert missing.value.field == "(file)"
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\nb: 3\n")
    with pytest.raises(DataError) as syntax:
        read_yaml(bad)
    assert syntax.value.field == "(yaml)" and str(bad) in str(syntax.value)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"a: \xff\xfe\n")
    with pytest.raises(DataError) as encoding:
        read_yaml(binary)
    assert encoding.value.field == "(encoding)"
    assert _entries(cache) == []


def test_windows_line_ends_read_as_a_text_file_reads_them(cache: Path, tmp_path: Path) -> None:
    f = tmp_path / "crlf.yaml"
    f.write_bytes(b"text: |\r\n  one\r\n  two\r\nn: 2\r\n")
    want = yaml.safe_load(f.read_text(encoding="utf-8"))
    assert read_yaml(f) == want == {"text": "one\ntwo\n", "n": 2}
    assert read_yaml(f) == want
