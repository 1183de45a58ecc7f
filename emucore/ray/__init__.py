"""emucore on a Ray cluster: the integration travels with the job.

* :func:`env_config` and :func:`env_creator`: RLlib training on nodes that have emucore but not
  the integration (``ray.tune.register_env("emucore", env_creator)``);
* :func:`run_on_ray`: a rollout's episodes spread over the cluster, identical to a local run
  (``emucore rollout GAME --ray ADDRESS``);
* :class:`TravellingIntegration` and :func:`pack_integration`: the integration in the object
  store, unpacked once per node.

Ray is an optional extra (``pip install 'retro-integration-studio[ray]'``); importing this
package does not import Ray.
"""

from emucore.ray.package import IntegrationPackage, pack_integration
from emucore.ray.rllib_env import env_config, env_creator
from emucore.ray.rollouts import run_on_ray
from emucore.ray.travel import TravellingIntegration

__all__ = ["IntegrationPackage", "TravellingIntegration", "env_config", "env_creator", "pack_integration",
           "run_on_ray"]
