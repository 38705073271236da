-- The archive of every finished game, one row per game, written once from
-- the results stream (ResultRecord) and never updated. `record` keeps the
-- ResultRecord exactly as received (GetArchivedGame returns it, and a
-- redelivery is compared against it); the other columns are the same data
-- in queryable form for history pages and exports.
CREATE TABLE archived_games (
  game_id            text PRIMARY KEY,
  table_id           text NOT NULL DEFAULT '',
  variant            text NOT NULL,
  variant_options    jsonb NOT NULL DEFAULT '{}'::jsonb,
  rated              boolean NOT NULL,
  white_kind         text NOT NULL,
  white_player_id    text NOT NULL DEFAULT '',
  white_display_name text NOT NULL DEFAULT '',
  black_kind         text NOT NULL,
  black_player_id    text NOT NULL DEFAULT '',
  black_display_name text NOT NULL DEFAULT '',
  result             text NOT NULL,
  reason             text NOT NULL,
  ended_by           text NOT NULL,
  ply                integer NOT NULL,
  initial_fen        text NOT NULL DEFAULT '',
  moves              text[] NOT NULL,
  final_fen          text NOT NULL DEFAULT '',
  time_per_move_ms   bigint NOT NULL DEFAULT 0,
  started_at         timestamptz,
  finished_at        timestamptz,
  archived_at        timestamptz NOT NULL,
  record             bytea NOT NULL
);

-- History pages: a player's games, newest first.
CREATE INDEX archived_games_white_player ON archived_games (white_player_id, finished_at DESC)
  WHERE white_player_id <> '';
CREATE INDEX archived_games_black_player ON archived_games (black_player_id, finished_at DESC)
  WHERE black_player_id <> '';
