"""The ``.bk2`` movie format (stable-retro's dialect and BizHawk's) and FCEUX ``.fm2``: read and write.

Writing produces exactly what stable-retro 1.0.1 writes (movie-format.md §1-§3): a ZIP with
the deflated entries ``Input Log.txt``, ``Header.txt``, ``Core.bin`` in that order, the eight
header lines, a key line without ``LogKey:``, one ``|..|<P1>|<P2>|`` line per frame with the
columns in descending button index, and ``[/Input]`` without a trailing newline.

Reading is tolerant (§8 [rec] 2):

* entry names are matched exactly first, then case-insensitively without their extension
  (BizHawk's rule); only ``Input Log.txt`` is required. ``Header.txt`` defaults to an empty
  header (game ``?``), ``Core.bin`` to no state;
* CRLF line ends, a missing ``[Input]`` line, a missing key line and blank lines are accepted.
  **Blank lines are skipped** (stable-retro stops playback at the first one);
* a key line with a ``LogKey:`` prefix and ``#`` groups (BizHawk's) has its columns mapped
  **by name and position**, the way BizHawk reads them (any char but ``.`` is a press, analog
  numbers are skipped). Every other key line is read like stable-retro: **by char**, through
  the platform's char table, positions ignored;
* BizHawk platform codes (``GEN``, ``SNES``, ``NES``, ``A26``, ``GB``, ``GBC``, ``GBA``, ``SMS``,
  ``GG``, ``32X``, ``PCE``, ``SAT``, ``N64``, ``NDS``) and stable-retro system tokens both name
  a platform. Without a ``Platform`` line, the system the ``GameName`` declares is used
  (stable-retro then reads every key as released); an unknown platform maps no char, as in
  stable-retro (and playback refuses it);
* entry sizes are capped (``Input Log`` 64 MiB, ``Core.bin`` 256 MiB, others 1 MiB), both the
  declared sizes and the bytes actually inflated; at most 8 players are read.

``.fm2`` (FCEUX, NES) is recognised by its first line ``version 3`` whatever the extension;
``port1 1`` gives 2 players, and the pad fields are read by position in FCEUX's ``RLDUTSBA``
order (any char but ``.`` or space is a press; for FCEUX's own files this is what
stable-retro's by-char reading gives). It has no game name (``?``) and no start state.

Logs whose frame lines share one layout are decoded with numpy in one go (a million lines
in about a second); others line by line, with the same results.

Every problem raises :class:`MovieError`, naming the file and the problem.
"""

from __future__ import annotations

import io
import os
import re
import time
import zipfile
import zlib
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from emucore.errors import FileProblem
from emucore.fileio import atomic_write_bytes, open_regular
from emucore.systems import System, systems

INPUT_LOG = "Input Log.txt"
HEADER = "Header.txt"
CORE = "Core.bin"

#: Caps on what an entry may inflate to (and on its declared size).
MAX_INPUT_LOG_BYTES = 64 << 20
MAX_CORE_BYTES = 256 << 20
MAX_OTHER_BYTES = 1 << 20
#: The largest .fm2 file read.
MAX_FM2_BYTES = MAX_INPUT_LOG_BYTES
#: Button masks are 16 bits per player (libretro joypad ids 0..15).
MAX_BUTTONS = 16
#: The most players a movie may name (emucore plays at most 2).
MAX_READ_PLAYERS = 8
#: Distinct frame lines remembered while parsing (repeated lines are decoded once).
MAX_CACHED_LINES = 1 << 16

#: Core-json button name -> the char written for it (movie-format.md §3.2).
BUTTON_CHARS: dict[str, str] = {
    "A": "A", "B": "B", "C": "C", "X": "X", "Y": "Y", "Z": "Z",
    "START": "S", "SELECT": "s", "MODE": "M",
    "UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R",
    "L": "l", "R": "r", "BUTTON": "B",
}  # fmt: skip
#: Char -> the name written in the key line (``P1 <name>|``); Atari's ``B`` is ``Button``.
CHAR_NAMES: dict[str, str] = {
    "A": "A", "B": "B", "C": "C", "X": "X", "Y": "Y", "Z": "Z",
    "S": "Start", "s": "Select", "M": "Mode",
    "U": "Up", "D": "Down", "L": "Left", "R": "Right", "l": "L", "r": "R",
}  # fmt: skip
PLATFORM_CHAR_NAMES: dict[str, dict[str, str]] = {"Atari2600": {"B": "Button"}}

