"""Action groups and the decoding of agent actions into button masks (env-api.md §5).

A group is a list of button combinations; its mask is the OR of its combinations. Groups are
kept sorted by mask (a later group with an equal mask is dropped) and each group's combination
masks sorted and de-duplicated, exactly as stable-retro stores them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from emucore.enums import Actions
from emucore.libretro._native import ffi, lib


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
    def discrete_size(self) -> int:
        size = 1
        for group in self.groups:
            size *= len(group)
        return size

    def decode(self, action, mode: Actions, players: int) -> list[int]:
        """Per-player button masks (``num_buttons`` bits each) for an action of ``mode``."""
        masks = []
        nb = self.num_buttons
        if mode is Actions.DISCRETE:
            a = int(action)
            for _ in range(players):
                mask = 0
                for group in self.groups:
                    a, digit = divmod(a, len(group))
                    mask |= group[digit]
                masks.append(mask & self.pad_mask)
            return masks
        if mode is Actions.MULTI_DISCRETE:
            # Sliced by group count: stable-retro slices by button count, which breaks player 2.
            choices = np.asarray(action).ravel()
            count = len(self.groups)
            for p in range(players):
                mask = 0
                for i, choice in enumerate(choices[p * count : (p + 1) * count]):
                    mask |= self.groups[i][int(choice)]
                masks.append(mask & self.pad_mask)
            return masks
        flat = np.asarray(action).ravel()
        small = flat.dtype.itemsize == 1 and flat.dtype.kind in "biu"
        if small:
            flat = np.ascontiguousarray(flat)
        for p in range(players):
            part = flat[p * nb : (p + 1) * nb]
            if small:  # the same sum as below, in C
                mask = int(lib.emu_flags_to_mask(ffi.from_buffer(part), part.size, flat.dtype.kind == "i"))
            else:  # stable-retro ORs int(value) << i, so values above 1 set higher bits
                mask = 0
                for i, value in enumerate(part):
                    mask |= int(value) << i
            if mode is Actions.FILTERED:
                mask = self.filter(mask)
            masks.append(mask & self.pad_mask)
        return masks

    def mask_to_array(self, mask: int) -> np.ndarray:
        return np.array([(mask >> i) & 1 for i in range(self.num_buttons)], dtype=np.uint8)
