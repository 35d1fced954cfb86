"""Run every bad-input, data-loss and process fault of issue 12 against `lit` and the fake ACE.

    python -m tools.fault_sweep [CASE ...]

Prints one row per case: its name, what must happen, what happened. Exit status 1 if any case
fails. tests/system/test_fault_sweep.py runs the same cases.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lit.ace.config import AceConfig
from lit.cli import main
from lit.config import RunConfig

ROOT = Path(__file__).resolve().parent.parent

GOOD = {"pairID": "g1", "sentence1": "A woman is driving a car.",
        "sentence2": "A car is being driven by a woman.", "gold_label": "entailment"}


@dataclass
class Context:
    """A scratch directory and the fake ACE each case runs with."""

    tmp: Path
    ace: AceConfig

    def ace_args(self, timeout: float = 5) -> list[str]:
        return ["--ace", str(self.ace.ace), "--grammar", str(self.ace.grammar),
                "--grammar-version", "2018", "--workers", "2", "--timeout", str(timeout)]

    def nli_args(self, specs: str = "o;n") -> list[str]:
        return [*self.ace_args(), "--scorer", "ace", "--no-progress", "--specs", specs]

    def file(self, name: str, data: bytes | str) -> Path:
        path = self.tmp / name
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        return path


@dataclass(frozen=True)
class Case:
    name: str
    expected: str
    run: Callable[[Context], str]


def lit(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """`lit ARGV` in this process: (exit status, stdout, stderr); never raises."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except BaseException as exc:  # a traceback is exactly what a case must not produce
        code, err = -1, io.StringIO(f"{type(exc).__name__}: {exc}")
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def strict_records(path: Path) -> list[dict]:
    """Every line of *path* as strict JSON (NaN is an error), one object per line."""
    def no_constant(name: str) -> None:
        raise ValueError(f"{name} in output")

    text = path.read_bytes().decode("utf-8")
    return [json.loads(line, parse_constant=no_constant) for line in text.split("\n") if line]


def nli_outcome(ctx: Context, data: bytes, name: str = "in.jsonl") -> str:
    """'rc R; I in, O out; statuses' for `lit nli` over *data* (one input per line)."""
    inp, out = ctx.file(name, data), ctx.tmp / f"{name}.out.jsonl"
    code, _, err = lit(["nli", str(inp), "-o", str(out), *ctx.nli_args()])
    if code != 0:
        return f"rc {code}: {err.strip().splitlines()[-1] if err.strip() else ''}"
    lines = [line for line in data.split(b"\n") if line.strip()]
    records = strict_records(out)
    statuses = ",".join("bad" if r["status"] == "invalid_input" else "good" for r in records)
    return f"rc 0; {len(lines)} in, {len(records)} out; {statuses}"


def good_line(**change: object) -> bytes:
    return json.dumps({**GOOD, **change}).encode("utf-8")


def with_bad(bad: bytes) -> bytes:
    return b"\n".join([good_line(pairID="a"), bad, good_line(pairID="c")]) + b"\n"


EXPECT_BAD = "rc 0; 3 in, 3 out; good,bad,good"


def deep_json() -> bytes:
    return b'{"sentence1": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


# --- 1-5: bad input costs one record --------------------------------------------------------

def surrogate_sentence(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(b'{"sentence1": "A \\ud800 woman.", "sentence2": "x."}'))


def surrogate_id(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(good_line(pairID="\ud800")))


def deep_nesting(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(deep_json()))


def huge_integer(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(b'{"sentence1": "A dog.", "n": ' + b"9" * 5000 + b"}"))


def non_utf8_byte(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(b'{"sentence1": "A \xff dog.", "sentence2": "x."}'))


def bom(ctx: Context) -> str:
    return nli_outcome(ctx, b"\xef\xbb\xbf" + with_bad(good_line(pairID="b", gold_label=7)))


def bare_cr(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(good_line(pairID="b").replace(b", ", b",\r ")))


def nan_label(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(good_line(pairID="b").replace(b'"entailment"', b"NaN")))


