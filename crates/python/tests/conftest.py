"""Shared fixtures: the repository root and the `yomi` command-line tool to compare with."""

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
    """The `yomi` binary: `$YOMI_CLI` if set (.ci/python.sh sets it), else the one `cargo test
    --workspace` builds (`cli_path.sh`: nothing to build after that command)."""
    path = os.environ.get("YOMI_CLI")
    if not path:
        done = subprocess.run(
            [str(Path(__file__).with_name("cli_path.sh"))], check=True, capture_output=True, text=True
        )
        path = done.stdout.strip()
    cli = Path(path)
    assert cli.is_file(), f"{path} is not a file"
    return cli


def run_cli(cli: Path, *args: str) -> str:
    """Runs the CLI and returns its standard output (it must succeed)."""
    done = subprocess.run([str(cli), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout
