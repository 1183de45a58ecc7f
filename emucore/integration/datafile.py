"""``data.json``: the named variables of an integration (IF §4.1), read by stable-retro's rules.

stable-retro rejects the whole file when the top level has no ``info``, when an entry is not an
object or lacks ``address`` or ``type``, or when a value has the wrong JSON type (a string
address, a numeric type, a string mask). It silently skips a variable whose type string is
shorter than 3 characters or whose width (last character) is not a digit 0-8; so do we,
and lint reports it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from emucore.datatypes import ALL_ONES, U64, InvalidTypeError, parse_type
from emucore.fileio import atomic_write_text
from emucore.integration import jsontext
from emucore.integration.common import IntegrationError, read_file

DATA_FILE = "data.json"


class VariableLike(Protocol):
    """What the evaluators read of a variable: a :class:`Variable`, or an editor's unsaved copy."""

    address: int
    type: str
    mask: int | None


@dataclass
class Variable:
    """One ``data.json`` entry.

    Attributes:
        address: Absolute address in the system's address space (IF §4.6).
        type: The type string, e.g. ``"|u1"`` or ``">d4"`` (IF §4.2).
        mask: ANDed with the decoded value, not shifted; None means all ones.
    """

    address: int
    type: str
    mask: int | None = None

    def __post_init__(self) -> None:
        if self.mask is not None and self.mask & U64 == ALL_ONES:
            self.mask = None


def _integer(value: Any) -> int | None:
    """A JSON number as stable-retro's reader takes it (floats truncated), or None for other types."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    return None


def skip_reason(type_text: str) -> str | None:
    """Why stable-retro would skip a variable with this type string, or None if it keeps it."""
    try:
        parse_type(type_text)
    except InvalidTypeError as e:
        return str(e)
    return None


def variables_from_info(
    info: Any, file: Path, text: str | None = None, *, strict: bool = False, skipped: dict[str, Variable] | None = None
) -> dict[str, Variable]:
    """Variables from the decoded ``info`` object; see :func:`parse_data_json`.

    ``skipped``, when given, receives the entries stable-retro skips, as written.
    """
    if info is None or info == []:
        return {}  # stable-retro accepts these as "no variables"
    if not isinstance(info, dict):
        raise jsontext.semantic_error(file, text, ("info",), "info must be an object of variables")
    out: dict[str, Variable] = {}
    for name, entry in info.items():
        key = ("info", name)
        if not isinstance(entry, dict):
            raise jsontext.semantic_error(file, text, key, f"variable {name!r} must be an object")
        for required in ("address", "type"):
            if required not in entry:
                raise jsontext.semantic_error(file, text, key, f"variable {name!r} has no {required!r}")
        address = _integer(entry["address"])
        if address is None:
            found = type(entry["address"]).__name__
            raise jsontext.semantic_error(
                file, text, (*key, "address"), f"the address of {name!r} must be a JSON integer, not {found}"
            )
        if not 0 <= address <= U64:
            raise jsontext.semantic_error(
                file, text, (*key, "address"), f"the address of {name!r} must be between 0 and 2**64-1"
            )
        type_text = entry["type"]
        if not isinstance(type_text, str):
            raise jsontext.semantic_error(file, text, (*key, "type"), f"the type of {name!r} must be a string")
        mask = None
        if "mask" in entry:
            mask = _integer(entry["mask"])
            if mask is None:
                raise jsontext.semantic_error(file, text, (*key, "mask"), f"the mask of {name!r} must be an integer")
            mask &= U64
        reason = skip_reason(type_text)
        if reason is not None:
            if strict:
                raise jsontext.semantic_error(file, text, (*key, "type"), f"{reason} (stable-retro skips {name!r})")
            if skipped is not None:
                skipped[name] = Variable(address, type_text, mask)
            continue
        out[name] = Variable(address, type_text, mask)
    return out


def parse_data_json(text: str | bytes, path: Path | None = None, *, strict: bool = False) -> dict[str, Variable]:
    """Reads ``data.json`` text as stable-retro does.

    Args:
        text: The file content.
        path: The file, for error messages (``data.json`` when omitted).
        strict: Raise for type strings stable-retro skips instead of skipping them.

    Returns:
        Variables by name, in file order, without the skipped ones.

    Raises:
        IntegrationError: Malformed JSON, no ``info``, an entry without ``address`` or ``type``,
            or a value of the wrong JSON type. The message names the line, column and key.
    """
    file = Path(path) if path is not None else Path(DATA_FILE)
    info, decoded_text = _info(text, file)
    return variables_from_info(info, file, decoded_text, strict=strict)


def _info(text: str | bytes, file: Path) -> tuple[Any, str]:
    """data.json's decoded ``info`` and the file's text (for error positions)."""
    decoded = jsontext.decode(text, file)
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig")
    if not isinstance(decoded, dict) or "info" not in decoded:
        raise IntegrationError(file, "the top level must be an object with an 'info' key")
    return decoded["info"], text


@dataclass
class DataFile:
    """A ``data.json`` as read: the variables stable-retro uses, and the entries it skips (a type
    string it cannot use), kept as written so that saving the file leaves them as they were."""

    variables: dict[str, Variable] = field(default_factory=dict)
    skipped: dict[str, Variable] = field(default_factory=dict)


def read_data_file(path: Path, *, missing_ok: bool = False) -> DataFile:
    """The ``data.json`` at ``path`` (an empty one if it does not exist and ``missing_ok``).

    Raises:
        IntegrationError: The file cannot be read or is malformed (see :func:`parse_data_json`).
    """
    path = Path(path)
    if missing_ok and not path.exists():
        return DataFile()
    info, text = _info(read_file(path), path)
    skipped: dict[str, Variable] = {}
    return DataFile(variables_from_info(info, path, text, skipped=skipped), skipped)


def write_data_file(path: Path, data: DataFile) -> None:
    """Writes ``data.json`` atomically in stable-retro's layout, the skipped entries unchanged."""
    atomic_write_text(path, dump_data_json({**data.skipped, **data.variables}))


def read_data_json(path: Path, *, strict: bool = False) -> tuple[dict[str, Variable], list[str]]:
    """The variables of the ``data.json`` at ``path``, and the names stable-retro would skip.

    Raises:
        IntegrationError: The file cannot be read or is malformed (see :func:`parse_data_json`).
    """
    if strict:
        info, text = _info(read_file(path), path)
        return variables_from_info(info, path, text, strict=True), []
    data = read_data_file(path)
    return data.variables, list(data.skipped)


def data_entry(variable: Variable) -> dict[str, Any]:
    """The JSON object stable-retro's writer makes for a variable (mask only when not all ones)."""
    entry: dict[str, Any] = {"address": variable.address, "type": variable.type}
    if variable.mask is not None and variable.mask & U64 != ALL_ONES:
        entry["mask"] = variable.mask
    return entry


def dump_data_json(variables: dict[str, Variable]) -> str:
    """``data.json`` text in stable-retro's writer layout (IF §10).

    Keys are sorted, indent is 2 spaces, and there is a final newline. Unlike stable-retro's
    writer the type string is kept whole (it cuts it to 4 characters); no well-formed type is longer.
    """
    return jsontext.dump({"info": {name: data_entry(v) for name, v in variables.items()}})
