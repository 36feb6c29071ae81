"""The file tools through the real server, checked against the file system itself."""

import base64
import os

import pytest


@pytest.fixture
def server(module_server):
    """The module's one server (tests/conftest.py): the file tools remember nothing between
    calls, and each test works in its own tmp_path."""
    return module_server


def text_of(result):
    assert result["isError"] is False, result
    return result["content"][0]["text"]


def error_of(result):
    assert result["isError"] is True, result
    return result["content"][0]["text"]


def test_read_file_returns_the_text_as_it_is_and_ranges_of_lines(server, tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text("one\ntwo\nthree\nfour\n")
    assert text_of(server.run("read_file", {"path": str(path)})) == "one\ntwo\nthree\nfour\n"
    assert text_of(server.run("read_file", {"path": str(path), "offset": 2, "limit": 2})) == \
        "two\nthree\n"
    assert text_of(server.run("read_file", {"path": str(path), "offset": 4})) == "four\n"


def test_read_file_returns_an_image_as_image_content(server, tmp_path):
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082")
    (tmp_path / "dot.png").write_bytes(png)
    block = server.run("read_file", {"path": str(tmp_path / "dot.png")})["content"][0]
    assert block["type"] == "image" and block["mimeType"] == "image/png"
    assert base64.b64decode(block["data"]) == png


def test_read_file_refuses_binary_missing_and_folders_with_a_sentence(server, tmp_path):
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    assert "binary file" in error_of(server.run("read_file", {"path": str(tmp_path / "blob.bin")}))
    assert "does not exist" in error_of(server.run("read_file",
                                                   {"path": str(tmp_path / "nope.txt")}))
    assert "list_dir" in error_of(server.run("read_file", {"path": str(tmp_path)}))


def test_write_file_creates_folders_replaces_atomically_and_leaves_no_temporary(server, tmp_path):
    target = tmp_path / "deep" / "er" / "out.txt"
    result = server.run("write_file", {"path": str(target), "content": "first"})
    assert result["structuredContent"]["bytes"] == 5 and target.read_text() == "first"
    server.run("write_file", {"path": str(target), "content": "second ✓"})
    assert target.read_text() == "second ✓"
    assert os.listdir(target.parent) == ["out.txt"]


def test_write_file_keeps_the_mode_of_the_file_it_replaces(server, tmp_path):
    target = tmp_path / "script.sh"
    target.write_text("echo old\n")
    target.chmod(0o755)
    server.run("write_file", {"path": str(target), "content": "echo new\n"})
    assert oct(target.stat().st_mode & 0o777) == oct(0o755)


def test_edit_file_replaces_exactly_and_returns_a_diff(server, tmp_path):
    path = tmp_path / "code.py"
    path.write_text("a = 1\nb = 2\n")
    result = server.run("edit_file", {"path": str(path), "old_string": "b = 2",
                                      "new_string": "b = 3"})["structuredContent"]
    assert path.read_text() == "a = 1\nb = 3\n"
    assert result["replacements"] == 1
    assert "-b = 2" in result["diff"] and "+b = 3" in result["diff"]


def test_edit_file_names_the_count_for_zero_or_several_matches(server, tmp_path):
    path = tmp_path / "twice.txt"
    path.write_text("x\nx\n")
    assert "0 matches" in error_of(server.run("edit_file", {
        "path": str(path), "old_string": "y", "new_string": "z"}))
    assert "2 times" in error_of(server.run("edit_file", {
        "path": str(path), "old_string": "x", "new_string": "z"}))
    assert path.read_text() == "x\nx\n"  # nothing lost on a refusal
    result = server.run("edit_file", {"path": str(path), "old_string": "x", "new_string": "z",
                                      "replace_all": True})
    assert result["structuredContent"]["replacements"] == 2 and path.read_text() == "z\nz\n"


def test_list_dir_gives_type_and_size_and_descends_by_depth(server, tmp_path):
    (tmp_path / "a.txt").write_text("12345")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_text("1")
    os.symlink(tmp_path / "a.txt", tmp_path / "link")
    shallow = server.run("list_dir", {"path": str(tmp_path)})["structuredContent"]["entries"]
    assert {(e["path"], e["type"]) for e in shallow} == {
        ("a.txt", "file"), ("sub", "dir"), ("link", "symlink")}
    assert next(e for e in shallow if e["path"] == "a.txt")["size"] == 5
    deep = server.run("list_dir", {"path": str(tmp_path), "depth": 2})["structuredContent"]
    assert os.path.join("sub", "b.txt") in {e["path"] for e in deep["entries"]}


def test_search_files_by_name_and_by_content_with_line_numbers(server, tmp_path):
    (tmp_path / "one.py").write_text("import os\nvalue = 42\n")
    (tmp_path / "two.txt").write_text("value = 7\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "three.py").write_text("nothing\n")
    by_name = server.run("search_files", {"path": str(tmp_path), "pattern": "*.py"})
    assert {os.path.basename(r["path"]) for r in by_name["structuredContent"]["results"]} == \
        {"one.py", "three.py"}
    by_content = server.run("search_files", {"path": str(tmp_path), "content": r"value = \d+",
                                             "pattern": "*.py"})["structuredContent"]
    assert by_content["results"] == [{"path": str(tmp_path / "one.py"),
                                      "matches": [{"line": 2, "text": "value = 42"}]}]
    limited = server.run("search_files", {"path": str(tmp_path), "content": "value",
                                          "max_results": 1})["structuredContent"]
    assert limited["truncated"] is True and len(limited["results"]) == 1


def test_search_files_with_a_bad_regex_is_a_sentence(server, tmp_path):
    assert "regular expression" in error_of(server.run("search_files", {
        "path": str(tmp_path), "content": "(unclosed"}))


def test_search_files_names_syntax_its_engine_lacks_and_what_to_do_instead(server, tmp_path):
    (tmp_path / "words.txt").write_text("the the cat\n")
    for pattern in (r"(\w+) \1", r"cat(?=s)", r"(?<!a)cat", r"cat\Z"):
        text = error_of(server.run("search_files", {"path": str(tmp_path),
                                                    "content": pattern}))
        assert "RE2" in text and "backreferences" in text and "lookaround" in text, text
        assert "\n" not in text


def test_search_files_refuses_a_pattern_too_long_or_too_complex_with_a_sentence(server,
                                                                               tmp_path):
    too_long = error_of(server.run("search_files", {"path": str(tmp_path),
                                                    "content": "a" * 10_001}))
    assert "10,001 characters" in too_long and "10,000" in too_long
    too_complex = error_of(server.run("search_files", {"path": str(tmp_path),
                                                       "content": ".{1000}"}))
    assert "instructions" in too_complex and "4,096" in too_complex


def test_search_files_numbers_lines_as_read_file_counts_them(server, tmp_path):
    # A form feed and a lone carriage return end no line for read_file; CRLF ends one.
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"one\x0ctwo\r\nthree\rfour\r\nfive\n")
    found = server.run("search_files", {"path": str(tmp_path), "content": "^five$|four$"})
    matches = found["structuredContent"]["results"][0]["matches"]
    assert matches == [{"line": 2, "text": "three\rfour"}, {"line": 3, "text": "five"}]
    for match in matches:
        line = text_of(server.run("read_file", {"path": str(path), "offset": match["line"],
                                                "limit": 1}))
        assert line.rstrip("\r\n") == match["text"]