#: stable-retro writes these four BizHawk codes; any other system is written as its token.
WRITE_PLATFORM: dict[str, str] = {"Genesis": "GEN", "Snes": "SNES", "Nes": "NES", "Atari2600": "A26"}
#: Platform codes read as aliases of system tokens (BizHawk's, and stable-retro's four).
PLATFORM_ALIASES: dict[str, str] = {
    "GEN": "Genesis", "SNES": "Snes", "NES": "Nes", "A26": "Atari2600", "GB": "GameBoy", "GBC": "GbColor",
    "GBA": "GbAdvance", "SMS": "Sms", "GG": "GameGear", "32X": "32x", "PCE": "PCEngine", "SAT": "Saturn",
    "N64": "N64", "NDS": "NintendoDs",
}  # fmt: skip

#: BizHawk controller names (upper case, ``P<n> `` removed) that differ from our button names.
BIZHAWK_NAME_ALIASES: dict[str, str] = {
    "DPAD U": "UP", "DPAD D": "DOWN", "DPAD L": "LEFT", "DPAD R": "RIGHT",
    "C UP": "C-UP", "C DOWN": "C-DOWN", "C LEFT": "C-LEFT", "C RIGHT": "C-RIGHT",
    "B1": "B", "B2": "A",  # SMS / Game Gear buttons 1 and 2 (genesis_plus_gx maps them to B and A)
}  # fmt: skip

_PLAYER_NAME = re.compile(r"^P(\d+) (.+)$")
_ANALOG_TOKEN = re.compile(r"\s*-?\d+,")
_SHA1 = re.compile(r"^[0-9a-fA-F]{40}$")


class MovieError(FileProblem, RuntimeError):
    """A movie that is missing, corrupt, oversized, or does not fit the game it names.

    A ``RuntimeError`` too, so code written for stable-retro (which raises
    ``RuntimeError("Could not load movie")``) keeps catching it.
    """

    what = "movie"


# ---------------------------------------------------------------------------------------------
# Platforms and columns


def resolve_platform(platform: str | None) -> str | None:
    """The system token a header ``Platform`` names (BizHawk code or token), or None if unknown."""
    if not platform:
        return None
    platform = platform.strip()
    table = systems()
    if platform in table:
        return platform
    alias = PLATFORM_ALIASES.get(platform) or PLATFORM_ALIASES.get(platform.upper())
    if alias:
        return alias
    for name in table:  # stable-retro tokens in another case ("32X" is already an alias)
        if name.lower() == platform.lower():
            return name
    return None


def write_platform(system: str) -> str:
    """The ``Platform`` value stable-retro writes for a system token."""
    return WRITE_PLATFORM.get(system, system)


def char_table(system: System | None) -> dict[str, int]:
    """Char -> button index for reading (stable-retro's keymap: later indices win a shared char)."""
    table: dict[str, int] = {}
    if system is None:
        return table
    for index, button in enumerate(system.buttons[:MAX_BUTTONS]):
        char = BUTTON_CHARS.get(button or "")
        if char is not None:
            table[char] = index
    return table


@dataclass(frozen=True)
class Column:
    """One recorded button: its index, the char written when pressed and its key-line name."""

    index: int
    char: str
    name: str


def columns_for(system: System | None) -> list[Column]:
    """The columns stable-retro writes for a system: buttons with a char, descending index (§3.3)."""
    if system is None:
        return []
    names = PLATFORM_CHAR_NAMES.get(system.name, {})
    by_index: dict[int, str] = {}
    for char, index in char_table(system).items():
        by_index[index] = char
    ordered = sorted(by_index, reverse=True)
    return [Column(i, by_index[i], names.get(by_index[i], CHAR_NAMES[by_index[i]])) for i in ordered]


