"""The variables of the open integration: edited, persisted, poked, frozen and sampled. No Qt.

:class:`Watch` owns the integration's ``data.json`` while the studio has it open. Every change
(add, edit, rename, remove) is written at once through :func:`emucore.integration.dump_data_json`,
atomically, so a crash loses nothing. Freezes re-write their value after every emulated frame
(``session.events.after_frame``) and after rewinds and state loads. Each variable keeps a ring
buffer of ``(frame, value)`` samples, one per frame, for the plots; when the session's frame goes
back (rewind, reset to start, a movie), samples newer than it are dropped. How each variable was
found (:mod:`studio.model.variables.provenance`) is kept in the workspace, in step with renames and removals.

>>> import shutil
>>> from emucore.paths import integrations_dir
>>> folder = shutil.copytree(integrations_dir() / "StudioDemo-Genesis", "StudioDemo-Genesis")   # a copy to edit
>>> session = Session(Path(folder, "rom.md"))
>>> watch = Watch(session)              # one per session, shared by the docks
>>> watch.add("hp", 0xFF0020, ">u2")     # data.json is rewritten now
'hp'
>>> watch.freeze("hp", 9)
>>> session.advance(400)
>>> watch.value("hp"), [int(frame_and_value[-1]) for frame_and_value in watch.samples("hp")]
(9, [400, 9])
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from psygnal import Signal, SignalGroup

from emucore.datatypes import ALL_ONES, U64, InvalidTypeError, is_well_formed, parse_type
from emucore.errors import EmulatorClosedError
from emucore.host.memory import AddressSpace
from emucore.integration import DATA_FILE, DataFile, IntegrationError, Variable, read_data_file, write_data_file
from studio.model.events import Connections
from studio.model.play.session import Session
from studio.model.set_aside import problem_of
from studio.model.variables.provenance import Provenance, ProvenanceBook
from studio.model.variables.sample_ring import SampleRing

HISTORY_SECONDS = 10.0


@dataclass(frozen=True)
class AddressFreeze:
    """A value held at an address that is not (necessarily) a named variable.

    Attributes:
        address: A data.json address, or an offset into ``region`` when that is set.
        type: The type string the value is written as.
        region: The name of a raw core memory region (``"system_ram"``), written without the
            overlay; None for the address space.
    """

    address: int
    type: str
    region: str | None = None


class WatchEvents(SignalGroup):
    changed = Signal()
    """A variable or a freeze was added, edited, renamed or removed (not on samples)."""


class Watch:
    """The integration's variables, bound to a :class:`Session`.

    Args:
        session: The running game; its ``folder`` holds ``data.json``.
        history_seconds: How much play each variable's sample ring keeps.
    """

    def __init__(self, session: Session, history_seconds: float = HISTORY_SECONDS):
        self.session = session
        self.path: Path = Path(session.folder) / DATA_FILE
        self.capacity = max(1, round(history_seconds * session.emulator.get_screen_rate()))
        #: Why data.json could not be read (then nothing is saved over it), or None.
        self.load_error: str | None = None
        self._skipped: dict[str, Variable] = {}  # entries stable-retro skips, written back unchanged
        self.variables: dict[str, Variable] = self._load()
        if self.load_problem is not None:
            session.report(replace(self.load_problem, consequence="no variables until it is fixed and reloaded; "
                                   "nothing is saved over it"))
        self.history: dict[str, SampleRing] = {name: SampleRing(self.capacity) for name in self.variables}
        #: How each variable was found, kept in the workspace (not in data.json).
        self.provenance = ProvenanceBook(session.states.workspace, report=session.report)
        self.frozen: dict[str, int] = {}  # variable name -> value held
        self.frozen_addresses: dict[AddressFreeze, int] = {}
        self.events = WatchEvents()
        self._connections = Connections()
        self._last_frame = session.frame
        self._space: AddressSpace | None = None
        self._unmapped: set[str] = set()
        self._connections.connect(session.events.after_frame, self._after_frame)
        self._connections.connect(session.events.frame, self._frame_changed)

    def close(self) -> None:
        """Stops freezing and sampling (the session keeps running)."""
        self._connections.disconnect_all()

    # ---- data.json ----

    def _load(self) -> dict[str, Variable]:
        self.load_error, self.load_problem, self._skipped = None, None, {}
        try:
            data = read_data_file(self.path, missing_ok=True)
        except IntegrationError as exc:
            self.load_problem = problem_of(exc, self.path)
            self.load_error = str(self.load_problem)
            return {}
        self._skipped = data.skipped  # entries stable-retro skips: written back as they are
        return data.variables

    def reload(self) -> None:
        """Reads data.json again (after it was fixed or changed by another program)."""
        self.variables = self._load()
        self.history = {name: self.history.get(name) or SampleRing(self.capacity) for name in self.variables}
        self.frozen = {name: value for name, value in self.frozen.items() if name in self.variables}
        self._changed()

    def _save(self) -> None:
        if self.load_error is not None:
            raise ValueError(f"{self.load_error} (fix data.json, then reload it; nothing was saved)")
        write_data_file(self.path, DataFile(self.variables, self._skipped))

    def _changed(self) -> None:
        self._space = None  # re-check which variables are mapped
        self.events.changed.emit()

    # ---- validation ----

    @staticmethod
    def check_type(type_text: str) -> str:
        """The type string, stripped; ValueError if stable-retro would skip it."""
        type_text = str(type_text).strip()
        try:
            parse_type(type_text)
        except InvalidTypeError as exc:
            raise ValueError(str(exc)) from None
        return type_text

    @staticmethod
    def check_address(address: int) -> int:
        address = int(address)
        if not 0 <= address <= U64:
            raise ValueError(f"address {address} is out of range (0 to 2**64-1)")
        return address

    def is_mapped(self, address: int) -> bool:
        """Whether the address reaches memory (stable-retro omits unmapped variables from info)."""
        return self.session.emulator.memory.is_mapped(address)

    def warning(self, name: str) -> str | None:
        """Why a variable will not work as expected (unmapped address, odd type), or None."""
        return self.address_warning(name) or self.type_warning(name)

    def address_warning(self, name: str) -> str | None:
        """A message when the variable's address is unmapped, else None."""
        variable = self.variables[name]
        try:
            mapped = self.is_mapped(variable.address)
        except EmulatorClosedError:
            return None
        if not mapped:
            return f"{variable.address:#x} is not mapped: stable-retro leaves {name!r} out of info"
        return None

    def type_warning(self, name: str) -> str | None:
        """A message when the type string works but is not one stable-retro's verifier accepts, or
        when Find from screen could not yet tell this reading from another (a provisional variable)."""
        found = self.provenance.get(name)
        if found is not None and found.provisional:
            return f"provisional: {found.provisional}"
        type_text = self.variables[name].type
        if not is_well_formed(type_text):
            return f"{type_text!r} works, but stable-retro's verifier flags it (e.g. |u1, >u2, <d4)"
        return None

    def _check_name(self, name: str, *, allow: str | None = None) -> str:
        name = str(name).strip()
        if not name:
            raise ValueError("a variable needs a name")
        if name in self.variables and name != allow:
            raise ValueError(f"there is already a variable named {name!r}")
        return name

    def unique_name(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``... whichever is free."""
        base = str(base).strip() or "var"
        if base not in self.variables:
            return base
        n = 2
        while f"{base}_{n}" in self.variables:
            n += 1
        return f"{base}_{n}"

    # ---- editing ----

    def add(self, name: str, address: int, type_text: str, mask: int | None = None, *,
            provenance: Provenance | None = None) -> str:
        """Adds a variable and saves data.json; ``provenance`` is recorded with the picture and frame of now.

        Returns:
            The name (stripped).

        Raises:
            ValueError: The name is taken or empty, the type invalid or the address out of range.
        """
        name = self._check_name(name)
        variable = Variable(self.check_address(address), self.check_type(type_text), _mask(mask))
        if self.load_error is not None:
            self._save()  # raises: data.json is not ours to overwrite
        self._skipped.pop(name, None)
        self.variables[name] = variable
        self.history[name] = SampleRing(self.capacity)
        self._save()
        if provenance is not None:
            frame = self.session.frame if provenance.frame is None else provenance.frame
            self.provenance.record(name, replace(provenance, frame=frame), self.session.screen())
        else:
            self.provenance.remove(name)  # a record left by an earlier variable of that name
        self._changed()
        return name

    def edit(self, name: str, *, address: int | None = None, type: str | None = None,
             mask: int | None | str = "keep") -> None:
        """Changes a variable's address, type or mask (``mask=None`` clears it) and saves.

        Raises:
            KeyError: No such variable.
            ValueError: The new type or address is invalid.
        """
        old = self.variables[name]
        new = Variable(
            old.address if address is None else self.check_address(address),
            old.type if type is None else self.check_type(type),
            old.mask if mask == "keep" else _mask(mask),  # type: ignore[arg-type]
        )
        if new == old:
            return
        self.variables[name] = new
        self.history[name].clear()  # the old samples were of another quantity
        if (new.address, new.type) != (old.address, old.type):
            self.frozen.pop(name, None)
        self._save()
        self._changed()

    def rename(self, old: str, new: str) -> str:
        """Renames a variable, keeping its place, samples and freeze; returns the new name."""
        if old not in self.variables:
            raise KeyError(old)
        new = self._check_name(new, allow=old)
        if new == old:
            return new
        self._skipped.pop(new, None)
        self.variables = {(new if k == old else k): v for k, v in self.variables.items()}
        self.history[new] = self.history.pop(old)
        if old in self.frozen:
            self.frozen[new] = self.frozen.pop(old)
        self._save()
        self.provenance.rename(old, new)
        self._changed()
        return new

    def remove(self, name: str) -> None:
        """Removes a variable and saves data.json."""
        del self.variables[name]
        self.history.pop(name, None)
        self.frozen.pop(name, None)
        self._save()
        self.provenance.remove(name)
        self._changed()

    # ---- values ----

    def value(self, name: str) -> int | None:
        """The variable's live value (masked), None when its address is unmapped."""
        variable = self.variables[name]
        try:
            return self.session.emulator.memory.read(variable.address, variable.type, _all(variable.mask))
        except (IndexError, EmulatorClosedError):  # unmapped, or the emulator was closed
            return None

    def poke(self, name: str, value: int) -> None:
        """Writes ``value`` now (all the type's bytes; the mask is not applied, as in stable-retro).

        A frozen variable is held at the new value from now on.
        """
        variable = self.variables[name]
        self.session.emulator.memory.write(variable.address, variable.type, int(value))
        if name in self.frozen:
            self.frozen[name] = int(value)
            self._changed()

    def freeze(self, name: str, value: int | None = None) -> None:
        """Holds a variable at ``value`` (its current value by default) after every frame."""
        variable = self.variables[name]
        if value is None:
            value = self.session.emulator.memory.read(variable.address, variable.type)
        self.frozen[name] = int(value)
        self.session.emulator.memory.write(variable.address, variable.type, int(value))
        self._changed()

    def unfreeze(self, name: str) -> None:
        if self.frozen.pop(name, None) is not None:
            self._changed()

    def freeze_address(self, address: int, type_text: str, value: int, region: str | None = None) -> AddressFreeze:
        """Holds ``value`` at an address (or at an offset of a raw region) after every frame."""
        target = AddressFreeze(self.check_address(address), self.check_type(type_text), region)
        self.frozen_addresses[target] = int(value)
        self._write_target(target, int(value))
        self._changed()
        return target

    def unfreeze_address(self, target: AddressFreeze) -> None:
        if self.frozen_addresses.pop(target, None) is not None:
            self._changed()

    def unfreeze_all(self) -> None:
        self.frozen.clear()
        self.frozen_addresses.clear()
        self._changed()

    def _write_target(self, target: AddressFreeze, value: int) -> None:
        if target.region is None:
            self.session.emulator.memory.write(target.address, target.type, value)
            return
        data = self.session.emulator.memory_regions().get(target.region)
        if data is None:
            return
        encoded = parse_type(target.type).encode(value)[: max(0, len(data) - target.address)]
        data[target.address : target.address + len(encoded)] = np.frombuffer(encoded, dtype=np.uint8)

    def apply_freezes(self) -> None:
        """Writes every frozen value (unmapped addresses are skipped)."""
        memory = self.session.emulator.memory
        for name, value in self.frozen.items():
            variable = self.variables[name]
            try:
                memory.write(variable.address, variable.type, value)
            except IndexError:
                pass
        for target, value in self.frozen_addresses.items():
            try:
                self._write_target(target, value)
            except IndexError:
                pass

    # ---- per-frame work ----

    def _after_frame(self) -> None:
        if self.frozen or self.frozen_addresses:
            self.apply_freezes()
        if not self.variables:
            return
        frame = self.session.frame
        if frame <= self._last_frame:  # the frame went back without a "frame" event first
            self._drop_after(frame - 1)
        self._last_frame = frame
        memory = self.session.emulator.memory
        if memory is not self._space:
            self._space = memory
            self._unmapped = {n for n, v in self.variables.items() if not memory.is_mapped(v.address)}
        read = memory.read
        for name, variable in self.variables.items():
            if name not in self._unmapped:
                self.history[name].append(frame, read(variable.address, variable.type, _all(variable.mask)))

    def _frame_changed(self) -> None:
        frame = self.session.frame
        if frame < self._last_frame:
            self._drop_after(frame)
        self._last_frame = frame
        if self.frozen or self.frozen_addresses:
            self.apply_freezes()  # a rewind or a loaded state brought back other values

    def _drop_after(self, frame: int) -> None:
        for ring in self.history.values():
            ring.drop_after(frame)

    def samples(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(frames, values)`` of a variable's recent samples, oldest first."""
        return self.history[name].arrays()


def _mask(mask: int | None) -> int | None:
    if mask is None:
        return None
    mask = int(mask)
    if mask < 0:
        mask &= U64
    if mask > U64:
        raise ValueError("a mask has at most 64 bits")
    return None if mask == ALL_ONES else mask


def _all(mask: int | None) -> int:
    return ALL_ONES if mask is None else mask
