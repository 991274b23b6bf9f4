#!/usr/bin/python3
"""synth-ranks.py - a large experiment made from a small real one, for
`make bench`: synth-ranks.py SRC_DIR OUT_DIR RANKS.

Rank i of OUT_DIR is a copy of source rank i mod k (k ranks in SRC_DIR)
renumbered: its rank and size, its pid, and every world rank it names
(mpi_peer, cp_link, cp_edge) moved by i - its source rank, modulo RANKS,
so that a ring of neighbours stays a ring.  Its sample counts (root,
thread, node, cp_seg, cp_prefix) are scaled by a factor drawn per rank
between 0.8 and 1.2 (seeded: the same experiment every time), so that
ranks differ.  Fold points (cp_folds ...) are collective, the same on
every rank, and are copied as they are.
The trailer (length, CRC-32) is written anew (docs/format.md).
"""
import os
import random
import sys
import zlib

src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(f for f in os.listdir(src) if f.endswith(".cpprof"))
if not files:
    sys.exit(f"synth-ranks.py: no .cpprof file in {src}")
bodies = []
for f in files:
    data = open(os.path.join(src, f), "rb").read().decode()
    bodies.append(data[:data.rindex("end ")].splitlines())
src_rank = [int(next(l.split()[1] for l in b if l.startswith("rank "))) for b in bodies]
os.makedirs(out, exist_ok=True)
rng = random.Random(1)


def moved(r, shift):
    return str((int(r) + shift) % n)


def scaled(counts, k):
    return [str(int(round(int(c) * k))) for c in counts]


for i in range(n):
    j = i % len(bodies)
    shift = i - src_rank[j]
    k = rng.uniform(0.8, 1.2)
    lines = []
    for l in bodies[j]:
        w = l.split(" ")
        if w[0] == "rank":
            w[1] = str(i)
        elif w[0] == "size":
            w[1] = str(n)
        elif w[0] == "pid":
            w[1] = str(100000 + i)
        elif w[0] == "mpi_peer":
            w[1] = moved(w[1], shift)
        elif w[0] in ("cp_link", "cp_edge"):
            w[2] = moved(w[2], shift)
        elif w[0] == "root":
            w[1:] = scaled(w[1:], k)
        elif w[0] == "thread":
            w[1] = str(100000 + i)
            w[2:] = scaled(w[2:], k)
        elif w[0] == "node":
            w[4:] = scaled(w[4:], k)
        elif w[0] == "cp_seg":
            w[3:] = scaled(w[3:], k)
        elif w[0] == "cp_prefix":
            w[2:] = scaled(w[2:], k)
        lines.append(" ".join(w))
    body = ("\n".join(lines) + "\n").encode()
    name = f"rank{i:05d}.synth.{100000 + i}.{i:016x}.cpprof"
    with open(os.path.join(out, name), "wb") as f:
        f.write(body + b"end %d %08x\n" % (len(body), zlib.crc32(body)))
