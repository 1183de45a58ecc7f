"""Integration folders (stable-retro's game data): the one reader, writer and linter of them.

A folder holds ``rom.<ext>``, ``rom.sha``, ``data.json``, ``scenario.json`` (and other
scenario files), ``metadata.json``, ``<Name>.state`` files, Lua scripts and free files; see
``integration-format.md``. :class:`Integration` loads and saves a whole folder;
the ``parse_*``/``dump_*`` functions read and write single files in stable-retro's layout;
:func:`lint` reports what stable-retro's verifier would, and more.
"""

from emucore.integration.common import IntegrationError, LintFinding, rom_sha1, system_from_name
from emucore.integration.datafile import (
    DATA_FILE,
    DataFile,
    Variable,
    dump_data_json,
    parse_data_json,
    read_data_file,
    read_data_json,
    write_data_file,
)
from emucore.integration.folder import Integration, read_rom_sha
from emucore.integration.lint import lint
from emucore.integration.listing import METADATA_FILE, SHA_FILE, find_rom
from emucore.integration.metadatafile import default_state_name, read_metadata, write_metadata
from emucore.integration.scenariofile import (
    SCENARIO_FILE,
    dump_scenario_json,
    is_scenario,
    is_scenario_file,
    parse_scenario_json,
    read_scenario_json,
    variable_references,
    write_scenario_json,
)
from emucore.integration.script_files import read_scripts, write_script
from emucore.integration.statefile import (
    MAX_STATE_BYTES,
    STATE_SUFFIX,
    StateStore,
    read_state_file,
    state_file,
    state_names,
    write_state_file,
)

__all__ = [
    "DATA_FILE",
    "MAX_STATE_BYTES",
    "METADATA_FILE",
    "SCENARIO_FILE",
    "SHA_FILE",
    "STATE_SUFFIX",
    "DataFile",
    "LintFinding",
    "Integration",
    "IntegrationError",
    "StateStore",
    "Variable",
    "default_state_name",
    "dump_data_json",
    "dump_scenario_json",
    "find_rom",
    "is_scenario",
    "is_scenario_file",
    "lint",
    "parse_data_json",
    "parse_scenario_json",
    "read_data_file",
    "read_data_json",
    "read_metadata",
    "read_rom_sha",
    "read_scenario_json",
    "read_scripts",
    "read_state_file",
    "rom_sha1",
    "state_file",
    "state_names",
    "system_from_name",
    "variable_references",
    "write_data_file",
    "write_metadata",
    "write_scenario_json",
    "write_script",
    "write_state_file",
]
