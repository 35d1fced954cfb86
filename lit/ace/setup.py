"""Installing ACE and ERG grammar images into LIT's cache: download, resume, unpack, record.

Downloads use only the standard library (urllib) and resume: an interrupted transfer leaves
``<archive>.part`` in the cache, and the next attempt asks for the rest with an HTTP Range
request (a server that ignores Range just sends the whole file again). A dropped connection is
retried a few times while it makes progress. Offline, the first failed connection stops
everything with one message saying how to use files the user already has.
"""

from __future__ import annotations

import bz2
import http.client
import os
import re
import shutil
import socket
import sys
import tarfile
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lit.ace.cache import Cache, Manifest, load_manifest, platform_key
from lit.ace.config import locate_ace, locate_grammar, user_set
from lit.errors import ConfigurationError

CHUNK = 1 << 16
RETRIES = 3


class OfflineError(ConfigurationError):
    """A download could not even start (no network, host unreachable, HTTP error)."""


@dataclass(frozen=True)
class Installed:
    what: str  # "ACE 0.9.34", "ERG 2025"
    path: Path
    sha256: str
    action: str  # "downloaded", "installed from DIR", "already installed (verified)"


def offline_hint(manifest: Manifest, version: str) -> str:
    ace = manifest.ace_builds.get(platform_key())
    names = [Path(ace.url).name] if ace else []
    if version in manifest.grammars:
        names.append(Path(manifest.grammars[version]).name)
    files = " and ".join(names) or "the ACE archive and the grammar image"
    return (
        f"if you already have the files, run `lit setup --from DIR` with DIR holding {files}, "
        "or point LIT at an ace executable and a grammar image with --ace/--grammar or the "
        "LIT_ACE/LIT_GRAMMAR environment variables; meanwhile `lit demo` runs LIT on recorded "
        "(replayed) ACE answers with no download"
    )


def download(
    url: str, dest: Path, *, progress: bool = True, timeout: float = 30.0, hint: str = ""
) -> Path:
    """Fetch *url* to *dest*, resuming from ``dest.part``; return *dest*."""
    from tqdm import tqdm

    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    attempts = 0
    while True:
        have = part.stat().st_size if part.exists() else 0
        request = urllib.request.Request(url, headers={"User-Agent": "lit-setup"})
        if have:
            request.add_header("Range", f"bytes={have}-")
        try:
            response = urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and have:  # the partial file is already complete
                break
            raise OfflineError(
                f"cannot download {url}: HTTP {exc.code} {exc.reason}; {hint}"
            ) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise OfflineError(f"cannot download {url} ({reason}); {hint}") from None
        with response:
            resumed = have if response.status == 206 else 0
            length = response.headers.get("Content-Length")
            total = resumed + int(length) if length is not None else None
            mode = "ab" if resumed else "wb"
            got = resumed
            with open(part, mode) as out, tqdm(
                total=total, initial=resumed, unit="B", unit_scale=True, unit_divisor=1024,
                desc=dest.name, disable=not progress, leave=False,
            ) as bar:
                while True:
                    try:
                        chunk = response.read(CHUNK)
                    except (http.client.IncompleteRead, ConnectionError, socket.timeout):
                        break  # keep what arrived; resume below
                    if not chunk:
                        break
                    out.write(chunk)
                    got += len(chunk)
                    bar.update(len(chunk))
        if total is None or got >= total:
            break
        attempts += 1
        if attempts > RETRIES or got == have:
            raise ConfigurationError(
                f"download of {url} was interrupted after {got} of {total} bytes; run "
                f"`lit setup` again to resume (partial file: {part})"
            )
    os.replace(part, dest)
    return dest


def _find(directory: Path, names: list[str], patterns: list[str]) -> Path | None:
    for name in names:
        if (directory / name).is_file():
            return directory / name
    for pattern in patterns:
        found = sorted(p for p in directory.glob(pattern) if p.is_file())
        if found:
            return found[-1]
    return None


def _archive_ace_version(archive: Path) -> str | None:
    """The ACE version an archive names (``ace-0.9.30-linux-64.tar.gz``, or its member
    ``ace-0.9.30/ace``); None for a bare executable or an archive that names none."""
    m = re.match(r"ace-(\d+(?:\.\d+)+)", archive.name)
    if m is None and tarfile.is_tarfile(archive):
        with tarfile.open(archive) as tar:
            m = next((m for m in (re.fullmatch(r"(?:.*/)?ace-(\d+(?:\.\d+)+)/ace", n)
                                  for n in tar.getnames()) if m), None)
    return m.group(1) if m else None


