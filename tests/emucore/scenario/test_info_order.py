"""emucore.scenario.info_order against libstdc++ itself: a C++ program built here runs the same insertions,
erasures and clears on a std::unordered_map<std::string, int> and prints its iteration order."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from emucore.scenario.info_order import StringTable, info_order, std_hash

PROGRAM = r"""
#include <functional>
#include <iostream>
#include <string>
#include <unordered_map>
int main() {
  std::unordered_map<std::string, int> table;
  std::string op, key;
  while (std::cin >> op) {
    if (op == "i") { std::cin >> key; table.emplace(key, 0); }
    else if (op == "e") { std::cin >> key; table.erase(key); }
    else if (op == "c") { table.clear(); }
    else if (op == "h") { std::cin >> key; std::cout << std::hash<std::string>{}(key) << "\n"; }
    else if (op == "p") { for (auto& kv : table) std::cout << kv.first << " "; std::cout << "|\n"; }
  }
}
"""


@pytest.fixture(scope="module")
def libstdcxx(tmp_path_factory):
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler to build the libstdc++ reference program")
    folder = tmp_path_factory.mktemp("unordered_map")
    (folder / "table.cpp").write_text(PROGRAM)
    subprocess.run([compiler, "-O1", "-o", str(folder / "table"), str(folder / "table.cpp")], check=True, timeout=120)

    def run(ops: list[str]) -> list[str]:
        out = subprocess.run([str(folder / "table")], input="\n".join(ops) + "\n", capture_output=True, text=True,
                             timeout=60, check=True).stdout
        return out.splitlines()

    return run


def test_string_hash_is_libstdcxxs(libstdcxx):
    rng = random.Random(3)
    keys = ["lives", "a", "score_bcd", "x" * 8, "y" * 9, "z" * 17] + [
        "".join(rng.choice("abcXYZ_019") for _ in range(rng.randint(1, 30))) for _ in range(50)]
    assert [int(line) for line in libstdcxx([f"h {key}" for key in keys])] == [std_hash(key) for key in keys]


def test_iteration_order_is_libstdcxxs_through_inserts_erasures_and_clears(libstdcxx):
    rng = random.Random(7)
    for _ in range(40):
        pool = ["".join(rng.choice("abcdefgh_XYZ0123") for _ in range(rng.randint(1, 12)))
                for _ in range(rng.randint(1, 200))]
        table, ops, expected = StringTable(), [], []
        for _ in range(rng.randint(1, 400)):
            roll, key = rng.random(), rng.choice(pool)
            if roll < 0.7:
                ops.append(f"i {key}")
                table.insert(key)
            elif roll < 0.95:
                ops.append(f"e {key}")
                table.erase(key)
            elif roll < 0.97:
                ops.append("c")
                table.clear()
            else:
                ops.append("p")
                expected.append(" ".join([*table, "|"]))
        ops.append("p")
        expected.append(" ".join([*table, "|"]))
        assert libstdcxx(ops) == expected


def test_info_order_is_the_variables_table_copied_into_a_new_one():
    # Pong-Atari2600's data.json, whose info stable-retro returns in this order (not sorted)
    names = ["ball_x", "ball_y", "p1_pos", "p2_pos", "score1", "score2"]
    variables = StringTable(sorted(names))
    assert info_order(variables) == ["ball_x", "ball_y", "p1_pos", "score2", "p2_pos", "score1"]
