"""Lint an integration: what stable-retro's verifier reports, and faults that only show at run time.

Works on a folder (every file read on its own, so one broken file does not hide the others'
findings) or on an :class:`Integration` in memory. Never raises for a broken integration:
a file that cannot be read becomes an error finding.

Whitelists work as in stable-retro: ``metadata.json`` ``whitelist`` maps a file name to warning
texts that are expected and suppressed; a listed warning that no longer occurs is an error. A
ROM file name as key (``"rom.md": true``) suppresses the checks on that ROM.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emucore.fileio import open_regular
from emucore.integration import jsontext
from emucore.integration.common import (
    IntegrationError,
    LintFinding,
    base_name,
    rom_sha1,
    system_from_extension,
    system_from_name,
)
from emucore.integration.datafile import DATA_FILE, data_entry
from emucore.integration.folder import Integration, other_scenarios, read_bytes, read_text
from emucore.integration.lint_data import lint_data
from emucore.integration.lint_scenario import lint_scenario
from emucore.integration.listing import METADATA_FILE, SHA_FILE, Listing, list_folder
from emucore.integration.metadatafile import is_file_name
from emucore.integration.scenariofile import SCENARIO_FILE, parse_scenario_json, validate_scenario
from emucore.integration.script_files import script_path
from emucore.integration.statefile import STATE_SUFFIX, StateStore, check_state_header, read_state_file
from emucore.systems import get_system, systems

_SHA_LINE = re.compile(r"[0-9a-f]{40}")


@dataclass
class _Material:
    """What lint looks at, gathered from a folder or from an Integration."""

    name: str
    rom_files: list[Path] = field(default_factory=list)
    data: Any = None  # decoded data.json; None when missing
    has_data: bool = False
    scenarios: dict[str, dict] = field(default_factory=dict)  # file name -> decoded scenario
    metadata: dict | None = None  # None when missing
    metadata_unreadable: bool = False
    states: dict[str, Callable[[], str | None]] = field(default_factory=dict)  # name -> problem finder
    scripts: dict[str, str] = field(default_factory=dict)
    script_exists: Callable[[str], bool] = lambda name: False
    sha_text: str | None = None
    present_files: set[str] = field(default_factory=set)
    findings: list[LintFinding] = field(default_factory=list)

    def fail(self, file: str, problem: str, key: str = "") -> None:
        self.findings.append(LintFinding("error", file, key, problem))


def _state_checker(path: Path, deep: bool) -> Callable[[], str | None]:
    def check() -> str | None:
        if not deep:
            return check_state_header(path)
        try:
            read_state_file(path)
        except IntegrationError as e:
            return e.problem
        return None

    return check


def _empty_checker(raw: bytes) -> Callable[[], str | None]:
    """The check of a state held in memory: only that it is not empty."""
    return lambda: None if raw else "empty state"


def _decode(material: _Material, path: Path) -> Any:
    try:
        return jsontext.decode(read_bytes(path), path)
    except IntegrationError as e:
        material.fail(path.name, f"fail decode: {e.problem}", e.key)
        return None


def _from_folder(listing: Listing, deep: bool) -> _Material:
    material = _Material(listing.folder.name)
    material.rom_files = listing.roms
    material.present_files = {*listing.json, *listing.others, *listing.scripts, *listing.rom_names()}
    material.present_files.update(f"{name}{STATE_SUFFIX}" for name in listing.states)
    if DATA_FILE in listing.json:
        material.has_data = True
        material.data = _decode(material, listing.json[DATA_FILE])
    if METADATA_FILE in listing.json:
        metadata = _decode(material, listing.json[METADATA_FILE])
        if metadata is not None and not isinstance(metadata, dict):
            material.fail(METADATA_FILE, "metadata.json must be a JSON object")
        material.metadata = metadata if isinstance(metadata, dict) else {}
        material.metadata_unreadable = not isinstance(metadata, dict)
    if SCENARIO_FILE in listing.json:
        path = listing.json[SCENARIO_FILE]
        try:
            material.scenarios[SCENARIO_FILE] = parse_scenario_json(read_bytes(path), path)
        except IntegrationError as e:
            material.fail(SCENARIO_FILE, f"fail decode: {e.problem}", e.key)
    errors: list[IntegrationError] = []
    scenarios, _ = other_scenarios(listing, errors)
    material.scenarios.update({f"{name}.json": s for name, s in scenarios.items()})
    for error in errors:
        material.fail(error.path.name if error.path else "", f"fail decode: {error.problem}", error.key)
    material.states = {name: _state_checker(path, deep) for name, path in listing.states.items()}
    for name, path in listing.scripts.items():
        try:
            material.scripts[name] = read_text(path)
        except IntegrationError as e:
            material.fail(name, e.problem)
    root = listing.folder
    material.script_exists = lambda name: _confined_file(root, name)
    if SHA_FILE in listing.others:
        try:
            material.sha_text = read_text(listing.others[SHA_FILE])
        except IntegrationError as e:
            material.fail(SHA_FILE, e.problem)
            material.sha_text = ""
    return material


def _from_integration(integration: Integration, deep: bool) -> _Material:
    material = _Material(integration.name, has_data=True, metadata=dict(integration.metadata))
    if integration.rom_path is not None and Path(integration.rom_path).is_file():
        material.rom_files = [Path(integration.rom_path)]
    material.data = {"info": {name: data_entry(v) for name, v in integration.variables.items()}}
    named = {SCENARIO_FILE: integration.scenario} if integration.scenario is not None else {}
    named.update({f"{name}.json": s for name, s in integration.scenarios.items()})
    for file, scenario in named.items():
        try:
            material.scenarios[file] = validate_scenario(scenario, Path(file))
        except IntegrationError as e:
            material.fail(file, e.problem, e.key)
    states = integration.states
    for name in states:
        source = states.source_file(name) if isinstance(states, StateStore) else None
        if source is not None:
            material.states[name] = _state_checker(source, deep)
        else:
            material.states[name] = _empty_checker(states[name])
    material.scripts = dict(integration.scripts)
    extra = set(integration.extra_files)
    material.script_exists = lambda name: name in material.scripts or name in extra
    material.sha_text = "".join(f"{sha}\n" for sha in integration.rom_shas)
    material.present_files = {DATA_FILE, METADATA_FILE, SHA_FILE, *named, *material.scripts, *extra}
    material.present_files.update(f"{name}{STATE_SUFFIX}" for name in states)
    material.present_files.update(p.name for p in material.rom_files)
    return material


def _confined_file(root: Path, name: object) -> bool:
    """A ``scripts`` entry that is a file inside the folder (symlinks followed)."""
    if not isinstance(name, str):
        return False
    try:
        return script_path(root, name, root / SCENARIO_FILE).is_file()
    except (IntegrationError, OSError):  # OSError: a name too long for the file system
        return False


def _system(material: _Material) -> str | None:
    for rom in material.rom_files:
        found = system_from_extension(rom)
        if found:
            return found
    found = system_from_name(material.name)
    declared = (material.metadata or {}).get("system")
    return found or (declared if declared in systems() else None)


def _lint_sha(material: _Material) -> list[LintFinding]:
    text = material.sha_text
    if text is None:
        return [LintFinding("error", SHA_FILE, "", "rom.sha missing (it is what makes the folder a game)")]
    if not text.strip():
        return [LintFinding("error", SHA_FILE, "", "rom.sha is empty: no ROM can match this game")]
    out = []
    if "\r" in text:
        out.append(LintFinding(
            "error", SHA_FILE, "", "CRLF line endings; stable-retro compares lines exactly, use \\n"
        ))
    lines = text.strip().split("\n")
    for number, line in enumerate(lines, 1):
        if not _SHA_LINE.fullmatch(line.strip("\r")):
            out.append(LintFinding(
                "error", SHA_FILE, f"line {number}", f"not a 40-digit lowercase hex SHA-1: {line!r}"
            ))
    if len(set(lines)) != len(lines):
        out.append(LintFinding("warning", SHA_FILE, "", "a hash is listed twice"))
    if material.rom_files:
        rom = material.rom_files[0]
        try:
            digest = rom_sha1(rom, rom.suffix)
        except IntegrationError as e:
            return [*out, LintFinding("error", rom.name, "", e.problem)]
        if digest not in [line.strip() for line in lines]:
            out.append(LintFinding("error", SHA_FILE, "", f"sha mismatch: {rom.name} hashes to {digest}, not listed"))
    return out


def _lint_rom(material: _Material) -> list[LintFinding]:
    if not material.rom_files:
        if system_from_name(material.name) is None:
            return [LintFinding("warning", "", "", f"the name {material.name} does not end with a known system")]
        return []
    out = []
    if len(material.rom_files) > 1:
        names = ", ".join(p.name for p in material.rom_files)
        out.append(
            LintFinding(
                "warning", "", "", f"several ROM files ({names}); stable-retro uses {material.rom_files[0].name}"
            )
        )
    rom = material.rom_files[0]
    system = system_from_extension(rom)
    token = get_system(system).name_token if system else None
    if token is None or not base_name(material.name).endswith(f"-{token}"):
        out.append(
            LintFinding(
                "error",
                rom.name,
                "",
                f"invalid extension for {rom.name}: the name {material.name} "
                f"should end with -{token}" + ("" if token else " a system"),
            )
        )
    if base_name(material.name).endswith("-Genesis"):
        try:
            with open_regular(rom) as f:
                header = f.read(0x105)
        except OSError as e:
            return [*out, LintFinding("error", rom.name, "", f"cannot read: {e.strerror or e}")]
        if header[0x100:0x105] not in (b"SEGA ", b" SEGA"):
            out.append(LintFinding("error", rom.name, "", "invalid genesis rom (no SEGA at 0x100)"))
    return out


def _lint_metadata(material: _Material) -> list[LintFinding]:
    metadata = material.metadata
    if material.metadata_unreadable:
        return []  # already an error finding
    if metadata is None:
        return [LintFinding("warning", METADATA_FILE, "", "metadata.json missing: there is no default state")]
    out = []
    visible = {name for name in material.states if not name.startswith("_")}
    state = metadata.get("default_state")
    if not state:
        out.append(LintFinding("error", METADATA_FILE, "default_state", "default state missing"))
    elif not isinstance(state, str) or state not in visible:
        hidden = " (names starting with _ are hidden)" if isinstance(state, str) and state in material.states else ""
        out.append(LintFinding("error", METADATA_FILE, "default_state", f"invalid default state {state}{hidden}"))
    players = metadata.get("default_player_state")
    if players is not None:
        if not isinstance(players, list):
            out.append(LintFinding("error", METADATA_FILE, "default_player_state", "must be a list of state names"))
        else:
            for i, name in enumerate(players):
                if not isinstance(name, str) or name not in visible:
                    out.append(
                        LintFinding(
                            "error", METADATA_FILE, f"default_player_state[{i}]", f"invalid default player state {name}"
                        )
                    )
    if "whitelist" in metadata and not isinstance(metadata["whitelist"], dict):
        out.append(LintFinding("error", METADATA_FILE, "whitelist", "whitelist must be an object of file -> warnings"))
    original = metadata.get("original_rom_name")
    if original is not None and not is_file_name(original):
        problem = "must be a file name in the folder, not a path"
        out.append(LintFinding("error", METADATA_FILE, "original_rom_name", problem))
    return out


def _lint_states(material: _Material) -> list[LintFinding]:
    if not material.states:
        return [LintFinding("warning", "", "", "no .state files")]
    out = []
    for name, check in material.states.items():
        problem = check()
        if problem:
            out.append(LintFinding("error", f"{name}{STATE_SUFFIX}", "", problem))
    return out


def _lint_scripts(material: _Material) -> list[LintFinding]:
    from emucore.lua import LuaScripts  # compiles in the sandbox, never runs the script

    out = []
    for name, source in material.scripts.items():
        error = LuaScripts.check_syntax(source, name)
        if error is not None:
            out.append(LintFinding("error", name, "", f"Lua syntax error: {error} (stable-retro ignores the script)"))
    return out


def _apply_whitelist(material: _Material, findings: list[LintFinding]) -> list[LintFinding]:
    whitelist = (material.metadata or {}).get("whitelist")
    if not isinstance(whitelist, dict):
        return findings
    rom_names = {p.name for p in material.rom_files}
    out = [f for f in findings if f.file not in rom_names or f.file not in whitelist]
    for file, expected in whitelist.items():
        if file in rom_names or file not in material.present_files:
            continue
        if not isinstance(expected, list):
            out.append(LintFinding("warning", METADATA_FILE, f"whitelist.{file}", "must be a list of warning texts"))
            continue
        occurring = {f.message for f in out if f.file == file and f.level == "warning"}
        out = [f for f in out if not (f.file == file and f.level == "warning" and f.message in expected)]
        for text in expected:
            if text not in occurring:
                out.append(LintFinding(
                    "error", METADATA_FILE, f"whitelist.{file}", f'missing warning "{file}: {text}"'
                ))
    return out


def lint(folder_or_integration: str | os.PathLike[str] | Integration, *, deep: bool = False) -> list[LintFinding]:
    """Checks an integration folder or an in-memory integration.

    Args:
        folder_or_integration: A folder path, or an :class:`Integration`.
        deep: Gunzip every state fully (default: check that each starts like a gzip file).

    Returns:
        Findings, errors (stable-retro rejects or misreads it) and warnings (suspicious).
    """
    if isinstance(folder_or_integration, Integration):
        material = _from_integration(folder_or_integration, deep)
    else:
        try:
            listing = list_folder(Path(folder_or_integration))
        except IntegrationError as e:
            return [LintFinding("error", "", "", e.problem)]
        material = _from_folder(listing, deep)
    findings = list(material.findings)
    system = _system(material)
    info = None
    if not material.has_data:
        findings.append(LintFinding("warning", DATA_FILE, "", "data.json missing: there are no variables"))
    elif material.data is not None:
        findings.extend(lint_data(material.data, system))
        info = material.data.get("info") if isinstance(material.data, dict) else None
    if SCENARIO_FILE not in material.scenarios and not any(f.file == SCENARIO_FILE for f in findings):
        findings.append(LintFinding("warning", SCENARIO_FILE, "", "scenario.json missing: reward 0, never done"))
    buttons = {b for b in get_system(system).buttons if b} if system else None
    for file, scenario in material.scenarios.items():
        findings.extend(
            lint_scenario(
                file, scenario, info, buttons=buttons, scripts=material.scripts, script_exists=material.script_exists
            )
        )
    findings.extend(_lint_metadata(material))
    findings.extend(_lint_sha(material))
    findings.extend(_lint_rom(material))
    findings.extend(_lint_states(material))
    findings.extend(_lint_scripts(material))
    return _apply_whitelist(material, findings)
