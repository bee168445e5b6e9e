"""The colours of every picture and of the terminal: one palette, and what is drawn on it.

Pure arithmetic on ``#RRGGBB`` strings (no matplotlib), so that a terminal colours a
solution's pieces as its picture does (render/terminal.py) without loading the drawing.
"""

from __future__ import annotations

from collections.abc import Iterable

# Okabe & Ito's colour-blind-safe set (without black), then Paul Tol's muted colours.
PALETTE: tuple[str, ...] = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#882255",  # wine
    "#44AA99",  # teal
    "#999933",  # olive
    "#332288",  # indigo
    "#BBBBBB",  # grey
)
OUTLINE = "#1A1A1A"
HOLE_FILL = "#E4E4E4"
HOLE_HATCH = "#9A9A9A"
BOARD_FILL = "#F7F7F7"
GRID_LINE = "#C8C8C8"

# characters that name a light and a dark board colour
LIGHT_NAMES = set("wWoO-_")
DARK_NAMES = set("bBkK#xX@*")


def rgb(color: str) -> tuple[float, float, float]:
    h = color.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def hex_color(channels: Iterable[float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02X}" for v in channels)


def mix(color: str, other: str, amount: float) -> str:
    """``color`` moved ``amount`` (0..1) of the way towards ``other``."""
    a, b = rgb(color), rgb(other)
    return hex_color(x + (y - x) * amount for x, y in zip(a, b, strict=True))


def luminance(color: str) -> float:
    """Relative luminance (WCAG), to pick black or white text on a fill."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(fill: str) -> str:
    return "#FFFFFF" if luminance(fill) < 0.22 else "#000000"


def shade(color: str, k: int) -> str:
    """The k-th shade of a hue: the colour itself, then lighter and darker versions."""
    steps = (0.0, 0.45, -0.3, 0.7, -0.5)
    step = steps[k % len(steps)]
    return mix(color, "#FFFFFF", step) if step >= 0 else mix(color, "#000000", -step)


def piece_color(index: int) -> str:
    """The colour of the ``index``-th piece: the palette, then its shades when it runs out."""
    return shade(PALETTE[index % len(PALETTE)], index // len(PALETTE))


def color_darkness(colors: Iterable[str]) -> dict[str, float]:
    """How dark to draw each board colour character (0 = not drawn, 1 = near black).

    Characters that name a light colour (``w``, ``o``) come first and characters that name a
    dark one (``b``, ``k``, ``#``) last; others keep their sorted order in between.
    """

    def rank(ch: str) -> tuple[int, str]:
        return (0 if ch in LIGHT_NAMES else 2 if ch in DARK_NAMES else 1, ch)

    ordered = sorted(set(colors), key=rank)
    if len(ordered) < 2:
        return {ch: 0.0 for ch in ordered}
    return {ch: i / (len(ordered) - 1) for i, ch in enumerate(ordered)}


def grey(darkness: float) -> str:
    v = 1.0 - 0.88 * darkness
    return hex_color((v, v, v))
