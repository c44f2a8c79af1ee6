"""Estimated spot heights outside the DEM coverage (feet).

The AWS Terrain Tiles used here stop at lon -77.2119 (east), lat 39.8423 (north) and
lon -77.2778 (west). Beyond those edges the height field is interpolated from these
points together with the DEM's own edge. Every value is an estimate from the general
lie of the land (streams lower than the ridges either side, Rock Creek and Marsh Creek
valley floors falling southward at the rate measured inside the DEM) and the cited
landmark positions; uncertainty is easily 20-40 ft.
"""

from __future__ import annotations

# (id, name, lat, lon, elev_ft, note)
EST_POINTS: list[tuple[str, str | None, float, float, int, str]] = [
    # East of Rock Creek
    ("wolf_hill_summit", "Wolf Hill", 39.8125, -77.2060, 650, "summit, landmarks.md ±300 m"),
    ("wolf_hill_south_shoulder", None, 39.8060, -77.2040, 600, "south shoulder"),
    ("wolf_hill_north_shoulder", None, 39.8200, -77.2040, 570, "north shoulder"),
    ("wolf_hill_west_slope", None, 39.8130, -77.2095, 560, "slope above Rock Creek"),
    ("rock_creek_east_bank_spangler", None, 39.8170, -77.2110, 480, "Rock Creek east bank"),
    ("rock_creek_east_bank_mill", None, 39.8090, -77.2105, 470, "Rock Creek east bank"),
    ("benners_hill_east_end", "Benner's Hill (east end)", 39.8310, -77.2100, 560, "ridge end"),
    ("benner_farm_east", None, 39.8240, -77.2080, 540, "east of Benner's Hill"),
    ("hanover_road_east_edge", None, 39.8272, -77.1960, 555, "Hanover Rd at the east edge"),
    ("brinkerhoff_ridge", "Brinkerhoff's Ridge", 39.8330, -77.1990, 580, "low ridge, est."),
    ("york_pike_east_edge", None, 39.8420, -77.1960, 530, "York Pike at the east edge"),
    ("baltimore_pike_east_edge", None, 39.8010, -77.1960, 520, "Baltimore Pike at the east edge"),
    ("baltimore_pike_east_rise", None, 39.8035, -77.2060, 500, "pike climbing from the bridge"),
    ("east_southeast", None, 39.7900, -77.2000, 500, "rolling ground SE of Wolf Hill"),
    ("east_south", None, 39.7750, -77.2020, 470, "rolling ground"),
    ("east_southeast_corner", None, 39.7640, -77.1960, 460, "SE corner"),
    ("east_rock_creek_low_1", None, 39.7900, -77.2110, 420, "Rock Creek floodplain"),
    ("east_rock_creek_low_2", None, 39.7750, -77.2110, 400, "Rock Creek floodplain"),
    ("east_north_rock_creek", None, 39.8480, -77.2080, 520, "north-east farmland"),
    ("east_northeast_corner", None, 39.8570, -77.1960, 530, "NE corner"),
    ("east_middle", None, 39.8180, -77.1970, 580, "east of Wolf Hill"),
    # North of the DEM
    ("oak_hill_summit", "Oak Hill", 39.8483, -77.2433, 600, "summit (Peace Light)"),
    ("oak_ridge_north", None, 39.8450, -77.2420, 585, "north end of Oak Ridge"),
    ("barlows_knoll", "Barlow's Knoll", 39.8456, -77.2264, 545, "knoll top"),
    ("rock_creek_blocher_mouth", None, 39.8477, -77.2258, 488, "Rock Creek at Blocher's Run"),
    ("rock_creek_north_edge", None, 39.8580, -77.2290, 500, "Rock Creek at the north edge"),
    ("blochers_run_middle", None, 39.8500, -77.2350, 510, "Blocher's Run valley"),
    ("carlisle_road_north_edge", None, 39.8580, -77.2340, 540, "Carlisle Rd, north"),
    ("harrisburg_road_north_edge", None, 39.8580, -77.2200, 520, "Harrisburg Rd, north"),
    ("hunterstown_road_ne", None, 39.8520, -77.2120, 530, "north-east"),
    ("mummasburg_road_north_edge", None, 39.8580, -77.2540, 565, "Mummasburg Rd, north"),
    ("herr_ridge_north", None, 39.8500, -77.2660, 590, "Herr Ridge north end"),
    ("herr_ridge_far_north", None, 39.8580, -77.2660, 585, "Herr Ridge north"),
    ("willoughby_run_head", None, 39.8500, -77.2560, 545, "Willoughby Run headwater"),
    ("willoughby_run_upper", None, 39.8440, -77.2560, 532, "Willoughby Run upper valley"),
    ("north_oak_hill_slope", None, 39.8560, -77.2450, 570, "north of Oak Hill"),
    # West of the DEM
    (
        "marsh_creek_cashtown_pike",
        "Marsh Creek (Chambersburg Pike)",
        39.8535,
        -77.2895,
        490,
        "creek, landmarks.md est.",
    ),
    (
        "marsh_creek_fairfield_road",
        "Marsh Creek (Fairfield Rd)",
        39.8180,
        -77.2870,
        465,
        "creek near Black Horse Tavern",
    ),
    ("marsh_creek_west_south", None, 39.7900, -77.2880, 445, "Marsh Creek valley"),
    ("marsh_creek_west_far_south", None, 39.7680, -77.2850, 425, "Marsh Creek valley"),
    ("black_horse_tavern", "Black Horse Tavern", 39.8188, -77.2829, 490, "tavern"),
    ("knoxlyn_ridge", "Knoxlyn Ridge", 39.8470, -77.2800, 560, "ridge west of Herr Ridge"),
    ("west_chambersburg_pike_edge", None, 39.8500, -77.2830, 545, "pike west of Herr Ridge"),
    ("west_northwest_corner", None, 39.8580, -77.2900, 520, "NW corner"),
    ("bream_hill", "Bream Hill", 39.8260, -77.2840, 540, "hill north of the tavern"),
    ("west_millerstown_road", None, 39.8020, -77.2830, 500, "Millerstown Rd west"),
]
