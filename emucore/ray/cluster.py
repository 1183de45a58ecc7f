"""Connecting to a Ray cluster, and naming its nodes for people."""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Iterator
from typing import Any


def require_ray() -> Any:
    """The ``ray`` module, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise ImportError(
            "emucore.ray needs Ray: pip install 'retro-integration-studio[ray]' (or 'ray[rllib]')"
        ) from exc
    return ray


@contextlib.contextmanager
def connected(address: str | None) -> Iterator[Any]:
    """Connected to the cluster at ``address`` ("auto": the one ``ray start`` made here; None: a
    Ray started in this process for the run). Disconnects after, if it connected."""
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    if address:
        check_reachable(address)
    ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False, configure_logging=True)
    try:
        yield ray
    finally:
        ray.shutdown()


def check_reachable(address: str, seconds: float = 5.0) -> None:
    """ConnectionError unless something listens at a ``host:port`` address (Ray itself retries for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return  # "auto", or a ray:// client address: Ray says what is wrong with those quickly
    try:
        with socket.create_connection((host, int(port)), timeout=seconds):
            pass
    except OSError as exc:
        raise ConnectionError(f"no Ray cluster at {address}: {exc.strerror or exc} (start one with "
                              f"'ray start --head --port {port}')") from None


def node_labels(ray: Any) -> dict[str, str]:
    """Each alive node's id mapped to its host name, with the node id's start where hosts repeat."""
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    hosts = [node.get("NodeManagerHostname") or node.get("NodeManagerAddress", "?") for node in nodes]
    return {
        node["NodeID"]: host if hosts.count(host) == 1 else f"{host}/{node['NodeID'][:8]}"
        for node, host in zip(nodes, hosts)
    }


def cluster_cpus(ray: Any) -> int:
    """The CPUs the cluster has, at least 1."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))
