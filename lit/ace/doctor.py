"""What ACE and grammar LIT would use, whether they work, and what to do about what is missing."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from lit.ace.cache import Cache, Manifest, config_file, load_manifest, platform_key
from lit.ace.config import locate_ace, locate_grammar
from lit.config import GRAMMAR_VERSIONS, RunConfig
from lit.errors import ConfigurationError

#: Recorded in the test oracle, so the smoke test also passes against the fake ACE.
SMOKE_SENTENCE = "The dog barks."
MIN_ACE = (0, 9, 24)  # PyDelphin's --tsdb-stdout protocol needs at least this


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: informational
    detail: str
    fix: str | None = None


def ace_version(ace: Path, timeout: float = 10.0) -> str:
    """The version ``ace -V`` reports ("0.9.34"); ConfigurationError if it cannot run."""
    try:
        out = subprocess.run(
            [str(ace), "-V"], capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ConfigurationError(f"cannot run {ace} -V: {exc}") from None
    m = re.search(r"ACE version ([0-9.]+)", out.stdout + out.stderr)
    if not m:
        raise ConfigurationError(
            f"{ace} -V did not report an ACE version (exit {out.returncode}): "
            + " ".join((out.stdout + out.stderr).split())[:200]
        )
    return m.group(1)


def diagnose(
    ace: str | Path | None = None,
    grammar: str | Path | None = None,
    grammar_version: str | None = None,
    *,
    smoke: bool = True,
    timeout: float = 30.0,
) -> list[Check]:
    """Every check `lit doctor` reports, in order; never raises for a missing piece."""
    checks: list[Check] = [platform_check(), name_clash_check()]
    cache = Cache()
    cfg = config_file()
    checks.append(Check("config file", None, f"{cfg} ({'present' if cfg.is_file() else 'none'})"))
    manifest = load_manifest()
    installed = cache.installed_grammars()
    ace_cached = sorted(cache.installed_aces())
    checks.append(Check(
        "cache", None,
        f"{cache.root} (ACE: {', '.join(ace_cached) or 'none'}; "
        f"ERG: {', '.join(sorted(installed, reverse=True)) or 'none'})",
    ))

    ace_path = grammar_path = None
    try:
        ace_path, source = locate_ace(ace, cache=cache)
        version = ace_version(ace_path)
        numbers = tuple(int(x) for x in version.split(".") if x.isdigit())
        if numbers < MIN_ACE:
            checks.append(Check("ACE", False, f"{ace_path} (from {source}): ACE {version}",
                                "LIT needs ACE 0.9.24 or later; run `lit setup` for "
                                f"ACE {manifest.ace_version}"))
            ace_path = None
        else:
            checks.append(Check("ACE", True, f"{ace_path} (from {source}): ACE {version}"))
    except ConfigurationError as exc:
        checks.append(Check("ACE", False, _problem(exc), str(exc)))

    try:
        grammar_path, version, source = locate_grammar(grammar, grammar_version, cache=cache)
        size = grammar_path.stat().st_size / 1e6
        integrity = "SHA-256 verified" if source == "LIT's cache" else "not LIT-managed"
        found = None if version else image_version(grammar_path)
        label = (f"ERG {version}" if version else f"ERG {found} (from the image's header)"
                 if found else "ERG version unknown (pass --grammar-version)")
        version = version or found
        checks.append(Check(
            "grammar", True, f"{grammar_path} (from {source}): {label}, {size:.1f} MB, {integrity}"
        ))
        grammar_version = version
    except ConfigurationError as exc:
        checks.append(Check("grammar", False, _problem(exc), str(exc)))

    if smoke and ace_path and grammar_path:
        checks.append(_smoke(ace_path, grammar_path, grammar_version, timeout))
    checks.append(Check("ACE processes", None, processes_note()))
    return checks


def image_version(grammar: Path) -> str | None:
    """The ERG release a compiled image names in its header ("frozen grammar file: ace
    |0.9.30| grammar |...;;ERG (2025)|"), if LIT has rules for it; None otherwise."""
    try:
        with open(grammar, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    m = re.search(rb"ERG \((\w+)\)", head)
    found = m[1].decode("ascii") if m else None
    return found if found in GRAMMAR_VERSIONS else None


def platform_check(manifest: Manifest | None = None) -> Check:
    """Which manifest entry this machine matches (`lit setup` downloads its ACE build), with
    how it runs (Rosetta 2 on Apple silicon); not ok when no build is known for it."""
    manifest = manifest or load_manifest()
    key = platform_key()
    build = manifest.ace_builds.get(key)
    if build is None:
        known = ", ".join(sorted(manifest.ace_builds))
        return Check("platform", False, f"{key}: no ACE {manifest.ace_version} build is "
                     f"published for it (known: {known})",
                     "build ACE from source (http://sweaglesw.org/linguistics/ace/) and point "
                     "LIT at it with --ace or LIT_ACE; `lit setup --no-ace` still installs the "
                     "grammar image")
    note = f"; {build.note}" if build.note else ""
    return Check("platform", None,
                 f"{key}: matches the manifest's ACE {manifest.ace_version} build "
                 f"{Path(build.url).name}{note}")


def name_clash_check() -> Check:
    """LLVM's test runner is also called `lit` (PyPI `lit`): installed in the same
    environment, its `lit` command and `lit` package overwrite LIT's. `lit-contrast` is
    LIT's second command name, installed for exactly this case."""
    from importlib import metadata

    scripts = metadata.entry_points(group="console_scripts", name="lit")
    others = sorted({ep.value for ep in scripts if ep.value != "lit.cli:main"})
    try:
        llvm = metadata.version("lit")
    except metadata.PackageNotFoundError:
        llvm = None
    if not others and llvm is None:
        return Check("command name", True,
                     "`lit` is LIT's (also installed as `lit-contrast`)")
    what = f"PyPI `lit` {llvm} (LLVM's test runner)" if llvm else f"`lit` -> {', '.join(others)}"
    return Check("command name", False,
                 f"{what} is installed in this environment too: it and LIT both install a "
                 "`lit` command and a `lit` package, so one overwrites the other",
                 "use LIT as `lit-contrast` (same commands), or install LIT and LLVM's lit in "
                 "separate virtual environments (docs/ace.md, Name clash)")


def processes_note() -> str:
    """How many ACE processes `--workers N` starts and what caps their memory."""
    from lit.config import DEFAULT_GENERATE_UNPACK_MEGABYTES, DEFAULT_MAX_UNPACK_MEGABYTES

    return (
        "--workers N starts up to 3N (lit nli/transform: an input parser, a verifying parser "
        "with -n 20 and a generator per worker; lit parse: N); a worker runs one item at a "
        "time, each parser capped at --max-unpack-megabytes (default "
        f"{DEFAULT_MAX_UNPACK_MEGABYTES} MB, the chart included), each generator at "
        f"--generate-unpack-megabytes (default {DEFAULT_GENERATE_UNPACK_MEGABYTES} MB)"
    )


def _problem(exc: ConfigurationError) -> str:
    return "not found" if str(exc).startswith("no ") else "not usable"


def _smoke(ace: Path, grammar: Path, version: str | None, timeout: float) -> Check:
    from lit.ace.config import AceConfig
    from lit.ace.service import AceService
    from lit.status import Status

    fix = ("check that the grammar image was compiled for this ACE version "
           "(images name theirs, e.g. erg-2025-x86-64-0.9.34.dat)")
    try:
        with AceService(
            AceConfig(ace, grammar, version), RunConfig(workers=1, timeout=timeout)
        ) as service:
            (result,) = service.parse([SMOKE_SENTENCE], n=1)
            if result.status is not Status.OK:
                return Check("parse", False,
                             f'"{SMOKE_SENTENCE}" -> {result.status}: {result.reason}', fix)
            (made,) = service.generate([result.readings[0].mrs], limit=1)
    except ConfigurationError as exc:
        return Check("parse", False, "could not start ACE", str(exc))
    took = f"{result.ace_seconds:.3f} s" if result.ace_seconds is not None else "?"
    parsed = (f'"{SMOKE_SENTENCE}" -> {len(result.readings)} reading (ACE {took}, wall '
              f"{result.wall_seconds:.3f} s)")
    if made.status is not Status.OK:
        return Check("parse and generate", False,
                     f"{parsed}; generating from it -> {made.status}: {made.reason}", fix)
    return Check("parse and generate", True, f'{parsed}; generated "{made.surfaces[0]}"')
