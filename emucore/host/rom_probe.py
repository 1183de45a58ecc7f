"""ROMs are first loaded in a forked copy of the process, where a crash costs nothing.

A ROM given by a user is untrusted, and some cores crash on a damaged one: picodrive segfaults, in the
load or its first frames, on a 32X ROM whose first 512 bytes are cut. No check of a ROM's structure
finds all of these (``emucore.host.rom`` does the cheap ones), so before this process's core loads a ROM, a
child made with ``os.fork()`` (``fork_probe``: garbage collector off, address space limited to what
the process maps plus ``MEMORY_MARGIN``, CPU time limited, no core dump, ``os._exit`` at the end)
opens a core session exactly as the emulator will (its own function, so the same options, system
folder and first calls), runs ``FRAMES`` frames and reports through a pipe. The parent waits at most
``TIMEOUT_S``. A child that dies, hangs, runs out of memory or sees the core throw makes the ROM a
``GameLoadError`` naming it, and the ROM never reaches the parent's core. A clean refusal in the child
(the core returned false, a missing BIOS) gives no verdict: the parent's own load says it, as before.

Nothing is left behind by the child: everything it makes through ``tempfile`` (the core's private
copy, its save folder and lock, what the core writes there) goes into a scratch folder that the parent
made (a save folder of ``save_dirs``: locked, so a sweep removes it if the parent is killed) and removes
once the child is gone. The child's logging is off and its stdout and stderr go to /dev/null, so a
core's messages are not seen twice.

Verdicts are kept by SHA-256 of the ROM, its file suffix, the core library's name, size and mtime,
the core options, ``FRAMES`` and ``VERSION`` (not the system folder's BIOS files): in memory for the
process, and on disk (one small file per verdict, written atomically by the caller's writer) so a machine
probes a ROM once; a folder that cannot be written is ignored. Only real verdicts are kept: the core ran
the frames, crashed, threw or needed too much memory. A probe that ran past the time or CPU limit is not
kept anywhere (a stalled machine must not condemn a good ROM): the next load probes again.

A verdict on disk is believed only if its HMAC verifies (``probe_seal``: a secret key of the user's, in a
private file the caller names); one that does not is ignored, the ROM probed again and the file
overwritten. No text of a verdict file reaches a message: a file holds a reason code (a signal's number,
an exit status, "memory", or what the core threw, cut to printable ASCII), and the message is made here
from fixed texts, as for a probe of this process.

No probe runs, and the structure checks are all there is: without ``os.fork`` (not Linux), for a core
that may start threads of its own (the forked copy would have none of the parent's; see
``fork_probe.may_start_threads``), or with ``EMUCORE_ROM_PROBE=0`` in the environment.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from emucore.errors import CoreError, GameLoadError
from emucore.host import fork_probe, probe_seal
from emucore.libretro.core_session import CoreSession
from emucore.libretro.save_dirs import make_save_dir, remove_save_dir

FRAMES = 30
TIMEOUT_S = 10.0
MEMORY_MARGIN = 1 << 30
"""Address space the probe may map beyond the process's own: a second copy of the core and the game."""
ENV_SWITCH = "EMUCORE_ROM_PROBE"
VERSION = 2
"""Part of every key: a change of what the probe does makes older verdicts on disk void."""
VERDICT_BYTES = 4096
GOOD = b"ok"
BAD = b"bad "
DETAIL_CHARS = 300
"""The most characters of what the core threw that a verdict keeps (printable ASCII only)."""

logger = logging.getLogger(__name__)
probes_run = 0
"""Probe processes started by this process (tests and the bench read it)."""

_verdicts: dict[str, str | None] = {}  # key -> problem, None if good
_verdicts_lock = threading.Lock()
_MISSING = "missing"


def probe_available(core_path: str | os.PathLike[str]) -> bool:
    """Whether ROMs for this core are probed (Linux's fork, not switched off, a core without threads)."""
    return fork_probe.available(ENV_SWITCH) and not fork_probe.may_start_threads(str(core_path))


