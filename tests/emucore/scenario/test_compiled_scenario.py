"""The compiled scenario evaluator (emucore.scenario.compiled) against the Python one, on real cores.

Every step both must give the same done flag, rewards and totals (to the bit), the same info dict
(same order), the same measurements and the same done explanation: first on whole games through
the env, then on random scenarios over every data type, with memory poked and remapped between
steps. ``Evaluator.compile = False`` is the Python reference.
"""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace

import numpy as np
import pytest

import emucore
from emucore import Emulator
from emucore.errors import UnmappedAddressError
from emucore.host.memory import AddressSpace, Block
from emucore.operations import Operation
from emucore.scenario.actions import ActionGroups
from emucore.scenario.compiled import CompiledValues
from emucore.scenario.evaluator import Evaluator
from emucore.scenario.model import Scenario
from tests.conftest import GENESIS_ROM, NES_ROM, require_core


def bits(value) -> tuple[type, bytes]:
    wide = np.float64 if isinstance(value, float) else np.float32
    return type(value), np.asarray(value, wide).tobytes()


def outcome(data: Evaluator) -> tuple:
    return (data.frame, data.done, [bits(r) for r in data.rewards], [bits(t) for t in data.totals])


def measured(data: Evaluator, name: str, measurement: str):
    try:
        return data.measure(name, measurement)
    except UnmappedAddressError as e:
        return type(e), str(e)


def assert_same(fast: Evaluator, slow: Evaluator, compiled: bool = True) -> None:
    assert fast.compiled is compiled and not slow.compiled
    assert outcome(fast) == outcome(slow)
    info = fast.info_after_update()
    assert info == slow.info_after_update() and list(info) == list(slow.info_after_update())
    assert all(type(v) is int for v in info.values())
    for name in fast.scenario.variable_names() | set(fast.variables):
        for measurement in ("absolute", "delta"):
            assert measured(fast, name, measurement) == measured(slow, name, measurement), (name, measurement)
    assert fast.explain_done() == slow.explain_done()


# ---- whole games through the env ----


def run_pair(make, steps: int, seed: int) -> tuple[int, set[float]]:
    """Steps two envs of one game with the same actions, one evaluating in Python; (dones, rewards)."""
    fast, slow = make(), make()
    try:
        fd, sd = fast.unwrapped.evaluator, slow.unwrapped.evaluator
        sd.compile = False
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        assert_same(fd, sd)
        fast.action_space.seed(seed)
        dones, rewards = 0, set()
        for _ in range(steps):
            action = fast.action_space.sample()
            _, reward, done, _, info = fast.step(action)
            _, reward_slow, done_slow, _, info_slow = slow.step(action)
            assert bits(reward) == bits(reward_slow) and done == done_slow
            assert info == info_slow and list(info) == list(info_slow)
            assert_same(fd, sd)
            rewards.add(reward)
            if done:
                dones += 1
                fast.reset(seed=seed)
                slow.reset(seed=seed)
                assert_same(fd, sd)
        return dones, rewards
    finally:
        fast.close()
        slow.close()


LUA_RULES = """
function reward()
  local gain = data.score - (previous or data.score)
  previous = data.score
  if scenario.timestep % 40 == 1 then data.x = (data.x + 9) % 300; gain = gain + data.x end
  if scenario.frame % 170 == 150 then data.lives = 0.25 end
  return gain
end
function done()
  return data.lives == 0 or data.game_over == 1
end
"""


