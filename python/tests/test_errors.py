"""Bad input: ParseError with line and column, ValueError and TypeError
naming the bad label or item."""

import pytest

import exactly


def test_parse_error_line_and_column():
    with pytest.raises(exactly.ParseError) as e:
        exactly.Problem.parse("a b c\na b\nc d\n")
    assert (e.value.line, e.value.column) == (3, 3)
    assert "unknown item 'd'" in str(e.value)
    assert e.value.path is None
    assert isinstance(e.value, ValueError)


def test_parse_error_names_the_file(tmp_path):
    f = tmp_path / "bad.dlx"
    f.write_text("| comment\na b\na b:red\n")
    with pytest.raises(exactly.ParseError) as e:
        exactly.Problem.read(f)
    assert e.value.line == 3 and e.value.column >= 1
    assert str(e.value).startswith(str(f) + ":3:")
    assert e.value.path == str(f)


def test_matrix_errors():
    with pytest.raises(exactly.ParseError) as e:
        exactly.Problem.parse("2 3\n2 1 3\n1 9\n", format="matrix")
    assert e.value.line == 3
    with pytest.raises(ValueError):
        exactly.Problem.parse("a\na\n", format="xml")


def test_missing_file_and_binary(tmp_path):
    with pytest.raises(FileNotFoundError):
        exactly.Problem.read(tmp_path / "nothing.dlx")
    f = tmp_path / "binary.dlx"
    f.write_bytes(b"a b\n\xff\xfe\n")
    with pytest.raises(ValueError):
        exactly.Problem.read(f)


def test_dlx_colors_bounds_costs():
    p = exactly.Problem.parse("a b | x\na x:red\nb x:red\na b x:blue\n")
    assert p.count() == 2 and p.has_colors
    p = exactly.Problem.parse("0:2|a b\na\na b\nb\n")
    assert p.has_multiplicities
    # b exactly once, a at most twice: {a b}, {b}, and either with {a}
    assert p.count() == 4
    assert sorted(map(sorted, p.solutions())) == [["a", "a b"], ["a", "b"], ["a b"], ["b"]]
    p = exactly.Problem.parse("a b\na b |5\na |1\nb |3\n")
    cost, solution = p.min_cost()
    assert (cost, sorted(solution)) == (4, ["a |1", "b |3"])
    assert [c for c, _ in p.best(5)] == [4, 5]


def test_value_errors_name_the_culprit():
    with pytest.raises(ValueError, match="primary item 1"):
        exactly.Problem({"A": [1, "x"]}, secondary=["x"], colors={"A": {1: "red"}})
    with pytest.raises(ValueError, match="'Z'"):
        exactly.Problem({"A": [1]}, colors={"Z": {1: "red"}})
    with pytest.raises(ValueError, match="option 'A': item 1 appears twice"):
        exactly.Problem({"A": [1, 1]})
    with pytest.raises(ValueError, match="item 7"):
        exactly.Problem({"A": [1, 7]}, primary=[1])
    with pytest.raises(ValueError, match="both primary and secondary"):
        exactly.Problem({"A": [1]}, primary=[1], secondary=[1])
    with pytest.raises(ValueError, match="no items"):
        exactly.Problem({})
    with pytest.raises(ValueError, match="'B'"):
        exactly.Problem({"A": [1]}, costs={"B": 3})
    with pytest.raises(ValueError, match="'A'"):
        exactly.Problem({"A": [1]}, costs={"A": -3})
    with pytest.raises(ValueError, match="does not hold"):
        exactly.Problem({"A": [1]}, secondary=["x"], colors={"A": {"x": 1}})


def test_type_errors_name_the_culprit():
    with pytest.raises(TypeError, match=r"\[1\]"):
        exactly.Problem({"A": [[1]]})
    with pytest.raises(TypeError, match="'A'"):
        exactly.Problem({"A": "abc"})
    with pytest.raises(TypeError):
        exactly.Problem({"A": 5})
    with pytest.raises(TypeError):
        exactly.Problem(5)
    with pytest.raises(TypeError):
        exactly.Problem({"A": [1]}, secondary="x")


def test_option_without_primary_item_is_dropped():
    p = exactly.Problem({"A": [1], "B": ["x"]}, secondary=["x"])
    assert p.num_options == 1 and p.labels == ["A"]
    assert p.warnings == ["option 2 has no primary item; dropped"]
    # Read from a text, the warning says where the option starts.
    p = exactly.Problem.parse("a | x\na\n\n  x\n")
    assert p.warnings == ["line 4, column 3: option 2 has no primary item; dropped"]
