"""RetroVectorEnv under other threads and signals: close() from another thread, the envs' emulators called from
another thread while the batch steps them, ``envs`` read from another thread, and Ctrl-C at random points of a
step (issue 57: rel5-01, -02, -04, -05). Each race is looped with random timings; a crash fails the whole run."""

from __future__ import annotations

import itertools
import os
import random
import signal
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest

from emucore.env import RetroVectorEnv
from emucore.errors import EmulatorBusyError, EmulatorClosedError
from emucore.libretro.native_batch import NativeBatch

GAME = "StudioDemo-Genesis"
TRIALS = 12


def actions_for(vec: RetroVectorEnv, count: int = 8) -> list[np.ndarray]:
    vec.action_space.seed(0)
    return [vec.action_space.sample() for _ in range(count)]


def step_until_closed(vec: RetroVectorEnv, seconds: float = 20.0) -> BaseException | None:
    """Steps until a step raises (what it raised), or None if ``seconds`` pass (a hang)."""
    actions = actions_for(vec)
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        try:
            vec.step(actions[n % len(actions)])
        except Exception as error:  # noqa: BLE001 - returned to the test
            return error
        n += 1
    return None


@pytest.mark.parametrize("native", [True, False], ids=["native", "python"])
def test_close_from_another_thread_during_steps_ends_them_with_closed(native):
    rng = random.Random(1)
    for _ in range(TRIALS):
        vec = RetroVectorEnv(GAME, 4, num_threads=2, native=native)
        vec.reset(seed=0)
        closer = threading.Timer(rng.uniform(0, 0.03), vec.close)
        closer.start()
        raised = step_until_closed(vec)
        closer.join()
        assert isinstance(raised, EmulatorClosedError), raised
        with pytest.raises(EmulatorClosedError, match="closed"):
            vec.recv()
        with pytest.raises(EmulatorClosedError, match="closed"):
            vec.reset()


def step_beside(vec: RetroVectorEnv, actions: list[np.ndarray], call: Callable[[], object],
                seconds: float = 1.5, attempts: int | None = None) -> tuple[int, int, dict[str, int]]:
    """Steps ``vec`` for ``seconds`` (or ``attempts`` times: as many steps however slow the machine, a sanitizer
    build's say) while another thread calls ``call()`` over and over: the steps that ran, those
    refused as busy (an env's emulator the other thread was inside when the batch came to it, as on Python's
    path), and the other thread's calls that ran and were refused as busy. Any other error fails the test."""
    stop = threading.Event()
    tally = {"ran": 0, "busy": 0}
    failures: list[BaseException] = []

    def other() -> None:
        while not stop.is_set():
            try:
                call()
                tally["ran"] += 1
            except EmulatorBusyError as error:
                assert "another thread" in str(error)
                tally["busy"] += 1
            except BaseException as error:  # noqa: BLE001 - reported below
                failures.append(error)
                return

    thread = threading.Thread(target=other)
    thread.start()
    steps = refused = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end if attempts is None else steps + refused < attempts:
        try:
            vec.step(actions[steps % len(actions)])
            steps += 1
        except EmulatorBusyError:
            refused += 1
    stop.set()
    thread.join()
    assert not failures, failures
    return steps, refused, tally


@pytest.mark.parametrize("call", ["step", "set_state", "get_ram"])
def test_an_env_called_from_another_thread_while_the_batch_steps_it_is_refused_or_runs(call):
    vec = RetroVectorEnv(GAME, 4, num_threads=2)
    try:
        vec.reset(seed=0)
        actions = actions_for(vec)
        vec.step(actions[0])
        assert vec.native_envs.all()
        em = vec.envs[0].unwrapped.em  # a reference a monitor thread would keep
        state = em.get_state()
        calls = {"step": em.step, "set_state": lambda: em.set_state(state), "get_ram": em.get_ram}
        steps, refused, tally = step_beside(vec, actions, calls[call])
        assert steps > 0 and tally["busy"] + refused > 0, (steps, tally, refused)
        vec.step(actions[0])  # still usable
    finally:
        vec.close()


def test_reading_envs_from_another_thread_while_stepping_is_safe():
    vec = RetroVectorEnv(GAME, 4, num_threads=2)
    try:
        vec.reset(seed=0)
        actions = actions_for(vec)
        reads = itertools.count()
        steps, _, tally = step_beside(vec, actions, lambda: vec.envs[next(reads) % 4].unwrapped.get_ram(),
                                      attempts=300)
        assert tally["ran"] > 0 and steps > 0
        vec.step(actions[0])
    finally:
        vec.close()


