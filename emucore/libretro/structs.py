"""Plain-Python copies of libretro structures, taken while the core's pointers are valid."""

from __future__ import annotations

from dataclasses import dataclass

MEMDESC_CONST = 1 << 0
MEMDESC_BIGENDIAN = 1 << 1

MEMORY_SAVE_RAM = 0
MEMORY_RTC = 1
MEMORY_SYSTEM_RAM = 2
MEMORY_VIDEO_RAM = 3

MEMORY_REGION_NAMES = {
    MEMORY_SAVE_RAM: "save_ram",
    MEMORY_RTC: "rtc",
    MEMORY_SYSTEM_RAM: "system_ram",
    MEMORY_VIDEO_RAM: "video_ram",
}

DEVICE_JOYPAD = 1

PIXEL_FORMAT_NAMES = {0: "0RGB1555", 1: "XRGB8888", 2: "RGB565"}


@dataclass(frozen=True)
class SystemInfo:
    library_name: str
    library_version: str
    valid_extensions: tuple[str, ...]
    need_fullpath: bool
    block_extract: bool


@dataclass(frozen=True)
class Geometry:
    base_width: int
    base_height: int
    max_width: int
    max_height: int
    aspect_ratio: float


@dataclass(frozen=True)
class Timing:
    fps: float
    sample_rate: float


@dataclass(frozen=True)
class MemoryDescriptor:
    """One SET_MEMORY_MAPS entry; ``ptr`` is an address inside the core."""

    flags: int
    ptr: int
    offset: int
    start: int
    select: int
    disconnect: int
    length: int
    addrspace: str | None

    @property
    def is_const(self) -> bool:
        return bool(self.flags & MEMDESC_CONST)

    @property
    def view_length(self) -> int:
        """stable-retro's block length rule: from ``select`` when set, capped by ``length``."""
        if self.select:
            mask = (1 << 64) - 1
            length = (((~self.select & mask) & (~self.start & mask)) + 1) & self.select & mask
            if self.length and self.length < length:
                length = self.length
            return length
        return self.length


@dataclass(frozen=True)
class InputDescriptor:
    port: int
    device: int
    index: int
    id: int
    description: str


@dataclass(frozen=True)
class ControllerType:
    description: str
    id: int