def check_rom(
    open_session: Callable[[], CoreSession],
    rom_path: Path,
    rom: bytes,
    core_name: str,
    core_path: str | os.PathLike[str],
    options: Mapping[str, str],
    *,
    cache_dir: Path | None = None,
    key_path: Path | None = None,
    write: Callable[[Path, bytes], None] | None = None,
) -> None:
    """Raises GameLoadError naming ``rom_path`` if the core crashed on ``rom`` in a probe process.

    Args:
        open_session: Opens a session with the game loaded, as the emulator does (called in the child).
        rom_path: The ROM file, for messages and the key's suffix.
        rom: The ROM's bytes.
        core_name: The core library's name, for messages and the key.
        core_path: The core library.
        options: The core option overrides.
        cache_dir: The folder of verdicts on disk; None keeps them in memory only.
        key_path: The file of the key that seals the verdicts on disk (``probe_seal``); None, or a key
            file that is not private, keeps them in memory only.
        write: Writes a verdict file atomically (``emucore.fileio.atomic_write_bytes``).
    """
    if not probe_available(core_path):
        return
    name = verdict_key(rom, rom_path.suffix, core_name, core_path, options)
    verdict = _verdicts.get(name, _MISSING)
    if verdict is _MISSING:
        key = probe_seal.load_key(key_path) if cache_dir is not None and key_path is not None else None
        if cache_dir is not None and key is not None:
            verdict = _read_verdict(cache_dir / name, key)
        if verdict is _MISSING:
            verdict = _probe(open_session, core_name)
            if verdict is _MISSING:
                return
            if verdict in _RETRIED:  # kept nowhere: the next load probes again
                raise GameLoadError(rom_path, _message(core_name, verdict) or verdict)
            if cache_dir is not None and key is not None and write is not None:
                _write_verdict(write, cache_dir / name, key, verdict)
        with _verdicts_lock:
            _verdicts[name] = verdict
    if verdict is not None:
        raise GameLoadError(rom_path, _message(core_name, verdict) or verdict)


def verdict_key(rom: bytes, suffix: str, core_name: str, core_path: str | os.PathLike[str],
                options: Mapping[str, str]) -> str:
    """The name of a verdict: what the ROM, the core and the options are, and what the probe does."""
    try:
        core = os.stat(core_path)
        core_id = f"{core.st_size}:{core.st_mtime_ns}"
    except OSError:
        core_id = "?"
    context = f"{VERSION}\0{FRAMES}\0{suffix.lower()}\0{core_name}\0{core_id}\0{sorted(options.items())!r}\0"
    digest = hashlib.sha256(context.encode("utf-8", "surrogateescape"))
    digest.update(hashlib.sha256(rom).digest())
    return digest.hexdigest()


def forget_verdicts() -> None:
    """Empties the verdicts kept in memory (for tests and the bench); those on disk stay."""
    with _verdicts_lock:
        _verdicts.clear()


