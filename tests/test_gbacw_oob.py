"""The Three Days of Gettysburg order of battle (gbacw/data/oob): every record valid, the
organisation as the Official Records give it, strengths against the published totals, every
name that seed 004's set-ups and reinforcement tables print resolving to one record, and bad
data refused with the file, record and field named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from gettysburg.gbacw import oob
from gettysburg.gbacw.charts.datafile import DataError

DOC = Path(__file__).resolve().parents[1] / "docs" / "gbacw-order-of-battle.md"
RANGE = Path(oob.__file__).parent / "data" / "charts" / "range.yaml"


@pytest.fixture(scope="module")
def army() -> oob.Oob:
    return oob.load()


# --- the organisation ------------------------------------------------------------------------
#: corps id -> (divisions, infantry or cavalry brigades, artillery brigades or battalions), as
#: counted in the OR vol. 27 organisation tables (pt. 1 pp. 155-168; pt. 2 pp. 283-291)
OR_ORGANISATION = {
    "US-I": (3, 7, 1),
    "US-II": (3, 10, 1),
    "US-III": (2, 6, 1),
    "US-V": (3, 8, 1),  # Crawford's Second Brigade stayed in Washington
    "US-VI": (3, 8, 1),  # Howe's First Brigade had been broken up
    "US-XI": (3, 6, 1),
    "US-XII": (2, 6, 1),
    "US-AR": (0, 0, 5),
    "US-Cav": (3, 8, 2),
    "CS-I": (3, 11, 5),
    "CS-II": (3, 14, 5),  # 13 infantry brigades and the attached 1st Maryland Cavalry Battalion
    "CS-III": (3, 13, 5),
    "CS-Cav": (0, 7, 1),  # Hampton, Fitz Lee, W.H.F. Lee, Jenkins, Jones, Robertson, Imboden
}


def _count(corps: oob.Corps) -> tuple[int, int, int]:
    forms = [*corps.brigades]
    for div in corps.divisions:
        forms += [*div.brigades, *div.artillery]
    art = sum(1 for f in forms if f.arm in ("art", "horse_art"))
    return len(corps.divisions), len(forms) - art, art


def test_every_corps_of_both_armies_is_present(army: oob.Oob) -> None:
    assert sorted(c.id for _, c in army.corps()) == sorted(OR_ORGANISATION)


@pytest.mark.parametrize("corps_id", sorted(OR_ORGANISATION))
def test_divisions_and_brigades_match_the_official_records(army: oob.Oob, corps_id: str) -> None:
    assert _count(army.corps_by_id(corps_id)) == OR_ORGANISATION[corps_id]


def test_army_totals_match_the_published_counts(army: oob.Oob) -> None:
    # Army of the Potomac: 51 infantry brigades; ANV: 37 (digest §C, from OR vol. 27)
    def infantry_brigades(side: oob.Side) -> int:
        return sum(1 for _, c in army.corps(side) for d in c.divisions for b in d.brigades
                   if b.arm == "inf")
    assert infantry_brigades("union") == 51
    assert infantry_brigades("confederate") == 37
    # Abbott (Zouave v6n3): 354 Union guns engaged; allow 5 % for sections counted differently
    guns = sum(u.sp for u in army.units if u.side == "union" and u.unit.sections and u.unit.engaged)
    assert abs(guns - 354) <= 0.05 * 354


# --- strengths ---------------------------------------------------------------------------------
#: men per gun when a battery's crew is counted against a corps total (6-gun battery = 150)
MEN_PER_GUN = 25


@pytest.mark.parametrize("corps_id", sorted(OR_ORGANISATION))
def test_corps_strength_points_sum_to_within_ten_percent_of_the_published_figure(
        army: oob.Oob, corps_id: str) -> None:
    corps = army.corps_by_id(corps_id)
    men = 0
    for rec in army.units_of(corps_id):
        if not rec.unit.engaged:
            continue
        men += rec.sp * MEN_PER_GUN if rec.unit.sections else rec.sp * oob.MEN_PER_SP
    assert abs(men - corps.engaged.men) <= 0.10 * corps.engaged.men, (men, corps.engaged)


def test_strength_points_are_engaged_strength_over_fifty_rounded_half_up() -> None:
    assert [oob.strength_points(m) for m in (24, 25, 74, 75, 386, 839)] == [1, 1, 1, 2, 8, 17]
    assert [oob.dismounted_points(sp, 0.75) for sp in (1, 2, 6, 9)] == [1, 2, 5, 7]


# --- every record and counter ----------------------------------------------------------------
def test_every_counter_is_valid_and_uses_a_weapon_of_the_range_chart(army: oob.Oob) -> None:
    codes = {w["code"]: w["kind"] for w in yaml.safe_load(RANGE.read_text())["weapons"]}
    counters = army.counters()
    assert len(counters) > 700  # digest §C: about 750-850 counters
    ids = [c.id for c in counters]
    assert len(ids) == len(set(ids))
    for c in counters:
        assert c.weapon in codes, c.id
        assert codes[c.weapon] == ("artillery" if c.arm in ("art", "horse_art") else "small_arms")
        assert c.sp >= 1 and 2 <= c.cohesion_disordered < c.cohesion <= 9, c.id
        assert c.ma_disordered <= c.ma, c.id
        assert c.source, c.id


def test_cavalry_has_twin_counters_and_mixed_batteries_one_counter_per_section(
        army: oob.Oob) -> None:
    by_id = {c.id: c for c in army.counters()}
    mounted, dismounted = by_id["US-Cav:8 IL:mounted"], by_id["US-Cav:8 IL:dismounted"]
    # 470 men; the dismounted twin prints the same SP: the horse holders come off in play
    # (002 §14.25), not on the counter
    assert (mounted.sp, dismounted.sp) == (9, 9)
    assert dismounted.ma < mounted.ma and "sp" in dismounted.substitutes
    # 5th Michigan: 646 men = 13 SP, two battalions of 7 and 6 with Spencer rifles
    assert [by_id[f"US-Cav:5 MI Cav#{i}:mounted"].sp for i in (1, 2)] == [7, 6]
    assert by_id["US-Cav:5 MI Cav#1:mounted"].weapon == "SR"
    assert "battalions" in by_id["US-Cav:5 MI Cav#1:mounted"].substitutes
    sections = sorted((c.weapon, c.sp) for c in by_id.values() if c.unit == "Rowan")
    assert sections == [("N", 2), ("P10", 2), ("TB", 2)]
    assert {c.weapon for c in by_id.values() if c.unit == "Hardaway"} == {"TB", "W"}


#: battalion -> counters, where seed 004 counts them (sc.3 and sc.4 set-ups)
COUNTERS_004 = {
    "CS-Latimer/Johnson": 7, "CS-Jones/Early": 5, "CS-Carter/Rodes": 6,
    "CS-Poague/Pender": 9, "CS-Garnett/Heth": 9, "CS-McIntosh/III": 6,
    "CS-Nelson/II": 6, "CS-Dance/II": 6, "CS-Eshleman/I": 6,
}


@pytest.mark.parametrize("battalion", sorted(COUNTERS_004))
def test_guns_by_type_give_the_counters_seed_004_counts(army: oob.Oob, battalion: str) -> None:
    n = sum(1 for c in army.counters() if c.formation == battalion)
    assert n == COUNTERS_004[battalion]


# --- substitutes -----------------------------------------------------------------------------
def test_every_substitute_is_flagged_with_its_formula(army: oob.Oob) -> None:
    for name in ("cohesion", "movement", "dismounted", "battalions", "leaders"):
        formula = getattr(army.formulas, name)
        assert formula.substitute is True and formula.basis.strip()
    text = DOC.read_text(encoding="utf-8")
    for token in ("substitute", "engaged strength / 50", "green", "seasoned", "veteran",
                  "elite", "one trooper in four", "MEN_PER_GUN"):
        assert token in text, token
    for service, value in army.formulas.cohesion.by_service.items():
        assert f"| {service} | {value} |" in text
    for c in army.counters():
        if c.arm not in ("art", "horse_art"):
            assert "ma" in c.substitutes
    for rec in army.units:
        u = rec.unit
        if u.substitute:
            assert u.strength_basis and u.strength_basis.strip()
        if u.cohesion is not None:
            assert u.basis
        assert rec.formation.service_basis.strip()
    for lrec in army.leaders:
        assert lrec.leader.ratings_substitute


def test_leader_ratings_default_by_level_and_hand_ratings_carry_a_basis(army: oob.Oob) -> None:
    meredith = army.leader("meredith")
    assert meredith.stars == 1
    assert (army.rating("meredith", "profile"), army.rating("meredith", "orders")) == ("N", 0)
    hancock = army.leader("hancock")
    assert hancock.stars == 3 and army.rating("hancock", "efficiency") == 2 and hancock.basis
    assert army.leader("lee").stars == 4 and army.leader("warren").stars == 0


def test_replacement_chains(army: oob.Oob) -> None:
    # 004 §12.7: Hancock's counter flips to Caldwell; with Caldwell gone Gibbon takes the corps
    assert army.replacement_chain("hancock")[:2] == ["hancock", "caldwell"]
    assert army.corps_by_id("US-II").succession == ("hancock", "caldwell", "gibbon")
    # 004 reinforcement note [b]: Rowley is on the back of Doubleday's counter
    assert army.replacement_chain("reynolds")[:3] == ["reynolds", "doubleday", "rowley"]
    # 004 sc.4: Pettigrew leads Heth's division
    assert army.leader("heth").replacement == "pettigrew"
    assert army.leader("pendleton").replacement == "alexander"


def test_successors_without_counters_are_inline_records_with_a_basis(army: oob.Oob) -> None:
    """004 sc.4-5 flip von Gilsa's counter while he has Barlow's division, and Latimer fell on
    2 July: their successors (Bourry; Raine, OR 27/2 p. 544) are inline records."""
    assert army.replacement_chain("barlow") == ["barlow", "von-gilsa", "bourry"]
    assert army.replacement_chain("latimer") == ["latimer", "raine"]
    for ident, level in (("bourry", "brigade"), ("raine", "artillery")):
        successor = army.leader(ident)
        assert successor.level == level and successor.basis and "OR 27" in successor.basis


# Figures line-checked in 2026 against a public source that gives the same number (the
# regiment's report, its monument, a brigade tablet or Tagg's brigade totals); the brigade
# sums are over the OOB's units. See docs/gbacw-order-of-battle.md.
CHECKED_MEN = {"US-I:24 MI": 496, "US-I:2 WI": 302, "US-I:151 PA": 467, "US-II:71 PA": 331,
               "US-XII:2 MA": 316, "US-XI:41 NY": 218, "US-V:20 ME": 386, "US-V:44 NY": 391,
               "US-V:83 PA": 295, "CS-III:55 NC": 640, "CS-III:42 MS": 575}
CHECKED_BRIGADES = {"US-2/3/I": 1315, "US-1/1/XI": 1134, "US-1/1/I": 1814,
                    "CS-Iverson/Rodes": 1380, "CS-Barksdale/McLaws": 1616,
                    "CS-Kershaw/McLaws": 2177}


def test_line_checked_strengths_keep_their_published_figures(army: oob.Oob) -> None:
    men = {f"{u.corps.id}:{u.unit.name}": u.unit.men for u in army.units}
    assert {k: men[k] for k in CHECKED_MEN} == CHECKED_MEN
    for fid, total in CHECKED_BRIGADES.items():
        assert sum(u.unit.men or 0 for u in army.units if u.formation.id == fid) == total, fid


# --- every name seed 004 prints --------------------------------------------------------------
# (section, as printed in 004, our reading when it differs, kind, side, within)
U: oob.Side = "union"
C: oob.Side = "confederate"
F, L, A, N = "formation", "leader", "artillery", "unit"
NAMES_004: list[tuple[str, str, str, str, oob.Side, str]] = [
    # 004 §1.5, First Day set-up
    ("§1.5", "Pegram", "Pegram's battalion", F, C, ""), ("§1.5", "Pegram", "", A, C, ""),
    ("§1.5", "Heth", "", L, C, ""), ("§1.5", "5 AL", "5 AL Bn", N, C, ""),
    ("§1.5", "Archer", "Archer's brigade", F, C, ""), ("§1.5", "Archer", "", L, C, ""),
    ("§1.5", "Davis", "Davis's brigade", F, C, ""), ("§1.5", "Davis", "", L, C, ""),
    ("§1.5", "11 Mis", "11 MS", N, C, ""),
    ("§1.5", "Devin", "Devin's brigade", F, U, ""), ("§1.5", "Devin", "", L, U, ""),
    ("§1.5", "3WV", "3 WV", N, U, ""), ("§1.5", "8 IL", "", N, U, ""),
    ("§1.5", "Batteria A, 2 US", "A/2 US", N, U, ""), ("§1.5", "3 IN", "", N, U, ""),
    ("§1.5", "Gamble", "Gamble's brigade", F, U, ""), ("§1.5", "Gamble", "", L, U, ""),
    ("§1.5", "Buford", "", L, U, ""),
    # 004 §3.5-3.6, Little Round Top
    ("§3.5", "Semmes", "Semmes's brigade", F, C, ""),
    ("§3.5", "Kershaw", "Kershaw's brigade", F, C, ""), ("§3.5", "McLaws", "", L, C, ""),
    ("§3.5", "Cabell", "Cabell's battalion", F, C, ""), ("§3.5", "Longstreet", "", L, C, ""),
    ("§3.5", "Hood", "Hood's Division", F, C, ""),
    ("§3.5", "Eshleman", "Eshleman's battalion", F, C, ""), ("§3.5", "Eshleman", "", A, C, ""),
    ("§3.5", "Batteria 9 MA", "9 MA battery", N, U, ""),
    ("§3.5", "Batteria D, 1 NY", "D/1 NY", N, U, ""), ("§3.5", "Birney", "", L, U, ""),
    ("§3.5", "Randolph", "", A, U, ""), ("§3.5", "3/1/III", "", F, U, ""),
    ("§3.5", "2/1/III", "", F, U, ""), ("§3.5", "Batteria 4 NY", "4 NY battery", N, U, ""),
    ("§3.5", "2 US SS", "2 USSS", N, U, ""),
    ("§3.6", "3/1/V", "", F, U, ""), ("§3.6", "batteria D, 5 US", "D/5 US", N, U, ""),
    ("§3.6", "1/1/V", "", F, U, ""), ("§3.6", "2/1/V", "", F, U, ""),
    ("§3.6", "9 MA", "", N, U, ""), ("§3.6", "Barnes", "", L, U, ""),
    ("§3.6", "batteria C/F, 1 PA", "C/F 1 PA", N, U, ""), ("§3.6", "Sykes", "", L, U, ""),
    ("§3.6", "2/V", "", F, U, ""), ("§3.6", "Ayres", "", L, U, ""),
    ("§3.6", "batteria 2 Conn", "2 CT battery", N, U, ""), ("§3.6", "3/V", "", F, U, ""),
    ("§3.6", "Crawford", "", L, U, ""), ("§3.6", "1/II", "", F, U, ""),
    ("§3.6", "Caldwell", "", L, U, ""), ("§3.6", "Meade", "", L, U, ""),
    ("§3.6", "Batteria 6 ME", "6 ME battery", N, U, ""), ("§3.6", "3/3/VI", "", F, U, ""),
    ("§3.6", "2/1/XII", "", F, U, ""), ("§3.6", "1Md ES", "1 MD ES", N, U, ""),
    # 004 §4.5, Second Day set-up
    ("§4.5", "Lee", "Robert E. Lee", L, C, ""), ("§4.5", "Hill", "", L, C, ""),
    ("§4.5", "Ewell", "", L, C, ""), ("§4.5", "Johnson", "", L, C, ""),
    ("§4.5", "Walker", "Walker's brigade", F, C, ""),
    ("§4.5", "Steuart", "Steuart's brigade", F, C, ""),
    ("§4.5", "Williams", "Williams's brigade", F, C, ""),
    ("§4.5", "J.M. Jones", "J.M. Jones's brigade", F, C, ""),
    ("§4.5", "Latimer", "Latimer's battalion", F, C, ""), ("§4.5", "Early", "", L, C, ""),
    ("§4.5", "1 MD cavalry", "", N, C, ""), ("§4.5", "Gordon", "Gordon's brigade", F, C, ""),
    ("§4.5", "Smith", "Smith's brigade", F, C, ""), ("§4.5", "Avery", "Avery's brigade", F, C, ""),
    ("§4.5", "Hays", "Hays's brigade", F, C, ""),
    ("§4.5", "H.P. Jones", "H.P. Jones's battalion", F, C, ""),
    ("§4.5", "Charlottesville", "", N, C, ""), ("§4.5", "Rodes", "", L, C, ""),
    ("§4.5", "Doles", "Doles's brigade", F, C, ""),
    ("§4.5", "Iverson", "Iverson's brigade", F, C, ""),
    ("§4.5", "Ramseur", "Ramseur's brigade", F, C, ""),
    ("§4.5", "O'Neal", "O'Neal's brigade", F, C, ""),
    ("§4.5", "Daniel", "Daniel's brigade", F, C, ""),
    ("§4.5", "Carter", "Carter's battalion", F, C, ""),
    ("§4.5", "Jenkins", "Jenkins's cavalry brigade", F, C, ""), ("§4.5", "Pender", "", L, C, ""),
    ("§4.5", "Lane", "Lane's brigade", F, C, ""), ("§4.5", "Thomas", "Thomas's brigade", F, C, ""),
    ("§4.5", "Perrin", "Perrin's brigade", F, C, ""),
    ("§4.5", "Scales", "Scales's brigade", F, C, ""),
    ("§4.5", "Poague", "Poague's battalion", F, C, ""),
    ("§4.5", "R. Anderson", "Richard H. Anderson", L, C, ""),
    ("§4.5", "Wilcox", "Wilcox's brigade", F, C, ""), ("§4.5", "Lang", "Lang's brigade", F, C, ""),
    ("§4.5", "Wright", "Wright's brigade", F, C, ""),
    ("§4.5", "Posey", "Posey's brigade", F, C, ""),
    ("§4.5", "Mahone", "Mahone's brigade", F, C, ""),
    ("§4.5", "Lane", "Lane's battalion", F, C, ""), ("§4.5", "Pettigrew", "", L, C, ""),
    ("§4.5", "Brockenbrough", "Brockenbrough's brigade", F, C, ""),
    ("§4.5", "Pettigrew", "Pettigrew's brigade", F, C, ""),
    ("§4.5", "Garnett", "Garnett's battalion", F, C, ""),
    ("§4.5", "McIntosh", "McIntosh's battalion", F, C, ""),
    ("§4.5", "2 Rockbridge", "", N, C, ""), ("§4.5", "Nelson", "Nelson's battalion", F, C, ""),
    ("§4.5", "Dance", "Dance's battalion", F, C, ""),
    ("§4.5", "Meade", "", L, U, ""), ("§4.5", "Hunt", "", L, U, ""),
    ("§4.5", "Wadsworth", "", L, U, ""), ("§4.5", "1/1/I", "", F, U, ""),
    ("§4.5", "24 MI", "", N, U, ""), ("§4.5", "Robinson", "John C. Robinson", L, U, ""),
    ("§4.5", "1/2/I", "", F, U, ""), ("§4.5", "94 NY", "", N, U, ""),
    ("§4.5", "2/2/I", "", F, U, ""), ("§4.5", "2/1/I", "", F, U, ""),
    ("§4.5", "Doubleday", "", L, U, ""), ("§4.5", "Rowley", "", L, U, ""),
    ("§4.5", "1/3/I", "", F, U, ""), ("§4.5", "2/3/I", "", F, U, ""),
    ("§4.5", "3/3/I", "", F, U, ""), ("§4.5", "2 ME", "2 ME battery", N, U, ""),
    ("§4.5", "5 ME", "5 ME battery", N, U, ""), ("§4.5", "E-L/1 NY", "", N, U, ""),
    ("§4.5", "Wainwright", "", A, U, ""), ("§4.5", "B/1 PA", "", N, U, ""),
    ("§4.5", "B/4 US", "", N, U, ""), ("§4.5", "Sickles", "", L, U, ""),
    ("§4.5", "1 USSS", "", N, U, ""), ("§4.5", "2 USSS", "", N, U, ""),
    ("§4.5", "1/1/III", "", F, U, ""), ("§4.5", "Humphreys", "", L, U, ""),
    ("§4.5", "1/2/III", "", F, U, ""), ("§4.5", "2/2/III", "", F, U, ""),
    ("§4.5", "Howard", "", L, U, ""), ("§4.5", "v. Gilsa", "von-gilsa", L, U, ""),
    ("§4.5", "v. Steinwehr", "von-steinwehr", L, U, ""), ("§4.5", "Schurz", "", L, U, ""),
    ("§4.5", "1/1/XI", "", F, U, ""), ("§4.5", "2/1/XI", "", F, U, ""),
    ("§4.5", "25 OH", "", N, U, ""), ("§4.5", "1/2/XI", "", F, U, ""),
    ("§4.5", "154 NY", "", N, U, ""), ("§4.5", "2/2/XI", "", F, U, ""),
    ("§4.5", "1/3/XI", "", F, U, ""), ("§4.5", "Schimmelfennig", "", L, U, ""),
    ("§4.5", "2/3/XI", "", F, U, ""), ("§4.5", "13 NY", "13 NY battery", N, U, ""),
    ("§4.5", "I/1 NY", "", N, U, ""), ("§4.5", "I/1 OH", "", N, U, ""),
    ("§4.5", "Osborn", "", A, U, ""), ("§4.5", "K/1 OH", "", N, U, ""),
    ("§4.5", "G/4 US", "", N, U, ""), ("§4.5", "Slocum", "", L, U, ""),
    ("§4.5", "Williams", "", L, U, ""), ("§4.5", "1/1/XII", "", F, U, ""),
    ("§4.5", "3 MD", "", N, U, ""), ("§4.5", "3/1/XII", "", F, U, ""),
    ("§4.5", "Geary", "", L, U, ""), ("§4.5", "1/2/XII", "", F, U, ""),
    ("§4.5", "2/2/XII", "", F, U, ""), ("§4.5", "3/2/XII", "", F, U, ""),
    ("§4.5", "Muhlenberg", "", A, U, ""), ("§4.5", "1/1/Cav", "", F, U, ""),
    ("§4.5", "2/1/Cav", "", F, U, ""), ("§4.5", "Meredith", "", L, U, ""),
    ("§4.5", "Paul", "", L, U, ""), ("§4.5", "Stone", "", L, U, ""),
    # 004 §5.5-5.6, Third Day (CSA guns as printed; the Union lines that survive)
    ("§5.5", "Rowan", "", N, C, ""), ("§5.5", "German", "", N, C, ""),
    ("§5.5", "Palmetto", "", N, C, ""), ("§5.5", "Branch", "", N, C, ""),
    ("§5.5", "Hart", "", N, C, ""), ("§5.5", "Madison", "", N, C, "CS-Alexander/I"),
    ("§5.5", "Bedford", "", N, C, ""), ("§5.5", "Parker", "", N, C, ""),
    ("§5.5", "Taylor", "", N, C, ""), ("§5.5", "3rd Washington LA", "3 Washington LA", N, C, ""),
    ("§5.5", "1st Washington LA", "1 Washington LA", N, C, ""),
    ("§5.5", "2nd Washington LA", "2 Washington LA", N, C, ""),
    ("§5.5", "4th Washington LA", "4 Washington LA", N, C, ""),
    ("§5.5", "Sumter B", "", N, C, ""), ("§5.5", "Sumter C", "", N, C, ""),
    ("§5.5", "Fayette", "", N, C, ""), ("§5.5", "Fauquier", "", N, C, ""),
    ("§5.5", "Lynchburg", "", N, C, "CS-Dearing/Pickett"), ("§5.5", "Hampden", "", N, C, ""),
    ("§5.5", "Huger", "", N, C, ""), ("§5.5", "Norfolk", "", N, C, ""),
    ("§5.5", "Donaldsonville", "", N, C, ""), ("§5.5", "Lewis", "", N, C, ""),
    ("§5.5", "Ellis", "", N, C, ""), ("§5.5", "Pulaski", "", N, C, ""),
    ("§5.5", "1st Richmond Howitzers", "", N, C, ""), ("§5.5", "Ashland", "", N, C, ""),
    ("§5.5", "Troup", "", N, C, ""), ("§5.5", "Madison", "", N, C, "CS-Poague/Pender"),
    ("§5.5", "Charlotte", "", N, C, ""), ("§5.5", "Brooke", "", N, C, ""),
    ("§5.5", "Albemarle", "", N, C, ""), ("§5.5", "Fredericksburg", "", N, C, ""),
    ("§5.5", "Crenshaw", "", N, C, ""), ("§5.5", "Pee Dee", "", N, C, ""),
    ("§5.5", "Purcell", "", N, C, ""), ("§5.5", "Letcher", "", N, C, ""),
    ("§5.5", "2nd Richmond Howitzers", "", N, C, ""),
    ("§5.5", "3rd Richmond Howitzers", "", N, C, ""), ("§5.5", "Salem", "", N, C, ""),
    ("§5.5", "Powhatan", "", N, C, ""), ("§5.5", "1 Rockbridge", "", N, C, ""),
    ("§5.5", "Danville", "", N, C, ""), ("§5.5", "Hardaway", "", N, C, ""),
    ("§5.5", "Johnson", "", N, C, ""), ("§5.5", "Jeff Davis", "", N, C, ""),
    ("§5.5", "Orange", "", N, C, ""), ("§5.5", "King William", "", N, C, ""),
    ("§5.5", "Morris", "", N, C, ""), ("§5.5", "Staunton", "", N, C, ""),
    ("§5.5", "Louisiana Guard", "", N, C, ""), ("§5.5", "Courtney", "", N, C, ""),
    ("§5.5", "3/2/III", "", F, U, ""), ("§5.5", "1/2/V", "", F, U, ""),
    ("§5.5", "2/2/V", "", F, U, ""), ("§5.5", "3/2/V", "", F, U, ""),
    ("§5.5", "1/3/V", "", F, U, ""), ("§5.5", "3/3/V", "", F, U, ""),
    ("§5.5", "Vincent", "", L, U, ""), ("§5.5", "Weed", "", L, U, ""),
    ("§5.5", "Sedgwick", "", L, U, ""), ("§5.5", "Wright", "", L, U, ""),
    ("§5.5", "Howe", "", L, U, ""), ("§5.5", "Newton", "", L, U, ""),
    ("§5.5", "1/1/VI", "", F, U, ""), ("§5.5", "2/1/VI", "", F, U, ""),
    ("§5.5", "3/1/VI", "", F, U, ""), ("§5.5", "2/2/VI", "", F, U, ""),
    ("§5.5", "3/2/VI", "", F, U, ""), ("§5.5", "1/3/VI", "", F, U, ""),
    ("§5.5", "2/3/VI", "", F, U, ""), ("§5.5", "140 PA", "", N, U, ""),
    ("§5.6", "Kilpatrick", "", L, U, ""), ("§5.6", "Farnsworth", "", L, U, ""),
    ("§5.6", "1/3/Cav", "", F, U, ""), ("§5.6", "E/4 US", "", N, U, ""),
    ("§5.6", "Merritt", "", L, U, ""), ("§5.6", "3/1/Cav", "", F, U, ""),
    ("§5.6", "K/1 US", "", N, U, ""),
    # 004 Confederate reinforcement table
    ("CSA table", "Freedericksburg", "Fredericksburg", N, C, ""),
    ("CSA table", "A.P. Hill", "Hill", L, C, ""),
    ("CSA table", "Albermale", "Albemarle", N, C, ""),
    ("CSA table", "Pittsylvania", "", N, C, ""),
    ("CSA table", "Madison", "", N, C, "CS-Poague/Pender"),
    ("CSA table", "Rober E. Lee", "Robert E. Lee", L, C, ""),
    ("CSA table", "Pendleton", "", L, C, ""),
    ("CSA table", "Dole", "Doles's brigade", F, C, ""),
    ("CSA table", "Cav 1 Md", "1 MD Cav Bn", N, C, ""),
    ("CSA table", "Jones", "H.P. Jones's battalion", F, C, ""),
    ("CSA table", "Guardie LA", "LA Guard", N, C, ""),
    ("CSA table", "Sumter A", "", N, C, ""), ("CSA table", "17 Va", "17 VA Cav", N, C, ""),
    ("CSA table", "Johnson", "Johnson", N, C, "CS-McIntosh/III"),
    ("CSA table", "Jones", "J.M. Jones's brigade", F, C, ""),
    ("CSA table", "1 Md", "1 MD battery", N, C, "CS-Latimer/Johnson"),
    ("CSA table", "Chesapeake", "", N, C, ""), ("CSA table", "Allegheny", "", N, C, ""),
    ("CSA table", "Lynchburg", "", N, C, "CS-Latimer/Johnson"),
    ("CSA table", "Powhattan", "Powhatan", N, C, ""),
    ("CSA table", "1° Rockbridge", "1 Rockbridge", N, C, ""),
    ("CSA table", "Amherst", "", N, C, ""), ("CSA table", "Fluvanna", "", N, C, ""),
    ("CSA table", "Ga. Regular", "GA Regular", N, C, ""),
    ("CSA table", "11 Miss", "", N, C, ""), ("CSA table", "Hood", "", L, C, ""),
    ("CSA table", "G. Anderson", "G.T. Anderson's brigade", F, C, ""),
    ("CSA table", "Robertson", "Robertson's brigade", F, C, ""),
    ("CSA table", "Benning", "Benning's brigade", F, C, ""),
    ("CSA table", "Henry", "Henry's battalion", F, C, ""),
    ("CSA table", "Rowena", "Rowan", N, C, ""),
    ("CSA table", "Barksdale", "Barksdale's brigade", F, C, ""),
    ("CSA table", "Wofford", "Wofford's brigade", F, C, ""),
    ("CSA table", "Alexander", "Alexander's battalion", F, C, ""),
    ("CSA table", "Brooks", "", N, C, ""), ("CSA table", "Bath", "", N, C, ""),
    ("CSA table", "Eshelman", "Eshleman's battalion", F, C, ""),
    ("CSA table", "Law", "Law's brigade", F, C, ""), ("CSA table", "Stuart", "", L, C, ""),
    ("CSA table", "Pickett", "", L, C, ""),
    ("CSA table", "Garnett", "Garnett's brigade", F, C, ""),
    ("CSA table", "Armistead", "Armistead's brigade", F, C, ""),
    ("CSA table", "Kemper", "Kemper's brigade", F, C, ""),
    ("CSA table", "Dearing", "Dearing's battalion", F, C, ""),
    ("CSA table", "Beckham", "", A, C, ""),
    ("CSA table", "Fitz Lee", "Fitz Lee's cavalry brigade", F, C, ""),
    ("CSA table", "Chambliss", "Chambliss's cavalry brigade", F, C, ""),
    ("CSA table", "Griffin", "", N, C, ""), ("CSA table", "Breathed", "", N, C, ""),
    ("CSA table", "McGregor", "", N, C, ""),
    ("CSA table", "Hampton", "Hampton's cavalry brigade", F, C, ""),
    # 004 Union reinforcement table
    ("USA table", "Reynolds", "", L, U, ""), ("USA table", "Wordsworth", "Wadsworth", L, U, ""),
    ("USA table", "7 IN", "", N, U, ""), ("USA table", "Cutler", "", L, U, ""),
    ("USA table", "B/2 ME", "", N, U, ""),
    ("USA table", "Rimpiazza di Rowley", "Chapman Biddle", L, U, ""),
    ("USA table", "Baxter", "", L, U, ""), ("USA table", "2/I", "", F, U, ""),
    ("USA table", "5 Me", "5 ME battery", N, U, ""), ("USA table", "1 NY", "E-L/1 NY", N, U, ""),
    ("USA table", "B/4", "B/4 US", N, U, ""), ("USA table", "3/XI", "", F, U, ""),
    ("USA table", "58 NY", "", N, U, ""), ("USA table", "I/1 Ohio", "", N, U, ""),
    ("USA table", "Barlow", "", L, U, ""), ("USA table", "1/XI", "", F, U, ""),
    ("USA table", "41 NY", "", N, U, ""), ("USA table", "Von Steinwehr", "von-steinwehr", L, U, ""),
    ("USA table", "2/XI", "", F, U, ""), ("USA table", "K/1 Ohio", "", N, U, ""),
    ("USA table", "1/XII", "", F, U, ""), ("USA table", "M/1 NY", "", N, U, ""),
    ("USA table", "F/4 US", "", N, U, ""), ("USA table", "2/XII", "", F, U, ""),
    ("USA table", "E, PA Lt", "E PA Lt", N, U, ""), ("USA table", "K/5 US", "", N, U, ""),
    ("USA table", "Hazard", "", A, U, ""), ("USA table", "1/III", "", F, U, ""),
    ("USA table", "E/1 RI", "", N, U, ""), ("USA table", "2 NJ", "2 NJ battery", N, U, ""),
    ("USA table", "1 US SS", "1 USSS", N, U, ""), ("USA table", "Stannard", "", L, U, ""),
    ("USA table", "2/III", "", F, U, ""), ("USA table", "4/4 US", "", N, U, ""),
    ("USA table", "Warren", "", L, U, ""), ("USA table", "Robertson", "", A, U, ""),
    ("USA table", "B/L 2 US", "", N, U, ""), ("USA table", "9 Mich", "9 MI battery", N, U, ""),
    ("USA table", "6 NY", "6 NY battery", N, U, ""), ("USA table", "Hancock", "", L, U, ""),
    ("USA table", "Ransom", "", A, U, ""), ("USA table", "1/Reg", "", F, U, ""),
    ("USA table", "1 Vol", "", F, U, ""), ("USA table", "2 Vol", "", F, U, ""),
    ("USA table", "3 Vol", "", F, U, ""), ("USA table", "4 Vol", "", F, U, ""),
    ("USA table", "Lockwood", "", L, U, ""), ("USA table", "1 Md ES", "", N, U, ""),
    ("USA table", "9 Mass", "", N, U, ""), ("USA table", "D/1", "D/1 NY", N, U, ""),
    ("USA table", "Sedgewick", "Sedgwick", L, U, ""), ("USA table", "102 PA", "", N, U, ""),
    ("USA table", "Batteria H, 3 Pa", "H/3 PA Hvy", N, U, ""),
    ("USA table", "Tidball", "", A, U, ""), ("USA table", "Franswort", "Farnsworth", L, U, ""),
    ("USA table", "D. Gregg", "David McM. Gregg", L, U, ""), ("USA table", "2/Cav", "", F, U, ""),
    ("USA table", "E+G/1", "", N, U, ""), ("USA table", "Custer", "", L, U, ""),
    ("USA table", "2/3 Cav", "2/3/Cav", F, U, ""), ("USA table", "M/2 US", "", N, U, ""),
]


@pytest.mark.parametrize(("section", "printed", "reading", "kind", "side", "within"), NAMES_004)
def test_every_name_seed_004_prints_resolves_to_exactly_one_record(
        army: oob.Oob, section: str, printed: str, reading: str, kind: str, side: oob.Side,
        within: str) -> None:
    hits = army.resolve(reading or printed, side=side, kind=kind, within=within or None)
    assert len(hits) == 1, (section, printed, hits)


def test_the_seed_004_name_list_covers_every_corps(army: oob.Oob) -> None:
    covered: set[str] = set()
    for _, printed, reading, kind, side, within in NAMES_004:
        for hit in army.resolve(reading or printed, side=side, kind=kind, within=within or None):
            if hit.startswith("unit:"):
                covered.add(hit.split(":")[1])
    assert covered >= {"US-I", "US-II", "US-III", "US-V", "US-XI", "US-XII", "US-AR", "US-Cav",
                       "CS-I", "CS-II", "CS-III", "CS-Cav"}


# --- bad data ----------------------------------------------------------------------------------
@pytest.fixture()
def copy_dir(tmp_path: Path) -> Path:
    shutil.copytree(oob.OOB_DIR, tmp_path / "oob")
    return tmp_path / "oob"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("file", "old", "new", "record", "field"), [
    ("us_1_corps.yaml", "{name: 19 IN, title: 19th Indiana, men: 308}",
     "{name: 19 IN, title: 19th Indiana}", "19 IN", "men"),
    ("us_1_corps.yaml", "{name: 7 WI, title: 7th Wisconsin, men: 364}",
     "{name: 7 WI, title: 7th Wisconsin, men: 364, weapon: Q}", "7 WI", "weapon"),
    ("us_1_corps.yaml", "{name: 6 WI, title: 6th Wisconsin, men: 344}",
     "{name: 6 WI, title: 6th Wisconsin, men: -3}", "6 WI", "men"),
    ("us_1_corps.yaml", "replacement: doubleday", "replacement: nobody", "reynolds",
     "replacement"),
    ("us_1_corps.yaml", "{name: 2 WI, title: 2nd Wisconsin, men: 302}",
     "{name: 2 WI, title: 2nd Wisconsin, men: 302, cohesion: 9}", "2 WI", "basis"),
    ("us_1_corps.yaml", "{name: 2 WI, title: 2nd Wisconsin, men: 302}",
     "{name: 19 IN, title: 2nd Wisconsin, men: 302}", "19 IN", "name"),
    ("us_2_corps.yaml", "      efficiency: 2\n", "      efficiency: 2\n      orders: 1\n",
     "hancock", "orders"),
    ("cs_3_corps.yaml", "sections: [{weapon: N, guns: 4}]}", "sections: [{weapon: N, guns: 0}]}",
     "Purcell", "sections.0.guns"),
    ("cs_cavalry.yaml", "men: 500, engaged: false, substitute: true, strength_basis: not in the "
     "battle; about 1000 men in two regiments split evenly}", "men: 500, substitute: true}",
     "4 NC Cav", "strength_basis"),
])
def test_bad_data_is_refused_naming_file_record_and_field(
        copy_dir: Path, file: str, old: str, new: str, record: str, field: str) -> None:
    _edit(copy_dir / file, old, new)
    with pytest.raises(DataError) as err:
        oob.load(copy_dir)
    assert (Path(err.value.file).name, err.value.record, err.value.field) == (file, record, field)


def test_a_folder_without_files_and_a_file_that_is_not_a_mapping_are_refused(
        tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no order-of-battle files"):
        oob.load(tmp_path)
    (tmp_path / "x.yaml").write_text("- 1\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"x\.yaml.*must be a mapping"):
        oob.load(tmp_path)


def test_loading_twice_gives_the_same_counters(copy_dir: Path) -> None:
    assert oob.load(copy_dir).counters() == oob.load().counters()


def test_a_players_formulas_file_changes_the_counters_without_code(tmp_path: Path) -> None:
    text = oob.FORMULAS_PATH.read_text(encoding="utf-8")
    mine = tmp_path / "formulas.yaml"
    mine.write_text(text.replace("veteran: 7", "veteran: 9").replace("share: 1.0", "share: 0.5"),
                    encoding="utf-8")
    by_id = {c.id: c for c in oob.load(formulas=mine).counters()}
    assert by_id["US-I:76 NY"].cohesion == 9 and by_id["US-I:76 NY"].cohesion_disordered == 7
    assert by_id["US-Cav:8 IL:dismounted"].sp == 5  # 9 SP mounted, half on foot
    mine.write_text(text.replace("substitute: true\n  basis: >-\n    the dismounted",
                                 "substitute: false\n  basis: >-\n    the dismounted"),
                    encoding="utf-8")
    with pytest.raises(DataError) as err:
        oob.load(formulas=mine)
    assert (err.value.record, err.value.field) == ("dismounted", "substitute")
