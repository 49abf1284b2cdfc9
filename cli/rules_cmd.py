"""``binokel rules``: the registered variants and one variant's constants (V1-V5)."""
from __future__ import annotations

import dataclasses

import click

from analyzer.mechanics.rules import VARIANTS, get_rules

from .common import BadInput, echo_json, example_epilog
from .main import cli
from analyzer.errors import BinokelError


def _constants(r) -> dict:
    d = r.to_dict()
    d["deck_cards"] = r.n_cards
    return d


@cli.command(
    "rules",
    epilog=example_epilog(
        "binokel rules",
        "binokel rules grupp-3",
        "binokel rules binokel-40 --json",
    ),
)
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rules_command(name, as_json):
    """List the rules variants, or print the constants of variant NAME.

    Each variant is a RuleSet (docs/VARIANTS.md): name, seed sheet, players, deck and
    hand + Dabb (Tapp) sizes; every difference is a named field.
    """
    if name is None:
        rows = [r.describe() for r in VARIANTS.values()]
        if as_json:
            echo_json(rows)
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(title="rules variants (--rules NAME)")
        for col in ("name", "seed", "players", "deck", "hand + Dabb", "rules"):
            table.add_column(col)
        for row in rows:
            table.add_row(row["name"], row["seed"], row["players"], row["deck"],
                          row["hand_dabb"], row["section"])
        Console(width=100).print(table)
        return
    try:
        r = get_rules(name)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json({**r.describe(), "constants": _constants(r)})
        return
    d = r.describe()
    click.echo(f"{r.name}: players {d['players']}, deck {d['deck']}, hand + Dabb "
               f"{d['hand_dabb']} (seed {d['seed']}; {d['section']})")
    for f in dataclasses.fields(r):
        if f.name in ("name", "seed", "section"):
            continue
        click.echo(f"  {f.name:22s} {getattr(r, f.name)}")
