"""``binokel rules``: the registered games and one game's rules, part by part (V1-V6)."""
from __future__ import annotations

import click

from analyzer.mechanics.rules import VARIANTS, get_rules
from analyzer.mechanics.rules import from_flat
from analyzer.mechanics.ruleset import GAMES, get_game

from .common import BadInput, echo_json, example_epilog
from .main import cli
from analyzer.errors import BinokelError


def _constants(r) -> dict:
    d = r.to_dict()
    d["deck_cards"] = r.n_cards
    return d


def _jsonable(v):
    return [_jsonable(x) for x in v] if isinstance(v, tuple) else v


def _stock_row(g) -> dict:
    """The listing's row of a game with a stock (V7; it has no flat view)."""
    return {"name": g.name, "seed": g.sheet, "players": str(g.table.in_play),
            "deck": f"{g.deck.n_cards}, with {g.deck.low_card}s" if g.deck.low_card == "7"
            else f"{g.deck.n_cards}", "hand_dabb": f"{g.table.hand_size} + stock",
            "section": g.section}


def _parts(r) -> dict:
    """part -> {field: value} of the game's nested RuleSet (analyzer.mechanics.ruleset)."""
    return {p: {k: _jsonable(v) for k, v in fs.items()}
            for p, fs in from_flat(r).describe_parts().items()}


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
    """List the games, or print the rules of game NAME part by part.

    Each game is a RuleSet (docs/VARIANTS.md) in named parts: deck, table, auction, Dabb,
    melds, play duties, card points, scoring, game end (and the fitted policy data); every
    difference between the games is a named field of a part.
    """
    if name is None:
        rows = [r.describe() if n in VARIANTS else _stock_row(GAMES[n]) for n, r in
                ((n, VARIANTS.get(n)) for n in GAMES)]
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
        game = get_game(name)
        if game.stock.size:   # V7: the parts only (no flat view)
            parts = {p: {k: _jsonable(v) if not hasattr(v, "__dataclass_fields__") else repr(v)
                         for k, v in fs.items()} for p, fs in game.describe_parts().items()}
            if as_json:
                echo_json({**_stock_row(game), "parts": parts})
                return
            row = _stock_row(game)
            click.echo(f"{game.name}: players {row['players']}, deck {row['deck']}, hand "
                       f"{row['hand_dabb']} (seed {game.sheet}; {game.section})")
            for part, fs in parts.items():
                click.echo(f"  {part}")
                for k, v in fs.items():
                    click.echo(f"    {k:20s} {v!r}" if isinstance(v, str) else f"    {k:20s} {v}")
            return
        r = get_rules(name)
    except BinokelError as exc:
        raise BadInput(str(exc)) from None
    if as_json:
        echo_json({**r.describe(), "parts": _parts(r), "constants": _constants(r)})
        return
    d = r.describe()
    click.echo(f"{r.name}: players {d['players']}, deck {d['deck']}, hand + Dabb "
               f"{d['hand_dabb']} (seed {d['seed']}; {d['section']})")
    for part, fs in _parts(r).items():
        click.echo(f"  {part}")
        for k, v in fs.items():
            click.echo(f"    {k:20s} {v!r}" if isinstance(v, str) else f"    {k:20s} {v}")
