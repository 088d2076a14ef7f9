"""The package's import graph: no module imports one that imports it back (directly or round a
longer loop), and detection loads none of the PII tagger's training code."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import stealthflow

SOURCE = Path(stealthflow.__file__).resolve().parent.parent


def _modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under `root` (a package by its __init__.py)."""
    modules = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The module of `modules` that `name` (a module, or a name inside one) is, or lives in."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _type_checking_only(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING"


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of `modules` that `module` imports anywhere (inside functions too: a deferred import
    still runs), except under `if TYPE_CHECKING:`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    pending = [ast.parse(path.read_text(encoding="utf-8"))]
    while pending:
        node = pending.pop()
        if _type_checking_only(node):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            found.update(_known(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found.update(_known(f"{base}.{alias.name}", modules) for alias in node.names)
    return found - {None, module}


def import_cycles(root: Path) -> list[list[str]]:
    """Each set of modules under `root` that import one another round a loop (strongly connected
    components of the import graph with more than one module), sorted."""
    modules = _modules(root)
    graph = {module: _imports(module, path, modules) for module, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in graph[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while not component or component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(cycles)


def test_no_module_of_stealthflow_imports_itself_round_a_loop():
    assert import_cycles(SOURCE) == []


def test_a_loop_of_imports_is_found(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import x\n")
    (package / "b.py").write_text("def x():\n    from pkg import a\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    assert import_cycles(tmp_path) == [["pkg.a", "pkg.b"]]


def test_detection_imports_no_training_code():
    """The detector with every recognizer and the shipped tagger, run on a text each filter reads, in a
    fresh interpreter (a filter used to import the training data's conditions at run time)."""
    probe = (
        "from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer\n"
        "from stealthflow.placeholders.detector import Detector\n"
        "from stealthflow.placeholders.recognizers import build_recognizers\n"
        "text = 'I was diagnosed with diabetes. My friend Anna Berg earns $80k at Acme Corp, 12 Elm Street.'\n"
        "assert Detector([*build_recognizers(), PiiTaggerRecognizer()]).detect(text)\n"
    )
    assert _loaded_after(probe, "m.startswith(('stealthflow.pii_tagger.training', 'stealthflow.training'))") == []


def test_every_detection_module_imports_first_in_a_fresh_interpreter():
    """Package __init__ files count too: a module imported first (as a test file or a user may import
    it) must not meet a partly initialised one on its way round (pii_tagger.filters.health imported
    first once failed: placeholders.recognizers' __init__ imported the tagger, which needed filters)."""
    packages = ("stealthflow.pii_tagger", "stealthflow.placeholders", "stealthflow.anonymize")
    names = sorted(name for name in _modules(SOURCE) if name.startswith(packages) and not name.endswith("__main__"))
    probe = (
        "import importlib, sys\n"
        "failed = []\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith('stealthflow')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError as exc:\n"
        "        failed.append(f'{name}: {exc}')\n"
        "print('\\n'.join(failed))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", result.stdout


def test_restore_imports_neither_the_recognizers_nor_numpy():
    """Restore shares its Aho-Corasick builder with detection's gates through `placeholders.automaton`, not
    through the gate's module: importing that would load the recognizers package (and numpy) on the path of
    commands that only restore text, or only fail on bad arguments."""
    probe = (
        "from stealthflow.placeholders.restore import restore_text\n"
        "assert restore_text('to <EMAIL_1>', lambda ref: 'a@b.org').text == 'to a@b.org'\n"
    )
    assert _loaded_after(probe, "m == 'numpy' or m.startswith('stealthflow.placeholders.recognizers')") == []


def _loaded_after(probe: str, which: str) -> list[str]:
    """The modules (`m`) for which `which` holds that `probe` leaves loaded in a fresh interpreter."""
    probe += f"import sys\nprint('\\n'.join(m for m in sys.modules if {which}))\n"
    return subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=300
    ).stdout.split()
