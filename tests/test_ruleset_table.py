"""The documentation's table of every RuleSet field is the code's: each field, the rules it
implements and its value in each preset. Print the table with
``python -m tests.test_ruleset_table`` after changing a field or a preset."""

from __future__ import annotations

from pathlib import Path

import attrs

from biriba import RuleSet
from biriba.rules import FIELD_RULES

DOC = Path(__file__).parent.parent / "docs" / "rulesets.rst"
BASES = ("biriba", "buraco")


def _shown(value: object) -> str:
    value = getattr(value, "value", value)
    if isinstance(value, tuple) and len(value) > 4:
        return "B8.1 values"
    return str(value).replace(" ", "")


def field_table() -> str:
    """The table, as reStructuredText."""
    presets = [RuleSet.named(n) for n in RuleSet.preset_names()]
    rows = [["field", "rules", "biriba", "buraco", "other presets"]]
    for field in attrs.fields(RuleSet):
        if not field.init or field.name == "name":
            continue
        values = {r.name: getattr(r, field.name) for r in presets}
        others = []
        for preset in presets:
            if preset.name in BASES:
                continue
            base = RuleSet.named(preset.family)
            if values[preset.name] != getattr(base, field.name):
                others.append(f"{preset.name}: {_shown(values[preset.name])}")
        rows.append(
            [
                f"``{field.name}``",
                FIELD_RULES[field.name],
                _shown(values["biriba"]),
                _shown(values["buraco"]),
                "; ".join(others) or "-",
            ]
        )
    lines = [".. list-table::", "   :header-rows: 1", ""]
    for row in rows:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    return "\n".join(lines) + "\n"


def test_every_field_has_its_rules() -> None:
    names = {f.name for f in attrs.fields(RuleSet) if f.init}
    assert set(FIELD_RULES) == names


def test_the_documented_table_is_the_code_s() -> None:
    assert field_table() in DOC.read_text(encoding="utf-8"), (
        "docs/rulesets.rst's table of fields is out of date: "
        "print it with python -m tests.test_ruleset_table"
    )


if __name__ == "__main__":
    print(field_table())
