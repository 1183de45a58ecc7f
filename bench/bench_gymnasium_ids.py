"""What declaring ``emucore/<Game>`` ids costs every interpreter, side by side with the alternatives.

1. Interpreter start: ``python -c pass`` with the installed ``emucore-gymnasium.pth`` hook and with
   it disabled (``-I`` is not used: it would drop site-packages too; instead the hook module is
   shadowed by an empty one on ``PYTHONPATH``), alternating, median of N runs.
2. Registering every known game: our plain specs against ``gymnasium.register`` on the same ids.

    python bench/bench_gymnasium_ids.py [--runs 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def start_ms(env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
    return (time.perf_counter() - began) * 1000


def interpreter_start(runs: int) -> None:
    with tempfile.TemporaryDirectory() as shadow:
        with open(os.path.join(shadow, "emucore_gymnasium.py"), "w") as f:
            f.write("def install():\n    pass\n")
        hooked = dict(os.environ)
        bare = {**os.environ, "PYTHONPATH": shadow}
        with_hook, without = [], []
        for _ in range(runs):
            with_hook.append(start_ms(hooked))
            without.append(start_ms(bare))
    a, b = statistics.median(with_hook), statistics.median(without)
    print(f"interpreter start: {a:.1f} ms with the hook, {b:.1f} ms without (ratio {a / b:.3f})")


def registration() -> None:
    import gymnasium

    from emucore import data
    from emucore.env.registration import register_games

    games = data.list_games(data.Integrations.ALL)
    for env_id in [k for k in gymnasium.registry if k.startswith("emucore/")]:
        del gymnasium.registry[env_id]
    began = time.perf_counter()
    register_games()
    ours = time.perf_counter() - began
    for env_id in [k for k in gymnasium.registry if k.startswith("emucore/")]:
        del gymnasium.registry[env_id]
    began = time.perf_counter()
    for game in games:
        try:
            gymnasium.register(id=f"emucore/{game}", entry_point="emucore.env.make:make", kwargs={"game": game})
        except gymnasium.error.Error:
            pass
    theirs = time.perf_counter() - began
    print(f"registering {len(games)} games: {ours * 1000:.1f} ms (listing included) against "
          f"{theirs * 1000:.1f} ms with gymnasium.register (ratio {ours / theirs:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    interpreter_start(args.runs)
    registration()


if __name__ == "__main__":
    main()
