"""team matches: team numbers, captains, registered order, line-ups, matches of two teams

Revision ID: 0008
Revises: 0007 (stages)

Team competitions (团体赛): ``teams`` gain the team number (队号), captain, the earlier season's rank,
a play-off place and a withdrawal round; ``players`` their registered order in the team and whether they
are a reserve (替补); ``team_matches`` hold the matches of a round (or a team's bye), ``team_lineups`` and
``team_lineup_boards`` each team's line-up (排阵) with who handed it in and when; ``games.team_match_id``
ties a board's game (and its tie-break games) to its match.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy: other tables' rows refer to teams, players and games)
    op.add_column("teams", sa.Column("no", sa.Integer(), nullable=True))
    op.add_column("teams", sa.Column("captain", sa.String(length=64), nullable=False, server_default=""))
    op.add_column("teams", sa.Column("seed_rank", sa.Integer(), nullable=True))
    op.add_column("teams", sa.Column("playoff_place", sa.Integer(), nullable=True))
    op.add_column("teams", sa.Column("withdrawn_round", sa.Integer(), nullable=True))
    op.add_column("players", sa.Column("team_order", sa.Integer(), nullable=True))
    op.add_column("players", sa.Column("reserve", sa.Boolean(), nullable=False, server_default=sa.text("0")))

    op.create_table(
        "team_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("home_team_id", sa.Integer(), nullable=False),
        sa.Column("away_team_id", sa.Integer(), nullable=True),
        sa.Column("home_absent", sa.Boolean(), nullable=False),
        sa.Column("away_absent", sa.Boolean(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("colour_choices", sa.JSON(), nullable=True),
        sa.Column("explanation", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_team_matches_round_id_rounds"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["home_team_id"], ["teams.id"], name=op.f("fk_team_matches_home_team_id_teams"), ondelete="RESTRICT"
        ),
        sa.ForeignKeyConstraint(
            ["away_team_id"], ["teams.id"], name=op.f("fk_team_matches_away_team_id_teams"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_matches")),
        sa.UniqueConstraint("round_id", "number", name=op.f("uq_team_matches_round_id")),
    )
    with op.batch_alter_table("team_matches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_team_matches_round_id"), ["round_id"], unique=False)

    op.create_table(
        "team_lineups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("handed_in_by", sa.String(length=64), nullable=False),
        sa.Column("handed_in_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["rounds.id"], name=op.f("fk_team_lineups_round_id_rounds"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_team_lineups_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_lineups")),
        sa.UniqueConstraint("round_id", "team_id", name=op.f("uq_team_lineups_round_id")),
    )
    with op.batch_alter_table("team_lineups", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_team_lineups_round_id"), ["round_id"], unique=False)

    op.create_table(
        "team_lineup_boards",
        sa.Column("lineup_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["lineup_id"],
            ["team_lineups.id"],
            name=op.f("fk_team_lineup_boards_lineup_id_team_lineups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_team_lineup_boards_player_id_players"), ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("lineup_id", "board", name=op.f("pk_team_lineup_boards")),
    )
    # a plain ADD COLUMN with its REFERENCES clause (SQLite allows it for a NULL default): no copy of the
    # games table, whose rows game records and violations refer to
    op.execute(
        "ALTER TABLE games ADD COLUMN team_match_id INTEGER "
        "REFERENCES team_matches (id) ON DELETE CASCADE"
    )
    op.create_index(op.f("ix_games_team_match_id"), "games", ["team_match_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_games_team_match_id"), table_name="games")
    op.execute("ALTER TABLE games DROP COLUMN team_match_id")
    op.drop_table("team_lineup_boards")
    with op.batch_alter_table("team_lineups", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_team_lineups_round_id"))
    op.drop_table("team_lineups")
    with op.batch_alter_table("team_matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_team_matches_round_id"))
    op.drop_table("team_matches")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("reserve")
        batch_op.drop_column("team_order")
    with op.batch_alter_table("teams", schema=None) as batch_op:
        batch_op.drop_column("withdrawn_round")
        batch_op.drop_column("playoff_place")
        batch_op.drop_column("seed_rank")
        batch_op.drop_column("captain")
        batch_op.drop_column("no")
