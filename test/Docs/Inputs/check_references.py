"""check_references.py ROOT: every citation of the design documents
("semantics §N", "pipeline §N") names a section that exists in
docs/design/, and every relative Markdown link under docs/ and in the
README names a file of the repository. Prints each dangling reference
as FILE:LINE: ... and exits 1 if there is one."""

import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
sources = (".rs", ".cpp", ".h", ".td", ".md", ".mlir", ".test", ".py", ".sh", ".c", ".toml")
skipped = {".git", "target", "Output", "node_modules"}


def files():
    for path in root.rglob("*"):
        if path.is_file() and path.suffix in sources and not skipped & set(path.relative_to(root).parts):
            yield path


sections = {}
for name in ("semantics", "pipeline"):
    text = (root / "docs" / "design" / f"{name}.md").read_text()
    sections[name] = set(re.findall(r"^## §(\d+)", text, re.M))

citation = re.compile(r"\b(semantics|pipeline) §(\d+)")
link = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
dangling = []
cited = 0
for path in files():
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        for document, section in citation.findall(line):
            cited += 1
            if section not in sections[document]:
                dangling.append(f"{path.relative_to(root)}:{number}: {document} §{section}")
        if path.suffix == ".md":
            for target in link.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                if not (path.parent / target).exists():
                    dangling.append(f"{path.relative_to(root)}:{number}: link {target}")
for entry in dangling:
    print(entry)
print(f"{cited} citations, {len(dangling)} dangling")
sys.exit(1 if dangling else 0)
