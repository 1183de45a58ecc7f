"""One real two-node Ray cluster for the Ray tests (stopped when they are done), and this process as its driver."""

from __future__ import annotations

import pytest

from tests.ray.local_cluster import LocalCluster


@pytest.fixture(scope="package")
def ray_cluster():
    pytest.importorskip("ray.rllib", reason="Ray is an optional extra: pip install -e '.[ray]'")
    cluster = LocalCluster(workers=1).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="package")
def ray_driver(ray_cluster):
    import logging

    import ray

    ray.init(address=ray_cluster.address, logging_level=logging.WARNING, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()
