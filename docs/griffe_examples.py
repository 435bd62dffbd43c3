"""A griffe extension for the API reference (mkdocs.yml loads it; it is not a page of the site).

bitdoku's docstrings are prose with numpy-style sections, and their doctests come in two forms:

- under a title ``Example`` underlined with dashes. griffe's numpy parser knows only ``Examples``: it renders any
  other underlined title as an admonition of prose, where the ``>>>`` lines become nested quotes and ``[...]``
  output lines broken cross-references (which ``mkdocs build --strict`` fails on). Such a title is read as
  ``Examples``;
- as a paragraph of ``>>>`` lines in the prose (``Grid.pattern``, ``as_grid``, ...), which Markdown would show
  as nested quotes too. Such a paragraph is put in a ``pycon`` code block, as the examples sections are.

Both happen before the docstrings are parsed; the source files are not touched.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

_EXAMPLE = re.compile(r"^([ \t]*)Example\n\1-{7}[ \t]*$", re.MULTILINE)
_DASHES = re.compile(r"^[ \t]*-{3,}[ \t]*$")
_DOCTEST_FLAGS = re.compile(r"[ \t]*#[ \t]*doctest:.*$")


def _fence_doctests(text: str) -> str:
    """Put each paragraph that starts with ``>>>`` outside an ``Examples`` section and a code fence in a fence."""
    lines = text.split("\n")
    out: list[str] = []
    section, fenced, i = "", False, 0
    while i < len(lines):
        line, stripped = lines[i], lines[i].strip()
        if stripped.startswith("```"):
            fenced = not fenced
        elif not fenced and stripped and i + 1 < len(lines) and _DASHES.match(lines[i + 1]):
            section = stripped.lower()
        elif (not fenced and section != "examples" and stripped.startswith(">>>")
              and (i == 0 or not lines[i - 1].strip())):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(_DOCTEST_FLAGS.sub("", lines[i]))
                i += 1
            out += [f"{indent}```pycon", *block, f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class NumpyExampleSections(Extension):
    """Render every doctest of a docstring as code: ``Example`` sections as numpy's ``Examples``, the rest fenced."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _fence_doctests(_EXAMPLE.sub(r"\1Examples\n\1--------", obj.docstring.value))
