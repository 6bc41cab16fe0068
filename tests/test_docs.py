"""The project's own documentation (docs/, issue 17): every rule id a test cites is defined on a page,
and nothing in the repository points outside it.

- Each game's tests (tests/games/<game>/) cite rule ids (ND-10.3, TK-05, AMB-07, TC-R01, ...); each
  must be defined on that game's page as a bold entry, `**ND-10.3**`. Ids cited by the generic tests
  (tests/*.py) must be defined on some page.
- No file of the repository names the specification, rulebook or research files that live outside
  it (`../shared`, `shared/rules`, `DESIGN.md`, `rules/<game>.md`, `research/...`).
- Every relative link of docs/ and README.md reaches a file of the repository, and a `#fragment`
  into a Markdown file a heading of it.

Reads files only: no kernel is imported or compiled.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
THIS = Path(__file__).resolve()

# A rule id as the tests cite them: the specifications' prefixes, a number or a letter-number
# (TC-R01, TC-D05), sub-numbers, an optional letter (CA-10.1b).
RULE_ID = re.compile(r"\b(?:CA|CB|ND|SB|PR|TK|AMB|INV|TC|DATA|SC)-[0-9A-Z]+(?:\.[0-9]+)*[a-z]?\b")
# A game's own further kinds of id (ambiguities, decision points, worked examples, hidden information).
GAME_IDS = {
    "notre_dame": re.compile(r"\b(?:A|DP)-[0-9]+\b"),
    "strasbourg": re.compile(r"\bD-[0-9]+\b"),
    "principato": re.compile(r"\b(?:DEC|EX|HI)-[0-9]+\b"),
}
PAGES = {"carcassonne": "carcassonne.md", "notre_dame": "notre_dame.md", "strasbourg": "strasbourg.md",
         "principato": "principato.md"}

SEARCHED = ("README.md", "docs", "tests", "simcore", "cli", "benchmarks", "tools", "scenarios", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".json", ".cfg", ".ini", ".yaml", ".yml", ".csv", ".log", ""}
# What lies outside the repository: the shared folder of the specifications, rulebooks and research
# notes, the design page, and those files by name.
OUTSIDE = {
    "the shared folder": re.compile(r"\.\./shared\b|\bshared/(?:rules|seeds|research|DESIGN)"),
    "the design page": re.compile(r"\bDESIGN\.md\b"),
    "a specification file": re.compile(
        r"(?<![\w.-])rules/(?:carcassonne_ark|carcassonne_base|notre_dame|strasbourg|principato)\.md\b"),
    "a research file": re.compile(r"(?<![\w.-])research/\w+\.(?:md|json)\b"),
    "a rulebook file": re.compile(r"\bseeds/\w+\.txt\b"),
}

LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def text_files(*places):
    """The repository's text files under places (files or folders), caches and this file left out."""
    for place in places:
        path = ROOT / place
        paths = [path] if path.is_file() else sorted(path.rglob("*")) if path.is_dir() else []
        for p in paths:
            if (p.is_file() and p.resolve() != THIS and "__pycache__" not in p.parts
                    and not any(part.startswith(".") for part in p.relative_to(ROOT).parts)
                    and p.suffix in TEXT_SUFFIXES):
                yield p


def read(path):
    return path.read_text(encoding="utf-8", errors="replace")


def cited(paths, patterns):
    """id -> the first file that cites it."""
    found = {}
    for path in paths:
        text = read(path)
        for pattern in patterns:
            for m in pattern.finditer(text):
                found.setdefault(m.group(0), path.relative_to(ROOT).as_posix())
    return found


def defined(page_text):
    """The ids a page defines: bold entries **ID**."""
    return set(re.findall(r"\*\*([A-Z]+-[0-9A-Z]+(?:\.[0-9]+)*[a-z]?)\*\*", page_text))


def page(name):
    path = DOCS / name
    return read(path) if path.is_file() else None


