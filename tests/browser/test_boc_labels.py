"""A BoC block drawn as its printed label reads (issue 57): own blocks show name, combat
rating, movement allowance, strength over maximum and type; a hidden enemy block shows
its back and nothing else."""

from __future__ import annotations

from typing import Any

import pytest

from browser.test_board_layout import _open, _strength

pytestmark = pytest.mark.usefixtures("boc_ready")

_DRAWN = """() => {
  // In the block's own frame (a block on the map is tilted; its words turn with it).
  const box = (e) => {
    if (!e) return null;
    const r = e.getBBox();
    return [r.x, r.y, r.x + r.width, r.y + r.height];
  };
  return [...document.querySelectorAll("g.unit")].map((g) => ({
    id: g.dataset.unit, side: g.dataset.side, face: box(g.querySelector("rect.face")),
    back: Boolean(g.querySelector("rect.back")),
    labels: [...g.querySelectorAll("text.block-label")]
      .map((t) => ({ text: t.textContent, box: box(t) })),
    rating: g.querySelector("text.block-rating")?.textContent ?? null,
    ratingBox: box(g.querySelector("text.block-rating")),
    movement: g.querySelector("text.block-movement")?.textContent ?? null,
    movementBox: box(g.querySelector("text.block-movement")),
    title: g.querySelector("title").textContent,
    words: [...g.querySelectorAll("text")].map((t) => t.textContent).join(" ") }));
}"""


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (outer[0] - 0.5 <= inner[0] and inner[2] <= outer[2] + 0.5
            and outer[1] - 0.5 <= inner[1] and inner[3] <= outer[3] + 0.5)


def _ink(box: list[float]) -> list[float]:
    """A text's box less the leading above and below its letters (a fallback font for a
    slash doubles the box's height in headless Chromium)."""
    pad = (box[3] - box[1]) * 0.2
    return [box[0], box[1] + pad, box[2], box[3] - pad]


def _apart(a: list[float], b: list[float]) -> bool:
    a, b = _ink(a), _ink(b)
    return a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5


@pytest.mark.parametrize("seat", ["usa", "csa"])
def test_own_blocks_show_their_label_and_hidden_ones_their_back(
        browser: Any, live: Any, seat: str, screenshot: Any) -> None:
    context, page, view = _open(browser, live, "day2", seat=seat)
    page.wait_for_selector(".offmap g.unit, g.units g.unit")
    units = {u["id"]: u for u in view["units"]}
    handles = {h["handle"] for h in view["hidden"]}
    drawn = page.evaluate(_DRAWN)
    own = [d for d in drawn if d["id"] in units]
    backs = [d for d in drawn if d["id"] in handles]
    assert len(own) == len(units) > 30 and len(backs) == len(handles) > 10
    for d in own:
        u = units[d["id"]]
        assert (d["rating"], d["movement"]) == (u["rating"], str(u["movement"])), d
        name, strength, _ = (label["text"] for label in d["labels"])
        assert name == u["name"] and strength == _strength(u), d
        assert f"{u['rating']}" in d["title"] and _strength(u) in d["title"], d
        # The rating and the movement sit inside the block, clear of the other words.
        for mark in (d["ratingBox"], d["movementBox"]):
            assert _inside(mark, d["face"]), d
            assert all(_apart(mark, label["box"]) for label in d["labels"]), d
        assert _apart(d["ratingBox"], d["movementBox"]), d
        assert not d["back"], d
    for d in backs:
        # The back: no word, no rating, no strength; the title says only "hidden".
        assert d["back"] and d["words"] == "" and d["rating"] is None, d
        assert d["title"] == "enemy block (hidden)", d
    if seat == "usa":
        screenshot(page, "labels")
    context.close()


def test_an_eliminated_block_reads_none_left(browser: Any, live: Any) -> None:
    """An eliminated block used to be drawn at the strength it last had (1): it has none."""
    context, page, view = _open(browser, live, "day1")
    unit = next(u for u in view["units"] if u["status"] == "reserve")
    texts = page.evaluate("""async (unit) => {
      const { Board } = await import("/static/js/board.js");
      const node = document.createElement("div");
      node.className = "board";
      document.body.append(node);
      const board = new Board(node, { map: null, seats: ["usa", "csa"] });
      board.render({ units: [{ ...unit, status: "eliminated", strength: 1 }], hidden: [] });
      const out = [...node.querySelectorAll("g.unit text")].map((t) => t.textContent);
      node.remove();
      return out;
    }""", unit)
    assert f"0/{unit['max_strength']}" in texts and "1" not in texts, texts
    assert unit["rating"] in texts, texts
    context.close()