# ---------------------------------------------------------------------------------------------
# Writing


def render_header(game: str, platform: str) -> str:
    """``Header.txt`` exactly as stable-retro writes it (eight lines, LF, final LF)."""
    return (
        "MovieVersion Retro\n"
        "Author ?\n"
        "emuVersion ?\n"
        f"Platform {platform}\n"
        f"GameName {game}\n"
        "SHA1 ?\n"
        "Core ?\n"
        "rerecordCount 1\n"
    )


class InputLogWriter:
    """Renders frame lines of a stable-retro input log for a fixed column layout."""

    def __init__(self, columns: Sequence[Column], players: int):
        self.columns = list(columns)
        self.players = players
        self._fields: dict[int, str] = {}

    def key_line(self) -> str:
        """``P1 Z|P1 X|...|`` (no ``LogKey:``, no groups; stable-retro's quirk) and LF."""
        return "".join(f"P{p} {c.name}|" for p in range(1, self.players + 1) for c in self.columns) + "\n"

    def field(self, mask: int) -> str:
        text = self._fields.get(mask)
        if text is None:
            text = "".join(c.char if mask >> c.index & 1 else "." for c in self.columns)
            self._fields[mask] = text
        return text

    def frame_line(self, masks: Sequence[int]) -> str:
        return "|..|" + "".join(self.field(int(m)) + "|" for m in masks) + "\n"

    def render(self, frames: Iterable[Sequence[int]]) -> str:
        """The whole ``Input Log.txt``: ``[Input]``, key line, frame lines, ``[/Input]`` (no final LF)."""
        out = io.StringIO()
        out.write("[Input]\n")
        out.write(self.key_line())
        for masks in frames:
            out.write(self.frame_line(masks))
        out.write("[/Input]")
        return out.getvalue()


def build_archive(entries: Sequence[tuple[str, bytes]], when: float | None = None) -> bytes:
    """A ZIP of the entries, in order, deflated, flat, "made by" Unix, local-time stamps."""
    stamp = time.localtime(time.time() if when is None else when)[:6]
    stamp = (max(stamp[0], 1980), *stamp[1:])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100666 << 16
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)
    return buffer.getvalue()


def write_bk2(path: str | os.PathLike[str], input_log: str, header: str, core: bytes | None) -> None:
    """Writes a movie atomically (temp file beside it, then rename). ``core`` None or empty: no ``Core.bin``.

    Raises:
        MovieError: the file cannot be written.
    """
    entries = [(INPUT_LOG, input_log.encode("utf-8")), (HEADER, header.encode("utf-8"))]
    if core:
        entries.append((CORE, bytes(core)))
    try:
        atomic_write_bytes(Path(path), build_archive(entries))
    except OSError as exc:
        raise MovieError(path, f"cannot be written: {exc.strerror or exc}") from exc


# ---------------------------------------------------------------------------------------------
# Reading


@dataclass
class MovieData:
    """A parsed movie: what :class:`emucore.movie.Movie` serves in read mode."""

    kind: str  # "bk2" or "fm2"
    header: dict[str, str]
    game: str
    platform: str  # the header's Platform as written ("" if none)
    system: str | None  # the system token used to map chars (None: unknown)
    players: int
    masks: np.ndarray  # (frames, players) uint16
    core: bytes  # the raw Core.bin (b"" if none)
    by_name: bool = False  # columns mapped by name (a BizHawk key line)
    key_names: list[str] = field(default_factory=list)
    extra_entries: list[str] = field(default_factory=list)

    @property
    def is_bizhawk(self) -> bool:
        return self.header.get("MovieVersion", "").startswith("BizHawk")

    @property
    def sha1(self) -> str | None:
        """The header's ROM SHA-1 (lower case) when it is a real hash, else None."""
        value = self.header.get("SHA1", "").strip()
        if value.upper().startswith("SHA1:"):
            value = value[5:]
        return value.lower() if _SHA1.match(value) else None


