"""The map JSON the web client draws (``RuleSystem.map_json()``), for either topology.

Every document has ``"topology"``: ``"hex"`` or ``"graph"``, and plane coordinates in
metres (east = +x, north = +y), so the client needs no hex codec and no projection.
The contract is written down in ``docs/maps.md``; :func:`map_problem` checks it.

* hex: ``hexes`` [{``id``, ``xy``, ...}], ``layout.corners`` (the six corner offsets
  from a hex centre), ``hexsides`` [{``a``, ``b``, ``seg``: [[x1, y1], [x2, y2]], ...}];
* graph: ``positions`` [{``id``, ``name``, ``xy``, ...}], ``links`` [{``a``, ``b``,
  ``kind``, ...}].

Whatever else a system puts in its rows (terrain, roads, victory...) passes through.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from gettysburg.core.battlefield import Battlefield
from gettysburg.core.canonical import JSONDict
from gettysburg.core.geo import LocalProjection
from gettysburg.core.hexes import Hex, Hexside, Layout
from gettysburg.core.hexids import HexCodec
from gettysburg.core.topology import HexGrid, PositionGraph

TOPOLOGIES = ("hex", "graph")


def _pt(x: float, y: float) -> list[float]:
    return [round(x, 2), round(y, 2)]


def layout_of(doc: Mapping[str, Any]) -> Layout:
    """The :class:`Layout` a map document stores under ``layout`` (basis_q, basis_r,
    origin), with an error naming the field when it is malformed."""
    try:
        lay = doc["layout"]
        return Layout(basis_q=(float(lay["basis_q"][0]), float(lay["basis_q"][1])),
                      basis_r=(float(lay["basis_r"][0]), float(lay["basis_r"][1])),
                      origin=(float(lay["origin"][0]), float(lay["origin"][1])))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ValueError(f"map: field 'layout' needs basis_q, basis_r and origin ({exc})") from None


def hex_map_json(doc: Mapping[str, Any], codec: HexCodec) -> JSONDict:
    """``doc`` (``layout``, ``hexes`` with ids, ``hexsides`` with ``a``/``b``) with
    ``topology: "hex"`` and plane coordinates added: each hex's centre ``xy``, the six
    corner offsets in ``layout.corners``, each hexside's end points ``seg`` (a hexside
    whose hexes are not neighbours is left out). ``doc`` itself is not changed."""
    layout = layout_of(doc)
    rows = list(doc.get("hexes", []))
    out: JSONDict = {**doc, "topology": "hex"}
    hexes = []
    for row in rows:
        hexes.append({**row, "xy": _pt(*layout.to_plane(codec.parse(row["id"])))})
    out["hexes"] = hexes
    if rows:
        zero = codec.parse(rows[0]["id"])
        cx, cy = layout.to_plane(zero)
        out["layout"] = {**doc["layout"],
                         "corners": [_pt(x - cx, y - cy) for x, y in layout.corners(zero)]}
    sides = []
    for row in doc.get("hexsides", []):
        try:
            p, q = layout.hexside_segment(
                Hexside.between(codec.parse(row["a"]), codec.parse(row["b"])))
        except ValueError:
            continue
        sides.append({**row, "seg": [_pt(*p), _pt(*q)]})
    out["hexsides"] = sides
    return out


def layout_json(layout: Layout) -> JSONDict:
    """A layout as map documents store it (four decimals)."""
    return {"basis_q": [round(v, 4) for v in layout.basis_q],
            "basis_r": [round(v, 4) for v in layout.basis_r],
            "origin": [round(v, 4) for v in layout.origin]}


def grid_map_json(
    grid: HexGrid,
    hexes: Mapping[Hex, Mapping[str, Any]] | None = None,
    sides: Mapping[Hexside, Mapping[str, Any]] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> JSONDict:
    """A hex grid as map JSON: every hex of ``grid`` (with the fields ``hexes`` gives it,
    and its ``sheet`` where the grid has sheets: the first by name), the hexsides
    ``sides`` gives fields to, and ``extra`` top-level fields."""
    sheet_of: dict[Hex, str] = {}
    for name in sorted(grid.sheets, reverse=True):
        for h in grid.sheets[name]:
            sheet_of[h] = name
    rows = []
    for h in grid.hexes:
        row: dict[str, Any] = {**(hexes or {}).get(h, {}), "id": grid.id(h)}
        if h in sheet_of:
            row["sheet"] = sheet_of[h]
        rows.append(row)
    side_rows = [{**fields, "a": grid.id(s.a), "b": grid.id(s.b)}
                 for s, fields in sorted((sides or {}).items())]
    doc = {**(extra or {}), "layout": layout_json(grid.layout), "hexes": rows,
           "hexsides": side_rows}
    return hex_map_json(doc, grid.codec)


def graph_map_json(graph: PositionGraph, extra: Mapping[str, Any] | None = None) -> JSONDict:
    """A position graph as map JSON: ``topology: "graph"``, each position's ``id``,
    ``name``, ``xy`` (and its attributes), each link's ``a``, ``b``, ``kind`` (and its
    attributes). ``extra`` adds top-level fields (``system``, ``meta``...)."""
    positions = []
    for p in graph.positions:
        x, y = graph.projection.to_xy(p.lon, p.lat)
        positions.append({**p.attrs, "id": p.id, "name": p.name, "xy": _pt(x, y)})
    links = [{**k.attrs, "a": k.a, "b": k.b, "kind": k.kind} for k in graph.links]
    return {**(extra or {}), "topology": "graph", "positions": positions, "links": links}


def _is_point(v: object) -> bool:
    return (isinstance(v, list) and len(v) == 2
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v))


def map_problem(doc: object) -> str | None:
    """What is wrong with a map document, naming the field (``None`` if it keeps the
    contract of ``docs/maps.md``)."""
    if not isinstance(doc, dict):
        return "map: expected a JSON object"
    topo = doc.get("topology")
    if topo not in TOPOLOGIES:
        return f"map: field 'topology' must be one of {list(TOPOLOGIES)}, got {topo!r}"
    if topo == "hex":
        hexes = doc.get("hexes")
        if not isinstance(hexes, list):
            return "map: field 'hexes' must be a list"
        ids: set[str] = set()
        for i, row in enumerate(hexes):
            if not isinstance(row, dict) or not isinstance(row.get("id"), str):
                return f"map: hexes[{i}]: field 'id' must be a string"
            if not _is_point(row.get("xy")):
                return f"map: hexes[{i}] ({row['id']}): field 'xy' must be [x, y]"
            ids.add(row["id"])
        corners = (doc.get("layout") or {}).get("corners") if hexes else []
        if hexes and (not isinstance(corners, list) or len(corners) != 6
                      or not all(_is_point(c) for c in corners)):
            return "map: field 'layout.corners' must be six [x, y] offsets"
        sides = doc.get("hexsides", [])
        if not isinstance(sides, list):
            return "map: field 'hexsides' must be a list"
        for i, row in enumerate(sides):
            if not isinstance(row, dict) or row.get("a") not in ids or row.get("b") not in ids:
                return f"map: hexsides[{i}]: fields 'a' and 'b' must be hex ids of 'hexes'"
            seg = row.get("seg")
            if not (isinstance(seg, list) and len(seg) == 2 and all(_is_point(p) for p in seg)):
                return f"map: hexsides[{i}]: field 'seg' must be [[x1, y1], [x2, y2]]"
        return None
    positions = doc.get("positions")
    if not isinstance(positions, list):
        return "map: field 'positions' must be a list"
    pids: set[str] = set()
    for i, row in enumerate(positions):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            return f"map: positions[{i}]: field 'id' must be a string"
        if not isinstance(row.get("name"), str):
            return f"map: positions[{i}] ({row['id']}): field 'name' must be a string"
        if not _is_point(row.get("xy")):
            return f"map: positions[{i}] ({row['id']}): field 'xy' must be [x, y]"
        if row["id"] in pids:
            return f"map: positions[{i}]: field 'id' {row['id']!r} is used twice"
        pids.add(row["id"])
    links = doc.get("links")
    if not isinstance(links, list):
        return "map: field 'links' must be a list"
    for i, row in enumerate(links):
        if not isinstance(row, dict) or row.get("a") not in pids or row.get("b") not in pids:
            return f"map: links[{i}]: fields 'a' and 'b' must be position ids of 'positions'"
        if not isinstance(row.get("kind"), str):
            return f"map: links[{i}]: field 'kind' must be a string"
    return None


#: Landcover drawn under a graph map, in drawing order.
GROUND_AREAS = ("field", "woods", "orchard", "marsh", "rocks", "town")


def ground_layer(bf: Battlefield, projection: LocalProjection, *,
                 tolerance_m: float = 12.0) -> JSONDict:
    """The ground under a map, to draw beneath it: landcover areas (``areas``: each a
    ``kind`` and the ``points`` of its outline) and streams and roads (``lines``: a
    ``kind`` such as ``stream``, ``pike``, ``road``, ``lane`` or ``railroad``, and its
    ``points``), in the map's metres (north = +y), simplified to ``tolerance_m`` so the
    client gets a light picture, not the survey."""
    def project(geom: BaseGeometry) -> BaseGeometry:
        offset = np.array([projection.lon0, projection.lat0])
        scale = np.array([projection.kx, projection.ky])
        return shapely.transform(geom, lambda xy: (xy - offset) * scale).simplify(tolerance_m)

    def parts(geom: BaseGeometry) -> list[BaseGeometry]:
        return list(getattr(geom, "geoms", [geom]))

    areas: list[JSONDict] = []
    for kind in GROUND_AREAS:
        for f in sorted(bf.of_kind(kind), key=lambda f: f.id):
            for poly in parts(project(f.lonlat)):
                if poly.geom_type == "Polygon" and not poly.is_empty:
                    areas.append({"kind": kind, "points": [_pt(x, y) for x, y in
                                                           poly.exterior.coords[:-1]]})
    lines: list[JSONDict] = []
    for f in sorted(bf.of_kind("stream", "road", "railroad"), key=lambda f: f.id):
        kind = "stream" if f.kind == "stream" else (
            "railroad" if f.kind == "railroad" else str(f.props.extra("class", "road")))
        for line in parts(project(f.lonlat)):
            if line.geom_type == "LineString" and not line.is_empty:
                lines.append({"kind": kind, "points": [_pt(x, y) for x, y in line.coords]})
    return {"areas": areas, "lines": lines}
