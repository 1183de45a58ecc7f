"""Stable-Baselines3's PPO on three vector envs: stable-retro and emucore in subprocesses, emucore.sb3.RetroVecEnv.

Airstriker-Genesis-v0 from Level1, frame skip 4, gray 84x84 observations, 4 stacked and transposed
(VecFrameStack + VecTransposeImage), PPO's CnnPolicy with stable-retro's examples/ppo.py settings
(n_steps 128, batch size 32, 4 epochs, clip 0.1, entropy 0.01):
- stable-retro: ``SubprocVecEnv`` of stable_retro.make under SB3's ``MaxAndSkipEnv(skip=4)`` and ``WarpFrame``
  (stable-retro allows one emulator per process);
- emucore in subprocesses: ``SubprocVecEnv`` of ``emucore.make(..., frame_skip=4, grayscale=True,
  obs_size=(84, 84))``;
- ``emucore.sb3.RetroVecEnv``: the same envs in this process, stepped on threads.
Each way learns ``--steps`` env steps a round (one model per way, built before the clock starts; the order
reversed every round). Printed: env steps per second of ``learn()`` (rollouts and updates), of its rollouts
alone (env steps and the policy's forward passes: where the vector env shows), medians, and ratios.

    python bench/bench_sb3.py [--num-envs 4] [--steps 1024] [--rounds 5] [--threads N]
"""

from __future__ import annotations

import argparse
import statistics
import time

GAME, STATE = "Airstriker-Genesis-v0", "Level1"


def stable_retro_env():
    import stable_retro
    from stable_baselines3.common.atari_wrappers import MaxAndSkipEnv, WarpFrame

    return WarpFrame(MaxAndSkipEnv(stable_retro.make(GAME, state=STATE, render_mode=None), skip=4), 84, 84)


def emucore_kwargs() -> dict:
    import emucore

    return dict(state=STATE, inttype=emucore.data.Integrations.ALL, frame_skip=4, grayscale=True,
                obs_size=(84, 84))


def emucore_env():
    import emucore

    return emucore.make(GAME, **emucore_kwargs())


def vector_envs(num_envs: int, threads: int | None) -> dict:
    from stable_baselines3.common.vec_env import SubprocVecEnv

    from emucore.sb3 import RetroVecEnv

    return {
        "stable-retro SubprocVecEnv": SubprocVecEnv([stable_retro_env] * num_envs),
        "emucore SubprocVecEnv": SubprocVecEnv([emucore_env] * num_envs),
        "emucore.sb3.RetroVecEnv": RetroVecEnv(GAME, num_envs, num_threads=threads, **emucore_kwargs()),
    }


def rollout_timer():
    """An SB3 callback that adds up the time learn() spends collecting rollouts."""
    from stable_baselines3.common.callbacks import BaseCallback

    class RolloutTimer(BaseCallback):
        seconds = 0.0

        def _on_rollout_start(self) -> None:
            self._started = time.perf_counter()

        def _on_rollout_end(self) -> None:
            self.seconds += time.perf_counter() - self._started

        def _on_step(self) -> bool:
            return True

    return RolloutTimer()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=1024, help="env steps each way learns a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None, help="RetroVecEnv's threads (default: the CPUs)")
    args = parser.parse_args()

    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecFrameStack, VecTransposeImage

    venvs = vector_envs(args.num_envs, args.threads)
    models = {name: PPO("CnnPolicy", VecTransposeImage(VecFrameStack(venv, n_stack=4)), n_steps=128, batch_size=32,
                        n_epochs=4, clip_range=0.1, ent_coef=0.01, seed=0)
              for name, venv in venvs.items()}
    learn: dict[str, list[float]] = {name: [] for name in models}
    collect: dict[str, list[float]] = {name: [] for name in models}
    order = list(models.items())
    try:
        for round_index in range(args.rounds):
            for name, model in order if round_index % 2 == 0 else order[::-1]:
                timer = rollout_timer()
                before = model.num_timesteps
                start = time.perf_counter()
                model.learn(args.steps, callback=timer, reset_num_timesteps=False)
                seconds = time.perf_counter() - start
                steps = model.num_timesteps - before
                learn[name].append(steps / seconds)
                collect[name].append(steps / timer.seconds)
    finally:
        for venv in venvs.values():
            venv.close()
    print(f"PPO CnnPolicy on {GAME} ({STATE}), frame skip 4, gray 84x84, {args.num_envs} envs, "
          f"median of {args.rounds} x {args.steps} steps")
    print(f"{'':28} {'learn() steps/s':>16} {'rollouts steps/s':>17}")
    for name in models:
        print(f"{name:28} {statistics.median(learn[name]):16.0f} {statistics.median(collect[name]):17.0f}")
    ours = "emucore.sb3.RetroVecEnv"
    for other in ("emucore SubprocVecEnv", "stable-retro SubprocVecEnv"):
        print(f"RetroVecEnv / {other}: learn() {statistics.median(learn[ours]) / statistics.median(learn[other]):.3f}, "
              f"rollouts {statistics.median(collect[ours]) / statistics.median(collect[other]):.3f}")


if __name__ == "__main__":
    main()
