"""Core descriptors: the systems emucore knows and the libretro cores that run them.

``cores/systems/<System>.json`` describes a console (ROM extensions, the pad's buttons in
libretro joypad-id order, default keyboard bindings, RAM base, memory-search types, the
byte-order overlay, action groups, candidate cores in order of preference) and everything else
emucore knows of it: the word size, which addresses are RAM, the ROM file's structure check and
the header bytes rom.sha skips, and how movies name it (BizHawk's platform code, its key names).
A new system is its descriptor and its core library's.
``cores/libraries/<lib>.json`` describes one core library (who ships it, option answers
needed for parity with stable-retro, its screen geometry quirks).
The fields shared with stable-retro's ``cores/*.json`` keep its names and meaning.
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from emucore.errors import UnknownSystemError, did_you_mean
from emucore.paths import descriptors_dir


@dataclass(frozen=True)
class System:
    """One console, as described by ``cores/systems/<System>.json``."""

    name: str  # stable-retro's system token, e.g. "Genesis"
    title: str
    extensions: tuple[str, ...]
    cores: tuple[str, ...]
    buttons: tuple[str | None, ...]
    keybinds: tuple[str | None, ...]
    rambase: int
    types: tuple[str, ...] | None
    overlay: tuple[str, str, int] | None
    actions: list[list[list[str]]]
    memory: str
    name_token: str
    byte_order: str = ""  # "little" or "big": how the CPU keeps multi-byte numbers ("" unknown)
    word_bits: int | None = None  # the CPU's word size: 8, 16 or 32 (None unknown)
    ram_ranges: tuple[tuple[int, int], ...] = ()  # [start, end) of the data.json addresses that are RAM
    rom_format: str | None = None  # the structure check of a ROM file (emucore.host.rom.ROM_CHECKS), None: none
    rom_min_bytes: int = 0  # the smallest ROM file ("minimum" check)
    rom_header_bytes: int = 0  # bytes before the ROM image that rom.sha does not cover (the iNES header)
    bizhawk_platform: str | None = None  # BizHawk's code in a movie header (GEN, NES, ...), read as this system
    movie_platform: str = ""  # what a movie written here names as its platform ("": the token, as stable-retro)
    console_switches: bool = False  # a movie's console switches (Reset, Select, Pause) are pad buttons here
    movie_key_names: dict[str, str] = field(default_factory=dict)  # a button char -> its name in a movie's key line

    @property
    def rom_extension(self) -> str:
        """The extension of an integration's ``rom.<ext>``."""
        return self.extensions[0]

    @property
    def num_buttons(self) -> int:
        return len(self.buttons)


@dataclass(frozen=True)
class CoreLibrary:
    """One libretro core library, as described by ``cores/libraries/<lib>.json``."""

    lib: str
    title: str
    providers: dict[str, str] = field(default_factory=dict)
    compat_options: dict[str, str | None] = field(default_factory=dict)  # None: leave the key unanswered
    screen_override: dict[str, Any] = field(default_factory=dict)
    state_signature: str | None = None
    state_size_varies: bool = False
    reload_on_state_load: bool = False
    state_format: str | None = None  # a structure check of emucore.host.state_checks, run before unserialize

    @property
    def file_name(self) -> str:
        return f"{self.lib}_libretro.so"

    def provider_text(self, system: System | None = None) -> str:
        """Where to get this core, as a clause for error messages and ``emucore cores``.

        A known core with providers: ``install it with apt-get install ...; or put <file> in ...``;
        a known core without any: ``put <file> in ...``; a name that is no known core says so, with
        the close core names (for ``system`` first) or the cores ``system`` can use.
        """
        put = f"put {self.file_name} in EMUCORE_CORE_PATH or RetroArch's cores folder"
        if self.lib not in known_cores():
            return unknown_core_text(self.lib, system)
        ways = []
        if "debian" in self.providers:
            ways.append(f"apt-get install {self.providers['debian']}")
        if "pypi" in self.providers:
            ways.append(f"pip install {self.providers['pypi']} (its cores/ folder)")
        if not ways:
            return f"{put} (no package emucore knows of ships it)"
        return f"install it with {' or '.join(ways)}; or {put}"


