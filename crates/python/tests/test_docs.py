"""docs/python.md is a notebook: its python blocks run, in order, as one script, and print
what the page shows."""

import contextlib
import io
import os
import re


def blocks(text, lang):
    return re.findall(r"```" + lang + r"\n(.*?)```", text, flags=re.S)


def test_walkthrough_runs_and_prints_what_the_page_shows(root, tmp_path):
    page = (root / "docs" / "python.md").read_text()
    cells = blocks(page, "python")
    assert len(cells) >= 6
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)  # the package must not need the repository as its working directory
    try:
        namespace = {"__name__": "__walkthrough__"}
        with contextlib.redirect_stdout(out):
            for cell in cells:
                exec(compile(cell, "docs/python.md", "exec"), namespace)
    finally:
        os.chdir(here)
    printed = out.getvalue()
    for shown in blocks(page, "text"):
        assert shown in printed, shown
    assert "ValueError: illegal move (1,1) in position x...o...o" in printed