def test_lua_scenario_reads_its_variables_in_c(tmp_path):
    """With scripts, the variables are read in one C call (for the scripts' reads and info)."""
    require_core("genesis_plus_gx")
    (tmp_path / "rules.lua").write_text(LUA_RULES)
    (tmp_path / "lua.json").write_text('{"reward": {"script": "lua:reward"}, "done": {"script": "lua:done"},'
                                       ' "scripts": ["rules.lua"]}')
    fast, slow = (emucore.make("StudioDemo-Genesis", scenario=str(tmp_path / "lua.json"),
                               use_restricted_actions=emucore.Actions.ALL) for _ in range(2))
    try:
        fd, sd = fast.unwrapped.evaluator, slow.unwrapped.evaluator
        sd.compile = False
        rng = np.random.default_rng(5)
        dones = read_in_c = 0
        for episode in range(3):
            fast.reset(seed=episode)
            slow.reset(seed=episode)
            for _ in range(400):
                action = rng.integers(0, 2, fast.action_space.n)
                a, b = fast.step(action), slow.step(action)
                assert bits(a[1]) == bits(b[1]) and a[2:] == b[2:] and list(a[4]) == list(b[4])
                assert_same(fd, sd, compiled=False)
                read_in_c += isinstance(fd._values, CompiledValues)  # else a script wrote: read again
                if a[2]:
                    dones += 1
                    break
        assert dones >= 1 and read_in_c > 100
    finally:
        fast.close()
        slow.close()


def test_airstriker(airstriker):
    require_core("genesis_plus_gx")
    _, rewards = run_pair(lambda: emucore.make(str(airstriker)), 1500, 1)
    assert rewards - {0.0}  # the score moved: nonzero rewards were compared


@pytest.mark.parametrize("game, core", [("StudioDemo-Genesis", "genesis_plus_gx"), ("StudioDemo-Nes", "fceumm")])
def test_homebrew(game, core):
    require_core(core)
    dones, rewards = run_pair(lambda: emucore.make(game), 1000, 2)
    assert dones >= 1 and rewards - {0.0}


@pytest.mark.parametrize("game", ["Pong", "Qbert", "RoadRunner", "PrivateEye", "DoubleDunk", "Enduro"])
def test_atari(stable_atari, game):
    run_pair(lambda: stable_atari(game), 600, 3)


# ---- random scenarios over every data type ----

PREFIXES = ("|", "<", ">", "=", "<>", "><", ">=", "<=")
KINDS = ("u", "i", "d", "n", "x")  # "x" reads as u
MASKS = (None, None, None, 0xFF, 0xF0F0, 0x8000_0000_0000_00FF, (1 << 64) - 2, -2, 0x7FFF_FFFF_FFFF_FFFF)
REFERENCES = (0, 0, 1, -1, 2, 9, 99, -99, 127, -127, 128, -128, 255, -255, 1 << 40, -(1 << 62), (1 << 63) - 1,
              -((1 << 63) - 1))
FACTORS = (1.0, -1.0, 0.5, 3.25, 1e-3, 0.1, 7e30, -2.5e38, 0.0)
OPS = [str(op) for op in Operation] + [None]
TOTALS = (np.float32(2.5), np.float32(-0.0), 0.1, np.float64(1e-9), 3)
SPECIAL = (0x00, 0xFF, 0x80, 0x7F, 0x99, 0x9A, 0xA0, 0x01)


def variables_over(rng, starts: list[tuple[int, int]], extra: dict) -> dict:
    """Every type at random addresses of the blocks, masks here and there, plus ``extra``."""
    out = {}
    for prefix in PREFIXES:
        for kind in KINDS:
            for width in range(9):
                start, size = starts[rng.integers(len(starts))]
                mask = MASKS[rng.integers(len(MASKS))]
                out[f"{prefix}{kind}{width}"] = SimpleNamespace(
                    address=int(start + rng.integers(size)), type=f"{prefix}{kind}{width}", mask=mask)
    for name, (address, type_text, mask) in extra.items():
        out[name] = SimpleNamespace(address=address, type=type_text, mask=mask)
    return out


def term(rng, names: list[str]) -> tuple[str, dict]:
    spec: dict = {}
    if rng.random() < 0.8:
        spec["measurement"] = "delta" if rng.random() < 0.5 else "absolute"
    op = OPS[rng.integers(len(OPS))]
    if op is not None:
        spec["op"] = op
    spec["reference"] = REFERENCES[rng.integers(len(REFERENCES))]
    spec["reward"] = FACTORS[rng.integers(len(FACTORS))]
    spec["penalty"] = FACTORS[rng.integers(len(FACTORS))]
    return names[rng.integers(len(names))], spec