def _read_verdict(path: Path, key: bytes) -> str | None:
    """The reason code in ``path`` (None: good), or ``_MISSING`` if there is none that can be believed."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return _MISSING
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return _MISSING
        data = os.read(fd, VERDICT_BYTES)
    except OSError:
        return _MISSING
    finally:
        os.close(fd)
    body = probe_seal.unseal(key, path.name, data)
    if body is None:
        logger.info("a ROM probe's verdict file does not verify (not written by this user): %s", path)
        return _MISSING
    if body == GOOD:
        return None
    if body.startswith(BAD):
        code = body[len(BAD):].decode("ascii", "replace")
        if code == _clean(code) and _message("", code) is not None and code not in _RETRIED:
            return code
    return _MISSING


def _write_verdict(write: Callable[[Path, bytes], None], path: Path, key: bytes, verdict: str | None) -> None:
    body = GOOD if verdict is None else BAD + verdict.encode("ascii")
    try:
        write(path, probe_seal.seal(key, path.name, body))
    except OSError as exc:
        logger.debug("the verdict of a ROM probe is not kept on disk: %s", exc)


def _probe(open_session: Callable[[], CoreSession], core: str) -> str | None:
    """The reason code of a probe's verdict (None: good); ``_MISSING`` if there is none."""
    global probes_run
    try:
        scratch = make_save_dir()
    except OSError as exc:
        logger.warning("no probe of a ROM for the %s core: no scratch folder (%s); loading it unprobed", core, exc)
        return _MISSING
    try:
        report, status = fork_probe.run_forked(_child_work(open_session, scratch), TIMEOUT_S, MEMORY_MARGIN)
    except OSError as exc:
        logger.warning("no probe of a ROM for the %s core: fork failed (%s); loading it unprobed", core, exc)
        return _MISSING
    finally:
        remove_save_dir(scratch)
    probes_run += 1
    return _verdict(core, report, status)


def _child_work(open_session: Callable[[], CoreSession], scratch: str) -> Callable[[], str]:
    def work() -> str:
        tempfile.tempdir = scratch
        logging.disable(logging.CRITICAL)
        _silence_output()
        try:
            session = open_session()
            session.run(FRAMES)
        except CoreError as exc:
            return f"bad\nthrew {exc}"
        except MemoryError:
            return "bad\nmemory"
        except Exception as exc:  # the parent's own load says it (a refusal, a missing BIOS): no verdict
            return f"none\n{type(exc).__name__}: {exc}"
        return "ok"

    return work


def _silence_output() -> None:
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
    except OSError:
        pass


_RETRIED = ("timeout", "cpu")
"""Reason codes of no verdict on the ROM (the machine may have stalled): kept nowhere, probed again."""


def _verdict(core: str, report: str, status: int | None) -> str | None:
    """The reason code of what the child reported (None: good), or ``_MISSING``."""
    if status is None:
        return "timeout"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return "cpu" if number == signal.SIGXCPU else f"signal {number}"
    kind, _, detail = report.partition("\n")
    if kind == "ok" and os.WEXITSTATUS(status) == 0:
        return None
    if kind == "bad" and detail == "memory":
        return detail
    if kind == "bad" and detail.startswith("threw "):
        return _clean(detail)
    if kind == "none":
        logger.debug("a ROM probe for the %s core gave no verdict: %s", core, detail)
        return _MISSING
    return f"exit {os.WEXITSTATUS(status)}"


def _clean(text: str) -> str:
    """``text`` as printable ASCII (others as '?'), at most ``DETAIL_CHARS`` characters."""
    return "".join(c if " " <= c <= "~" else "?" for c in text[:DETAIL_CHARS])


def _message(core: str, code: str) -> str | None:
    """The message of a reason code, from fixed texts; None if ``code`` is none of ours."""
    kind, _, detail = code.partition(" ")
    if kind == "timeout" and not detail:
        return (f"the {core} core did not finish loading it and running {FRAMES} frames within {TIMEOUT_S:g} s "
                "in a probe process; it is not loaded")
    if kind == "cpu" and not detail:
        return f"the {core} core ran out of CPU time on it in a probe process; it is not loaded"
    if kind == "memory" and not detail:
        return (f"the {core} core needed more than {MEMORY_MARGIN >> 20} MiB of memory for it in a probe process; "
                "it is not loaded")
    if kind == "threw" and detail:
        return f"the {core} core threw on it in a probe process ({detail}); it is not loaded"
    if kind in ("signal", "exit") and detail.isdigit() and detail.isascii() and len(detail) <= 3:
        if kind == "exit":
            return f"a probe process loading it for the {core} core ended with exit status {detail}"
        return (f"the {core} core crashed loading it ({fork_probe.signal_name(int(detail))} in a probe process); "
                "it is not loaded")
    return None
