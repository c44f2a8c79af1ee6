"""``simulate --ray ADDRESS`` against a cluster that demands Ray's token (issue #59).

Ray 2.52 brought token authentication and `ray start` turns it on by default from 2.59; a
client sends the token only in token mode, which it reads when ``ray`` is imported. The lab
turns token mode on when a token is at hand and no mode is set (``send_ray_token_if_at_hand``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gettysburg.lab.simulate import RAY_TOKEN_HINT, ray_token_at_hand

TOKEN = "0123456789abcdef" * 4


def test_a_token_is_at_hand_from_the_environment_or_the_default_file(tmp_path: Path) -> None:
    assert ray_token_at_hand({"RAY_AUTH_TOKEN": "x"}, home=tmp_path)
    assert not ray_token_at_hand({}, home=tmp_path)
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("")
    assert not ray_token_at_hand({}, home=tmp_path), "an empty file is no token"
    (tmp_path / ".ray" / "auth_token").write_text(TOKEN)
    assert ray_token_at_hand({}, home=tmp_path)
    elsewhere = tmp_path / "token.txt"
    assert not ray_token_at_hand({"RAY_AUTH_TOKEN_PATH": str(elsewhere)}, home=tmp_path), \
        "a named path wins over the default file, even when it is missing"
    elsewhere.write_text(TOKEN)
    assert ray_token_at_hand({"RAY_AUTH_TOKEN_PATH": str(elsewhere)}, home=tmp_path)


def test_the_hint_names_what_to_set() -> None:
    for name in ("RAY_AUTH_MODE=token", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH",
                 "~/.ray/auth_token"):
        assert name in RAY_TOKEN_HINT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def token_cluster(tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[tuple[str, dict[str, str]]]:
    """A one-CPU `ray start --head` cluster in token mode, its token in a home of its own."""
    ray_bin = shutil.which("ray", path=str(Path(sys.executable).parent))
    if importlib.util.find_spec("ray") is None or ray_bin is None:
        pytest.skip("ray is not installed (optional extra gettysburg[ray])")
    home = tmp_path_factory.mktemp("home")
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text(TOKEN)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["HOME"] = str(home)
    port = _free_port()
    subprocess.run([ray_bin, "start", "--head", f"--port={port}", "--num-cpus=1",
                    "--include-dashboard=false", "--disable-usage-stats"],
                   env={**env, "RAY_AUTH_MODE": "token"}, check=True, capture_output=True,
                   timeout=120)
    try:
        yield f"127.0.0.1:{port}", env
    finally:
        subprocess.run([ray_bin, "stop", "--force"], env=env, capture_output=True, timeout=120)


def _simulate(address: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from gettysburg.cli import app; app()", "simulate",
         "toy/standard", "--games", "2", "--seed", "3", "--ray", address, "--json"],
        env=env, capture_output=True, text=True, timeout=300)


def test_simulate_reaches_a_token_cluster_with_the_token_at_hand(
        token_cluster: tuple[str, dict[str, str]]) -> None:
    """No RAY_AUTH_MODE in the environment: the token in ~/.ray/auth_token is found and sent."""
    address, env = token_cluster
    done = _simulate(address, env)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["games"] == 2 and summary["unfinished"] == 0


def test_simulate_says_what_to_set_when_the_cluster_refuses_it(
        token_cluster: tuple[str, dict[str, str]]) -> None:
    """Token mode turned off by hand: the cluster refuses the client, and the error says what
    to set instead of Ray's bare "failed to connect"."""
    address, env = token_cluster
    done = _simulate(address, {**env, "RAY_AUTH_MODE": "disabled"})
    assert done.returncode == 2
    assert "RAY_AUTH_MODE=token" in done.stdout + done.stderr