def node(rng, names: list[str], depth: int = 0) -> dict:
    raw: dict = {"variables": dict(term(rng, names) for _ in range(rng.integers(4)))}
    if rng.random() < 0.6:
        raw["condition"] = "all" if rng.random() < 0.5 else "any"
    if depth < 3:
        raw["nodes"] = {f"n{depth}{i}": node(rng, names, depth + 1) for i in range(rng.integers(3))}
    return raw


def scenario(rng, names: list[str]) -> dict:
    rewards = []
    for _ in range(2):
        spec: dict = {"variables": dict(term(rng, names) for _ in range(rng.integers(1, 8)))}
        if rng.random() < 0.5:
            spec["time"] = term(rng, names)[1]
        rewards.append(spec)
    return {"done": node(rng, names), "rewards": rewards}


def pair(variables: dict, raw: dict, memory) -> tuple[Evaluator, Evaluator]:
    fast = Evaluator(variables, Scenario.parse(raw), memory, ActionGroups([], []))
    slow = Evaluator(variables, Scenario.parse(raw), memory, ActionGroups([], []))
    slow.compile = False
    return fast, slow


def poke(rng, space: AddressSpace, variables: dict) -> None:
    """Random bytes (edge values often) over some variables, written into core memory directly."""
    for variable in rng.choice(list(variables.values()), 12):
        if not space.is_mapped(variable.address):
            continue
        width = int(variable.type[-1])
        data = rng.choice(SPECIAL, width) if rng.random() < 0.5 else rng.integers(0, 256, width)
        space.write_bytes(variable.address, bytes(int(b) for b in data))


def spaces_genesis(emu: Emulator) -> list[AddressSpace]:
    """The core's space, and the same RAM cut in two blocks (even and odd cuts) under the overlay."""
    space = emu.memory
    (block,) = space.blocks
    cut = [AddressSpace([Block(block.start, block.data[:at]), Block(block.start + at, block.data[at:])],
                        space.overlay) for at in (0x8000, 0x7FFF)]
    return [space, *cut]


def spaces_nes(emu: Emulator) -> list[AddressSpace]:
    space = emu.memory
    return [space, AddressSpace(space.blocks[::-1], space.overlay)]


def emulate(rng, emu: Emulator, fast: Evaluator, slow: Evaluator, spaces: list[AddressSpace], current: list,
            steps: int) -> int:
    """Random frames, pokes, writes, resets and remaps; both evaluators compared after each.
    Returns the evaluations with a nonzero reward."""
    rewarded = 0
    with np.errstate(all="ignore"):  # float32 overflow to inf is part of what is compared
        for step in range(steps):
            emu.set_button_mask(int(rng.integers(0, 1 << 12)))
            emu.step()
            current[0] = spaces[int(rng.integers(len(spaces)))] if step % 5 == 0 else current[0]
            if rng.random() < 0.7:
                poke(rng, current[0], fast.variables)
            if rng.random() < 0.05:
                fast.reset()
                slow.reset()
            if rng.random() < 0.1:  # totals set from outside (the studio does), of any number type
                player, total = int(rng.integers(2)), TOTALS[int(rng.integers(len(TOTALS)))]
                for data in (fast, slow):
                    data.totals[player] = total
            fast.compile = rng.random() > 0.1
            fast.update_ram()
            slow.update_ram()
            assert_same(fast, slow, fast.compile)
            rewarded += any(fast.rewards)
            if rng.random() < 0.2:  # writes between steps: memory, and a custom variable
                name = list(fast.variables)[int(rng.integers(len(fast.variables)))]
                value = int(rng.integers(-(1 << 63), 1 << 63, dtype=np.int64))
                for data in (fast, slow):
                    if current[0].is_mapped(data.variables[name].address):
                        data.set_value(name, value)
                    data.set_value("custom", step)
                assert_same(fast, slow, fast.compile)
                assert fast.lookup_all() == slow.lookup_all()
    return rewarded