def _unpack_ace(archive: Path, dest: Path, member: str) -> None:
    tmp = dest.with_name(dest.name + ".tmp")
    if tarfile.is_tarfile(archive):
        with tarfile.open(archive) as tar:
            names = {m.name: m for m in tar.getmembers() if m.isfile()}
            info = names.get(member) or next(
                (m for name, m in sorted(names.items()) if Path(name).name == "ace"), None
            )
            if info is None:
                raise ConfigurationError(f"{archive} holds no `ace` executable")
            source = tar.extractfile(info)
            assert source is not None
            with source, open(tmp, "wb") as out:
                shutil.copyfileobj(source, out, CHUNK)
    else:  # a bare executable
        shutil.copyfile(archive, tmp)
    tmp.chmod(0o755)
    os.replace(tmp, dest)


def _unpack_grammar(archive: Path, dest: Path) -> None:
    tmp = dest.with_name(dest.name + ".tmp")
    opener: Callable = bz2.open if archive.name.endswith(".bz2") else open
    try:
        with opener(archive, "rb") as source, open(tmp, "wb") as out:
            shutil.copyfileobj(source, out, CHUNK)
    except (OSError, EOFError) as exc:
        tmp.unlink(missing_ok=True)
        raise ConfigurationError(f"cannot decompress {archive}: {exc}") from None
    os.replace(tmp, dest)


@dataclass(frozen=True)
class _Artifact:
    """What `lit setup` installs (*what*, named in messages) and where it may come from: a
    download *url* (None: none known; *hint* says how to work offline), or a file of the
    user's folder named one of *names* or matching one of *patterns*, made usable by
    *unpack* (archive, destination)."""

    what: str
    url: str | None
    names: list[str]
    patterns: list[str]
    unpack: Callable[[Path, Path], None]
    hint: str


