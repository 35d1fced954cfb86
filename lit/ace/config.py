"""Finding ACE and a grammar image: explicit arguments, environment, config file, then the cache.

Discovery order, for the ACE executable and the grammar image separately:

1. explicit arguments (``--ace`` / ``--grammar`` on the command line, or keyword arguments);
2. the environment: ``LIT_ACE`` / ``LIT_GRAMMAR`` (and ``LIT_GRAMMAR_VERSION``);
3. the config file (``LIT_CONFIG``, else ``<user config dir>/lit/config.toml``) with the keys
   ``ace``, ``grammar`` and ``grammar_version``;
4. LIT's cache, filled by ``lit setup`` (integrity-checked on every use);
5. for ACE only: an ``ace`` on ``PATH``.

The grammar version is the explicit one, else ``LIT_GRAMMAR_VERSION``, else the config file's
(when the grammar came from there), else the cache's, else read from the image's file name
(``erg-2025-x86-64-0.9.34.dat`` -> ``2025``), else None (unknown).
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from lit.ace.cache import Cache, config_file, load_manifest
from lit.config import GRAMMAR_VERSIONS
from lit.errors import ConfigurationError

KNOWN_VERSIONS = GRAMMAR_VERSIONS

HOW_TO = (
    "run `lit setup` to download ACE and the ERG, or `lit setup --from DIR` with archives you "
    "already have, or point LIT at existing files with --ace/--grammar, the LIT_ACE/LIT_GRAMMAR "
    "environment variables, or `ace = ...` / `grammar = ...` in {config}; `lit doctor` shows "
    "what is missing, and `lit demo` runs LIT now on recorded (replayed) ACE answers"
)


@dataclass(frozen=True)
class AceConfig:
    ace: Path  # the ace executable
    grammar: Path  # the compiled grammar image (.dat)
    grammar_version: str | None  # "2025", "2018", "1214" or None if unknown


def version_from_name(path: Path) -> str | None:
    """Guess the ERG release from an image's file name (``erg-2018-...dat`` -> ``2018``)."""
    m = re.search(r"erg[-_]?(\d{4})", Path(path).name, re.IGNORECASE)
    return m.group(1) if m else None


def read_config_file(path: Path | None = None) -> dict[str, str]:
    """The config file's settings (empty if there is none)."""
    path = path or config_file()
    if not path.is_file():
        return {}
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:
            raise ConfigurationError(
                f"reading {path} needs Python 3.11+ or the tomli package; "
                "use LIT_ACE/LIT_GRAMMAR instead"
            ) from None
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"cannot read config file {path}: {exc}") from None
    allowed = {"ace", "grammar", "grammar_version"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigurationError(
            f"{path}: unknown setting(s) {', '.join(unknown)}; "
            f"allowed: {', '.join(sorted(allowed))}"
        )
    return {k: str(v) for k, v in data.items()}


def user_set(given: str | Path | None, env: str, key: str) -> bool:
    """Did the user name this file (a flag's *given* value, the environment variable *env*,
    the config file's *key*), whether or not it exists? Such a setting wins over LIT's cache."""
    return bool(given or os.environ.get(env) or read_config_file().get(key))


def _existing(path: str | Path, what: str, source: str) -> Path:
    """*path* made absolute (`./ace` must not become `ace`, which is looked up on PATH)."""
    p = Path(path).expanduser().absolute()
    if not p.is_file():
        raise ConfigurationError(f"{what} given by {source} does not exist: {p}")
    return p


def resolve_config(
    ace: str | Path | None = None,
    grammar: str | Path | None = None,
    grammar_version: str | None = None,
    *,
    cache: Cache | None = None,
) -> AceConfig:
    """Find ACE and a grammar image (see the module docstring for the order)."""
    cache = cache or Cache()
    grammar_path, version, _ = locate_grammar(grammar, grammar_version, cache=cache)
    ace_path, _ = locate_ace(ace, cache=cache)
    return AceConfig(ace_path, grammar_path, version)


def locate_grammar(
    grammar: str | Path | None = None,
    grammar_version: str | None = None,
    *,
    cache: Cache | None = None,
) -> tuple[Path, str | None, str]:
    """(image, ERG version or None, where it was found) — ConfigurationError if none."""
    cache = cache or Cache()
    cfg_path = config_file()
    settings = read_config_file(cfg_path)
    version = grammar_version or os.environ.get("LIT_GRAMMAR_VERSION") or None
    if grammar:
        path, source = _existing(grammar, "grammar image", "--grammar"), "--grammar"
    elif os.environ.get("LIT_GRAMMAR"):
        path = _existing(os.environ["LIT_GRAMMAR"], "grammar image", "LIT_GRAMMAR")
        source = "LIT_GRAMMAR"
    elif settings.get("grammar"):
        path, source = _existing(settings["grammar"], "grammar image", str(cfg_path)), str(cfg_path)
        version = version or settings.get("grammar_version")
    else:
        installed = cache.installed_grammars()
        wanted = version or settings.get("grammar_version")
        if wanted:
            if wanted not in installed:
                raise ConfigurationError(
                    f"no ERG {wanted} grammar image in LIT's cache ({cache.root}); run "
                    f"`lit setup --grammar-version {wanted}` or point LIT at an image with "
                    "--grammar or LIT_GRAMMAR"
                )
            version = wanted
        elif installed:
            default = load_manifest().default_grammar
            version = default if default in installed else sorted(installed)[-1]
        else:
            raise ConfigurationError(
                f"no grammar image found; {HOW_TO.format(config=cfg_path)}"
            )
        path, source = installed[version], "LIT's cache"
        cache.verify(path)
    return path, version or version_from_name(path), source


def locate_ace(
    ace: str | Path | None = None, *, cache: Cache | None = None
) -> tuple[Path, str]:
    """(ace executable, where it was found) — ConfigurationError if none."""
    cache = cache or Cache()
    cfg_path = config_file()
    settings = read_config_file(cfg_path)
    if ace:
        return _existing(ace, "ACE executable", "--ace"), "--ace"
    if os.environ.get("LIT_ACE"):
        return _existing(os.environ["LIT_ACE"], "ACE executable", "LIT_ACE"), "LIT_ACE"
    if settings.get("ace"):
        return _existing(settings["ace"], "ACE executable", str(cfg_path)), str(cfg_path)
    aces = cache.installed_aces()
    if aces:
        path = aces[max(aces, key=_version_key)]
        cache.verify(path)
        return path, "LIT's cache"
    on_path = shutil.which("ace")
    if on_path:
        return Path(on_path), "PATH"
    raise ConfigurationError(f"no ACE executable found; {HOW_TO.format(config=cfg_path)}")


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", version))
