"""The watch and RAM models without Qt: data.json kept in step, pokes, freezes, samples, change ages."""

from __future__ import annotations

import json

import numpy as np
import pytest

from emucore.integration import Variable, dump_data_json, parse_data_json
from studio.model.play.session import Session
from studio.model.variables.ram import ChangeTracker, Ram, ascii_row, decode_all, hex_row, parse_number
from studio.model.variables.sample_ring import SampleRing
from studio.model.variables.watch import Watch

LIVES, X = 0xFF0012, 0xFF000A


@pytest.fixture
def session(demo):
    session = Session(*demo)
    yield session
    session.close()


def data_json(session: Session) -> str:
    return (session.folder / "data.json").read_text("utf-8")


def test_edits_are_saved_to_data_json_in_stable_retros_layout(session):
    watch = Watch(session)
    expected = dict(parse_data_json(data_json(session)))
    watch.add("hp", 0xFF0020, ">u2")
    watch.add("flags", 0xFF0021, "|u1", mask=0x0F)
    expected["hp"] = Variable(0xFF0020, ">u2")
    expected["flags"] = Variable(0xFF0021, "|u1", 0x0F)
    assert data_json(session) == dump_data_json(expected)

    watch.edit("hp", address=0xFF0022, type=">i2")
    watch.rename("hp", "health")
    watch.edit("flags", mask=None)
    watch.remove("score_bcd")
    del expected["hp"], expected["score_bcd"]
    expected["health"] = Variable(0xFF0022, ">i2")
    expected["flags"] = Variable(0xFF0021, "|u1")
    assert data_json(session) == dump_data_json(expected)
    assert "mask" not in json.loads(data_json(session))["info"]["flags"]
    assert Watch(session).variables == expected  # what a new session reads back


def test_invalid_edits_change_nothing(session):
    watch = Watch(session)
    before = data_json(session)
    for bad in (lambda: watch.add("x", 1, ">u2"), lambda: watch.add("", 1, ">u2"),
                lambda: watch.add("v", 1, ">u9"), lambda: watch.add("v", 1, "u1"),
                lambda: watch.edit("x", type="?"), lambda: watch.rename("x", "y"), lambda: watch.add("v", -1, "|u1")):
        with pytest.raises(ValueError):
            bad()
    assert data_json(session) == before
    watch.add("ghost", 0x10, "|u1")  # unmapped on Genesis: kept, with a warning
    assert watch.value("ghost") is None and "not mapped" in watch.warning("ghost")
    assert watch.warning("lives") is None
    assert watch.unique_name("x") == "x_2" and watch.unique_name("new") == "new"


def test_entries_stable_retro_skips_are_kept_and_a_broken_file_is_not_overwritten(session):
    path = session.folder / "data.json"
    info = json.loads(path.read_text())["info"]
    info["odd"] = {"address": 5, "type": "u1"}  # too short: stable-retro skips it
    path.write_text(json.dumps({"info": info}))
    watch = Watch(session)
    assert "odd" not in watch.variables
    watch.add("new", 0xFF0030, "|u1")
    assert json.loads(path.read_text())["info"]["odd"] == {"address": 5, "type": "u1"}

    path.write_text('{"info": {"x": {"address": "0x10", "type": "|u1"}}}')
    broken = Watch(session)
    assert broken.variables == {} and "address" in broken.load_error
    with pytest.raises(ValueError, match="nothing was saved"):
        broken.add("y", 0xFF0000, "|u1")
    assert "0x10" in path.read_text()
    path.write_text(dump_data_json({"x": Variable(0xFF000A, ">u2")}))
    broken.reload()
    assert broken.load_error is None and list(broken.variables) == ["x"]


def test_poke_writes_memory_through_the_overlay(session):
    watch = Watch(session)
    watch.poke("x", 0x1234)
    assert session.emulator.read(X, ">u2") == 0x1234
    assert session.emulator.memory.blocks[0].data[0xA:0xC].tobytes() == b"\x34\x12"  # raw is byte-swapped
    assert watch.value("x") == 0x1234


def test_freeze_holds_a_value_across_frames(session):
    watch = Watch(session)
    watch.freeze("lives", 9)
    session.advance(400)  # a life is lost every 300 frames
    assert watch.value("lives") == 9
    watch.poke("lives", 7)  # a poke moves the frozen value
    session.advance(5)
    assert watch.value("lives") == 7
    watch.unfreeze("lives")
    timer = watch.freeze_address(0xFF0010, ">u2", 2)
    session.advance(10)
    assert session.emulator.read(0xFF0010, ">u2") == 2
    assert watch.value("lives") == 7  # the timer never ran out
    watch.unfreeze_address(timer)
    session.advance(5)
    assert watch.value("lives") == 6  # released: the timer ran out at once


