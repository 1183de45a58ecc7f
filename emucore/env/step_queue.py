"""``StepQueue``: env steps handed to threads one at a time, collected as they finish.

RetroVectorEnv's ``step``/``reset`` (take every env) and ``send``/``recv`` (EnvPool's asynchronous
form: take the first ones to finish) sit on it. Threads take envs one at a time, so none idles
while another works through a fixed share; while it waits, the calling thread steps queued envs
itself rather than sleeping.
"""

from __future__ import annotations

import collections
import signal
import threading
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

Task = TypeVar("Task")


class StepQueue(Generic[Task]):
    """Runs ``run(task)`` for each task put, on ``threads`` threads (counting the one calling ``take``).

    ``take(count)`` returns ``count`` finished tasks as ``(task, result)`` pairs in the order they
    finished, where ``result`` is what ``run`` returned or the exception it raised.
    """

    def __init__(self, run: Callable[[Task], Any], threads: int, name: str = "emucore-env",
                 closed_error: Callable[[], BaseException] = lambda: RuntimeError("the step queue is closed")):
        self._run = run
        self._closed_error = closed_error
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)  # a task was put or finished, or the queue closes
        self._queued: collections.deque[Task] = collections.deque()
        self._finished: collections.deque[tuple[Task, Any]] = collections.deque()
        self._running = 0
        self._closed = False
        self._workers = [threading.Thread(target=self._serve, name=f"{name}-{i}", daemon=True)
                         for i in range(max(threads, 1) - 1)]
        for worker in self._workers:
            worker.start()

    def put(self, tasks: list[Task]) -> None:
        with self._lock:
            if self._closed:
                raise self._closed_error()
            self._queued.extend(tasks)
            self._changed.notify_all()

    def take(self, count: int) -> list[tuple[Task, Any]]:
        """Waits for ``count`` finished tasks (ValueError if fewer are pending) and returns them; the closed error
        once the queue is closed (by another thread: its tasks will not finish)."""
        with self._lock:
            if self._closed:
                raise self._closed_error()
            pending = self.pending()
            if count > pending:
                raise ValueError(f"{count} results asked for, but only {pending} envs are stepping")
        while True:
            with self._lock:
                if len(self._finished) >= count:
                    return [self._finished.popleft() for _ in range(count)]
                if self._closed:
                    raise self._closed_error()
                if not self._queued:
                    self._changed.wait()
                    continue
            self._finish_one_here()  # this thread steps an env instead of waiting

    def run(self, tasks: list[Task]) -> list[tuple[Task, Any]]:
        """Puts ``tasks`` and takes them all once finished (no other task may be pending)."""
        self.put(tasks)
        return self.take(len(tasks))

    def pending(self) -> int:
        """Tasks put and not yet taken (call with the lock held, or for a count that may be stale)."""
        return len(self._queued) + self._running + len(self._finished)

    def finished(self) -> int:
        """How many finished tasks ``take`` would return without waiting."""
        with self._lock:
            return len(self._finished)

    def close(self) -> None:
        """Stops the threads once the tasks they are running finish; queued tasks are dropped."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queued.clear()
            self._changed.notify_all()
        for worker in self._workers:
            if worker is not threading.current_thread():  # closed by a finalizer run on a worker
                worker.join()

    def _finish(self, task: Task) -> None:
        try:
            result = self._run(task)
        except BaseException as error:  # noqa: BLE001 - handed to whoever takes the task
            result = error
        with self._lock:
            self._running -= 1
            self._finished.append((task, result))
            self._changed.notify_all()

    def _finish_one_here(self) -> None:
        """Takes a queued task, if one is left, and finishes it on this thread (the one waiting in ``take``). On the
        main thread, Ctrl-C waits until the task is finished and kept, then is raised: an env's step or reset cut
        in its middle would leave the env half done, and a task taken and not kept would never be taken."""
        main = threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is signal.default_int_handler
        interrupted: list[int] = []
        try:
            if main:  # inside the try: the finally puts the default handler back whatever lands where
                signal.signal(signal.SIGINT, lambda number, _frame: interrupted.append(number))
            with self._lock:
                if not self._queued:
                    return
                task = self._queued.popleft()
                self._running += 1
            self._finish(task)
        finally:
            if main:
                signal.signal(signal.SIGINT, signal.default_int_handler)
        if interrupted:
            raise KeyboardInterrupt

    def _serve(self) -> None:
        while True:
            with self._lock:
                while not self._queued and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                task = self._queued.popleft()
                self._running += 1
            self._finish(task)


def weak_method(method: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``method`` called through a weak reference to its object, so that threads running it do not keep
    the object alive."""
    ref = weakref.WeakMethod(method)

    def call(argument: Any) -> Any:
        bound = ref()
        if bound is None:
            raise RuntimeError("the vector env is gone")
        return bound(argument)
    return call