def known_cores() -> list[str]:
    """Every core name emucore knows: the described libraries and the candidates the systems list."""
    names = set(libraries())
    for system in systems().values():
        names.update(system.cores)
    return sorted(names)


def close_core_names(name: str, system: System | None = None) -> list[str]:
    """Known core names close to ``name`` (difflib), ``system``'s own candidates first."""
    own = list(system.cores) if system is not None else []
    close = difflib.get_close_matches(name, own, n=3, cutoff=0.6)
    close += [c for c in difflib.get_close_matches(name, known_cores(), n=3, cutoff=0.6) if c not in close]
    return close[:3]


def unknown_core_text(name: str, system: System | None = None) -> str:
    """``"<name> is not a known core (...); did you mean <close>?"``, for a core name no descriptor knows."""
    text = f"{name} is not a known core"
    if system is not None:
        text += f" ({system.name}'s cores: {', '.join(system.cores)})"
    else:
        text += f" (known: {', '.join(known_cores())})"
    hint = did_you_mean(close_core_names(name, system))
    return f"{text}; {hint}" if hint else text


def _load_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _byte_order(d: dict[str, Any], path: Path) -> str:
    """The descriptor's ``byte_order``, else the one its ``types`` use most, else ""."""
    order = d.get("byte_order")
    if order is not None:
        if order not in ("little", "big"):
            raise ValueError(f"{path}: byte_order must be \"little\" or \"big\", not {order!r}")
        return str(order)
    wide = [t for t in d.get("types", ()) if t[0] in "<>" and t[-1] != "1"]
    big = sum(t[0] == ">" for t in wide)
    return "big" if big > len(wide) - big else "little" if big < len(wide) - big else ""


@cache
def _systems(root: str) -> dict[str, System]:
    found = {}
    for path in sorted(Path(root, "systems").glob("*.json")):
        d = _load_json(path)
        overlay = d.get("overlay")
        found[d["system"]] = System(
            name=d["system"],
            title=d.get("name", d["system"]),
            extensions=tuple(d["extensions"]),
            cores=tuple(d["cores"]),
            buttons=tuple(d["buttons"]),
            keybinds=tuple(d.get("keybinds", [])),
            rambase=int(d.get("rambase", 0)),
            types=tuple(d["types"]) if "types" in d else None,
            overlay=(overlay[0], overlay[1], int(overlay[2])) if overlay else None,
            actions=d.get("actions", []),
            memory=d.get("memory", ""),
            name_token=d.get("name_token", d["system"]),
            byte_order=_byte_order(d, path),
            word_bits=d.get("word_bits"),
            ram_ranges=tuple((int(start, 0), int(end, 0)) for start, end in d.get("ram_ranges", ())),
            rom_format=d.get("rom_format"),
            rom_min_bytes=int(d.get("rom_min_bytes", 0)),
            rom_header_bytes=int(d.get("rom_header_bytes", 0)),
            bizhawk_platform=d.get("bizhawk_platform"),
            movie_platform=d.get("movie_platform", d["system"]),
            console_switches=bool(d.get("console_switches", False)),
            movie_key_names=dict(d.get("movie_key_names", {})),
        )
    return found


@cache
def _libraries(root: str) -> dict[str, CoreLibrary]:
    found = {}
    for path in sorted(Path(root, "libraries").glob("*.json")):
        d = _load_json(path)
        found[d["lib"]] = CoreLibrary(
            lib=d["lib"],
            title=d.get("name", d["lib"]),
            providers=d.get("providers", {}),
            compat_options=d.get("compat_options", {}),
            screen_override=d.get("screen_override", {}),
            state_signature=d.get("state_signature"),
            state_size_varies=bool(d.get("state_size_varies", False)),
            state_format=d.get("state_format"),
            reload_on_state_load=bool(d.get("reload_on_state_load", False)),
        )
    return found


#: Systems described by core info JSON (:func:`load_core_info`), over the descriptors, in load order.
_LOADED: dict[str, System] = {}


def systems() -> dict[str, System]:
    """All systems by stable-retro token: the descriptors', with what :func:`load_core_info` loaded over them."""
    described = _systems(str(descriptors_dir()))
    return {**described, **_LOADED} if _LOADED else described


