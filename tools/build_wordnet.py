"""Regenerate lit/lexicon/data/wordnet-erg.json.gz: the WordNet 3.0 -> ERG predicate mapping.

Reads the WordNet 3.0 database files (Debian: ``apt-get install -y wordnet-base``, which puts
them in /usr/share/wordnet; any WordNet 3.0 ``dict/`` directory works) and the ERG 2025 SEM-I
table shipped with LIT (lit/lexicon/data/erg-2025-semi.json). Only this tool reads WordNet; LIT
at run time reads the gzip'd JSON it writes, so ``pip install`` is enough for users.

Each ERG noun, verb and adjective predicate ``_LEMMA_POS_SENSE`` is mapped to the *first*
WordNet sense of its lemma with the same part of speech (WordNet orders senses by tagged
frequency; the sense is recorded by name, ``fire.n.01``, and a lemma whose first sense is not
clearly the commonest in WordNet's tagged corpus — ``cntlist.rev``: fewer than DOMINANT times
the second sense's count, or never tagged — is listed as ``ambiguous``, and offered no substitutes), trying ``LEMMA_SENSE`` first when SENSE is a particle (``_look_v_up`` -> look_up),
unless tools/wordnet-overrides.tsv names another synset for it (where the ERG sense says
otherwise). Synsets WordNet marks as register variants (colloquial, slang, disparaging:
*guy*, *cop*) are listed as ``informal``: never offered as candidates, since in use they are
synonyms of their hypernym rather than more specific. The output keeps the hypernym graph above the mapped synsets (the upward closure)
and the antonym pairs between mapped predicates (WordNet antonym links, by word), nothing else.

    python -m tools.build_wordnet [--wordnet /usr/share/wordnet] [--out PATH]

``--tables`` (from the shipped mapping, without WordNet) writes the rule tables of the lexical
modules, lit/rules/modules/data/{hyper,hypo,sibling,antonym}.tsv: for each frequent enough
predicate (its lemma's Zipf frequency >= --min-key-zipf, letters only), its best candidates from
lit.lexicon.candidates (``--min-zipf``, ``--per-word``), best first. Lower --min-zipf to offer
rare words too (*canine* for *dog*).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEMI = ROOT / "lit" / "lexicon" / "data" / "erg-2025-semi.json"
OUT = ROOT / "lit" / "lexicon" / "data" / "wordnet-erg.json.gz"
OVERRIDES = Path(__file__).resolve().parent / "wordnet-overrides.tsv"
#: An override's synset column: leave the predicate unmapped.
UNMAPPED = "-"

#: ERG part of speech -> WordNet file suffix and synset-id prefix.
POS = {"n": "noun", "v": "verb", "a": "adj"}
#: WordNet pointer symbols kept: hypernym, instance hypernym, antonym.
HYPERNYM = {"@", "@i"}
ANTONYM = "!"
#: Verb particles: an ERG sense that is one of these is part of the WordNet lemma.
PARTICLES = {"up", "down", "in", "out", "on", "off", "over", "away", "back", "about", "around",
             "through", "along", "by", "aside", "forth", "together", "apart", "into"}
#: Usage-domain synsets (pointer ";u") that mark a word as a register variant: slang,
#: disparagement, ethnic slur, obscenity. (Not colloquialism: WordNet puts *eye* and
#: *anxious* there.)
REGISTER_DOMAINS = {"n07159467", "n07157273", "n06717170", "n06718862", "n07124340"}
#: Glosses of register variants: "an informal term for a youth or man" (guy), "uncomplimentary
#: terms for a policeman" (cop), "(slang) ...".
REGISTER_GLOSS = re.compile(
    r"^(?:an? )?(?:informal|slang|uncomplimentary|offensive|vulgar|disparaging|derogatory) "
    r"(?:term|terms|word|words|name|names|expression|for)\b"
    r"|^\((?:informal|slang|offensive|disparaging|ethnic slur)\)")
#: A first sense is the word's sense only if WordNet's tagged corpus saw it this many times as
#: often as the second (*fire*: 43 against 18 — the event; *case*: 80 against 9).
DOMINANT = 2
#: WordNet sense-key part-of-speech numbers (adjective satellites count as adjectives).
SENSE_POS = {"1": "n", "2": "v", "3": "a", "5": "a"}
#: ERG surface predicates: _lemma_pos[_sense].
PRED = re.compile(r"^_(?P<lemma>.+?)_(?P<pos>[nva])(?:_(?P<sense>[^_]+))?$")


def synset_id(pos: str, offset: str) -> str:
    """A short stable id: WordNet's pos letter (n, v, a; satellites count as a) and offset."""
    return ("a" if pos in "as" else pos) + offset


