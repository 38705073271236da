-- Elo per player, rule set and calendar month (UTC), and every person's
-- history of finished games. Written in the same transaction as the game's
-- archived_games row (whose game_id primary key makes each game count
-- once), never from anything else.

-- One row per player who played a game that changed Elo in the month; a
-- player without a row stands at the initial rating.
CREATE TABLE ratings (
  variant      text NOT NULL,
  month        text NOT NULL CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  player_id    text NOT NULL,
  display_name text NOT NULL DEFAULT '',
  elo          integer NOT NULL,
  games        integer NOT NULL DEFAULT 0,
  wins         integer NOT NULL DEFAULT 0,
  draws        integer NOT NULL DEFAULT 0,
  losses       integer NOT NULL DEFAULT 0,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (variant, month, player_id)
);

-- Leaderboard pages and ranks: best first, ties by games then player_id.
CREATE INDEX ratings_leaderboard ON ratings (variant, month, elo DESC, games DESC, player_id);

-- One row per PERSON seat of every recorded game; elo_* only when the game
-- changed Elo.
CREATE TABLE rating_history (
  game_id            text NOT NULL REFERENCES archived_games (game_id),
  player_id          text NOT NULL,
  variant            text NOT NULL,
  month              text NOT NULL,
  finished_at        timestamptz NOT NULL,
  color              text NOT NULL,
  outcome            text NOT NULL,
  reason             text NOT NULL,
  opponent_player_id text NOT NULL DEFAULT '',
  -- The opponent's Seat (draughts.v1.Seat), as the record had it.
  opponent           bytea NOT NULL,
  elo_changed        boolean NOT NULL,
  elo_before         integer NOT NULL DEFAULT 0,
  elo_after          integer NOT NULL DEFAULT 0,
  -- By colour, not player: a person playing themselves has two rows.
  PRIMARY KEY (game_id, color)
);

-- A player's games newest first, over every rule set or one.
CREATE INDEX rating_history_player ON rating_history (player_id, finished_at DESC, game_id DESC);
CREATE INDEX rating_history_player_variant
  ON rating_history (player_id, variant, finished_at DESC, game_id DESC);
