#!/usr/bin/env python3
"""Writes the fuzz target's seed corpus and dictionary.

usage: seed.py CORPUS_DIR DICT_FILE

The corpus is every .mlir input of test/ and examples/, split where
`--split-input-file` would split it, so each seed is one module. The
dictionary holds the dialects' op names and enum keywords, read from the
generated dialect docs and the ODS enum definitions (so it follows the
dialects), the types and syntax pld programs use, and edge integers.
"""

import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

SYNTAX = [
    "!pld.dtensor<", "!pl.tile<", "!ascend.", "tensor<", "memref<",
    "index", "i1", "i8", "i32", "i64", "f16", "bf16", "f32",
    "func.func", "func.call", "return", "scf.for", "scf.if", "scf.while",
    "scf.yield", "arith.constant", "arith.addi", "arith.subi", "arith.muli",
    "arith.divsi", "arith.cmpi", "to", "step", "iter_args", "attributes",
    "pl.kernel", "valid_shape", "deps", "dense<", " : ", "[", "]", "{", "}",
    "(", ")", "<", ">", "%", "@", "^bb0", "// -----",
]

EDGE_INTEGERS = [
    "-9223372036854775808", "9223372036854775807", "2147483647",
    "-2147483648", "4294967296", "-1", "0", "1", "2", "63", "64", "65",
    "16384", "65537",
]


# A module whose shaped types hold more elements than this is a published
# benchmark shape (an 8-rank GEMM of 8192 x 4096 x 4096): every mutation of
# it would run as long as the shape, so it is no seed.
MAX_SEED_ELEMENTS = 1 << 24


def largest_shape(piece):
    largest = 0
    for dims in re.findall(r"<((?:\d+x)+)[a-z]", piece):
        count = 1
        for dim in dims.rstrip("x").split("x"):
            count *= int(dim)
        largest = max(largest, count)
    return largest


def seeds():
    for directory in ("test", "examples"):
        for path in sorted((ROOT / directory).rglob("*.mlir")):
            if "Inputs" in path.parts and "Execution" not in path.parts:
                continue
            for piece in re.split(r"^// -----\s*$", path.read_text(), flags=re.M):
                if largest_shape(piece) > MAX_SEED_ELEMENTS:
                    continue
                if "func" in piece or "pld." in piece or "ascend." in piece:
                    yield piece.strip() + "\n"


def dictionary():
    words = set(SYNTAX) | set(EDGE_INTEGERS)
    for doc in (ROOT / "docs" / "dialects").glob("*.md"):
        words.update(re.findall(r"^### `([a-z_.]+)`", doc.read_text(), flags=re.M))
    for td in (ROOT / "dialect" / "include").rglob("*.td"):
        words.update(re.findall(r'EnumAttrCase<"\w+",\s*-?\d+,\s*"(\w+)"', td.read_text()))
        words.update(re.findall(r'EnumAttrCase<"(\w+)",\s*-?\d+>', td.read_text()))
    return sorted(words)


def main():
    corpus, dict_file = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    corpus.mkdir(parents=True, exist_ok=True)
    count = 0
    for seed in seeds():
        name = hashlib.sha1(seed.encode()).hexdigest()
        (corpus / name).write_text(seed)
        count += 1
    words = dictionary()
    dict_file.write_text("".join(f'"{w.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"\n' for w in words))
    print(f"{count} seeds in {corpus}, {len(words)} dictionary words in {dict_file}")


if __name__ == "__main__":
    main()