def read_movie(path: str | os.PathLike[str]) -> MovieData:
    """Reads a ``.bk2`` (any ZIP) or ``.fm2`` (FCEUX text) movie, chosen by content.

    Raises:
        MovieError: missing, unreadable, corrupt, oversized, or not a movie.
    """
    path = Path(path)
    try:
        with open_regular(path) as f:
            head = f.read(16)
    except FileNotFoundError:
        raise MovieError(path, "no such file") from None
    except IsADirectoryError:
        raise MovieError(path, "is a folder, not a movie file") from None
    except OSError as exc:
        raise MovieError(path, f"cannot be read: {exc.strerror or exc}") from exc
    if head.startswith(b"PK"):
        return _read_bk2(path)
    text_head = head.lstrip(b"\xef\xbb\xbf")
    if text_head.startswith(b"version"):
        return _read_fm2(path)
    if not head:
        raise MovieError(path, "empty file")
    if path.suffix.lower() == ".fm2":
        raise MovieError(path, "not an FCEUX movie (the first line must be 'version 3')")
    raise MovieError(path, "not a movie: a .bk2 is a ZIP archive, a .fm2 starts with 'version 3'")


def _find_entry(names: Sequence[str], wanted: str) -> str | None:
    if wanted in names:
        return wanted
    stem = wanted.rsplit(".", 1)[0].lower()
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if base.rsplit(".", 1)[0].lower() == stem:
            return name
    return None


def _read_entry(path: Path, archive: zipfile.ZipFile, name: str, limit: int) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise MovieError(path, f"entry {name!r} declares {info.file_size} bytes, more than the {limit}-byte cap")
    try:
        with archive.open(info) as f:
            data = f.read(limit + 1)
    except zipfile.BadZipFile as exc:
        raise MovieError(path, f"entry {name!r} is corrupt ({exc})") from exc
    except (zlib.error, EOFError, ValueError, OSError) as exc:  # OSError: offsets past the file's end
        raise MovieError(path, f"entry {name!r} is corrupt ({exc or type(exc).__name__})") from exc
    except NotImplementedError as exc:
        raise MovieError(path, f"entry {name!r} uses an unsupported compression ({exc})") from exc
    except RuntimeError as exc:  # encrypted entries
        raise MovieError(path, f"entry {name!r} cannot be read ({exc})") from exc
    if len(data) > limit:
        raise MovieError(path, f"entry {name!r} inflates to more than the {limit}-byte cap")
    return data


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace").lstrip("\ufeff")


def _read_bk2(path: Path) -> MovieData:
    try:
        archive = zipfile.ZipFile(open_regular(path))
    except zipfile.BadZipFile as exc:
        raise MovieError(path, f"not a valid ZIP archive ({exc})") from exc
    except (OSError, ValueError, EOFError) as exc:
        raise MovieError(path, f"not a valid ZIP archive ({exc})") from exc
    with archive:
        try:
            names = archive.namelist()
        except Exception as exc:  # pragma: no cover - zipfile validates the directory on open
            raise MovieError(path, f"unreadable ZIP directory ({exc})") from exc
        log_name = _find_entry(names, INPUT_LOG)
        if log_name is None:
            listed = ", ".join(repr(n) for n in names[:8]) or "none"
            raise MovieError(path, f"no {INPUT_LOG!r} entry (entries: {listed})")
        header_name = _find_entry(names, HEADER)
        core_name = _find_entry(names, CORE)
        log_text = _decode(_read_entry(path, archive, log_name, MAX_INPUT_LOG_BYTES))
        header_text = _decode(_read_entry(path, archive, header_name, MAX_OTHER_BYTES)) if header_name else ""
        core = _read_entry(path, archive, core_name, MAX_CORE_BYTES) if core_name else b""
        extra = [n for n in names if n not in (log_name, header_name, core_name)]
    header = parse_header(header_text)
    platform = header.get("Platform", "")
    game = header.get("GameName", "?") or "?"
    system = resolve_platform(platform)
    if system is None and not platform:
        from emucore.data.systeminfo import system_from_game_name

        system = system_from_game_name(game) if game != "?" else None
    data = parse_input_log(log_text, system, path)
    return MovieData(
        kind="bk2",
        header=header,
        game=game,
        platform=platform,
        system=system,
        players=data.players,
        masks=data.masks,
        core=core,
        by_name=data.by_name,
        key_names=data.key_names,
        extra_entries=extra,
    )


