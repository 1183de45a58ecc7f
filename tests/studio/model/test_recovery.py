"""After a clean exit the next start finds no session to restore (after a kill it does: the studio killed in
``tests/studio/qt/test_launch.py``)."""

from __future__ import annotations

from studio.model.play.recovery import Recovery


def test_clean_exit_leaves_nothing_to_restore(tmp_path):
    recovery = Recovery(tmp_path)
    recovery.start()
    recovery.record("StudioDemo-Genesis", b"state", 12, force=True)
    recovery.finish()
    assert Recovery(tmp_path).crashed_session() is None
