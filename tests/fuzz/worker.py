"""A fuzz case runs in a worker process that can die: a crash, hang or memory blow-up in a core or a
parser ends that process (and is reported as the case's outcome), never the test session.

The parent sends ``(target, payload)`` pairs; the worker runs ``targets.TARGETS[target](payload)`` and
answers with an :class:`Outcome`. The worker lives across cases (a fresh interpreter per case would
cost a second each) and is restarted after a case that killed it.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import struct
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 3 << 30  # address space of a worker: a case that wants more is a blow-up
CASE_SECONDS = 30.0  # wall time of one case on a loaded 2-core machine; a case past it hangs
LUA_BUDGET_FACTOR = 3.0  # a Lua load or call whose CPU time passes this many times its net escaped its budget
_lua_escapes: list[str] = []  # what the watch saw during the case running now


@dataclass(frozen=True)
class Outcome:
    """``kind`` is ``ok``, ``error`` (an EmucoreError naming the file), or a failure: ``unnamed`` (an
    EmucoreError that does not name the file), ``raw`` (another exception), ``crash``, ``hang``,
    ``budget`` (a Lua load or call that took over :data:`LUA_BUDGET_FACTOR` times its CPU-time net,
    whatever it returned or raised: the 30 s hang limit is far above a 1 s net)."""

    kind: str
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.kind not in ("ok", "error")


def _send(stream, value: object) -> None:
    data = pickle.dumps(value)
    stream.write(struct.pack("<I", len(data)) + data)
    stream.flush()


def _receive(stream) -> object:
    head = stream.read(4)
    if len(head) < 4:
        raise EOFError
    (size,) = struct.unpack("<I", head)
    return pickle.loads(stream.read(size))


class Worker:
    """The parent's handle on one worker process."""

    def __init__(self) -> None:
        self._process: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
        return subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)

    def run(self, target: str, payload: object, timeout: float = CASE_SECONDS) -> Outcome:
        if self._process is None or self._process.poll() is not None:
            self._process = self._start()
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            _send(process.stdin, (target, payload))
        except BrokenPipeError:
            return self._died(process)
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        if not ready:
            process.kill()
            process.wait()
            self._process = None
            return Outcome("hang", f"no answer in {timeout:g} s")
        try:
            answer = _receive(process.stdout)
        except EOFError:
            return self._died(process)
        kind, detail = answer
        return Outcome(kind, detail)

    def _died(self, process: subprocess.Popen) -> Outcome:
        code = process.wait()
        self._process = None
        if code < 0:
            return Outcome("crash", f"killed by {signal.Signals(-code).name}")
        return Outcome("crash", f"the process exited with status {code}")

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None


def watch_lua_budgets() -> None:
    """Times every Lua load and call on the thread's CPU clock (in the process that runs the cases):
    one past :data:`LUA_BUDGET_FACTOR` times its scope's net is noted for :func:`classify`."""
    from emucore.lua.scope import Scope

    if getattr(Scope, "_fuzz_watched", False):
        return

    def timed(method):
        def wrapper(self, *args):
            start = time.thread_time()
            try:
                return method(self, *args)
            finally:
                seconds, net = time.thread_time() - start, self._limits.seconds
                if seconds > LUA_BUDGET_FACTOR * net:
                    what = args[0] if args else ""
                    _lua_escapes.append(f"Lua {method.__name__} ({what!r:.60}) took {seconds:.2f} s of CPU,"
                                        f" over {LUA_BUDGET_FACTOR:g} x its {net:g} s net")
        return wrapper

    for name in ("run_file", "call", "functions"):
        setattr(Scope, name, timed(getattr(Scope, name)))
    Scope._fuzz_watched = True  # type: ignore[attr-defined]


def classify(run, payload: object) -> Outcome:
    """Runs one case in this process: a target returns the names its errors must mention."""
    _lua_escapes.clear()
    outcome = _classify(run, payload)
    if _lua_escapes and outcome.kind in ("ok", "error"):
        return Outcome("budget", "; ".join(_lua_escapes)[:300] + f" (the case: {outcome.kind})")
    return outcome


def _classify(run, payload: object) -> Outcome:
    import warnings

    from emucore.errors import EmucoreError

    names: tuple[str, ...] = ()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            names = run(payload) or ()
        return Outcome("ok")
    except EmucoreError as error:
        names = getattr(error, "fuzz_names", ()) or _expected_names(payload)
        text = str(error)
        if names and not any(name in text for name in names):
            return Outcome("unnamed", f"{type(error).__name__}: {text[:300]} (expected one of {names})")
        return Outcome("error", f"{type(error).__name__}: {text[:300]}")
    except BaseException as error:  # noqa: BLE001 - anything but an EmucoreError is what the fuzzer looks for
        return Outcome("raw", "".join(traceback.format_exception(error))[-1500:])


def _expected_names(payload: object) -> tuple[str, ...]:
    return tuple(payload.get("names", ())) if isinstance(payload, dict) else ()


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    from tests.fuzz.targets import TARGETS

    watch_lua_budgets()
    # the answers get a private copy of stdout; fd 1 itself goes where stderr goes, so that what a core
    # or the code under test prints cannot corrupt them
    stdin, stdout = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    while True:
        try:
            target, payload = _receive(stdin)
        except EOFError:
            return
        outcome = classify(TARGETS[target], payload)
        _send(stdout, (outcome.kind, outcome.detail))


if __name__ == "__main__":
    main()