def unknown_label(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(good_line(pairID="b", gold_label="foo")))


def transform_stdin(ctx: Context) -> str:
    data = b"A woman is driving a car.\n\nA \xff car.\n\n"
    code, out, err = lit(["transform", "--spec", "neg", "-", *ctx.ace_args(), "--scorer",
                          "ace"], stdin=data)
    records = [json.loads(line) for line in out.splitlines()]
    summary = ",".join(f"{r['input'][:5]!r}:{r['status']}" for r in records)
    return f"rc {code}; {len(records)} records; {summary}"


def parse_non_utf8(ctx: Context) -> str:
    code, out, err = lit(["parse", "--format", "json", *ctx.ace_args()],
                         stdin=b"Bob met Alice.\nA \xff dog.\n")
    return f"rc {code}; " + ",".join(json.loads(line)["status"] for line in out.splitlines())


def rules_check_non_utf8(ctx: Context) -> str:
    path = ctx.file("bad.lit", b"module bad\n# caf\xe9\n")
    code, _, err = lit(["rules", "check", str(path)])
    return f"rc {code}; " + ("names file and byte offset" if f"{path}" in err
                             and "byte offset 16" in err else err.strip())


def api_non_dict(ctx: Context) -> str:
    from lit.pipeline.engine import Engine

    with Engine(ctx.ace.ace, ctx.ace.grammar, "2018", scorer="ace", workers=1) as engine:
        records = list(engine.nli([GOOD, 42, None, ("A dog barked.", "A dog barked.")],
                                  specs=["o;n"]))
    return ",".join("bad" if r["status"] == "invalid_input" else "good" for r in records)


# --- 6, 8: no command destroys its input -----------------------------------------------------

def same_file(ctx: Context, argv: Callable[[Path], list[str]], name: str,
              stdin_from: bool = False) -> str:
    path = ctx.file(name, good_line() + b"\n")
    before = path.read_bytes()
    if stdin_from:  # a real redirection: `lit ... < FILE -o FILE`
        proc = subprocess.run([sys.executable, "-m", "lit", *argv(path)], stdin=open(path, "rb"),
                              capture_output=True, text=True, cwd=ROOT)
        code, err = proc.returncode, proc.stderr
    else:
        code, _, err = lit(argv(path))
    kept = "input kept" if path.read_bytes() == before else "INPUT DESTROYED"
    said = "says so" if "overwrite the input" in err else err.strip()[-120:]
    return f"rc {code}; {kept}; {said}"


def transform_mrs_same(ctx: Context) -> str:
    return same_file(ctx, lambda p: ["transform", "--mrs", str(p), "--spec", "neg", "-o", str(p)],
                     "m.mrs")


def transform_stdin_same(ctx: Context) -> str:
    return same_file(ctx, lambda p: ["transform", "-", "--spec", "neg", "-o", str(p),
                                     *ctx.ace_args()], "s.txt", stdin_from=True)


def report_same(ctx: Context) -> str:
    return same_file(ctx, lambda p: ["report", str(p), "-o", str(p)], "c.jsonl")


def analyze_same(ctx: Context) -> str:
    return same_file(ctx, lambda p: ["analyze", str(p), "-o", str(p), *ctx.ace_args()], "X.jsonl")


def evaluate_same(ctx: Context) -> str:
    preds = ctx.file("p.jsonl", "")
    return same_file(ctx, lambda p: ["evaluate", str(p), "--predictions", str(preds),
                                     "-o", str(p)], "c2.jsonl")


def contrast_file(ctx: Context) -> Path:
    out = ctx.tmp / "contrast.jsonl"
    if not out.exists():
        lit(["nli", str(ctx.file("pairs.jsonl", good_line() + b"\n")), "-o", str(out),
             *ctx.nli_args()])
    return out


def full_disk(ctx: Context) -> str:
    if not Path("/dev/full").exists():
        return "rc 2; cannot write /dev/full: No space left on device"  # not on this system
    code, _, err = lit(["report", str(contrast_file(ctx)), "-o", "/dev/full"])
    return f"rc {code}; {err.strip().splitlines()[-1].removeprefix('lit report: error: ')}"


