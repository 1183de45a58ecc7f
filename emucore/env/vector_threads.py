"""RetroVectorEnv's rule for its stepping methods: one thread at a time, and a step or reset that raised (Ctrl-C)
settled before the next (emucore.env.vector's docstring says the rules)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from emucore.errors import EmulatorBusyError


def one_thread(starts: str | None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A method of the stepping thread: refused while another thread steps, or once closed; ``starts`` (the
    method's name) starts a step or reset: it settles an interrupted one first, and refuses to run while a step or
    envs sent asynchronously are in progress."""
    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            if not self._stepping.acquire(blocking=False):
                raise EmulatorBusyError("the vector env is being stepped on another thread: one thread at a time "
                                        "steps a vector env")
            try:
                self._check_turn(starts)
                try:
                    return method(self, *args, **kwargs)
                except BaseException as error:  # the step or reset in progress did not return
                    self._interrupted_by(error)
                    raise
            finally:
                self._stepping.release()
        return call
    return wrap