@pytest.mark.parametrize("game", sorted(PAGES))
def test_every_id_a_game_test_cites_is_defined_on_its_page(game):
    text = page(PAGES[game])
    assert text is not None, f"docs/{PAGES[game]} is missing"
    patterns = [RULE_ID] + ([GAME_IDS[game]] if game in GAME_IDS else [])
    ids = cited(text_files(f"tests/games/{game}"), patterns)
    missing = sorted(set(ids) - defined(text), key=natural)
    assert not missing, (f"docs/{PAGES[game]} does not define {len(missing)} cited ids: "
                         + ", ".join(f"{i} ({ids[i]})" for i in missing))


def test_every_id_a_generic_test_cites_is_defined_on_some_page():
    everywhere = set()
    for path in sorted(DOCS.glob("*.md")) if DOCS.is_dir() else []:
        everywhere |= defined(read(path))
    generic = [p for p in sorted((ROOT / "tests").glob("*.py")) if p.resolve() != THIS]
    ids = cited(generic, [RULE_ID])
    missing = sorted(set(ids) - everywhere, key=natural)
    assert not missing, "no page defines " + ", ".join(f"{i} ({ids[i]})" for i in missing)


@pytest.mark.parametrize("what", sorted(OUTSIDE))
def test_no_file_points_outside_the_repository(what):
    pattern = OUTSIDE[what]
    hits = []
    for path in text_files(*SEARCHED):
        for n, line in enumerate(read(path).splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT).as_posix()}:{n}: {pattern.search(line).group(0)}")
    assert not hits, f"{len(hits)} mentions of {what}:\n" + "\n".join(hits)


def test_every_link_of_the_documentation_reaches_the_repository():
    broken = []
    pages = [ROOT / "README.md"] + (sorted(DOCS.glob("*.md")) if DOCS.is_dir() else [])
    for source in pages:
        for target in LINK.findall(FENCE.sub("", read(source))):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):          # https:, mailto: ...
                continue
            where, _, fragment = target.partition("#")
            path = (source.parent / where).resolve() if where else source.resolve()
            name = f"{source.relative_to(ROOT).as_posix()} -> {target}"
            if ROOT.resolve() not in path.parents and path != ROOT.resolve():
                broken.append(f"{name}: outside the repository")
            elif not path.exists():
                broken.append(f"{name}: no such file")
            elif fragment and path.suffix == ".md" and fragment not in anchors(read(path)):
                broken.append(f"{name}: no such heading")
    assert not broken, "\n".join(broken)


def anchors(markdown):
    """The fragments GitHub gives a page's headings: lower case, punctuation dropped, spaces to
    hyphens, repeats numbered."""
    seen = {}
    result = set()
    for title in HEADING.findall(FENCE.sub("", markdown)):
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)        # a link's text only
        slug = re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else f"{slug}-{n}")
    return result


def natural(rule_id):
    """ND-2 < ND-10, TC-R02 < TC-R10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", rule_id)]


def test_the_checks_themselves():
    assert RULE_ID.findall("see ND-10.3, TC-R01 and CA-10.1b; not ND_10") == ["ND-10.3", "TC-R01", "CA-10.1b"]
    assert defined("- **ND-10.3** — text | **TK-05** |") == {"ND-10.3", "TK-05"}
    assert GAME_IDS["notre_dame"].findall("A-3 and DP-4, not DATA-1") == ["A-3", "DP-4"]
    assert GAME_IDS["strasbourg"].findall("D-5 but not TC-D05") == ["D-5"]
    assert {"component-data", "ambiguities-and-rule-switches", "simcore-check-game---data-file"} <= anchors(
        "## Component data\n### Ambiguities and rule switches\n## `simcore check GAME --data FILE`\n")
    assert OUTSIDE["the shared folder"].search("see ../shared/rules/x.md")
    assert OUTSIDE["a specification file"].search("(rules/notre_dame.md §20)")
    assert not OUTSIDE["a specification file"].search("simcore/boardgames/notre_dame/rules.py")
