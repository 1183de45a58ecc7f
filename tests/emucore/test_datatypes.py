"""Type strings decode and encode exactly as integration-format.md §4 defines (stable-retro's parser)."""

import pytest

from emucore.datatypes import InvalidTypeError, is_well_formed, parse_type

BYTES = bytes.fromhex("123456789ABCDEF0")


@pytest.mark.parametrize(
    "type_text, value",
    [
        ("|u1", 0x12),
        (">u2", 0x1234),
        ("<u2", 0x3412),
        ("=u2", 0x3412),
        ("|u2", 0x3412),
        (">u3", 0x123456),
        ("<u3", 0x563412),
        (">u4", 0x12345678),
        ("<u4", 0x78563412),
        ("=u4", 0x78563412),
        ("<=u4", 0x78563412),
        ("><u4", 0x34127856),
        (">=u4", 0x34127856),
        ("<>u4", 0x56781234),
        (">u8", 0x123456789ABCDEF0),
        (">d2", 1234),
        (">d4", 12345678),
        ("|d1", 12),
        (">n4", 2468),
        ("<n4", 8642),
        ("|n1", 2),
    ],
)
def test_documented_examples(type_text, value):
    dtype = parse_type(type_text)
    assert dtype.decode(BYTES[: dtype.width]) == value


def test_bcd_invalid_nibbles_read_mod_10():
    assert parse_type(">d4").decode(bytes.fromhex("3456789A")) == 34567890
    assert parse_type(">d2").decode(bytes.fromhex("ABFF")) == 155


def test_signed_and_wrapping():
    assert parse_type(">i2").decode(bytes.fromhex("FFFE")) == -2
    assert parse_type("|i1").decode(b"\xff") == -1
    assert parse_type(">u8").decode(b"\xff" * 8) == -1  # wraps like int64
    assert parse_type(">d2").decode(b"\x99\x99") == 9999  # BCD is never negative


def test_mask_is_anded_not_shifted():
    assert parse_type("|u1").decode(b"\xf3", mask=2) == 2
    assert parse_type("|u1").decode(b"\xf0", mask=240) == 240


def test_unknown_kind_acts_as_unsigned():
    assert parse_type(">x2").decode(b"\x12\x34") == 0x1234


def test_width_zero_reads_zero():
    assert parse_type(">u0").decode(b"") == 0


@pytest.mark.parametrize(
    "type_text, value, encoded",
    [
        (">d4", 12345678, "12345678"),
        (">n4", 1234, "01020304"),
        (">i2", -2, "FFFE"),
        ("<u2", 0x1234, "3412"),
        ("><u4", 0x34127856, "12345678"),
        ("<>u4", 0x56781234, "12345678"),
        (">u2", 0x12345, "2345"),  # the value is taken modulo 256**width
    ],
)
def test_encode(type_text, value, encoded):
    assert parse_type(type_text).encode(value) == bytes.fromhex(encoded)


@pytest.mark.parametrize("type_text", ["|u1", ">u2", "<d4", "><u4", ">n6", "<>i4", ">=d8", "|d1"])
def test_round_trip(type_text):
    dtype = parse_type(type_text)
    for value in (0, 1, 7, 42, 99):
        assert dtype.decode(dtype.encode(value)) == value


@pytest.mark.parametrize("bad", ["u1", "", ">u9", ">uX"])
def test_rejected_types(bad):
    with pytest.raises(InvalidTypeError):
        parse_type(bad)


def test_well_formedness_matches_the_verifier_regex():
    assert is_well_formed("|u1") and is_well_formed(">u2") and is_well_formed("=<d4")
    assert not is_well_formed("|u2") and not is_well_formed(">u1") and not is_well_formed("?u2")