@pytest.mark.slow  # fuzzing: random scenarios
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("system", ["genesis", "nes"])
def test_random_scenarios(system, seed):
    rom, core = (GENESIS_ROM, "genesis_plus_gx") if system == "genesis" else (NES_ROM, "fceumm")
    require_core(core)
    rng = np.random.default_rng(seed)
    with Emulator(rom, core=core) as emu:
        emu.step()
        if system == "genesis":
            spaces = spaces_genesis(emu)
            starts = [(0xFF0000, 0x40), (0xFF7FF8, 0x10), (0xFFFFF8, 0x8)]  # the cuts and the end
            extra = {"unmapped": (0x10, "|u1", None), "past_end": (0xFFFFFD, ">u8", None)}
        else:
            spaces = spaces_nes(emu)
            starts = [(0x0, 0x40), (0x3F8, 0x10), (0x7F8, 0x8), (0x6000, 0x40)]  # blocks meet at 0x400
            extra = {"unmapped": (0x5000, "|u1", None), "past_end": (0x7FC, "<i8", None)}
        variables = variables_over(rng, starts, extra)
        names = [name for name in variables if name != "unmapped"]
        current = [spaces[0]]
        for _ in range(3):
            fast, slow = pair(variables, scenario(rng, names), lambda: current[0])
            assert emulate(rng, emu, fast, slow, spaces, current, 150) > 0


def test_float32_of_wide_values_rounds_through_a_double():
    """np.float32 of a Python int rounds twice (to double, then float32); so must the C."""
    require_core("genesis_plus_gx")
    raw = {"rewards": [{"variables": {"wide": {"measurement": "absolute", "reward": 1.0, "penalty": 1.0}}},
                       {"variables": {"wide": {"measurement": "delta", "reward": 1.0, "penalty": 2.0}}}]}
    with Emulator(GENESIS_ROM) as emu:
        emu.step()
        variables = {"wide": SimpleNamespace(address=0xFF0100, type=">i8", mask=None)}
        fast, slow = pair(variables, raw, lambda: emu.memory)
        values = [0, 2**60 + 2**36 + 1, -(2**60 + 2**36 + 1), -(2**63), 2**63 - 1, -(2**63), 2**39 + 1]
        for before, value in zip([None, *values], values):
            for data in (fast, slow):
                data.set_value("wide", value)
                data.update_ram()
            assert_same(fast, slow)
            assert fast.rewards[0] == float(np.float32(float(value)))
            if before is not None:
                delta = value - before  # beyond int64 for the last three
                assert fast.measure("wide", "delta") == delta
                expected = np.float32(float(delta)) * np.float32(1.0 if delta > 0 else 2.0)
                assert bits(fast.rewards[1]) == bits(float(expected if delta else 0.0))
        assert fast.rewards[0] == 2.0**39  # ... + 1 rounded away


TREES = {
    "nested": {"variables": {"c": {"op": "equal", "reference": 1}},
               "nodes": {"both": {"condition": "all", "variables": {"a": {"op": "nonzero"}, "b": {"op": "nonzero"}}},
                         "either": {"nodes": {"deep": {"variables": {"a": {"op": "greater-than",
                                                                              "measurement": "delta"}}}}}}},
    "all of nodes": {"condition": "all", "nodes": {"one": {"variables": {"a": {}}},
                                                   "two": {"variables": {"b": {}, "c": {"op": "negative"}}},
                                                   "free": {"condition": "all"}}},
    "empty any": {"nodes": {"none": {}}},
}


@pytest.mark.parametrize("tree", TREES)
def test_nested_trees_on_every_memory(tree):
    require_core("fceumm")
    with Emulator(NES_ROM) as emu:
        emu.step()
        variables = {name: SimpleNamespace(address=0x20 + i, type="|i1", mask=None) for i, name in enumerate("abc")}
        fast, slow = pair(variables, {"done": TREES[tree]}, lambda: emu.memory)
        verdicts = set()
        for values in [*product((0, 1, -1), repeat=3), *product((1, 0), repeat=3)]:
            emu.memory.write_bytes(0x20, bytes(v & 0xFF for v in values))
            fast.update_ram()
            slow.update_ram()
            assert_same(fast, slow)
            verdicts.add(fast.done)
        assert verdicts == ({False} if tree == "empty any" else {True, False})