def test_freeze_of_a_raw_region_writes_raw_bytes(session):
    watch = Watch(session)
    watch.freeze_address(0x12, "|u1", 5, region="system_ram")  # raw 0x12 is logical 0xFF0013 (game_over)
    session.advance(3)
    assert session.emulator.memory_regions()["system_ram"][0x12] == 5
    assert watch.value("game_over") == 5


def test_samples_follow_rewinds(session):
    watch = Watch(session)
    session.set_buttons(0, 1 << 7)  # RIGHT: x grows every frame
    session.advance(60)
    frames, values = watch.samples("x")
    assert list(frames) == list(range(1, 61)) and len(set(values)) > 1
    session.rewind_frames(20)
    assert session.frame <= 40
    for name in watch.variables:
        assert watch.samples(name)[0].max() <= session.frame
    rewound_to = session.frame
    x_then = watch.samples("x")[1][-1]
    assert x_then == watch.value("x")
    session.advance(10)
    frames, _ = watch.samples("x")
    assert list(frames[-11:]) == list(range(rewound_to, rewound_to + 11))
    assert np.all(np.diff(frames) == 1)


def test_sample_ring_keeps_the_newest():
    ring = SampleRing(5)
    for frame in range(1, 9):
        ring.append(frame, frame * 10)
    frames, values = ring.arrays()
    assert list(frames) == [4, 5, 6, 7, 8] and list(values) == [40, 50, 60, 70, 80]
    ring.drop_after(6)
    assert list(ring.arrays()[0]) == [4, 5, 6] and ring.last_frame == 6
    ring.append(7, 1)
    assert list(ring.arrays()[1]) == [40, 50, 60, 1]
    ring.drop_after(0)
    assert len(ring) == 0 and ring.last_frame is None


def test_history_is_seconds_of_play(session):
    watch = Watch(session, history_seconds=1)
    session.advance(100)
    frames, _ = watch.samples("frame")
    assert len(frames) == watch.capacity == 60 and frames[-1] == 100


def test_change_ages_count_frames_and_are_throttled():
    tracker = ChangeTracker(max_rate=30)
    data = np.zeros(8, dtype=np.uint8)
    assert tracker.update(data, frame=0, now=0.0)
    assert (tracker.ages > 1000).all()  # nothing changed yet
    data[3] = 1
    assert not tracker.update(data, frame=1, now=0.01)  # under 1/30 s later: ignored
    assert tracker.update(data, frame=2, now=0.05)
    assert tracker.ages[3] == 0 and tracker.ages[0] > 1000
    data[5] = 7
    assert tracker.update(data, frame=6, now=0.1)
    assert tracker.ages[3] == 4 and tracker.ages[5] == 0


def test_ram_model_on_the_genesis(session):
    ram = Ram(session.emulator)
    labels = [r.label for r in ram.regions]
    assert labels[0].startswith("0xFF0000") and any(r.raw == "system_ram" for r in ram.regions)
    region, offset = ram.locate("FF0012")
    assert (region.start, offset) == (0xFF0000, 0x12)
    assert ram.locate("0xFF0012") == ram.locate("16711698") == ram.locate("$FF0012")
    with pytest.raises(ValueError):
        ram.locate("0x10")
    ram.poke(0x12, 0x42)  # logical: through the overlay
    assert session.emulator.read(LIVES, "|u1") == 0x42
    values, _ = ram.view(0x10, 4)
    assert bytes(values)[2] == 0x42
    assert dict(ram.readout(0x12))["|u1"] == 0x42
    assert [t for t, _ in ram.readout(0)] == list(session.system.types)
    ram.select(next(r for r in ram.regions if r.raw == "system_ram"))
    ram.poke(0x12, 0x24)  # raw: no overlay
    assert session.emulator.read(0xFF0013, "|u1") == 0x24
    ram.refresh(session.frame, now=0.0)
    session.advance(2)
    ram.refresh(session.frame, now=1.0)
    assert ram.view(0, 0x20)[1].min() == 0  # the frame counter changed


def test_formatting_helpers():
    assert hex_row(b"\x12\x34\xab") == "12 34 AB"
    assert hex_row(bytes(range(4)), group=2) == "00 01  02 03"
    assert ascii_row(b"Hi\x00~\x7f") == "Hi.~."
    assert dict(decode_all(bytes([0x12, 0x34, 0x56, 0x78]), (">u2", "<u2", ">d4", "|i1")))[">d4"] == 12345678
    assert parse_number("FF0012") == parse_number("0xff0012") == parse_number("16711698") == 0xFF0012
    assert parse_number("-2") == -2 and parse_number("12h") == 0x12
    with pytest.raises(ValueError):
        parse_number("0xZZ")
