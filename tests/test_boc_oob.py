"""Order of battle and command hierarchy of Badges of Courage (3.1, 4.x)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gettysburg.boc.oob import (
    EXPECTED_COUNTS,
    HIERARCHY_FILE,
    MOVEMENT,
    DataError,
    default_hierarchy,
    default_oob,
    load_hierarchy,
    load_units,
)

OOB = default_oob()
H = default_hierarchy()


# --- counts (3.1 table, 4.2) -------------------------------------------------------------------
@pytest.mark.parametrize("side", ["usa", "csa"])
def test_counts_by_side_and_type(side: str) -> None:
    assert OOB.counts(side) == dict(EXPECTED_COUNTS[side])  # type: ignore[index]


def test_totals_and_hq_kinds() -> None:
    assert len(OOB.side("usa")) == 108
    assert len(OOB.side("csa")) == 76
    assert len(OOB) == 184
    assert OOB.hq_counts("usa") == {
        "ahq": 1,
        "chq": 7,
        "dhq": 19,
        "art_hq": 1,
        "cav_chq": 1,
        "cav_dhq": 3,
    }
    assert OOB.hq_counts("csa") == {"ahq": 1, "chq": 3, "dhq": 10, "art_hq": 1, "cav_chq": 1}
    # 4.21: nine CSA division HQs plus Trimble, the Day 3 replacement
    assert {u.id for u in OOB.side("csa") if u.type == "dhq"} == {
        "csa-mclaws",
        "csa-hood",
        "csa-pickett",
        "csa-early",
        "csa-johnson",
        "csa-rodes",
        "csa-anderson",
        "csa-heth",
        "csa-pender",
        "csa-trimble",
    }


def test_every_named_unit_exists() -> None:
    for uid in [
        "usa-reynolds",
        "usa-meredith",
        "usa-coster",
        "csa-iverson",
        "usa-sickles",
        "usa-schimmelfennig",
        "csa-pender",
        "usa-buford",
        "usa-gamble",
        "usa-devin",
        "usa-merritt",
        "usa-gregg",
        "usa-kilpatrick",
        "usa-custer",
        "usa-farnsworth",
        "usa-mcintosh",
        "usa-huey",
        "csa-stuart",
        "csa-hampton",
        "csa-lee-fitz",
        "csa-chambliss",
        "csa-imboden",
        "csa-robertson-bh",
        "csa-jones-we",
        "csa-jenkins",
        "csa-jones-jm",
        "csa-jones-hp",
        "csa-alexander-hq",
        "csa-alexander-art",
        "usa-tompkins-1",
        "usa-tompkins-2",
        "csa-trimble",
    ]:
        assert uid in OOB, uid


def test_ids_unique_kebab_and_side_prefixed() -> None:
    for u in OOB:
        assert u.id.startswith(u.side + "-")
        assert u.id == u.id.lower()


@pytest.mark.parametrize(
    ("alias", "side", "uid"),
    [
        ("Sedgewick", "usa", "usa-sedgwick"),
        ("Pleasanton", "usa", "usa-pleasonton"),
        ("Sckles", "usa", "usa-sickles"),
        ("Muhlenburg", "usa", "usa-muhlenberg"),
        ("McGilvrey", "usa", "usa-mcgilvery"),
        ("TOMKINS-1", "usa", "usa-tompkins-1"),
        ("TOMKINS-2", "usa", "usa-tompkins-2"),
        ("MARTIN", "usa", "usa-martin"),
        ("De Trobriand", "usa", "usa-detrobriand"),
        ("Meritt", "usa", "usa-merritt"),
    ],
)
def test_seed_spellings_are_aliases(alias: str, side: str, uid: str) -> None:
    assert [u.id for u in OOB.by_alias(alias, side)] == [uid]  # type: ignore[arg-type]


def test_german_stuart_in_ii_corps_is_steuart() -> None:
    hits = {u.id for u in OOB.by_alias("Stuart", "csa") if u.corps == "II"}
    assert hits == {"csa-steuart"}


def test_repeated_names_are_distinct_blocks() -> None:
    assert {u.id for u in OOB.by_alias("Jones", "csa")} == {
        "csa-jones-jm",
        "csa-jones-hp",
        "csa-jones-we",
    }
    assert {u.id for u in OOB.by_alias("Lane", "csa")} == {"csa-lane-jh", "csa-lane-j"}
    assert {u.id for u in OOB.by_alias("Garnett", "csa")} == {"csa-garnett-rb", "csa-garnett-jj"}
    assert {u.id for u in OOB.by_alias("Robertson", "csa")} == {
        "csa-robertson-jb",
        "csa-robertson-bh",
    }
    assert OOB["usa-martin"].type == "artillery"
    assert OOB["usa-tompkins-1"].type == "artillery"


# --- printed values are binding ------------------------------------------------------------
def test_printed_values() -> None:
    assert OOB["usa-meade"].command_range == 3  # supply example beside 8.0
    b = OOB["usa-berdan"]
    assert (b.morale, b.firepower, b.melee_firepower) == ("A", 3, 1)  # 3.31
    assert {"berdan", "independent"} <= set(b.special)
    lw = OOB["usa-lockwood"]
    assert (lw.morale, lw.firepower, lw.division) == ("B", 2, None)  # 3.32
    assert "corps_asset" in lw.special
    for u in OOB:
        if u.type in {"artillery", "horse_artillery"}:
            assert (u.firepower, u.long_firepower) == (3, 1), u.id
            assert u.morale in {"A", "B"}, u.id
            assert u.rating in {"A3/1", "B3/1"}
        else:
            assert u.long_firepower is None
        if u.is_hq:
            assert u.command_range is not None and 1 <= u.command_range <= 3, u.id
        else:
            assert u.command_range is None
        assert u.basis.strip()


def test_movement_table_by_type() -> None:
    assert {k: m.allowance for k, m in MOVEMENT.items()} == {
        "ahq": 8,
        "chq": 8,
        "dhq": 8,
        "art_hq": 8,
        "cav_chq": 10,
        "cav_dhq": 10,
        "infantry": 6,
        "artillery": 8,
        "cavalry": 10,
        "horse_artillery": 10,
    }
    assert MOVEMENT["artillery"].off_road_multiplier == 2
    assert OOB["usa-pleasonton"].movement.allowance == 10
    assert OOB["csa-lee"].movement.allowance == 8


# --- hierarchy (4.6 table and boxes) -------------------------------------------------------
def test_seniority_table() -> None:
    usa = [(r.rank, r.chq, r.corps, r.successor) for r in H.usa.chq_seniority]
    assert usa == [
        (1, "usa-slocum", "XII", "usa-williams"),
        (2, "usa-sedgwick", "VI", "usa-newton"),
        (3, "usa-reynolds", "I", "usa-doubleday"),
        (4, "usa-howard", "XI", "usa-schurz"),
        (5, "usa-hancock", "II", "usa-gibbon"),
        (6, "usa-sickles", "III", "usa-birney"),
        (7, "usa-sykes", "V", "usa-ayres"),
        (8, "usa-pleasonton", "cavalry", "usa-buford"),
    ]
    csa = [(r.rank, r.chq, r.corps, r.successor) for r in H.csa.chq_seniority]
    assert csa == [
        (1, "csa-longstreet", "I", "csa-mclaws"),
        (2, "csa-ewell", "II", "csa-early"),
        (3, "csa-hill", "III", "csa-anderson"),
        (4, "csa-stuart", "cavalry", "csa-hampton"),
    ]
    assert H.usa.ahq == "usa-meade" and H.csa.ahq == "csa-lee"
    assert H.chq_successor("usa", "usa-slocum") == "usa-williams"


def test_every_unit_fits_the_hierarchy() -> None:
    for side in ("usa", "csa"):
        sc = H.side(side)  # type: ignore[arg-type]
        for u in OOB.side(side):  # type: ignore[arg-type]
            if u.corps in {"army", "reserve_artillery"}:
                continue
            corps = sc.corps[u.corps]
            if u.type in {"chq", "cav_chq"}:
                assert corps.chq == u.id
            elif u.division is None:
                assert u.id in corps.assets, u.id
            else:
                assert u.division in corps.divisions, u.id
        for name, corps in sc.corps.items():
            for uid in corps.assets:
                assert OOB[uid].corps == name and OOB[uid].division is None


def test_artillery_and_cavalry_commands() -> None:
    assert H.usa.artillery.hq == "usa-hunt" and H.usa.artillery.supplied_by == "usa-meade"
    assert "horse_artillery" in H.usa.artillery.excludes
    assert H.usa.artillery.also_fired_by is not None
    reserve = {u.id for u in OOB.side("usa") if u.corps == "reserve_artillery"}
    assert set(H.usa.artillery.units) == reserve and len(reserve) == 5
    assert H.csa.artillery.hq == "csa-alexander-hq"
    assert H.csa.artillery.supplied_by == "csa-lee"  # not Longstreet
    assert set(H.csa.artillery.units) == {u.id for u in OOB.side("csa") if u.type == "artillery"}
    for side in ("usa", "csa"):
        cav = H.side(side).cavalry  # type: ignore[arg-type]
        assert set(cav.commands) == {"cavalry", "horse_artillery"}
        for u in OOB.side(side):  # type: ignore[arg-type]
            if u.type == "horse_artillery":
                assert u.id in cav.units


def test_special_commands_and_hancock_option() -> None:
    special = {s.unit: s for s in H.usa.special}
    assert special["usa-lockwood"].kind == "corps_asset"
    assert special["usa-lockwood"].supplied_by == "usa-slocum"
    assert special["usa-berdan"].kind == "independent"
    ho = H.usa.hancock_option
    assert ho is not None
    assert (ho.unit, ho.delay_hours, ho.entry, ho.until) == (
        "usa-hancock",
        4,
        "Taneytown Road",
        "usa-meade",
    )
    trimble = {s.unit: s for s in H.csa.special}["csa-trimble"]
    assert trimble.replaces == "csa-pender"


# --- broken files give a clear error --------------------------------------------------------
def _units_raw() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load(Path(OOB.source).read_text(encoding="utf-8"))


def _write(tmp_path: Path, raw: object, name: str = "units.yaml") -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return p


def test_duplicate_unit_names_file_entry_field(tmp_path: Path) -> None:
    raw = _units_raw()
    raw["units"].append(dict(raw["units"][0]))
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_units(p)
    msg = str(ei.value)
    assert str(p) in msg and "usa-meade" in msg and "'id'" in msg and "duplicate" in msg


def test_bad_strength_names_file_entry_field(tmp_path: Path) -> None:
    raw = _units_raw()
    i = next(i for i, u in enumerate(raw["units"]) if u["id"] == "usa-stannard")
    raw["units"][i]["max_strength"] = 5
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_units(p)
    assert (ei.value.file, ei.value.entry, ei.value.field) == (
        str(p),
        "usa-stannard",
        "max_strength",
    )


def test_hq_without_range_is_an_error(tmp_path: Path) -> None:
    raw = _units_raw()
    i = next(i for i, u in enumerate(raw["units"]) if u["id"] == "usa-gibbon")
    del raw["units"][i]["command_range"]
    p = _write(tmp_path, raw)
    with pytest.raises(DataError, match="usa-gibbon"):
        load_units(p)


def test_count_breaking_the_table_is_an_error(tmp_path: Path) -> None:
    raw = _units_raw()
    raw["units"] = [u for u in raw["units"] if u["id"] != "usa-huey"]
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_units(p)
    assert ei.value.entry == "usa cavalry" and ei.value.field == "type"
    assert str(p) in str(ei.value)


def test_unknown_unit_in_hierarchy(tmp_path: Path) -> None:
    raw = yaml.safe_load(HIERARCHY_FILE.read_text(encoding="utf-8"))
    raw["usa"]["corps"]["I"]["assets"].append("usa-nobody")
    p = _write(tmp_path, raw, "hierarchy.yaml")
    with pytest.raises(DataError) as ei:
        load_hierarchy(p, OOB)
    assert "usa-nobody" in str(ei.value) and str(p) in str(ei.value)
    assert ei.value.entry == "usa.corps.I.assets"


def test_a_file_that_is_not_yaml_names_its_line(tmp_path: Path) -> None:
    """libyaml reads the data files when PyYAML has it; a broken file still gets the
    file's name and the line where its YAML breaks."""
    p = tmp_path / "units.yaml"
    p.write_text("units:\n  - id: usa-meade\n    name: [Meade\n  - id: usa-hunt\n",
                 encoding="utf-8")
    with pytest.raises(DataError) as ei:
        load_units(p)
    assert (ei.value.file, ei.value.field) == (str(p), "(yaml)")
    assert "not valid YAML" in str(ei.value) and "line 4" in str(ei.value), str(ei.value)


def test_libyaml_reads_the_shipped_data_as_pure_python_yaml_does() -> None:
    """The fast loader is only a faster reader: every shipped data file reads the same."""
    from gettysburg.boc.oob import read_yaml

    files = sorted(HIERARCHY_FILE.parent.rglob("*.yaml"))
    assert len(files) >= 6
    for f in files:
        assert read_yaml(f) == yaml.safe_load(f.read_text(encoding="utf-8")), f
