"""A real two-node Ray cluster on this machine, for the tests: its own port and folder, always stopped.

Each node is a ``ray start --block`` in its own session, so stopping it (the whole process group)
stops that node's processes and nothing else: no ``ray stop``, which would end every cluster here.
The nodes listen on loopback only and run with ``RAY_AUTH_MODE=disabled``: Ray 2.60 turns token
authentication on in ``ray start`` as soon as ``~/.ray/auth_token`` exists (any local ``ray.init()``
writes one), and its ``ray status`` then fails to connect. ``env`` is the nodes' Ray settings, for
the processes that connect to the cluster.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START_SECONDS = 90


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalCluster:
    """A head node and ``workers`` more, one CPU each; ``address`` is the head's GCS address."""

    ENV = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}

    def __init__(self, workers: int = 1):
        self.folder = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))  # short: Ray's socket paths are limited
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.nodes: list[subprocess.Popen] = []
        self.caches: list[Path] = []
        self.workers = workers
        self.ray = str(Path(sys.executable).with_name("ray"))
        self.env = dict(self.ENV)

    def _start_node(self, name: str, args: list[str]) -> None:
        cache = self.folder / f"cache-{name}"
        self.caches.append(cache)
        env = {**os.environ, **self.env, "EMUCORE_RAY_CACHE": str(cache)}
        log = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - the node writes it until it stops
        self.nodes.append(subprocess.Popen(
            [self.ray, "start", "--block", "--num-cpus", "1", "--num-gpus", "0",
             "--object-store-memory", str(300 * 2**20), "--disable-usage-stats", *args],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        ))

    def start(self) -> LocalCluster:
        try:
            self._start_node("head", ["--head", "--node-ip-address", "127.0.0.1", "--port", str(self.port),
                                      "--temp-dir", str(self.folder / "t"), "--include-dashboard", "false"])
            self._wait_for_nodes(1)
            for index in range(self.workers):
                self._start_node(f"worker{index}", ["--address", self.address, "--node-ip-address", "127.0.0.1"])
            self._wait_for_nodes(1 + self.workers)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_for_nodes(self, count: int) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            for node in self.nodes:
                if node.poll() is not None:
                    raise RuntimeError(f"a Ray node exited with {node.returncode}: {self.logs()}")
            status = subprocess.run([self.ray, "status", "--address", self.address], capture_output=True,
                                    text=True, timeout=30, env={**os.environ, **self.env})
            if status.returncode == 0 and status.stdout.count(" node_") >= count:
                return
            time.sleep(1)
        raise TimeoutError(f"the Ray cluster did not have {count} nodes within {START_SECONDS} s: {self.logs()}")

    def logs(self) -> str:
        return "\n".join(path.read_text(errors="replace")[-2000:] for path in self.folder.glob("*.log"))

    def stop(self) -> None:
        for node in reversed(self.nodes):
            self._stop_group(node)
        self.nodes.clear()
        shutil.rmtree(self.folder, ignore_errors=True)

    @staticmethod
    def _stop_group(node: subprocess.Popen) -> None:
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(node.pid, sig)
            except ProcessLookupError:
                return
            try:
                node.wait(wait)
                time.sleep(0.5)  # the group's other processes end with their leader's signal
            except subprocess.TimeoutExpired:
                continue
        try:
            os.killpg(node.pid, signal.SIGKILL)  # any process of the group that outlived the leader
        except ProcessLookupError:
            pass
