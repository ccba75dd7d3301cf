"""The repository explains itself: the rules are inside it and in step with the spec, every rule the code
cites exists, no tracker number stands in for a name, and every link of the documentation resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: The spec files brought into docs/, and the only differences allowed: (text in the spec, text in docs/).
#: The spec lives outside the project (``shared/spec/`` in a folder above it, when it exists there).
IN_STEP: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "rules.md": (
        "RULES.md",
        (
            (
                "`../reference/regulations-2024-tianshui.txt`",
                "[`docs/reference/regulations-2024-tianshui.txt`](reference/regulations-2024-tianshui.txt)",
            ),
        ),
    ),
    "outputs.md": ("OUTPUTS.md", (("(RULES.md §11)", "(docs/rules.md §11)"),)),
}


def _spec_dir() -> Path | None:
    """``shared/spec`` beside the project or beside a folder above it (a worktree sits one level lower)."""
    for folder in ROOT.parents:
        if (folder / "shared" / "spec" / "RULES.md").is_file():
            return folder / "shared" / "spec"
    return None


@pytest.mark.parametrize("name", sorted(IN_STEP))
def test_the_rules_in_docs_are_the_specs_rules(name: str) -> None:
    spec = _spec_dir()
    if spec is None:
        pytest.skip("no shared/spec/ beside the project: nothing to compare docs/ with")
    spec_name, substitutions = IN_STEP[name]
    expected = (spec / spec_name).read_text(encoding="utf-8")
    for old, new in substitutions:
        assert old in expected, f"{spec_name} no longer says {old!r}: update IN_STEP"
        expected = expected.replace(old, new)
    assert (DOCS / name).read_text(encoding="utf-8") == expected, (
        f"docs/{name} differs from {spec / spec_name}: copy the spec's change into docs/{name}"
    )


def rule_sections(text: str) -> set[str]:
    """``"5"`` for ``## 5. Swiss pairing``; ``"6.2"`` for item 2 of the numbered list inside §6."""
    found: set[str] = set()
    section = None
    for line in text.splitlines():
        heading = re.match(r"## (\d+)\. ", line)
        if heading:
            section = heading.group(1)
            found.add(section)
            continue
        item = re.match(r"(\d+)\. ", line)
        if item and section is not None:
            found.add(f"{section}.{item.group(1)}")
    return found


#: ``RULES.md §5``, ``docs/rules.md §6, §9, §10``, ``rules.md §2–§3``, ``RULES.md §6.4``
_CITATION = re.compile(r"(?:RULES|rules)\.md ((?:§\d+(?:\.\d+)?(?:, | and |–| or )?)+)")


def citations(text: str) -> list[str]:
    return [n for run in _CITATION.findall(text) for n in re.findall(r"§(\d+(?:\.\d+)?)", run)]


def _texts(*folders: str, suffixes: tuple[str, ...] = (".py", ".md")) -> dict[Path, str]:
    out: dict[Path, str] = {}
    for folder in folders:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in suffixes and path.is_file():
                out[path] = path.read_text(encoding="utf-8")
    return out


def test_the_section_reader_and_the_citation_finder() -> None:
    text = "## 5. Pairing\n1. first\n## 6. Ranking\n1. score\n2. 对手分\n"
    assert rule_sections(text) == {"5", "5.1", "6", "6.1", "6.2"}
    assert citations("see RULES.md §5 H3 and docs/rules.md §6, §9, §10; rules.md §2–§3.") == [
        "5", "6", "9", "10", "2", "3",
    ]  # fmt: skip


def test_every_cited_rule_exists_in_docs_rules() -> None:
    sections = rule_sections((DOCS / "rules.md").read_text(encoding="utf-8"))
    cited = {
        (path.relative_to(ROOT).as_posix(), n)
        for path, text in _texts("app", "tests", "docs", "bench", "scripts").items()
        for n in citations(text)
    }
    cited |= {("README.md", n) for n in citations((ROOT / "README.md").read_text(encoding="utf-8"))}
    assert len(cited) > 30  # the finder sees the code's citations
    missing = sorted((where, n) for where, n in cited if n not in sections)
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_the_code_cites_the_rules_inside_the_repository() -> None:
    outside = [
        path.relative_to(ROOT).as_posix()
        for path, text in _texts("app", "tests", "bench", "scripts").items()
        if path != Path(__file__).resolve() and re.search(r"(?<![/\w])(RULES|OUTPUTS|ARCHITECTURE)\.md", text)
    ]
    assert not outside, f"cite docs/rules.md (or docs/outputs.md, docs/architecture.md) instead: {outside}"