def parse_header(text: str) -> dict[str, str]:
    """``key value`` lines (split at the first space; CRLF and blank lines tolerated)."""
    header: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        key, _, value = line.partition(" ")
        header.setdefault(key.strip(), value.strip())
    return header


@dataclass
class ParsedLog:
    players: int
    masks: np.ndarray
    by_name: bool
    key_names: list[str]


def _key_tokens(text: str) -> list[str]:
    return [t for t in text.split("|") if t.strip()]


def _players_in(names: Iterable[str]) -> int:
    players = 0
    for name in names:
        match = _PLAYER_NAME.match(name.strip().lstrip("#"))
        if match:
            players = max(players, int(match.group(1)))
    return players


def _name_groups(key_line: str) -> list[list[str]]:
    """A BizHawk key line's ``#`` groups (or groups formed where the player changes)."""
    body = key_line[len("LogKey:"):] if key_line.startswith("LogKey:") else key_line
    if "#" in body:
        groups = [_key_tokens(part) for part in body.split("#")]
        return [g for g in groups if g]
    groups: list[list[str]] = []
    last: str | None = None
    for token in _key_tokens(body):
        match = _PLAYER_NAME.match(token.strip())
        owner = match.group(1) if match else ""
        if not groups or owner != last:
            groups.append([])
            last = owner
        groups[-1].append(token)
    return groups


def _button_for_name(name: str, system: System, console: bool) -> int | None:
    """The button index a BizHawk column name maps to, or None."""
    upper = name.strip().upper()
    candidates = [upper, BIZHAWK_NAME_ALIASES.get(upper, upper), upper.replace(" ", "-")]
    buttons = [b.upper() if b else None for b in system.buttons[:MAX_BUTTONS]]
    if console and upper in ("POWER",):
        return None
    for candidate in candidates:
        if candidate in buttons:
            if console and system.name not in ("Atari2600", "Sms"):
                return None  # console Reset/Power of other systems are not pad buttons
            return buttons.index(candidate)
    return None


@dataclass
class _GroupMap:
    player: int  # -1: not applied
    buttons: list[int | None]  # per column


def _group_maps(groups: list[list[str]], system: System) -> list[_GroupMap]:
    maps = []
    for group in groups:
        player = -1
        buttons: list[int | None] = []
        for token in group:
            match = _PLAYER_NAME.match(token.strip())
            if match:
                player = int(match.group(1)) - 1
                buttons.append(_button_for_name(match.group(2), system, console=False))
            else:
                index = _button_for_name(token, system, console=True)
                if index is not None:
                    player = 0
                buttons.append(index)
        maps.append(_GroupMap(player, buttons))
    return maps


def _split_frame(line: str) -> list[str]:
    """The fields of a frame line ``|a|b|c|`` -> ``["a", "b", "c"]``."""
    body = line[1:]
    if body.endswith("|"):
        body = body[:-1]
    return body.split("|")


def _field_presses_by_name(text: str, group: _GroupMap) -> int:
    mask = 0
    position = 0
    column = 0
    while position < len(text) and column < len(group.buttons):
        analog = _ANALOG_TOKEN.match(text, position)
        if analog and (analog.end() - position) > 1:
            position = analog.end()
        else:
            char = text[position]
            position += 1
            index = group.buttons[column]
            if index is not None and char not in ". ":
                mask |= 1 << index
        column += 1
    return mask


def _frame_lines(text: str) -> Iterator[str]:
    """The frame lines (starting with ``|``, line end removed) up to ``[/Input]``, lazily."""
    for raw in io.StringIO(text):
        if raw[:1] == "|":
            yield raw.rstrip("\r\n")
        elif raw.strip() == "[/Input]":
            return


def _key_line(text: str) -> str | None:
    """The key line: the first non-blank line before any frame line, other than ``[Input]``,
    that has a ``|`` or starts with ``LogKey:``."""
    for raw in io.StringIO(text):
        if raw[:1] == "|":
            return None
        stripped = raw.strip()
        if stripped == "[/Input]":
            return None
        if stripped and stripped != "[Input]" and ("|" in stripped or stripped.startswith("LogKey:")):
            return stripped
    return None


