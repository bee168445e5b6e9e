"""A linear scan of TOML text that finds nesting too deep for the parser, before it runs.

``tomllib`` parses arrays and inline tables by recursion (500 nested ``[`` raise a
RecursionError 3,000 lines long) and dotted keys in time quadratic in their parts (a key
of 20,000 parts takes 6 s). This scan follows just enough of TOML (strings, comments,
brackets, keys) to measure both, in one pass over the text, and names the line and column
where a limit is first passed.
"""

from __future__ import annotations

from puzzlebox.limits import MAX_KEY_PARTS, MAX_NESTING


def nesting_problem(
    text: str, max_nesting: int = MAX_NESTING, max_parts: int = MAX_KEY_PARTS
) -> tuple[int, int, str] | None:
    """``(line, column, what)`` of the first place nested deeper than the limits, or None.

    A scan that a malformed file confuses only errs towards letting the parser see the
    file: the parser then reports its own error with its own line.
    """
    line, column = 1, 0
    stack: list[str] = []  # "[" (array) or "{" (inline table) still open
    key_parts = 1
    in_key = True  # at the start of a line outside brackets, or after "{" or ","
    header = False  # inside a [table] or [[array]] header
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, column = line + 1, 0
            i += 1
            if not stack:
                in_key, key_parts, header = True, 1, False
            continue
        column += 1
        if ch == "#":
            end = text.find("\n", i)
            column += (n if end < 0 else end) - i - 1
            i = n if end < 0 else end
            continue
        if ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            j = i + len(quote)
            while j < n:
                if text.startswith(quote, j):
                    break
                if ch == '"' and text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    if len(quote) == 1:
                        break  # an unclosed one-line string: the parser will say so
                    line, column = line + 1, -1
                j += 1
                column += 1
            i = j + len(quote)
            column += len(quote)
            continue
        if in_key or header:
            if ch == ".":
                key_parts += 1
                if key_parts > max_parts:
                    return line, column, f"a key of more than {max_parts} dotted parts"
            elif ch == "=" and in_key:
                in_key, key_parts = False, 1
            elif ch == "[" and not stack and not header and in_key:
                header = True  # a table header: "[a.b]" or "[[a.b]]"
                if text.startswith("[", i + 1):
                    i += 1
                    column += 1
            elif ch == "]" and header:
                header, in_key = False, False
            i += 1
            continue
        if ch in "[{":
            stack.append(ch)
            if len(stack) > max_nesting:
                return line, column, (
                    f"arrays and inline tables nested more than {max_nesting} deep"
                )
            in_key, key_parts = ch == "{", 1
        elif ch in "]}":
            if stack:
                stack.pop()
        elif ch == "," and stack and stack[-1] == "{":
            in_key, key_parts = True, 1
        i += 1
    return None
