"""stages: begun stages and their entrants, unranked players, eligibility overrides, ladder colour choices

Revision ID: 0007
Revises: 0006 (birth date unknown)

Formats as stages (Swiss, round robin, knockout): ``group_stages`` and ``stage_entries`` record a
stage's entrants once it begins; ``players.ranked`` (计成绩不计名次) and ``players.eligibility_override``;
``knockout_matches.colour_choices`` holds the colours drawn or chosen for later steps of a match's ladder,
and the deciding game's Red of older files (``deciding_red_id``, step 3 of the old ladder) moves there.
The regulation stored in ``tournament.regulations`` is rewritten in stage terms (its groups' ``rounds``,
``swiss_rounds`` and ``knockout_size`` become ``stages``).
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy: other tables' rows refer to players and knockout matches)
    op.add_column("players", sa.Column("ranked", sa.Boolean(), nullable=False, server_default=sa.text("1")))
    op.add_column("players", sa.Column("eligibility_override", sa.Text(), nullable=False, server_default=""))
    op.add_column("knockout_matches", sa.Column("colour_choices", sa.JSON(), nullable=True))

    op.create_table(
        "group_stages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["groups.id"], name=op.f("fk_group_stages_group_id_groups"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_stages")),
        sa.UniqueConstraint("group_id", "stage", name=op.f("uq_group_stages_group_id")),
    )
    op.create_table(
        "stage_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stage_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("lot", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["stage_id"], ["group_stages.id"], name=op.f("fk_stage_entries_stage_id_group_stages"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_stage_entries_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stage_entries")),
        sa.UniqueConstraint("stage_id", "player_id", name=op.f("uq_stage_entries_stage_id")),
    )
    with op.batch_alter_table("stage_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_stage_entries_stage_id"), ["stage_id"], unique=False)

    con = op.get_bind()
    for match_id, red_id in con.execute(
        sa.text("SELECT id, deciding_red_id FROM knockout_matches WHERE deciding_red_id IS NOT NULL")
    ).all():
        con.execute(
            sa.text("UPDATE knockout_matches SET colour_choices = :c, deciding_red_id = NULL WHERE id = :i"),
            {"c": json.dumps({"2": red_id}), "i": match_id},
        )
    for tournament_id, text in con.execute(sa.text("SELECT id, regulations FROM tournament")).all():
        data = json.loads(text) if isinstance(text, str) else text
        groups = data.get("groups") if isinstance(data, dict) else None
        if not isinstance(groups, list):
            continue
        changed = False
        for group in groups:
            if isinstance(group, dict) and "stages" not in group:
                group["stages"] = _stages(
                    int(group.pop("rounds", 11)), int(group.pop("swiss_rounds", 8)), int(group.pop("knockout_size", 8))
                )
                changed = True
        if changed:
            con.execute(
                sa.text("UPDATE tournament SET regulations = :r WHERE id = :i"),
                {"r": json.dumps(data, ensure_ascii=False), "i": tournament_id},
            )


def _stages(rounds: int, swiss_rounds: int, knockout_size: int) -> list[dict[str, object]]:
    """The stored form of the old format keys (as ``regulations_to_dict`` writes legacy_stages): fixed here,
    so that the migration does not change when the program does."""
    if not knockout_size:
        return [{"kind": "swiss", "rounds": rounds}]
    return [
        {"kind": "swiss", "rounds": swiss_rounds},
        {"kind": "knockout", "entrants": "top", "count": knockout_size},
        {"kind": "swiss", "entrants": "rest", "alongside": True, "rounds": rounds - swiss_rounds},
    ]


def downgrade() -> None:
    with op.batch_alter_table("stage_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_stage_entries_stage_id"))
    op.drop_table("stage_entries")
    op.drop_table("group_stages")
    with op.batch_alter_table("knockout_matches", schema=None) as batch_op:
        batch_op.drop_column("colour_choices")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("eligibility_override")
        batch_op.drop_column("ranked")