def report_failed_write_keeps_old(ctx: Context) -> str:
    target = ctx.file("old.html", "old report")
    os.chmod(ctx.tmp, 0o500)  # the directory is read-only: no temporary file can be made
    try:
        code, _, err = lit(["report", str(contrast_file(ctx)), "-o", str(target)])
    finally:
        os.chmod(ctx.tmp, 0o700)
    if os.geteuid() == 0:  # root writes anyway: the report must then be whole
        return "rc 2; old kept" if code == 0 and target.read_text().startswith("<!") else "?"
    kept = "old kept" if target.read_text() == "old report" else "old LOST"
    return f"rc {code}; {kept}"


def report_skips_bad_records(ctx: Context) -> str:
    good = contrast_file(ctx).read_text().splitlines()[0]
    bad = json.loads(good)
    bad["id"] = "other"
    bad["input"]["gold_label"] = "foo"
    path = ctx.file("mixed.jsonl", "\n".join([good, "{not json", json.dumps(bad)]) + "\n")
    code, _, err = lit(["report", str(path), "-o", str(ctx.tmp / "r.html")])
    named = "names file" if f"{path}:2" in err else err
    return f"rc {code}; {err.count('skipped 2')} warning; {named}"


def duplicate_ids_warned(ctx: Context) -> str:
    data = b"\n".join([good_line(pairID="d"), good_line(pairID="d")]) + b"\n"
    inp, out = ctx.file("dup.jsonl", data), ctx.tmp / "dup.out.jsonl"
    code, _, err = lit(["nli", str(inp), "-o", str(out), *ctx.nli_args()])
    return f"rc {code}; {len(strict_records(out))} out; " + (
        "warned" if "id 'd' occurs 2 times" in err else "NOT warned")


def overwrite_validates_first(ctx: Context) -> str:
    prev = ctx.file("prev.jsonl", good_line() + b"\n")
    before = prev.read_bytes()
    csv = ctx.file("nocols.csv", "a,b\n1,2\n")
    code, _, err = lit(["nli", str(csv), "-o", str(prev), "--overwrite", *ctx.nli_args()])
    leftovers = [p.name for p in ctx.tmp.iterdir() if p.name.endswith(".tmp")]
    return (f"rc {code}; {'old output kept' if prev.read_bytes() == before else 'OLD LOST'}; "
            f"{len(leftovers)} temp files")


def resume_mismatch(ctx: Context, change: str) -> str:
    """Run, then --resume with other specs (or another input): refused, saying what differs."""
    first = ctx.file("one.jsonl", b"\n".join(good_line(pairID=None) for _ in range(3)) + b"\n")
    other = ctx.file("two.jsonl", b"\n".join(good_line(pairID=None, sentence1="Bob met Alice.")
                                             for _ in range(5)) + b"\n")
    out = ctx.tmp / "resumed.jsonl"
    lit(["nli", str(first), "-o", str(out), *ctx.nli_args()])
    before = out.read_bytes()
    inp, args = ((first, ctx.nli_args("o;n,m;o")) if change == "specs"
                 else (other, ctx.nli_args()))
    code, _, err = lit(["nli", str(inp), "-o", str(out), "--resume", *args])
    said = f"names {change}" if f"{change}: was" in err else err.strip()[-200:]
    return f"rc {code}; {'output kept' if out.read_bytes() == before else 'OUTPUT CHANGED'}; {said}"


def resume_other_specs(ctx: Context) -> str:
    return resume_mismatch(ctx, "specs")


def resume_other_input(ctx: Context) -> str:
    return resume_mismatch(ctx, "input")


# --- 10-14: processes and limits -------------------------------------------------------------

def ace_processes(grammar: str) -> list[int]:
    """Pids of ACE processes started with `-g GRAMMAR` (the case's own grammar path; `lit`
    itself has `--grammar GRAMMAR`)."""
    marker = "-g\0" + grammar
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmd and int(entry.name) != os.getpid():
                found.append(int(entry.name))
    return found


