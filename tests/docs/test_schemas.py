"""The JSON Schemas of the integration files (emucore/resources/schemas/, published with the docs) accept every
integration that ships (ours and stable-retro's ~1000 games) and refuse what emucore refuses: a string address, an
unknown op, a path as a state."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from emucore.host.corefinder import stable_retro_cores_dir
from emucore.paths import integrations_dir, schemas_dir

KINDS = ("data", "scenario", "metadata")


def schema(kind: str) -> dict:
    return json.loads((schemas_dir() / f"{kind}.schema.json").read_text())


def validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(kind))


def integration_files() -> dict[str, list[Path]]:
    roots = [integrations_dir()]
    cores = stable_retro_cores_dir()
    if cores is not None:
        roots.append(cores.parent / "data")
    found: dict[str, list[Path]] = {kind: [] for kind in KINDS}
    for root in roots:
        for path in sorted(root.rglob("*.json")):
            if path.name in ("data.json", "metadata.json"):
                found[path.stem].append(path)
                continue
            content = json.loads(path.read_text())
            if isinstance(content, dict) and {"reward", "rewards", "done"} & set(content):
                found["scenario"].append(path)
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12(kind):
    jsonschema.Draft202012Validator.check_schema(schema(kind))


@pytest.mark.parametrize("kind", KINDS)
def test_every_shipped_integration_file_is_valid(kind):
    files = integration_files()[kind]
    assert files, f"no {kind} file found"
    check = validator(kind)
    invalid = {str(path): next(iter(check.iter_errors(json.loads(path.read_text())))).message
               for path in files if not check.is_valid(json.loads(path.read_text()))}
    assert not invalid, invalid


@pytest.mark.parametrize(("kind", "content"), [
    ("data", {"info": {"score": {"address": "0xff00", "type": ">u4"}}}),
    ("data", {"info": {"score": {"address": 32, "type": "u4"}}}),
    ("data", {"info": {"score": {"address": 32}}}),
    ("data", {"variables": {}}),
    ("scenario", {"done": {"variables": {"lives": {"op": "equals", "reference": 0}}}}),
    ("scenario", {"reward": {"variables": {"score": {"measurement": "relative"}}}}),
    ("scenario", {"crop": [0, 0, 10]}),
    ("scenario", {"scripts": ["/etc/passwd.lua"]}),
    ("metadata", {"default_state": "../other/Start"}),
    ("metadata", {"default_state": 3}),
])
def test_what_emucore_refuses_the_schema_refuses(kind, content):
    assert not validator(kind).is_valid(content)
