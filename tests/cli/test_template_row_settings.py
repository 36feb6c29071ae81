"""What `rendervisor render --set/--data` does to the queue (supervisor/cli/template_rows.py):
each row's items are the project's items with the row's params, keeping every other setting of
the item it copies."""

import argparse

from supervisor.cli.template_rows import Row, queue_rows
from tests.helpers.template_projects import card_template


def test_each_rows_items_keep_the_settings_of_the_item_they_copy(tmp_path):
    settings = {"startNumber": 101, "resume": False, "scale": 0.5}
    sound = {"audio": False}
    engine = card_template(tmp_path, queue=[
        {"output": str(tmp_path / "card_[row]_[###].png"), **settings},
        {"output": str(tmp_path / "card_[row].mp4"), "codecOptions": {"crf": 30}, **sound}])
    rows = [Row(1, {"title": "One"}), Row(2, {"title": "Two"})]
    queue_rows(engine, rows, argparse.Namespace(output=None, format=None))
    items = engine.doc["renderQueue"]
    assert [item["params"] for item in items] == [{"title": "One"}] * 2 + [{"title": "Two"}] * 2
    for item in items[::2]:
        assert {key: item.get(key) for key in settings} == settings, item
    for item in items[1::2]:
        assert item.get("audio") is False and item["codecOptions"] == {"crf": 30}, item
    assert [item["output"] for item in items] == [
        str(tmp_path / "card_1_[###].png"), str(tmp_path / "card_1.mp4"),
        str(tmp_path / "card_2_[###].png"), str(tmp_path / "card_2.mp4")]
