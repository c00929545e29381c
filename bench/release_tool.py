"""The release build of one of pld's tools, for the benchmarks: the path
an environment variable names, else `cargo build --release` of it."""

import json
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent


def release_tool(name, variable, build=True):
    """`$variable` if set; else the release `name`, built first if `build`."""
    if variable in os.environ:
        return os.environ[variable]
    if build:
        subprocess.run(
            ["cargo", "build", "--quiet", "--release", "-p", "pld-tools", "--bin", name],
            cwd=ROOT,
            check=True,
        )
    metadata = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return str(pathlib.Path(json.loads(metadata)["target_directory"]) / "release" / name)
