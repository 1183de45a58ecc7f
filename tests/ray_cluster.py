"""One real two-node Ray cluster for the Ray tests (stopped when they are done), and this process as its driver.

The fixtures are the session's (tests/conftest.py imports them): under pytest-xdist the Ray tests share one
worker (``xdist_group("ray")``), so one cluster serves them all.
"""

from __future__ import annotations

import os

import pytest

from tests.emucore.ray.local_cluster import LocalCluster


@pytest.fixture(scope="session")
def ray_cluster():
    cluster = LocalCluster(workers=1)
    saved = {name: os.environ.get(name) for name in cluster.env}
    os.environ.update(cluster.env)  # before Ray is imported here: this process and its commands connect as the nodes
    try:
        pytest.importorskip("ray.rllib", reason="Ray is an optional extra: pip install -e '.[ray]'")
        yield cluster.start()
    finally:
        cluster.stop()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="session")
def ray_driver(ray_cluster):
    import logging

    import ray

    ray.init(address=ray_cluster.address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()
