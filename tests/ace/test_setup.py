"""`lit setup` against a local HTTP server (no real network): resume, unpack, integrity."""

from __future__ import annotations

import bz2
import io
import json
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from lit.ace.cache import Cache, load_manifest, platform_key
from lit.ace.config import resolve_config
from lit.ace.setup import download
from lit.cli import main
from lit.errors import ConfigurationError

ACE_BINARY = b"#!/bin/sh\necho 'ACE version 0.9.34'\n"
GRAMMAR = bytes(range(256)) * 4096  # 1 MiB: large enough to be sent in several chunks


def ace_archive() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in (("ace-0.9.34/README", b"ACE"), ("ace-0.9.34/ace", ACE_BINARY)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


class Server:
    """Serves files with Range support; can cut a file's first transfer short."""

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.cut_first: set[str] = set()
        self.requests: list[tuple[str, str | None]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                rng = self.headers.get("Range")
                server.requests.append((self.path, rng))
                data = server.files.get(self.path)
                if data is None:
                    self.send_error(404)
                    return
                start = int(rng.split("=")[1].split("-")[0]) if rng else 0
                if start >= len(data):
                    self.send_error(416)
                    return
                self.send_response(206 if rng else 200)
                if rng:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.send_header("Content-Length", str(len(data) - start))
                self.end_headers()
                body = data[start:]
                if self.path in server.cut_first:
                    server.cut_first.discard(self.path)
                    body = body[: len(body) // 3]  # then the connection drops
                    self.close_connection = True
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server({
        "/ace-0.9.34-x86-64.tar.gz": ace_archive(),
        "/erg-2025-x86-64-0.9.34.dat.bz2": bz2.compress(GRAMMAR),
        "/erg-2018-x86-64-0.9.34.dat.bz2": bz2.compress(GRAMMAR[::-1]),
    })
    yield s
    s.close()


def local_manifest(tmp_path: Path, base: str) -> Path:
    """The shipped manifest with every URL pointed at *base*."""
    manifest = load_manifest()
    data = {
        "ace": {"version": manifest.ace_version, "builds": {
            platform_key(): {"url": f"{base}/ace-0.9.34-x86-64.tar.gz", "member": "ace-0.9.34/ace"}
        }},
        "default_grammar": manifest.default_grammar,
        "grammars": {v: {"url": f"{base}/{Path(u).name}"} for v, u in manifest.grammars.items()},
    }
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(data))
    return path


def test_shipped_manifest_has_the_issue_urls():
    manifest = load_manifest()
    assert manifest.default_grammar == "2025"
    assert manifest.grammars["2025"] == (
        "https://github.com/delph-in/erg/releases/download/2025/erg-2025-x86-64-0.9.34.dat.bz2")
    assert manifest.grammars["2018"].endswith("/ace/download/erg-2018-x86-64-0.9.34.dat.bz2")
    assert manifest.grammars["1214"].endswith("/ace/download/erg-1214-x86-64-0.9.34.dat.bz2")
    assert manifest.ace_builds["linux-x86_64"].url.endswith("ace-0.9.34-x86-64.tar.gz")
    assert "darwin-x86_64" in manifest.ace_builds


def test_setup_downloads_unpacks_records_and_is_then_discovered(env, server, capsys):
    manifest = local_manifest(env, server.url)
    assert main(["setup", "--manifest", str(manifest), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ACE 0.9.34" in out and "ERG 2025" in out and "downloaded from" in out
    cache = Cache()
    assert cache.grammar_path("2025").read_bytes() == GRAMMAR
    assert cache.ace_path("0.9.34").read_bytes() == ACE_BINARY
    assert not list(cache.downloads.iterdir())  # archives removed once unpacked
    config = resolve_config()
    assert (config.ace, config.grammar, config.grammar_version) == (
        cache.ace_path("0.9.34"), cache.grammar_path("2025"), "2025")
    # a second run downloads nothing and verifies what is there
    count = len(server.requests)
    assert main(["setup", "--manifest", str(manifest), "--no-progress"]) == 0
    assert "already installed (verified)" in capsys.readouterr().out
    assert len(server.requests) == count


def test_interrupted_download_resumes_with_a_range_request(env, server):
    server.cut_first.add("/erg-2025-x86-64-0.9.34.dat.bz2")
    dest = env / "dl" / "erg.dat.bz2"
    download(f"{server.url}/erg-2025-x86-64-0.9.34.dat.bz2", dest, progress=False)
    assert bz2.decompress(dest.read_bytes()) == GRAMMAR
    ranges = [r for p, r in server.requests if p.endswith("2025-x86-64-0.9.34.dat.bz2")]
    assert ranges[0] is None and ranges[1].startswith("bytes=") and ranges[1] != "bytes=0-"


def test_partial_file_from_an_earlier_run_is_resumed(env, server):
    url = f"{server.url}/erg-2018-x86-64-0.9.34.dat.bz2"
    data = server.files["/erg-2018-x86-64-0.9.34.dat.bz2"]
    dest = env / "dl" / "erg-2018.dat.bz2"
    dest.parent.mkdir()
    dest.with_name(dest.name + ".part").write_bytes(data[:1000])
    download(url, dest, progress=False)
    assert dest.read_bytes() == data
    assert server.requests == [("/erg-2018-x86-64-0.9.34.dat.bz2", "bytes=1000-")]


def test_tampered_install_is_caught(env, server, capsys):
    manifest = local_manifest(env, server.url)
    args = ["setup", "--manifest", str(manifest), "--no-progress", "--grammar-version", "2018"]
    assert main(args) == 0
    image = Cache().grammar_path("2018")
    image.write_bytes(image.read_bytes()[:-1] + b"!")
    capsys.readouterr()
    assert main(args) == 2
    assert "has changed since it was installed" in capsys.readouterr().err
    with pytest.raises(ConfigurationError, match="lit setup --force"):
        resolve_config()
    assert main([*args, "--force"]) == 0  # reinstall repairs it
    assert resolve_config().grammar_version == "2018"


def test_offline_fails_fast_with_one_clear_message(env, capsys):
    dead = Server({})
    dead.close()  # nothing listens there any more
    manifest = local_manifest(env, dead.url)
    assert main(["setup", "--manifest", str(manifest), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    hints = ("cannot download", "lit setup --from DIR", "--ace/--grammar", "LIT_ACE/LIT_GRAMMAR")
    for hint in hints:
        assert hint in err


def test_install_from_a_directory(env, tmp_path, capsys):
    archives = tmp_path / "archives"
    archives.mkdir()
    (archives / "ace-0.9.34-x86-64.tar.gz").write_bytes(ace_archive())
    (archives / "erg-2025-x86-64-0.9.34.dat.bz2").write_bytes(bz2.compress(GRAMMAR))
    (archives / "erg-2031-x86-64-0.9.34.dat").write_bytes(b"a future ERG")
    assert main(["setup", "--from", str(archives), "--no-progress"]) == 0
    assert "installed from" in capsys.readouterr().out
    assert resolve_config().grammar == Cache().grammar_path("2025")
    # a version the manifest does not know, only from the user's own files
    assert main(["setup", "--from", str(archives), "--grammar-version", "2031", "--no-ace"]) == 0
    assert resolve_config(grammar_version="2031").grammar.read_bytes() == b"a future ERG"
    assert main(["setup", "--grammar-version", "2031", "--no-ace", "--force"]) == 2
    assert "knows no download for ERG 2031" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["setup", "--from", str(empty), "--grammar-version", "2018", "--no-ace"]) == 2
    assert "holds no ERG 2018 file" in capsys.readouterr().err


def test_install_from_a_directory_keeps_the_users_ace_version(env, tmp_path, capsys):
    """An ACE archive of another version than the manifest's (the rig's ace-0.9.30 tarball)
    is installed under its own version and recorded with its own SHA-256, not as 0.9.34."""
    archives = tmp_path / "archives"
    archives.mkdir()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("ace-0.9.30/ace")
        info.size = len(ACE_BINARY)
        tar.addfile(info, io.BytesIO(ACE_BINARY))
    (archives / "ace-0.9.30-linux-64.tar.gz").write_bytes(buf.getvalue())
    (archives / "erg-2025-x86-64-0.9.30.dat").write_bytes(GRAMMAR)
    assert main(["setup", "--from", str(archives), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ACE 0.9.30:" in out and "ACE 0.9.34" not in out
    cache = Cache()
    assert cache.ace_path("0.9.30").read_bytes() == ACE_BINARY
    assert not cache.ace_path("0.9.34").exists()
    assert cache.recorded(cache.ace_path("0.9.30"))["source"].endswith("ace-0.9.30-linux-64.tar.gz")
    assert resolve_config().ace == cache.ace_path("0.9.30")
    # a second run verifies what is installed instead of installing again
    assert main(["setup", "--from", str(archives), "--no-progress"]) == 0
    assert "ACE 0.9.30: " in capsys.readouterr().out


def test_list_shows_known_and_installed_versions(env, capsys):
    assert main(["setup", "--list"]) == 0
    out = capsys.readouterr().out
    assert "ERG 2025 (default): not installed" in out and "ERG 1214" in out


def test_a_configured_ace_and_grammar_are_checked_not_downloaded(env, monkeypatch,
                                                                 fake_ace_config, capsys):
    """Off-line (a manifest whose server is gone) with LIT_ACE and LIT_GRAMMAR exported:
    setup checks them, records their hashes and exits 0; --force still tries to download."""
    dead = Server({})
    dead.close()
    manifest = local_manifest(env, dead.url)
    monkeypatch.setenv("LIT_ACE", str(fake_ace_config.ace))
    monkeypatch.setenv("LIT_GRAMMAR", str(fake_ace_config.grammar))
    assert main(["setup", "--manifest", str(manifest), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"{fake_ace_config.grammar} (from LIT_GRAMMAR)" in out and "Nothing downloaded" in out
    cache = Cache()
    for path in (fake_ace_config.ace, fake_ace_config.grammar):
        assert cache.recorded(path)["source"].startswith("configured (LIT_")
    assert main(["setup", "--manifest", str(manifest), "--no-progress", "--force"]) == 2
    assert "cannot download" in capsys.readouterr().err


def test_a_configured_grammar_that_does_not_work_is_said_and_nothing_is_downloaded(
        env, monkeypatch, fake_ace_config, tmp_path, capsys):
    broken = tmp_path / "not-ace"
    broken.write_text("#!/bin/sh\nexit 3\n")
    broken.chmod(0o755)
    monkeypatch.setenv("LIT_GRAMMAR", str(fake_ace_config.grammar))
    assert main(["setup", "--ace", str(broken), "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert f"ACE ({broken}, from --ace)" in out and "what to do" in out
    assert not Cache().installed_aces() and not Cache().installed_grammars()


def test_a_configured_grammar_that_is_not_there_is_an_error_not_a_download(env, monkeypatch,
                                                                          tmp_path, capsys):
    monkeypatch.setenv("LIT_GRAMMAR", str(tmp_path / "gone.dat"))
    assert main(["setup", "--no-progress"]) == 2
    assert f"LIT_GRAMMAR does not exist: {tmp_path / 'gone.dat'}" in capsys.readouterr().err
    assert not Cache().installed_aces() and not Cache().installed_grammars()