@pytest.mark.parametrize("measurement", ["absolute", "delta"])
def test_every_op(measurement):
    """Each op over values either side of each reference, as a done test and as a reward term."""
    require_core("fceumm")
    with Emulator(NES_ROM) as emu:
        emu.step()
        variables = {"v": SimpleNamespace(address=0x10, type="<i2", mask=None)}
        for op in Operation:
            for reference in (-2, -1, 0, 1, 2):
                spec = {"op": str(op), "reference": reference, "measurement": measurement,
                        "reward": 1.5, "penalty": -0.25}
                raw = {"done": {"variables": {"v": spec}}, "reward": {"variables": {"v": spec}}}
                fast, slow = pair(variables, raw, lambda: emu.memory)
                for value in (0, -3, -2, -1, 0, 1, 2, 3, 2, 0, -32768, 32767, -32768):
                    for data in (fast, slow):
                        data.set_value("v", value)
                        data.update_ram()
                    assert_same(fast, slow)
                    result = op.compute(fast.measure("v", measurement), reference)
                    assert fast.done is (result > 0)
                    assert fast.rewards[0] == result * (1.5 if result > 0 else -0.25)


def test_remapped_memory_rebinds_and_an_unmapped_variable_falls_back_to_python():
    require_core("genesis_plus_gx")
    raw = {"done": {"variables": {"byte": {"op": "greater-or-equal", "reference": 0},
                                  "far": {"op": "equal", "reference": 3}}},
           "reward": {"variables": {"word": {"reward": 1.0, "penalty": 0.5}}}}
    rng = np.random.default_rng(7)
    with Emulator(GENESIS_ROM) as emu:
        emu.step()
        whole, low_cut, odd_cut = spaces_genesis(emu)
        hole = AddressSpace([low_cut.blocks[0]], whole.overlay)  # "far" is unmapped there
        variables = {"byte": SimpleNamespace(address=0xFF0001, type="|u1", mask=None),
                     "word": SimpleNamespace(address=0xFF7FFF, type=">i2", mask=None),
                     "far": SimpleNamespace(address=0xFF9000, type="<u4", mask=0xFFFF)}
        current = [whole]
        fast, slow = pair(variables, raw, lambda: current[0])
        for step in range(200):
            current[0] = [whole, low_cut, odd_cut, hole][step // 3 % 4]
            for data in (fast, slow):
                data.set_value("word", int(rng.integers(-(1 << 15), 1 << 15)))
            fast.update_ram()
            slow.update_ram()
            assert_same(fast, slow, current[0] is not hole)  # "far" is never reached: "byte" >= 0 is done
            assert ("far" in fast.info_after_update()) is (current[0] is not hole)


def test_what_stays_in_python(genesis_rom):
    require_core("genesis_plus_gx")
    with Emulator(genesis_rom) as emu:
        emu.step()
        lives = {"lives": SimpleNamespace(address=0xFF0012, type="|u1", mask=None)}
        groups = ActionGroups([], [])

        def compiled(raw: dict, scripts=(), variables=lives) -> bool:
            data = Evaluator(variables, Scenario.parse(raw), lambda: emu.memory, groups, scripts)
            data.set_value("custom", 1)
            try:
                data.update_ram()
            except Exception:  # noqa: BLE001 - only which evaluator ran matters here
                pass
            return data.compiled

        done = {"done": {"variables": {"lives": {"op": "zero"}}}}
        assert compiled(done)
        assert compiled({})  # no scenario: the variables are still read for info in C
        assert not compiled(done, [("s.lua", "function f() return 1 end")])
        assert not compiled({"done": {"script": "f"}}, [("s.lua", "function f() return true end")])
        assert not compiled({"reward": {"script": "f"}}, [("s.lua", "function f() return 1 end")])
        assert not compiled({"done": {"variables": {"custom": {"op": "equal", "reference": 1}}}})
        assert not compiled(done, variables={"lives": SimpleNamespace(address=0xFF0012, type="|u9", mask=None)})
