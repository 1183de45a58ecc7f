"""Helpers shared by the movie tests: recording short movies with real cores and ROMs."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import emucore


@dataclass
class Recording:
    """A movie recorded through an env, with what the env saw at every step (index 0 = reset)."""

    path: Path
    rams: list[np.ndarray] = field(default_factory=list)
    frames: list[np.ndarray] = field(default_factory=list)
    total_reward: float = 0.0
    final_info: dict = field(default_factory=dict)
    masks: list[list[int]] = field(default_factory=list)


def record_with_env(
    game: str,
    folder: Path,
    steps: int,
    *,
    seed: int = 0,
    players: int = 1,
    actions: emucore.Actions = emucore.Actions.ALL,
    keep_frames: bool = True,
    state: object = emucore.State.DEFAULT,
) -> Recording:
    """Random actions for ``steps`` steps in ``emucore.make(game, record=folder)``."""
    folder.mkdir(parents=True, exist_ok=True)
    env = emucore.make(
        game, state=state, record=str(folder), players=players, use_restricted_actions=actions,
        inttype=emucore.data.Integrations.ALL,
    )
    rng = np.random.default_rng(seed)
    try:
        obs, _ = env.reset(seed=seed)
        path = Path(env.movie.path)
        rec = Recording(path)
        rec.rams.append(env.get_ram().copy())
        if keep_frames:
            rec.frames.append(obs.copy())
        for _ in range(steps):
            action = rng.integers(0, 2, env.num_buttons * players, dtype=np.int8)
            obs, reward, _, _, info = env.step(action)
            rec.masks.append(env.data.actions.decode(action, env.use_restricted_actions, players))
            rec.rams.append(env.get_ram().copy())
            if keep_frames:
                rec.frames.append(obs.copy())
            rec.total_reward += float(reward)
            rec.final_info = info
    finally:
        env.close()
    return rec


def entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def write_zip(path: Path, items: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in items:
            archive.writestr(name, data)
    return path


GENESIS_BIZHAWK_ORDER = ["Up", "Down", "Left", "Right", "A", "B", "C", "Start", "X", "Y", "Z", "Mode"]
GENESIS_BUTTON_INDEX = {"B": 0, "A": 1, "Mode": 2, "Start": 3, "Up": 4, "Down": 5, "Left": 6, "Right": 7,
                        "C": 8, "Y": 9, "X": 10, "Z": 11}
GENESIS_BIZHAWK_CHARS = {"Up": "U", "Down": "D", "Left": "L", "Right": "R", "A": "A", "B": "B", "C": "C",
                         "Start": "S", "X": "X", "Y": "Y", "Z": "Z", "Mode": "M"}


def bizhawk_genesis_log(masks: np.ndarray, players: int = 1, crlf: bool = False) -> str:
    """An ``Input Log.txt`` as BizHawk 2.x writes it for GPGX with 6-button pads."""
    groups = ["Reset|Power|"]
    for p in range(1, players + 1):
        groups.append("".join(f"P{p} {name}|" for name in GENESIS_BIZHAWK_ORDER))
    lines = ["[Input]", "LogKey:#" + "#".join(groups)]
    for row in masks:
        fields = [".."]
        for p in range(players):
            mask = int(row[p])
            fields.append("".join(
                GENESIS_BIZHAWK_CHARS[n] if mask >> GENESIS_BUTTON_INDEX[n] & 1 else "." for n in GENESIS_BIZHAWK_ORDER
            ))
        lines.append("|" + "|".join(fields) + "|")
    lines.append("[/Input]")
    end = "\r\n" if crlf else "\n"
    return end.join(lines) + end


def bizhawk_header(game_name: str, sha1: str, platform: str = "GEN") -> str:
    return (
        "MovieVersion BizHawk v2.0.0\n"
        "Author tester\n"
        "emuVersion Version 2.6.2\n"
        "OriginalEmuVersion Version 2.6.2\n"
        f"Platform {platform}\n"
        f"GameName {game_name}\n"
        f"SHA1 {sha1.upper()}\n"
        "Core Genplus-gx\n"
        "rerecordCount 12\n"
        "StartsFromSavestate True\n"
    )


def write_bizhawk(path: Path, log: str, header: str, core: bytes | None = b"BizHawk-state\x00\x01") -> Path:
    items = [
        ("Header.txt", header.encode()),
        ("Comments.txt", b""),
        ("Subtitles.txt", b""),
        ("SyncSettings.json", b'{"o":{"$type":"BizHawk.Emulation.Cores.Consoles.Sega.gpgx.GPGX+SyncSettings"}}'),
        ("Input Log.txt", log.encode()),
    ]
    if core is not None:
        items.append(("Core.bin", core))
    return write_zip(path, items)
