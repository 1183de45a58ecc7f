"""PPO on an emucore game in one file: the same as ``python -m emucore.examples.ppo_retro``, which ships in the
package (its source, with the policy and the PPO loop, is ``emucore/examples/ppo_retro.py``).

    python examples/ppo_retro.py                                  # the Genesis demo: under a minute on 2 cores
    python examples/ppo_retro.py --game Airstriker-Genesis-v0 --state Level1 --total-steps 500000
    tensorboard --logdir runs
"""

from emucore.examples.ppo_retro import main

if __name__ == "__main__":
    main()
