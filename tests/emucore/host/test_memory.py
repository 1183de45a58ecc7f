"""The address space: block lookup, the Genesis overlay, block ends and writes."""

import numpy as np
import pytest

from emucore.host.memory import AddressSpace, Block
from emucore.libretro.structs import MemoryDescriptor


def genesis_space(raw: bytes) -> AddressSpace:
    data = np.frombuffer(bytearray(raw), dtype=np.uint8)
    return AddressSpace([Block(0xFF0000, data)], ("=", ">", 2))


def test_overlay_swaps_byte_pairs():
    space = genesis_space(bytes.fromhex("34127856") + bytes(12))
    assert space.read(0xFF0000, ">u4") == 0x12345678
    assert space.read(0xFF0001, "|u1") == 0x34
    assert space.read(0xFF0001, ">u2") == 0x3456  # unaligned reads cross word groups


def test_overlay_write_keeps_neighbours():
    space = genesis_space(bytes(8))
    space.write(0xFF0001, ">u2", 0xABCD)
    assert space.blocks[0].data[:4].tobytes() == bytes.fromhex("AB0000CD")
    assert space.read(0xFF0000, ">u4") == 0x00ABCD00


def test_get_ram_is_raw_and_ordered():
    a = Block(0x400, np.arange(4, dtype=np.uint8))
    b = Block(0x0, np.arange(10, 14, dtype=np.uint8))
    space = AddressSpace([a, b])
    assert space.get_ram().tolist() == [10, 11, 12, 13, 0, 1, 2, 3]
    assert list(space.block_bytes()) == [0x0, 0x400]


def test_unmapped_address_raises():
    space = AddressSpace([Block(0x100, np.zeros(4, dtype=np.uint8))])
    for address in (0x0, 0x104, 0x9999):
        with pytest.raises(IndexError, match="No known mapping"):
            space.read(address, "|u1")
    assert not space.is_mapped(0x104) and space.is_mapped(0x103)


def test_read_past_block_end_continues_into_a_contiguous_block():
    space = AddressSpace([Block(0x0, np.full(4, 0x11, np.uint8)), Block(0x4, np.full(4, 0x22, np.uint8))])
    assert space.read(0x3, ">u2") == 0x1122


def test_read_past_block_end_with_a_gap_reads_zero():
    space = AddressSpace([Block(0x0, np.full(4, 0x11, np.uint8)), Block(0x10, np.full(4, 0x22, np.uint8))])
    assert space.read(0x3, ">u2") == 0x1100


def test_masked_read():
    space = AddressSpace([Block(0x80, np.array([0xF7], np.uint8))])
    assert space.read(0x80, "|u1", 240) == 0xF0
    assert space[{"address": 0x80, "type": "|u1", "mask": 15}] == 7


def test_descriptor_length_from_select():
    desc = MemoryDescriptor(0, 1, 0, 0x7E0000, 0xFE0000, 0, 0x20000, None)
    assert desc.view_length == 0x20000
    capped = MemoryDescriptor(0, 1, 0, 0x6000, 0xE000, 0, 0x400, None)
    assert capped.view_length == 0x400
    plain = MemoryDescriptor(0, 1, 0, 0x0, 0, 0, 0x800, None)
    assert plain.view_length == 0x800
