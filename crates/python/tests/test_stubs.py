"""The type stubs (`python/yomi/_yomi.pyi`) describe the compiled module exactly: the same
names, the same methods (and which are properties or static methods), the same parameters
with the same defaults."""

import ast
import inspect
from pathlib import Path

import yomi
import yomi._yomi as native

STUB = Path(yomi.__file__).with_name("_yomi.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def typed_dict_names() -> set:
    """The stub's TypedDicts: classes based on TypedDict or on another of them."""
    names = {"TypedDict"}
    classes = [n for n in stub_tree().body if isinstance(n, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for node in classes:
            bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
            if node.name not in names and bases & names:
                names.add(node.name)
                grew = True
    return names


def is_typed_dict(node: ast.ClassDef) -> bool:
    return node.name in typed_dict_names()


def decorators(node: ast.FunctionDef) -> set:
    return {d.id for d in node.decorator_list if isinstance(d, ast.Name)}


def stub_params(node: ast.FunctionDef, drop_self: bool):
    """(name, default source or None) for each parameter of a stub function."""
    args = node.args
    names = [a.arg for a in args.args]
    defaults = [None] * (len(names) - len(args.defaults)) + [ast.unparse(d) for d in args.defaults]
    params = list(zip(names, defaults))
    return params[1:] if drop_self else params


def runtime_params(obj, drop_self: bool):
    sig = inspect.signature(obj)
    params = [
        (p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
        for p in sig.parameters.values()
    ]
    return params[1:] if drop_self else params


def normalise(params):
    # The stub writes defaults as Python source; repr() of the runtime default is the same
    # source for the str, int, bool and None defaults used here, up to quote style.
    return [(n, d.replace('"', "'") if d is not None else None) for n, d in params]


def test_module_names_match():
    tree = stub_tree()
    stub_names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and not is_typed_dict(node):
            stub_names.add(node.name)
        elif isinstance(node, ast.FunctionDef):
            stub_names.add(node.name)
    runtime_names = {n for n in dir(native) if not n.startswith("_")}
    assert stub_names == runtime_names
    assert set(yomi.__all__) == runtime_names
    assert isinstance(native.__version__, str)


def test_functions_match():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            runtime = getattr(native, node.name)
            assert normalise(stub_params(node, False)) == normalise(
                runtime_params(runtime, False)
            ), node.name


def test_classes_match():
    checked = 0
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef) or is_typed_dict(node):
            continue
        cls = getattr(native, node.name)
        members = vars(cls)
        stub_members = {}
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                stub_members[item.name] = item
            elif isinstance(item, ast.AnnAssign):
                stub_members[item.target.id] = item
        runtime_members = {n for n in members if not n.startswith("__")}
        stub_plain = {n for n in stub_members if not n.startswith("__")}
        assert stub_plain == runtime_members, node.name
        for name, item in stub_members.items():
            if name == "__init__":
                assert normalise(stub_params(item, True)) == normalise(
                    runtime_params(cls, False)
                ), node.name
                continue
            if name.startswith("__"):
                assert hasattr(cls, name), f"{node.name}.{name}"
                continue
            runtime = members[name]
            if isinstance(item, ast.AnnAssign):
                assert not callable(runtime), f"{node.name}.{name}"
                continue
            kinds = decorators(item)
            if "property" in kinds:
                assert inspect.isdatadescriptor(runtime), f"{node.name}.{name} is not a property"
            elif "staticmethod" in kinds:
                assert isinstance(runtime, staticmethod), f"{node.name}.{name}"
                assert normalise(stub_params(item, False)) == normalise(
                    runtime_params(getattr(cls, name), False)
                ), f"{node.name}.{name}"
            else:
                assert inspect.ismethoddescriptor(runtime), f"{node.name}.{name}"
                assert normalise(stub_params(item, True)) == normalise(
                    runtime_params(runtime, True)
                ), f"{node.name}.{name}"
            checked += 1
    assert checked > 60


def test_stub_is_packaged_with_a_marker():
    assert STUB.is_file()
    assert STUB.with_name("py.typed").is_file()
