"""Shared fixtures: the repository root and the `yomi` command-line tool to compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `yomi` binary: `$YOMI_CLI` if set (.ci/python.sh sets it), else built here with
    cargo's test profile (optimised, and what `cargo test --workspace` has already built)."""
    path = os.environ.get("YOMI_CLI")
    if path:
        cli = Path(path)
        assert cli.is_file(), f"YOMI_CLI={path} is not a file"
        return cli
    subprocess.run(["cargo", "build", "--quiet", "--profile", "test", "-p", "yomi-cli"], cwd=ROOT, check=True)
    meta = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return Path(json.loads(meta.stdout)["target_directory"]) / "debug" / "yomi"


def run_cli(cli: Path, *args: str) -> str:
    """Runs the CLI and returns its standard output (it must succeed)."""
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout
