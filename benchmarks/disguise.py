"""A copy disguised as students disguise one, for the similarity tests and benchmark."""
from __future__ import annotations

import re

KEEP = {"self", "__init__", "initialization", "make_move", "opponent_move", "expand_player", "expand_obstacles",
        "name", "version"}


def disguise(source: str) -> str:
    """What a student does to hide a copy: rename every own name, reorder the methods, rewrite the
    comments and docstrings, change the layout."""
    names = sorted((set(re.findall(r"\bdef (\w+)", source)) | set(re.findall(r"self\.(\w+)", source))
                    | set(re.findall(r"\b(\w+) = ", source))) - KEEP, key=len, reverse=True)
    for n, name in enumerate(names):
        source = re.sub(rf"\b{name}\b", f"q{n}_{name[::-1]}", source)
    source = re.sub(r"#.*", "# my own idea", source)
    source = re.sub(r'"""[\s\S]*?"""', '"""Written by me."""', source)
    for marker in ("\n    def ", "\ndef "):           # methods of a class, functions of a module
        head, found, body = source.partition(marker)
        if found:
            blocks = (marker.lstrip("\n") + body).split(marker)
            blocks = [b if b.startswith(marker.lstrip("\n")) else marker.lstrip("\n") + b for b in blocks]
            source = head + "\n\n" + "\n\n\n".join(reversed(blocks))
            break
    return source.replace(", ", " , ")
