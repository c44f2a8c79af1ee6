"""The web client's routes: its pages (one page; the script routes by path), its static
files and its word catalogues, each the client's own words with every rule system's
words (seat titles and whatever else a system names) in the same language."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from gettysburg.core.canonical import JSONDict
from gettysburg.server import systems
from gettysburg.server.api_models import refusals
from gettysburg.server.hosting import ApiError

STATIC = Path(str(resources.files("gettysburg.server") / "static"))
I18N = Path(str(resources.files("gettysburg.server") / "i18n"))
LANGUAGES = ("en", "es", "de", "it")


@lru_cache(maxsize=len(LANGUAGES))
def catalogue(lang: str) -> JSONDict:
    """The client's words in ``lang``: the systems' words under the client's own (a key
    of both is the client's)."""
    own: JSONDict = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    return {**systems.words(lang), **own}


def add_client_routes(app: FastAPI) -> None:
    @app.get("/api/i18n/{lang}", responses=refusals(404, 422))
    def words(lang: str) -> JSONDict:
        if lang not in LANGUAGES:
            raise ApiError(404, "i18n", f"no catalogue {lang!r}; have {list(LANGUAGES)}",
                           field="lang")
        return catalogue(lang)

    def index() -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.get("/", include_in_schema=False)(index)
    app.get("/g/{game_id}", include_in_schema=False)(lambda game_id: index())
    app.get("/g/{game_id}/replay", include_in_schema=False)(lambda game_id: index())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