def load_core_info(text: str) -> bool:
    """stable-retro's ``RetroEmulator.load_core_info``: core info JSON, the format of stable-retro's
    ``cores/*.json`` (``{"Genesis": {"lib": "genesis_plus_gx", "ext": ["md"], "buttons": [...], ...}}``),
    for the emulators made from now on.

    An entry for a known system replaces the fields it gives: its ``lib`` becomes the preferred core (the
    descriptor's other candidates follow) and its ``ext`` pick that system; the fields it leaves out, and
    ours that stable-retro's format lacks (title, byte order, memory notes), stay. An entry for an unknown
    token adds a system. Returns False, and changes nothing, when ``text`` is not such JSON (stable-retro's
    returns False for malformed JSON).
    """
    try:
        info = json.loads(text)
    except ValueError:
        return False
    if not isinstance(info, dict):
        return False
    loaded = {}
    for name, entry in info.items():
        system = _from_core_info(name, entry, systems().get(name))
        if system is None:
            return False
        loaded[name] = system
    _LOADED.update(loaded)
    return True


def _from_core_info(name: str, entry: Any, known: System | None) -> System | None:
    """The system a core info entry describes (over ``known``, its descriptor), None if malformed."""
    if not isinstance(entry, dict) or not isinstance(entry.get("lib"), str) or not _strings(entry.get("ext")):
        return None
    buttons, keybinds, types = entry.get("buttons", []), entry.get("keybinds", []), entry.get("types", [])
    overlay, actions, rambase = entry.get("overlay"), entry.get("actions", []), entry.get("rambase", 0)
    if not (_strings(buttons, none=True) and _strings(keybinds, none=True) and _strings(types)):
        return None
    if overlay is not None and not (
        isinstance(overlay, list) and len(overlay) == 3 and _strings(overlay[:2]) and isinstance(overlay[2], int)
    ):
        return None
    if not isinstance(rambase, int) or not (
        isinstance(actions, list) and all(isinstance(group, list) and all(_strings(c) for c in group)
                                          for group in actions)
    ):
        return None
    order = _byte_order({"types": [t for t in types if t]}, Path(name))
    base = known or System(name, name, (), (), (), (), 0, None, None, [], "", name, order)
    lib = entry["lib"]
    return replace(
        base,
        extensions=tuple(entry["ext"]),
        cores=(lib, *(core for core in base.cores if core != lib)),
        buttons=tuple(buttons) if "buttons" in entry else base.buttons,
        keybinds=tuple(keybinds) if "keybinds" in entry else base.keybinds,
        rambase=rambase if "rambase" in entry else base.rambase,
        types=tuple(types) if "types" in entry else base.types,
        overlay=(overlay[0], overlay[1], overlay[2]) if overlay is not None else base.overlay,
        actions=actions if "actions" in entry else base.actions,
    )


def _strings(value: Any, none: bool = False) -> bool:
    """Whether ``value`` is a list of strings (of strings or None, with ``none``)."""
    return isinstance(value, list) and all(isinstance(v, str) or (none and v is None) for v in value)


def libraries() -> dict[str, CoreLibrary]:
    return _libraries(str(descriptors_dir()))


def get_system(name: str) -> System:
    try:
        return systems()[name]
    except KeyError:
        raise KeyError(f"Unsupported system type: {name}") from None


def library(lib: str) -> CoreLibrary:
    """The descriptor of a core library; an unknown library gets an empty one."""
    return libraries().get(lib) or CoreLibrary(lib=lib, title=lib)


def extension_table() -> dict[str, str]:
    """``".ext"`` to system token, like stable-retro's ``EMU_EXTENSIONS``."""
    table: dict[str, str] = {}
    for system in systems().values():
        for ext in system.extensions:
            table.setdefault(f".{ext}", system.name)
    for system in _LOADED.values():  # as in stable-retro, the extensions loaded last pick their system
        table.update((f".{ext}", system.name) for ext in system.extensions)
    return table


def system_for_path(path: str | os.PathLike[str]) -> System:
    """The system of a ROM, from its extension as stable-retro decides it."""
    suffix = Path(path).suffix.lower()
    name = extension_table().get(suffix)
    if name is None:
        known = ", ".join(sorted(extension_table()))
        raise UnknownSystemError(path, f"the extension {suffix or '(none)'!r} belongs to no known system ({known})")
    return systems()[name]