def _fast_parse(
    text: str, players: int, table: dict[str, int], group_maps: list[_GroupMap] | None
) -> np.ndarray | None:
    """The masks of a log whose frame lines all have one layout, decoded with numpy at once.

    None when the lines differ in length or field layout, hold analog values or non-ASCII
    text: the line-by-line decoder (same results) handles those.
    """
    if not text.isascii():
        return None
    data = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    end = text.find("[/Input]")
    if end >= 0:
        line_end = text.find("\n", end)
        whole_line = text[text.rfind("\n", 0, end) + 1 : line_end if line_end >= 0 else len(text)]
        if whole_line.strip() != "[/Input]":
            return None  # not a line of its own: the line decoder decides what it means
        data = data[:end]
    if not len(data):
        return np.zeros((0, players), dtype=np.uint16)
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate(([0], breaks + 1))
    stops = np.concatenate((breaks, [len(data)]))
    keep = starts < len(data)
    starts, stops = starts[keep], stops[keep]
    frame = data[starts] == ord("|")
    starts, stops = starts[frame], stops[frame]
    if not len(starts):
        return np.zeros((0, players), dtype=np.uint16)
    cr = data[stops - 1] == 13
    stops = stops - cr
    lengths = stops - starts
    width = int(lengths[0])
    if not (lengths == width).all() or width < 2:
        return None
    grid = data[starts[:, None] + np.arange(width)]
    bars = grid[0] == ord("|")
    if not bars[-1] or not (grid[:, bars] == ord("|")).all() or (grid[:, ~bars] == ord("|")).any():
        return None
    edges = np.flatnonzero(bars)
    fields = [(int(a) + 1, int(b)) for a, b in zip(edges[:-1], edges[1:])]
    masks = np.zeros((len(grid), players), dtype=np.uint16)
    if group_maps is None:
        lut = np.zeros(256, dtype=np.uint16)
        for char, index in table.items():
            lut[ord(char)] = 1 << index
        for p in range(min(players, len(fields) - 1)):
            a, b = fields[p + 1]
            if b > a:
                masks[:, p] = np.bitwise_or.reduce(lut[grid[:, a:b]], axis=1)
        return masks
    if (grid == ord(",")).any():
        return None  # analog values: their width varies, the line decoder tokenizes them
    offset = 1 if len(fields) == len(group_maps) + 1 else 0
    for g, group in enumerate(group_maps):
        if not 0 <= group.player < players or g + offset >= len(fields):
            continue
        a, b = fields[g + offset]
        for column, index in enumerate(group.buttons[: b - a]):
            if index is not None:
                chars = grid[:, a + column]
                pressed = (chars != ord(".")) & (chars != ord(" "))
                masks[:, group.player] |= pressed.astype(np.uint16) << np.uint16(index)
    return masks