def test_a_second_stepping_thread_is_refused():
    vec = RetroVectorEnv(GAME, 2, num_threads=2)
    try:
        vec.reset(seed=0)
        actions = actions_for(vec)
        vec.step_async(actions[0])
        outcome: list[BaseException] = []
        thread = threading.Thread(target=lambda: _catch(outcome, lambda: vec.step_wait()))
        with vec._stepping:  # as a thread inside step() holds it
            thread.start()
            thread.join()
        assert isinstance(outcome[0], EmulatorBusyError) and "another thread" in str(outcome[0])
        vec.step_wait()
    finally:
        vec.close()


def _catch(into: list[BaseException], call) -> None:
    try:
        call()
    except BaseException as error:  # noqa: BLE001 - returned to the test
        into.append(error)


def interrupt_after(delay: float, step: Callable[[], object]) -> bool:
    """Calls ``step()`` over and over until SIGINT, sent after ``delay`` s, interrupts it: whether it did (an
    interrupt that a finalizer swallowed ends the trial 2 s after it was sent). The wait for the sender and a
    pause for its signal are inside the ``try``, so the interrupt never lands after it."""
    sent = threading.Event()

    def send() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        sent.set()

    timer = threading.Timer(delay, send)
    try:
        try:
            timer.start()
            give_up = None
            while give_up is None or time.monotonic() < give_up:
                step()
                if sent.is_set() and give_up is None:
                    give_up = time.monotonic() + 2
            return False
        finally:
            timer.join()
            time.sleep(0.01)  # the signal's handler runs here at the latest
    except KeyboardInterrupt:
        return True


@pytest.mark.parametrize("native", [True, False], ids=["native", "python"])
def test_ctrl_c_at_any_point_of_a_step_leaves_the_vector_env_usable(native):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    rng = random.Random(5)
    vec = RetroVectorEnv(GAME, 4, num_threads=2, native=native)
    try:
        vec.reset(seed=0)
        actions = actions_for(vec)
        steps = itertools.count()
        for _ in range(TRIALS * 2):
            interrupt_after(rng.uniform(0.001, 0.05), lambda: vec.step(actions[next(steps) % len(actions)]))
            for n in range(3):  # the next steps work, and the envs are C's again
                obs, rewards, terminated, truncated, infos = vec.step(actions[n])
                assert obs.shape[0] == 4 and len(rewards) == 4
            assert vec.native_envs.all() == native
        vec.reset(seed=0)
    finally:
        vec.close()


def test_ctrl_c_during_recv_goes_on_with_the_next_recv():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    rng = random.Random(9)
    vec = RetroVectorEnv(GAME, 4, num_threads=2, batch_size=2)
    try:
        vec.async_reset(seed=0)
        actions = actions_for(vec)
        seen = dict.fromkeys(range(4), 0)

        def recv_and_send(n: int) -> None:
            try:
                _, _, _, _, infos = vec.recv()
            except RuntimeError as error:  # an interrupt between this loop's recv and send: nothing is stepping
                assert "no env is stepping" in str(error)
                vec.send(actions[0], env_id=np.arange(4))
                return
            for index in infos["env_id"].tolist():
                seen[index] += 1
            vec.send(actions[n % 8][:len(infos["env_id"])])

        rounds = itertools.count()
        for _ in range(TRIALS):
            interrupt_after(rng.uniform(0.001, 0.03), lambda: recv_and_send(next(rounds)))
        before = dict(seen)
        for n in range(20):  # whatever the interrupts cut, recv and send go on
            recv_and_send(n)
        assert sum(seen.values()) > sum(before.values()) and all(count > 0 for count in seen.values())
    finally:
        vec.close()


def test_the_c_pool_refuses_ids_out_of_range_repeated_or_in_flight():
    observations = np.zeros((2, 4, 4, 3), dtype=np.uint8)
    batch = NativeBatch(observations, np.zeros(2), np.zeros(2, np.bool_), np.zeros(2, np.bool_), 1, 1, 2)
    try:
        for ids in ([0, 0], [2], [-1]):
            with pytest.raises(ValueError, match="cannot be sent"):
                batch.send(np.array(ids, dtype=np.int32))
        assert not batch.flying_flags().any()
        batch.send(np.array([1], dtype=np.int32))  # an empty slot: C leaves it to Python (CLOSED)
        with pytest.raises(ValueError, match="still stepping"):
            batch.send(np.array([1], dtype=np.int32))
        received = batch.recv(2)  # asks for 2: only 1 is in flight, so it does not wait for the other
        assert received.tolist() == [1] and not batch.flying_flags().any()
    finally:
        batch.close()
    with pytest.raises(EmulatorClosedError):
        batch.send(np.array([0], dtype=np.int32))
    with pytest.raises(EmulatorClosedError):
        batch.recv(1)