def test_no_tracker_number_stands_for_a_capability() -> None:
    """Name the capability or the rule, not the number it had in a tracker outside the repository."""
    pattern = re.compile(r"\bissue[ _-]?\d+", re.IGNORECASE)
    hits = [
        f"{path.relative_to(ROOT).as_posix()}:{i}: {line.strip()}"
        for path, text in _texts("app", "tests", "bench", "scripts", "docs").items()
        if path != Path(__file__).resolve()
        for i, line in enumerate(text.splitlines(), 1)
        if pattern.search(line)
    ]
    hits += [
        f"{name}: {line.strip()}"
        for name in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md", "Makefile", "pyproject.toml")
        if (ROOT / name).exists()
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines()
        if pattern.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_the_version_is_written_once_and_the_changelog_names_it() -> None:
    import tomllib

    import app

    assert re.fullmatch(r"\d+\.\d+\.\d+", app.__version__)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    released = re.findall(r"^## (\d+\.\d+\.\d+) ", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert released[0] == app.__version__, "CHANGELOG.md's newest version is not app.__version__"
    assert released == sorted(released, key=lambda v: tuple(map(int, v.split("."))), reverse=True)


def test_the_lock_file_names_the_programs_version() -> None:
    import app
    from app.db.lock import program_version

    assert program_version() == app.__version__


def mypy_excused(pyproject: str) -> set[str]:
    """The app modules a mypy override in ``pyproject`` touches (any option on an app.* module counts,
    and any module whose errors are ignored); none when there is no override at all."""
    import tomllib

    overrides = tomllib.loads(pyproject).get("tool", {}).get("mypy", {}).get("overrides", [])
    modules: set[str] = set()
    for o in overrides:
        names = [o["module"]] if isinstance(o["module"], str) else o["module"]
        if o.get("ignore_errors") or any(n.startswith("app") for n in names):
            modules |= set(names)
    return modules


def test_no_module_is_excused_from_strict_typing() -> None:
    """mypy --strict covers every module of app/: an override that excuses one (again) is refused."""
    excused = mypy_excused((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert not excused, f"excused from mypy --strict: {sorted(excused)}"
    # the reader sees an app module however it is excused, and no override at all is none excused
    libraries = '[[tool.mypy.overrides]]\nmodule = ["rustworkx.*"]\nignore_missing_imports = true\n'
    assert mypy_excused(f"[tool.mypy]\nstrict = true\n{libraries}") == set()
    assert mypy_excused("[tool.mypy]\nstrict = true\n") == set()
    assert mypy_excused("[project]\nname = 'x'\n") == set()
    grown = '[[tool.mypy.overrides]]\nmodule = "app.cli.rounds"\ndisallow_untyped_defs = false\n'
    assert mypy_excused(f"[tool.mypy]\n{grown}") == {"app.cli.rounds"}
    again = '[[tool.mypy.overrides]]\nmodule = ["app.services.rounds"]\nignore_errors = true\n'
    assert mypy_excused(f"[tool.mypy]\n{libraries}{again}") == {"app.services.rounds"}


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped (CJK kept), spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in re.sub(r"(?ms)^```.*?^```", "", markdown).splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            slug = github_anchor(heading.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(markdown: str) -> list[str]:
    """The targets of the Markdown links and images that point inside the repository."""
    text = re.sub(r"(?ms)^```.*?^```", "", markdown)
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    return [t for t in _LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_the_link_reader() -> None:
    text = "[a](docs/x.md#two-words) ![b](docs/screenshots/p.png) [c](https://e.org) `[d](no.md)`\n## Two words\n"
    assert relative_links(text) == ["docs/x.md#two-words", "docs/screenshots/p.png"]
    assert anchors(text) == {"two-words"}
    assert (
        github_anchor("赛场网络 Hall network: pairings and standings")
        == "赛场网络-hall-network-pairings-and-standings"
    )


def test_every_relative_link_of_the_documentation_resolves() -> None:
    pages = [ROOT / name for name in ("README.md", "CHANGELOG.md", "CONTRIBUTING.md", "LICENSE")]
    pages += sorted(DOCS.rglob("*.md"))
    broken = []
    for page in pages:
        if not page.exists() or page.suffix != ".md":
            continue
        text = page.read_text(encoding="utf-8")
        for target in relative_links(text):
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT)} → {target}"
            if not resolved.exists():
                broken.append(f"{where}: no such file")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved.read_text("utf-8")):
                broken.append(f"{where}: no such heading")
    assert not broken, "\n".join(broken)


def test_the_frozen_builds_lock_pins_every_shipped_package() -> None:
    """requirements-dist.lock (make dist) names an exact version of every dependency pyproject declares
    for running, and of PyInstaller; the Windows-only ones carry their marker."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins: dict[str, Requirement] = {}
    for line in (ROOT / "requirements-dist.lock").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            req = Requirement(line)
            assert len(req.specifier) == 1 and next(iter(req.specifier)).operator == "==", line
            pins[canonicalize_name(req.name)] = req
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for spec in [*project["dependencies"], *project["optional-dependencies"]["dist"]]:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is shipped but not locked: run make lock"
        version = next(iter(pins[name].specifier)).version
        assert req.specifier.contains(version), (
            f"{req.name}=={version} is outside pyproject's {req.specifier}"
        )
    assert {"pefile", "pywin32-ctypes"} <= {n for n, r in pins.items() if r.marker is not None}