def parse_input_log(text: str, system: str | None, path: str | os.PathLike[str] | None = None) -> ParsedLog:
    """Frame masks from an ``Input Log.txt`` (see the module docstring for what is tolerated).

    Args:
        text: The log text.
        system: The system token whose char table (or button names) map the columns.
        path: For error messages.

    Raises:
        MovieError: the log names more than :data:`MAX_READ_PLAYERS` players.
    """
    system_obj = systems().get(system) if system else None
    key_line = _key_line(text)
    key_body = key_line or ""
    key_names = _key_tokens(key_body[len("LogKey:"):] if key_body.startswith("LogKey:") else key_body)
    players = _players_in(t.lstrip("#") for t in key_names)
    if players == 0:  # no key line (or no P<n> in it): count the fields of the first frames
        field_counts = [len(_split_frame(line)) for line, _ in zip(_frame_lines(text), range(64))]
        players = max(1, max(field_counts, default=2) - 1)
    if players > MAX_READ_PLAYERS:
        raise MovieError(path, f"the input log has {players} players (at most {MAX_READ_PLAYERS} are read)")
    by_name = bool(key_line) and (key_body.startswith("LogKey:") or "#" in key_body) and system_obj is not None
    group_maps: list[_GroupMap] = []
    if by_name:
        assert system_obj is not None
        group_maps = _group_maps(_name_groups(key_body), system_obj)
        if not any(i is not None for g in group_maps for i in g.buttons):
            by_name = False  # no name we know: fall back to chars
    table = char_table(system_obj)

    def by_char(fields: list[str]) -> list[int]:
        row = [0] * players
        for p in range(min(players, len(fields) - 1)):
            mask = 0
            for char in fields[p + 1]:
                index = table.get(char)
                if index is not None:
                    mask |= 1 << index
            row[p] = mask
        return row

    def by_names(fields: list[str]) -> list[int]:
        row = [0] * players
        offset = 1 if len(fields) == len(group_maps) + 1 else 0  # a console field the key line lacks
        for g, group in enumerate(group_maps):
            if 0 <= group.player < players and g + offset < len(fields):
                row[group.player] |= _field_presses_by_name(fields[g + offset], group)
        return row

    fast = _fast_parse(text, players, table, group_maps if by_name else None)
    if fast is not None:
        return ParsedLog(players, fast, by_name, key_names)
    out = _decode_lines(_frame_lines(text), by_names if by_name else by_char, players)
    return ParsedLog(players, out, by_name, key_names)


def _decode_lines(lines: Iterable[str], decode: Callable[[list[str]], list[int]], players: int) -> np.ndarray:
    """Frame lines to a (frames, players) array of masks; repeated lines are decoded once."""
    masks = array("H")
    cache: dict[str, list[int]] = {}
    for line in lines:
        row = cache.get(line)
        if row is None:
            row = decode(_split_frame(line))
            if len(cache) < MAX_CACHED_LINES:
                cache[line] = row
        masks.extend(row)
    if not masks:
        return np.zeros((0, players), dtype=np.uint16)
    return np.frombuffer(masks, dtype=np.uint16).reshape(-1, players).copy()


# ---------------------------------------------------------------------------------------------
# FCEUX .fm2

FM2_CHARS = "RLDUTSBA"  # the gamepad field's columns, in order
FM2_BUTTONS = {"R": "RIGHT", "L": "LEFT", "D": "DOWN", "U": "UP", "T": "START", "S": "SELECT", "B": "B", "A": "A"}


def _read_fm2(path: Path) -> MovieData:
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_FM2_BYTES + 1)
    except OSError as exc:
        raise MovieError(path, f"cannot be read: {exc.strerror or exc}") from exc
    if len(raw) > MAX_FM2_BYTES:
        raise MovieError(path, f"larger than the {MAX_FM2_BYTES}-byte cap")
    text = _decode(raw)
    first = text.split("\n", 1)[0]
    if first.rstrip("\r").strip() != "version 3":
        raise MovieError(path, f"not an FCEUX movie version 3 (first line {first.strip()[:40]!r})")
    nes = systems()["Nes"]
    index_of = [1 << nes.buttons.index(FM2_BUTTONS[char]) for char in FM2_CHARS]
    header: dict[str, str] = {}
    for raw_line in io.StringIO(text):
        if raw_line[:1] == "|":
            break
        if raw_line.strip():
            key, _, value = raw_line.rstrip("\r\n").partition(" ")
            header.setdefault(key, value.strip())
    players = 2 if header.get("port1", "").strip() == "1" else 1

    def decode(fields: list[str]) -> list[int]:
        row = [0] * players
        for p in range(min(players, len(fields) - 1)):
            mask = 0
            for position, char in enumerate(fields[p + 1][: len(FM2_CHARS)]):
                if char not in ". ":  # FCEUX reads the pad field by position
                    mask |= index_of[position]
            row[p] = mask
        return row

    frame_lines = (line.rstrip("\r\n") for line in io.StringIO(text) if line[:1] == "|")
    masks_array = _decode_lines(frame_lines, decode, players)
    header.setdefault("Platform", "NES")
    return MovieData(
        kind="fm2", header=header, game="?", platform="NES", system="Nes", players=players, masks=masks_array,
        core=b"",
    )
