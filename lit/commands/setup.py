"""Download ACE and an ERG grammar image into LIT's cache (or install them from files you have).

By default fetches ACE 0.9.34 for this platform and the ERG 2025 image, with a progress bar;
an interrupted download resumes where it stopped when you run the command again. Each installed
file's SHA-256 is recorded and checked on every later use. --from DIR installs from archives
you already have (air-gapped machines). --list shows the known versions and what is installed.

When you already point LIT at a grammar image of your own (--grammar, LIT_GRAMMAR or the
config file) and it finds an ACE, setup downloads nothing: it checks that the two parse and
generate (as `lit doctor` does), records their SHA-256 and exits 0 saying what it found, or
exits 1 saying what is wrong with them. --force downloads LIT's own anyway.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--grammar-version", metavar="V",
        help="ERG release to install: 2025 (default), 2018, 1214; others only with --from",
    )
    parser.add_argument(
        "--from", dest="from_dir", metavar="DIR",
        help="install from archives in DIR (e.g. ace-0.9.34-x86-64.tar.gz, erg-2025-*.dat.bz2)",
    )
    parser.add_argument("--ace", metavar="PATH", help="an ACE executable of yours to check "
                        "and use instead of downloading one (else LIT_ACE, config)")
    parser.add_argument("--grammar", metavar="PATH", help="a grammar image of yours to check "
                        "and use instead of downloading one (else LIT_GRAMMAR, config)")
    parser.add_argument("--force", action="store_true",
                        help="reinstall even if installed, and download even when an ACE and "
                        "grammar of yours are configured")
    parser.add_argument("--no-ace", action="store_true", help="install only the grammar image")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--manifest", metavar="FILE", help="use this manifest of download URLs")
    parser.add_argument("--list", action="store_true", help="list known and installed versions")


def run(args: argparse.Namespace) -> int:
    from lit.ace.cache import Cache, load_manifest
    from lit.ace.setup import check_configured, configured, install_ace, install_grammar
    from lit.errors import ConfigurationError

    cache = Cache()
    manifest = load_manifest(Path(args.manifest) if args.manifest else None)
    if args.list:
        installed = cache.installed_grammars()
        print(f"cache: {cache.root}")
        print(f"ACE {manifest.ace_version}: "
              + ("installed" if cache.ace_path(manifest.ace_version).exists() else "not installed"))
        for version in sorted(set(manifest.grammars) | set(installed), reverse=True):
            default = " (default)" if version == manifest.default_grammar else ""
            state = "installed" if version in installed else "not installed"
            print(f"ERG {version}{default}: {state}  {manifest.descriptions.get(version, '')}")
        return 0
    from_dir = Path(args.from_dir).expanduser() if args.from_dir else None
    if from_dir is not None and not from_dir.is_dir():
        raise ConfigurationError(f"--from {from_dir}: not a directory")
    if not args.force and from_dir is None:
        found = configured(args.ace, args.grammar, args.grammar_version, cache)
        if found is not None:
            return check_configured(found, cache)
    progress = not args.no_progress
    done = []
    if not args.no_ace:
        done.append(install_ace(cache, manifest, from_dir=from_dir, force=args.force,
                                progress=progress, grammar_version=args.grammar_version))
    done.append(install_grammar(args.grammar_version, cache, manifest, from_dir=from_dir,
                                force=args.force, progress=progress))
    for item in done:
        print(f"{item.what}: {item.path} ({item.action}; sha256 {item.sha256[:12]}…)")
    print("Run `lit doctor` to check the installation.")
    return 0
