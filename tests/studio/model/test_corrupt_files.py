"""The studio's own files, when corrupt, are set aside as ``<name>.bad`` with their bytes intact, never over an
earlier one; a corrupt recovery session goes with its state (what the app reports on open:
``tests/studio/qt/test_corrupt_files.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.model.play.recovery import Recovery
from studio.model.set_aside import set_aside

NOT_UTF8 = b'{"info": {"\xff\xfe": 1}}'
BROKEN = {
    "invalid JSON": b'{"info": {"x": ',
    "invalid UTF-8": NOT_UTF8,
    "a list": b"[1, 2, 3]",
    "empty": b"",
    "nested too deeply": b"[" * 100_000 + b"]" * 100_000,
}


def test_set_aside_never_overwrites_an_earlier_bad_file(tmp_path):
    path = tmp_path / "settings.json"
    for n in range(3):
        path.write_text(f"bad {n}")
        set_aside(path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["settings.json.bad", "settings.json.bad-1", "settings.json.bad-2"]
    assert (tmp_path / "settings.json.bad-2").read_text() == "bad 2"


def crashed(folder: Path, session: bytes) -> Recovery:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "running.lock").write_text("99999999999999999999999\n")  # no such process (not even a pid)
    (folder / "session.json").write_bytes(session)
    return Recovery(folder)


@pytest.mark.parametrize("content", [*BROKEN.values(), b'{"game": 5, "state_file": null, "frame": 1, "saved_at": 0}',
                                     b'{"game": "x", "state_file": null, "frame": "1", "saved_at": 0}',
                                     b'{"game": "x", "state_file": null, "frame": 1e300, "saved_at": 0}',
                                     b'{"game": "x"}'],
                         ids=[*BROKEN, "game", "frame", "huge frame", "missing"])
def test_a_corrupt_recovery_session_is_set_aside_with_its_state(tmp_path, content):
    recovery = crashed(tmp_path / "data", content)
    recovery.state_file.write_bytes(b"the crashed run's last state")
    assert recovery.crashed_session() is None
    assert len(recovery.problems) == 1 and recovery.problems[0].path == recovery.session_file
    assert "recovery.state.bad" in str(recovery.problems[0])
    assert recovery.session_file.with_name("session.json.bad").read_bytes() == content
    assert recovery.state_file.with_name("recovery.state.bad").read_bytes() == b"the crashed run's last state"
