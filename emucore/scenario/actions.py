"""Action groups and the decoding of agent actions into button masks (env-api.md §5).

A group is a list of button combinations; its mask is the OR of its combinations. Groups are
kept sorted by mask (a later group with an equal mask is dropped) and each group's combination
masks sorted and de-duplicated, exactly as stable-retro stores them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emucore.enums import Actions
from emucore.libretro import flags_to_mask, mask_table


class ActionGroups:
    """The parsed ``actions`` of a core descriptor or scenario, and the decoders that use them."""

    def __init__(self, groups: Sequence[Sequence[Sequence[str]]], buttons: Sequence[str | None]):
        self.buttons = list(buttons)
        self.num_buttons = len(self.buttons)
        index = {name: i for i, name in enumerate(self.buttons) if name is not None}
        by_mask: dict[int, list[int]] = {}
        for group in groups:
            combos = set()
            for combo in group:
                mask = 0
                for name in combo:
                    mask |= 1 << index.get(name, self.num_buttons)  # unknown: a bit outside the pad
                combos.add(mask)
            group_mask = 0
            for mask in combos:
                group_mask |= mask
            by_mask.setdefault(group_mask, sorted(combos))
        self.masks = sorted(by_mask)
        self.groups = [by_mask[mask] for mask in self.masks]
        self.pad_mask = (1 << self.num_buttons) - 1
        self._counts: dict[int, np.ndarray] = {}
        self._filter_table: np.ndarray | None = None
        self._filter_pointer = None

    def valid_actions(self) -> list[list[int]]:
        """The groups as stable-retro's ``data.valid_actions()`` returns them."""
        return [list(group) for group in self.groups]

    def filter(self, mask: int) -> int:
        """Keeps, per group, the pressed part only if it is one of the group's combinations."""
        kept = 0
        for group_mask, combos in zip(self.masks, self.groups):
            part = mask & group_mask
            if part in combos:
                kept |= part
        return kept

    @property
    def filter_pointer(self):
        """A ``uint16_t *`` to ``filter(mask) & pad_mask`` for every mask of the pad's buttons: FILTERED
        decoding as one lookup in C (``Emulator.press``)."""
        if self._filter_pointer is None:
            masks = np.arange(1 << self.num_buttons, dtype=np.uint32)
            kept = np.zeros_like(masks)
            for group_mask, combos in zip(self.masks, self.groups):
                part = masks & group_mask
                kept |= np.where(np.isin(part, combos), part, 0).astype(np.uint32)
            self._filter_table = (kept & self.pad_mask).astype(np.uint16)
            self._filter_pointer = mask_table(self._filter_table)
        return self._filter_pointer

    @property
    def discrete_size(self) -> int:
        size = 1
        for group in self.groups:
            size *= len(group)
        return size

    def space_name(self, mode: Actions, players: int) -> str:
        """The action space of ``mode`` as Gymnasium prints it: ``MultiBinary(12)``."""
        if mode is Actions.DISCRETE:
            return f"Discrete({self.discrete_size**players})"
        if mode is Actions.MULTI_DISCRETE:
            return f"MultiDiscrete({self.choice_counts(players)})"
        return f"MultiBinary({self.num_buttons * players})"

    def _refuse(self, action: object, mode: Actions, players: int, problem: str) -> ValueError:
        text = np.array2string(action, threshold=20) if isinstance(action, np.ndarray) else repr(action)
        return ValueError(f"action {text} is not in the action space {self.space_name(mode, players)}: {problem}")

    def _integers(self, action: object, mode: Actions, players: int, size: int) -> np.ndarray:
        """The action as a flat int64 array of ``size`` whole numbers (floats like 2.0 pass)."""
        array = action if isinstance(action, np.ndarray) else np.asarray(action)
        if array.size != size or array.ndim > 1:
            raise self._refuse(action, mode, players, f"expected {size} element(s), got shape {array.shape}")
        if array.dtype.kind not in "biuf":
            raise self._refuse(action, mode, players, f"values of dtype {array.dtype} are not numbers")
        with np.errstate(invalid="ignore"):  # NaN and inf are refused just below
            whole = array.astype(np.int64).reshape(size)
        if array.dtype.kind == "f" and not np.array_equal(whole, array.reshape(size)):
            raise self._refuse(action, mode, players, "values must be whole numbers")
        return whole

    def _flags(self, action: object, mode: Actions, players: int) -> np.ndarray:
        """A MultiBinary action as C-contiguous uint8 (or int8/bool) flags, shape checked."""
        size = self.num_buttons * players
        array = action if isinstance(action, np.ndarray) else np.asarray(action)
        if array.shape != (size,):
            raise self._refuse(action, mode, players, f"expected shape ({size},), got {array.shape}")
        if array.dtype.itemsize == 1 and array.dtype.kind in "biu":
            return np.ascontiguousarray(array)
        if array.dtype.kind not in "biuf":
            raise self._refuse(action, mode, players, f"values of dtype {array.dtype} are not 0 or 1")
        with np.errstate(invalid="ignore"):
            flags = array.astype(np.uint8)
        if not np.array_equal(flags, array):  # 2, -1, 0.5 or NaN
            raise self._refuse(action, mode, players, "every value must be 0 or 1")
        return flags

    def decode(self, action: object, mode: Actions, players: int) -> list[int]:
        """Per-player button masks (``num_buttons`` bits each) for an action of ``mode``.

        ValueError naming the space for an action outside it (stable-retro accepts any)."""
        masks = []
        nb = self.num_buttons
        if mode is Actions.DISCRETE:
            a = int(self._integers(action, mode, players, 1)[0])
            if not 0 <= a < self.discrete_size**players:
                raise self._refuse(action, mode, players, f"{a} is out of range")
            for _ in range(players):
                mask = 0
                for group in self.groups:
                    a, digit = divmod(a, len(group))
                    mask |= group[digit]
                masks.append(mask & self.pad_mask)
            return masks
        if mode is Actions.MULTI_DISCRETE:
            # Sliced by group count: stable-retro slices by button count, which breaks player 2.
            count = len(self.groups)
            choices = self._integers(action, mode, players, count * players)
            sizes = self.choice_counts(players)
            if not ((choices >= 0) & (choices < sizes)).all():
                raise self._refuse(action, mode, players, "a choice is out of range")
            for p in range(players):
                mask = 0
                for i, choice in enumerate(choices[p * count : (p + 1) * count].tolist()):
                    mask |= self.groups[i][choice]
                masks.append(mask & self.pad_mask)
            return masks
        flags = self._flags(action, mode, players)
        for p in range(players):
            mask = flags_to_mask(flags[p * nb : (p + 1) * nb])
            if mask < 0:
                raise self._refuse(action, mode, players, "every value must be 0 or 1")
            if mode is Actions.FILTERED:
                mask = self.filter(mask)
            masks.append(mask & self.pad_mask)
        return masks

    def choice_counts(self, players: int) -> np.ndarray:
        """The MULTI_DISCRETE space's ``nvec``: each group's number of choices, per player."""
        counts = self._counts.get(players)
        if counts is None:
            counts = self._counts[players] = np.array([len(g) for g in self.groups] * players, dtype=np.int64)
        return counts

    def mask_to_array(self, mask: int) -> np.ndarray:
        return np.array([(mask >> i) & 1 for i in range(self.num_buttons)], dtype=np.uint8)