def read_index(wn: Path, pos: str) -> dict[str, list[str]]:
    """lemma -> synset ids in WordNet's sense order."""
    out: dict[str, list[str]] = {}
    for line in (wn / f"index.{POS[pos]}").read_text("latin-1").splitlines():
        if line.startswith(" "):
            continue
        f = line.split()
        lemma, p_cnt = f[0], int(f[3])
        offsets = f[4 + p_cnt + 2:]
        out[lemma] = [synset_id(pos, o) for o in offsets]
    return out


def read_data(wn: Path, pos: str) -> tuple[dict[str, list[str]], dict[str, set[str]],
                                            dict[str, list[str]], set[str]]:
    """(synset -> hypernym synsets, synset -> antonym synsets, synset -> its words, register
    variants: synsets marked colloquial, slang or disparaging by a usage pointer or gloss)."""
    hyper: dict[str, list[str]] = {}
    anto: dict[str, set[str]] = {}
    words: dict[str, list[str]] = {}
    register: set[str] = set()
    for line in (wn / f"data.{POS[pos]}").read_text("latin-1").splitlines():
        if line.startswith(" "):
            continue
        head, _, gloss = line.partition(" | ")
        f = head.split()
        sid = synset_id(f[2], f[0])
        w_cnt = int(f[3], 16)
        words[sid] = [re.sub(r"\(.*\)$", "", w).lower() for w in f[4:4 + 2 * w_cnt:2]]
        i = 4 + 2 * w_cnt
        p_cnt = int(f[i])
        ptrs = [f[i + 1 + 4 * k: i + 5 + 4 * k] for k in range(p_cnt)]
        hyper[sid] = [synset_id(p, o) for sym, o, p, _ in ptrs if sym in HYPERNYM]
        anto[sid] = {synset_id(p, o) for sym, o, p, _ in ptrs if sym == ANTONYM}
        if REGISTER_GLOSS.match(gloss) or any(
                sym == ";u" and st == "0000" and synset_id(p, o) in REGISTER_DOMAINS
                for sym, o, p, st in ptrs):  # 0000: the whole synset, not one of its words
            register.add(sid)
    return hyper, anto, words, register


def read_counts(wn: Path) -> dict[tuple[str, str], dict[int, int]]:
    """(lemma, pos) -> {sense number: times tagged} from WordNet's cntlist.rev."""
    out: dict[tuple[str, str], dict[int, int]] = {}
    for line in (wn / "cntlist.rev").read_text("latin-1").splitlines():
        key, number, count = line.split()
        lemma, _, rest = key.partition("%")
        pos = SENSE_POS.get(rest[:1])
        if pos:
            senses = out.setdefault((lemma, pos), {})
            senses[int(number)] = senses.get(int(number), 0) + int(count)
    return out


def ambiguous(counts: dict[int, int], senses: int) -> bool:
    """More than one sense, and the first not DOMINANT times as frequent as the second (or
    never tagged at all)."""
    first = counts.get(1, 0)
    return senses > 1 and (first < DOMINANT * counts.get(2, 0) or not first)


def read_overrides(path: Path) -> dict[str, str]:
    """pred -> synset id, from a TSV of `pred<TAB>synset<TAB>why` (# comments)."""
    out: dict[str, str] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                pred, sid, *_ = line.split("\t")
                out[pred] = sid
    return out


def wordnet_lemmas(lemma: str, sense: str | None) -> list[str]:
    """WordNet spellings to try for an ERG lemma: a particle verb only as itself (`_give_v_up`
    is give_up, never give); other senses (`_1`, `_of`, `_i`) name no WordNet word."""
    base = lemma.replace("+", "_").lower()
    if sense in PARTICLES:
        return [f"{base}_{sense}"]
    tries = [base]
    if "-" in base:
        tries += [base.replace("-", "_"), base.replace("-", "")]
    return tries