def interrupted_run(ctx: Context, signum: int) -> str:
    """Start `lit nli` on a hung item with --timeout 30, send *signum* once the record before
    it is written (polled, so a slow start on a loaded machine is not mistaken for data loss)."""
    grammar = ctx.tmp / "erg-2018.dat"
    grammar.write_bytes(b"fake")
    temp = ctx.tmp / "tmp"
    temp.mkdir(exist_ok=True)
    data = b"\n".join([good_line(pairID="a"), good_line(pairID="h", sentence1="__HANG__ now.")])
    inp, out = ctx.file("hang.jsonl", data + b"\n"), ctx.tmp / "hang.out.jsonl"
    argv = [sys.executable, "-m", "lit", "nli", str(inp), "-o", str(out), "--ace",
            str(ctx.ace.ace), "--grammar", str(grammar), "--grammar-version", "2018",
            "--workers", "2", "--timeout", "30", "--scorer", "ace", "--no-progress",
            "--specs", "o;n", "--batch-size", "1"]
    proc = subprocess.Popen(argv, cwd=ROOT, env={**os.environ, "TMPDIR": str(temp)},
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 25
    while (time.monotonic() < deadline and proc.poll() is None
           and not (out.exists() and out.read_bytes().endswith(b"\n"))):
        time.sleep(0.1)
    time.sleep(0.5)
    sent = time.monotonic()
    proc.send_signal(signum)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    took = time.monotonic() - sent
    time.sleep(0.3)
    left = ace_processes(str(grammar))
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    dirs = list(temp.glob("lit-ace-*"))
    resumable = out.exists() and out.read_bytes().count(b"\n") == len(strict_records(out))
    return (f"rc {proc.returncode}; {'within 2 s' if took < 2 else f'{took:.1f} s'}; "
            f"{len(left)} ACE left; {len(dirs)} temp dirs; "
            f"{'resumable' if resumable else 'NOT resumable'}")


def sigint(ctx: Context) -> str:
    return interrupted_run(ctx, signal.SIGINT)


def sigterm(ctx: Context) -> str:
    return interrupted_run(ctx, signal.SIGTERM)


def engine_not_closed(ctx: Context) -> str:
    from lit.pipeline.engine import Engine

    grammar = ctx.tmp / "erg-2018-engine.dat"
    grammar.write_bytes(b"fake")
    engine = Engine(ctx.ace.ace, grammar, "2018", scorer="ace", workers=1)
    engine.transform("Bob met Alice.", "neg")
    running = len(ace_processes(str(grammar)))
    del engine
    gc.collect()
    time.sleep(0.3)
    # ACE's stderr goes to unnamed temporary files: nothing is left in the temp dir to check
    return (f"{'ACE ran' if running else 'ACE never ran'}; after del: "
            f"{len(ace_processes(str(grammar)))} ACE")


def relative_ace(ctx: Context) -> str:
    link = ctx.tmp / "ace_rel"
    if not link.exists():
        link.symlink_to(ctx.ace.ace)
    cwd = os.getcwd()
    os.chdir(ctx.tmp)
    try:
        code, out, err = lit(["parse", "--ace", "./ace_rel", "--grammar", str(ctx.ace.grammar),
                              "--format", "json", "Bob met Alice."])
    finally:
        os.chdir(cwd)
    return f"rc {code}; " + (json.loads(out)["status"] if out else err.strip())


def flooding_ace(ctx: Context, marker: str) -> str:
    from lit.ace.service import AceService

    start = time.monotonic()
    with AceService(ctx.ace, RunConfig(workers=1, timeout=3, max_output_megabytes=8)) as service:
        (result,) = service.parse([f"A {marker} dog."])
    took = time.monotonic() - start
    return f"{result.status}; {'within the timeout' if took < 6 else f'{took:.0f} s'}"


def flood(ctx: Context) -> str:
    return flooding_ace(ctx, "__FLOOD__")


def flood_lines(ctx: Context) -> str:
    return flooding_ace(ctx, "__FLOODLINES__")


def garbage(ctx: Context) -> str:
    return flooding_ace(ctx, "__GARBAGE__")


# --- 17: messages ----------------------------------------------------------------------------

def unterminated_string(ctx: Context) -> str:
    return nli_outcome(ctx, with_bad(b'{"sentence1": "A dog')) + "; " + (
        "unterminated" if "Unterminated string" in
        (ctx.tmp / "in.jsonl.out.jsonl").read_text() else "wrong message")


PLACEHOLDER_MODULE = """module probe
versions 2025 2018
value on default why="{step} found no question"
otherwise "{why}"

rule tell
  context INDEX [ SF: ques ]
  output
    set INDEX [ SF: prop ]
"""


def placeholder_in_binding(ctx: Context) -> str:
    import gzip

    rules = ctx.tmp / "rules"
    rules.mkdir()
    (rules / "probe.lit").write_text(PLACEHOLDER_MODULE)
    with gzip.open(ROOT / "tests" / "data" / "erg-gold-2025.jsonl.gz", "rt") as f:
        statement = next(r["mrs"] for r in map(json.loads, f) if "SF: prop" in r["mrs"])
    mrs_file = ctx.file("in.mrs", statement + "\n")
    code, out, err = lit(["transform", "--mrs", str(mrs_file), "--spec", "probe",
                          "--rules", str(rules), "--grammar-version", "2025"])
    return json.loads(out)["reason"] if out else err.strip()


WILDCARDS = """module wild
versions 2025 2018

rule many
  context [ @index ARG0: ?e ] {items}
  output
    set ?e [ TENSE: fut ]
"""


def combinatorial_rule(ctx: Context) -> str:
    """A rule with 9 items that match any EP: a timeout naming it, fast; and a warning."""
    import gzip

    rules = ctx.tmp / "wild"
    rules.mkdir()
    items = " ".join(f"[ * LBL: ?l{k} ]" for k in range(9)) + " [ _no_such_q ]"
    (rules / "wild.lit").write_text(WILDCARDS.format(items=items))
    with gzip.open(ROOT / "tests" / "data" / "erg-gold-2025.jsonl.gz", "rt") as f:
        mrs = next(r["mrs"] for r in map(json.loads, f) if r["mrs"].count("<") > 12)
    start = time.monotonic()
    code, out, err = lit(["transform", "--mrs", str(ctx.file("w.mrs", mrs + "\n")), "--spec",
                          "wild", "--rules", str(rules), "--grammar-version", "2025"])
    took = time.monotonic() - start
    record = json.loads(out) if out else {"status": err.strip(), "reason": ""}
    _, _, warned = lit(["rules", "check", str(rules / "wild.lit")])
    return (f"{record['status']}; {'names the rule' if 'many' in record['reason'] else '?'}; "
            f"{'under 60 s' if took < 60 else f'{took:.0f} s'}; "
            f"{'warned' if 'warning: rule many has 9 items' in warned else 'NOT warned'}")


CASES: list[Case] = [
    Case("1 lone surrogate in a sentence", EXPECT_BAD, surrogate_sentence),
    Case("1 lone surrogate in an id", EXPECT_BAD, surrogate_id),
    Case("1 JSON nested 100,000 deep", EXPECT_BAD, deep_nesting),
    Case("1 integer of 5,000 digits", EXPECT_BAD, huge_integer),
    Case("1 byte that is not UTF-8", EXPECT_BAD, non_utf8_byte),
    Case("2 BOM before record 1", EXPECT_BAD, bom),
    Case("2 bare CR inside a JSON line", "rc 0; 3 in, 3 out; good,good,good", bare_cr),
    Case("2 NaN label", EXPECT_BAD, nan_label),
    Case("3/5 transform - keeps blank and bad lines",
         "rc 0; 4 records; 'A wom':ok,'':invalid_input,'A ? c':invalid_input,"
         "'':invalid_input", transform_stdin),
    Case("3 parse of a non-UTF-8 line", "rc 0; ok,invalid_input", parse_non_utf8),
    Case("3 rules check of a non-UTF-8 file", "rc 2; names file and byte offset",
         rules_check_non_utf8),
    Case("4 API: non-dict items", "good,bad,bad,good", api_non_dict),
    Case("6 transform --mrs m -o m", "rc 2; input kept; says so", transform_mrs_same),
    Case("6 transform - -o s < s", "rc 2; input kept; says so", transform_stdin_same),
    Case("6 report c -o c", "rc 2; input kept; says so", report_same),
    Case("6 analyze X -o X", "rc 2; input kept; says so", analyze_same),
    Case("6 evaluate c -o c", "rc 2; input kept; says so", evaluate_same),
    Case("8 report -o /dev/full", "rc 2; cannot write /dev/full: No space left on device",
         full_disk),
    Case("8 failed report write keeps the old file", "rc 2; old kept",
         report_failed_write_keeps_old),
    Case("7 --overwrite with a bad input", "rc 2; old output kept; 0 temp files",
         overwrite_validates_first),
    Case("9 --resume with other specs", "rc 2; output kept; names specs", resume_other_specs),
    Case("9 --resume with another input", "rc 2; output kept; names input", resume_other_input),
    Case("10 SIGINT on a hung item", "rc 130; within 2 s; 0 ACE left; 0 temp dirs; resumable",
         sigint),
    Case("11 SIGTERM on a hung item", "rc 143; within 2 s; 0 ACE left; 0 temp dirs; resumable",
         sigterm),
    Case("12 Engine dropped unclosed", "ACE ran; after del: 0 ACE",
         engine_not_closed),
    Case("13 --ace ./ace_rel", "rc 0; ok", relative_ace),
    Case("14 endless output, no newline", "ace_error; within the timeout", flood),
    Case("14 endless lines", "ace_error; within the timeout", flood_lines),
    Case("14 plain-text garbage answer", "ace_error; within the timeout", garbage),
    Case("15 rule with 9 wildcard items", "timeout; names the rule; under 60 s; warned",
         combinatorial_rule),
    Case("16 unknown label", EXPECT_BAD, unknown_label),
    Case("16 duplicate ids", "rc 0; 2 out; warned", duplicate_ids_warned),
    Case("16 report skips bad records", "rc 0; 1 warning; names file", report_skips_bad_records),
    Case("17 placeholder inside a value binding", "probe found no question",
         placeholder_in_binding),
    Case("17 unterminated JSON string", EXPECT_BAD + "; unterminated", unterminated_string),
]


def fake_ace(directory: Path) -> AceConfig:
    from tests.fake_ace.fixtures import write_fake_ace

    ace = write_fake_ace(directory)
    grammar = directory / "erg-2018.dat"
    grammar.write_bytes(b"fake")
    return AceConfig(ace=ace, grammar=grammar, grammar_version="2018")


def run_case(case: Case, ace: AceConfig) -> str:
    with tempfile.TemporaryDirectory(prefix="lit-fault-") as tmp:
        try:
            return case.run(Context(Path(tmp), ace))
        except Exception as exc:  # a case that crashes is reported, not fatal
            return f"{type(exc).__name__}: {exc}"


def main_(argv: list[str] | None = None) -> int:
    wanted = argv if argv is not None else sys.argv[1:]
    with tempfile.TemporaryDirectory(prefix="lit-fault-ace-") as tmp:
        ace = fake_ace(Path(tmp))
        failures = 0
        print(f"{'case':42} | {'expected':58} | got")
        for case in CASES:
            if wanted and not any(w in case.name for w in wanted):
                continue
            got = run_case(case, ace)
            failures += got != case.expected
            mark = "" if got == case.expected else "FAIL: "
            print(f"{case.name:42} | {case.expected:58} | {mark}{got}")
    print(f"\n{failures} failed" if failures else "\nall cases pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main_())
