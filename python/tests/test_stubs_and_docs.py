"""The typing stubs name what the module has, and the examples in docs/python.md run."""

import ast
import pathlib
import re

import gloam
import gloam._gloam as native

HERE = pathlib.Path(__file__).resolve().parent
STUB = HERE.parent / "python" / "gloam" / "_gloam.pyi"
DOCS = [HERE.parent.parent / "docs" / "python.md", HERE.parent.parent / "README.md"]


def stub_names():
    tree = ast.parse(STUB.read_text())
    top = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top[node.name] = {
                item.name for item in node.body if isinstance(item, ast.FunctionDef)
            }
        elif isinstance(node, ast.FunctionDef):
            top[node.name] = set()
    return top


def test_the_stubs_match_the_module():
    stubs = stub_names()
    public = {name for name in dir(native) if not name.startswith("_")}
    assert public == set(stubs), (public ^ set(stubs))
    for cls in ("Game", "Request"):
        runtime = {n for n in dir(getattr(native, cls)) if not n.startswith("_")}
        stubbed = {n for n in stubs[cls] if not n.startswith("_")}
        assert runtime == stubbed, (cls, runtime ^ stubbed)
    assert (STUB.parent / "py.typed").exists()
    assert set(gloam.__all__) == public


def test_the_examples_in_the_docs_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for doc in DOCS:
        blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S)
        assert blocks, doc
        for block in blocks:
            exec(compile(block, str(doc), "exec"), {})