def build(wn: Path, semi_path: Path, overrides: Path) -> dict:
    preds = json.loads(semi_path.read_text("utf-8"))
    index = {pos: read_index(wn, pos) for pos in POS}
    hyper: dict[str, list[str]] = {}
    anto: dict[str, set[str]] = {}
    words: dict[str, list[str]] = {}
    register: set[str] = set()
    for pos in POS:
        h, a, w, r = read_data(wn, pos)
        hyper.update(h)
        anto.update(a)
        words.update(w)
        register |= r
    fixed = read_overrides(overrides)
    counts = read_counts(wn)
    mapping: dict[str, str] = {}
    names: dict[str, str] = {}
    unclear: list[str] = []
    for pred in sorted(preds):
        m = PRED.match(pred)
        if not m:
            continue
        for lemma in wordnet_lemmas(m["lemma"], m["sense"]):
            senses = index[m["pos"]].get(lemma)
            if not senses:
                continue
            if pred in fixed:
                if fixed[pred] in senses:
                    names[pred] = f"{lemma}.{m['pos']}.{senses.index(fixed[pred]) + 1:02d}"
                break
            mapping[pred] = senses[0]
            names[pred] = f"{lemma}.{m['pos']}.01"
            if ambiguous(counts.get((lemma, m["pos"]), {}), len(senses)):
                unclear.append(pred)
            break
        if pred in fixed and fixed[pred] != UNMAPPED:
            mapping[pred] = fixed[pred]
    keep: set[str] = set()
    todo = list(set(mapping.values()))
    while todo:
        sid = todo.pop()
        if sid not in keep:
            keep.add(sid)
            todo += hyper.get(sid, [])
    by_word: dict[tuple[str, str], list[str]] = {}
    for pred in mapping:
        m = PRED.match(pred)
        by_word.setdefault((m["lemma"].replace("+", "_").lower(), m["pos"]), []).append(pred)
    antonyms: dict[str, list[str]] = {}
    for pred, sid in sorted(mapping.items()):
        found = {other for target in anto.get(sid, ()) for w in words[target]
                 for other in by_word.get((w, PRED.match(pred)["pos"]), ())}
        if found:
            antonyms[pred] = sorted(found)
    return {
        "meta": {
            "source": "Princeton WordNet 3.0 (data.* and index.* files)",
            "licence": "WordNet 3.0 licence (BSD-style; see lit/lexicon/data/LICENSE-WordNet)",
            "semi": "ERG 2025 SEM-I (lit/lexicon/data/erg-2025-semi.json)",
            "built_by": "tools/build_wordnet.py",
            "mapping": "first WordNet sense of the lemma with the same part of speech, "
                       "overrides from tools/wordnet-overrides.tsv; ambiguous: first sense "
                       f"tagged fewer than {DOMINANT} times as often as the second "
                       "(cntlist.rev)",
        },
        "preds": mapping,
        "hypernyms": {s: hyper[s] for s in sorted(keep) if hyper.get(s)},
        "antonyms": antonyms,
        "informal": sorted(register & set(mapping.values())),
        "senses": {p: names[p] for p in sorted(mapping) if p in names},
        "ambiguous": sorted(unclear),
    }


#: Module -> (lexicon relation, parts of speech it substitutes).
TABLES = {"hyper": ("hypernym", "nv"), "hypo": ("hyponym", "nv"),
          "sibling": ("sibling", "n"), "antonym": ("antonym", "nva")}
TABLE_DIR = ROOT / "lit" / "rules" / "modules" / "data"
#: Keys are words of letters only, this long at least (no letter names like _a_n_1).
MIN_KEY_LENGTH = 3


def write_tables(min_key_zipf: float, min_zipf: float, per_word: int, out: Path) -> None:
    """The lexical modules' rule tables, from the shipped mapping (lit.lexicon)."""
    from lit.lexicon import Lexicon, candidates, lemma, pos, zipf

    lex = Lexicon.load()
    for module, (rel, parts) in TABLES.items():
        rows = []
        for pred in sorted(lex.preds):
            word = (lemma(pred) or "").replace(" ", "")
            if pos(pred) in parts and zipf(pred) >= min_key_zipf and word.isalpha() \
                    and len(word) >= MIN_KEY_LENGTH:
                rows += [(pred, c) for c in candidates(pred, rel, min_zipf=min_zipf,
                                                       max_candidates=per_word)]
        path = out / f"{module}.tsv"
        with path.open("w", encoding="utf-8") as f:
            f.write(f"# {module}: ERG 2025 predicate -> {rel} (best first). Generated by "
                    f"tools/build_wordnet.py --tables --min-key-zipf {min_key_zipf} "
                    f"--min-zipf {min_zipf} --per-word {per_word}\n# from "
                    "lit/lexicon/data/wordnet-erg.json.gz: Princeton WordNet 3.0 (WordNet 3.0 "
                    "licence, lit/lexicon/data/LICENSE-WordNet) mapped to the ERG 2025 SEM-I.\n")
            f.write(f"word\t{rel}\n")
            f.writelines(f"{a}\t{b}\n" for a, b in rows)
        print(f"{path}: {len(rows)} rows, {len({a for a, _ in rows})} words")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--semi", type=Path, default=SEMI)
    ap.add_argument("--overrides", type=Path, default=OVERRIDES)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--tables", action="store_true",
                    help="write the lexical modules' rule tables instead")
    ap.add_argument("--min-key-zipf", type=float, default=3.5)
    ap.add_argument("--min-zipf", type=float, default=4.0)
    ap.add_argument("--per-word", type=int, default=3)
    args = ap.parse_args()
    if args.tables:
        write_tables(args.min_key_zipf, args.min_zipf, args.per_word, TABLE_DIR)
        return
    data = build(args.wordnet, args.semi, args.overrides)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    with gzip.GzipFile(args.out, "wb", mtime=0) as f:
        f.write(text.encode("utf-8"))
    print(f"{len(data['preds'])} predicates -> {len(set(data['preds'].values()))} synsets; "
          f"{len(data['hypernyms'])} synsets with hypernyms; {len(data['antonyms'])} with "
          f"antonyms; wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
