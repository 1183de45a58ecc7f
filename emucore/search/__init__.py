"""Memory search: find the addresses and data.json types a game keeps its values at.

* :class:`MemorySearch` - candidates over every address and type, refined by comparisons
  between snapshots or with values, with undo/redo;
* :class:`Snapshot` - a frozen copy of the address space (overlay applied), decodable in bulk;
* :func:`snapshot_from_state`, :func:`compare_states` - search across labelled save states;
* :func:`search_movie` - values that changed as told at given frames of a movie replay;
* :func:`group_candidates` - a search's candidates one row per address, the plausible type first.

Values are exactly those of ``emulator.memory.read(address, type)``: the same byte order,
overlay, BCD digit rules, signedness and wrapping (:mod:`emucore.datatypes`). A multi-byte value
that starts near a block's end reads its remaining bytes as the address space does: from the
next block when it starts exactly there, otherwise as 0.

Plain numpy; no Qt and nothing of the studio.
"""

from emucore.search.candidates import Candidate, Candidates, CandidateSet
from emucore.search.grouping import GroupedCandidates, group_candidates
from emucore.search.memory_search import HistoryEntry, MemorySearch, Step
from emucore.search.movies import movie_masks, search_movie
from emucore.search.ops import OPS
from emucore.search.snapshot import Layout, Snapshot
from emucore.search.state_compare import compare_states, snapshot_from_state
from emucore.search.typelist import DEFAULT_TYPES, SearchType, search_type, system_types

__all__ = [
    "DEFAULT_TYPES",
    "GroupedCandidates",
    "OPS",
    "Candidate",
    "CandidateSet",
    "Candidates",
    "HistoryEntry",
    "Layout",
    "MemorySearch",
    "SearchType",
    "Snapshot",
    "Step",
    "compare_states",
    "group_candidates",
    "movie_masks",
    "search_movie",
    "search_type",
    "snapshot_from_state",
    "system_types",
]

# The assisted solvers lived here until they moved to emucore.assist (0.1.0); scripts that import them from here
# still work, with a DeprecationWarning naming the new home. The import happens at the first use of an old name,
# by name, so the search engine itself does not depend on the layer above it (the layers contract).
MOVED_TO_ASSIST = frozenset({
    "Ambiguity", "DoneExamples", "DoneRule", "DoneRules", "DoneSuggestion", "ValueCandidate", "ValueCandidates",
    "done_rules", "episode_examples", "solve_value", "suggest_done",
})


def __getattr__(name: str) -> object:
    if name not in MOVED_TO_ASSIST:
        raise AttributeError(f"module 'emucore.search' has no attribute {name!r}")
    import importlib
    import warnings

    warnings.warn(f"emucore.search.{name} moved to emucore.assist: use 'from emucore.assist import {name}' "
                  "(the old name will be removed in a later release)", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module("emucore.assist"), name)
