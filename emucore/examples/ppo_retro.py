"""PPO on an emucore game in one file, in the CleanRL style: RetroVectorEnv, frame skip, gray 84x84, a torch
policy, TensorBoard logs.

    python -m emucore.examples.ppo_retro                          # the Genesis demo: under a minute on 2 cores
    python -m emucore.examples.ppo_retro --game Airstriker-Genesis-v0 --state Level1 --total-steps 500000
    tensorboard --logdir runs

It ships in the package (``python -m emucore.examples.ppo_retro``); ``examples/ppo_retro.py`` in the source
tree runs the same ``main``.

The envs run in one process on threads (``emucore.env.RetroVectorEnv``), each step 4 frames (the action held,
the last two frames max-pooled) observed gray at 84x84; the last ``--frame-stack`` observations are the
policy's input. Actions are the integration's button combinations (``Actions.DISCRETE``). A done env is reset
in the step that ended it (``autoreset_mode=SAME_STEP``), so the observation after a done is the next
episode's first, as this PPO's bootstrapping expects. Needs torch and tensorboard: the ``rl`` extra
(``pip install 'retro-integration-studio[rl]'``; without them the import names it).

Logged: ``charts/episode_return`` and ``charts/episode_length`` per finished episode, the losses, the
approximate KL, the clip fraction and env steps per second per update; the learning curve is also written
as CSV (``--curve``) for plotting without TensorBoard.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Sequence
from pathlib import Path

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from emucore.enums import Actions
from emucore.env import RetroVectorEnv
from emucore.errors import MissingExtraError

try:
    import torch
    from torch import nn
    from torch.distributions import Categorical
    from torch.utils.tensorboard import SummaryWriter
except ModuleNotFoundError as exc:
    root = (exc.name or "").split(".")[0]
    if root not in ("torch", "tensorboard"):
        raise
    raise MissingExtraError("emucore.examples.ppo_retro", root, "rl") from exc


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m emucore.examples.ppo_retro", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--game", default="StudioDemo-Genesis", help="a game name or the path of a game folder")
    add("--state", default=None, help="the start state (default: the integration's)")
    add("--seed", type=int, default=1)
    add("--total-steps", type=int, default=20_480, help="env steps over all envs")
    add("--num-envs", type=int, default=8)
    add("--num-steps", type=int, default=128, help="steps per env per rollout")
    add("--frame-skip", type=int, default=4)
    add("--frame-stack", type=int, default=4)
    add("--sticky-prob", type=float, default=0.0, help="the Retro Contest's 0.25 for its sticky frame skip")
    add("--learning-rate", type=float, default=2.5e-4)
    add("--gamma", type=float, default=0.99)
    add("--gae-lambda", type=float, default=0.95)
    add("--minibatches", type=int, default=4)
    add("--epochs", type=int, default=4)
    add("--clip", type=float, default=0.1)
    add("--entropy", type=float, default=0.01)
    add("--value-coef", type=float, default=0.5)
    add("--max-grad-norm", type=float, default=0.5)
    add("--runs", type=Path, default=Path("runs"), help="TensorBoard's log folder")
    add("--curve", type=Path, default=None, help="also write (env step, episode return) rows to this CSV")
    add("--nature", action="store_true", help="the Nature DQN's network (CleanRL's; about 4x the work)")
    add("--threads", type=int, default=None, help="torch's threads (default: torch's choice)")
    return parser.parse_args(argv)


def layer(module: nn.Conv2d | nn.Linear, gain: float = float(np.sqrt(2))) -> nn.Module:
    """Orthogonal weights, zero biases (PPO's usual initialisation)."""
    nn.init.orthogonal_(module.weight, gain)
    if module.bias is not None:
        nn.init.zeros_(module.bias)
    return module


class Policy(nn.Module):
    """Convolutions over the stacked frames, then a softmax over the actions and a value. ``nature``: the
    Nature DQN's (32-64-64 filters, 512 units, CleanRL's); else the 2013 DQN's (16-32 filters, 256 units),
    about a quarter of the work, which is what makes a few minutes on a laptop's CPU enough."""

    def __init__(self, frames: int, actions: int, nature: bool = False):
        super().__init__()
        if nature:
            convolutions = [layer(nn.Conv2d(frames, 32, 8, stride=4)), nn.ReLU(),
                            layer(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
                            layer(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU()]
            features, hidden = 64 * 7 * 7, 512
        else:
            convolutions = [layer(nn.Conv2d(frames, 16, 8, stride=4)), nn.ReLU(),
                            layer(nn.Conv2d(16, 32, 4, stride=2)), nn.ReLU()]
            features, hidden = 32 * 9 * 9, 256
        self.body = nn.Sequential(*convolutions, nn.Flatten(), layer(nn.Linear(features, hidden)), nn.ReLU())
        self.actor = layer(nn.Linear(hidden, actions), 0.01)
        self.critic = layer(nn.Linear(hidden, 1), 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(obs / 255.0)).squeeze(-1)

    def act(self, obs: torch.Tensor, action: torch.Tensor | None = None):
        hidden = self.body(obs / 255.0)
        dist = Categorical(logits=self.actor(hidden))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


class FrameStack:
    """The last ``depth`` gray frames of each env, newest last, as (envs, depth, 84, 84) uint8."""

    def __init__(self, first: np.ndarray, depth: int):
        frames = first[..., 0]  # (envs, 84, 84)
        self.stack = np.repeat(frames[:, None], depth, axis=1)

    def push(self, obs: np.ndarray, done: np.ndarray) -> np.ndarray:
        self.stack = np.roll(self.stack, -1, axis=1)
        self.stack[:, -1] = obs[..., 0]
        self.stack[done] = obs[done, None, ..., 0]  # a new episode starts from its own first frame only
        return self.stack


def main(argv: Sequence[str] | None = None) -> None:
    """Trains, logs and prints a line per update; ``argv`` as on the command line (default: ``sys.argv[1:]``)."""
    args = arguments(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    run = f"{Path(args.game).name}__ppo__{args.seed}__{int(time.time())}"
    writer = SummaryWriter(str(args.runs / run))
    writer.add_text("arguments", "\n".join(f"{k}: {v}" for k, v in vars(args).items()))
    make_kwargs = {"use_restricted_actions": Actions.DISCRETE, "frame_skip": args.frame_skip,
                   "grayscale": True, "obs_size": (84, 84), "sticky_prob": args.sticky_prob}
    if args.state:
        make_kwargs["state"] = args.state
    envs = RetroVectorEnv(args.game, args.num_envs, autoreset_mode=AutoresetMode.SAME_STEP, copy=False,
                          **make_kwargs)
    space = envs.single_action_space
    assert isinstance(space, gymnasium.spaces.Discrete)  # Actions.DISCRETE
    actions_n = int(space.n)
    policy = Policy(args.frame_stack, actions_n, nature=args.nature)
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.learning_rate, eps=1e-5)

    n, t = args.num_envs, args.num_steps
    batch = n * t
    obs_buf = torch.zeros((t, n, args.frame_stack, 84, 84), dtype=torch.uint8)
    actions = torch.zeros((t, n), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((t, n)) for _ in range(4))
    first, _ = envs.reset(seed=[int(s) for s in rng.integers(0, 2**31, n)])
    stack = FrameStack(first, args.frame_stack)
    next_obs = torch.from_numpy(stack.stack.copy())
    next_done = torch.zeros(n)
    returns, lengths = np.zeros(n), np.zeros(n, dtype=np.int64)
    curve = []
    step = 0
    updates = max(1, args.total_steps // batch)
    started = time.time()
    for update in range(1, updates + 1):
        for group in optimizer.param_groups:  # the learning rate falls linearly to 0
            group["lr"] = args.learning_rate * (1.0 - (update - 1.0) / updates)
        for i in range(t):
            step += n
            obs_buf[i], dones[i] = next_obs, next_done
            with torch.no_grad():
                action, logprob, _, value = policy.act(next_obs)
            actions[i], logprobs[i], values[i] = action, logprob, value
            obs, reward, terminated, truncated, _ = envs.step(action.numpy())
            done = terminated | truncated
            rewards[i] = torch.from_numpy(reward.astype(np.float32))
            next_obs = torch.from_numpy(stack.push(obs, done).copy())
            next_done = torch.from_numpy(done.astype(np.float32))
            returns += reward
            lengths += 1
            for env in np.flatnonzero(done):
                writer.add_scalar("charts/episode_return", returns[env], step)
                writer.add_scalar("charts/episode_length", lengths[env], step)
                curve.append((step, float(returns[env])))
                returns[env], lengths[env] = 0.0, 0

        with torch.no_grad():  # generalised advantage estimation, bootstrapped from the last value
            next_value = policy.value(next_obs)
            advantages = torch.zeros_like(rewards)
            running = torch.zeros(n)
            for i in reversed(range(t)):
                not_done = 1.0 - (next_done if i == t - 1 else dones[i + 1])
                following = next_value if i == t - 1 else values[i + 1]
                delta = rewards[i] + args.gamma * following * not_done - values[i]
                running = delta + args.gamma * args.gae_lambda * not_done * running
                advantages[i] = running
            targets = advantages + values

        b_obs, b_actions = obs_buf.reshape(batch, args.frame_stack, 84, 84), actions.reshape(batch)
        b_logprobs, b_advantages = logprobs.reshape(batch), advantages.reshape(batch)
        b_targets = targets.reshape(batch)
        size = batch // args.minibatches
        clipped = []
        for _ in range(args.epochs):
            order = torch.from_numpy(rng.permutation(batch))
            for start in range(0, batch, size):
                index = order[start:start + size]
                _, logprob, entropy, value = policy.act(b_obs[index].float(), b_actions[index])
                ratio = (logprob - b_logprobs[index]).exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - (logprob - b_logprobs[index])).mean()
                    clipped.append(((ratio - 1.0).abs() > args.clip).float().mean().item())
                advantage = b_advantages[index]
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
                policy_loss = torch.max(-advantage * ratio,
                                        -advantage * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                value_loss = 0.5 * ((value - b_targets[index]) ** 2).mean()
                loss = policy_loss - args.entropy * entropy.mean() + args.value_coef * value_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
                optimizer.step()

        steps_per_second = step / (time.time() - started)
        for name, value in (("losses/policy", policy_loss.item()), ("losses/value", value_loss.item()),
                            ("losses/entropy", entropy.mean().item()), ("losses/approx_kl", approx_kl.item()),
                            ("losses/clip_fraction", float(np.mean(clipped))),
                            ("charts/learning_rate", optimizer.param_groups[0]["lr"]),
                            ("charts/steps_per_second", steps_per_second)):
            writer.add_scalar(name, value, step)
        recent = [r for _, r in curve[-20:]]
        print(f"update {update}/{updates}  steps {step}  return (last 20) "
              f"{np.mean(recent) if recent else float('nan'):.1f}  {steps_per_second:.0f} steps/s", flush=True)

    envs.close()
    writer.close()
    if args.curve:
        with open(args.curve, "w", newline="") as out:
            csv.writer(out).writerows([("env_step", "episode_return"), *curve])
    print(f"TensorBoard logs in {args.runs / run}")


if __name__ == "__main__":
    main()