def _install(artifact: _Artifact, dest: Path, cache: Cache, *, from_dir: Path | None,
             force: bool, progress: bool) -> Installed:
    """*artifact* at *dest* (verified if already there, unless *force*), from *from_dir* or
    downloaded, and recorded in *cache* with its digest."""
    what, url, names, patterns, unpack = (artifact.what, artifact.url, artifact.names,
                                          artifact.patterns, artifact.unpack)
    if dest.exists() and not force:
        cache.verify(dest)
        return Installed(what, dest, cache.recorded(dest)["sha256"], "already installed (verified)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    if from_dir is not None:
        archive = _find(from_dir, names, patterns)
        if archive is None:
            wanted = " or ".join(names + patterns)
            raise ConfigurationError(f"{from_dir} holds no {what} file ({wanted})")
        unpack(archive, dest)
        action, source = f"installed from {archive}", str(archive)
    else:
        if url is None:
            raise ConfigurationError(
                f"LIT knows no download for {what}; install it from your own files with "
                "`lit setup --from DIR`, or point LIT at it with --grammar/LIT_GRAMMAR"
            )
        archive = download(url, cache.downloads / Path(url).name, progress=progress,
                           hint=artifact.hint)
        unpack(archive, dest)
        archive.unlink()  # the unpacked file is what we keep (and check)
        action, source = f"downloaded from {url}", url
    digest = cache.record(dest, source)
    return Installed(what, dest, digest, action)


def install_ace(
    cache: Cache | None = None,
    manifest: Manifest | None = None,
    *,
    from_dir: Path | None = None,
    force: bool = False,
    progress: bool = True,
    grammar_version: str | None = None,
) -> Installed:
    cache = cache or Cache()
    manifest = manifest or load_manifest()
    build = manifest.ace_builds.get(platform_key())
    if build is None and from_dir is None:
        raise ConfigurationError(
            f"no ACE {manifest.ace_version} build for {platform_key()} is known; build ACE "
            "yourself and point LIT at it with --ace or LIT_ACE, or use `lit setup --from DIR`"
        )
    if build and build.note and progress:
        print(f"ACE for {platform_key()}: {build.note}", file=sys.stderr)
    names = [Path(build.url).name] if build else []
    names, patterns = names + ["ace"], ["ace-*.tar.gz", "ace-*.tgz"]
    version = manifest.ace_version
    if from_dir is not None:  # the user's own archive: installed and recorded as what it is
        archive = _find(from_dir, names, patterns)
        version = (_archive_ace_version(archive) if archive else None) or version
    artifact = _Artifact(
        f"ACE {version}", build.url if build else None, names, patterns,
        lambda a, d: _unpack_ace(a, d, build.member if build else "ace"),
        offline_hint(manifest, grammar_version or manifest.default_grammar))
    return _install(artifact, cache.ace_path(version), cache, from_dir=from_dir, force=force,
                    progress=progress)


def install_grammar(
    version: str | None = None,
    cache: Cache | None = None,
    manifest: Manifest | None = None,
    *,
    from_dir: Path | None = None,
    force: bool = False,
    progress: bool = True,
) -> Installed:
    cache = cache or Cache()
    manifest = manifest or load_manifest()
    version = version or manifest.default_grammar
    url = manifest.grammars.get(version)
    names = [Path(url).name, Path(url).name.removesuffix(".bz2")] if url else []
    artifact = _Artifact(f"ERG {version}", url, names,
                         [f"erg-{version}*.dat.bz2", f"erg-{version}*.dat"], _unpack_grammar,
                         offline_hint(manifest, version))
    return _install(artifact, cache.grammar_path(version), cache, from_dir=from_dir,
                    force=force, progress=progress)


@dataclass(frozen=True)
class Configured:
    """An ACE and a grammar image the user pointed LIT at, and where each was found."""

    ace: Path
    ace_source: str
    grammar: Path
    grammar_source: str
    grammar_version: str | None


def configured(ace: str | None, grammar: str | None, grammar_version: str | None,
               cache: Cache) -> Configured | None:
    """The user's own grammar image (--grammar, LIT_GRAMMAR, config file) and the ACE LIT
    finds beside it; None when no image is named, or no ACE is found anywhere (then there is
    something to install). A named image or ACE that is not there is a ConfigurationError
    saying which: installing LIT's own would not change what LIT uses."""
    if not user_set(grammar, "LIT_GRAMMAR", "grammar"):
        return None
    grammar_path, version, grammar_source = locate_grammar(grammar, grammar_version, cache=cache)
    try:
        ace_path, ace_source = locate_ace(ace, cache=cache)
    except ConfigurationError:
        if user_set(ace, "LIT_ACE", "ace"):
            raise
        return None
    return Configured(ace_path, ace_source, grammar_path, grammar_source, version)


def check_configured(found: Configured, cache: Cache) -> int:
    """`lit setup` with an ACE and grammar of the user's: check that they parse and generate
    (lit.ace.doctor), record their SHA-256 in the cache's integrity record and say so (0), or
    say what is wrong (1). Nothing is downloaded."""
    from lit.ace.doctor import diagnose

    checks = diagnose(found.ace, found.grammar, found.grammar_version)
    failed = [c for c in checks if c.ok is False]
    if failed or not any(c.name == "parse and generate" and c.ok for c in checks):
        print(f"lit setup: the ACE ({found.ace}, from {found.ace_source}) and grammar image "
              f"({found.grammar}, from {found.grammar_source}) LIT is pointed at do not work:")
        for c in failed:
            print(f"  {c.name}: {c.detail}" + (f"\n    what to do: {c.fix}" if c.fix else ""))
        print("Fix them, or stop pointing LIT at them (unset LIT_ACE/LIT_GRAMMAR, edit the "
              "config file) and run `lit setup` again; `lit setup --force` downloads LIT's own "
              "ACE and grammar, though yours stay the ones LIT uses while they are set.")
        return 1
    for what, path, source in (("ACE", found.ace, found.ace_source),
                               ("grammar", found.grammar, found.grammar_source)):
        digest = cache.record(path, f"configured ({source})")
        print(f"{what}: {path} (from {source}), sha256 {digest[:12]}… recorded")
    print(next(f"{c.name}: {c.detail}" for c in checks if c.name == "parse and generate"))
    print("Nothing downloaded: LIT uses the ACE and grammar you configured, and they work. "
          "`lit setup --force` downloads LIT's own anyway.")
    return 0
