"""Where LIT keeps ACE and grammar images, the manifest of known versions, and integrity records.

Layout of the cache (``LIT_CACHE_DIR``, else the platformdirs user cache dir for ``lit``)::

    ace-0.9.34/ace              the ACE executable
    grammars/erg-2025.dat       decompressed grammar images, one per version
    downloads/                  archives, kept so an interrupted download can resume
    integrity.json              SHA-256 of every installed file, taken when it was installed

No checksums are published for ACE or the ERG images, so the first download is trusted and
every later use is checked against the record (a changed file is refused, not silently used).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path

import platformdirs

from lit.config import cache_dir
from lit.errors import ConfigurationError

GRAMMAR_VERSIONS_HINT = "see `lit setup --list`"


def config_file() -> Path:
    """The user config file (``LIT_CONFIG``, else ``<user config dir>/lit/config.toml``)."""
    default = Path(platformdirs.user_config_dir("lit", False)) / "config.toml"
    return Path(os.environ.get("LIT_CONFIG") or default)


@dataclass(frozen=True)
class AceBuild:
    url: str
    member: str  # path of the executable inside the archive
    note: str = ""  # how this build runs here (e.g. under Rosetta 2), shown by setup and doctor


@dataclass(frozen=True)
class Manifest:
    ace_version: str
    ace_builds: dict[str, AceBuild]
    default_grammar: str
    grammars: dict[str, str]  # version -> URL of the compressed image
    descriptions: dict[str, str]


def load_manifest(path: Path | None = None) -> Manifest:
    """The grammar manifest shipped in the package (``lit/ace/grammars.json``) or *path*."""
    try:
        if path is None:
            text = resources.files("lit.ace").joinpath("grammars.json").read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        data = json.loads(text)
        return Manifest(
            ace_version=data["ace"]["version"],
            ace_builds={
                k: AceBuild(v["url"], v["member"], v.get("note", ""))
                for k, v in data["ace"]["builds"].items()
            },
            default_grammar=data["default_grammar"],
            grammars={k: v["url"] for k, v in data["grammars"].items()},
            descriptions={k: v.get("description", "") for k, v in data["grammars"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigurationError(
            f"cannot read grammar manifest {path or 'grammars.json'}: {exc}"
        ) from None


def platform_key() -> str:
    """``linux-x86_64``, ``darwin-x86_64``, ``darwin-arm64`` ... as used in the manifest."""
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "x64": "x86_64"}.get(machine, machine)
    return f"{platform.system().lower()}-{machine}"


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Cache:
    """The per-user store of ACE binaries and grammar images."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root else cache_dir()

    def ace_path(self, version: str) -> Path:
        return self.root / f"ace-{version}" / "ace"

    def grammar_path(self, version: str) -> Path:
        return self.root / "grammars" / f"erg-{version}.dat"

    @property
    def downloads(self) -> Path:
        return self.root / "downloads"

    @property
    def integrity_file(self) -> Path:
        return self.root / "integrity.json"

    def installed_grammars(self) -> dict[str, Path]:
        found = sorted((self.root / "grammars").glob("erg-*.dat"))
        return {p.stem[len("erg-"):]: p for p in found}

    def installed_aces(self) -> dict[str, Path]:
        found = sorted(p for p in self.root.glob("ace-*/ace") if p.is_file())
        return {p.parent.name[len("ace-"):]: p for p in found}

    # --- integrity ----------------------------------------------------------------------

    def _records(self) -> dict[str, dict]:
        try:
            return json.loads(self.integrity_file.read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except ValueError as exc:
            raise ConfigurationError(
                f"corrupt integrity record {self.integrity_file}: {exc}; delete it and run "
                "`lit setup --force`"
            ) from None

    def _key(self, path: Path) -> str:
        """A file of the cache by its path there; a file the user configured (`lit setup`
        with LIT_ACE, LIT_GRAMMAR ...) by its absolute path."""
        resolved = Path(path).resolve()
        try:
            return resolved.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return resolved.as_posix()

    def record(self, path: Path, source: str) -> str:
        """Take and store the SHA-256 of a freshly installed (or configured) file; return it."""
        digest = sha256(path)
        records = self._records()
        records[self._key(path)] = {
            "sha256": digest,
            "size": Path(path).stat().st_size,
            "source": source,
            "recorded": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        self.integrity_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.integrity_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(records, indent=2, sort_keys=True) + "\n", "utf-8")
        os.replace(tmp, self.integrity_file)
        return digest

    def recorded(self, path: Path) -> dict | None:
        return self._records().get(self._key(path))

    def verify(self, path: Path) -> None:
        """Raise ConfigurationError unless *path* matches its integrity record."""
        entry = self.recorded(path)
        if entry is None:
            raise ConfigurationError(
                f"{path} is in LIT's cache but has no integrity record; "
                "reinstall it with `lit setup --force`"
            )
        if sha256(path) != entry["sha256"]:
            raise ConfigurationError(
                f"{path} has changed since it was installed (SHA-256 differs from the record "
                f"taken from {entry['source']}); reinstall it with `lit setup --force`"
            )
