"""A content folder's files (``--content``, ``compare --arm content=PATH``) that are not UTF-8 (a Latin-1 comment,
binary bytes), a folder in place of a file, or a count below 0 are one line naming the file, the byte offset or
the field and its value, exit 2, nothing written; a settings file that is not UTF-8 names its byte the same way."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from meeplelab.sim.core.content import read_toml
from meeplelab.sim.core.errors import ContentError
from meeplelab.sim.registry import get_game_class
from tests.test_cli_errors import SIM, expect_error

#: the same 300 bytes every time (binary, not UTF-8 from their third byte: 0xea after 0x12 0x34)
BINARY = bytes([0x12, 0x34, 0xEA] + [(i * 37 + 11) % 256 for i in range(297)])


def _latin1_comment(text: str) -> bytes:
    return "# Fran\u00e7ois' caf\u00e9 rule\n".encode("latin-1") + text.encode()


def _replace(old: str, new: str):
    def edit(text: str) -> bytes:
        assert old in text
        return text.replace(old, new, 1).encode()

    return edit


CASES = [  # (game, file, edit of the file's text -> bytes, or None for a folder in its place, message after the path)
    ("galileos-truth", "penance.toml", _latin1_comment,
     "{f}: not UTF-8 text: byte 0xe7 at byte offset 6 (line 1); TOML files must be UTF-8: save it as UTF-8"),
    ("galileos-truth", "board.toml", lambda _: BINARY,
     "{f}: not UTF-8 text: byte 0xea at byte offset 2 (line 1); TOML files must be UTF-8: save it as UTF-8"),
    ("unconscious-mind", "research.toml", lambda t: t.encode() + b"# na\xefve\n",
     "{f}: not UTF-8 text: byte 0xef at byte offset {n} (line {line}); TOML files must be UTF-8: save it as UTF-8"),
    ("galileos-truth", "penance.toml", None, "{f}: is a folder, not a content file: allowed a TOML file of that name"),
    ("galileos-truth", "penance.toml", _replace("count = 4", "count = -3"),
     "penance.toml: [[penance]] entry 'penance-minor': field 'count' is -3: allowed 0 or more"),
    ("galileos-truth", "penance.toml", _replace("coins = 2", "coins = -1"),
     "penance.toml: [[penance]] entry 'penance-minor': field 'coins' is -1: allowed 0 or more"),
    ("galileos-truth", "treatises.toml", _replace("books = 1", "books = -2"),
     "treatises.toml: [[card]] entry 'star-charts': field 'books' is -2: allowed 0 or more"),
    ("galileos-truth", "observation.toml", _replace('id = "w0-0"\nrow = 0', 'id = "w0-0"\nrow = 7'),
     "observation.toml: [[space]] entry 'w0-0': field 'row' is 7: outside the 3x4 Window, allowed 0 to 2"),
]


def bad_content(tmp_path: Path, game: str, name: str, edit) -> tuple[Path, Path, str]:
    """A copy of ``game``'s packaged content with file ``name`` edited; (folder, file, the original text)."""
    folder = tmp_path / "content"
    shutil.copytree(get_game_class(game).default_content_dir(), folder)
    f = folder / name
    text = f.read_text()
    if edit is None:
        f.unlink()
        f.mkdir()
    else:
        f.write_bytes(edit(text))
    return folder, f, text


@pytest.mark.parametrize("game,name,edit,message", CASES)
def test_a_bad_content_file_is_one_line_naming_it_exit_2_and_nothing_written(game, name, edit, message, tmp_path,
                                                                            capsys, monkeypatch):
    folder, f, text = bad_content(tmp_path, game, name, edit)
    n = len(text.encode())
    want = message.format(f=f, n=n + 4, line=text.count("\n") + 1)
    out = tmp_path / "o"
    expect_error(SIM + ["--game", game, "--players", "2", "--games", "4", "--n-jobs", "1", "--content", str(folder),
                        "--out", str(out)], want, capsys, monkeypatch)
    assert not out.exists()
    cmp = tmp_path / "cmp"
    expect_error(["compare", "--game", game, "--arm", "default", "--arm", f"content={folder}", "--players", "2",
                  "--games", "4", "--n-jobs", "1", "--out", str(cmp)], want, capsys, monkeypatch)
    assert not cmp.exists()


def test_read_toml_names_the_first_bad_byte_and_its_line(tmp_path):
    f = tmp_path / "x.toml"
    f.write_bytes(b'a = 1\nb = "ok"\n# caf\xe9\n')
    with pytest.raises(ContentError) as e:
        read_toml(f)
    assert str(e.value) == (f"{f}: not UTF-8 text: byte 0xe9 at byte offset 20 (line 3); TOML files must be UTF-8: "
                            "save it as UTF-8")
    f.write_bytes('a = 1\n# caf\u00e9 in UTF-8\n'.encode())
    assert read_toml(f) == {"a": 1}


def test_a_settings_file_that_is_not_utf8_names_the_byte(tmp_path, capsys, monkeypatch):
    cfg = tmp_path / "c.toml"
    cfg.write_bytes('game = "toy"\nplayers = 2\n# Fran\u00e7ois\n'.encode("latin-1"))
    out = tmp_path / "o"
    why = "not UTF-8 text: byte 0xe7 at byte offset 31 (line 3); TOML files must be UTF-8: save it as UTF-8"
    expect_error(SIM + ["--config", str(cfg), "--out", str(out)], f"config file {str(cfg)!r}: {why}", capsys,
                 monkeypatch)
    expect_error(["tournament", "--strategies", "random,always-draw", "--config", str(cfg), "--out", str(out)],
                 f"config file {str(cfg)!r}: {why}", capsys, monkeypatch)
    assert not out.exists()
