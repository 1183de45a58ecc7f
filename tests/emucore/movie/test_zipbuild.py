"""Archives of entries deflated beforehand (and as they grow) are byte for byte zipfile's."""

from __future__ import annotations

import io
import random
import zipfile

from emucore.movie.bk2 import build_archive
from emucore.movie.zipbuild import GrowingEntry, deflate, zip_archive


def test_a_growing_entry_gives_the_bytes_zipfile_writes() -> None:
    rng = random.Random(1)
    lines = ["|..|" + "".join(rng.choice("UDLRAB..") for _ in range(8)) + "|\n" for _ in range(20000)]
    log = GrowingEntry("Input Log.txt")
    log.append(b"[Input]\n")
    done = 0
    while done < len(lines):  # appended in uneven pieces, snapshots taken in between
        count = rng.randint(1, 3000)
        log.append("".join(lines[done : done + count]).encode())
        done += count
        if rng.random() < 0.5:
            log.entry(b"[/Input]")
    core = rng.randbytes(2000) + bytes(50000)
    when = 1.7e9
    header = b"GameName x\n"
    ours = zip_archive([log.entry(b"[/Input]"), deflate("Header.txt", header), deflate("Core.bin", core)], when)
    text = ("[Input]\n" + "".join(lines) + "[/Input]").encode()
    assert ours == build_archive([("Input Log.txt", text), ("Header.txt", header), ("Core.bin", core)], when)
    with zipfile.ZipFile(io.BytesIO(ours)) as archive:
        assert archive.testzip() is None and archive.read("Input Log.txt") == text
