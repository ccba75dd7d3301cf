"""The hall's ETags follow what a page says, not the file's version nor the time it was built.

Every page carries a time stamp (更新于 …) and the file's version; a change elsewhere in the file (a
result in the current round) gives a new version and a new stamp to every page, yet a page whose
content did not change must still answer 304 to the phone's If-None-Match — a full hall re-fetches
only what changed.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from app.engine.types import GameResult
from app.services.results import enter_result
from app.web.app import hall_of

UNCHANGED = ("/g/1/standings", "/g/1/crosstable", "/g/1/r/3", "/schedule", "/g/1/entries")


def _etags(client: TestClient, path: str) -> tuple[str, str]:
    full, part = client.get(path), client.get(path + "?part=main")
    assert full.status_code == part.status_code == 200
    return full.headers["etag"], part.headers["etag"]


def test_no_change_gives_304(reader: TestClient) -> None:
    for path in ("/", "/g/1/", *UNCHANGED):
        tag = reader.get(path).headers["etag"]
        again = reader.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", path


def test_a_page_whose_content_did_not_change_is_not_sent_again(client: TestClient, db: Any) -> None:
    site = hall_of(client.app).site  # type: ignore[arg-type]
    before = {path: _etags(client, path) for path in (*UNCHANGED, "/g/1/r/4")}
    version = client.get("/").headers["x-hall-version"]
    time.sleep(1.1)  # the next version's pages are stamped a second later
    enter_result(db, "公开组", 4, 9, GameResult.DRAW)  # round 4 is not complete: nothing else changes
    site.refresh()
    assert client.get("/").headers["x-hall-version"] != version
    for path in UNCHANGED:
        full, part = before[path]
        answer = client.get(path, headers={"If-None-Match": full})
        assert answer.status_code == 304, path
        assert answer.headers["x-hall-version"] != version  # the phone learns the version all the same
        assert client.get(path + "?part=main", headers={"If-None-Match": part}).status_code == 304, path
    full, part = before["/g/1/r/4"]  # the round with the new result is sent again
    changed = client.get("/g/1/r/4", headers={"If-None-Match": full})
    assert changed.status_code == 200 and changed.headers["etag"] != full
    assert client.get("/g/1/r/4?part=main", headers={"If-None-Match": part}).status_code == 200
