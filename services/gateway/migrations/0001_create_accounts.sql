-- Player accounts (services/gateway). One row per account, never reused:
-- `public_id` is what games show as the seat's player id (for an account
-- made from a guest session, that guest's id, so the games the guest was
-- playing stay theirs). Deleting an account clears its name and password
-- hash and stamps deleted_at; the row and its public id stay, so every
-- archived game that names the id still names exactly one (now anonymous)
-- player, and the id is never handed to anyone else.
CREATE TABLE accounts (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  public_id           text NOT NULL UNIQUE,
  name                text,
  password_hash       text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  deleted_at          timestamptz,
  CONSTRAINT accounts_live_or_deleted CHECK (
    (deleted_at IS NULL AND name IS NOT NULL AND password_hash IS NOT NULL) OR
    (deleted_at IS NOT NULL AND name IS NULL AND password_hash IS NULL))
);

-- Names are unique ignoring case: the gateway checks names are ASCII
-- (account_names.h), so lower() is the exact normal form. A deleted
-- account's name is free again.
CREATE UNIQUE INDEX accounts_name_normalised ON accounts (lower(name)) WHERE name IS NOT NULL;
